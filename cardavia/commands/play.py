"""``cardavia play VARIANT [--seed S]``: play deals in the terminal against three computer players."""

from __future__ import annotations

import argparse
import sys

from cardavia.commands import print_problems


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play a deal in the terminal",
        description="Play in seat 0 (East, the dealer of the first deal) against three computer players "
                    "(the built-in computer player). Pick a tile by its number and confirm to "
                    "discard; answer claims with w/p/k/c or Enter to pass; q quits.")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--seed", type=int, default=None, help="seed of the walls (default: a random one, printed)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import VariantError
    from cardavia.runtime.terminal import play_session

    try:
        return play_session(args.variant, args.seed, sys.stdin, sys.stdout)
    except VariantError as exc:
        print_problems(exc)
        return 2
