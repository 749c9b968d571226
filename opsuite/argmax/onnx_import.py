"""ONNX ArgMax is ArgMax with the same three attributes (axis, keepdims,
select_last_index; ONNX's defaults are the spec's). ONNX returns int64
indices, oprig INT_32: the expected indices are narrowed (they fit)."""
import numpy as np

ONNX_OPS = ["ArgMax"]


def convert(op_type, attrs, inputs, outputs):
    (x,) = inputs
    if x.dtype != np.float32:
        return f"input type {x.dtype} (the cpu spec of ArgMax takes FLOAT_32)"
    params = {"axis": int(attrs.get("axis", 0)), "keepdims": bool(attrs.get("keepdims", 1)),
              "select_last_index": bool(attrs.get("select_last_index", 0))}
    return {"params": params, "inputs": [x], "outputs": [outputs[0].astype(np.int32)]}
