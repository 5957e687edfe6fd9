"""The report's statistics: intervals, the t distribution, the two-sample tests, Holm's
correction, and the patterns named off the trend of value against rarity."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardavia.report.stats import Estimate, Moments, holm, t_quantile, t_sf, two_proportions, welch, wilson
from cardavia.report.tally import mark_outliers


def test_wilson_against_known_values():
    e = wilson(72, 200)
    assert (e.estimate, round(e.low, 4), round(e.high, 4)) == (0.36, 0.2967, 0.4286)
    none = wilson(0, 60)
    assert none.low == 0 and none.high == pytest.approx(0.0602, abs=1e-4)  # the "rule of three" region
    assert wilson(0, 0).high == 1.0


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_wilson_holds_the_share(count, n):
    count = min(count, n)
    e = wilson(count, n)
    assert 0.0 <= e.low <= e.estimate <= e.high <= 1.0


def test_student_t_against_tables():
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-3)
    assert t_quantile(0.975, 1e9) == pytest.approx(1.95996, abs=1e-4)
    assert t_sf(2.0, 5) == pytest.approx(0.05097, abs=1e-5)


@given(st.floats(-30, 30), st.floats(1, 500))
def test_t_tails_are_symmetric(t, df):
    assert t_sf(-t, df) == pytest.approx(1 - t_sf(t, df), abs=1e-9)


@given(st.lists(st.integers(-500, 500), min_size=2, max_size=60))
def test_moments_give_the_mean_and_sample_variance(xs):
    m = Moments()
    for x in xs:
        m.add(x)
    assert m.mean == pytest.approx(statistics.mean(xs))
    assert m.variance == pytest.approx(statistics.variance(xs), abs=1e-9)
    e = m.estimate()
    assert e.low <= e.estimate <= e.high


def test_two_proportions():
    d = two_proportions(wilson(30, 100), wilson(50, 100))
    assert d.difference == pytest.approx(0.2)
    assert d.p == pytest.approx(0.00389, abs=2e-5)  # z = 0.2 / sqrt(0.4 * 0.6 * 0.02) = 2.887
    same = two_proportions(wilson(30, 100), wilson(30, 100))
    assert same.difference == 0 and same.p == 1.0


def test_welch():
    a = Estimate(10.0, 0, 0, 20, sd=2.0)
    b = Estimate(11.0, 0, 0, 25, sd=3.0)
    d = welch(a, b)
    df = 0.56 ** 2 / (0.2 ** 2 / 19 + 0.36 ** 2 / 24)  # Welch-Satterthwaite: about 41.8
    se = math.sqrt(0.56)
    assert d.difference == 1.0
    assert d.p == pytest.approx(2 * t_sf(1 / se, df), rel=1e-9)
    assert 0.18 < d.p < 0.2
    assert d.low == pytest.approx(1 - t_quantile(0.975, df) * se)
    reverse = welch(b, a)
    assert reverse.difference == -1.0 and reverse.p == pytest.approx(d.p)


def test_holm_steps_down():
    assert holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert holm([0.01, 0.02, 0.03, 0.04]) == [True, False, False, False]  # 0.02 > 0.05 / 3
    assert holm([0.01, 0.012, 0.02, 0.04]) == [True, True, True, True]  # 0.04 <= 0.05 / 1 at the end
    assert holm([0.2, 0.001]) == [False, True]
    assert holm([]) == []


def _pattern(name: str, per_1000: float, value: float, wins: int = 50) -> dict:
    return {"id": name, "name": name, "value": value, "wins": wins,
            "per_1000_wins": Estimate(per_1000, per_1000 * 0.8, per_1000 * 1.2, 1000, wins)}


def test_patterns_far_from_the_trend_are_named():
    # A table where value falls as frequency grows, but for one generous and one stingy pattern.
    patterns = [_pattern(f"p{k}", 10 * 1.5 ** k, 90 / 1.5 ** k) for k in range(12)]
    patterns.append(_pattern("generous", 320, 40))
    patterns.append(_pattern("stingy", 10, 1))
    patterns.append(_pattern("unseen", 0, 88, wins=0))
    trend = mark_outliers(patterns)
    assert trend is not None and trend["slope"] < 0
    named = {p["name"]: p["outlier"] for p in patterns if p["outlier"]}
    assert named == {"generous": "worth much but common", "stingy": "rare but cheap"}
    assert mark_outliers(patterns[:3]) is None  # too few to draw a trend
