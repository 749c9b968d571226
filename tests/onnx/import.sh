#!/usr/bin/env bash
# Imports the ONNX node tests for every op of opsuite/ into a fresh folder.
# Usage: import.sh SOURCE_DIR OUT_DIR. Exit 77 when the tools are missing.
set -euo pipefail
src=$1 out=$2
python=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import numpy, onnx' 2>/dev/null; then python=$candidate; break; fi
done
if [[ -z "$python" ]]; then echo "SKIP: no python3 with numpy and onnx (python3-onnx)"; exit 77; fi
if [[ ! -d /usr/share/libonnx-testdata/data/node ]]; then echo "SKIP: libonnx-testdata is not installed"; exit 77; fi
rm -rf "$out"
exec "$python" "$src/scripts/onnx/import_onnx_tests.py" "$out"
