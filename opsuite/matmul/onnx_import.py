"""ONNX MatMul is oprig's MatMul without transposes. ONNX Gemm is
alpha * A' * B' + beta * C (A' = A or its transpose by transA, B' likewise):
it maps when alpha is 1 and the C term vanishes (C absent, beta 0, or C all
zeros), transA and transB becoming transpose_a and transpose_b. Everything
else is listed with the reason.

QLinearMatMul imports onto the quantised types (cpu and dsp): UINT_8 or
INT_8 activations, INT_8 weights (UINT_8 weights become INT_8 with the same
real values: code - 128, zero point - 128), the output of A's type.
MatMulInteger outputs the INT_32 accumulators, which MatMul does not."""
import numpy as np

ONNX_OPS = ["MatMul", "Gemm", "QLinearMatMul", "MatMulInteger"]
TYPES = ("float32", "float16")


def convert_qlinear(inputs, outputs):
    a, a_scale, a_zero, b, b_scale, b_zero, y_scale, y_zero = inputs[:8]
    if a.dtype.name not in ("uint8", "int8") or b.dtype.name not in ("uint8", "int8"):
        return f"types {a.dtype} and {b.dtype} (MatMul's quantised types are 8-bit)"
    if any(np.size(v) != 1 for v in (a_scale, a_zero, b_scale, b_zero, y_scale, y_zero)):
        return "per-row or per-column scales (an oprig tensor carries one scale)"
    if outputs[0].dtype != a.dtype:
        return f"output type {outputs[0].dtype} differs from A's {a.dtype} (MatMul's output takes in0's type)"
    if a.ndim < 2 or b.ndim < 2:
        return f"an input of rank {min(a.ndim, b.ndim)} (MatMul takes rank 2 or more)"
    b_zero = int(np.ravel(b_zero)[0])
    if b.dtype.name == "uint8":
        b, b_zero = (b.astype(np.int16) - 128).astype(np.int8), b_zero - 128

    def quantised(array, scale, zero):
        return {"array": array, "scale": float(np.ravel(scale)[0]), "zero_point": int(np.ravel(zero)[0])}

    return {"params": {}, "inputs": [quantised(a, a_scale, a_zero), quantised(b, b_scale, b_zero)],
            "outputs": [quantised(outputs[0], y_scale, y_zero)]}


def convert(op_type, attrs, inputs, outputs):
    if op_type == "MatMulInteger":
        return "MatMulInteger outputs the INT_32 accumulators; MatMul's quantised output is requantised 8-bit codes"
    if op_type == "QLinearMatMul":
        return convert_qlinear(inputs, outputs)
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
