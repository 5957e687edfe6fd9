"""A hand to score: concealed tiles, declared sets, the winning tile and the win context.

Built from the hand notation of docs/interfaces.md (for people) or from the JSON scoring
input (for programs); both paths validate the same way and raise :class:`HandError`
with a message that says which part is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from typing import Any

from ..errors import quoted
from ..records import FrozenRecord
from .groups import Group, make_group
from .tiles import (
    CODES,
    KINDS,
    NUM_KINDS,
    WIND_LETTERS,
    TileError,
    format_tiles,
    is_bonus,
    kind_of,
    parse_tiles,
    wind_kind,
)

MELD_KINDS = ("chow", "pung", "kong")


class HandError(ValueError):
    """A hand or scoring request that cannot be scored as given."""


class Meld(FrozenRecord):
    """A declared set. Chows and pungs are exposed; a kong may be concealed."""

    kind: str
    tiles: tuple[int, ...]
    concealed: bool

    def __init__(self, kind: str, tiles: tuple[int, ...], concealed: bool = False) -> None:
        vars(self).update(kind=kind, tiles=tiles, concealed=concealed)

    def notation(self) -> str:
        text = format_tiles(self.tiles)
        return "{" + text + "}" if self.concealed else "[" + text + "]"

    @cached_property
    def group(self) -> Group:
        """The set as pattern conditions see it (``declared``): made once per Meld, and
        from_json_fast hands out the same Meld for the same set, request after request."""
        return make_group(self.kind, self.tiles[0], self.concealed, True)


class Hand(FrozenRecord):
    """What is scored: the concealed tiles, the declared sets, the winning tile, the flowers
    and the win context. ``extra`` (fields a request adds) is not compared."""

    COMPARED = ("concealed", "melds", "win_tile", "flowers", "self_drawn", "seat_wind", "round_wind",
                "last_tile_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile", "missing_suit")

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    flowers: tuple[int, ...]
    self_drawn: bool
    seat_wind: int
    round_wind: int
    last_tile_of_kind: bool
    kong_replacement: bool
    robbing_kong: bool
    last_wall_tile: bool
    missing_suit: str | None
    extra: dict[str, Any]

    def __init__(self, concealed: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int,
                 flowers: tuple[int, ...] = (), self_drawn: bool = False, seat_wind: int = 27, round_wind: int = 27,
                 last_tile_of_kind: bool = False, kong_replacement: bool = False, robbing_kong: bool = False,
                 last_wall_tile: bool = False, missing_suit: str | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        vars(self).update(concealed=concealed, melds=melds, win_tile=win_tile, flowers=flowers, self_drawn=self_drawn,
                          seat_wind=seat_wind, round_wind=round_wind, last_tile_of_kind=last_tile_of_kind,
                          kong_replacement=kong_replacement, robbing_kong=robbing_kong, last_wall_tile=last_wall_tile,
                          missing_suit=missing_suit, extra=extra if extra is not None else {})

    #: Not a field: (concealed copies, declared copies, declared kinds) as :func:`tile_copies`
    #: gives them, left by :func:`checked_hand`, which works them out to check the request
    #: (compiler/scoring/context.py reads them instead of counting again, and the scorer knows the
    #: hand was checked). None: not worked out.
    _copies = None

    @property
    def all_tiles(self) -> list[int]:
        """Every tile of the hand structure (concealed, win tile, melds), no bonus tiles."""
        tiles = list(self.concealed) + [self.win_tile]
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    def counts(self) -> list[int]:
        counts = [0] * NUM_KINDS
        for k in self.all_tiles:
            counts[k] += 1
        return counts

    def notation(self) -> str:
        parts = [format_tiles(sorted(self.concealed))] if self.concealed else []
        parts += [m.notation() for m in self.melds]
        if self.flowers:
            parts.append(format_tiles(sorted(self.flowers)))
        parts.append("+" + CODES[self.win_tile])
        return " ".join(parts)


# ------------------------------------------------------------------ tile copies

#: Kind k's unit in one number holding the copies of every kind, 8 bits each (kind k at
#: bit 8k): counting a tile is one addition.
BYTE_OF = tuple(1 << 8 * k for k in range(NUM_KINDS))
_ONES = sum(BYTE_OF)
#: The copies of a kind a hand may hold (:func:`validate`'s default, checked_hand's).
MAX_COPIES = 4
#: Adding 123 to a byte sets its top bit exactly when it counts five or more (a hand holds
#: at most 18 tiles: no byte carries into the next).
_FIVE_ADD = (127 - MAX_COPIES) * _ONES
_TOP_BITS = 0x80 * _ONES


def meld_copies(meld: Meld) -> tuple[int, int]:
    """(the copies of each kind in ``meld``, 8 bits per kind; its kinds as a mask)."""
    copies = kinds = 0
    for k in meld.tiles:
        copies += BYTE_OF[k]
        kinds |= 1 << k
    return copies, kinds


def tile_copies(hand: Hand) -> tuple[int, int, int]:
    """(copies of each kind among the concealed tiles and the winning tile, the same for
    the declared sets, both 8 bits per kind; the declared sets' kinds as a mask): what
    :func:`checked_hand` leaves on its hands, worked out for a Hand built another way."""
    got = hand._copies
    if got is not None:
        return got
    key = BYTE_OF[hand.win_tile]
    for k in hand.concealed:
        key += BYTE_OF[k]
    declared = kinds = 0
    for m in hand.melds:
        copies, mask = meld_copies(m)
        declared += copies
        kinds |= mask
    return key, declared, kinds


# ------------------------------------------------------------------ validation

def _meld(kind: object, tiles: list[int], concealed: bool, where: str) -> Meld:
    if kind not in MELD_KINDS:
        raise HandError(f"{where}: unknown set type {quoted(kind)}: expected chow, pung or kong")
    assert isinstance(kind, str)
    tiles = sorted(tiles)
    if any(is_bonus(t) for t in tiles):
        raise HandError(f"{where}: a bonus tile cannot be part of a set")
    need = 4 if kind == "kong" else 3
    if len(tiles) != need:
        raise HandError(f"{where}: a {kind} has {need} tiles, got {len(tiles)}")
    if kind == "chow":
        if tiles[0] >= 27 or tiles[2] // 9 != tiles[0] // 9 or tiles != [tiles[0], tiles[0] + 1, tiles[0] + 2]:
            raise HandError(f"{where}: a chow is three consecutive tiles of one suit, got {format_tiles(tiles)}")
    elif len(set(tiles)) != 1:
        raise HandError(f"{where}: a {kind} is {need} identical tiles, got {format_tiles(tiles)}")
    if concealed and kind != "kong":
        raise HandError(f"{where}: only a kong can be declared concealed")
    return Meld(kind, tuple(tiles), concealed)


def tile_count_error(size: int, melds: int, concealed: int) -> HandError:
    """The error for a hand whose tiles are not ``size`` (the variant's hand size: winning
    tile included, a declared set counted three), naming the tiles it should hold."""
    return HandError(f"wrong tile count: with {melds} declared set(s) the hand holds {size - 1 - 3 * melds} tiles "
                     f"plus the winning tile, got {concealed} plus the winning tile")


def validate(hand: Hand, max_copies: int = MAX_COPIES, size: int | None = None) -> Hand:
    """Check tile counts, the hand size (``size``: the variant's, winning tile included and a
    declared set counted three; None: not checked here, the scorer does) and the win
    flags; return the hand unchanged."""
    for k in list(hand.concealed) + [hand.win_tile]:
        if is_bonus(k):
            raise HandError(f"bonus tile {CODES[k]} must be listed with the flowers, not in the hand")
    for k in hand.flowers:
        if not is_bonus(k):
            raise HandError(f"{CODES[k]} is not a flower or season")
    if len(set(hand.flowers)) != len(hand.flowers):
        raise HandError("each flower or season exists once; a flower is listed twice")
    counts = hand.counts()
    over = [f"{n} copies of {CODES[k]}" for k, n in enumerate(counts) if n > max_copies]
    if over:
        raise HandError(f"{', '.join(over)}: each tile exists only {max_copies} times")
    if size is not None and len(hand.concealed) + 1 + 3 * len(hand.melds) != size:
        raise tile_count_error(size, len(hand.melds), len(hand.concealed))
    if hand.robbing_kong and hand.self_drawn:
        raise HandError("robbing_kong contradicts self_drawn: a robbed kong tile is never self-drawn")
    if hand.robbing_kong and hand.kong_replacement:
        raise HandError("robbing_kong contradicts kong_replacement")
    if hand.kong_replacement and not hand.self_drawn:
        raise HandError("kong_replacement needs self_drawn: the replacement tile is drawn by the winner")
    if hand.kong_replacement and not any(m.kind == "kong" for m in hand.melds):
        raise HandError("kong_replacement needs a declared kong")
    if (hand.extra.get("deal") or {}).get("flower_replacement") and not (hand.self_drawn and hand.flowers):
        raise HandError("deal.flower_replacement needs self_drawn and a flower: the winner draws the tile "
                        "that replaces its flower")
    if hand.missing_suit not in (None, "m", "p", "s"):
        raise HandError(f"missing_suit {quoted(hand.missing_suit)}: expected m, p or s")
    return hand


# ------------------------------------------------------------------ JSON input

_BOOL_FLAGS = ("self_drawn", "last_tile_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile")

#: The events of the deal a win may carry (a request's ``deal`` object, kept in
#: ``Hand.extra["deal"]``), with their type; those not given are false or 0.
DEAL_EVENTS: dict[str, type] = {"first_turn": bool, "first_go_around": bool, "dealer_first_discard": bool,
                                "flower_replacement": bool, "dealer": bool, "tiles_left": int,
                                "dealer_repeats": int}


def deal_events(value: Any) -> dict[str, Any]:
    """A request's ``deal`` object, checked: known names, true/false or a whole number 0 or more."""
    if not isinstance(value, dict):
        raise HandError(f"deal: expected an object naming events of the deal ({', '.join(DEAL_EVENTS)})")
    out: dict[str, Any] = {}
    for name, v in value.items():
        want = DEAL_EVENTS.get(name)
        if want is None:
            raise HandError(f"deal: unknown event {quoted(name)}: expected one of {', '.join(DEAL_EVENTS)}")
        if want is bool and not isinstance(v, bool):
            raise HandError(f"deal.{name}: expected true or false, got {quoted(v)}")
        if want is int and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 999):
            raise HandError(f"deal.{name}: expected a whole number 0-999, got {quoted(v)}")
        out[name] = v
    return out


