#!/usr/bin/env bash
# Checks scripts/golden/crosscheck.py on tiny golden dirs built here with numpy:
# a correct one must pass (exit 0), copies with one wrong value must fail (exit 1).
# Usage: crosscheck_test.sh path/to/crosscheck.py
set -euo pipefail
script=$1

# The first python3 that has numpy (pyenv's python3 may lack it; Debian's has it).
python=""
for candidate in "${OPRIG_PYTHON:-}" python3 /usr/bin/python3; do
  if [[ -n "$candidate" ]] && "$candidate" -c 'import numpy' 2>/dev/null; then python=$candidate; break; fi
done
if [[ -z "$python" ]]; then echo "SKIP: no python3 with numpy"; exit 77; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Writes golden dirs under $1; $2 selects a deliberate error: none, float, code.
make_golden() {
  "$python" - "$1" "$2" <<'PY'
import json, math, pathlib, sys
import numpy as np

root, broken = pathlib.Path(sys.argv[1]), sys.argv[2]

def case(op, name, inputs, outputs, params, rounding=""):
    d = root / "org.oprig.opsuite" / op / name
    d.mkdir(parents=True)
    tensors = {"inputs": [], "outputs": []}
    for kind, entries in (("inputs", inputs), ("outputs", outputs)):
        for i, (tensor_name, array, dtype, of_dtype, scale, zp) in enumerate(entries):
            file = f"{'in' if kind == 'inputs' else 'out'}{i}.npy"
            np.save(d / file, array)
            entry = {"name": tensor_name, "file": file, "dtype": dtype, "shape": list(array.shape),
                     "scale": scale, "zero_point": zp}
            if kind == "outputs":
                entry["of_dtype"] = of_dtype
            tensors[kind].append(entry)
    manifest = {"schema": 1, "generator": "crosscheck_test.sh", "reference_sha256": "0" * 64,
                "package": "org.oprig.opsuite", "op": op, "case": name, "seed": 1, "params": params,
                "inputs": tensors["inputs"], "outputs": tensors["outputs"], "rounding": rounding}
    (d / "manifest.json").write_text(json.dumps(manifest, indent=1))

def half_away(t):
    return np.sign(t) * np.floor(np.abs(t) + 0.5)

# fp32 edge inputs, offset 0. The reference is written with math.atan (not
# numpy), as an independent fp64 computation would be.
x = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-40, 3.4028235e38, 0.5], dtype=np.float32)
ref = np.array([math.atan(float(v)) if not math.isnan(v) else math.nan for v in x], dtype=np.float64)
if broken == "float":
    ref[2] += 1e-9  # far more than 2 ulp of fp64
case("Atan", "f32__10__edge", [("in", x, "FLOAT_32", None, 0.0, 0)],
     [("out", ref, "FLOAT_64", "FLOAT_32", 0.0, 0)], {"offset": {"dtype": "FLOAT_32", "value": 0.0}})

# fp32, 2x3, offset 0.1 (rounded to fp32 as the kernel sees it).
x = np.linspace(-3, 3, 6, dtype=np.float32).reshape(2, 3)
offset = float(np.float32(0.1))
ref = np.vectorize(lambda v: math.atan(float(v) + offset))(x).astype(np.float64)
case("Atan", "f32__2x3__offset", [("in", x, "FLOAT_32", None, 0.0, 0)],
     [("out", ref, "FLOAT_64", "FLOAT_32", 0.0, 0)], {"offset": {"dtype": "FLOAT_32", "value": 0.1}})

# uint8 over the whole code range.
rule = "q_out = clip(round_half_away_from_zero(y / scale_out) + zero_point_out, 0, 255)"
q = np.arange(256, dtype=np.uint8)
s_in, zp_in, s_out, zp_out = 0.05, 128, math.pi / 2 / 127, 128
y = np.array([math.atan(s_in * (int(c) - zp_in)) for c in q])
codes = np.clip(half_away(y / s_out) + zp_out, 0, 255).astype(np.uint8)
if broken == "code":
    codes[200] += 1  # not a tie: a real error
case("Atan", "u8__256__range", [("in", q, "UINT_8", None, s_in, zp_in)],
     [("out", codes, "UINT_8", "UINT_8", s_out, zp_out)], {}, rule)

