"""Atan in NumPy, for scripts/golden/crosscheck.py: y = atan(x + offset)."""
import numpy as np

OP = "Atan"


def compute(inputs, params, outputs):
    return [np.arctan(inputs[0] + params.get("offset", 0.0))]
