"""``cardavia simulate VARIANT --deals N [--seed S] [--players K,K,K,K] [--duplicate] [--workers N] [--json]``."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable

from cardavia.commands import fail, print_problems, write
from cardavia.compiler.errors import quoted
from cardavia.runtime.bots import KINDS


def _whole(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``, said briefly when it is not."""
    def whole(text: str) -> int:
        try:
            n = int(text) if len(text) <= 100 else None
        except ValueError:
            n = None
        if n is None or n < low:
            what = "a whole number" if low == -1 << 64 else f"a whole number of at least {low}"
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not {what}")
        return n
    return whole


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate", help="play many deals with computer players",
        description="Play deals with computer players and report wins, points, draws, pattern frequencies and "
                    "invariant violations (counted by an independent checker that replays each event log). "
                    "Player kinds: baseline (legal, greedy toward a win), random, and the AI levels ai, ai:easy, "
                    "ai:strong, which are the baseline bot until a stronger AI exists. Results do not depend on "
                    "--workers. Ctrl-C stops the run and prints what the deals done so far give (exit status 130).")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--deals", type=_whole(0), default=100,
                   help="number of deals (walls with --duplicate; default 100)")
    p.add_argument("--seed", type=_whole(-1 << 64), default=0, help="seed of the walls and players (default 0)")
    p.add_argument("--players", help=f"one kind per seat, comma-separated ({', '.join(KINDS)}); default ai")
    p.add_argument("--duplicate", action="store_true",
                   help="play each wall four times, players rotated through the seats")
    p.add_argument("--workers", type=_whole(1), default=1,
                   help="worker processes (default 1; at most the CPUs available)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import VariantError
    from cardavia.runtime.simulate import SimulationError, simulate

    players = None
    if args.players is not None:
        players = [k.strip() for k in args.players.split(",")]
        unknown = [k for k in players if k not in KINDS]
        if unknown:
            return fail(f"--players: unknown kind {quoted(unknown[0])}: expected one of {', '.join(KINDS)}")
    try:
        out = simulate(args.variant, args.deals, args.seed, players, args.duplicate, args.workers)
    except VariantError as exc:
        print_problems(exc)
        return 2
    except ValueError as exc:
        return fail(str(exc))
    except SimulationError as exc:
        return fail(str(exc), 1)
    interrupted = out.get("interrupted", False)
    if args.json:
        write(json.dumps(out) + "\n")
        return 130 if interrupted else 0
    total = args.deals * len(out["wins_by_seat"]) if args.duplicate else args.deals
    done = f"interrupted after {out['deals']} of {total} deals" if interrupted else f"{out['deals']} deals"
    lines = [f"{out['variant']}: {done} in {out['seconds']} s ({out['deals_per_second']} deals/s)",
             f"  wins by seat:   {out['wins_by_seat']}",
             f"  points by seat: {out['points_by_seat']}",
             f"  draws: {out['draws']}; ends: {out['ends']}",
             f"  invariant violations: {out['invariant_violations']}"]
    top = list(out["fan_frequency"].items())[:10]
    if top:
        lines.append("  most frequent patterns: " + ", ".join(f"{k} {v}" for k, v in top))
    for kind, k in out.get("by_kind", {}).items():
        lines.append(f"  {kind}: seats {k['seats']}, wins {k['wins']}, points {k['points']}, "
                     f"mean per deal {k['mean_points_per_deal']}")
    write("".join(line + "\n" for line in lines))
    if interrupted:
        return 130
    return 0 if out["invariant_violations"] == 0 else 1
