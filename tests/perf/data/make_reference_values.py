#!/usr/bin/python3
"""Prints the reference values that tests/perf/statistics_test.cpp and
regression_rule_test.cpp hold as literals. They come from scipy.stats.mannwhitneyu (scipy 1.10.1, Debian 12's
python3-scipy) and, for the Hodges-Lehmann interval, from numpy plus a
brute-force enumeration of the U null distribution, never from oprig's code.
Run: /usr/bin/python3 tests/perf/data/make_reference_values.py
"""
import itertools
import math

import numpy as np
from scipy.stats import mannwhitneyu

# Samples used by the tests (times in ms, as repetitions of a benchmark).
SAMPLES = {
    "conover_males": [19, 22, 16, 29, 24],
    "conover_females": [20, 11, 17, 12],
    "base9": [4.91, 5.02, 4.87, 5.10, 4.95, 4.99, 5.31, 4.90, 5.05],
    "new9_slower": [5.38, 5.51, 5.29, 5.45, 5.60, 5.33, 5.41, 5.72, 5.36],
    "new9_same": [4.93, 5.08, 4.85, 4.97, 5.12, 4.89, 5.01, 5.40, 4.96],
    "tied_a": [1.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 5.0],
    "tied_b": [2.0, 3.0, 4.0, 4.0, 5.0, 5.0, 6.0, 6.0, 7.0],
    "big_a": [10.0 + 0.37 * ((i * 7919) % 23) for i in range(25)],
    "big_b": [10.4 + 0.37 * ((i * 104729) % 23) for i in range(30)],
}


def show_mwu(x, y):
    for alternative in ("two-sided", "greater", "less"):
        for method in ("exact", "asymptotic"):
            if method == "exact" and (len(set(x + y)) < len(x + y) or max(len(x), len(y)) > 20):
                continue
            r = mannwhitneyu(x, y, alternative=alternative, method=method)
            print(f"    U={r.statistic!r} {alternative:9s} {method:10s} p={r.pvalue!r}")


def u_null_counts(m, n):
    """Counts of U = u over all C(m+n, m) splits, by enumeration."""
    counts = [0] * (m * n + 1)
    for xs in itertools.combinations(range(m + n), m):
        xs_set = set(xs)
        u = sum(1 for i in xs for j in range(m + n) if j not in xs_set and i > j)
        counts[u] += 1
    return counts


def exact_p_greater(x, y):
    """P(U >= u_observed) when x and y come from one distribution, U the number
    of pairs with x > y (no ties), by enumerating every split of the ranks."""
    m, n = len(x), len(y)
    u = sum(1 for a in x for b in y if a > b)
    counts = u_null_counts(m, n)
    return sum(counts[u:]) / sum(counts)


def margin_test(base, factor, margin):
    """The regression rule's test: NEW = base x factor slower than base x (1 + margin)?"""
    new = [b * factor for b in base]
    against = [b * (1 + margin) for b in base]
    return exact_p_greater(new, against), mannwhitneyu(new, against, alternative="greater", method="exact").pvalue


def hodges_lehmann(base, new, confidence):
    d = np.sort(np.subtract.outer(np.log(new), np.log(base)).ravel())
    m, n = len(base), len(new)
    counts = u_null_counts(m, n)
    total = sum(counts)
    tail = (1 - confidence) / 2
    cdf, u = 0.0, 0
    for u, c in enumerate(counts):
        cdf += c / total
        if cdf >= tail:
            break
    lower = max(u, 1)
    coverage = 1 - 2 * sum(counts[:lower]) / total
    return math.exp(np.median(d)), math.exp(d[lower - 1]), math.exp(d[m * n - lower]), coverage


if __name__ == "__main__":
    for x, y in [("conover_males", "conover_females"), ("new9_slower", "base9"), ("new9_same", "base9"),
                 ("tied_a", "tied_b"), ("big_a", "big_b")]:
        print(f"mannwhitneyu({x}, {y})")
        show_mwu(SAMPLES[x], SAMPLES[y])
    print("U null counts m=3 n=2:", u_null_counts(3, 2))
    print("U null counts m=4 n=4:", u_null_counts(4, 4))
    for new in ("new9_slower", "new9_same"):
        for conf in (0.90, 0.95):
            print(f"hodges_lehmann(base9, {new}, {conf}) = {hodges_lehmann(SAMPLES['base9'], SAMPLES[new], conf)!r}")
    for factor, margin in ((1.03, 0.0), (1.08, 0.05), (1.08, 0.0), (1.2, 0.05), (1.03, 0.02)):
        print(f"margin test base9 x {factor} against base9 x {1 + margin}: (enumerated, scipy) =",
              margin_test(SAMPLES["base9"], factor, margin))
    print("margin test new9_slower against base9 x 1.05: (enumerated, scipy) =",
          (exact_p_greater(SAMPLES["new9_slower"], [b * 1.05 for b in SAMPLES["base9"]]),
           mannwhitneyu(SAMPLES["new9_slower"], [b * 1.05 for b in SAMPLES["base9"]], alternative="greater",
                        method="exact").pvalue))
    print("big_a", SAMPLES["big_a"])
    print("big_b", SAMPLES["big_b"])
