"""``cardavia score VARIANT HAND [flags] [--json]`` and ``cardavia score VARIANT --jsonl``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from compiler import HandError, VariantError, from_json, load_variant, parse_notation
from compiler.tiles import TileError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score", help="score a hand",
        description="Score one hand written in hand notation (e.g. \"12345678m 55s [777z] 2f +9m\"), "
                    "or with --jsonl one JSON request per line of standard input.")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("hand", nargs="?", help="the hand: concealed tiles, [exposed] and {concealed kong} sets, +winning tile")
    p.add_argument("--self-drawn", action="store_true", help="the winning tile was drawn")
    p.add_argument("--seat", choices="ESWN", default="E", help="seat wind (default E)")
    p.add_argument("--round", choices="ESWN", default="E", help="round wind (default E)")
    p.add_argument("--last-tile-of-kind", action="store_true", help="the other three copies were visible")
    p.add_argument("--kong-replacement", action="store_true", help="won on a kong replacement tile")
    p.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    p.add_argument("--last-wall-tile", action="store_true", help="won with the last tile of the wall")
    p.add_argument("--missing-suit", choices="mps", help="Sichuan's declared missing suit")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print one JSON object")
    fmt.add_argument("--jsonl", action="store_true", help="read JSON requests from standard input, one per line")
    p.set_defaults(func=run)


def result_json(variant: Any, hand: Any) -> dict[str, Any]:
    result = variant.scorer.score(hand)
    out = result.as_json()
    if result.valid:
        try:
            out["base"] = variant.settlement.base.fn(_Total(result.total))
        except ArithmeticError:
            pass
    return out


class _Total:
    __slots__ = ("total",)

    def __init__(self, total: int) -> None:
        self.total = total


def run(args: argparse.Namespace) -> int:
    try:
        variant = load_variant(args.variant)
    except VariantError as exc:
        for problem in exc.problems:
            print(f"error: {problem}", file=sys.stderr)
        return 2
    if args.jsonl:
        if args.hand:
            print("error: --jsonl reads hands from standard input; give no HAND argument", file=sys.stderr)
            return 2
        return _jsonl(variant)
    if not args.hand:
        print("error: give a HAND (e.g. \"123m 456m 789m 123p 5p +5p\") or --jsonl", file=sys.stderr)
        return 2
    try:
        hand = parse_notation(
            args.hand, self_drawn=args.self_drawn, seat_wind=args.seat, round_wind=args.round,
            last_tile_of_kind=args.last_tile_of_kind, kong_replacement=args.kong_replacement,
            robbing_kong=args.robbing_kong, last_wall_tile=args.last_wall_tile, missing_suit=args.missing_suit)
        result = variant.scorer.score(hand)
    except (HandError, TileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result_json(variant, hand)))
        return 0
    print(_table(variant, hand, result))
    return 0


def _jsonl(variant: Any) -> int:
    out = sys.stdout
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            answer = result_json(variant, from_json(obj))
        except json.JSONDecodeError as exc:
            answer = {"error": f"line {number}: not JSON: {exc.msg} at column {exc.colno}"}
        except (HandError, TileError) as exc:
            answer = {"error": f"line {number}: {exc}"}
        except RecursionError:
            answer = {"error": f"line {number}: the request nests too deeply"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


def _table(variant: Any, hand: Any, result: Any) -> str:
    names = {p.id: p.name for p in variant.scoring.table.patterns}
    unit = variant.scoring.unit
    lines = [f"{variant.title}: {hand.notation()}"]
    if result.arrangement:
        lines.append(f"arrangement: {result.arrangement} ({result.shape})")
    if result.fans:
        width = max(len(names.get(f.id, f.id)) for f in result.fans)
        for f in result.fans:
            count = f" x{f.count}" if f.count > 1 else ""
            note = "" if f.toward_minimum else "  (not toward the minimum)"
            lines.append(f"  {names.get(f.id, f.id):<{width}}  {f.value:>3}{count}{note}")
    capped = f" (capped from {result.uncapped})" if result.uncapped > result.total else ""
    lines.append(f"total: {result.total} {unit}{capped}")
    if result.valid:
        lines.append("valid win")
    else:
        lines.append(f"not a valid win: {result.reason}")
    return "\n".join(lines)
