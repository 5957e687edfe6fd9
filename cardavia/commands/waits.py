"""``cardavia waits VARIANT HAND [flags] [--json]`` and ``cardavia waits VARIANT --jsonl``.

A hand one tile short of a win (the scoring input without its winning tile) gets every
tile kind that completes a winning shape of the variant, with what a win on it is worth
on a discard and self-drawn, as ``cardavia score`` would give it (docs/interfaces.md). The
answers come from the hand analysis (runtime/analysis.py); input and errors follow
``cardavia score``: ``--jsonl`` answers every non-blank line with one line, an
``{"error": ...}`` line for a bad one, and exits 0.
"""

from __future__ import annotations

import argparse
import gc
import json
from typing import IO, TYPE_CHECKING, Any

from cardavia.commands import (
    OptionError,
    add_option_argument,
    chosen_options,
    fail,
    print_problems,
    refusal,
    stdin,
    stdout,
    unit_word,
    write,
)
from cardavia.commands.score import INPUT_ERRORS, arrived, failure, load_json, unreadable, write_answers
from cardavia.compiler import HandError, VariantError, from_json, load_variant
from cardavia.compiler.errors import visible_lines
from cardavia.compiler.model.hand import notation_request
from cardavia.compiler.model.tiles import CODES, WIND_LETTERS

if TYPE_CHECKING:
    from cardavia.runtime.analysis import Analyst, View, WinValue

