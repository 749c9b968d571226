"""Softmax in NumPy, for scripts/golden/crosscheck.py: the slice maximum
subtracted, exp, divided by the slice sum (in long double), with the spec's NaN rules
(NaN or +inf in a slice, or a slice of -inf only, makes the slice NaN). The
axis default "N-1" is the last axis."""
import numpy as np

OP = "Softmax"


def compute(inputs, params, outputs):
    x = np.asarray(inputs[0], dtype=np.float64)
    axis = params.get("axis", "N-1")
    axis = x.ndim - 1 if axis == "N-1" else int(axis)
    beta = float(params.get("beta", 1.0))
    if x.size == 0:
        return [x.copy()]
    m = np.max(np.where(np.isnan(x), -np.inf, x), axis=axis, keepdims=True)
    undefined = np.any(np.isnan(x) | (x == np.inf), axis=axis, keepdims=True) | (m == -np.inf)
    # The exponentials and the sum in long double: within an fp64 ulp whatever the order.
    with np.errstate(invalid="ignore"):
        e = np.exp(np.longdouble(beta) * (x.astype(np.longdouble) - np.where(undefined, 0.0, m)))
        y = (e / np.sum(e, axis=axis, keepdims=True)).astype(np.float64)
    return [np.where(undefined, np.nan, y)]
