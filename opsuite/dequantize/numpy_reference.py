"""Dequantize in NumPy, for scripts/golden/crosscheck.py. The cross-check
hands each quantised input over already dequantised, scale * (code -
zero_point) in float64 with the manifest's scale, and that is the op: exact in
float64 for 8-bit codes and an fp32 scale (the plan's scales are fp32 values)."""
import numpy as np

OP = "Dequantize"


def compute(inputs, params, outputs):
    return [np.asarray(inputs[0], dtype=np.float64)]
