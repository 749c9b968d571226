#!/usr/bin/env bash
# README command 1: installs what is missing, builds, and runs the conformance
# suite over the bundled ops on every available backend. Ends with the path of
# report.html. Extra arguments go to `oprig run` (e.g. --backend cpu,dsp).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup/install-deps.sh"
bash "$root/scripts/build.sh" "$root/build" -DOPRIG_BUILD_TESTS=OFF
status=0
"$root/build/harness/oprig" run --backend all --out "$root/oprig-out" "$@" || status=$?
echo
echo "report.html: $root/oprig-out/report.html"
exit $status
