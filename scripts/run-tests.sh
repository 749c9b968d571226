#!/usr/bin/env bash
# README command 2 (and .ci/run): installs what is missing, builds, and runs
# every test with ctest; then builds again with AddressSanitizer and
# UndefinedBehaviorSanitizer and runs the unit tests under them (among them
# the replay of every fuzz target's seeds and past findings); last, a short
# fuzzing pass over every reader (fuzz/README.md), OPRIG_FUZZ_SECONDS each
# (default 20; 0 skips it).
# Whatever an earlier configure left in build/'s cache (README command 1
# configures it with OPRIG_BUILD_TESTS=OFF), this one builds every test, and
# ctest fails when it finds none: a test run that ran nothing is not green.
# For the script's own test (tests/scripts/readme_commands_test.sh):
# OPRIG_BUILD_TARGETS (scripts/build.sh) and OPRIG_CTEST_ARGS (extra ctest
# arguments for both halves, e.g. "-R golden_") narrow what is built and run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
read -r -a ctest_args <<<"${OPRIG_CTEST_ARGS:-}"
bash "$root/scripts/setup/install-deps.sh"

# Every option that decides which tests exist, set, not left to the cache.
full_test_build=(-DOPRIG_BUILD_TESTS=ON -DOPRIG_BUILD_BENCHMARKS=ON -DOPRIG_BACKEND_DEFAULTS=ON
                 -DOPRIG_BACKEND_OPENCL=ON -DOPRIG_BACKEND_VULKAN=ON -DOPRIG_BACKEND_DSP=ON)

echo "== release build and all tests"
bash "$root/scripts/build.sh" "$root/build" "${full_test_build[@]}" -DOPRIG_SANITIZE=OFF
(cd "$root/build" && ctest --output-on-failure --no-tests=error -j"$jobs" "${ctest_args[@]}")

echo "== ASan+UBSan build and unit tests"
# Device drivers (PoCL's LLVM, lavapipe) are not built with the sanitizers and
# report their own leaks and races, so the sanitizer build covers oprig's own
# code: cpu and dsp backends, specs, packages, harness, comparator, reports.
# -O1 keeps the sanitized build quick to compile while the numeric sweeps in
# the unit tests still run at a usable speed.
bash "$root/scripts/build.sh" "$root/build-asan" -DOPRIG_SANITIZE=ON -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DOPRIG_BUILD_TESTS=ON -DOPRIG_BACKEND_DSP=ON -DOPRIG_BACKEND_OPENCL=OFF -DOPRIG_BACKEND_VULKAN=OFF \
  -DOPRIG_BUILD_BENCHMARKS=OFF
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$root/build-asan" && ctest --output-on-failure --no-tests=error -j"$jobs" -L unit "${ctest_args[@]}")

echo "== fuzz build and a short fuzzing pass over every reader"
fuzz_seconds=${OPRIG_FUZZ_SECONDS:-20}
if [[ $fuzz_seconds -gt 0 ]]; then
  # Only the fuzz targets and the reader libraries they link (fuzz/CMakeLists.txt);
  # OPRIG_BUILD_TARGETS=none (configure only) leaves nothing to fuzz.
  fuzz_targets=oprig_fuzzers
  [[ ${OPRIG_BUILD_TARGETS:-} == none ]] && fuzz_targets=none
  OPRIG_BUILD_TARGETS=$fuzz_targets bash "$root/scripts/build.sh" "$root/build-fuzz" -DOPRIG_BUILD_FUZZERS=ON \
    -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 -DOPRIG_BUILD_TESTS=OFF -DOPRIG_BUILD_BENCHMARKS=OFF \
    -DOPRIG_BACKEND_OPENCL=OFF -DOPRIG_BACKEND_VULKAN=OFF -DOPRIG_BACKEND_DSP=OFF
  # A fresh corpus each time: CI checks the seeds, past findings and what 20 s of mutation reach.
  if [[ $fuzz_targets != none ]]; then
    rm -rf "$root/build-fuzz/fuzz-work-ci"
    OPRIG_FUZZ_WORK="$root/build-fuzz/fuzz-work-ci" OPRIG_FUZZ_NICE=0 OPRIG_FUZZ_JOBS=$jobs bash "$root/fuzz/run_fuzzers.sh" "$root/build-fuzz" "$fuzz_seconds"
  fi
fi
