"""ONNX Split is oprig's Split: the same axis, ONNX's optional `split` input
(sizes) becomes the `split` tensor parameter, and the number of ONNX outputs
is the number of the Repeated output."""
ONNX_OPS = ["Split"]
TYPES = ("float32", "float16", "int32")


def convert(op_type, attrs, inputs, outputs):
    x = inputs[0]
    if x.dtype.name not in TYPES:
        return f"input type {x.dtype} (Split runs FLOAT_32, FLOAT_16 and INT_32 on cpu)"
    params = {"axis": int(attrs.get("axis", 0))}
    sizes = inputs[1] if len(inputs) > 1 else None
    if sizes is None and "split" in attrs:  # opset < 13 had it as an attribute
        sizes = attrs["split"]
    if sizes is not None:
        params["split"] = [int(s) for s in sizes]
    return {"params": params, "inputs": [x], "outputs": outputs}
