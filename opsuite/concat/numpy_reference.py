"""Concat in NumPy, for scripts/golden/crosscheck.py: np.concatenate."""
import numpy as np

OP = "Concat"


def compute(inputs, params, outputs):
    return [np.concatenate(inputs, axis=int(params.get("axis", 0)))]
