#!/usr/bin/env bash
# Installs the Debian 12 packages oprig builds and tests with. Idempotent: packages
# already present are not fetched again, and apt-get update runs only when needed.
set -euo pipefail

packages=(
  build-essential cmake git pkg-config ninja-build
  libgtest-dev libgmock-dev libbenchmark-dev libbenchmark-tools
  nlohmann-json3-dev libpugixml-dev libcli11-dev libeigen3-dev libssl-dev
  opencl-headers ocl-icd-opencl-dev ocl-icd-libopencl1 pocl-opencl-icd clinfo
  libvulkan-dev mesa-vulkan-drivers glslc spirv-tools
  libgemmlowp-dev libxml2-utils python3 python3-numpy python3-scipy chromium
  libopenblas-dev libdnnl-dev libclblast-dev libonnx-testdata python3-onnx
  # real Hexagon HVX for the dsp simulator's bit-exactness test (tests/backends_dsp/hvx_bitexact):
  # clang's Hexagon target and hvx_hexagon_protos.h, lld to link, qemu-user's qemu-hexagon to run
  clang lld-14 qemu-user
  # the fuzz targets (fuzz/README.md): libFuzzer and the sanitizers' runtimes
  clang-14 libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} system packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
