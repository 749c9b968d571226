"""TopK in NumPy, for scripts/golden/crosscheck.py: np.lexsort along each
line of the axis with three keys, most significant last: NaN or not (NaN
ranks above every number), the value (negated for largest), the index (ties
keep index order). -0 and +0 compare equal in NumPy too."""
import numpy as np

OP = "TopK"


def compute(inputs, params, outputs):
    (x,) = inputs
    k = int(params["k"])
    axis = int(params.get("axis", -1))
    largest = bool(params.get("largest", True))
    keep_sorted = bool(params.get("sorted", True))
    moved = np.moveaxis(x, axis, -1)
    lines = moved.reshape(-1, moved.shape[-1])
    values = np.empty((lines.shape[0], k))
    indices = np.empty((lines.shape[0], k))
    position = np.arange(lines.shape[1])
    for r, line in enumerate(lines):
        nan = np.isnan(line)
        finite_part = np.where(nan, 0.0, line)
        if largest:
            order = np.lexsort((position, -finite_part, ~nan))   # NaN first
        else:
            order = np.lexsort((position, finite_part, nan))     # NaN last
        chosen = order[:k] if keep_sorted else np.sort(order[:k])
        values[r] = line[chosen]
        indices[r] = chosen
    shape = moved.shape[:-1] + (k,)
    values = np.moveaxis(values.reshape(shape), -1, axis)
    indices = np.moveaxis(indices.reshape(shape), -1, axis)
    return [values, ("codes", indices)]
