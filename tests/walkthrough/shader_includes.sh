#!/usr/bin/env bash
# oprig_add_package rebuilds a Vulkan shader when a file it #includes changes.
# A vendor splits the generated acmeops.comp as shaders grow (shared GLSL in
# an included file); if only the .comp were a dependency, an edit of the
# included file would leave the old SPIR-V embedded and validate would judge
# a kernel that is not the one on disk. Checked with the installed CMake
# package, under Ninja and Unix Makefiles.
# Usage: shader_includes.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
source_dir=$1 build_dir=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/stage" >/dev/null
"$work/stage/bin/oprig" package new --spec "$source_dir/tests/walkthrough/leaky_relu.xml" -o "$work/template" >/dev/null

fail() { echo "FAIL: $*"; exit 1; }
grep -q 'y\[i\] = x\[i\];' "$work/template/acmeops.comp" || fail "the generated acmeops.comp no longer copies y[i] = x[i]"

for generator in Ninja "Unix Makefiles"; do
  pkg="$work/pkg-${generator// /_}"
  cp -r "$work/template" "$pkg"
  # The shader's math moves into op.glsl, which acmeops.comp includes.
  sed -i -e 's/^#version 450$/#version 450\n#include "op.glsl"/' -e 's/y\[i\] = x\[i\];/y[i] = op(x[i]);/' "$pkg/acmeops.comp"
  echo 'float op(float v) { return v; }' >"$pkg/op.glsl"
  cmake -S "$pkg" -B "$pkg/build" -G "$generator" -DCMAKE_PREFIX_PATH="$work/stage" >/dev/null
  cmake --build "$pkg/build" -j2 >/dev/null
  spv=$(find "$pkg/build" -name acmeops.spv)
  [[ -f "$spv" ]] || fail "$generator: no acmeops.spv was built"
  before=$(sha256sum <"$spv")
  header_before=$(sha256sum <"${spv%.spv}_spv.h")

  sleep 1  # a newer mtime than the outputs, also on file systems with 1 s resolution
  echo 'float op(float v) { return 2.0 * v; }' >"$pkg/op.glsl"
  cmake --build "$pkg/build" -j2 >/dev/null
  [[ "$(sha256sum <"$spv")" != "$before" ]] || fail "$generator: editing the included op.glsl did not rebuild acmeops.spv"
  [[ "$(sha256sum <"${spv%.spv}_spv.h")" != "$header_before" ]] || fail "$generator: the embedded SPIR-V was not regenerated"
  echo "ok: $generator rebuilds acmeops.spv when op.glsl changes"
done
echo "PASS"
