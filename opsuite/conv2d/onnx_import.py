"""ONNX Conv (NCHW activations, OIHW weights) onto Conv2D (weights
[kernel_height, kernel_width, channel_in / group, channel_out] on every
backend). Each 2-D float test is imported twice:
  * as NCHW ("layout": "NCHW"): it runs where the spec's layout is NCHW (the
    GPU backends) and makes `golden check-reference` exercise the
    reference's NCHW path against ONNX's expected output;
  * transposed to NHWC (name suffix "nhwc"): the cpu kernel runs it.
ONNX pads [top, left, bottom, right] become pad_amount [[top, bottom],
[left, right]]; auto_pad SAME_UPPER, SAME_LOWER and VALID map to the padding
mode of the same name; group, strides and dilations map as they are."""
import numpy as np

ONNX_OPS = ["Conv"]
TYPES = ("float32", "float16")


def convert(op_type, attrs, inputs, outputs):
    x, w = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    if x.dtype.name not in TYPES or w.dtype != x.dtype:
        return f"types {x.dtype} and {w.dtype} (Conv2D runs FLOAT_32 and FLOAT_16, one type)"
    if x.ndim != 4:
        return f"a {x.ndim - 2}-D convolution (Conv2D is 2-D)"
    auto_pad = attrs.get("auto_pad", "NOTSET")
    params = {"stride": list(attrs.get("strides", [1, 1])), "dilation": list(attrs.get("dilations", [1, 1])),
              "group": int(attrs.get("group", 1))}
    if auto_pad == "NOTSET":
        top, left, bottom, right = attrs.get("pads", [0, 0, 0, 0])
        params["pad_amount"] = [[top, bottom], [left, right]]
    elif auto_pad in ("SAME_UPPER", "SAME_LOWER", "VALID"):
        params["padding"] = auto_pad
    else:
        return f"auto_pad {auto_pad}"
    kernel_shape = attrs.get("kernel_shape")
    if kernel_shape is not None and list(kernel_shape) != list(w.shape[2:]):
        return f"kernel_shape {kernel_shape} differs from the weights {list(w.shape[2:])}"
    weights = np.ascontiguousarray(w.transpose(2, 3, 1, 0))  # OIHW -> [kh, kw, ci, co]
    y = outputs[0]
    rest = [weights] if bias is None else [weights, bias]
    nchw = {"params": params, "inputs": [{"array": x, "layout": "NCHW"}] + rest, "outputs": [y], "name": "nchw"}
    nhwc = {"params": params, "inputs": [{"array": x.transpose(0, 2, 3, 1), "layout": "NHWC"}] + rest,
            "outputs": [y.transpose(0, 2, 3, 1)], "name": "nhwc"}
    return [nchw, nhwc]
