"""ONNX Conv (NCHW activations, OIHW weights) onto Conv2D (weights
[kernel_height, kernel_width, channel_in / group, channel_out] on every
backend). Each 2-D float test is imported twice:
  * as NCHW ("layout": "NCHW"): it runs where the spec's layout is NCHW (the
    GPU backends) and makes `golden check-reference` exercise the
    reference's NCHW path against ONNX's expected output;
  * transposed to NHWC (name suffix "nhwc"): the cpu kernel runs it.
ONNX pads [top, left, bottom, right] become pad_amount [[top, bottom],
[left, right]]; auto_pad SAME_UPPER, SAME_LOWER and VALID map to the padding
mode of the same name; group, strides and dilations map as they are.
QLinearConv imports as NHWC with quantised types (convert_qlinear);
ConvInteger cannot map (its output is the INT_32 accumulators)."""
import numpy as np

ONNX_OPS = ["Conv", "QLinearConv", "ConvInteger"]
TYPES = ("float32", "float16")


def window_params(attrs, w):
    """Conv2D's parameters from ONNX's attributes, or a string: why not."""
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
    return params


def convert_qlinear(attrs, inputs, outputs):
    """QLinearConv onto Conv2D's quantised types (NHWC only: cpu and dsp).
    UINT_8 weights become INT_8 with the same real values (code - 128,
    zero point - 128); the INT_32 bias keeps ONNX's units (s_x * s_w)."""
    x, x_scale, x_zero, w, w_scale, w_zero, y_scale, y_zero = inputs[:8]
    bias = inputs[8] if len(inputs) > 8 else None
    if x.ndim != 4:
        return f"a {x.ndim - 2}-D convolution (Conv2D is 2-D)"
    if np.size(w_scale) != 1 or np.size(w_zero) != 1:
        return "per-channel weight scales (an oprig tensor carries one scale)"
    if x.dtype.name not in ("uint8", "int8") or w.dtype.name not in ("uint8", "int8"):
        return f"types {x.dtype} and {w.dtype} (Conv2D's quantised types are 8-bit)"
    params = window_params(attrs, w)
    if isinstance(params, str):
        return params
    w_zero = int(np.ravel(w_zero)[0])
    if w.dtype.name == "uint8":
        w, w_zero = (w.astype(np.int16) - 128).astype(np.int8), w_zero - 128
    weights = np.ascontiguousarray(w.transpose(2, 3, 1, 0))  # OIHW -> [kh, kw, ci, co]

    def quantised(array, scale, zero):
        return {"array": array, "scale": float(np.ravel(scale)[0]), "zero_point": int(np.ravel(zero)[0])}

    x_in = quantised(x.transpose(0, 2, 3, 1), x_scale, x_zero)
    x_in["layout"] = "NHWC"
    rest = [quantised(weights, w_scale, w_zero)] + ([] if bias is None else [bias.astype(np.int32)])
    y = quantised(np.ascontiguousarray(outputs[0].transpose(0, 2, 3, 1)), y_scale, y_zero)
    return {"params": params, "inputs": [x_in] + rest, "outputs": [y], "name": "nhwc"}


def convert(op_type, attrs, inputs, outputs):
    if op_type == "ConvInteger":
        return "ConvInteger outputs the INT_32 accumulators; Conv2D's quantised output is requantised 8-bit codes"
    if op_type == "QLinearConv":
        return convert_qlinear(attrs, inputs, outputs)
    x, w = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    if x.dtype.name not in TYPES or w.dtype != x.dtype:
        return f"types {x.dtype} and {w.dtype} (Conv2D runs FLOAT_32 and FLOAT_16, one type)"
    if x.ndim != 4:
        return f"a {x.ndim - 2}-D convolution (Conv2D is 2-D)"
    params = window_params(attrs, w)
    if isinstance(params, str):
        return params
    weights = np.ascontiguousarray(w.transpose(2, 3, 1, 0))  # OIHW -> [kh, kw, ci, co]
    y = outputs[0]
    rest = [weights] if bias is None else [weights, bias]
    nchw = {"params": params, "inputs": [{"array": x, "layout": "NCHW"}] + rest, "outputs": [y], "name": "nchw"}
    nhwc = {"params": params, "inputs": [{"array": x.transpose(0, 2, 3, 1), "layout": "NHWC"}] + rest,
            "outputs": [y.transpose(0, 2, 3, 1)], "name": "nhwc"}
    return [nchw, nhwc]
