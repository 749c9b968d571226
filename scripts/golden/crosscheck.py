#!/usr/bin/env python3
"""Cross-checks oprig's golden vectors against NumPy, independently of oprig's
own code (it needs only python3 and numpy).

    python3 scripts/golden/crosscheck.py GOLDEN_DIR [OPSUITE_DIR]

Walks every GOLDEN_DIR/**/manifest.json (golden/<package>/<op>/<golden-id>/),
recomputes each output from the case's inputs with the NumPy function of the
op and compares it with the stored reference. Each op brings its NumPy
function in its own folder: OPSUITE_DIR/<op>/numpy_reference.py (default
OPSUITE_DIR: the opsuite/ beside this script's scripts/ folder) defines
    OP = "Atan"
    def compute(inputs, params, outputs):  # fp64 real inputs (None: left out), params as
                                           # passed, the manifest's output entries (of_dtype: the kernel's type)
        return [values...]                 # fp64 real values, or ("codes", array) for exact codes
An op whose inputs have a layout declares a fourth parameter, `layouts` (one
string per input: "NHWC", "NCHW", or "" when the manifest names none), and
gets them.
and may define FP64_ATOL = <float> (default 0), and the check is:
  * float cases: the stored fp64 reference must lie within 2 ulp of fp64 of
    NumPy's fp64 result (room for libm differences), or within FP64_ATOL of
    it (ops that sum many terms: NumPy sums in another order, and where the
    terms cancel the last bits of a small result differ by more than 2 ulp);
    NaN must meet NaN and an infinity the same infinity.
  * quantised cases (an integer output dtype with scale != 0): the stored codes
    must equal clip(round_half_away_from_zero(y / scale_out) + zero_point_out)
    exactly (NaN maps to zero_point_out), with y the op's fp64 output on the real inputs
    scale_in * (q - zero_point_in); where y / scale_out lies within 1e-9 of a
    .5 tie, +-1 is allowed (the two fp64 computations may fall either side).
Ops that NumPy has no equivalent for are reported as skipped
("not cross-checked"). One line per case, then a final line
"N passed, M failed" (with ", K skipped" appended when K > 0).
Exit status: 0 when nothing failed, 1 when a case failed, 2 on bad usage.
"""
import importlib.util
import inspect
import json
import pathlib
import sys

import numpy as np

FLOAT_ULPS = 2.0
TIE_WINDOW = 1e-9

NUMPY_DTYPES = {
    "FLOAT_16": np.float16, "FLOAT_32": np.float32, "FLOAT_64": np.float64,
    "INT_8": np.int8, "INT_16": np.int16, "INT_32": np.int32, "INT_64": np.int64,
    "UINT_8": np.uint8, "UINT_16": np.uint16, "UINT_32": np.uint32, "UINT_64": np.uint64,
    "BOOL_8": np.bool_,
}


def plain_params(params):
    """Parameter values as the kernel received them (schema 1 wrapped each in {dtype, value})."""
    out = {}
    for name, entry in params.items():
        if isinstance(entry, dict) and "value" in entry:
            value, dtype = entry["value"], entry.get("dtype", "FLOAT_64")
            # A float parameter reached the kernel rounded to its declared type.
            out[name] = float(NUMPY_DTYPES[dtype](value)) if dtype in ("FLOAT_16", "FLOAT_32") else value
        else:
            out[name] = entry
    return out


