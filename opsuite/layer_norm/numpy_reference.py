"""LayerNorm in NumPy, for scripts/golden/crosscheck.py: every slice over the
axes axis..N-1 normalised to mean 0 and (biased) variance 1, then scaled by
gamma and shifted by beta. In long double with the sums in element order
(cumulative sums), the operations of reference.cpp in the same order: where
x - mean or the final sum cancels, fp64 alone could not agree to 2 ulp."""
import numpy as np

OP = "LayerNorm"


def compute(inputs, params, outputs):
    x = np.asarray(inputs[0], dtype=np.float64)
    gamma = np.asarray(inputs[1], dtype=np.float64)
    beta = inputs[2] if len(inputs) > 2 else None
    axis = int(params.get("axis", -1))
    axis = axis + x.ndim if axis < 0 else axis
    epsilon = np.longdouble(params.get("epsilon", 1e-5))
    n = int(np.prod(x.shape[axis:], dtype=np.int64))
    if x.size == 0 or n == 0:
        return [x.copy()]
    rows = x.reshape(-1, n).astype(np.longdouble)
    mean = np.cumsum(rows, axis=1)[:, -1:] / n
    centred = rows - mean
    variance = np.cumsum(centred * centred, axis=1)[:, -1:] / n
    inv_std = 1 / np.sqrt(variance + epsilon)
    shift = np.zeros(n, dtype=np.longdouble) if beta is None else np.asarray(beta).reshape(n).astype(np.longdouble)
    y = gamma.reshape(n).astype(np.longdouble) * (centred * inv_std) + shift
    return [y.astype(np.float64).reshape(x.shape)]
