"""Pool2D in NumPy, for scripts/golden/crosscheck.py: the NHWC input padded
(with -inf for MAX, zeros for AVG) and reduced over shifted strided slices,
one per window cell; np.maximum propagates NaN as the spec says."""
import numpy as np

OP = "Pool2D"
TYPES = ["MAX", "AVG"]


def compute(inputs, params, outputs):
    x = inputs[0]
    kind = params["type"]
    if isinstance(kind, int):
        kind = TYPES[kind]
    kh, kw = (int(v) for v in params["kernel"])
    sh, sw = (int(v) for v in params.get("stride", [1, 1]))
    top, left, bottom, right = (int(v) for v in params.get("pads", [0, 0, 0, 0]))
    include_pad = bool(params.get("count_include_pad", False))
    n, h, w, c = x.shape
    oh = (h + top + bottom - kh) // sh + 1
    ow = (w + left + right - kw) // sw + 1
    widths = ((0, 0), (top, bottom), (left, right), (0, 0))
    if kind == "MAX":
        padded = np.pad(x, widths, constant_values=-np.inf)
        out = np.full((n, oh, ow, c), -np.inf)
        for i in range(kh):
            for j in range(kw):
                out = np.maximum(out, padded[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :])
        return [out]
    padded = np.pad(x, widths)
    inside = np.pad(np.ones((1, h, w, 1)), widths)
    total = np.zeros((n, oh, ow, c))
    cells = np.zeros((1, oh, ow, 1))
    for i in range(kh):
        for j in range(kw):
            total = total + padded[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :]
            cells = cells + inside[:, i:i + sh * (oh - 1) + 1:sh, j:j + sw * (ow - 1) + 1:sw, :]
    return [total / (kh * kw if include_pad else cells)]
