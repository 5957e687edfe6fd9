"""Scoring requests read straight from a JSON line into typed fields, with msgspec.

msgspec (the optional ``fast`` extra) decodes a line into the request's fields and checks
their JSON types as it goes, in C: what is left for Python is what
:func:`compiler.model.hand.checked_hand` does with the values. Over the MCR sample that is a
quarter fewer instructions than decoding to a dict (orjson) and checking each value's
type in Python (:func:`compiler.model.hand.from_json_fast`), and half the time of json.loads
and :func:`compiler.model.hand.from_json`.

:func:`hand_from_line` answers only what it can answer exactly as ``json.loads`` +
:func:`compiler.model.hand.from_json` would; for anything else it gives None and the caller
takes that path, which also explains what is wrong.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from ..model.hand import MELD_KINDS, Hand, checked_hand
from ..model.tiles import KINDS, WIND_LETTERS, is_bonus
from .context import HandContext, hand_facts

#: The longest line tried here. json.loads stops at the interpreter's recursion limit
#: where msgspec reads deeper: a line shorter than the limit nests less than half as deep,
#: so both read it. (Real requests are well under 1,000 bytes.)
LONGEST = sys.getrecursionlimit()

_decode: Callable[[bytes | str], Any] | None
try:
    import msgspec
except ImportError:  # pragma: no cover - depends on the environment
    _decode = None
else:
    # The values a field may take, where the contract lists them: msgspec hands out these
    # very strings (their hash already known) without making new ones. Anything else
    # sends the line down the other path, which says what is wrong.
    if TYPE_CHECKING:  # the lists are made from the tile codes, which a type checker cannot read
        _Tile: TypeAlias = str
        _Bonus: TypeAlias = str
        _Wind: TypeAlias = str
        _SetType: TypeAlias = str
    else:
        _Tile = Literal[tuple(code for code, k in KINDS.items() if not is_bonus(k))]
        _Bonus = Literal[tuple(code for code, k in KINDS.items() if is_bonus(k))]
        _Wind = Literal[tuple(WIND_LETTERS)]
        _SetType = Literal[MELD_KINDS]
    _Suit = Literal["m", "p", "s"]

    class _Meld(msgspec.Struct, gc=False):
        type: _SetType
        tiles: list[_Tile]
        concealed: bool = False

    class _Request(msgspec.Struct, gc=False):
        """A request's fields as docs/interfaces.md gives them; unknown fields are skipped."""

        hand: list[_Tile]
        win_tile: _Tile
        melds: list[_Meld] | None = None
        flowers: list[_Bonus] | None = None
        self_drawn: bool | None = None
        seat_wind: _Wind | None = None
        round_wind: _Wind | None = None
        last_tile_of_kind: bool | None = None
        kong_replacement: bool | None = None
        robbing_kong: bool | None = None
        last_wall_tile: bool | None = None
        missing_suit: _Suit | None = None
        deal: dict[str, int] | None = None  # events of the deal: read by the full path

    _decode = msgspec.json.Decoder(_Request).decode

#: Whether the decoder is installed (without it, the functions below always give None).
AVAILABLE = _decode is not None


def hand_from_line(line: bytes | str) -> Hand | None:
    """The Hand of a well-formed request line, or None (never an exception)."""
    return facts_from_line(line, None)  # type: ignore[return-value]  # build=None: the Hand


def facts_from_line(line: bytes | str, build: Callable[..., Any] | None = hand_facts,
                    size: int | None = None) -> HandContext | None:
    """The facts of a well-formed request line's hand (compiler/scoring/context.py ``hand_facts``:
    what a scorer evaluates, with no Hand made on the way), or None (never an exception).
    With ``build=None``, the Hand instead; ``size``: the variant's hand size (None: not
    checked here).

    Only ASCII lines are read here: msgspec does not check the UTF-8 of what it skips (an
    unknown field), where decoding the line first would stop.
    """
    if _decode is None or len(line) >= LONGEST or not line.isascii():
        return None
    try:
        r = _decode(line)
    except Exception:  # not JSON, a type that is not the request's, nested too deep
        return None
    if r.deal is not None:
        return None
    melds = r.melds
    return checked_hand(r.hand, r.win_tile, [(m.type, m.concealed, *m.tiles) for m in melds] if melds else None,
                        r.flowers, r.self_drawn, r.last_tile_of_kind, r.kong_replacement, r.robbing_kong,
                        r.last_wall_tile, r.seat_wind, r.round_wind, r.missing_suit, build, size)
