"""ONNX MatMul is oprig's MatMul without transposes. ONNX Gemm is
alpha * A' * B' + beta * C (A' = A or its transpose by transA, B' likewise):
it maps when alpha is 1 and the C term vanishes (C absent, beta 0, or C all
zeros), transA and transB becoming transpose_a and transpose_b. Everything
else is listed with the reason."""
import numpy as np

ONNX_OPS = ["MatMul", "Gemm"]
TYPES = ("float32", "float16")


def convert(op_type, attrs, inputs, outputs):
    a, b = inputs[0], inputs[1]
    if a.dtype != b.dtype:
        return f"mixed input types {a.dtype} and {b.dtype} (MatMul takes one type)"
    if a.dtype.name not in TYPES:
        return f"type {a.dtype} (MatMul runs FLOAT_32 and FLOAT_16)"
    if a.ndim < 2 or b.ndim < 2:
        return f"an input of rank {min(a.ndim, b.ndim)} (MatMul takes rank 2 or more, as QNN's MatMul)"
    if op_type == "MatMul":
        return {"params": {}, "inputs": [a, b], "outputs": outputs}
    alpha, beta = attrs.get("alpha", 1.0), attrs.get("beta", 1.0)
    c = inputs[2] if len(inputs) > 2 else None
    if alpha != 1.0:
        return f"alpha {alpha} (MatMul has no scale factor)"
    if c is not None and beta != 0.0 and np.any(c != 0):
        return f"bias C of shape {list(c.shape)} with beta {beta:g} (MatMul has no bias input)"
    params = {}
    if attrs.get("transA", 0):
        params["transpose_a"] = True
    if attrs.get("transB", 0):
        params["transpose_b"] = True
    return {"params": params, "inputs": [a, b], "outputs": outputs}
