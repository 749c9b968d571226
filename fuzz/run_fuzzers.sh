#!/usr/bin/env bash
# Runs oprig's fuzz targets (fuzz/README.md).
#   fuzz/run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]
# BUILD_DIR: a build with OPRIG_BUILD_FUZZERS=ON (clang). SECONDS: each
# target's -max_total_time (wall clock). No TARGET: every one, in turn.
# Per target: seeds gathered afresh into WORK/seeds/<target> from the list
# fuzz/CMakeLists.txt wrote (BUILD_DIR/fuzz/<target>.seeds) and from the past
# findings in fuzz/regressions/<target>, the dictionary fuzz/dict/json.dict + <format>.dict,
# the corpus it grows (WORK/corpus/<target>, kept between runs) and what it
# finds (WORK/findings/<target>/crash-*, timeout-*, oom-*, leak-*). Prints a
# line per target: executions, edges covered of the instrumented ones,
# features, corpus, peak RSS, CPU seconds it got (user + sys), and a finding's
# file and report. Exits 1 when a target found something.
# OPRIG_FUZZ_WORK: WORK (default BUILD_DIR/fuzz-work); OPRIG_FUZZ_NICE: nice
# level (default 19: the fuzzers take what CPU is left over); OPRIG_FUZZ_JOBS:
# how many targets run at once (default 1; each is one process, so CI gives
# it its core count: every target still gets SECONDS of its own).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]}" && pwd)
seconds=${2:?usage: run_fuzzers.sh BUILD_DIR SECONDS [TARGET...]}
shift 2
work=${OPRIG_FUZZ_WORK:-$build/fuzz-work}
nice_level=${OPRIG_FUZZ_NICE:-19}
parallel=${OPRIG_FUZZ_JOBS:-1}
[[ $parallel =~ ^[1-9][0-9]*$ ]] || { echo "run_fuzzers.sh: OPRIG_FUZZ_JOBS must be a positive number, not '$parallel'" >&2; exit 2; }
targets=("$@")
# Every target has a seed list (fuzz/CMakeLists.txt).
if [[ ${#targets[@]} -eq 0 ]]; then
  for list in "$build"/fuzz/*.seeds; do targets+=("$(basename "$list" .seeds)"); done
fi
[[ -e $build/fuzz/${targets[0]}.seeds ]] || { echo "run_fuzzers.sh: no fuzz targets in $build (OPRIG_BUILD_FUZZERS=ON?)" >&2; exit 2; }

dictionary() {
  case $1 in
    spec_xml_fuzzer) cat "$root/fuzz/dict/spec_xml.dict" ;;
    npy_fuzzer) cat "$root/fuzz/dict/npy.dict" ;;
    expectations_fuzzer | shard_fuzzer) cat "$root/fuzz/dict/${1%_fuzzer}.dict" ;;
    results_json_fuzzer | results_jsonl_fuzzer) cat "$root/fuzz/dict/json.dict" "$root/fuzz/dict/results.dict" ;;
    run_output_fuzzer) cat "$root/fuzz/dict/json.dict" "$root/fuzz/dict/run_json.dict" "$root/fuzz/dict/results.dict" "$root/fuzz/dict/run_output.dict" ;;
    *) cat "$root/fuzz/dict/json.dict" "$root/fuzz/dict/${1%_fuzzer}.dict" ;;
  esac
}

max_len() {
  case $1 in
    npy_fuzzer) echo 4096 ;;
    golden_manifest_fuzzer | run_json_fuzzer | history_fuzzer) echo 8192 ;;
    results_json_fuzzer | results_jsonl_fuzzer) echo 32768 ;;
    *) echo 16384 ;;
  esac
}

# A reader's memory is bounded by its input (at most 32 KiB here): one
# allocation over 256 MiB, or 1 GiB in all, is a finding; so is an input
# that takes more than 10 s.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for t in "${targets[@]}"; do
  [[ -x $build/fuzz/$t ]] || { echo "run_fuzzers.sh: $build/fuzz/$t is missing (build target oprig_fuzzers)" >&2; exit 2; }
done

# One target: its line (and a finding's report) into WORK/logs/<target>.report,
# its exit status into WORK/logs/<target>.rc.
run_target() {
  local t=$1
  local binary=$build/fuzz/$t
  len=$(max_len "$t")
  rm -rf "$work/seeds/$t"
  mkdir -p "$work/seeds/$t" "$work/corpus/$t" "$work/findings/$t" "$work/dict" "$work/logs"
  # Files larger than -max_len would be cut short, so they are left out.
  { cat "$build/fuzz/$t.seeds"; if [[ -d $root/fuzz/regressions/$t ]]; then find "$root/fuzz/regressions/$t" -type f; fi; } |
    while read -r f; do
      if [[ $(stat -c %s "$f") -le $len ]]; then cp "$f" "$work/seeds/$t/$(echo "${f#$root/}" | tr / _)"; fi
    done
  dictionary "$t" > "$work/dict/$t.dict"
  log=$work/logs/$t.log
  cpu=$work/logs/$t.cpu
  rc=0
  /usr/bin/time -f '%U %S' -o "$cpu" nice -n "$nice_level" "$binary" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=1024 -malloc_limit_mb=256 -max_len="$len" -dict="$work/dict/$t.dict" \
    -artifact_prefix="$work/findings/$t/" -print_final_stats=1 "$work/corpus/$t" "$work/seeds/$t" >"$log" 2>&1 || rc=$?
  # A target that stops on its first inputs prints no progress line: no
  # match is an empty field ("?"), not the end of this script.
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
  # model_json_fuzzer loads a package: "Loaded 2 modules (N ...)", N for both.
  edges=$(grep -o 'Loaded [0-9]* modules *([0-9]*' "$log" | grep -o '[0-9]*$' | head -1 || true)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)
  corp=$(grep -o 'corp: [0-9]*/[0-9]*[a-zA-Z]*' <<<"$last" | cut -d' ' -f2 || true)
  # time(1) puts "Command exited with non-zero status N" above the figures.
  cpu_s=$(tail -1 "$cpu" | awk '{printf "%.1f", $1 + $2}' 2>/dev/null || echo "?")
  {
    printf '%-24s %10s %13s %7s %12s %7s %8s\n' "$t" "${execs:-?}" "${cov:-?}/${edges:-?}" "${ft:-?}" "${corp:-?}" \
      "${rss:-?}" "$cpu_s"
    if [[ $rc -ne 0 ]]; then
      echo "FINDING in $t (exit $rc): $(ls -t "$work/findings/$t" | head -1 | sed "s|^|$work/findings/$t/|")"
      grep -E -A12 'ERROR|oprig fuzz finding|runtime error|Timeout|out-of-memory|malloc\(' "$log" | head -30 || tail -30 "$log"
    fi
  } >"$work/logs/$t.report"
  echo "$rc" >"$work/logs/$t.rc"
  echo "run_fuzzers.sh: $t done (exit $rc)" >&2
}

mkdir -p "$work/logs"
for t in "${targets[@]}"; do rm -f "$work/logs/$t.report" "$work/logs/$t.rc"; done
for t in "${targets[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $parallel ]]; do wait -n || true; done
  run_target "$t" &
done
wait
status=0
printf '%-24s %10s %13s %7s %12s %7s %8s\n' target execs "edges" features corpus "rss MB" "CPU s"
for t in "${targets[@]}"; do
  # A target whose runner died without a status is a failure too.
  if [[ -e $work/logs/$t.report ]]; then cat "$work/logs/$t.report"; else echo "$t: no result (the runner failed)"; fi
  [[ $(cat "$work/logs/$t.rc" 2>/dev/null || echo 1) == 0 ]] || status=1
done
exit $status
