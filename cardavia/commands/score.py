"""``cardavia score VARIANT HAND [flags] [--json]`` and ``cardavia score VARIANT --jsonl``.

Single-hand mode prints a readable table (or one JSON object with ``--json``) and exits
2 on bad input with the reason on standard error. ``--jsonl`` answers every non-blank
input line with exactly one output line, in order, an ``{"error": ...}`` line for a bad
one, and exits 0: a batch never stops on one bad request.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from cardavia.commands import (
    OptionError,
    StreamError,
    add_option_argument,
    chosen_options,
    fail,
    output_error,
    print_problems,
    refusal,
    stdin,
    stdout,
    unit_word,
    write,
)
from cardavia.compiler import EvaluationError, HandError, VariantError, from_json, load_variant, parse_notation
from cardavia.compiler.errors import json_int, quoted, visible_lines
from cardavia.compiler.model.hand import Hand
from cardavia.compiler.model.tiles import WIND_LETTERS, TileError
from cardavia.compiler.scoring.context import HandContext
from cardavia.compiler.scoring.fastjson import AVAILABLE as FAST_JSON
from cardavia.compiler.scoring.fastjson import facts_from_line

if TYPE_CHECKING:
    from cardavia.compiler.scoring.scorer import ScoreResult
    from cardavia.compiler.variant import CompiledVariant

#: What a request can get wrong, and what the variant's expressions can get wrong on it (a
#: division by zero, named with its pattern and line); anything else is an internal error,
#: still reported per line.
INPUT_ERRORS = (HandError, TileError, EvaluationError)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score", help="score a hand",
        description="Score one hand written in hand notation (e.g. \"12345678m 55s [777z] 2f +9m\"), "
                    "or with --jsonl one JSON request per line of standard input.")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("hand", nargs="?", metavar="HAND",
                   help="the hand: concealed tiles, [exposed] and {concealed kong} sets, +winning tile")
    p.add_argument("--self-drawn", action="store_true", help="the winning tile was drawn")
    p.add_argument("--seat", choices="ESWN", default="E", help="seat wind (default E)")
    p.add_argument("--round", choices="ESWN", default="E", help="round wind (default E)")
    p.add_argument("--last-tile-of-kind", action="store_true", help="the other three copies were visible")
    p.add_argument("--kong-replacement", action="store_true", help="won on a kong replacement tile")
    p.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    p.add_argument("--last-wall-tile", action="store_true", help="won with the last tile of the wall")
    p.add_argument("--missing-suit", choices="mps", help="Sichuan's declared missing suit")
    add_option_argument(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print one JSON object")
    fmt.add_argument("--jsonl", action="store_true", help="read JSON requests from standard input, one per line")
    p.set_defaults(func=run)


class _Total:
    """The names the settlement ``base`` formula reads (only ``total``)."""

    __slots__ = ("total",)

    def __init__(self, total: int) -> None:
        self.total = total


def result_json(variant: CompiledVariant, hand: Hand, details: bool = False) -> dict[str, Any]:
    """The contract's output object plus ``base`` for a valid win; ``details`` adds the arrangement
    and, for an invalid hand, the reason (single-hand ``--json``; batch lines stay lean)."""
    result = variant.scorer.score(hand)
    out = result.as_json()
    if result.valid:
        with contextlib.suppress(ArithmeticError):
            out["base"] = variant.settlement.base.fn(_Total(result.total))
    if details:
        out["arrangement"] = result.arrangement
        out["shape"] = result.shape
        if not result.valid:
            out["reason"] = _reason(variant, result)
    return out


def run(args: argparse.Namespace) -> int:
    try:
        variant = load_variant(args.variant, chosen_options(args.option))
    except OptionError as exc:
        return fail(str(exc), as_json=args.json)
    except VariantError as exc:
        print_problems(exc, args.json)
        return 2
    if args.jsonl:
        if args.hand:
            return fail("--jsonl reads hands from standard input; give no HAND argument")
        source, out = stdin().buffer, stdout()
        # What is loaded now lives as long as the batch: the collector need not walk it
        # again each time the tables the batch fills trigger a collection. What the batch
        # built lives until the process ends: the collection at exit need not walk it.
        gc.freeze()
        status = jsonl(variant, source, out)
        gc.freeze()
        return status
    if not args.hand:
        return fail("give a HAND (e.g. \"123m 456m 789m 123p 5p +5p\") or --jsonl", as_json=args.json)
    try:
        hand = parse_notation(
            args.hand, variant.scorer.hand_size, self_drawn=args.self_drawn, seat_wind=args.seat, round_wind=args.round,
            last_tile_of_kind=args.last_tile_of_kind, kong_replacement=args.kong_replacement,
            robbing_kong=args.robbing_kong, last_wall_tile=args.last_wall_tile, missing_suit=args.missing_suit)
        if args.json:
            text = json.dumps(result_json(variant, hand, details=True))
        else:
            text = visible_lines(table(variant, hand, variant.scorer.score(hand)))  # names from the file
    except INPUT_ERRORS as exc:
        return fail(str(exc), as_json=args.json)
    except Exception as exc:  # an engine bug must still not print a traceback
        return fail(f"internal error while scoring {quoted(args.hand)}: {type(exc).__name__}: {exc}", 1,
                    as_json=args.json)
    write(text + "\n")
    return 0


class LineEncoder:
    """The contract's output line for a hand, written from prebuilt pieces.

    The text is exactly ``json.dumps(result_json(variant, hand)) + "\n"``. The pieces are
    encoded once by json.dumps and kept in small bounded tables: one per scored pattern
    (position, value, count), and the start and end of a line per (valid, total); the end
    holds ``base``, which the settlement formula computes from ``total`` alone.
    """

    LIMIT = 4096  # entries per table; a piece not kept is encoded again when needed

    def __init__(self, variant: CompiledVariant) -> None:
        self.variant = variant
        self.evaluate = variant.scorer.evaluate_facts
        self.shapes = variant.scorer.shapes
        self.size = variant.scorer.hand_size  # the readers check a request's number of tiles against it
        self.patterns = variant.scorer.table.patterns
        self.base = variant.settlement.base.fn
        self.fans: dict[tuple[int, Any, Any], str] = {}
        self.ends: dict[tuple[bool, Any], tuple[str, str]] = {}

    def _fan(self, scored: tuple[int, Any, Any]) -> str:
        i, value, n = scored
        text = json.dumps({"id": self.patterns[i].id, "value": value, "count": n})
        if type(value) is int and type(n) is int and len(self.fans) < self.LIMIT:  # 1 == True: ints only
            self.fans[scored] = text
        return text

    def _ends(self, valid: bool, total: Any) -> tuple[str, str]:
        head = json.dumps({"valid": valid, "total": total, "fans": []})[:-2]  # up to the fans' "["
        tail = "]"
        if valid:
            try:
                base = self.base(_Total(total))
            except ArithmeticError:
                pass
            else:
                tail += json.dumps({"base": base})[1:-1].join((", ", ""))
        tail += "}\n"
        if type(total) is int and len(self.ends) < self.LIMIT:
            self.ends[(valid, total)] = (head, tail)
        return head, tail

    def hand(self, hand: Hand) -> str:
        """The line of a Hand (as from_json makes it)."""
        return self(HandContext(hand, None, self.shapes))

    def __call__(self, facts: HandContext) -> str:
        """The line of the facts of a hand (compiler/scoring/fastjson.py ``facts_from_line``)."""
        valid, total, ev, _, _ = self.evaluate(facts)
        if ev is None:
            return _NOT_A_WIN
        scored = ev.scored
        try:
            # A piece not kept yet is None and join raises TypeError: the fallback below, kept
            # off the common path (no test per piece), so str | None is meant here.
            body = ", ".join(map(self.fans.get, scored))  # type: ignore[arg-type]
        except TypeError:  # a piece not kept yet (None)
            get = self.fans.get
            body = ", ".join([get(s) or self._fan(s) for s in scored])
        head, tail = self.ends.get((valid, total)) or self._ends(valid, total)
        return head + body + tail


_NOT_A_WIN = '{"valid": false, "total": 0, "fans": []}\n'


def jsonl(variant: CompiledVariant, source: IO[bytes], out: IO[str]) -> int:
    """Answer each non-blank line of ``source`` with one JSON line on ``out``, in order.

    The answers to the lines that have arrived are written and flushed together before
    waiting for more input: a client that sends one request and waits gets its answer,
    and a batch does not pay one write and flush per line.
    """
    encode = LineEncoder(variant)
    size = encode.size
    fast_facts = facts_from_line if FAST_JSON else None
    number = 0
    for lines in arrived(source):
        answers = []
        for raw in lines:
            number += 1
            if fast_facts is not None:
                # A request read straight from the bytes (compiler/scoring/fastjson.py) is answered
                # here; any other line takes the path below, which explains what is wrong.
                facts = fast_facts(raw, size=size)
                if facts is not None:
                    try:
                        answers.append(encode(facts))
                    except Exception as exc:
                        answers.append(failure(exc, number))
                    continue
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                answers.append(unreadable(raw, exc, number))
                continue
            if line and not line.isspace():  # a blank line gets no answer
                # (the fast path, when there is one, has already turned this line down)
                answers.append(_checked_answer(encode, line, number))
        if answers:
            write_answers(out, answers)
    return 0


def unreadable(raw: bytes, exc: UnicodeDecodeError, number: int) -> str:
    """The answer to line ``number`` when it is no text: too long (:data:`_TOO_LONG`) or not UTF-8."""
    if raw is _TOO_LONG:
        return _error(f"line {number}: longer than {MAX_LINE_BYTES:,} bytes: a request takes well under 1,000")
    return _error(f"line {number}: not UTF-8 text (byte {exc.start + 1})")


def load_json(line: str) -> Any:
    """A request line read by json.loads; an integer of more than 4,300 digits (in a field
    that is ignored, it must not matter) is read again as its size (``json_int``)."""
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        raise
    except ValueError:
        return json.loads(line, parse_int=json_int)


def write_answers(out: IO[str], answers: list[str]) -> None:
    """Write and flush the answers of a batch's lines that have arrived; a write that fails
    (a full disk: the answers are lost, the batch cannot go on) is a :class:`StreamError`."""
    try:
        out.write("".join(answers))
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise output_error(exc) from None


#: The longest request line read (real requests are under 1,000 bytes); a longer one is
#: answered with an error, and memory does not grow with it.
MAX_LINE_BYTES = 1_000_000


class _TooLong(bytes):
    """Stands for a line longer than :data:`MAX_LINE_BYTES`. Its one byte is not UTF-8, so
    the batch loop takes it for a line that is not text, where it is told apart (off the
    path of every other line)."""


_TOO_LONG = _TooLong(b"\xff")


def arrived(source: IO[bytes], size: int = 1 << 16) -> Iterator[Iterable[bytes]]:
    """The lines of ``source`` (each with its b"\n", as iterating a binary file gives them),
    in groups: those already arrived, read with one ``read1`` call that waits only when
    nothing is buffered. A source without ``read1`` gives one line at a time. A line longer
    than :data:`MAX_LINE_BYTES` (it spans chunks: only then is a length checked) is given as
    :data:`_TOO_LONG`, its bytes dropped as they come."""
    read1 = getattr(source, "read1", None)
    if read1 is None:
        for raw in source:
            yield (raw,) if len(raw) <= MAX_LINE_BYTES else (_TOO_LONG,)
        return
    partial: list[bytes] = []  # the start of a line not yet complete
    pending = 0  # its length (counted on when a line too long is dropped)
    while True:
        try:
            chunk = read1(size)
        except OSError as exc:  # e.g. standard input is a folder
            raise StreamError(f"cannot read standard input: {exc.strerror or exc}") from None
        if not chunk:
            if pending:
                yield (b"".join(partial) if pending <= MAX_LINE_BYTES else _TOO_LONG,)
            return
        end = chunk.rfind(b"\n") + 1
        if not end:
            pending += len(chunk)
            if pending <= MAX_LINE_BYTES:
                partial.append(chunk)
            else:
                partial = []
            continue
        if pending:
            first = chunk.find(b"\n") + 1  # the end of the line begun in earlier chunks
            if pending + first > MAX_LINE_BYTES:
                yield (_TOO_LONG,)
                whole = chunk[first:end]
            else:
                partial.append(chunk[:end])
                whole = b"".join(partial)
            partial = []
            pending = 0
        else:
            whole = chunk[:end]
        if end < len(chunk):
            partial.append(chunk[end:])
            pending = len(chunk) - end
        if whole:
            yield io.BytesIO(whole)


def _answer(encode: LineEncoder, line: str, number: int) -> str:
    """The answer to one line, as the batch loop gives it."""
    facts = facts_from_line(line, size=encode.size) if FAST_JSON else None
    if facts is not None:
        try:
            return encode(facts)
        except Exception as exc:
            return failure(exc, number)
    return _checked_answer(encode, line, number)


def _checked_answer(encode: LineEncoder, line: str, number: int) -> str:
    """The answer through json.loads and from_json, which say what is wrong with a request."""
    try:
        return encode.hand(from_json(load_json(line), encode.size))
    except Exception as exc:
        return failure(exc, number)


def failure(exc: Exception, number: int) -> str:
    """The answer to line ``number`` when reading or scoring it raised ``exc``."""
    if isinstance(exc, json.JSONDecodeError):
        return _error(f"line {number}: not JSON: {exc.msg} at column {exc.colno}")
    if isinstance(exc, INPUT_ERRORS):
        return _error(f"line {number}: {exc}")
    if isinstance(exc, RecursionError):
        return _error(f"line {number}: the request nests too deeply")
    # an engine bug answers this line and the batch goes on
    return _error(f"line {number}: internal error: {type(exc).__name__}: {exc}")


def _error(message: str) -> str:
    return json.dumps({"error": message}) + "\n"


# ------------------------------------------------------------ readable table

def _flags(hand: Hand) -> str:
    words = ["self-drawn" if hand.self_drawn else "on a discard",
             f"seat {WIND_LETTERS[hand.seat_wind - 27]}", f"round {WIND_LETTERS[hand.round_wind - 27]}"]
    for name in ("last_tile_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile"):
        if getattr(hand, name):
            words.append(name.replace("_", " "))
    if hand.missing_suit:
        words.append(f"missing suit {hand.missing_suit}")
    return ", ".join(words)


def _shapes(variant: CompiledVariant) -> str:
    return ", ".join(s.id.replace("_", " ") for s in variant.scoring.shapes)


def _reason(variant: CompiledVariant, result: ScoreResult) -> str | None:
    """Why the hand is not a valid win, the unit in its right number."""
    minimum = variant.scoring.minimum
    below = bool(result.fans) and result.minimum_points < minimum
    return refusal(variant.scoring.unit, minimum, result.minimum_points, below, result.reason)


def table(variant: CompiledVariant, hand: Hand, result: ScoreResult) -> str:
    """Each pattern with its value (and count), the total, the arrangement, and why a hand is not valid."""
    names = {p.id: p.name for p in variant.scoring.table.patterns}
    unit = variant.scoring.unit
    lines = [f"{variant.title}: {hand.notation()}", f"  {_flags(hand)}"]
    if result.arrangement:
        assert result.shape is not None  # an arrangement is always of a shape
        lines.append(f"arrangement ({result.shape.replace('_', ' ')}): {result.arrangement}")
    if result.fans:
        rows = []
        for f in result.fans:
            value = f"{f.value} x {f.count} = {f.value * f.count}" if f.count > 1 else str(f.value)
            note = "  (not toward the minimum)" if not f.toward_minimum else ""
            rows.append((names.get(f.id, f.id), f.id, value, unit_word(unit, f.value * f.count).split(" ", 1)[1],
                         note))
        w_name = max(len(r[0]) for r in rows)
        w_id = max(len(r[1]) for r in rows)
        w_val = max(len(r[2]) for r in rows)
        for name, pid, value, word, note in rows:
            lines.append(f"  {name:<{w_name}}  {pid:<{w_id}}  {value:>{w_val}} {word}{note}")
    capped = f" (capped from {result.uncapped})" if result.uncapped > result.total else ""
    lines.append(f"total: {unit_word(unit, result.total)}{capped}")
    minimum = variant.scoring.minimum
    if result.valid:
        lines.append("valid win" + (f" (minimum {unit_word(unit, minimum)})" if minimum else ""))
    elif result.arrangement is None and result.reason == "not a winning shape":
        lines.append(f"not a valid win: not a winning shape (the tiles form none of: {_shapes(variant)})")
    else:
        lines.append(f"not a valid win: {_reason(variant, result)}")
    return "\n".join(lines)
