"""ONNX Resize (and the older Upsample) as oprig's Resize. ONNX is NCHW,
Resize NHWC: inputs and expected outputs are transposed; the output size is
the expected output's H and W. Modes nearest and linear map to NEAREST and
BILINEAR, the coordinate transformations half_pixel, align_corners and
asymmetric to theirs (pytorch_half_pixel is half_pixel wherever no output
axis has size 1), nearest_mode one to one. Where ONNX is given scales rather
than sizes it maps coordinates with the given scale (align_corners with the
resized length scale * in, not the whole output size), so such a test maps
only where that scale is out / in exactly.
Upsample's nearest is asymmetric with floor."""
import numpy as np

ONNX_OPS = ["Resize", "Upsample"]
TYPES = ("float32", "float16")
TRANSFORMATIONS = {"half_pixel": "HALF_PIXEL", "align_corners": "ALIGN_CORNERS", "asymmetric": "ASYMMETRIC",
                   "pytorch_half_pixel": "HALF_PIXEL"}
ROUNDINGS = {"round_prefer_floor": "ROUND_PREFER_FLOOR", "round_prefer_ceil": "ROUND_PREFER_CEIL",
             "floor": "FLOOR", "ceil": "CEIL"}


def to_nhwc(x):
    return np.ascontiguousarray(np.transpose(x, (0, 2, 3, 1)))


def convert(op_type, attrs, inputs, outputs):
    x, y = inputs[0], outputs[0]
    if x.dtype.name not in TYPES:
        return f"input type {x.dtype} (Resize runs FLOAT_32 and FLOAT_16 on cpu)"
    if x.ndim != 4:
        return f"rank {x.ndim} (Resize resamples H and W of a 4-D tensor)"
    if y.shape[:2] != x.shape[:2]:
        return f"resizes N or C ({list(x.shape)} -> {list(y.shape)}); Resize resamples H and W only"
    onnx_mode = attrs.get("mode", "nearest")
    if onnx_mode not in ("nearest", "linear"):
        return f"mode {onnx_mode} (Resize has NEAREST and BILINEAR)"
    params = {"output_height": int(y.shape[2]), "output_width": int(y.shape[3]),
              "mode": "NEAREST" if onnx_mode == "nearest" else "BILINEAR"}
    if op_type == "Upsample":
        scales = inputs[1]
        params.update(coordinate_transformation="ASYMMETRIC", nearest_mode="FLOOR")
    else:
        scales = inputs[2] if len(inputs) > 2 else None
        if len(inputs) > 3 and inputs[3] is not None:
            scales = None  # sizes given: ONNX maps coordinates with out / in, as Resize does
        transformation = attrs.get("coordinate_transformation_mode", "half_pixel")
        if transformation not in TRANSFORMATIONS:
            return f"coordinate_transformation_mode {transformation} (no Resize counterpart)"
        if transformation == "pytorch_half_pixel" and min(y.shape[2:]) == 1:
            return "pytorch_half_pixel with an output axis of size 1 (it samples 0 there, half_pixel does not)"
        params["coordinate_transformation"] = TRANSFORMATIONS[transformation]
        if onnx_mode == "nearest":
            params["nearest_mode"] = ROUNDINGS[attrs.get("nearest_mode", "round_prefer_floor")]
    if scales is not None:
        for axis in (2, 3):
            if float(scales[axis]) != y.shape[axis] / x.shape[axis]:
                return (f"scale {float(scales[axis])!r} on axis {axis} is not out / in = "
                        f"{y.shape[axis]} / {x.shape[axis]}: ONNX maps coordinates with the given scale")
    return {"params": params, "inputs": [to_nhwc(x)], "outputs": [to_nhwc(y)]}
