#!/usr/bin/env bash
# Configures and builds oprig. Usage: scripts/build.sh BUILD_DIR [cmake args...]
# OPRIG_BUILD_TARGETS="t1 t2" builds only those targets; "none" only
# configures (tests/scripts/readme_commands_test.sh runs the README's
# commands that way from a fresh copy of the checkout).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build"}
shift || true
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "$@"
targets=${OPRIG_BUILD_TARGETS:-}
if [[ $targets == none ]]; then
  echo "build.sh: configured $build only (OPRIG_BUILD_TARGETS=none)"
  exit 0
fi
target_args=()
for t in $targets; do target_args+=(--target "$t"); done
cmake --build "$build" -j"$(nproc)" "${target_args[@]}"
