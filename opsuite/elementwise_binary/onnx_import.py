"""ONNX Add, Sub, Mul, Div, Max, Min and Pow are ElementwiseBinary with the
matching operation, for the types the op has (FLOAT_32, FLOAT_16, INT_32)."""
ONNX_OPS = ["Add", "Sub", "Mul", "Div", "Max", "Min", "Pow"]
TYPES = ("float32", "float16", "int32")


def convert(op_type, attrs, inputs, outputs):
    if len(inputs) != 2:
        return f"{len(inputs)} inputs (ElementwiseBinary takes exactly 2; ONNX {op_type} is variadic)"
    a, b = inputs
    if a.dtype != b.dtype:
        return f"mixed input types {a.dtype} and {b.dtype} (ElementwiseBinary takes one type)"
    if a.dtype.name not in TYPES:
        return f"type {a.dtype} (ElementwiseBinary has FLOAT_32, FLOAT_16, INT_32)"
    return {"params": {"operation": op_type.upper()}, "inputs": [a, b], "outputs": outputs}
