"""The statistics of the balance report: 95% intervals and two-sample tests.

Proportions get Wilson score intervals (good near 0 and 1, where the patterns of a table
live) and are compared with the two-proportion z test (pooled standard error). Means get
Student t intervals (mean ± t·s/√n) and are compared with Welch's t test (unequal
variances, Welch-Satterthwaite degrees of freedom). A page that makes many comparisons
controls the chance of any false alarm with Holm's step-down correction. Only the standard
library is used: the t distribution comes from the regularized incomplete beta function.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Two-sided level of every interval and test.
LEVEL = 0.95
ALPHA = 1 - LEVEL
#: The normal quantile of 97.5%.
Z = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95% interval, and the counts it came from."""

    estimate: float
    low: float
    high: float
    n: int  # observations (deals, wins, seat-deals)
    count: int | None = None  # successes, for a proportion
    sd: float | None = None  # standard deviation of one observation, for a mean

    def scaled(self, factor: float) -> Estimate:
        """The same figure in other units (a share as per 1,000)."""
        return Estimate(self.estimate * factor, self.low * factor, self.high * factor, self.n, self.count,
                        None if self.sd is None else self.sd * factor)

    def to_json(self, digits: int = 4) -> dict[str, float | int]:
        out: dict[str, float | int] = {"estimate": round(self.estimate, digits), "low": round(self.low, digits),
                                       "high": round(self.high, digits), "n": self.n}
        if self.count is not None:
            out["count"] = self.count
        if self.sd is not None:
            out["sd"] = round(self.sd, digits)
        return out


def wilson(count: int, n: int) -> Estimate:
    """The share ``count / n`` with its Wilson score interval (0 to 1 when n is 0)."""
    if n <= 0:
        return Estimate(0.0, 0.0, 1.0, 0, 0)
    p = count / n
    z2 = Z * Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # The interval holds p exactly (rounding could leave 1.0 just outside an upper end of 0.999...).
    return Estimate(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)), n, count)


@dataclass(slots=True)
class Moments:
    """Count, sum and sum of squares of integer observations: a mean and its spread, exactly."""

    n: int = 0
    total: int = 0
    squares: int = 0

    def add(self, x: int, times: int = 1) -> None:
        self.n += times
        self.total += x * times
        self.squares += x * x * times

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator)."""
        if self.n < 2:
            return 0.0
        return max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))

    def estimate(self) -> Estimate:
        """The mean with its Student t interval (the mean alone when there are fewer than 2)."""
        sd = math.sqrt(self.variance)
        if self.n < 2:
            return Estimate(self.mean, self.mean, self.mean, self.n, sd=sd)
        half = t_quantile(1 - ALPHA / 2, self.n - 1) * sd / math.sqrt(self.n)
        return Estimate(self.mean, self.mean - half, self.mean + half, self.n, sd=sd)


# ------------------------------------------------------------------ distributions

def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-14:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def t_sf(t: float, df: float) -> float:
    """P(T > t) for Student's t with ``df`` degrees of freedom (the normal's for huge df)."""
    if df > 1e7:
        return normal_sf(t)
    tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t))
    return tail if t >= 0 else 1 - tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (p above one half), by bisection."""
    low, high = 0.0, 1.0
    while t_sf(high, df) > 1 - p:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if t_sf(mid, df) > 1 - p:
            low = mid
        else:
            high = mid
    return (low + high) / 2


# ------------------------------------------------------------------ two samples

@dataclass(frozen=True, slots=True)
class Difference:
    """Second sample minus first, its 95% interval and the test's two-sided p-value."""

    difference: float
    low: float
    high: float
    p: float
    test: str

    def to_json(self, digits: int = 4) -> dict[str, float | str]:
        return {"difference": round(self.difference, digits), "low": round(self.low, digits),
                "high": round(self.high, digits), "p": float(f"{self.p:.3g}"), "test": self.test}


def two_proportions(a: Estimate, b: Estimate) -> Difference:
    """Two-proportion z test (pooled standard error) of b - a; the interval is Wald's."""
    assert a.count is not None and b.count is not None
    diff = b.estimate - a.estimate
    if a.n == 0 or b.n == 0:
        return Difference(diff, -1.0, 1.0, 1.0, "two-proportion z")
    pooled = (a.count + b.count) / (a.n + b.n)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / a.n + 1 / b.n))
    p = 1.0 if se0 == 0 else min(1.0, 2 * normal_sf(abs(diff) / se0))
    se = math.sqrt(a.estimate * (1 - a.estimate) / a.n + b.estimate * (1 - b.estimate) / b.n)
    return Difference(diff, diff - Z * se, diff + Z * se, p, "two-proportion z")


def welch(a: Estimate, b: Estimate) -> Difference:
    """Welch's t test of the means b - a, with its interval."""
    assert a.sd is not None and b.sd is not None
    diff = b.estimate - a.estimate
    if a.n < 2 or b.n < 2:
        return Difference(diff, -math.inf, math.inf, 1.0, "Welch t")
    va, vb = a.sd ** 2 / a.n, b.sd ** 2 / b.n
    se = math.sqrt(va + vb)
    if se == 0:
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0, "Welch t")
    df = (va + vb) ** 2 / ((va * va / (a.n - 1) if va else 0.0) + (vb * vb / (b.n - 1) if vb else 0.0))
    p = min(1.0, 2 * t_sf(abs(diff) / se, df))
    half = t_quantile(1 - ALPHA / 2, df) * se
    return Difference(diff, diff - half, diff + half, p, "Welch t")


def compare(a: Estimate, b: Estimate) -> Difference:
    """The test that fits: proportions by z, means by Welch."""
    return two_proportions(a, b) if a.count is not None else welch(a, b)


def holm(pvalues: Sequence[float], alpha: float = ALPHA) -> list[bool]:
    """Which of the hypotheses Holm's step-down procedure rejects at family-wise ``alpha``."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    rejected = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (m - rank):
            break
        rejected[i] = True
    return rejected
