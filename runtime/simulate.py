"""Simulating many deals with computer players, checked by the independent validator.

Deal ``i`` is a pure function of (variant, seed, i, players): its wall comes from
:func:`deal_seed`, its dealer rotates (``i % P`` for the variant's P players), each seat's
controller is seeded from the deal, so results do not depend on how deals are spread over
worker processes. With ``duplicate`` each wall is played once per seat, the players rotated
through the seats.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardavia.compiler import load_variant

from .bots import make_controller
from .controllers import play_deal
from .deal import Deal
from .validator import validate
from .wall import shuffled_wall

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

DEFAULT_KIND = "ai"  # the strongest player that exists (the baseline bot for now)


def deal_seed(seed: int, index: int) -> int:
    """A well-mixed 63-bit seed for wall ``index`` of a run seeded ``seed``."""
    x = (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & (2 ** 64 - 1)
    x ^= x >> 31
    x = (x * 0xD6E8FEB86659FD93) & (2 ** 64 - 1)
    return x >> 1


@dataclass(slots=True, frozen=True)
class Setup:
    variant: str
    seed: int
    players: tuple[str, ...]
    duplicate: bool


_LOADED: dict[str, CompiledVariant] = {}  # variant name -> compiled variant, once per process


def _variant(name: str) -> CompiledVariant:
    v = _LOADED.get(name)
    if v is None:
        v = _LOADED[name] = load_variant(name)
    return v


def play_one(setup: Setup, index: int) -> dict[str, Any]:
    """Play deal ``index`` and summarise it (kept small: it crosses process boundaries)."""
    variant = _variant(setup.variant)
    n = variant.table.players
    if setup.duplicate:
        wall_index, rotation = divmod(index, n)
        dealer = wall_index % n
    else:
        wall_index, rotation, dealer = index, 0, index % n
    ws = deal_seed(setup.seed, wall_index)
    wall = shuffled_wall(variant.tiles, ws)
    kinds = [setup.players[(s - rotation) % n] for s in range(n)]
    controllers = [make_controller(kinds[s], deal_seed(ws, index * n + s + 1)) for s in range(n)]
    deal = Deal(variant, wall, dealer)
    play_deal(deal, controllers)
    problems = validate(variant, wall, dealer, deal.events, deal.deltas())
    return {
        "end": deal.end,
        "wins": [(w.seat, [f.id for f in w.result.fans]) for w in deal.wins],
        "deltas": deal.deltas(),
        "kinds": kinds,
        "violations": len(problems),
        "problems": problems[:3],
    }


@dataclass(slots=True)
class Summary:
    deals: int = 0
    wins_by_seat: list[int] = field(default_factory=list)  # one per seat (simulate sizes them)
    points_by_seat: list[int] = field(default_factory=list)
    draws: int = 0
    ends: dict[str, int] = field(default_factory=dict)
    fan_frequency: dict[str, int] = field(default_factory=dict)
    invariant_violations: int = 0
    by_kind: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, one: dict[str, Any]) -> None:
        self.deals += 1
        self.ends[one["end"]] = self.ends.get(one["end"], 0) + 1
        if not one["wins"]:
            self.draws += 1
        for seat, fans in one["wins"]:
            self.wins_by_seat[seat] += 1
            for fid in dict.fromkeys(fans):
                self.fan_frequency[fid] = self.fan_frequency.get(fid, 0) + 1
        for s, d in enumerate(one["deltas"]):
            self.points_by_seat[s] += d
        self.invariant_violations += one["violations"]
        if one["problems"] and len(self.problems) < 10:
            self.problems.extend(one["problems"])
        for s, kind in enumerate(one["kinds"]):
            k = self.by_kind.setdefault(kind, {"seat_deals": 0, "wins": 0, "points": 0})
            k["seat_deals"] += 1
            k["wins"] += sum(1 for seat, _ in one["wins"] if seat == s)
            k["points"] += one["deltas"][s]


def _chunks(indices: Sequence[int], size: int) -> Iterable[list[int]]:
    for i in range(0, len(indices), size):
        yield list(indices[i:i + size])


def _play_chunk(args: tuple[Setup, list[int]]) -> list[dict[str, Any]]:
    setup, indices = args
    return [play_one(setup, i) for i in indices]


def simulate(variant: str, deals: int, seed: int = 0, players: Sequence[str] | None = None,
             duplicate: bool = False, workers: int = 1) -> dict[str, Any]:
    """Play ``deals`` deals (one per seat of each with ``duplicate``) and return the contract's summary object."""
    v = load_variant(variant)
    n = v.table.players
    given = players is not None
    kinds = tuple(players) if players is not None else (DEFAULT_KIND,) * n
    for k in kinds:
        make_controller(k, 0)  # raises ValueError on an unknown kind
    if len(kinds) != n:
        raise ValueError(f"--players names {n} kinds, one per seat; got {len(kinds)}")
    setup = Setup(variant, seed, kinds, duplicate)
    total = deals * n if duplicate else deals
    indices = list(range(total))
    summary = Summary(wins_by_seat=[0] * n, points_by_seat=[0] * n)
    start = time.perf_counter()
    if workers <= 1 or total < 2:
        for i in indices:
            summary.add(play_one(setup, i))
    else:
        import multiprocessing

        size = max(1, min(50, total // (workers * 4) or 1))
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for results in pool.imap(_play_chunk, [(setup, c) for c in _chunks(indices, size)]):
                for one in results:
                    summary.add(one)
    elapsed = time.perf_counter() - start
    out: dict[str, Any] = {
        "variant": v.id,
        "deals": summary.deals,
        "seed": seed,
        "workers": workers,
        "players": list(kinds),
        "duplicate": duplicate,
        "deals_per_second": round(summary.deals / elapsed, 2) if elapsed > 0 else None,
        "seconds": round(elapsed, 3),
        "wins_by_seat": summary.wins_by_seat,
        "points_by_seat": summary.points_by_seat,
        "draws": summary.draws,
        "ends": dict(sorted(summary.ends.items())),
        "fan_frequency": dict(sorted(summary.fan_frequency.items(), key=lambda kv: (-kv[1], kv[0]))),
        "invariant_violations": summary.invariant_violations,
    }
    if summary.problems:
        out["violation_examples"] = summary.problems
    if given:
        out["by_kind"] = {
            kind: {"seats": kinds.count(kind), "wins": k["wins"], "points": k["points"],
                   "mean_points_per_deal": round(k["points"] / k["seat_deals"], 3) if k["seat_deals"] else 0.0}
            for kind, k in summary.by_kind.items()
        }
    return out
