"""The report's charts: inline SVG drawn with matplotlib's SVG backend (no display, no files).

Each function takes one or two runs ("sides", the second a comparison) and returns the SVG
text, sized by its viewBox so that the page scales it to the screen; text stays text (a
page font, selectable) and the output is the same for the same figures (a fixed hash salt,
no date). matplotlib is imported here only, when a report is drawn.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .stats import Estimate

#: One colour and one hatch per side, told apart without colour too.
COLOURS = ("#2b6cb0", "#dd6b20")
HATCHES = ("", "//")
MARKERS = ("o", "s")
STYLE: dict[str, Any] = {
    "svg.fonttype": "none",
    "svg.hashsalt": "cardavia",
    "font.family": "sans-serif",
    "font.size": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.axisbelow": True,
}
#: Distributions with more distinct values than this are drawn in ranges.
MOST_BARS = 30


def _figure(height: float = 3.2) -> Any:
    from matplotlib.figure import Figure

    return Figure(figsize=(6.4, height), layout="constrained")


def _svg(fig: Any, label: str) -> str:
    """The figure as an <svg> element that fills the width it is given."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
                  lambda m: f'<svg{m.group(1)} role="img" aria-label="{_attr(label)}"', text, count=1)
    return re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _style() -> Any:
    import matplotlib

    rc: Any = STYLE  # matplotlib types its keys as a Literal of every setting
    return matplotlib.rc_context(rc)


def interval_bars(title: str, categories: Sequence[str], sides: Sequence[tuple[str, Sequence[Estimate]]],
                  ylabel: str, percent: bool = False, zero_line: bool = False) -> str:
    """Bars of estimates with their 95% intervals, one group per category, one bar per side."""
    scale = 100.0 if percent else 1.0
    with _style():
        fig = _figure()
        ax = fig.add_subplot()
        width = 0.8 / len(sides)
        for s, (label, estimates) in enumerate(sides):
            xs = [i + (s - (len(sides) - 1) / 2) * width for i in range(len(categories))]
            ys = [e.estimate * scale for e in estimates]
            low = [max(0.0, (e.estimate - e.low) * scale) for e in estimates]
            high = [max(0.0, (e.high - e.estimate) * scale) for e in estimates]
            ax.bar(xs, ys, width * 0.92, yerr=[low, high], capsize=3, color=COLOURS[s], hatch=HATCHES[s],
                   edgecolor="white", label=label, error_kw={"elinewidth": 1, "ecolor": "#222"})
        ax.set_xticks(range(len(categories)), list(categories))
        ax.set_ylabel(ylabel + (" (%)" if percent else ""))
        ax.set_title(title, loc="left", fontsize=11)
        if zero_line:
            ax.axhline(0, color="#444", linewidth=0.8)
        if len(sides) > 1:
            ax.legend(frameon=False)
        return _svg(fig, title)


@dataclass(frozen=True, slots=True)
class Bin:
    """One bar of a distribution: the values it holds and each side's share of observations."""

    label: str
    low: int
    high: int  # inclusive
    counts: tuple[int, ...]
    shares: tuple[float, ...]


def bins(histograms: Sequence[dict[int, int]]) -> list[Bin]:
    """Bars for the histograms of the sides: one per value when there are few distinct values,
    else ranges of equal width up to the 99th percentile and one bar for the rest."""
    values = sorted(set().union(*histograms))
    totals = [sum(h.values()) or 1 for h in histograms]
    if not values:
        return []
    if len(values) <= MOST_BARS:
        edges = [(v, v) for v in values]
    else:
        merged: dict[int, int] = {}
        for h in histograms:
            for v, c in h.items():
                merged[v] = merged.get(v, 0) + c
        n, seen, top = sum(merged.values()), 0, values[-1]
        for v in values:
            seen += merged[v]
            if seen >= 0.99 * n:
                top = v
                break
        lo = values[0]
        width = max(1, math.ceil((top - lo + 1) / (MOST_BARS - 1)))
        edges = []
        start = lo
        while start <= top:
            edges.append((start, start + width - 1))
            start += width
        if values[-1] > edges[-1][1]:
            edges.append((edges[-1][1] + 1, values[-1]))
    out = []
    for low, high in edges:
        counts = tuple(sum(c for v, c in h.items() if low <= v <= high) for h in histograms)
        label = str(low) if low == high else f"{low}\u2013{high}"
        out.append(Bin(label, low, high, counts, tuple(c / t for c, t in zip(counts, totals))))
    return out


