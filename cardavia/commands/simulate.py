"""``cardavia simulate VARIANT --deals N [--seed S] [--players K,K,K,K] [--duplicate] [--workers N] [--json]``."""

from __future__ import annotations

import argparse
import json
import sys

from cardavia.commands import print_problems
from cardavia.runtime.bots import KINDS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate", help="play many deals with computer players",
        description="Play deals with computer players and report wins, points, draws, pattern frequencies and "
                    "invariant violations (counted by an independent checker that replays each event log). "
                    "Player kinds: baseline (legal, greedy toward a win), random, and the AI levels ai, ai:easy, "
                    "ai:strong, which are the baseline bot until a stronger AI exists. Results do not depend on "
                    "--workers.")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--deals", type=int, default=100, help="number of deals (walls with --duplicate; default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the walls and players (default 0)")
    p.add_argument("--players", help=f"one kind per seat, comma-separated ({', '.join(KINDS)}); default ai")
    p.add_argument("--duplicate", action="store_true",
                   help="play each wall four times, players rotated through the seats")
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import VariantError
    from cardavia.runtime.simulate import simulate

    if args.deals < 0:
        print("error: --deals must be 0 or more", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return 2
    players = None
    if args.players is not None:
        players = [k.strip() for k in args.players.split(",")]
        unknown = [k for k in players if k not in KINDS]
        if unknown:
            print(f"error: --players: unknown kind {unknown[0]!r}: expected one of {', '.join(KINDS)}", file=sys.stderr)
            return 2
    try:
        out = simulate(args.variant, args.deals, args.seed, players, args.duplicate, args.workers)
    except VariantError as exc:
        print_problems(exc)
        return 2
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['variant']}: {out['deals']} deals in {out['seconds']} s ({out['deals_per_second']} deals/s)")
    print(f"  wins by seat:   {out['wins_by_seat']}")
    print(f"  points by seat: {out['points_by_seat']}")
    print(f"  draws: {out['draws']}; ends: {out['ends']}")
    print(f"  invariant violations: {out['invariant_violations']}")
    top = list(out["fan_frequency"].items())[:10]
    if top:
        print("  most frequent patterns: " + ", ".join(f"{k} {v}" for k, v in top))
    for kind, k in out.get("by_kind", {}).items():
        print(f"  {kind}: seats {k['seats']}, wins {k['wins']}, points {k['points']}, "
              f"mean per deal {k['mean_points_per_deal']}")
    return 0 if out["invariant_violations"] == 0 else 1
