#!/usr/bin/env bash
# Runs of one selection on two devices merge into a device matrix, and
# report.html shows it in headless Chromium. Two devices on one machine: the
# second run has lavapipe at 128-bit vectors (LP_NATIVE_VECTOR_WIDTH, another
# Vulkan device name) and the cpu backend capped to scalar (OPRIG_CPU_ISA).
# Also merge's refusals (exit 2): inputs of different selections, and a case
# present in two inputs with different verdicts (one run's results.json
# edited), the error naming the case.
#
#   device_matrix_test.sh OPRIG SOURCE_DIR
# Exit 77 (SKIP) without the vulkan backend (lavapipe) or without Chromium.
set -euo pipefail
oprig=${1:?usage: device_matrix_test.sh OPRIG SOURCE_DIR}
source_dir=${2:?usage: device_matrix_test.sh OPRIG SOURCE_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

backends=$("$oprig" backends 2>/dev/null || true)
grep -q '^vulkan  *available' <<<"$backends" || { echo "SKIP: no vulkan device here"; exit 77; }
selection=(--op atan --backend cpu,vulkan --jobs 2)
"$oprig" run "${selection[@]}" --out "$work/d1" >"$work/d1.log" 2>&1 ||
  { tail -20 "$work/d1.log" >&2; fail "the first device's run exited $?"; }
LP_NATIVE_VECTOR_WIDTH=128 OPRIG_CPU_ISA=scalar "$oprig" run "${selection[@]}" --out "$work/d2" >"$work/d2.log" 2>&1 ||
  { tail -20 "$work/d2.log" >&2; fail "the second device's run exited $?"; }

"$oprig" merge --devices "$work/d1" "$work/d2" -o "$work/matrix" >"$work/merge.log" 2>&1 ||
  { cat "$work/merge.log" >&2; fail "merge --devices exited $?"; }
grep -q '^merged 2 input(s), .* on 2 devices' "$work/merge.log" || fail "merge did not find 2 devices: $(cat "$work/merge.log")"
grep -q '128 bits' "$work/merge.log" || fail "the devices' labels do not name lavapipe's vector width"

# Different selections are not parts of one run: refused.
"$oprig" run --op softmax --backend cpu --jobs 2 --out "$work/other" >"$work/other.log" 2>&1 ||
  fail "the softmax run exited $?"
rc=0
"$oprig" merge "$work/d1" "$work/other" -o "$work/refused" >"$work/refused.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat "$work/refused.log" >&2; fail "merging two different selections exited $rc, not 2"; }

# One case, two verdicts: an error naming it.
cp -r "$work/d1" "$work/d1-edited"
edited=$(python3 - "$work/d1-edited/results.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))
case = next(c for c in results["cases"] if c["backend"] == "cpu")
case["verdict"] = "FAILED"
json.dump(results, open(sys.argv[1], "w"))
print(case["id"])
PY
)
rc=0
"$oprig" merge "$work/d1" "$work/d1-edited" -o "$work/two-verdicts" >"$work/two-verdicts.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -qF "case $edited has two verdicts: PASSED" "$work/two-verdicts.log" ||
  { cat "$work/two-verdicts.log" >&2; fail "a case with two verdicts: exit $rc, not 2 naming $edited"; }

# The page, as Chromium renders it: one column per device, a row per op x backend.
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium_bin" ] || { echo "SKIP: Chromium is not installed (the merge checks above passed)"; exit 77; }
bash "$source_dir/scripts/ci/check_report_in_browser.sh" "$work/matrix/report.html" >/dev/null
timeout 120 "$chromium_bin" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
  --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$work/profile" --dump-dom \
  "file://$work/matrix/report.html" >"$work/dom.html" 2>/dev/null
python3 - "$work/dom.html" <<'PY'
import sys
from html.parser import HTMLParser

class Matrix(HTMLParser):
    """The rows of the table inside id="device-matrix": each row's cells' text."""
    def __init__(self):
        super().__init__()
        self.depth = 0; self.rows = []; self.cell = None
    def handle_starttag(self, tag, attrs):
        if dict(attrs).get("id") == "device-matrix": self.depth = 1; return
        if self.depth:
            self.depth += tag not in ("br", "img", "input")
            if tag == "tr": self.rows.append([])
            if tag in ("td", "th") and self.rows: self.cell = []
    def handle_endtag(self, tag):
        if not self.depth: return
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split())); self.cell = None
        self.depth -= 1
    def handle_data(self, data):
        if self.cell is not None: self.cell.append(data)

m = Matrix(); m.feed(open(sys.argv[1], encoding="utf-8").read())
rows = [r for r in m.rows if r]
header = [r for r in rows if r[0] == "op"]
body = [r for r in rows if r[0].startswith("Atan")]
assert header and "256 bits" in header[0][2] and "128 bits" in header[0][3], header
assert sorted(r[1] for r in body) == ["cpu", "vulkan"], body
for r in body: assert "PASSED" in r[2] and "PASSED" in r[3], r
print("device matrix in Chromium: %d op x backend rows, devices: %s | %s" % (len(body), header[0][2][:60], header[0][3][:60]))
PY
