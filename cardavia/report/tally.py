"""The balance report's figures, summed deal by deal from simulate's per-deal records.

A :class:`Tally` keeps counts, sums and histograms only (never the deals), so its memory
does not grow with the number of deals; :meth:`Tally.figures` turns them into estimates
with their 95% intervals (:mod:`cardavia.report.stats`). Seats are read relative to the
dealer (position 0 is the dealer, 1 the next player to play, ...): the dealer rotates, so
a seat's number alone says nothing.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .stats import Moments, wilson

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

#: Positions from the dealer at a four-player table, by their seat winds.
WINDS = ("East (dealer)", "South", "West", "North")


def position_names(players: int) -> list[str]:
    """What each position from the dealer is called."""
    if players == len(WINDS):
        return list(WINDS)
    return ["dealer"] + [f"dealer + {k}" for k in range(1, players)]


@dataclass(slots=True)
class _Group:
    """A set of seat-deals (a position, a player kind): deals won and points."""

    seat_deals: int = 0
    wins: int = 0
    points: Moments = field(default_factory=Moments)


@dataclass(slots=True)
class _Pattern:
    wins: int = 0  # wins it appeared in
    points: int = 0  # points it contributed in those wins


class Tally:
    """What a run's deals say, summed as they are played; :meth:`add` takes each record."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.deals = 0
        self.with_win = 0
        self.wins = Moments()  # wins per deal
        self.self_drawn = 0
        self.positions = [_Group() for _ in range(players)]
        self.kinds: dict[str, _Group] = {}
        self.turns: Counter[int] = Counter()
        self.values: Counter[int] = Counter()  # each win's total
        self.exchanged: Counter[int] = Counter()  # per deal, the points that changed hands
        self.patterns: dict[str, _Pattern] = {}
        self.refused: Counter[int] = Counter()  # per deal, complete hands refused for the minimum
        self.wins_by_seat = [0] * players
        self.points_by_seat = [0] * players
        self.violations = 0

    def add(self, one: dict[str, Any]) -> None:
        self.deals += 1
        wins = one["wins"]
        self.wins.add(len(wins))
        if wins:
            self.with_win += 1
        dealer = one["dealer"]
        won = Counter(seat for seat, _ in wins)
        for seat, delta in enumerate(one["deltas"]):
            self.points_by_seat[seat] += delta
            for group in (self.positions[(seat - dealer) % self.players],
                          self.kinds.setdefault(one["kinds"][seat], _Group())):
                group.seat_deals += 1
                group.wins += won[seat]
                group.points.add(delta)
        for (seat, fans), total, source, points in zip(wins, one["totals"], one["froms"], one["fan_points"]):
            self.wins_by_seat[seat] += 1
            self.values[total] += 1
            if source is None:
                self.self_drawn += 1
            counted: set[str] = set()
            for fid, p in zip(fans, points):
                pattern = self.patterns.setdefault(fid, _Pattern())
                pattern.points += p
                if fid not in counted:
                    counted.add(fid)
                    pattern.wins += 1
        self.exchanged[sum(d for d in one["deltas"] if d > 0)] += 1
        self.turns[one["turns"]] += 1
        self.refused[sum(one["refused"])] += 1
        self.violations += one["violations"]

    # ------------------------------------------------------------------ figures

    def figures(self, variant: CompiledVariant) -> dict[str, Any]:
        """Every figure of the report for this run, JSON-ready (estimates as dicts)."""
        n = self.deals
        total_wins = self.wins.total
        names = position_names(self.players)
        scoring = variant.scoring
        return {
            "deals": n,
            "outcomes": {
                "wins_per_deal": self.wins.estimate(),
                "deals_with_a_win": wilson(self.with_win, n),
                "draws": wilson(n - self.with_win, n),
                "self_drawn_share_of_wins": wilson(self.self_drawn, total_wins),
            },
            "by_position": [
                {"position": i, "name": names[i], "win_rate": wilson(g.wins, g.seat_deals),
                 "share_of_wins": wilson(g.wins, total_wins), "points": g.points.estimate()}
                for i, g in enumerate(self.positions)
            ],
            "by_kind": {
                kind: {"seat_deals": g.seat_deals, "win_rate": wilson(g.wins, g.seat_deals),
                       "points": g.points.estimate()}
                for kind, g in sorted(self.kinds.items())
            },
            "deal_length": {"turns": _moments(self.turns).estimate(), "histogram": _sorted(self.turns)},
            "hand_value": {"unit": scoring.unit, "total": _moments(self.values).estimate(),
                           "histogram": _sorted(self.values), "quantiles": _quantiles(self.values)},
            "points_exchanged": {"per_deal": _moments(self.exchanged).estimate(),
                                 "histogram": _sorted(self.exchanged), "quantiles": _quantiles(self.exchanged)},
            "refusals": {
                "minimum": scoring.minimum,
                "deals_with_a_refusal": wilson(n - self.refused.get(0, 0), n),
                "per_deal": _moments(self.refused).estimate(),
            },
            **self._patterns(variant, total_wins),
            "wins_by_seat": list(self.wins_by_seat),
            "points_by_seat": list(self.points_by_seat),
            "invariant_violations": self.violations,
        }

    def _patterns(self, variant: CompiledVariant, total_wins: int) -> dict[str, Any]:
        """Every pattern of the table in table order, its value and how often it came in wins
        (``patterns``), and the trend of value against frequency (``pattern_trend``)."""
        out = []
        for p in variant.scoring.table.patterns:
            seen = self.patterns.get(p.id, _Pattern())
            static = p.value if isinstance(p.value, int) else None
            mean = seen.points / seen.wins if seen.wins else None
            out.append({
                "id": p.id, "name": p.name, "value": static if static is not None else mean,
                "value_in_table": static, "mean_points_when_scored": mean, "limit": p.limit,
                "wins": seen.wins, "per_1000_wins": wilson(seen.wins, total_wins).scaled(1000),
            })
        known = {p.id for p in variant.scoring.table.patterns}
        for fid, seen in sorted(self.patterns.items()):  # ids a scorer gives outside the table
            if fid not in known:
                out.append({"id": fid, "name": fid, "value": seen.points / seen.wins, "value_in_table": None,
                            "mean_points_when_scored": seen.points / seen.wins, "limit": False,
                            "wins": seen.wins, "per_1000_wins": wilson(seen.wins, total_wins).scaled(1000)})
        return {"patterns": out, "pattern_trend": mark_outliers(out)}


