"""``cardavia replay SCENARIO.json``: play one deal from a fixed wall and scripted actions."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay", help="replay a scripted deal from a fixed wall",
        description="Play one deal from a scenario (variant, dealer, wall or seed, actions per seat, autoplay "
                    "'drawn-tile' or 'ai') and print the result as one JSON object: end, wins, payments, deltas, "
                    "events. An illegal or unused scripted action exits with status 2 and names the action. "
                    "Autoplay 'ai' lets the built-in computer player decide.")
    p.add_argument("scenario", metavar="SCENARIO.json", help="the scenario file ('-' reads standard input)")
    p.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.runtime.replay import ScenarioError, replay

    try:
        if args.scenario == "-":
            text = sys.stdin.read()
        else:
            with open(args.scenario, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"error: cannot read {args.scenario}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"error: {args.scenario}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", file=sys.stderr)
        return 2
    except RecursionError:
        print(f"error: {args.scenario}: the JSON nests too deeply", file=sys.stderr)
        return 2
    try:
        result = replay(obj)
    except ScenarioError as exc:
        print(f"error: {args.scenario}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=args.indent))
    return 0
