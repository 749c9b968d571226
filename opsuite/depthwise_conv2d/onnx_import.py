"""ONNX Conv with group equal to the input channels (and weights [channels *
multiplier, 1, kh, kw]) is DepthwiseConv2D. The ONNX node tests have one
input channel and group 1, which is exactly that with multiplier = output
channels. ONNX's activations are NCHW, DepthwiseConv2D's NHWC: inputs and
outputs are transposed, the OIHW weights become [kh, kw, 1, out]. auto_pad
SAME_UPPER / SAME_LOWER become the explicit pads they stand for (the op has
explicit pads only: its JSON spec has no enumerations); VALID pads nothing."""
import numpy as np

ONNX_OPS = ["Conv"]
TYPES = ("float32", "float16")


def same_pads(size, kernel, stride, dilation, upper):
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    small, large = total // 2, total - total // 2
    return [small, large] if upper else [large, small]


def convert(op_type, attrs, inputs, outputs):
    x, w = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    if x.dtype.name not in TYPES or w.dtype != x.dtype:
        return f"types {x.dtype} and {w.dtype} (DepthwiseConv2D runs FLOAT_32 and FLOAT_16, one type)"
    if x.ndim != 4:
        return f"a {x.ndim - 2}-D convolution (DepthwiseConv2D is 2-D)"
    channels, group = x.shape[1], int(attrs.get("group", 1))
    if group != channels or w.shape[1] != 1:
        return f"group {group} with {channels} input channels (depthwise needs group = channels)"
    strides, dilations = list(attrs.get("strides", [1, 1])), list(attrs.get("dilations", [1, 1]))
    kh, kw = w.shape[2], w.shape[3]
    auto_pad = attrs.get("auto_pad", "NOTSET")
    if auto_pad == "NOTSET":
        top, left, bottom, right = attrs.get("pads", [0, 0, 0, 0])
        pads = [[top, bottom], [left, right]]
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        upper = auto_pad == "SAME_UPPER"
        pads = [same_pads(x.shape[2], kh, strides[0], dilations[0], upper),
                same_pads(x.shape[3], kw, strides[1], dilations[1], upper)]
    elif auto_pad == "VALID":
        pads = [[0, 0], [0, 0]]
    else:
        return f"auto_pad {auto_pad}"
    params = {"stride": strides, "dilation": dilations, "pad_amount": pads}
    weights = np.ascontiguousarray(w.transpose(2, 3, 1, 0))  # [out, 1, kh, kw] -> [kh, kw, 1, out]
    rest = [weights] if bias is None else [weights, bias]
    return {"params": params, "inputs": [x.transpose(0, 2, 3, 1)] + rest, "outputs": [outputs[0].transpose(0, 2, 3, 1)]}
