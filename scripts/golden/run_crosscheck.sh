#!/usr/bin/env bash
# Runs crosscheck.py with a Python that has NumPy (Debian's python3-numpy lives
# under /usr/bin/python3; a pyenv python3 earlier on PATH may lack it).
# Exit 77 (skipped) when no such Python exists.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for py in /usr/bin/python3 python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import numpy' 2>/dev/null; then
    exec "$py" "$here/crosscheck.py" "$@"
  fi
done
echo "crosscheck: no python3 with numpy found (install python3-numpy)" >&2
exit 77
