"""MatMul in NumPy, for scripts/golden/crosscheck.py, after swapping the last
two axes of an input whose transpose flag is set (the flags default to
false, as in the spec). np.matmul broadcasts the batch dimensions; each dot
product is then summed with math.fsum, exactly rounded (the products of fp32
values are exact in fp64), since a plain fp64 sum of cancelling terms can
miss the exact value by more than the check's 2 ulp of fp64. Sums with
infinities or NaN, where fsum raises, come from np.matmul itself."""
import math

import numpy as np

OP = "MatMul"


def compute(inputs, params, outputs):
    a, b = inputs
    if params.get("transpose_a", False):
        a = np.swapaxes(a, -1, -2)
    if params.get("transpose_b", False):
        b = np.swapaxes(b, -1, -2)
    plain = np.matmul(a, b)
    # Every product, broadcast: [..., M, K, N].
    products = np.broadcast_to(a[..., :, :, None] * b[..., None, :, :],
                               plain.shape[:-2] + (a.shape[-2], a.shape[-1], b.shape[-1]))
    out = np.empty(plain.shape)
    for index in np.ndindex(plain.shape):
        terms = products[index[:-1] + (slice(None), index[-1])]
        out[index] = math.fsum(terms) if np.all(np.isfinite(terms)) else plain[index]
    return [out]
