"""Groups of tiles inside an arrangement (sets, pairs, knitted runs, single tiles).

Every property a pattern condition may ask of a group is computed once, when the
group is built, so compiled conditions read plain attributes. Tiles and groups are
immutable and shared: one Tile per kind (equal means identical), one Group per
distinct (kind, first tile, concealed, declared, holds the winning tile).
"""

from __future__ import annotations

from typing import Any

from .tiles import CODES, is_dragon, is_honor, is_terminal, is_wind, rank_of, suit_of

GROUP_KINDS = ("chow", "pung", "kong", "pair", "knitted", "single")
#: The attributes of a group fixed by its kind and first tile alone (``Group.kind_id``):
#: not whether it is concealed, declared or holds the winning tile.
KIND_ATTRIBUTES = frozenset({"kind", "first", "kinds", "tiles", "size", "tile", "suit", "rank", "chow", "pung",
                             "kong", "pair", "knitted", "single", "suited", "honor", "wind", "dragon",
                             "terminal", "simple", "outside", "middle", "order", "kind_id"})


class Tile:
    """A tile kind as pattern conditions see it (``t.suit``, ``t.rank``, ``t.dragon`` ...)."""

    __slots__ = ("kind", "code", "suit", "rank", "suited", "honor", "wind", "dragon", "terminal",
                 "simple", "outside", "bonus")

    def __init__(self, kind: int) -> None:
        self.kind = kind
        self.code = CODES[kind]
        self.suit = suit_of(kind)
        self.rank = rank_of(kind)
        self.suited = kind < 27
        self.honor = is_honor(kind)
        self.wind = is_wind(kind)
        self.dragon = is_dragon(kind)
        self.terminal = is_terminal(kind)
        self.simple = self.suited and not self.terminal
        self.outside = self.terminal or self.honor
        self.bonus = kind >= 34

    # Equality and hashing are by identity: there is exactly one Tile per kind (TILES),
    # so identity is kind equality. No comparison method is defined at all, so that the
    # built-in comparison stays in C (a Python-level __lt__ slows down every ==);
    # sorting tiles uses their kind as the key (see expressions.FUNCTIONS["sorted"]).

    def __repr__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (_tile, (self.kind,))  # unpickled, a tile is the one shared object of its kind


#: One shared object per kind: conditions compare tiles by identity-equal kinds.
TILES: tuple[Tile, ...] = tuple(Tile(k) for k in range(42))


def _tile(kind: int) -> Tile:
    return TILES[kind]


class Group:
    """A set, pair or other group of an arrangement."""

    __slots__ = ("kind", "first", "tiles", "concealed", "declared", "has_win", "suit", "rank", "tile",
                 "chow", "pung", "kong", "pair", "knitted", "single", "suited", "honor", "wind", "dragon",
                 "terminal", "simple", "outside", "middle", "size", "kinds", "order", "kind_id", "_text")

    def __init__(self, kind: str, first: int, tiles: tuple[int, ...], concealed: bool, declared: bool,
                 has_win: bool = False) -> None:
        self.kind = kind
        self.first = first
        self.kinds = tiles
        self.tiles = [TILES[k] for k in tiles]
        self.size = len(tiles)
        self.concealed = concealed
        self.declared = declared
        self.has_win = has_win
        t = TILES[first]
        self.tile = t
        self.suit = t.suit
        self.rank = t.rank
        self.chow = kind == "chow"
        self.kong = kind == "kong"
        self.pung = kind in ("pung", "kong")
        self.pair = kind == "pair"
        self.knitted = kind == "knitted"
        self.single = kind == "single"
        self.suited = t.suited
        self.honor = t.honor
        self.wind = t.wind
        self.dragon = t.dragon
        # Properties of every tile of the group.
        self.terminal = all(TILES[k].terminal for k in tiles)
        self.simple = all(TILES[k].simple for k in tiles)
        self.outside = any(TILES[k].outside for k in tiles)
        self.middle = TILES[first + 1] if kind == "chow" else t
        # Sort key of sets (by first tile, a chow before a pung before a kong); -1 for other groups.
        self.order = first * 3 + ("chow", "pung", "kong").index(kind) if kind in ("chow", "pung", "kong") else -1
        # One number per (kind, first tile): what every attribute of KIND_ATTRIBUTES depends on.
        self.kind_id = GROUP_KINDS.index(kind) * 64 + first

    _text: str  # the notation, made on the first repr

    def __repr__(self) -> str:
        try:
            return self._text
        except AttributeError:
            pass
        text = "".join(str(TILES[k].rank) for k in self.kinds) + self.suit
        if self.declared:
            text = "{" + text + "}" if self.concealed else "[" + text + "]"
        else:
            text += "*" if self.has_win else ""
        self._text = text
        return text

    def key(self) -> tuple[str, int, bool, bool]:
        return (self.kind, self.first, self.concealed, self.declared)


def group_tiles(kind: str, first: int) -> tuple[int, ...]:
    if kind == "chow":
        return (first, first + 1, first + 2)
    if kind == "knitted":
        return (first, first + 3, first + 6)
    return (first,) * {"pung": 3, "kong": 4, "pair": 2, "single": 1}[kind]


_INTERNED: dict[tuple[str, int, bool, bool, bool], Group] = {}


def make_group(kind: str, first: int, concealed: bool, declared: bool = False, has_win: bool = False) -> Group:
    """The shared, immutable group for these properties.

    Groups are never modified once built, so one object per distinct key serves every
    arrangement of every hand: building an arrangement costs dictionary look-ups only.
    The table is bounded by construction (6 kinds x 34 first tiles x 8 flag combinations).
    """
    key = (kind, first, concealed, declared, has_win)
    g = _INTERNED.get(key)
    if g is None:
        g = _INTERNED[key] = Group(kind, first, group_tiles(kind, first), concealed, declared, has_win)
    return g