def distribution(title: str, labels: Sequence[str], rows: Sequence[Bin], xlabel: str, of: str) -> str:
    """The share of observations (``of``: deals, wins) in each bin, one bar per side."""
    with _style():
        fig = _figure()
        ax = fig.add_subplot()
        width = 0.8 / len(labels)
        for s, label in enumerate(labels):
            xs = [i + (s - (len(labels) - 1) / 2) * width for i in range(len(rows))]
            ax.bar(xs, [100 * b.shares[s] for b in rows], width * 0.92, color=COLOURS[s], hatch=HATCHES[s],
                   edgecolor="white", label=label)
        step = max(1, math.ceil(len(rows) / 12))
        ax.set_xticks(range(0, len(rows), step), [rows[i].label for i in range(0, len(rows), step)],
                      rotation=30 if any(len(b.label) > 4 for b in rows) else 0)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(f"share of {of} (%)")
        ax.set_title(title, loc="left", fontsize=11)
        if len(labels) > 1:
            ax.legend(frameon=False)
        return _svg(fig, title)


def value_vs_rarity(title: str, sides: Sequence[tuple[str, Sequence[dict[str, Any]], dict[str, float] | None]],
                    unit: str) -> str:
    """Each pattern seen: its frequency per 1,000 wins (with its interval) against its value,
    the trend of the first side, outliers named."""
    with _style():
        fig = _figure(4.2)
        ax = fig.add_subplot()
        values = [p["value"] for _, patterns, _ in sides for p in patterns if p["wins"] and p["value"]]
        log_y = bool(values) and min(values) > 0 and max(values) / min(values) >= 10
        for s, (label, patterns, trend) in enumerate(sides):
            seen = [p for p in patterns if p["wins"] and p["value"] is not None and (p["value"] > 0 or not log_y)]
            xs = [p["per_1000_wins"].estimate for p in seen]
            ys = [p["value"] for p in seen]
            err = [[x - p["per_1000_wins"].low for x, p in zip(xs, seen)],
                   [p["per_1000_wins"].high - x for x, p in zip(xs, seen)]]
            ax.errorbar(xs, ys, xerr=err, fmt=MARKERS[s], color=COLOURS[s], ecolor=COLOURS[s], elinewidth=0.8,
                        alpha=0.85, markersize=5, label=label, capsize=0)
            if s == 0 and trend is not None and xs:
                lo, hi = min(xs), max(xs)
                tx = [lo * (hi / lo) ** (k / 20) for k in range(21)] if hi > lo else [lo]
                ax.plot(tx, [math.exp(trend["intercept"] + trend["slope"] * math.log(x)) for x in tx],
                        color="#666", linewidth=1, linestyle="--", label="trend")
            named = sorted(((x, y, p) for p, x, y in zip(seen, xs, ys) if p["outlier"]), key=lambda t: (t[0], t[1]))
            for k, (x, y, p) in enumerate(named):  # neighbours' names at alternating heights
                ax.annotate(p["name"], (x, y), xytext=(4, (4, -11, 13)[k % 3]), textcoords="offset points",
                            fontsize=8, color=COLOURS[s])
        from matplotlib.ticker import FuncFormatter

        plain = FuncFormatter(lambda v, _: f"{v:g}")  # 1, 10, 100 rather than powers of ten
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(plain)
        if log_y:
            ax.set_yscale("log")
            ax.yaxis.set_major_formatter(plain)
        ax.set_xlabel("wins it appears in, per 1,000 wins (log scale)")
        ax.set_ylabel(f"value ({unit})")
        ax.set_title(title, loc="left", fontsize=11)
        ax.legend(frameon=False, fontsize=8)
        return _svg(fig, title)
