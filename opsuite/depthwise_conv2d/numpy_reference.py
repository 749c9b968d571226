"""DepthwiseConv2D in NumPy, for scripts/golden/crosscheck.py, computed
differently from reference.cpp: the input is zero-padded with np.pad and
repeated `multiplier` times along the channels (np.repeat, so channel o of
the copy is input channel o // multiplier); each kernel tap contributes one
strided window of it times that tap's weights, every product kept; each
output element is the math.fsum of its products and the bias, exactly
rounded (products of fp32 values are exact in fp64; a plain fp64 sum of
cancelling terms can miss by more than the check's 2 ulp of fp64)."""
import math

import numpy as np

OP = "DepthwiseConv2D"


def compute(inputs, params, outputs, scales=None):
    x, w = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    if bias is not None and scales and scales[0] != 0 and scales[2] == 0:
        # quantised activations: a plain INT_32 bias counts in units of s_in * s_w (TFLite, NNAPI, QNN)
        bias = bias * (scales[0] * scales[1])
    stride = np.ravel(params.get("stride", [1, 1])).astype(int)
    dilation = np.ravel(params.get("dilation", [1, 1])).astype(int)
    top, bottom, left, right = np.ravel(params.get("pad_amount", [[0, 0], [0, 0]])).astype(int)
    kh, kw, _, c_out = w.shape
    multiplier = c_out // x.shape[3]
    xp = np.repeat(np.pad(x, ((0, 0), (top, bottom), (left, right), (0, 0))), multiplier, axis=3)
    out_h = (xp.shape[1] - ((kh - 1) * dilation[0] + 1)) // stride[0] + 1
    out_w = (xp.shape[2] - ((kw - 1) * dilation[1] + 1)) // stride[1] + 1
    terms = []
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dilation[0], kx * dilation[1]
            window = xp[:, y0:y0 + (out_h - 1) * stride[0] + 1:stride[0], x0:x0 + (out_w - 1) * stride[1] + 1:stride[1], :]
            terms.append(window * w[ky, kx, 0, :])
    if bias is not None:
        terms.append(np.broadcast_to(bias, (x.shape[0], out_h, out_w, c_out)))
    stacked = np.stack(terms, axis=-1)
    y = np.empty(stacked.shape[:-1])
    for index in np.ndindex(y.shape):
        y[index] = math.fsum(stacked[index])
    return [y]
