"""Resize in NumPy, for scripts/golden/crosscheck.py: per axis, the input
coordinates of every output index as one array (left-to-right formulas, so
ties are exact), rounded (NEAREST) or split into two neighbours and a weight
(BILINEAR), then a gather of the NHWC input."""
import numpy as np

OP = "Resize"
MODES = ["NEAREST", "BILINEAR"]
TRANSFORMATIONS = ["ALIGN_CORNERS", "HALF_PIXEL", "ASYMMETRIC"]
ROUNDINGS = ["ROUND_PREFER_FLOOR", "ROUND_PREFER_CEIL", "FLOOR", "CEIL"]


def name(value, names, default):
    if value is None:
        return default
    return names[value] if isinstance(value, int) else value


def coordinates(transformation, size_in, size_out):
    x = np.arange(size_out, dtype=np.float64)
    if transformation == "ALIGN_CORNERS":
        return np.zeros(size_out) if size_out == 1 else x * (size_in - 1) / (size_out - 1)
    if transformation == "HALF_PIXEL":
        return (x + 0.5) * size_in / size_out - 0.5
    return x * size_in / size_out


def nearest(rounding, x, size_in):
    index = {"ROUND_PREFER_FLOOR": np.ceil(x - 0.5), "ROUND_PREFER_CEIL": np.floor(x + 0.5),
             "FLOOR": np.floor(x), "CEIL": np.ceil(x)}[rounding]
    return np.clip(index.astype(np.int64), 0, size_in - 1)


def compute(inputs, params, outputs):
    x = inputs[0]
    _, height, width, _ = x.shape
    out_h, out_w = int(params["output_height"]), int(params["output_width"])
    mode = name(params.get("mode"), MODES, "NEAREST")
    transformation = name(params.get("coordinate_transformation"), TRANSFORMATIONS, "HALF_PIXEL")
    rounding = name(params.get("nearest_mode"), ROUNDINGS, "ROUND_PREFER_FLOOR")
    ys, xs = coordinates(transformation, height, out_h), coordinates(transformation, width, out_w)
    if mode == "NEAREST":
        return [x[:, nearest(rounding, ys, height)][:, :, nearest(rounding, xs, width)]]
    ys, xs = np.clip(ys, 0, height - 1), np.clip(xs, 0, width - 1)
    y0, x0 = np.floor(ys).astype(np.int64), np.floor(xs).astype(np.int64)
    y1, x1 = np.minimum(y0 + 1, height - 1), np.minimum(x0 + 1, width - 1)
    wy, wx = (ys - y0)[None, :, None, None], (xs - x0)[None, None, :, None]
    a, b = x[:, y0][:, :, x0], x[:, y0][:, :, x1]
    c, d = x[:, y1][:, :, x0], x[:, y1][:, :, x1]
    return [(1 - wx) * ((1 - wy) * a + wy * c) + wx * ((1 - wy) * b + wy * d)]
