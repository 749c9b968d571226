"""ONNX Atan is oprig's Atan with offset 0."""
ONNX_OPS = ["Atan"]


def convert(op_type, attrs, inputs, outputs):
    if inputs[0].dtype.name not in ("float32", "float16"):
        return f"input type {inputs[0].dtype} (Atan runs FLOAT_32 and FLOAT_16)"
    return {"params": {}, "inputs": inputs, "outputs": outputs}
