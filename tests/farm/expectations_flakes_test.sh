#!/usr/bin/env bash
# Expected results and flakes end to end, on the planted-bug packages
# (tests/data/packages) under the planted plan (tests/data/planted/atan, cpu):
#  1. the lazy package (last element unwritten on the 7-element cases) fails
#     the run (exit 1); `oprig expectations update` writes the file from it,
#     and a reason written into it by hand survives a second update;
#  2. the same package with that file exits 0, each such case
#     EXPECTED_FAILURE (results.json status, junit <skipped type=...>, the
#     report's outcomes section), every other case PASSED;
#  3. the fixed kernel (the correct package) with the file: those cases
#     UNEXPECTED_PASS, exit 0, and exit 1 with --strict-expectations;
#  4. the flaky package (lazy in one worker process out of three, counted in
#     $OPRIG_TEST_FLAKY_COUNTER): its 7-element cases end FLAKY with the
#     sequence FAILED,PASSED, listed in flakes.txt, exit 0; exit 1 with
#     --fail-on-flakes; FAILED and exit 1 with --flake-reruns 0.
#
#   expectations_flakes_test.sh OPRIG SOURCE_DIR LAZY_PACKAGE GOOD_PACKAGE FLAKY_PACKAGE
set -euo pipefail
oprig=${1:?usage: expectations_flakes_test.sh OPRIG SOURCE_DIR LAZY GOOD FLAKY}
spec=${2:?}/tests/data/planted/atan/atan.xml
lazy=${3:?}
good=${4:?}
flaky=${5:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# run NAME EXPECTED_EXIT PACKAGE ARGS...: oprig run into $work/NAME.
run() {
  local name=$1 want=$2 package=$3 rc=0
  shift 3
  "$oprig" run --spec "$spec" --package "$package" --backend cpu --jobs 1 --out "$work/$name" "$@" \
    >"$work/$name.log" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { tail -20 "$work/$name.log" >&2; fail "$name exited $rc, not $want"; }
}
# count NAME PYTHON_CONDITION: how many cases of NAME's results.json satisfy it (c is the case).
count() {
  python3 -c 'import json,sys
print(sum(1 for c in json.load(open(sys.argv[1]))["cases"] if eval(sys.argv[2])))' "$work/$1/results.json" "$2"
}

# 1. The planted failure, and the file written from it.
run lazy 1 "$lazy"
failed=$(count lazy 'c["verdict"] == "FAILED"')
[ "$failed" -gt 0 ] || fail "the lazy package failed no case"
"$oprig" expectations update "$work/lazy" -o "$work/expected.txt" >"$work/update.log" 2>&1 ||
  { cat "$work/update.log" >&2; fail "expectations update exited $?"; }
lines=$(grep -c ',FAILED' "$work/expected.txt" || true)
[ "$lines" -eq "$failed" ] || fail "expected.txt has $lines FAILED lines for $failed failed cases: $(cat "$work/expected.txt")"
first=$(grep -m1 ',FAILED' "$work/expected.txt" | cut -d, -f1)
sed -i "s|^$first,FAILED.*|$first,FAILED,last element unwritten (planted)|" "$work/expected.txt"
"$oprig" expectations update "$work/lazy" -o "$work/expected.txt" >>"$work/update.log" 2>&1
grep -qF "$first,FAILED,last element unwritten (planted)" "$work/expected.txt" ||
  fail "a second update lost the reason of $first: $(cat "$work/expected.txt")"

# 2. The same failures, expected: exit 0.
run lazy_expected 0 "$lazy" --expectations "$work/expected.txt"
[ "$(count lazy_expected 'c.get("status") == "EXPECTED_FAILURE"')" -eq "$failed" ] ||
  fail "not every planted failure is EXPECTED_FAILURE"
[ "$(count lazy_expected 'c.get("status") is None and c["verdict"] != "PASSED"')" -eq 0 ] ||
  fail "a case without a status did not pass"
[ "$(grep -c '<skipped type="EXPECTED_FAILURE"' "$work/lazy_expected/junit.xml")" -eq "$failed" ] ||
  fail "junit.xml does not show each expected failure as <skipped type=\"EXPECTED_FAILURE\">"
grep -q 'id="outcomes"' "$work/lazy_expected/report.html" || fail "report.html has no outcomes section"

# 3. The kernel fixed: UNEXPECTED_PASS, which fails the run only when strict.
run fixed 0 "$good" --expectations "$work/expected.txt"
[ "$(count fixed 'c.get("status") == "UNEXPECTED_PASS" and c["verdict"] == "PASSED"')" -eq "$failed" ] ||
  fail "the fixed kernel's cases are not UNEXPECTED_PASS"
grep -q 'UNEXPECTED_PASS' "$work/fixed.log" || fail "the run's log does not say UNEXPECTED_PASS"
run fixed_strict 1 "$good" --expectations "$work/expected.txt" --strict-expectations

# 4. A flaky kernel: FLAKY, not FAILED.
OPRIG_TEST_FLAKY_COUNTER=$work/counter1 run flaky 0 "$flaky"
flakes=$(count flaky 'c.get("status") == "FLAKY" and c.get("attempts") == ["FAILED", "PASSED"]')
[ "$flakes" -eq "$failed" ] || fail "$flakes of the $failed 7-element cases are FLAKY with attempts FAILED,PASSED"
[ "$(count flaky 'c.get("status") is None and c["verdict"] != "PASSED"')" -eq 0 ] || fail "the flaky run has a failure"
[ "$(grep -c ',FLAKY' "$work/flaky/flakes.txt")" -eq "$failed" ] || fail "flakes.txt does not list each flake"
[ "$(grep -c '<flakyFailure type="FAILED"' "$work/flaky/junit.xml")" -eq "$failed" ] ||
  fail "junit.xml does not carry each flake's failed attempt as <flakyFailure>"
grep -q 'FLAKY' "$work/flaky/report.html" || fail "report.html does not show the flakes"
OPRIG_TEST_FLAKY_COUNTER=$work/counter2 run flaky_fails 1 "$flaky" --fail-on-flakes
OPRIG_TEST_FLAKY_COUNTER=$work/counter3 run flaky_no_reruns 1 "$flaky" --flake-reruns 0
[ "$(count flaky_no_reruns 'c["verdict"] == "FAILED" and c.get("status") is None')" -eq "$failed" ] ||
  fail "without re-runs the flaky cases are not plain FAILED"
echo "expected failures: $failed; UNEXPECTED_PASS when fixed; FLAKY: $flakes"
