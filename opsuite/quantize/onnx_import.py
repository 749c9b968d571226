"""ONNX QuantizeLinear is Quantize with the output's quantisation taken from
y_scale and y_zero_point (per tensor only: per-axis tests cannot map).
DynamicQuantizeLinear computes its scale and zero point from the data and
returns them as two more outputs; Quantize takes them as its output's
quantisation instead, so such a test maps with those expected values as the
quantisation and only y compared (the scale and zero point themselves are not
checked: oprig's op does not compute them)."""
import numpy as np

ONNX_OPS = ["QuantizeLinear", "DynamicQuantizeLinear"]


def quantised(codes, scale, zero_point):
    return {"array": codes, "scale": float(np.float32(scale)), "zero_point": int(zero_point)}


def convert(op_type, attrs, inputs, outputs):
    x = inputs[0]
    if x.dtype != np.float32:
        return f"input type {x.dtype} (Quantize takes FLOAT_32)"
    if op_type == "DynamicQuantizeLinear":
        y, scale, zero_point = outputs
        return {"params": {}, "inputs": [x], "outputs": [quantised(y, scale, zero_point)]}
    scale = inputs[1]
    zero_point = inputs[2] if len(inputs) > 2 and inputs[2] is not None else np.uint8(0)
    if np.size(scale) != 1 or np.size(zero_point) != 1:
        return (f"per-axis quantisation (axis {attrs.get('axis', 1)}, {np.size(scale)} scales): "
                "a tensor's quantisation in oprig is one scale and one zero point")
    if outputs[0].dtype not in (np.uint8, np.int8):
        return f"output type {outputs[0].dtype} (Quantize makes UINT_8 or INT_8 codes)"
    return {"params": {}, "inputs": [x], "outputs": [quantised(outputs[0], scale, zero_point)]}
