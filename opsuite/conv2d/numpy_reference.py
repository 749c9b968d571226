"""Conv2D in NumPy, for scripts/golden/crosscheck.py, computed differently
from reference.cpp: the input is moved to NHWC and zero-padded with np.pad;
each kernel tap contributes one strided window of it times that tap's
weights, every product kept; each output element is the math.fsum of its
products and the bias, exactly rounded (products of fp32 values are exact in
fp64; a plain fp64 sum of cancelling terms can miss by more than the check's
2 ulp of fp64). NCHW cases are transposed in and out."""
import math

import numpy as np

OP = "Conv2D"
MODES = ["EXPLICIT", "SAME_UPPER", "SAME_LOWER", "VALID"]


def pads_of(mode, size, kernel, stride, dilation, before, after):
    span = (kernel - 1) * dilation + 1
    if mode in ("SAME_UPPER", "SAME_LOWER"):
        out = -(-size // stride)
        total = max(0, (out - 1) * stride + span - size)
        small, large = total // 2, total - total // 2
        return (small, large) if mode == "SAME_UPPER" else (large, small)
    if mode == "VALID":
        return 0, 0
    return before, after


def compute(inputs, params, outputs, layouts, scales=None):
    x, w = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    if bias is not None and scales and scales[0] != 0 and scales[2] == 0:
        # quantised activations: a plain INT_32 bias counts in units of s_in * s_w (TFLite, NNAPI, QNN)
        bias = bias * (scales[0] * scales[1])
    nchw = layouts[0] == "NCHW"
    if nchw:
        x = x.transpose(0, 2, 3, 1)
    stride = np.ravel(params.get("stride", [1, 1])).astype(int)
    dilation = np.ravel(params.get("dilation", [1, 1])).astype(int)
    pads = np.ravel(params.get("pad_amount", [[0, 0], [0, 0]])).astype(int)
    group = int(params.get("group", 1))
    mode = params.get("padding", "EXPLICIT")
    if isinstance(mode, int):
        mode = MODES[mode]
    kh, kw, group_in, c_out = w.shape
    top, bottom = pads_of(mode, x.shape[1], kh, stride[0], dilation[0], pads[0], pads[1])
    left, right = pads_of(mode, x.shape[2], kw, stride[1], dilation[1], pads[2], pads[3])
    xp = np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0)))
    out_h = (xp.shape[1] - ((kh - 1) * dilation[0] + 1)) // stride[0] + 1
    out_w = (xp.shape[2] - ((kw - 1) * dilation[1] + 1)) // stride[1] + 1
    group_out = c_out // group
    # terms[n, y, x, co, t]: every product of the window sums, then the bias.
    terms = []
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dilation[0], kx * dilation[1]
            window = xp[:, y0:y0 + (out_h - 1) * stride[0] + 1:stride[0], x0:x0 + (out_w - 1) * stride[1] + 1:stride[1], :]
            for ci in range(group_in):
                # Output channel co reads input channel (co // group_out) * group_in + ci.
                channel = (np.arange(c_out) // group_out) * group_in + ci
                terms.append(window[..., channel] * w[ky, kx, ci, :])
    if bias is not None:
        terms.append(np.broadcast_to(bias, (x.shape[0], out_h, out_w, c_out)))
    stacked = np.stack(terms, axis=-1) if terms else np.zeros((x.shape[0], out_h, out_w, c_out, 0))
    y = np.empty(stacked.shape[:-1])
    for index in np.ndindex(y.shape):
        y[index] = math.fsum(stacked[index])
    return [y.transpose(0, 3, 1, 2) if nchw else y]
