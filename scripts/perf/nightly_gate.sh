#!/usr/bin/env bash
# The nightly performance gate: time this build, compare it with a baseline,
# and fail only on a regression that survives a rerun.
#
#   nightly_gate.sh OPRIG BASE OUT [--reruns N] [COMPARE_OPTIONS...] -- BENCH_ARGS...
#
# BASE is either the accepted build's package library (a .so; A/B, the way
# to gate on a shared machine) or a stored bench (folder or JSON).
#
# A/B (BASE a package library): `OPRIG bench BENCH_ARGS --base-package BASE
# --out OUT` times both builds' kernels in one process, interleaved, and
# `OPRIG compare OUT/base OUT` is the verdict (OUT/gate/compare.txt|json).
# No rerun: both sides saw the same spells of the machine, so what the test
# finds is the kernels' difference (harness/bench/base_side.hpp).
#
# Stored BASE:
# 1. `OPRIG bench BENCH_ARGS --out OUT` times the night's build;
# 2. `OPRIG compare BASE OUT` judges it (OUT/gate/compare-first.txt);
# 3. when something REGRESSED, the flagged benchmarks only are timed again,
#    N times (default 1), each in a new process (OUT/gate/rerun-I), and
#    `OPRIG compare BASE OUT --confirm OUT/gate/rerun-1 ...` gives the
#    verdict (OUT/gate/compare.txt and compare.json): a regression stands
#    only when every rerun finds it again (harness/perf/rerun_confirmation.hpp
#    says why: spells of minutes on a shared machine slow a whole run).
# COMPARE_OPTIONS go to both compares (--min-effect 0.02, --alpha ...).
# BENCH_ARGS are oprig bench's options without --out (use the same ones, and
# --interleave, for BASE); a --filter among them is replaced by the flagged
# benchmarks' for the reruns.
# Exit: 0 nothing regressed; 1 a confirmed regression; 2 bad usage, bad or
# mismatched input (compare's 2); the bench's own exit code when the night's
# bench or a rerun failed (a failing kernel is not a performance question).
set -euo pipefail

usage() { echo "usage: $0 OPRIG BASE OUT [--reruns N] [COMPARE_OPTIONS...] -- BENCH_ARGS..." >&2; exit 2; }
[[ $# -ge 3 ]] || usage
OPRIG=$1 BASE=$2 OUT=$3
shift 3
RERUNS=1 RERUNS_GIVEN=0
COMPARE_OPTIONS=()
while [[ $# -gt 0 && $1 != -- ]]; do
  case $1 in
    --reruns) [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || usage; RERUNS=$2; RERUNS_GIVEN=1; shift ;;
    *) COMPARE_OPTIONS+=("$1") ;;
  esac
  shift
done
[[ $# -ge 1 && $1 == -- ]] || usage
shift
BENCH_ARGS=("$@")
[[ -x $OPRIG ]] || { echo "$0: $OPRIG: not an executable" >&2; exit 2; }
[[ -e $BASE ]] || { echo "$0: baseline $BASE: not found" >&2; exit 2; }
[[ -e $OUT ]] && { echo "$0: $OUT exists; the gate never overwrites a night: give a new folder" >&2; exit 2; }

# The bench arguments for a rerun: the night's, less its --filter.
RERUN_ARGS=()
skip=0
for a in "${BENCH_ARGS[@]}"; do
  if [[ $skip -eq 1 ]]; then skip=0; continue; fi
  case $a in
    --out|--out=*) echo "$0: give OUT as the third argument, not --out in BENCH_ARGS" >&2; exit 2 ;;
    --filter) skip=1 ;;
    --filter=*) ;;
    *) RERUN_ARGS+=("$a") ;;
  esac
done

bench() {  # OUT_DIR ARGS... ; exits with the bench's code when it failed
  local out=$1 rc=0
  shift
  "$OPRIG" bench "$@" --out "$out" >"$out.log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "$0: oprig bench exited $rc (see $out.log):" >&2
    tail -20 "$out.log" >&2
    exit "$rc"
  fi
}

AB_ARGS=()
if [[ $BASE == *.so && -f $BASE ]]; then
  [[ $RERUNS_GIVEN -eq 0 ]] || { echo "$0: --reruns: an A/B gate (BASE a package library) has no rerun" >&2; exit 2; }
  AB_ARGS=(--base-package "$BASE")
fi
bench "$OUT" "${BENCH_ARGS[@]}" "${AB_ARGS[@]}"
mkdir -p "$OUT/gate"
mv "$OUT.log" "$OUT/gate/bench.log"
if [[ ${#AB_ARGS[@]} -gt 0 ]]; then
  rc=0
  "$OPRIG" compare "$OUT/base" "$OUT" "${COMPARE_OPTIONS[@]}" --out "$OUT/gate/compare.json" >"$OUT/gate/compare.txt" 2>&1 || rc=$?
  cat "$OUT/gate/compare.txt"
  exit "$rc"
fi
rc=0
"$OPRIG" compare "$BASE" "$OUT" "${COMPARE_OPTIONS[@]}" --out "$OUT/gate/compare-first.json" --rerun-filter "$OUT/gate/rerun-filter.txt" \
  >"$OUT/gate/compare-first.txt" 2>&1 || rc=$?
if [[ $rc -ne 1 ]]; then
  cp "$OUT/gate/compare-first.txt" "$OUT/gate/compare.txt"
  [[ -e $OUT/gate/compare-first.json ]] && cp "$OUT/gate/compare-first.json" "$OUT/gate/compare.json"
  cat "$OUT/gate/compare.txt"
  exit "$rc"
fi

filter=$(cat "$OUT/gate/rerun-filter.txt")
echo "$0: $(grep -c '  REGRESSED$' "$OUT/gate/compare-first.txt" || true) benchmark(s) REGRESSED; timing them again ($RERUNS rerun(s))" >&2
confirm=()
for i in $(seq 1 "$RERUNS"); do
  bench "$OUT/gate/rerun-$i" "${RERUN_ARGS[@]}" --filter "$filter"
  mv "$OUT/gate/rerun-$i.log" "$OUT/gate/rerun-$i/bench.log"
  confirm+=(--confirm "$OUT/gate/rerun-$i")
done
rc=0
"$OPRIG" compare "$BASE" "$OUT" "${COMPARE_OPTIONS[@]}" "${confirm[@]}" --out "$OUT/gate/compare.json" >"$OUT/gate/compare.txt" 2>&1 || rc=$?
cat "$OUT/gate/compare.txt"
exit "$rc"
