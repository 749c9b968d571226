"""Quantize in NumPy, for scripts/golden/crosscheck.py: the fp32 quotient
x / scale (float32 division, correctly rounded as IEEE requires), NumPy's rint
(round half to even), plus the zero point, clipped to the code range; NaN gives
the zero point. Returns exact codes."""
import numpy as np

OP = "Quantize"
CODE_RANGES = {"UINT_8": (0, 255), "INT_8": (-128, 127)}


def compute(inputs, params, outputs):
    out = outputs[0]
    low, high = CODE_RANGES[out.get("of_dtype", out["dtype"])]
    scale = np.float32(out["scale"])
    x = inputs[0].astype(np.float32)  # the input is fp32: exact
    with np.errstate(over="ignore", invalid="ignore"):
        quotient = (x / scale).astype(np.float64)
    codes = np.clip(np.rint(quotient) + float(out["zero_point"]), low, high)
    return [("codes", np.where(np.isnan(x), float(out["zero_point"]), codes))]
