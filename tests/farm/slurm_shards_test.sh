#!/usr/bin/env bash
# oprig on a real job scheduler: a one-machine Slurm cluster (slurm_cluster.sh)
# runs the selection as a job array of 3 shards through the submit script users
# adapt (scripts/farm/slurm_array.sbatch, which leaves the shard to
# SLURM_ARRAY_TASK_ID/COUNT); `oprig merge` of the 3 folders must equal an
# unsharded run of the same selection case for case (ids and verdicts), and
# each shard's log must say it took its shard from Slurm's variables. Then a
# second array whose task 2 is cancelled (scancel, a killed shard): the merge
# lists its cases MISSING, and exits 1.
#
#   slurm_shards_test.sh OPRIG SOURCE_DIR RUN_ARGS...
# Exit 77 (SKIP) without slurmctld, slurmd, munged or python3.
set -euo pipefail
oprig=${1:?usage: slurm_shards_test.sh OPRIG SOURCE_DIR RUN_ARGS...}
source_dir=${2:?usage: slurm_shards_test.sh OPRIG SOURCE_DIR RUN_ARGS...}
shift 2
run_args=("$@")
for tool in slurmctld slurmd munged sbatch scancel python3; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (Debian slurm-wlm, munge)"; exit 77; }
done
work=$(mktemp -d)
# shellcheck source=slurm_cluster.sh
source "$(dirname "$0")/slurm_cluster.sh"
trap 'slurm_cluster_stop; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The case ids and verdicts of a results.json, one "id verdict" line each, sorted.
verdicts() {
  python3 -c 'import json,sys
for c in json.load(open(sys.argv[1]))["cases"]: print(c["id"], c["verdict"])' "$1" | sort
}

"$oprig" run "${run_args[@]}" --out "$work/unsharded" >"$work/unsharded.log" 2>&1 ||
  { tail -20 "$work/unsharded.log" >&2; fail "the unsharded run exited $?"; }

slurm_cluster_start "$work/slurm"
submit=$source_dir/scripts/farm/slurm_array.sbatch
OPRIG=$oprig OUT_ROOT=$work/array sbatch --wait --array=1-3 --output="$work/array-%a.log" "$submit" \
  "${run_args[@]}" >/dev/null || fail "a task of the job array failed: $(cat "$work"/array-*.log)"
for k in 1 2 3; do
  grep -q "^shard $k/3 (from SLURM_ARRAY_TASK_ID=$k, SLURM_ARRAY_TASK_COUNT=3" "$work/array-$k.log" ||
    fail "task $k did not say it took shard $k/3 from Slurm: $(head -5 "$work/array-$k.log")"
done
"$oprig" merge "$work"/array/shard-* -o "$work/merged" >"$work/merge.log" 2>&1 ||
  { cat "$work/merge.log" >&2; fail "merging the 3 shards exited $?"; }
verdicts "$work/unsharded/results.json" >"$work/unsharded.txt"
verdicts "$work/merged/results.json" >"$work/merged.txt"
[ -s "$work/unsharded.txt" ] || fail "the unsharded run has no cases"
diff "$work/unsharded.txt" "$work/merged.txt" >&2 || fail "the merged shards differ from the unsharded run (above)"
cases=$(wc -l <"$work/unsharded.txt")
for k in 1 2 3; do
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$work/array/shard-$k/results.json")
  [ "$n" -gt 0 ] && [ "$n" -lt "$cases" ] || fail "shard $k ran $n of $cases cases"
done
echo "3 shards on Slurm merged into the unsharded result: $cases cases, ids and verdicts equal"

# A killed shard: task 2 cancelled as soon as the array is submitted (pending
# or already running: either way it leaves no complete results).
job=$(OPRIG=$oprig OUT_ROOT=$work/killed sbatch --parsable --array=1-3 --output="$work/killed-%a.log" "$submit" \
  "${run_args[@]}")
scancel "${job}_2"
for _ in $(seq 600); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$job")" ] || fail "job array $job did not finish"
rc=0
"$oprig" merge "$work"/killed/shard-* -o "$work/killed-merged" >"$work/killed-merge.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/killed-merge.log" >&2; fail "merge without shard 2 exited $rc, not 1"; }
grep -q '^MISSING ' "$work/killed-merge.log" || fail "merge without shard 2 listed no MISSING case"
missing=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["farm"]["missing"]))' \
  "$work/killed-merged/results.json")
[ "$missing" -gt 0 ] || fail "results.json of the merge without shard 2 has no farm.missing"
grep -q 'type="MISSING"' "$work/killed-merged/junit.xml" || fail "junit.xml names no MISSING case"
echo "a cancelled shard: $missing cases MISSING, merge exit 1"