# uint8 where y / scale_out is a .5 tie to fp64 precision: either code passes.
q = np.array([148, 128], dtype=np.uint8)  # real inputs 1.0 and 0.0
s_out = math.atan(1.0) / 10.5              # so y / s_out = 10.5 (up to rounding)
codes = np.array([128 + 11 - 1, 128], dtype=np.uint8)  # the lower neighbour of the tie
case("Atan", "u8__2__tie", [("in", q, "UINT_8", None, 0.05, 128)],
     [("out", codes, "UINT_8", "UINT_8", s_out, 128)], {}, rule)

# An op NumPy has no equivalent for.
case("FancyOp", "f32__1", [("in", np.zeros(1, np.float32), "FLOAT_32", None, 0.0, 0)],
     [("out", np.zeros(1), "FLOAT_64", "FLOAT_32", 0.0, 0)], {})
PY
}

expect() {  # expect WANT_RC WANT_LAST_LINE DIR
  local want_rc=$1 want_last=$2 dir=$3 rc=0 out
  out=$("$python" "$script" "$dir") || rc=$?
  echo "$out"
  if [[ $rc -ne $want_rc ]]; then echo "FAILED: exit $rc, wanted $want_rc"; exit 1; fi
  if [[ "$(tail -n1 <<<"$out")" != "$want_last" ]]; then echo "FAILED: last line is not '$want_last'"; exit 1; fi
}

make_golden "$work/good" none
expect 0 "4 passed, 0 failed, 1 skipped" "$work/good"

make_golden "$work/bad_float" float
expect 1 "3 passed, 1 failed, 1 skipped" "$work/bad_float"

make_golden "$work/bad_code" code
expect 1 "3 passed, 1 failed, 1 skipped" "$work/bad_code"

# A manifest pointing at a missing file fails that case; a missing dir is bad usage.
rm "$work/good/org.oprig.opsuite/Atan/f32__2x3__offset/in0.npy"
expect 1 "3 passed, 1 failed, 1 skipped" "$work/good"
rc=0; "$python" "$script" "$work/does_not_exist" >/dev/null 2>&1 || rc=$?
[[ $rc -eq 2 ]] || { echo "FAILED: missing dir gave exit $rc, wanted 2"; exit 1; }
# An op's numpy_reference.py may allow its fp64 values an absolute slack
# (FP64_ATOL: NumPy sums in another order): 1e-13 off passes, 1e-9 off fails.
mkdir -p "$work/suite/sum_op"
cat >"$work/suite/sum_op/numpy_reference.py" <<'PY'
import numpy as np
OP = "SumOp"
FP64_ATOL = 1e-12
def compute(inputs, params, outputs):
    return [np.array([inputs[0].sum()])]
PY
"$python" - "$work/sum" <<'PY'
import json, pathlib, sys
import numpy as np
x = np.array([0.1, 0.2, -0.3], dtype=np.float32)
for name, off in (("close", 1e-13), ("far", 1e-9)):
    d = pathlib.Path(sys.argv[1]) / "pkg" / "SumOp" / name
    d.mkdir(parents=True)
    np.save(d / "in0.npy", x)
    np.save(d / "out0.npy", np.array([x.astype(np.float64).sum() + off]))
    manifest = {"schema": 2, "op": "SumOp", "case": name, "params": {},
                "inputs": [{"name": "in", "file": "in0.npy", "dtype": "FLOAT_32", "shape": [3], "scale": 0.0, "zero_point": 0}],
                "outputs": [{"name": "out", "file": "out0.npy", "dtype": "FLOAT_64", "of_dtype": "FLOAT_32", "shape": [1],
                             "scale": 0.0, "zero_point": 0}]}
    (d / "manifest.json").write_text(json.dumps(manifest))
PY
rc=0; out=$("$python" "$script" "$work/sum" "$work/suite") || rc=$?
echo "$out"
[[ $rc -eq 1 && "$(tail -n1 <<<"$out")" == "1 passed, 1 failed" ]] || { echo "FAILED: FP64_ATOL"; exit 1; }
echo "crosscheck_test: all checks passed"
