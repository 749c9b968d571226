"""ONNX Concat is oprig's Concat: the same axis (negative counts from the
last) and any number of inputs through the Repeated input."""
ONNX_OPS = ["Concat"]
TYPES = ("float32", "float16", "int32")


def convert(op_type, attrs, inputs, outputs):
    dtypes = {x.dtype.name for x in inputs}
    if len(dtypes) != 1 or next(iter(dtypes)) not in TYPES:
        return f"input types {sorted(dtypes)} (Concat runs FLOAT_32, FLOAT_16 and INT_32 on cpu)"
    return {"params": {"axis": int(attrs["axis"])}, "inputs": inputs, "outputs": outputs}
