"""Split in NumPy, for scripts/golden/crosscheck.py: np.split at the running
sums of the sizes (equal parts without them)."""
import numpy as np

OP = "Split"


def compute(inputs, params, outputs):
    x = inputs[0]
    axis = int(params.get("axis", 0))
    sizes = params.get("split")
    if sizes is None:
        return np.split(x, len(outputs), axis=axis)
    if isinstance(sizes, (int, float)):
        sizes = [sizes]
    return np.split(x, np.cumsum([int(s) for s in sizes])[:-1], axis=axis)
