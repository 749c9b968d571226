"""ONNX DequantizeLinear is Dequantize with the input's quantisation taken
from x_scale and x_zero_point (per tensor only: per-axis tests cannot map)."""
import numpy as np

ONNX_OPS = ["DequantizeLinear"]


def convert(op_type, attrs, inputs, outputs):
    x, scale = inputs[0], inputs[1]
    zero_point = inputs[2] if len(inputs) > 2 and inputs[2] is not None else np.zeros((), x.dtype)
    if np.size(scale) != 1 or np.size(zero_point) != 1:
        return (f"per-axis quantisation (axis {attrs.get('axis', 1)}, {np.size(scale)} scales): "
                "a tensor's quantisation in oprig is one scale and one zero point")
    if x.dtype not in (np.uint8, np.int8):
        return f"input type {x.dtype} (Dequantize reads UINT_8 or INT_8 codes)"
    if outputs[0].dtype != np.float32:
        return f"output type {outputs[0].dtype} (Dequantize makes FLOAT_32)"
    return {"params": {},
            "inputs": [{"array": x, "scale": float(np.float32(scale)), "zero_point": int(zero_point)}],
            "outputs": outputs}
