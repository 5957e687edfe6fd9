"""Strength and speed of the AI levels, in duplicate play (each wall played once from each seat).

Three match-ups per variant, the kind tested in one seat against three of another:

* ``normal-baseline``: ``ai`` against three ``baseline`` bots;
* ``normal-easy``: ``ai`` against three ``ai:easy``;
* ``strong-normal``: ``ai:strong`` against three ``ai``.

Deals are played exactly as ``cardavia simulate VARIANT --duplicate --players K,O,O,O``
plays them (runtime.simulate.play_one: the same walls, dealers, seeds and validator), over
``--workers`` processes. For the tested kind it reports, each with a 95% confidence
interval (the wall, four deals with the players rotated, is the unit: a bootstrap over
walls for the share, the normal approximation over walls for the means):

* ``share``: its share of all wins (three opponents: a fair share is a quarter);
* ``win_rate``: the share of deals it wins (where several players may win a deal, as in
  Sichuan, the share of wins says little: this is the figure that counts there);
* ``points``: its mean points per deal (the others' sum is its opposite);

and every kind's decision time (processor time, median and 99th percentile), the baseline
bot's being the reference measured in the same run. ``--check`` also prints the targets
(against three baselines: a share over 40% in every variant with one winner a deal, a
win rate over 70% where several may win, mean points above 0 over the whole interval;
strong beats normal, its share above a fair one or its points above 0 over the whole
interval; median decision under 5 ms) and which hold. Run from the repository::

    python bench/bench_ai.py [--walls 500] [--variants hk mcr sichuan]
        [--matchups normal-baseline normal-easy strong-normal] [--workers 2] [--seed 1] [--json] [--check] [--why]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardavia.compiler import load_variant  # noqa: E402
from cardavia.runtime.simulate import Setup, play_one, quantile_ms  # noqa: E402

MATCHUPS = {
    "normal-baseline": ("ai", "baseline"),
    "normal-easy": ("ai", "ai:easy"),
    "strong-normal": ("ai:strong", "ai"),
}

_SETUP: Setup | None = None


def _init(setup: Setup) -> None:
    global _SETUP
    _SETUP = setup


def _wall(wall: int) -> dict[str, Any]:
    """Play one wall from each seat; the tested kind sits in seat 0 of the players list."""
    assert _SETUP is not None
    n = len(_SETUP.players)
    tested = _SETUP.players[0]
    mine = total = points = won_deals = violations = 0
    times: dict[str, dict[int, int]] = {}
    why: list[list[Any]] = []
    for index in range(wall * n, wall * n + n):
        one = play_one(_SETUP, index)
        seat = one["kinds"].index(tested)
        wins = [s for s, _ in one["wins"]]
        why.append([seat, wins, one["totals"], one["froms"], one["deltas"], one["claims"], one["refused"]])
        mine += wins.count(seat)
        won_deals += seat in wins
        total += len(wins)
        points += one["deltas"][seat]
        violations += one["violations"]
        for kind, histogram in one["times"].items():
            into = times.setdefault(kind, {})
            for bucket, count in histogram.items():
                into[bucket] = into.get(bucket, 0) + count
    return {"mine": mine, "total": total, "points": points, "won_deals": won_deals, "deals": n,
            "violations": violations, "times": times, "why": why}


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def _share_ci(walls: list[dict[str, Any]], seed: int, rounds: int = 2000) -> tuple[float, float, float]:
    mine = sum(w["mine"] for w in walls)
    total = sum(w["total"] for w in walls)
    share = mine / total if total else 0.0
    rng = random.Random(seed)
    got = []
    n = len(walls)
    for _ in range(rounds):
        pick = [walls[rng.randrange(n)] for _ in range(n)]
        t = sum(w["total"] for w in pick)
        got.append(sum(w["mine"] for w in pick) / t if t else 0.0)
    got.sort()
    return share, got[int(0.025 * rounds)], got[int(0.975 * rounds) - 1]


def _why(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Where the tested kind's points come from and go, next to an opponent seat's average:
    how often it wins and what its wins are worth (and how often each total is won), how
    often it deals in (its discard won on) and what that costs, the other ends of a deal,
    the sets it claims, the complete hands refused for the minimum; and how much of the
    points' variance the largest deals carry."""
    deals = [d for w in results for d in w["why"]]
    n = len(deals)

    def side(mine: bool) -> dict[str, Any]:
        seats = 1 if mine else len(deals[0][4]) - 1
        wins = selfdrawn = dealins = claims = refused = 0
        win_totals: list[int] = []
        dealin_totals: list[int] = []
        by_end = {"won": 0.0, "dealt_in": 0.0, "others_won": 0.0, "draw": 0.0}
        for seat, winners, totals, froms, deltas, claimed, refusals in deals:
            for s in range(len(deltas)):
                if (s == seat) != mine:
                    continue
                claims += claimed[s]
                refused += refusals[s]
                if s in winners:
                    end = "won"
                elif s in froms:
                    end = "dealt_in"
                elif winners:
                    end = "others_won"
                else:
                    end = "draw"
                by_end[end] += deltas[s]
                for w, t, f in zip(winners, totals, froms):
                    if w == s:
                        wins += 1
                        win_totals.append(t)
                        selfdrawn += f is None
                    elif f == s:
                        dealins += 1
                        dealin_totals.append(t)
        per = n * seats
        return {
            "wins_per_deal": round(wins / per, 4),
            "mean_win_total": round(statistics.fmean(win_totals), 2) if win_totals else 0,
            "median_win_total": statistics.median(win_totals) if win_totals else 0,
            # The few large wins carry most of the points where the payments grow fast with
            # the total (Hong Kong's doubling table): how often each total is won.
            "wins_by_total": {str(t): round(c / per, 5) for t, c in sorted(Counter(win_totals).items())},
            "self_drawn_share": round(selfdrawn / wins, 3) if wins else 0,
            "deal_ins_per_deal": round(dealins / per, 4),
            "mean_deal_in_total": round(statistics.fmean(dealin_totals), 2) if dealin_totals else 0,
            "deal_ins_by_total": {str(t): round(c / per, 5) for t, c in sorted(Counter(dealin_totals).items())},
            "points_per_deal_by_end": {k: round(v / per, 3) for k, v in by_end.items()},
            "claims_per_deal": round(claims / per, 3),
            "refused_per_deal": round(refused / per, 4),
        }

    mine = sorted((d[4][d[0]] for d in deals), key=abs, reverse=True)
    mean = statistics.fmean(mine)
    var = sum((x - mean) ** 2 for x in mine) or 1.0
    top = max(1, n // 100)
    draws = sum(1 for d in deals if not d[1])
    return {"tested": side(True), "opponent": side(False), "draws": round(draws / n, 4),
            "top_1pct_deals_share_of_variance": round(sum((x - mean) ** 2 for x in mine[:top]) / var, 3),
            "largest_deltas": mine[:5]}


def run(variant: str, matchup: str, walls: int, workers: int, seed: int, why: bool = False) -> dict[str, Any]:
    tested, other = MATCHUPS[matchup]
    n = load_variant(variant).table.players
    setup = Setup(variant, seed, (tested,) + (other,) * (n - 1), True)
    start = time.perf_counter()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(workers, initializer=_init, initargs=(setup,)) as pool:
        results = pool.map(_wall, range(walls), chunksize=max(1, walls // (8 * workers)))
    seconds = time.perf_counter() - start
    deals = sum(w["deals"] for w in results)
    times: dict[str, dict[int, int]] = {}
    for w in results:
        for kind, histogram in w["times"].items():
            into = times.setdefault(kind, {})
            for bucket, count in histogram.items():
                into[bucket] = into.get(bucket, 0) + count
    share = _share_ci(results, seed)
    rate = _mean_ci([w["won_deals"] / w["deals"] for w in results])
    points = _mean_ci([w["points"] / w["deals"] for w in results])
    out = {
        "variant": variant, "matchup": matchup, "tested": tested, "against": other, "walls": walls, "deals": deals,
        "seconds": round(seconds, 1), "invariant_violations": sum(w["violations"] for w in results),
        "share": [round(x, 4) for x in share],
        "win_rate": [round(x, 4) for x in rate],
        "points": [round(x, 3) for x in points],
        "decision_ms": {kind: {"median": round(quantile_ms(h, 0.5), 3), "p99": round(quantile_ms(h, 0.99), 3),
                               "decisions": sum(h.values())} for kind, h in times.items()},
    }
    if why:
        out["why"] = _why(results)
    return out


def checks(rows: list[dict[str, Any]]) -> list[tuple[str, bool]]:
    """The targets the figures are held to, each with whether it holds."""
    out = []
    for r in rows:
        v = r["variant"]
        variant = load_variant(v)
        several = variant.play.after_win == "continue"
        players = variant.table.players
        if r["matchup"] == "normal-baseline":
            if several:
                out.append((f"{v}: normal wins over 70% of deals against three baselines "
                            f"({r['win_rate'][0]:.1%}, 95% CI {r['win_rate'][1]:.1%}-{r['win_rate'][2]:.1%})",
                            r["win_rate"][0] > 0.70))
            else:
                out.append((f"{v}: normal takes over 40% of the wins against three baselines "
                            f"({r['share'][0]:.1%}, 95% CI {r['share'][1]:.1%}-{r['share'][2]:.1%})",
                            r["share"][0] > 0.40))
            out.append((f"{v}: normal's mean points a deal above 0 over the whole 95% interval "
                        f"({r['points'][0]:+.2f}, {r['points'][1]:+.2f} to {r['points'][2]:+.2f})", r["points"][1] > 0))
        if r["matchup"] == "strong-normal":
            out.append((f"{v}: strong beats normal: its share of wins above a quarter or its mean points a deal "
                        f"above 0, over the whole 95% interval (share {r['share'][0]:.1%}, {r['share'][1]:.1%}-"
                        f"{r['share'][2]:.1%}; points {r['points'][0]:+.2f}, {r['points'][1]:+.2f} to "
                        f"{r['points'][2]:+.2f})", r["share"][1] > 1 / players or r["points"][1] > 0))
        for kind, ms in r["decision_ms"].items():
            if kind.startswith("ai"):
                out.append((f"{v} {r['matchup']}: {kind} median decision under 5 ms ({ms['median']:.2f} ms, "
                            f"p99 {ms['p99']:.2f} ms)", ms["median"] < 5.0))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--walls", type=int, default=500, help="walls per match-up, each played four times (default 500)")
    ap.add_argument("--variants", nargs="+", default=["hk", "mcr", "sichuan"])
    ap.add_argument("--matchups", nargs="+", default=list(MATCHUPS), choices=list(MATCHUPS))
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    ap.add_argument("--check", action="store_true", help="print the targets and whether they hold")
    ap.add_argument("--why", action="store_true", help="where the tested kind's points come from (wins, deal-ins...)")
    args = ap.parse_args()
    rows = []
    for variant in args.variants:
        for matchup in args.matchups:
            r = run(variant, matchup, args.walls, args.workers, args.seed, args.why)
            rows.append(r)
            if args.json:
                print(json.dumps(r), flush=True)
                continue
            ms = "; ".join(f"{k} {v['median']:.2f}/{v['p99']:.2f} ms" for k, v in r["decision_ms"].items())
            print(f"{variant:8} {matchup:16} {r['deals']:5} deals  share {r['share'][0]:6.1%} "
                  f"[{r['share'][1]:.1%}, {r['share'][2]:.1%}]  wins/deal {r['win_rate'][0]:6.1%} "
                  f"[{r['win_rate'][1]:.1%}, {r['win_rate'][2]:.1%}]  points {r['points'][0]:+8.2f} "
                  f"[{r['points'][1]:+.2f}, {r['points'][2]:+.2f}]  decisions (median/p99) {ms}  "
                  f"violations {r['invariant_violations']}  {r['seconds']} s", flush=True)
            if args.why:
                print(json.dumps(r["why"], indent=1), flush=True)
    if args.check:
        for text, ok in checks(rows):
            print(f"{'PASS' if ok else 'FAIL'}  {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
