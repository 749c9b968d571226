#!/usr/bin/env bash
# A correct package must pass every time: runs the planted-bug plan
# (tests/data/planted/atan, lifecycle passes included) on the correct test
# package PLANTED_REPEATS times (default 200) and counts the runs in which
# any case did not pass. With PLANTED_GPU_BACKENDS=opencl,vulkan each
# repetition also runs the opencl/vulkan plan (tests/data/planted/atan_gpu)
# there. Exit 0 only when every run passed every case.
#
#   bash scripts/planted/repeat_correct_run.sh build/harness/oprig \
#        build/tests/data/packages/liboprig_test_package_good_all_backends.so
set -euo pipefail
oprig=${1:?usage: repeat_correct_run.sh OPRIG PACKAGE}
package=${2:?usage: repeat_correct_run.sh OPRIG PACKAGE}
repeats=${PLANTED_REPEATS:-200}
gpu_backends=${PLANTED_GPU_BACKENDS:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run: exit 0 and every case PASSED, else the run's non-passing lines are shown.
check_run() {
  local out=$1
  shift
  local rc=0
  "$oprig" run "$@" --out "$out" >"$out.log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "run failed (exit $rc): $*" >&2
    grep -v '"verdict":"PASSED"' "$out/results.jsonl" >&2 || tail -5 "$out.log" >&2
    return 1
  fi
  local total passed
  total=$(wc -l <"$out/results.jsonl")
  passed=$(grep -c '"verdict":"PASSED"' "$out/results.jsonl" || true)
  if [ "$total" -eq 0 ] || [ "$passed" -ne "$total" ]; then
    echo "$passed of $total cases passed: $*" >&2
    grep -v '"verdict":"PASSED"' "$out/results.jsonl" >&2 || true
    return 1
  fi
}

failures=0
for i in $(seq 1 "$repeats"); do
  check_run "$work/cpu_$i" --spec "$root/tests/data/planted/atan/atan.xml" --package "$package" --backend cpu ||
    failures=$((failures + 1))
  if [ -n "$gpu_backends" ]; then
    check_run "$work/gpu_$i" --spec "$root/tests/data/planted/atan_gpu/atan.xml" --package "$package" \
      --backend "$gpu_backends" || failures=$((failures + 1))
  fi
  rm -rf "$work/cpu_$i" "$work/gpu_$i"
done
echo "correct package: $repeats repetitions, $failures failed runs"
[ "$failures" -eq 0 ]
