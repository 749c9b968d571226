"""ScaledDotProductAttention in NumPy, for scripts/golden/crosscheck.py (ONNX
1.12 has no Attention op, so NumPy is the independent check): batched matrix
products in float64, the mask broadcast by NumPy, the causal mask as np.triu,
a softmax that subtracts each row's maximum, NaN for rows with no finite
logit."""
import numpy as np

OP = "ScaledDotProductAttention"
# Sums of up to 150 terms of magnitude <= 8 (the plan's fills) in another
# order than the fp64 reference: they agree to 150 * 8 * 2^-53 = 1.3e-13, and
# where the terms cancel that is more than 2 ulp of a small result.
FP64_ATOL = 1e-12


def compute(inputs, params, outputs):
    q, k, v = inputs[0], inputs[1], inputs[2]
    mask = inputs[3] if len(inputs) > 3 else None
    depth = q.shape[-1]
    scale = params.get("scale")
    if not isinstance(scale, (int, float)) or isinstance(scale, bool):
        scale = 1.0 / np.sqrt(depth)
    logits = scale * np.matmul(q, np.swapaxes(k, -1, -2))  # [B, H, Sq, Sk]
    if mask is not None:
        logits = logits + mask
    if params.get("is_causal", False):
        query_len, key_len = logits.shape[-2:]
        logits = np.where(np.triu(np.ones((query_len, key_len), dtype=bool), k=1), -np.inf, logits)
    if logits.shape[-1] == 0:
        largest = np.full(logits.shape[:-1] + (1,), -np.inf)
    else:
        largest = logits.max(axis=-1, keepdims=True)
    no_key = ~np.isfinite(largest)
    weights = np.exp(logits - np.where(no_key, 0.0, largest))
    out = np.matmul(weights / weights.sum(axis=-1, keepdims=True), v)
    return [np.where(no_key, np.nan, out)]
