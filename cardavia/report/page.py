"""The balance report as one self-contained HTML page (Jinja2, inline SVG, no network).

The page is built from the runs' figures only: a section per question a designer asks
(outcomes, seats, player kinds, deal length, hand values, points exchanged, patterns, the
minimum), each with its chart and the same figures in a table, the findings in plain
sentences at the top, and with a comparison the differences with their tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import charts
from .runs import Run
from .stats import LEVEL, Estimate


@dataclass(slots=True)
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str = ""
    marked: list[bool] = field(default_factory=list)  # rows to stress (significant, outliers)


@dataclass(slots=True)
class Section:
    id: str
    title: str
    intro: str
    charts: list[str]
    tables: list[Table]


# ------------------------------------------------------------------ formatting

DASH = "\u2013"  # between the ends of an interval, and for a figure that does not exist
MINUS = "\u2212"

def number(x: float) -> str:
    """A figure with as many decimals as its size deserves (a minus sign, not a hyphen)."""
    if x != x or math.isinf(x):
        return DASH
    if x == round(x) and abs(x) < 1e9:
        return f"{round(x):,}".replace("-", MINUS)
    digits = 0 if abs(x) >= 1000 else 1 if abs(x) >= 10 else 2 if abs(x) >= 0.1 else 3
    text = f"{x:,.{digits}f}"
    return text.replace("-", MINUS)


def share(x: float) -> str:
    """A share as a percentage with one decimal (two under 1%)."""
    return f"{100 * x:.{1 if abs(x) >= 0.01 or x == 0 else 2}f}".replace("-", MINUS)


def percent(e: Estimate) -> str:
    return f"{share(e.estimate)}% ({share(e.low)}{DASH}{share(e.high)})"


def mean(e: Estimate) -> str:
    return f"{number(e.estimate)} ({number(e.low)} to {number(e.high)})"


def interval(e: Estimate) -> str:
    return f"{number(e.estimate)} ({number(e.low)}{DASH}{number(e.high)})"


def fmt(e: Estimate, per_thousand: bool = False) -> str:
    """A share as a percentage, a frequency per 1,000 or a mean, with its interval."""
    if per_thousand:
        return interval(e)
    return percent(e) if e.count is not None else mean(e)


# ------------------------------------------------------------------ sections

def _outcomes(runs: Sequence[Run]) -> Section:
    keys = [("deals with a win", lambda f: f["outcomes"]["deals_with_a_win"]),
            ("deals without a win", lambda f: f["outcomes"]["draws"]),
            ("wins self-drawn", lambda f: f["outcomes"]["self_drawn_share_of_wins"]),
            ("deals with a hand refused for the minimum", lambda f: f["refusals"]["deals_with_a_refusal"])]
    chart = charts.interval_bars("How deals end", ["won", "drawn", "self-drawn wins", "hand refused"],
                                 [(r.label, [get(r.figures) for _, get in keys]) for r in runs], "share",
                                 percent=True)
    rows = [[what] + [percent(get(r.figures)) for r in runs] for what, get in keys]
    rows.append(["wins per deal"] + [mean(r.figures["outcomes"]["wins_per_deal"]) for r in runs])
    rows.append(["hands refused for the minimum per deal"] + [mean(r.figures["refusals"]["per_deal"]) for r in runs])
    return Section("outcomes", "How deals end",
                   "The share of deals won by someone, of deals that end without a win, of wins taken by self-draw, "
                   "and of deals in which some player held a complete hand that the minimum did not let them win.",
                   [chart], [Table(["figure"] + [r.label for r in runs], rows)])


def _seats(runs: Sequence[Run]) -> Section:
    names = [p["name"] for p in runs[0].figures["by_position"]]
    win = charts.interval_bars("Deals won, by seat", names,
                               [(r.label, [p["win_rate"] for p in r.figures["by_position"]]) for r in runs],
                               "deals won", percent=True)
    points = charts.interval_bars("Points per deal, by seat", names,
                                  [(r.label, [p["points"] for p in r.figures["by_position"]]) for r in runs],
                                  "mean points per deal", zero_line=True)
    tables = []
    for r in runs:
        tables.append(Table(["seat", "deals won", "share of all wins", "points per deal"],
                            [[p["name"], percent(p["win_rate"]), percent(p["share_of_wins"]), mean(p["points"])]
                             for p in r.figures["by_position"]], caption=r.label if len(runs) > 1 else ""))
    return Section("seats", "Seats: is the dealer's seat an advantage?",
                   "Seats are counted from the dealer (who rotates every deal): the first is the dealer, the next "
                   "plays after the dealer, and so on. Points are each seat's net gain in a deal; they sum to zero "
                   "over the seats, so a seat whose interval lies above zero gains at the others' expense.",
                   [win, points], tables)


def _kinds(runs: Sequence[Run]) -> Section | None:
    if all(len(r.figures["by_kind"]) < 2 for r in runs):
        return None
    kinds = list(runs[0].figures["by_kind"])
    win = charts.interval_bars("Deals won, by player", kinds,
                               [(r.label, [r.figures["by_kind"][k]["win_rate"] for k in kinds]) for r in runs
                                if all(k in r.figures["by_kind"] for k in kinds)], "deals won a seat", percent=True)
    points = charts.interval_bars("Points per deal, by player", kinds,
                                  [(r.label, [r.figures["by_kind"][k]["points"] for k in kinds]) for r in runs
                                   if all(k in r.figures["by_kind"] for k in kinds)],
                                  "mean points per deal a seat", zero_line=True)
    tables = [Table(["player", "seat-deals", "deals won", "points per deal"],
                    [[k, str(v["seat_deals"]), percent(v["win_rate"]), mean(v["points"])]
                     for k, v in r.figures["by_kind"].items()], caption=r.label if len(runs) > 1 else "")
              for r in runs]
    return Section("players", "Player kinds",
                   "Each seat a kind occupied in a deal counts once (the seats of one deal are not independent, "
                   "so these intervals are a little narrow). A rule that rewards skill widens the gap between "
                   "the stronger and the weaker players.", [win, points], tables)


def _distribution(runs: Sequence[Run], id: str, title: str, intro: str, key: str, hist: str, of: str,
                  xlabel: str, summary: str) -> Section:
    rows = charts.bins([r.figures[key][hist] for r in runs])
    chart = charts.distribution(title, [r.label for r in runs], rows, xlabel, of)
    table = Table([xlabel] + [f"{r.label}: {of}" for r in runs],
                  [[b.label] + [f"{share(s)}% ({c})" for s, c in zip(b.shares, b.counts)] for b in rows])
    head = Table(["figure"] + [r.label for r in runs],
                 [[f"mean ({int(LEVEL * 100)}% interval)"] + [mean(r.figures[key][summary]) for r in runs]])
    if "quantiles" in runs[0].figures[key]:
        for q, name in (("median", "median"), ("p90", "90th percentile"), ("p99", "99th percentile")):
            head.rows.append([name] + [str(r.figures[key]["quantiles"][q]) for r in runs])
    return Section(id, title, intro, [chart], [head, table])


def _patterns(runs: Sequence[Run]) -> Section:
    unit = runs[0].figures["hand_value"]["unit"]
    chart = charts.value_vs_rarity("Value against rarity",
                                   [(r.label, r.figures["patterns"], r.figures["pattern_trend"]) for r in runs], unit)
    tables = []
    for r in runs:
        patterns = sorted(r.figures["patterns"], key=lambda p: (-p["wins"], p["name"]))
        tables.append(Table(
            ["pattern", f"value ({unit})", "wins it is in", "per 1,000 wins", "against the trend"],
            [[p["name"] + (" (limit)" if p["limit"] else ""),
              DASH if p["value"] is None else number(p["value"]) + ("" if p["value_in_table"] is not None else " *"),
              str(p["wins"]),
              interval(p["per_1000_wins"]),
              p["outlier"] or ""] for p in patterns],
            caption=r.label if len(runs) > 1 else "", marked=[bool(p["outlier"]) for p in patterns]))
    return Section("patterns", "Patterns: value against rarity",
                   "Each pattern's frequency (the wins it appears in, per 1,000 wins, with its interval) against "
                   "the value the table gives it. The dashed line is the trend over the patterns seen at least three "
                   "times (value against frequency, both on a log scale); a pattern far above it is worth much "
                   "but common, far below it rare but cheap (a factor of 2 from the trend at least, and two "
                   "standard deviations of the patterns' distances from it; the patterns farthest from the others' "
                   "line, a tenth at most, are left out of the fit so that they do not bend it). "
                   "A value marked * is computed by the table: the mean points it gave when scored. "
                   "A pattern never seen has 0 wins; its interval says how rare it may still be.",
                   [chart], tables)


def _differences(rows: list[dict[str, Any]], runs: Sequence[Run]) -> Section:
    table = Table(["figure", runs[0].label, runs[1].label, "difference (interval)", "p", "significant"],
                  [[r["figure"], fmt(r["first"], r["per_thousand"]), fmt(r["second"], r["per_thousand"]),
                    (f"{_signed(100 * r['difference'])} pp ({_signed(100 * r['low'])} to {_signed(100 * r['high'])})"
                     if r["proportion"] else
                     f"{_signed(r['difference'])} ({_signed(r['low'])} to {_signed(r['high'])})"),
                    f"{r['p']:.2g}", "yes" if r["significant"] else "no"] for r in rows],
                  marked=[r["significant"] for r in rows])
    n = len(rows)
    return Section("differences", f"Differences: {runs[1].label} against {runs[0].label}",
                   f"Each figure of the second run minus the first, with its {int(LEVEL * 100)}% interval "
                   "(differences of shares in percentage points, pp). Shares are compared with the two-proportion "
                   "z test, means with Welch's t test; with "
                   f"{n} comparisons on this page, a difference is called significant when Holm's correction "
                   "keeps the chance of any false alarm among them under 5%.", [], [table])


def _signed(x: float) -> str:
    return ("+" if x > 0 else "") + number(x)


# ------------------------------------------------------------------ findings

def findings(runs: Sequence[Run], diffs: list[dict[str, Any]] | None) -> list[str]:
    """What the deals say, in sentences: the headline of each section."""
    out = []
    for r in runs:
        for line in _run_findings(r.figures):
            out.append(f"{r.label}: {line}" if len(runs) > 1 else line[:1].upper() + line[1:])
    if diffs is not None:
        significant = [d for d in diffs if d["significant"]]
        if significant:
            out.append("Significant differences: " + "; ".join(
                f"{d['figure']} {fmt(d['first'], d['per_thousand'])} → {fmt(d['second'], d['per_thousand'])}"
                for d in significant[:8])
                + ("; more below." if len(significant) > 8 else "."))
        else:
            out.append(f"No significant difference between {runs[0].label} and {runs[1].label} among the "
                       f"{len(diffs)} figures compared.")
    return out


def _run_findings(f: dict[str, Any]) -> list[str]:
    """The findings of one run, each a sentence without its first capital."""
    unit = f["hand_value"]["unit"]
    out = [f"someone wins {percent(f['outcomes']['deals_with_a_win'])} of deals; "
           f"{percent(f['outcomes']['draws'])} end without a win. A winning hand is worth "
           f"{mean(f['hand_value']['total'])} {unit} on average, and {mean(f['points_exchanged']['per_deal'])} "
           "points change hands per deal."]
    dealer = f["by_position"][0]
    pts = dealer["points"]
    verdict = ("an advantage" if pts.low > 0 else "a disadvantage" if pts.high < 0
               else "no advantage or disadvantage that these deals can tell")
    others = [p["win_rate"].estimate for p in f["by_position"][1:]]
    out.append(f"the dealer wins {percent(dealer['win_rate'])} of deals (the others "
               f"{share(sum(others) / max(1, len(others)))}% on average) and gains {mean(pts)} points "
               f"a deal: {verdict}.")
    refused = f["refusals"]
    if refused["minimum"]:
        out.append(f"in {percent(refused['deals_with_a_refusal'])} of deals a player held a complete hand that "
                   f"the minimum of {refused['minimum']} {unit} refused ({mean(refused['per_deal'])} such hands "
                   "per deal).")
    common = [p["name"] for p in f["patterns"] if p["outlier"] == "worth much but common"]
    cheap = [p["name"] for p in f["patterns"] if p["outlier"] == "rare but cheap"]
    if common or cheap:
        parts = ([f"worth much but common: {', '.join(common)}"] if common else []) + (
            [f"rare but cheap: {', '.join(cheap)}"] if cheap else [])
        out.append("patterns off the table's trend of value against rarity: " + "; ".join(parts) + ".")
    unseen = sum(1 for p in f["patterns"] if not p["wins"])
    if unseen:
        wins = round(f["outcomes"]["wins_per_deal"].estimate * f["deals"])
        out.append(f"{unseen} of the {len(f['patterns'])} patterns never appeared in {wins} wins.")
    if f["invariant_violations"]:
        out.append(f"the independent checker counted {f['invariant_violations']} invariant violations: these "
                   "figures come from a faulty run.")
    return out


def sections(runs: Sequence[Run], diffs: list[dict[str, Any]] | None) -> list[Section]:
    out = [_outcomes(runs), _seats(runs)]
    kinds = _kinds(runs)
    if kinds is not None:
        out.append(kinds)
    out.append(_distribution(runs, "length", "Deal length",
                             "Discards made in a deal, all seats together: how long a deal lasts, and how often the "
                             "wall runs out (the longest deals).", "deal_length", "histogram", "deals",
                             "discards per deal", "turns"))
    unit = runs[0].figures["hand_value"]["unit"]
    out.append(_distribution(runs, "values", "Hand values",
                             f"The value of each winning hand ({unit}, after the cap): where the table's weight lies.",
                             "hand_value", "histogram", "wins", f"value ({unit})", "total"))
    out.append(_distribution(runs, "exchanged", "Points exchanged per deal",
                             "The points that change hands in a deal (the sum of the gains), drawn deals included: "
                             "what a change of payment or minimum does to the stakes.",
                             "points_exchanged", "histogram", "deals", "points exchanged", "per_deal"))
    out.append(_patterns(runs))
    if diffs is not None:
        out.insert(0, _differences(diffs, runs))
    return out


def render(runs: Sequence[Run], diffs: list[dict[str, Any]] | None, version: str) -> str:
    """The whole page."""
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("cardavia.report", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True)
    return env.get_template("report.html.j2").render(
        runs=runs, findings=findings(runs, diffs), sections=sections(runs, diffs), version=version,
        level=int(LEVEL * 100), markup=jinja2.utils.markupsafe.Markup)
