"""ElementwiseBinary in NumPy, for scripts/golden/crosscheck.py. Floats with
NumPy's ufuncs (maximum/minimum propagate NaN, as the spec says); INT_32 with
Python integers, so that truncating division and wrap-around are exact."""
import numpy as np

OP = "ElementwiseBinary"
OPERATIONS = ["ADD", "SUB", "MUL", "DIV", "MAX", "MIN", "POW"]
FLOAT_FUNCTIONS = {"ADD": np.add, "SUB": np.subtract, "MUL": np.multiply, "DIV": np.divide,
                   "MAX": np.maximum, "MIN": np.minimum, "POW": np.power}


def int_op(op, x, y, floor_division=False):
    if op == "ADD":
        r = x + y
    elif op == "SUB":
        r = x - y
    elif op == "MUL":
        r = x * y
    elif op == "DIV" and floor_division:
        r = x // y  # Python floors
    elif op == "DIV":
        r = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)  # truncation toward zero
    elif op == "MAX":
        r = max(x, y)
    elif op == "MIN":
        r = min(x, y)
    else:  # POW; a negative exponent is the truncated quotient
        r = x ** y if y >= 0 else (1 if x == 1 else ((-1) ** (-y) if x == -1 else 0))
    return ((r + 2**31) % 2**32) - 2**31  # int32 wrap-around


ACTIVATIONS = ["NONE", "RELU", "RELU1", "RELU6"]
BOUNDS = {"NONE": (None, None), "RELU": (0, None), "RELU1": (-1, 1), "RELU6": (0, 6)}


def activate(name, r):
    """min(max(r, lo), hi) with selects: NaN and -0 pass unchanged."""
    lo, hi = BOUNDS[name]
    if lo is not None:
        r = np.where(r < lo, lo, r)
    if hi is not None:
        r = np.where(hi < r, hi, r)
    return r


def compute(inputs, params, outputs):
    a, b = inputs
    op = params["operation"]
    if isinstance(op, int):
        op = OPERATIONS[op]
    act = params.get("fused_activation", "NONE")
    if isinstance(act, int):
        act = ACTIVATIONS[act]
    division = params.get("integer_division", "TRUNCATE")
    floor_division = division in ("FLOOR", 1)
    if outputs[0].get("of_dtype", outputs[0]["dtype"]) == "INT_32":
        a_b, b_b = np.broadcast_arrays(a, b)
        flat = [int_op(op, int(x), int(y), floor_division) for x, y in zip(a_b.ravel(), b_b.ravel())]
        return [("codes", activate(act, np.array(flat, dtype=np.float64).reshape(a_b.shape)))]
    return [activate(act, FLOAT_FUNCTIONS[op](a, b))]
