#!/usr/bin/env bash
# README command 2 (and .ci/run): installs what is missing, builds, and runs
# every test with ctest; then builds again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the unit tests under them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
bash "$root/scripts/setup/install-deps.sh"

echo "== release build and all tests"
bash "$root/scripts/build.sh" "$root/build"
(cd "$root/build" && ctest --output-on-failure -j"$jobs")

echo "== ASan+UBSan build and unit tests"
# Device drivers (PoCL's LLVM, lavapipe) are not built with the sanitizers and
# report their own leaks and races, so the sanitizer build covers oprig's own
# code: cpu and dsp backends, specs, packages, harness, comparator, reports.
# -O1 keeps the sanitized build quick to compile while the numeric sweeps in
# the unit tests still run at a usable speed.
bash "$root/scripts/build.sh" "$root/build-asan" -DOPRIG_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DOPRIG_BACKEND_OPENCL=OFF -DOPRIG_BACKEND_VULKAN=OFF -DOPRIG_BUILD_BENCHMARKS=OFF
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$root/build-asan" && ctest --output-on-failure -j"$jobs" -L unit)