def load_ops(opsuite_dir):
    """op name -> compute function, from every <op>/numpy_reference.py."""
    ops = {}
    for path in sorted(pathlib.Path(opsuite_dir).glob("*/numpy_reference.py")):
        spec = importlib.util.spec_from_file_location(f"oprig_numpy_{path.parent.name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        ops[module.OP] = (module.compute, float(getattr(module, "FP64_ATOL", 0.0)))
    return ops


class CaseError(Exception):
    pass


def is_quantised(tensor):
    return tensor.get("dtype") not in ("FLOAT_16", "FLOAT_32", "FLOAT_64") or float(tensor.get("scale", 0.0)) != 0.0


def load_tensor(case_dir, tensor):
    path = case_dir / tensor["file"]
    try:
        array = np.load(path, allow_pickle=False)
    except Exception as error:  # noqa: BLE001 - any read problem fails the case
        raise CaseError(f"cannot read {tensor['file']}: {error}") from error
    want = NUMPY_DTYPES.get(tensor.get("dtype"))
    if want is None:
        raise CaseError(f"{tensor['file']}: unknown dtype {tensor.get('dtype')!r} in the manifest")
    if array.dtype != np.dtype(want):
        raise CaseError(f"{tensor['file']}: holds {array.dtype}, the manifest says {tensor['dtype']}")
    if "shape" in tensor and list(array.shape) != list(tensor["shape"]):
        raise CaseError(f"{tensor['file']}: shape {list(array.shape)}, the manifest says {tensor['shape']}")
    return array


def real_input(array, tensor):
    if float(tensor.get("scale", 0.0)) != 0.0:
        return float(tensor["scale"]) * (array.astype(np.float64) - float(tensor.get("zero_point", 0)))
    return array.astype(np.float64)


def first_bad(bad):
    index = np.unravel_index(int(np.flatnonzero(bad)[0]), bad.shape) if bad.ndim else ()
    return tuple(int(i) for i in index)


def check_float(golden, y, atol=0.0):
    """Returns (bad-element mask, NumPy's values, max ulp of fp64 over finite pairs)."""
    golden = golden.astype(np.float64)
    both_nan = np.isnan(golden) & np.isnan(y)
    special = np.isnan(golden) | np.isnan(y) | np.isinf(golden) | np.isinf(y)
    with np.errstate(invalid="ignore"):
        special_ok = both_nan | (special & (golden == y))
        finite = ~special
        ulps = np.zeros(golden.shape)
        ulps[finite] = np.abs(golden[finite] - y[finite]) / np.spacing(np.abs(y[finite]))
    with np.errstate(invalid="ignore"):
        close = np.abs(golden - y) <= atol
    bad = (special & ~special_ok) | (finite & (ulps > FLOAT_ULPS) & ~close)
    max_ulp = float(ulps[finite].max()) if finite.any() else 0.0
    return bad, y, max_ulp


def check_quantised(golden, y, tensor):
    """Returns (bad-element mask, NumPy's codes, max code difference)."""
    info = np.iinfo(NUMPY_DTYPES[tensor["of_dtype"] if "of_dtype" in tensor else tensor["dtype"]])
    scale = float(tensor.get("scale", 0.0)) or 1.0  # a plain integer output: codes are the values
    zero_point = float(tensor.get("zero_point", 0))
    # The stated rule (harness/cases/tensor_data.hpp): NaN has no code and maps to the zero point.
    nan = np.isnan(y)
    t = np.where(nan, 0.0, y) / scale
    rounded = np.sign(t) * np.floor(np.abs(t) + 0.5)  # half away from zero
    expected = np.where(nan, zero_point, np.clip(rounded + zero_point, info.min, info.max))
    near_tie = np.abs(np.abs(t) - np.floor(np.abs(t)) - 0.5) <= TIE_WINDOW
    diff = np.abs(golden.astype(np.float64) - expected)
    bad = diff > np.where(near_tie, 1.0, 0.0)
    return bad, expected, float(diff.max()) if diff.size else 0.0


def crosscheck_case(case_dir, manifest, ops):
    op = manifest.get("op")
    if op not in ops:
        return "SKIP", f"not cross-checked (NumPy has no equivalent of op {op!r})"
    function, fp64_atol = ops[op]
    inputs = [None if t.get("present", True) is False else real_input(load_tensor(case_dir, t), t)
              for t in manifest.get("inputs", [])]
    params = plain_params(manifest.get("params", {}))
    extra = {}
    if "layouts" in inspect.signature(function).parameters:
        extra["layouts"] = [t.get("layout", "") for t in manifest.get("inputs", [])]
    if "scales" in inspect.signature(function).parameters:  # the inputs' quantisation scales (0: none)
        extra["scales"] = [float(t.get("scale", 0.0)) for t in manifest.get("inputs", [])]
    with np.errstate(all="ignore"):
        raw = function(inputs, params, manifest.get("outputs", []), **extra)
    results = []
    for r in raw:
        if isinstance(r, tuple) and r[0] == "codes":
            results.append(("codes", np.asarray(r[1], dtype=np.float64)))
        else:
            results.append(np.asarray(r, dtype=np.float64))
    outputs = manifest.get("outputs", [])
    if len(results) != len(outputs):
        raise CaseError(f"the manifest lists {len(outputs)} outputs, NumPy computed {len(results)}")
    notes = []
    failures = []
    for tensor, y in zip(outputs, results):
        golden = load_tensor(case_dir, tensor)
        exact_codes = isinstance(y, tuple)
        if exact_codes:
            y = y[1]
        if golden.shape != y.shape:
            raise CaseError(f"{tensor['file']}: shape {list(golden.shape)}, NumPy computed {list(y.shape)}")
        if exact_codes:
            diff = np.abs(golden.astype(np.float64) - y)
            bad, numpy_side, worst = diff > 0, y, float(diff.max()) if diff.size else 0.0
            notes.append(f"{tensor['name']}: max {worst:g} code")
        elif is_quantised(tensor):
            bad, numpy_side, worst = check_quantised(golden, y, tensor)
            notes.append(f"{tensor['name']}: max {worst:g} code")
        else:
            bad, numpy_side, worst = check_float(golden, y, fp64_atol)
            notes.append(f"{tensor['name']}: max {worst:.3g} ulp(f64)")
        if bad.any():
            where = first_bad(bad)
            failures.append(f"{tensor['name']}: {int(bad.sum())} of {bad.size} elements differ, first at "
                            f"{list(where)}: golden {golden[where]!r}, numpy {numpy_side[where]!r}")
    if failures:
        return "FAIL", "; ".join(failures)
    return "PASS", ", ".join(notes) if notes else "no outputs"


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: crosscheck.py GOLDEN_DIR [OPSUITE_DIR]", file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    if not root.is_dir():
        print(f"crosscheck: {root} is not a directory", file=sys.stderr)
        return 2
    opsuite = pathlib.Path(argv[2]) if len(argv) == 3 else pathlib.Path(__file__).resolve().parents[2] / "opsuite"
    ops = load_ops(opsuite)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for manifest_path in sorted(root.rglob("manifest.json")):
        case_dir = manifest_path.parent
        name = case_dir.relative_to(root).as_posix()
        try:
            manifest = json.loads(manifest_path.read_text())
            if manifest.get("schema") not in (1, 2):
                raise CaseError(f"unknown manifest schema {manifest.get('schema')!r}")
            status, detail = crosscheck_case(case_dir, manifest, ops)
        except CaseError as error:
            status, detail = "FAIL", str(error)
        except (ValueError, KeyError, TypeError) as error:
            status, detail = "FAIL", f"malformed manifest: {error!r}"
        counts[status] += 1
        print(f"{status} {name}: {detail}")
    summary = f"{counts['PASS']} passed, {counts['FAIL']} failed"
    if counts["SKIP"]:
        summary += f", {counts['SKIP']} skipped"
    print(summary)
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
