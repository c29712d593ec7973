#!/usr/bin/env python3
"""Independent reference values for tests/stats/stats_test.cpp.

Pure Python with mpmath (30 significant digits); nothing here calls brec or Boost. Run it to
reproduce every constant that the tests attribute to "reference_values.py":

    python3 tests/stats/reference_values.py          # about a minute (the studentised range)

Methods: F and t distribution functions through the regularised incomplete beta function, the
F quantile by bisection; the Wilcoxon normal approximation with R's tie and continuity
corrections (wilcox.test, exact = FALSE, correct = TRUE) and the exact null given tied ranks by
enumeration in fractions; the studentised range of k normals with
infinite degrees of freedom by quadrature of k * int phi(z) [Phi(z) - Phi(z - q)]^(k-1) dz.
"""
from mpmath import mp, mpf, betainc, ncdf, npdf, quad, sqrt, inf

mp.dps = 30


def f_cdf(x, d1, d2):
    return betainc(mpf(d1) / 2, mpf(d2) / 2, 0, d1 * x / (d1 * x + d2), regularized=True)


def f_quantile(p, d1, d2):
    lo, hi = mpf(0), mpf(10000)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f_cdf(mid, d1, d2) < p else (lo, mid)
    return (lo + hi) / 2


def t_cdf(t, df):
    tail = betainc(mpf(df) / 2, mpf(1) / 2, 0, df / (df + t * t), regularized=True) / 2
    return tail if t < 0 else 1 - tail


def paired_t(x, y):
    d = [mpf(a) - mpf(b) for a, b in zip(x, y)]
    n = len(d)
    m = sum(d) / n
    s = sqrt(sum((v - m) ** 2 for v in d) / (n - 1))
    t = m / (s / sqrt(n))
    return t, 2 * (1 - t_cdf(abs(t), n - 1))


def wilcoxon_normal(d):
    d = [mpf(v) for v in d if v != 0]
    n = len(d)
    a = sorted(abs(v) for v in d)

    def rank(v):
        idx = [i + 1 for i, x in enumerate(a) if x == v]
        return mpf(sum(idx)) / len(idx)

    w = sum(rank(abs(v)) for v in d if v > 0)
    ties = {}
    for v in a:
        ties[v] = ties.get(v, 0) + 1
    z = w - mpf(n) * (n + 1) / 4
    sigma = sqrt(mpf(n) * (n + 1) * (2 * n + 1) / 24 - sum(t ** 3 - t for t in ties.values()) / mpf(48))
    correction = mpf(0.5) if z > 0 else (mpf(-0.5) if z < 0 else 0)
    z = (z - correction) / sigma
    return n, w, 2 * min(ncdf(z), 1 - ncdf(z))


def wilcoxon_exact(d):
    """Two-sided exact p of W+ under the permutation null given the (tied) ranks, in fractions."""
    from fractions import Fraction
    d = [v for v in d if v != 0]
    a = sorted(abs(v) for v in d)

    def rank(v):
        idx = [i + 1 for i, x in enumerate(a) if x == v]
        return Fraction(sum(idx), len(idx))

    ranks = [rank(abs(v)) for v in d]
    w = sum(r for r, v in zip(ranks, d) if v > 0)
    dist = {Fraction(0): 1}
    for r in ranks:
        nxt = dict(dist)
        for s, c in dist.items():
            nxt[s + r] = nxt.get(s + r, 0) + c
        dist = nxt
    lower = sum(c for s, c in dist.items() if s <= w)
    upper = sum(c for s, c in dist.items() if s >= w)
    return w, min(1, Fraction(2 * min(lower, upper), 2 ** len(ranks)))


def studentized_range_cdf(q, k):
    return k * quad(lambda z: npdf(z) * (ncdf(z) - ncdf(z - q)) ** (k - 1), [-inf, 0, inf])


def studentized_range_quantile(alpha, k):
    lo, hi = mpf("0.01"), mpf(10)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if studentized_range_cdf(mid, k) < 1 - alpha else (lo, mid)
    return (lo + hi) / 2


if __name__ == "__main__":
    print("RPC: q d alpha F_{d,q-d}(1-alpha) threshold")
    for q, d, alpha in [(32, 16, 0.05), (64, 16, 0.05), (32, 4, 0.05), (128, 32, 0.05), (20, 19, 0.05),
                        (10, 4, 0.05), (32, 8, 0.01), (10, 1, 0.05)]:
        f = f_quantile(1 - mpf(alpha), d, q - d)
        print(q, d, alpha, mp.nstr(f, 12), mp.nstr((q - 1) * mpf(d) / (q - d) * f, 12))

    x = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
    y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
    print("paired t, Hollander-Wolfe depression data: t, p =", *(mp.nstr(v, 10) for v in paired_t(x, y)))

    tied = [(i * 37) % 23 - 8 for i in range(1, 61)]
    n, w, p = wilcoxon_normal(tied)
    print("Wilcoxon normal approximation, (37 i mod 23) - 8: n =", n, "V =", w, "p =", mp.nstr(p, 10))
    w, p = wilcoxon_exact(tied)
    print("Wilcoxon exact (tied ranks), same data: V =", w, "p =", repr(float(p)))

    for alpha in (0.05, 0.10):
        print("q_alpha / sqrt 2 at alpha =", alpha, [mp.nstr(studentized_range_quantile(alpha, k) / sqrt(2), 6)
                                                    for k in range(2, 11)])
    print("CD(k = 4, N = 10, 0.05) =", mp.nstr(studentized_range_quantile(0.05, 4) / sqrt(2) * sqrt(mpf(20) / 60), 8))
