#!/usr/bin/env bash
# Runs walkthrough.py with the first python3 that has numpy (the generated
# make_golden.py needs it; pyenv's python3 may lack it, Debian's has it).
# Without one the test reports SKIP (77), never a pass.
set -euo pipefail
for candidate in "${OPRIG_PYTHON:-}" python3 /usr/bin/python3; do
  if [[ -n "$candidate" ]] && "$candidate" -c 'import numpy' 2>/dev/null; then
    exec "$candidate" "$(dirname "$0")/walkthrough.py" "$@"
  fi
done
echo "SKIP: no python3 with numpy"
exit 77
