#!/usr/bin/env bash
# Issue 18's trial: a vendor's package judged from its spec alone (no
# plan.json, so oprig derives the plan), with one realistic bug planted at a
# time (tests/data/vendor_trial/acme_package.cpp, $ACME_BUG). Prints the
# table (op, bug, verdict, the first failure's message) and fails unless at
# least 90 % of the bugs are caught and every correct package and variant
# passes on each of RUNS runs.
#   vendor_trial.sh OPRIG PACKAGE [RUNS]   (RUNS of each correct variant, default 2; the issue asks 20)
set -u
oprig=$1 package=$2 runs=${3:-2}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/tests/data/vendor_trial/acme.xml" "$work/"

# validate OUTNAME [ENV...]: runs oprig validate on the spec alone; prints the exit code.
validate() {
  local name=$1
  shift
  env "$@" "$oprig" validate --spec "$work/acme.xml" --package "$package" --out "$work/$name" \
    >"$work/$name.log" 2>&1
  echo $?
}

false_failures=0
for v in none reverse nan_payload; do
  for ((i = 1; i <= runs; ++i)); do
    rc=$(validate "correct_${v}_$i" ACME_VARIANT=$v)
    if [ "$rc" != 0 ]; then
      false_failures=$((false_failures + 1))
      echo "FALSE FAILURE: variant $v run $i exit $rc"
      grep -E '^(FAILED|MISTRUSTED|QUALITY|INVALID|CRASH)' "$work/correct_${v}_$i.log" | head -5
    fi
  done
done
echo "correct package and variants (none, reverse, nan_payload): $((3 * runs)) runs, $false_failures false failures"

bugs="beta_ignored threaded_remainder max_from_zero exp_arg_clamped no_max_subtract long_reduction_truncated
      fp16_accumulator tail_unnormalised negative_axis_from_front axis_ignored
      tail_ignored largest_ignored nan_unordered unstable_ties k_capped_256 one_based_indices zero_sign_lost
      stride_h_for_w dilation_ignored pad_bottom_as_top group_offset_missing bias_ignored channel_tail_dropped
      conv_fp16_accumulator pad_replicate conv_threaded_remainder relu6_as_relu kernel_flipped output_size_ceil"
caught=0 total=0
printf '%-26s %-8s %s\n' bug verdict message
for b in $bugs; do
  total=$((total + 1))
  rc=$(validate "bug_$b" ACME_BUG=$b)
  first=$(grep -m1 -E '^(FAILED|QUALITY_WARNING|CRASH|TIMEOUT)' "$work/bug_$b.log" | sed -E 's/ +/ /g' | cut -c1-150)
  if [ "$rc" = 1 ]; then
    caught=$((caught + 1))
    printf '%-26s %-8s %s\n' "$b" caught "$first"
  else
    printf '%-26s %-8s %s\n' "$b" "MISSED" "exit $rc"
  fi
done
echo "caught $caught of $total planted bugs"
[ "$false_failures" = 0 ] && [ $((caught * 10)) -ge $((total * 9)) ]
