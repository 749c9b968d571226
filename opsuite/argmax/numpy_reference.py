"""ArgMax in NumPy, for scripts/golden/crosscheck.py. np.argmax returns the
first greatest element and treats NaN as the greatest (the spec's order);
select_last_index is np.argmax on the axis reversed, mapped back."""
import numpy as np

OP = "ArgMax"


def compute(inputs, params, outputs):
    (x,) = inputs
    axis = int(params.get("axis", 0))
    keepdims = bool(params.get("keepdims", True))
    last = bool(params.get("select_last_index", False))
    x = np.where(x == 0, 0.0, x)  # -0 equals +0: no tie-break by sign
    if last:
        n = x.shape[axis]
        index = n - 1 - np.argmax(np.flip(x, axis=axis), axis=axis)
    else:
        index = np.argmax(x, axis=axis)
    if keepdims:
        index = np.expand_dims(index, axis)
    return [("codes", index.astype(np.float64))]
