#!/usr/bin/env bash
# The bit-exactness test of oprig_dsp.h against real HVX: builds intrinsics.c
# for Hexagon (clang --target=hexagon, HVX 128-byte, v67, freestanding, linked
# with lld), runs it under qemu-hexagon, and has the host driver (the same
# source on oprig's simulator) compare every result byte.
# Usage: run_bitexact.sh SOURCE_DIR HOST_DRIVER WORK_DIR
# Exit 0 identical, 1 a difference, 77 SKIP when clang with the Hexagon target,
# lld or qemu-hexagon is missing (scripts/setup/install-deps.sh installs
# clang, lld-14 and qemu-user).
set -euo pipefail
source_dir=$1 host_driver=$2 work=$3
here="$source_dir/tests/backends_dsp/hvx_bitexact"
skip() { echo "SKIP: $*"; exit 77; }

clang=$(command -v clang-14 || command -v clang || true)
qemu=$(command -v qemu-hexagon || true)
[[ -n "$clang" ]] || skip "no clang (install clang: Debian's has the Hexagon target)"
# clang -fuse-ld=lld looks for ld.lld beside itself, then on PATH (lld-14 installs both).
clang_dir=$(dirname "$(readlink -f "$clang")")
[[ -x "$clang_dir/ld.lld" ]] || command -v ld.lld >/dev/null || skip "no ld.lld (install lld-14)"
[[ -n "$qemu" ]] || skip "no qemu-hexagon (install qemu-user)"
echo '#include <hvx_hexagon_protos.h>' | "$clang" --target=hexagon -mhvx -mhvx-length=128b -mv67 -x c -fsyntax-only - \
  2>/dev/null || skip "$clang cannot compile HVX code for Hexagon (no Hexagon target or hvx_hexagon_protos.h)"

mkdir -p "$work"
binary="$work/bitexact.hexagon"
sources=("$here/intrinsics.c" "$here/hexagon_start.c" "$here/bitexact.h" "$source_dir/runtime/include/oprig/oprig_dsp.h"
         "$source_dir/runtime/include/oprig/oprig_package.h")
stale=0
[[ -f "$binary" ]] || stale=1
for s in "${sources[@]}"; do [[ "$s" -nt "$binary" ]] && stale=1; done
if (( stale )); then
  echo "building the Hexagon side with $clang (this takes a minute)"
  "$clang" --target=hexagon -ffreestanding -nostdlib -static -mhvx -mhvx-length=128b -mv67 -O2 \
    -fuse-ld=lld -I"$source_dir/runtime/include" -I"$here" \
    "$here/intrinsics.c" "$here/hexagon_start.c" -o "$binary.tmp"
  mv "$binary.tmp" "$binary"
fi
"$qemu" -cpu v67 "$binary" > "$work/qemu.out" 2> "$work/qemu.err" || {
  cat "$work/qemu.err"
  echo "FAIL: qemu-hexagon exited $? on the Hexagon build"
  exit 1
}
echo "$("$qemu" --version | head -1); $("$clang" --version | head -1)"
"$host_driver" "$work/qemu.out"
# The simulator's portable code paths too (where it has faster ones for this CPU).
echo "again on the simulator's portable paths (OPRIG_HVX_PORTABLE=1):"
OPRIG_HVX_PORTABLE=1 "$host_driver" "$work/qemu.out"
# And with SSE2 where the CPU has AVX2 (the paths a CPU without AVX2 takes).
echo "again without the simulator's AVX2 paths (OPRIG_HVX_NO_AVX2=1):"
OPRIG_HVX_NO_AVX2=1 "$host_driver" "$work/qemu.out"
