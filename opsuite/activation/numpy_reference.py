"""Activation in NumPy, for scripts/golden/crosscheck.py: each mode from its
definition in fp64, the limits at -infinity spelled out as the spec states.
NumPy has no erf: GELU_ERF uses Python's math.erfc element by element (as
0.5 x erfc(-x / sqrt 2), which does not cancel for negative x)."""
import math

import numpy as np

OP = "Activation"
MODES = ["RELU", "RELU6", "SIGMOID", "TANH", "GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"]


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def gelu_erf(x):
    return np.vectorize(lambda v: 0.5 * v * math.erfc(-v / math.sqrt(2.0)) if not math.isnan(v) else v,
                        otypes=[np.float64])(x) if x.size else x


def gelu_tanh(x):
    # 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)): the same value without 1 + tanh's
    # cancellation. In long double: exp(-2u) magnifies the rounding error of u
    # by |2u| (up to about 90), which fp64 would show in its last digits.
    xl = x.astype(np.longdouble)
    u = np.sqrt(2 / np.longdouble("3.14159265358979323846264338327950288")) * (xl + np.longdouble("0.044715") * xl * xl * xl)
    return (xl / (1 + np.exp(-2 * u))).astype(np.float64)


FUNCTIONS = {
    "RELU": lambda x: np.where(x > 0, x, 0.0),
    "RELU6": lambda x: np.where(x > 0, np.minimum(x, 6.0), 0.0),
    "SIGMOID": sigmoid,
    "TANH": np.tanh,
    "GELU_ERF": gelu_erf,
    "GELU_TANH": gelu_tanh,
    "SILU": lambda x: x * sigmoid(x),
    "HARD_SWISH": lambda x: np.where(x <= -3, 0.0, x * np.minimum(x + 3.0, 6.0) / 6.0),
}
ZERO_AT_MINUS_INFINITY = {"GELU_ERF", "GELU_TANH", "SILU", "HARD_SWISH"}


def compute(inputs, params, outputs):
    x = np.asarray(inputs[0], dtype=np.float64)
    mode = params["mode"]
    if isinstance(mode, int):
        mode = MODES[mode]
    y = np.asarray(FUNCTIONS[mode](x), dtype=np.float64)
    y = np.where(np.isnan(x), x, y)  # NaN stays NaN (np.where(x > 0, ...) would give 0)
    if mode in ZERO_AT_MINUS_INFINITY:
        y = np.where(x == -np.inf, 0.0, y)
    return [y]
