#!/usr/bin/env bash
# `oprig bench` shards like `oprig run`: the bundled Atan's cpu benchmarks as
# 2 shards (one from --shard, one from GitLab's CI_NODE_INDEX/CI_NODE_TOTAL),
# each naming where its shard came from, merged by `oprig merge` into the
# benchmarks and cases of an unsharded bench (names equal; benchmark.json
# joined), and a missing shard: MISSING, exit 1.
#
#   bench_shards_test.sh OPRIG
set -euo pipefail
oprig=${1:?usage: bench_shards_test.sh OPRIG}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
bench=(bench --op atan --backend cpu --min-time 0.02)

"$oprig" "${bench[@]}" --out "$work/whole" >"$work/whole.log" 2>&1 || { tail "$work/whole.log" >&2; fail "unsharded bench exited $?"; }
"$oprig" "${bench[@]}" --shard 1/2 --out "$work/s1" >"$work/s1.log" 2>&1 || fail "shard 1 exited $?"
CI_NODE_INDEX=2 CI_NODE_TOTAL=2 "$oprig" "${bench[@]}" --out "$work/s2" >"$work/s2.log" 2>&1 || fail "shard 2 exited $?"
grep -q '^shard 1/2 (from --shard 1/2)' "$work/s1.log" || fail "shard 1 does not say so: $(head -3 "$work/s1.log")"
grep -q '^shard 2/2 (from CI_NODE_INDEX=2, CI_NODE_TOTAL=2)' "$work/s2.log" ||
  fail "shard 2 does not name GitLab's variables: $(head -3 "$work/s2.log")"

"$oprig" merge "$work/s1" "$work/s2" -o "$work/merged" >"$work/merge.log" 2>&1 || { cat "$work/merge.log" >&2; fail "merge exited $?"; }
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
def names(d): return sorted(b["name"] for b in json.load(open(f"{w}/{d}/benchmark.json"))["benchmarks"])
def ids(d): return sorted(c["id"] for c in json.load(open(f"{w}/{d}/results.json"))["cases"])
assert ids("merged") == ids("whole") and ids("whole"), (ids("merged"), ids("whole"))
assert 0 < len(ids("s1")) < len(ids("whole")), ids("s1")
assert names("merged") == sorted(names("s1") + names("s2")), "benchmark.json not joined"
base = lambda ns: sorted({n.split("/")[0] for n in ns})
assert base(names("merged")) == base(names("whole")), (base(names("merged")), base(names("whole")))
print("bench shards merged:", len(ids("whole")), "benchmarks,", len(names("merged")), "benchmark.json entries")
PY
rc=0
"$oprig" merge "$work/s1" -o "$work/half" >"$work/half.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q '^MISSING ' "$work/half.log" || { cat "$work/half.log" >&2; fail "one bench shard alone: exit $rc, not 1 with MISSING"; }