def _moments(hist: Counter[int]) -> Moments:
    m = Moments()
    for value, times in hist.items():
        m.add(value, times)
    return m


def _sorted(hist: Counter[int]) -> dict[int, int]:
    return dict(sorted(hist.items()))


def _quantiles(hist: Counter[int]) -> dict[str, int | None]:
    """The median, 90th and 99th percentiles (lower values: the observation at that rank)."""
    n = sum(hist.values())
    out: dict[str, int | None] = {}
    for name, q in (("median", 0.5), ("p90", 0.9), ("p99", 0.99)):
        if n == 0:
            out[name] = None
            continue
        rank = max(1, math.ceil(q * n))
        seen = 0
        for value in sorted(hist):
            seen += hist[value]
            if seen >= rank:
                out[name] = value
                break
    return out


#: How far from the table's trend a pattern's value must lie to be named: a factor of 2 at
#: least, and 2 standard deviations of the patterns' distances from the trend.
OUTLIER_FACTOR = 2.0
OUTLIER_SD = 2.0
#: The largest share of the patterns set aside from the fit as far off the others' line.
TRIMMED = 0.1
#: Wins a pattern needs to take part in the trend (rarer ones have too loose a frequency).
TREND_MIN_WINS = 3


def mark_outliers(patterns: list[dict[str, Any]]) -> dict[str, float] | None:
    """Fit log(value) = a + b·log(frequency) over the patterns seen often enough and mark
    those far above the trend ``"outlier": "worth much but common"`` and those far below
    ``"rare but cheap"``; others get None. Returns the trend ``{"intercept", "slope"}``, or
    None when too few patterns take part.

    The fit is least squares over the patterns that lie near the line of the others: the
    farthest is set aside while it lies beyond the bound of the others' line (at most a
    tenth of them), so that the very patterns to be named do not bend the trend."""
    for p in patterns:
        p["outlier"] = None
        p["residual"] = None
    points = [(math.log(p["per_1000_wins"].estimate), math.log(p["value"]), p) for p in patterns
              if p["wins"] >= TREND_MIN_WINS and p["value"] is not None and p["value"] > 0]
    if len(points) < 4:
        return None
    kept = [(x, y) for x, y, _ in points]
    while len(kept) > max(4, (1 - TRIMMED) * len(points)):  # set aside, one by one, the farthest
        intercept, slope, _ = _fit(kept)
        worst = max(kept, key=lambda q: abs(q[1] - intercept - slope * q[0]))
        rest = [q for q in kept if q is not worst]
        intercept, slope, bound = _fit(rest)
        if abs(worst[1] - intercept - slope * worst[0]) <= bound:
            break
        kept = rest
    intercept, slope, bound = _fit(kept)
    for x, y, p in points:
        r = y - (intercept + slope * x)
        p["residual"] = round(r, 3)
        if r > bound:
            p["outlier"] = "worth much but common"
        elif r < -bound:
            p["outlier"] = "rare but cheap"
    return {"intercept": intercept, "slope": slope}


def _fit(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(intercept, slope, how far a point must lie to be far off) of a least-squares line."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    intercept = my - slope * mx
    sd = math.sqrt(sum((y - intercept - slope * x) ** 2 for x, y in points) / max(1, n - 2))
    return intercept, slope, max(math.log(OUTLIER_FACTOR), OUTLIER_SD * sd)
