"""Runs of the balance report: deals played by :func:`runtime.simulate.simulate`, their
figures tallied from the same per-deal records, and two runs compared figure by figure.

A run's ``simulate`` is the object ``cardavia simulate --json`` prints for the same
arguments (the report adds nothing to the deals): its counts and the report's agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .stats import Estimate, compare, holm
from .tally import Tally


@dataclass(slots=True)
class Run:
    """One variant (with its options) played for the report."""

    source: str  # the VARIANT argument: a shipped name or a path
    options: dict[str, str]
    title: str
    label: str  # what the page calls it (short; two runs of a comparison differ)
    simulate: dict[str, Any]
    figures: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "options": self.options, "title": self.title, "label": self.label,
                "simulate": self.simulate, "figures": _plain(self.figures)}


def play(source: str, deals: int, seed: int, players: Sequence[str] | None, options: Mapping[str, str],
         workers: int, backend: str, address: str | None,
         progress: Callable[[int], None] | None = None) -> Run:
    """Play ``deals`` deals of a variant as ``cardavia simulate`` would and tally them."""
    from cardavia.compiler import load_variant
    from cardavia.runtime.simulate import simulate

    variant = load_variant(source, dict(options))
    tally = Tally(variant.table.players)
    out = simulate(source, deals, seed, players, False, workers, progress, options=dict(options),
                   backend=backend, address=address, listener=tally.add)
    label = variant.id + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    return Run(source, dict(options), variant.title, label, out, tally.figures(variant))


def _plain(value: Any) -> Any:
    """Figures as JSON values (estimates as objects)."""
    if isinstance(value, Estimate):
        return value.to_json()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def comparable(a: dict[str, Any], b: dict[str, Any]) -> list[tuple[str, str, Estimate, Estimate]]:
    """(key, what it is, first run's estimate, second's) for every figure both runs have."""
    out = [
        ("draws", "Deals without a win", a["outcomes"]["draws"], b["outcomes"]["draws"]),
        ("wins_per_deal", "Wins per deal", a["outcomes"]["wins_per_deal"], b["outcomes"]["wins_per_deal"]),
        ("self_drawn", "Self-drawn share of wins", a["outcomes"]["self_drawn_share_of_wins"],
         b["outcomes"]["self_drawn_share_of_wins"]),
        ("deal_length", "Discards per deal", a["deal_length"]["turns"], b["deal_length"]["turns"]),
        ("hand_value", "Value of a winning hand", a["hand_value"]["total"], b["hand_value"]["total"]),
        ("points_exchanged", "Points exchanged per deal", a["points_exchanged"]["per_deal"],
         b["points_exchanged"]["per_deal"]),
        ("refusal_deals", "Deals with a hand refused for the minimum",
         a["refusals"]["deals_with_a_refusal"], b["refusals"]["deals_with_a_refusal"]),
        ("refusals", "Hands refused for the minimum per deal", a["refusals"]["per_deal"], b["refusals"]["per_deal"]),
    ]
    for pa, pb in zip(a["by_position"], b["by_position"]):
        out.append((f"win_rate:{pa['position']}", f"{pa['name']}: deals won", pa["win_rate"], pb["win_rate"]))
        out.append((f"points:{pa['position']}", f"{pa['name']}: points per deal", pa["points"], pb["points"]))
    for kind, ka in a["by_kind"].items():
        kb = b["by_kind"].get(kind)
        if kb is not None and len(a["by_kind"]) > 1:
            out.append((f"kind_win_rate:{kind}", f"{kind}: deals won", ka["win_rate"], kb["win_rate"]))
            out.append((f"kind_points:{kind}", f"{kind}: points per deal", ka["points"], kb["points"]))
    patterns_b = {p["id"]: p for p in b["patterns"]}
    for pa in a["patterns"]:
        pb = patterns_b.get(pa["id"])
        if pb is not None and (pa["wins"] or pb["wins"]):
            out.append((f"pattern:{pa['id']}", f"{pa['name']} (per 1,000 wins)",
                        _per_thousand(pa["per_1000_wins"]), _per_thousand(pb["per_1000_wins"])))
    return out


def _per_thousand(e: Estimate) -> Estimate:
    """A frequency per 1,000 as the share it was counted as (what the test compares)."""
    return e.scaled(1 / 1000)


def differences(a: Run, b: Run) -> list[dict[str, Any]]:
    """Each figure of ``b`` against ``a``: the difference, its interval, the test's p-value and
    whether it is significant with Holm's correction over all the figures compared."""
    rows: list[dict[str, Any]] = []
    for key, what, ea, eb in comparable(a.figures, b.figures):
        d = compare(ea, eb)
        thousand = key.startswith("pattern:")
        factor = 1000.0 if thousand else 1.0
        rows.append({"key": key, "figure": what, "first": ea.scaled(factor), "second": eb.scaled(factor),
                     "difference": d.difference * factor, "low": d.low * factor, "high": d.high * factor,
                     "p": d.p, "test": d.test, "proportion": ea.count is not None and not thousand,
                     "per_thousand": thousand})
    for row, significant in zip(rows, holm([r["p"] for r in rows])):
        row["significant"] = significant
    return rows


def differences_json(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"key": r["key"], "figure": r["figure"], "first": r["first"].to_json(), "second": r["second"].to_json(),
             "difference": round(r["difference"], 4), "low": round(r["low"], 4), "high": round(r["high"], 4),
             "p": float(f"{r['p']:.3g}"), "test": r["test"], "significant": r["significant"]} for r in rows]
