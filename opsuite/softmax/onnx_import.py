"""ONNX Softmax of opset 13 (one axis, default -1; every Softmax node test of
ONNX 1.12 is opset 13) is Softmax with that axis and beta 1."""
ONNX_OPS = ["Softmax"]


def convert(op_type, attrs, inputs, outputs):
    x = inputs[0]
    if x.dtype.name not in ("float32", "float16"):
        return f"input type {x.dtype} (Softmax runs FLOAT_32 and FLOAT_16)"
    if x.ndim == 0:
        return "a scalar input (Softmax needs rank >= 1)"
    return {"params": {"axis": int(attrs.get("axis", -1))}, "inputs": [x], "outputs": outputs}
