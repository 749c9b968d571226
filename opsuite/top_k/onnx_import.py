"""ONNX TopK is TopK: its k input becomes the k parameter, the attributes
axis, largest and sorted map one to one (ONNX's defaults are the spec's).
ONNX returns int64 indices, oprig INT_32: the expected indices are narrowed
(they fit)."""
import numpy as np

ONNX_OPS = ["TopK"]


def convert(op_type, attrs, inputs, outputs):
    x, k = inputs
    if x.dtype != np.float32:
        return f"input type {x.dtype} (the cpu spec of TopK takes FLOAT_32)"
    if k is None or k.size != 1:
        return "k is not a one-element tensor"
    params = {"k": int(k.reshape(-1)[0]), "axis": int(attrs.get("axis", -1)),
              "largest": bool(attrs.get("largest", 1)), "sorted": bool(attrs.get("sorted", 1))}
    values, indices = outputs
    return {"params": params, "inputs": [x], "outputs": [values, indices.astype(np.int32)]}
