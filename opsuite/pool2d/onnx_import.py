"""ONNX MaxPool, AveragePool, GlobalMaxPool and GlobalAveragePool as Pool2D.
ONNX is NCHW, Pool2D NHWC: inputs and expected outputs are transposed;
plain uint8 tensors become quantised UINT_8 with scale 1 and zero point 0.
1-D pooling ([N, C, L]) is Pool2D with a height of 1. auto_pad SAME_UPPER /
SAME_LOWER become explicit pads, as ONNX defines them (the extra one at the
end for SAME_UPPER, at the start for SAME_LOWER); ceil_mode becomes extra end
padding, which is the same where padding is not counted (MAX, or AVG without
count_include_pad); the global pools are a window of the whole input."""
import math

import numpy as np

ONNX_OPS = ["MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool"]
TYPES = ("float32", "float16", "uint8")


def to_nhwc(x):
    return np.ascontiguousarray(np.transpose(x, (0, 2, 3, 1)))


def same_pads(size, kernel, stride, lower):
    out = -(-size // stride)
    total = max((out - 1) * stride + kernel - size, 0)
    small = total // 2
    return (total - small, small) if lower else (small, total - small)


def convert(op_type, attrs, inputs, outputs):
    x = inputs[0]
    if x.dtype.name not in TYPES:
        return f"input type {x.dtype} (Pool2D runs FLOAT_32, FLOAT_16 and quantised UINT_8 on cpu)"
    if len(outputs) != 1:
        return f"{len(outputs)} outputs: the Indices output of MaxPool has no Pool2D counterpart"
    if x.ndim not in (3, 4):
        return f"{x.ndim - 2}-D pooling (Pool2D pools H and W of a 4-D tensor; 1-D maps as a height of 1)"
    one_d = x.ndim == 3
    if one_d:
        x = x[:, :, np.newaxis, :]
        outputs = [outputs[0][:, :, np.newaxis, :]]
    height, width = x.shape[2], x.shape[3]
    kind = "MAX" if "Max" in op_type else "AVG"
    if op_type.startswith("Global"):
        return finish({"type": kind, "kernel": [height, width]}, x, outputs)

    def pair(values):
        return [1] + list(values) if one_d else list(values)

    kernel = pair(attrs["kernel_shape"])
    stride = pair(attrs.get("strides", [1] * len(attrs["kernel_shape"])))
    if any(d != 1 for d in attrs.get("dilations", [])):
        return f"dilations {list(attrs['dilations'])} (Pool2D has no dilation)"
    if attrs.get("storage_order", 0) != 0:
        return "storage_order 1 (only affects the Indices output, which Pool2D does not have)"
    onnx_pads = attrs.get("pads", [0] * (2 * len(attrs["kernel_shape"])))
    if one_d:
        top, left, bottom, right = 0, onnx_pads[0], 0, onnx_pads[1]
    else:
        top, left, bottom, right = onnx_pads
    auto_pad = attrs.get("auto_pad", "NOTSET")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        lower = auto_pad == "SAME_LOWER"
        top, bottom = same_pads(height, kernel[0], stride[0], lower)
        left, right = same_pads(width, kernel[1], stride[1], lower)
    elif auto_pad not in ("NOTSET", "VALID"):
        return f"auto_pad {auto_pad}"
    include_pad = bool(attrs.get("count_include_pad", 0)) and kind == "AVG"
    if attrs.get("ceil_mode", 0):
        if include_pad:
            return "ceil_mode with count_include_pad (the extra windows would count padding Pool2D does not have)"
        extra = []
        for size, k, s, begin, end in ((height, kernel[0], stride[0], top, bottom),
                                       (width, kernel[1], stride[1], left, right)):
            out = -(-(size + begin + end - k) // s) + 1
            if (out - 1) * s >= size + begin:  # ONNX drops a last window that starts in the end padding
                out -= 1
            extra.append(max((out - 1) * s + k - (size + begin + end), 0))
        bottom, right = bottom + extra[0], right + extra[1]
    pads = [top, left, bottom, right]
    if any(p >= k for p, k in zip(pads, kernel + kernel)):
        return f"pads {pads} not below the kernel {kernel} (a window of padding only)"
    params = {"type": kind, "kernel": kernel, "stride": stride, "pads": pads, "count_include_pad": include_pad}
    return finish(params, x, outputs)


def finish(params, x, outputs):
    x, y = to_nhwc(x), to_nhwc(outputs[0])
    if x.dtype.name == "uint8":  # plain integers: Pool2D's UINT_8 is quantised, with scale 1 these are its codes
        x, y = ({"array": t, "scale": 1.0, "zero_point": 0} for t in (x, y))
    return {"params": params, "inputs": [x], "outputs": [y]}
