#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and runs the conformance
# suite over the bundled ops on every available backend. Ends with the path of
# report.html. Extra arguments go to `oprig run` (e.g. --backend cpu,dsp).
# It builds without the tests (OPRIG_BUILD_TESTS=OFF, faster); README command
# 2 turns them on again in the same build/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup/install-deps.sh"
bash "$root/scripts/build.sh" "$root/build" -DOPRIG_BUILD_TESTS=OFF -DOPRIG_BACKEND_DEFAULTS=ON \
  -DOPRIG_BACKEND_OPENCL=ON -DOPRIG_BACKEND_VULKAN=ON -DOPRIG_BACKEND_DSP=ON -DOPRIG_SANITIZE=OFF
oprig="$root/build/harness/oprig"
if [[ ${OPRIG_BUILD_TARGETS:-} == none || ! -x $oprig ]]; then
  # Only when OPRIG_BUILD_TARGETS left oprig out (the scripts' own test).
  echo "run-conformance: $oprig was not built, so nothing was tested (exit 3)"
  exit 3
fi
status=0
"$oprig" run --backend all --out "$root/oprig-out" "$@" || status=$?
echo
echo "report.html: $root/oprig-out/report.html"
exit $status
