#!/usr/bin/env bash
# The README's two commands in the order a new user runs them, from a fresh
# copy of the checkout (its tracked and unignored files, no build folder):
#  1. scripts/run-conformance.sh configures build/ with OPRIG_BUILD_TESTS=OFF;
#  2. scripts/run-tests.sh must then build and run tests in both halves (the
#     release build in that same build/, and the ASan+UBSan build), and fail
#     when a half finds no test (ctest --no-tests=error).
# What CI can afford: both scripts run as written but configure only
# (OPRIG_BUILD_TARGETS=none; building and running everything is what the
# rest of ctest and the conformance test do), and command 2's ctest runs the
# tests that need no build (the NumPy golden cross-checks, OPRIG_CTEST_ARGS).
# Without the fix, command 2's release half printed "No tests were found!!!"
# and went on, and the whole command exited 0.
#
#   readme_commands_test.sh SOURCE_DIR
# Exit 0 ok, 1 a check failed, 77 skipped (not a git checkout; or run inside
# itself, where it would recurse).
set -euo pipefail
src=$(cd "$1" && pwd)
if [[ -n ${OPRIG_README_COMMANDS_TEST:-} ]]; then
  echo "SKIP: already inside readme_commands_test.sh"
  exit 77
fi
export OPRIG_README_COMMANDS_TEST=1
if ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  echo "SKIP: $src is not a git checkout, so there is no clean copy to make"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
clone=$work/oprig
mkdir -p "$clone"
(cd "$src" && git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done | tar --null -T - -cf -) |
  tar -xf - -C "$clone"

fail() {
  echo "FAIL: $*"
  for log in "$work"/*.log; do echo "---- $log (last 30 lines)"; tail -n 30 "$log"; done
  exit 1
}
cached() { sed -n "s/^$1:[A-Z]*=//p" "$clone/$2/CMakeCache.txt"; }
# "100% tests passed, 0 tests failed out of N": N of each ctest in the log, in order.
tests_run() { sed -n 's/.*tests passed, 0 tests failed out of \([0-9][0-9]*\).*/\1/p' "$1"; }

cd "$clone"
export OPRIG_BUILD_TARGETS=none
crosschecks='-R ^golden_(numpy_)?crosscheck'

# 1. README command 1 (configure only: nothing is built, so it tests nothing: exit 3).
rc=0
bash scripts/run-conformance.sh >"$work/command1.log" 2>&1 || rc=$?
[[ $rc == 3 ]] || fail "command 1 exited $rc, expected 3 (configured only, nothing tested)"
[[ $(cached OPRIG_BUILD_TESTS build) == OFF ]] || fail "command 1 did not configure build/ with OPRIG_BUILD_TESTS=OFF"

# 2. README command 2 after it: tests on again, and both halves run some.
OPRIG_CTEST_ARGS=$crosschecks bash scripts/run-tests.sh >"$work/command2.log" 2>&1 || fail "command 2 failed"
[[ $(cached OPRIG_BUILD_TESTS build) == ON ]] || fail "command 2 left OPRIG_BUILD_TESTS=$(cached OPRIG_BUILD_TESTS build) in build/"
grep -q "No tests were found" "$work/command2.log" && fail "a half of command 2 found no tests"
mapfile -t counts < <(tests_run "$work/command2.log")
[[ ${#counts[@]} == 2 ]] || fail "expected a ctest summary from each half of command 2, found ${#counts[@]}"
for n in "${counts[@]}"; do [[ $n -ge 1 ]] || fail "a half of command 2 ran $n tests"; done
grep -q "golden_numpy_crosscheck .*Passed" "$work/command2.log" || fail "the release half did not pass golden_numpy_crosscheck"

# 3. A half that finds no test fails the command: the release half ...
rc=0
OPRIG_CTEST_ARGS='-R ^no_such_test$' bash scripts/run-tests.sh >"$work/no-tests-release.log" 2>&1 || rc=$?
[[ $rc != 0 ]] || fail "command 2 exited 0 though its release half found no test"
grep -q "No tests were found" "$work/no-tests-release.log" || fail "no 'No tests were found' from the release half"
# ... and the sanitizer half (this test is in the release build, label script, but not among -L unit).
rc=0
OPRIG_CTEST_ARGS='-R ^readme_commands_in_order$' bash scripts/run-tests.sh >"$work/no-tests-asan.log" 2>&1 || rc=$?
[[ $rc != 0 ]] || fail "command 2 exited 0 though its sanitizer half found no test"
[[ $(tests_run "$work/no-tests-asan.log" | wc -l) == 1 ]] || fail "the release half of the last run did not run its one test"
grep -q "No tests were found" "$work/no-tests-asan.log" || fail "no 'No tests were found' from the sanitizer half"

echo "ok: command 1 then command 2 from a fresh copy: tests re-enabled; release half ran ${counts[0]}, sanitizer half ${counts[1]} test(s); a half without tests fails"
