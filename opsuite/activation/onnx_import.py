"""ONNX Relu, Sigmoid, Tanh, HardSwish and Gelu (opset 20: approximate "none"
or "tanh") are Activation with the matching mode, for FLOAT_32 and FLOAT_16.
ONNX 1.12's node tests (Debian's libonnx-testdata) have no Gelu test yet;
SiLU and RELU6 are not single ONNX ops (NumPy cross-checks cover them)."""
ONNX_OPS = ["Relu", "Sigmoid", "Tanh", "HardSwish", "Gelu"]
MODES = {"Relu": "RELU", "Sigmoid": "SIGMOID", "Tanh": "TANH", "HardSwish": "HARD_SWISH"}


def convert(op_type, attrs, inputs, outputs):
    if inputs[0].dtype.name not in ("float32", "float16"):
        return f"input type {inputs[0].dtype} (Activation runs FLOAT_32 and FLOAT_16)"
    if op_type == "Gelu":
        approximate = attrs.get("approximate", "none")
        if approximate not in ("none", "tanh"):
            return f"Gelu approximate='{approximate}' (Activation has GELU_ERF and GELU_TANH)"
        mode = "GELU_TANH" if approximate == "tanh" else "GELU_ERF"
    else:
        mode = MODES[op_type]
    return {"params": {"mode": mode}, "inputs": inputs, "outputs": outputs}
