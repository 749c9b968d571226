#!/usr/bin/env bash
# Google Benchmark's own compare.py (Debian's libbenchmark-tools) and `oprig
# compare` on the same two genuine libbenchmark files: compare.py must read
# them unchanged, and its two-sided Mann-Whitney p-value (scipy) must equal
# oprig's p_two_sided. Two pairs: 8 repetitions a side (both use the exact
# distribution) and 25 (both the tie-corrected normal approximation).
# Usage: compare_py_check.sh OPRIG FIXTURE_TOOL. Exit 77: compare.py or scipy absent.
set -euo pipefail
oprig=$1
fixture=$2
compare_py=/usr/share/benchmark/compare.py
python=/usr/bin/python3
[ -f "$compare_py" ] || { echo "skip: $compare_py not installed (libbenchmark-tools)"; exit 77; }
"$python" -c "import scipy" 2>/dev/null || { echo "skip: scipy not installed (python3-scipy)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

series() {  # series N SCALE OFFSET: N times in ms, a fixed pseudo-random pattern
  awk -v n="$1" -v s="$2" -v o="$3" 'BEGIN { x = 0.37; for (i = 0; i < n; i++) { x = (x * 9301 + 49297) % 233280 / 233280;
    printf "%s%.4f", (i ? "," : ""), s * (5 + o + 0.3 * x) } }'
}

check() {  # check N: base vs new 4 % slower, N repetitions each
  local n=$1
  "$fixture" "$work/base$n.json" "k=$(series "$n" 1.00 0)"
  "$fixture" "$work/new$n.json" "k=$(series "$n" 1.04 0.05)"
  (cd "$(dirname "$compare_py")" && "$python" compare.py -d "$work/py$n.json" benchmarks "$work/base$n.json" "$work/new$n.json" > "$work/py$n.txt")
  "$oprig" compare "$work/base$n.json" "$work/new$n.json" --json > "$work/oprig$n.json" || true
  "$python" - "$work/py$n.json" "$work/oprig$n.json" "$n" <<'PY'
import json, sys
py = json.load(open(sys.argv[1]))
oprig = json.load(open(sys.argv[2]))
n = int(sys.argv[3])
rows = [r for r in py if r.get("utest")]
assert len(rows) == 1, f"compare.py found {len(rows)} benchmarks with a U test: {py}"
p_py = rows[0]["utest"]["time_pvalue"]
assert rows[0]["utest"]["nr_of_repetitions"] == n, rows[0]["utest"]
p_oprig = oprig["benchmarks"][0]["p_two_sided"]
print(f"{n} repetitions: compare.py p = {p_py!r}, oprig p = {p_oprig!r}")
assert abs(p_py - p_oprig) <= 1e-9 * max(p_py, 1e-300), "p-values differ"
PY
}

check 8
check 25
echo "compare.py and oprig compare agree"