def _tile(value: Any, where: str) -> int:
    try:
        return kind_of(value)
    except TileError as exc:
        raise HandError(f"{where}: {exc}") from None


def _tile_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise HandError(f"{where}: expected a list of tile codes")
    try:
        return [KINDS[v] for v in value]
    except (KeyError, TypeError):  # find the bad one and say where it is
        return [_tile(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _wind(value: Any, where: str) -> int:
    try:
        return wind_kind(value)
    except TileError as exc:
        raise HandError(f"{where}: {exc}") from None


def _or_default(obj: dict[str, Any], name: str, default: Any) -> Any:
    """An omitted or null field takes its default; any other value is checked as given."""
    value = obj.get(name)
    return default if value is None else value


def _from_json(obj: Any, size: int | None = None) -> Hand:
    """:func:`from_json`, every field checked in turn (the path that explains bad input)."""
    if not isinstance(obj, dict):
        raise HandError("expected a JSON object")
    if "hand" not in obj:
        raise HandError("field 'hand' is required")
    if "win_tile" not in obj:
        raise HandError("field 'win_tile' is required")
    concealed = _tile_list(obj["hand"], "hand")
    melds_in = obj.get("melds") or []
    if not isinstance(melds_in, list):
        raise HandError("melds: expected a list of {type, tiles}")
    melds = []
    for i, m in enumerate(melds_in):
        where = f"melds[{i}]"
        if not isinstance(m, dict):
            raise HandError(f"{where}: expected an object with 'type' and 'tiles'")
        concealed_flag = m.get("concealed", False)
        if not isinstance(concealed_flag, bool):
            raise HandError(f"{where}.concealed: expected true or false")
        kind = m.get("type")
        tiles = _tile_list(m.get("tiles"), f"{where}.tiles")
        melds.append(_meld(kind, tiles, concealed_flag and kind == "kong", where))
    flags: dict[str, bool] = {}
    for name in _BOOL_FLAGS:
        value = obj.get(name, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            raise HandError(f"{name}: expected true or false, got {quoted(value)}")
        flags[name] = value
    missing = obj.get("missing_suit")
    hand = Hand(
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=_tile(obj["win_tile"], "win_tile"),
        flowers=tuple(_tile_list(obj.get("flowers") or [], "flowers")),
        seat_wind=_wind(_or_default(obj, "seat_wind", "E"), "seat_wind"),
        round_wind=_wind(_or_default(obj, "round_wind", "E"), "round_wind"),
        self_drawn=flags["self_drawn"], last_tile_of_kind=flags["last_tile_of_kind"],
        kong_replacement=flags["kong_replacement"], robbing_kong=flags["robbing_kong"],
        last_wall_tile=flags["last_wall_tile"],
        missing_suit=missing,
        extra={"deal": deal_events(obj["deal"])} if obj.get("deal") is not None else None,
    )
    return validate(hand, size=size)


#: Codes of the playable kinds (bonus tiles excluded) and of the bonus tiles.
_PLAYABLE_CODES: dict[str, int] = {code: k for code, k in KINDS.items() if not is_bonus(k)}
_BONUS_CODES: dict[str, int] = {code: k for code, k in KINDS.items() if is_bonus(k)}
_WIND_CODES: dict[str, int] = {letter: 27 + i for i, letter in enumerate(WIND_LETTERS)}
_WIND_OR_EAST: dict[str | None, int] = {None: 27}  # an omitted or null wind is East
_WIND_OR_EAST.update(_WIND_CODES)
_MISSING_SUITS = (None, "m", "p", "s")
_playable = _PLAYABLE_CODES.__getitem__
_bonus = _BONUS_CODES.__getitem__
_new_object = object.__new__
_set_fields = next(c.__dict__["__dict__"] for c in Hand.__mro__ if "__dict__" in c.__dict__).__set__

#: Declared sets already checked, by (type, concealed flag, tiles as given), with their
#: :func:`meld_copies`: a few hundred keys at most (bounded by the limit anyway).
_MELDS: dict[tuple[Any, ...], tuple[Meld, int, int]] = {}
_MELDS_LIMIT = 4096


def _new_meld(key: tuple[Any, ...]) -> tuple[Meld, int, int] | None:
    """Check a set not seen before (None if it is wrong: then the full check explains)."""
    kind, concealed, *codes = key
    try:
        meld = _meld(kind, [_PLAYABLE_CODES[t] for t in codes], concealed and kind == "kong", "")
    except (KeyError, TypeError, HandError):
        return None
    checked = (meld, *meld_copies(meld))
    if len(_MELDS) < _MELDS_LIMIT:
        _MELDS[key] = checked
    return checked


def from_json_fast(obj: Any, size: int | None = None) -> Hand | None:
    """The Hand of a well-formed request, or None for anything unusual (never an exception).

    The JSON types are checked here; :func:`checked_hand` does the rest. It returns a Hand
    only where :func:`_from_json` gives the same Hand, so a caller may try it first (on any
    decoding of the request) and leave the rest to :func:`from_json`.
    """
    if type(obj) is not dict:
        return None
    get = obj.get
    if get("deal") is not None:  # events of the deal: read by the full path
        return None
    hand_in = get("hand")
    if type(hand_in) is not list:
        return None
    melds_in = get("melds")
    if melds_in:
        if type(melds_in) is not list:
            return None
        meld_keys = []
        for m in melds_in:
            if type(m) is not dict:
                return None
            try:
                tiles = m["tiles"]
                flag = m.get("concealed", False)
                if type(tiles) is not list or (flag is not False and flag is not True):
                    return None
                meld_keys.append((m["type"], flag, *tiles))
            except KeyError:  # a missing field
                return None
    else:
        meld_keys = None
    flowers_in = get("flowers")
    if flowers_in and type(flowers_in) is not list:
        return None
    self_drawn = get("self_drawn")
    last_tile_of_kind = get("last_tile_of_kind")
    kong_replacement = get("kong_replacement")
    robbing_kong = get("robbing_kong")
    last_wall_tile = get("last_wall_tile")
    if not ((self_drawn is False or self_drawn is True or self_drawn is None)  # most often false
            and (last_tile_of_kind is False or last_tile_of_kind is True or last_tile_of_kind is None)
            and (kong_replacement is False or kong_replacement is True or kong_replacement is None)
            and (robbing_kong is False or robbing_kong is True or robbing_kong is None)
            and (last_wall_tile is False or last_wall_tile is True or last_wall_tile is None)):
        return None
    return checked_hand(hand_in, get("win_tile"), meld_keys, flowers_in, self_drawn, last_tile_of_kind,
                        kong_replacement, robbing_kong, last_wall_tile, get("seat_wind"), get("round_wind"),
                        get("missing_suit"), size=size)


def checked_hand(hand_in: list[Any], win_in: Any, meld_keys: list[tuple[Any, ...]] | None, flowers_in: Any,
                 self_drawn: bool | None, last_tile_of_kind: bool | None, kong_replacement: bool | None,
                 robbing_kong: bool | None, last_wall_tile: bool | None, seat: Any, rnd: Any,
                 missing: Any, build: Callable[..., Any] | None = None, size: int | None = None) -> Any:
    """The Hand of a request whose JSON types are right, or None where it is wrong (never
    an exception): what :func:`from_json_fast` and compiler/scoring/fastjson.py share.

    ``hand_in`` is a list; ``meld_keys`` each declared set as (type, concealed flag, *tiles
    as given) (None or empty: none); ``flowers_in`` a list or anything false; the flags
    True, False or None. Tile codes are looked up, checked sets reused, five copies found in
    one sum of copies (kept on the Hand: compiler/scoring/context.py reads it instead of counting
    again). ``build``, if given, is called with the Hand's fields in order and the copies
    instead (compiler/scoring/context.py ``hand_facts``: the facts of the hand, with no Hand).
    ``size``: the variant's hand size (winning tile included, a declared set counted three),
    or None to leave the number of tiles to the scorer.
    """
    try:
        concealed = tuple(map(_playable, hand_in))
        win = _PLAYABLE_CODES[win_in]
    except (KeyError, TypeError):
        return None
    key = BYTE_OF[win]  # the copies of every kind, 8 bits each, for the five-copies check
    for k in concealed:
        key += BYTE_OF[k]
    if meld_keys:
        out = []
        declared = kinds = 0
        for key_in in meld_keys:
            try:
                checked = _MELDS.get(key_in) or _new_meld(key_in)
            except TypeError:  # an unhashable value
                return None
            if checked is None:
                return None
            out.append(checked[0])
            declared += checked[1]
            kinds |= checked[2]
        melds = tuple(out)
        if size is not None and len(concealed) + 3 * len(melds) + 1 != size:
            return None
    elif size is not None and len(concealed) + 1 != size:
        return None
    else:
        melds = ()
        declared = kinds = 0
    if (key + declared + _FIVE_ADD) & _TOP_BITS:  # five copies of a kind
        return None
    if flowers_in:
        try:
            flowers = tuple(map(_bonus, flowers_in))
        except (KeyError, TypeError):
            return None
        if len(set(flowers)) != len(flowers):
            return None
    else:
        flowers = ()
    if robbing_kong and (self_drawn or kong_replacement):
        return None
    if kong_replacement and not (self_drawn and any(m.kind == "kong" for m in melds)):
        return None
    try:
        seat_wind = _WIND_OR_EAST[seat]
        round_wind = _WIND_OR_EAST[rnd]
    except (KeyError, TypeError):
        return None
    if missing is not None and (type(missing) is not str or missing not in _MISSING_SUITS):
        return None
    if build is not None:
        return build(concealed, melds, win, flowers, self_drawn is True, seat_wind, round_wind,
                     last_tile_of_kind is True, kong_replacement is True, robbing_kong is True, last_wall_tile is True,
                     missing, (key, declared, kinds))
    # The new instance's fields as one dict (in order, as Hand.__init__ sets them): no call
    # with keyword arguments, and a dict of its own reads faster than a filled shared one.
    hand = _new_object(Hand)
    _set_fields(hand, {"concealed": concealed, "melds": melds, "win_tile": win, "flowers": flowers,
                       "self_drawn": self_drawn is True, "seat_wind": seat_wind, "round_wind": round_wind,
                       "last_tile_of_kind": last_tile_of_kind is True, "kong_replacement": kong_replacement is True,
                       "robbing_kong": robbing_kong is True, "last_wall_tile": last_wall_tile is True,
                       "missing_suit": missing, "extra": {}, "_copies": (key, declared, kinds)})
    return hand


def from_json(obj: Any, size: int | None = None) -> Hand:
    """The scoring request of docs/interfaces.md; unknown fields are ignored.

    A well-formed request takes the direct path (:func:`from_json_fast`); anything unusual
    goes through :func:`_from_json`, which checks every field in turn and says which part
    is wrong. Both give the same Hand. ``size``: the variant's hand size (its scorer's
    ``hand_size``), so that a wrong number of tiles is told in order with the other
    problems; None leaves it to the scorer.
    """
    return from_json_fast(obj, size) or _from_json(obj, size)


def to_json(hand: Hand) -> dict[str, Any]:
    return {
        "hand": [CODES[k] for k in hand.concealed],
        "melds": [
            {"type": m.kind, "tiles": [CODES[k] for k in m.tiles], "concealed": m.concealed} for m in hand.melds
        ],
        "win_tile": CODES[hand.win_tile],
        "flowers": [CODES[k] for k in hand.flowers],
        "self_drawn": hand.self_drawn,
        "seat_wind": WIND_LETTERS[hand.seat_wind - 27],
        "round_wind": WIND_LETTERS[hand.round_wind - 27],
        "last_tile_of_kind": hand.last_tile_of_kind,
        "kong_replacement": hand.kong_replacement,
        "robbing_kong": hand.robbing_kong,
        "last_wall_tile": hand.last_wall_tile,
        "missing_suit": hand.missing_suit,
    }


# ------------------------------------------------------------- hand notation

_GROUP = re.compile(r"\s*(?:(\[)([^\]]*)\]|(\{)([^}]*)\}|(\+)\s*([1-9][mpszf])|([1-9]+[mpszf]))")


def parse_notation(text: str, size: int | None = None, **flags: Any) -> Hand:
    """``'12345678m 55s [777z] 2f +9m'`` plus keyword flags (as in :func:`from_json`, and
    ``size``, the variant's hand size, too)."""
    obj = notation_request(text)
    if "win_tile" not in obj:
        raise HandError(f"no winning tile in {quoted(text, 100)}: add it after '+', e.g. '+9m'")
    obj.update({k: v for k, v in flags.items() if v is not None})
    return from_json(obj, size)


def notation_request(text: str) -> dict[str, Any]:
    """The JSON request (:func:`from_json`) that hand notation stands for, without flags;
    ``win_tile`` only when the text gives one (a hand waiting for its tile has none)."""
    concealed: list[int] = []
    flowers: list[int] = []
    melds: list[Meld] = []
    win: int | None = None
    pos = 0
    text_s = text.rstrip()
    while pos < len(text_s):
        m = _GROUP.match(text_s, pos)
        if not m:
            start = pos + len(text_s[pos:]) - len(text_s[pos:].lstrip())
            opener = text_s[start:start + 1]
            if opener in ("[", "{"):
                closer = "]" if opener == "[" else "}"
                raise HandError(
                    f"cannot read the set at column {start + 1} of {quoted(text, 100)}: expected tile codes "
                    f"such as 555p followed by {closer!r}"
                )
            raise HandError(
                f"cannot read the hand at column {start + 1} of {quoted(text, 100)}: expected tiles such as 123m, "
                "a set in [ ] or { }, or +TILE for the winning tile"
            )
        where = f"column {m.start() + 1 + (len(m.group(0)) - len(m.group(0).lstrip()))}"
        try:
            if m.group(1) or m.group(3):
                body = m.group(2) if m.group(1) else m.group(4)
                tiles = parse_tiles(body)
                bonus = [t for t in tiles if is_bonus(t)]
                if bonus:
                    raise HandError(f"{where}: a bonus tile cannot be part of a set")
                kind = {3: "pung" if len(set(tiles)) == 1 else "chow", 4: "kong"}.get(len(tiles))
                if kind is None:
                    raise HandError(f"{where}: a set has 3 or 4 tiles, got {len(tiles)} in {quoted(body)}")
                melds.append(_meld(kind, tiles, bool(m.group(3)), where))
            elif m.group(5):
                if win is not None:
                    raise HandError(f"{where}: only one winning tile (+TILE) is allowed")
                win = kind_of(m.group(6))
                if is_bonus(win):
                    raise HandError(f"{where}: the winning tile cannot be a bonus tile")
            else:
                for t in parse_tiles(m.group(7)):
                    (flowers if is_bonus(t) else concealed).append(t)
        except TileError as exc:
            raise HandError(f"{where}: {exc}") from None
        pos = m.end()
    obj: dict[str, Any] = {
        "hand": [CODES[k] for k in concealed],
        "melds": [{"type": m.kind, "tiles": [CODES[k] for k in m.tiles], "concealed": m.concealed} for m in melds],
        "flowers": [CODES[k] for k in flowers],
    }
    if win is not None:
        obj["win_tile"] = CODES[win]
    return obj
