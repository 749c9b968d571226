"""ONNX LayerNormalization (opset 17) is LayerNorm with the same axis and
epsilon; Scale is gamma, B (optional) is beta. Only Y is compared: the
optional Mean and InvStdDev outputs (for training) are not outputs of
LayerNorm. stash_type other than 1 (fp32 statistics) cannot map: LayerNorm
states its own precision."""
ONNX_OPS = ["LayerNormalization"]


def convert(op_type, attrs, inputs, outputs):
    x, scale = inputs[0], inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    if x.dtype.name not in ("float32", "float16"):
        return f"input type {x.dtype} (LayerNorm runs FLOAT_32 and FLOAT_16)"
    if int(attrs.get("stash_type", 1)) != 1:
        return f"stash_type {attrs['stash_type']} (statistics in another type than fp32)"
    axis = int(attrs.get("axis", -1))
    normalised = x.shape[axis:]
    if tuple(scale.shape) != tuple(normalised) or (bias is not None and tuple(bias.shape) != tuple(normalised)):
        return f"Scale/B of shape {scale.shape} broadcast to {normalised} (LayerNorm takes gamma and beta of shape in.shape[axis:])"
    params = {"axis": axis}
    if "epsilon" in attrs:
        params["epsilon"] = float(attrs["epsilon"])
    return {"params": params, "inputs": [x, scale, bias], "outputs": outputs[:1]}