#: Fields of the scoring request that a waiting hand has no use for: the winning tile and the
#: flags of the win itself (``last_tile_of_kind`` is taken as false).
IGNORED = ("win_tile", "self_drawn", "kong_replacement", "robbing_kong", "last_wall_tile", "last_tile_of_kind")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "waits", help="the tiles a hand waits on, and what each win is worth",
        description="For a hand one tile short of a win (hand notation without +TILE, e.g. \"33m 444p 55p [789m] "
                    "[777p] 1f\"), list every tile that completes a winning shape, with the value of a win on it on a "
                    "discard and self-drawn, valid or not and why; or with --jsonl read one JSON request per line of "
                    "standard input (the scoring request without win_tile).")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("hand", nargs="?", metavar="HAND",
                   help="the hand: concealed tiles, [exposed] and {concealed kong} sets, flowers")
    p.add_argument("--seat", choices="ESWN", default="E", help="seat wind (default E)")
    p.add_argument("--round", choices="ESWN", default="E", help="round wind (default E)")
    p.add_argument("--missing-suit", choices="mps", help="Sichuan's declared missing suit")
    add_option_argument(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print one JSON object")
    fmt.add_argument("--jsonl", action="store_true", help="read JSON requests from standard input, one per line")
    p.set_defaults(func=run)


def read_request(analyst: Analyst, obj: Any) -> View:
    """The hand of a waits request, checked as ``cardavia score`` checks a scoring request
    (tile codes, sets, copies, the variant's tile set), its number of tiles one short of
    the variant's hand size. The request is read by the scoring reader with a placeholder
    winning tile of a kind the hand does not hold, so that every message is the same."""
    from cardavia.runtime.analysis import View

    if not isinstance(obj, dict):
        raise HandError("expected a JSON object")
    if "hand" not in obj:
        raise HandError("field 'hand' is required")
    request = {k: v for k, v in obj.items() if k not in IGNORED}
    named: set[Any] = set()
    if isinstance(obj["hand"], list):
        named.update(t for t in obj["hand"] if isinstance(t, str))
    melds = obj.get("melds")
    for m in melds if isinstance(melds, list) else ():
        if isinstance(m, dict) and isinstance(m.get("tiles"), list):
            named.update(t for t in m["tiles"] if isinstance(t, str))
    scorer = analyst.scorer
    placeholder = next((k for k in sorted(scorer.playable) if k < 34 and CODES[k] not in named), None)
    if placeholder is None:  # every kind named: far more tiles than a hand holds
        raise HandError(f"wrong tile count: the hand and its sets name every kind of tile; a waiting hand holds "
                        f"{scorer.hand_size - 1} tiles")
    request["win_tile"] = CODES[placeholder]
    hand = from_json(request)
    held = len(hand.concealed) + 3 * len(hand.melds)
    if held != scorer.hand_size - 1:
        melds = len(hand.melds)
        raise HandError(f"wrong tile count: with {melds} declared set(s) a waiting hand holds "
                        f"{scorer.hand_size - 1 - 3 * melds} tiles, got {len(hand.concealed)}")
    scorer.check_tiles(hand)
    return View(hand.concealed, hand.melds, hand.flowers, hand.seat_wind, hand.round_wind, hand.missing_suit)


def answer(analyst: Analyst, view: View) -> dict[str, Any]:
    """The contract's output object: ``ready`` and ``waits`` in tile-code order."""
    waits = [w.as_json() for w in analyst.waits(view)]
    return {"ready": bool(waits), "waits": waits}


def run(args: argparse.Namespace) -> int:
    from cardavia.runtime.analysis import analyst

    try:
        variant = load_variant(args.variant, chosen_options(args.option))
    except OptionError as exc:
        return fail(str(exc), as_json=args.json)
    except VariantError as exc:
        print_problems(exc, as_json=args.json)
        return 2
    a = analyst(variant)
    if args.jsonl:
        if args.hand:
            return fail("--jsonl reads hands from standard input; give no HAND argument")
        source, out = stdin().buffer, stdout()
        gc.freeze()  # what is loaded now lives as long as the batch, and what it built until the end
        status = jsonl(a, source, out)  # (see cardavia score)
        gc.freeze()
        return status
    if not args.hand:
        return fail("give a HAND one tile short of a win (e.g. \"33m 444p 55p [789m] [777p]\") or --jsonl",
                    as_json=args.json)
    try:
        request = notation_request(args.hand)
        if "win_tile" in request:
            raise HandError(f"a waiting hand has no winning tile: leave out '+{request['win_tile']}' "
                            f"(cardavia score scores a complete hand)")
        request.update(seat_wind=args.seat, round_wind=args.round, missing_suit=args.missing_suit)
        view = read_request(a, request)
        text = json.dumps(answer(a, view)) if args.json else visible_lines(table(a, view))  # names from the file
    except INPUT_ERRORS as exc:
        return fail(str(exc), as_json=args.json)
    write(text + "\n")
    return 0


def jsonl(analyst: Analyst, source: IO[bytes], out: IO[str]) -> int:
    """Answer each non-blank line of ``source`` with one JSON line on ``out``, in order,
    flushing the answers to the lines that have arrived before waiting for more; lines
    too long, not text or not JSON, and a failing output, as ``cardavia score`` treats them."""
    number = 0
    for lines in arrived(source):
        answers = []
        for raw in lines:
            number += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                answers.append(unreadable(raw, exc, number))
                continue
            if not line or line.isspace():
                continue  # a blank line gets no answer
            try:
                answers.append(json.dumps(answer(analyst, read_request(analyst, load_json(line)))) + "\n")
            except Exception as exc:  # a bad line is answered and the batch goes on
                answers.append(failure(exc, number))
        if answers:
            write_answers(out, answers)
    return 0


# ------------------------------------------------------------ readable table

def _value(analyst: Analyst, value: WinValue) -> str:
    unit = analyst.variant.scoring.unit
    worth = unit_word(unit, value.total)
    if value.valid:
        return f"{worth}, a valid win"
    return f"{worth}, not a valid win: {refusal(unit, value.minimum, value.counted, value.below_minimum, value.reason)}"


def table(analyst: Analyst, view: View) -> str:
    """The waits for people: each tile with its value on a discard and self-drawn; for a
    hand that is not ready, how far it is and which tiles would bring it closer."""
    from cardavia.compiler.model.tiles import format_tiles

    v = analyst.variant
    parts = [format_tiles(sorted(view.concealed))] if view.concealed else []
    parts += [m.notation() for m in view.melds]
    if view.flowers:
        parts.append(format_tiles(sorted(view.flowers)))
    where = [f"seat {WIND_LETTERS[view.seat_wind - 27]}", f"round {WIND_LETTERS[view.round_wind - 27]}"]
    if view.missing_suit:
        where.append(f"missing suit {view.missing_suit}")
    lines = [f"{v.title}: {' '.join(parts)}", "  " + ", ".join(where)]
    analysis = analyst.analyse(view)
    if not analysis.waits:
        away = analysis.shanten
        if away >= 99:
            lines.append("not ready: no winning shape of this variant can be made with these sets")
        else:
            tiles = "tile" if away == 1 else "tiles"
            lines.append(f"not ready: {away} {tiles} from ready")
            if analysis.useful:
                lines.append("  tiles that bring it closer: " + " ".join(CODES[k] for k in analysis.useful))
        return "\n".join(lines)
    count = len(analysis.waits)
    lines.append(f"ready, waiting on {count} {'tile' if count == 1 else 'tiles'}: "
                 + " ".join(CODES[w.tile] for w in analysis.waits))
    for w in analysis.waits:
        lines.append(f"  {CODES[w.tile]}  on a discard: {_value(analyst, w.discard)}")
        lines.append(f"      self-drawn:   {_value(analyst, w.self_drawn)}")
    if not any(w.discard.valid or w.self_drawn.valid for w in analysis.waits):
        lines.append("no wait makes a valid win yet")
    return "\n".join(lines)
