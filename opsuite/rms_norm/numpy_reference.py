"""RMSNorm in NumPy, for scripts/golden/crosscheck.py: every slice along the
last axis divided by sqrt(mean(x^2) + epsilon), times weight. In long double
with the sum in element order (a cumulative sum): the operations of
reference.cpp in the same order."""
import numpy as np

OP = "RMSNorm"


def compute(inputs, params, outputs):
    x = np.asarray(inputs[0], dtype=np.float64)
    weight = np.asarray(inputs[1], dtype=np.float64)
    epsilon = np.longdouble(params.get("epsilon", 1e-6))
    n = x.shape[-1]
    if x.size == 0:
        return [x.copy()]
    rows = x.reshape(-1, n).astype(np.longdouble)
    squares = np.cumsum(rows * rows, axis=1)[:, -1:]
    inv_rms = 1 / np.sqrt(squares / n + epsilon)
    y = rows * inv_rms * weight.astype(np.longdouble)
    return [y.astype(np.float64).reshape(x.shape)]
