"""What pattern conditions see: one arrangement of a hand and the win context.

``PATTERN_FACTS`` is the vocabulary (name, type, description, what is kept for it)
checked at compile time; :class:`HandContext` provides the same names at run time as
plain attributes.
The names of the arrangement (shape, groups, sets, chows, pungs, kongs, pairs, pair,
knitted, win_group, wait) change from one arrangement to the next; every other name is a
fact of the hand, computed once per hand (:meth:`HandContext.for_hand`) and shared by the
contexts of all its arrangements (:meth:`HandContext.arranged`, or :meth:`arrange` to
reuse one object arrangement after arrangement). The expensive facts
(the tiles the hand waited on) are computed only when a condition asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from ..language.types import BOOL, GROUP, INT, STR, TILE, list_of, set_of
from ..language.vocabulary import Fact
from ..model.groups import TILES, Group, Tile
from ..model.hand import Hand, Meld, tile_copies
from ..shapes.arrangements import Arrangement
from ..shapes.base import Shape
from ..shapes.suits import SUIT_OF, UNIT_OF, kinds_in
from ..shapes.waits import held_wait_mask

#: What pattern conditions may name, with what the context keeps for each: the waits are
#: computed on demand (lazy); the kinds held by the lists of tiles are kept as bit masks,
#: and the copies per kind of every tile, of the concealed tiles and of the declared sets
#: as bytes (see :func:`hand_facts`). A list's ``most`` is the most elements it holds in a
#: hand of up to 18 tiles (six sets, nine pairs, six kongs): the checker's bound on an
#: expression's work assumes no more.
PATTERN_FACTS: dict[str, Fact] = {f.name: f for f in [
    Fact("shape", STR, "the id of the winning shape (from scoring.shapes)"),
    Fact("groups", list_of(GROUP), "every group of the arrangement: sets, pairs, knitted runs, single tiles", most=18),
    Fact("sets", list_of(GROUP), "the chows, pungs and kongs (declared ones included), sorted by their first tile",
         most=6),
    Fact("chows", list_of(GROUP), "the chows, sorted by their first tile", most=6),
    Fact("pungs", list_of(GROUP), "the pungs and kongs, sorted by their tile", most=6),
    Fact("kongs", list_of(GROUP), "the kongs", most=6),
    Fact("pairs", list_of(GROUP), "the pairs (seven for seven pairs)", most=9),
    Fact("pair", GROUP, "the pair of a hand with exactly one pair; otherwise an empty group"),
    Fact("knitted", list_of(GROUP), "the knitted runs (147m, 258p, 369s ...), in any shape that holds all three",
         most=3),
    Fact("declared", list_of(GROUP), "the sets declared during play, concealed kongs included",
         counts="_declared_counts", most=6),
    Fact("tiles", list_of(TILE), "every tile of the hand, winning tile and declared sets included (a kong is 4)",
         mask="_tiles_mask", counts="_tiles_counts", most=24),
    Fact("hand_suits", set_of(STR), "the suits (m, p, s) the hand's tiles use: len(hand_suits) == 1 for one suit",
         most=3),
    Fact("concealed_tiles", list_of(TILE), "the tiles not in declared sets, winning tile included",
         mask="_concealed_mask", counts="_concealed_counts", most=18),
    Fact("win", TILE, "the winning tile"),
    Fact("win_group", GROUP, "the group the winning tile completes in this arrangement"),
    Fact("wait", STR, "how the winning tile completed its group: edge, closed, side, single, pung or none",
         values=frozenset({"edge", "closed", "side", "single", "pung", "none"})),
    Fact("waits", list_of(TILE), "every tile that would have completed the hand (copies not counted)", lazy=True,
         most=34),
    Fact("unique_wait", BOOL, "the hand waited on exactly one tile (any shape; copies not counted)", lazy=True),
    Fact("self_drawn", BOOL, "the winning tile was drawn"),
    Fact("kong_replacement", BOOL, "won on the replacement tile after a kong"),
    Fact("robbing_kong", BOOL, "won on a tile added to another player's pung"),
    Fact("last_wall_tile", BOOL, "won with the last tile of the wall (drawn, or the discard after the last draw)"),
    Fact("last_tile_of_kind", BOOL, "the other three copies of the winning tile were visible"),
    Fact("seat_wind", TILE, "the winner's seat wind (1z-4z)"),
    Fact("round_wind", TILE, "the round wind (1z-4z)"),
    Fact("seat", INT, "the winner's seat number: East 1, South 2, West 3, North 4"),
    Fact("flowers", list_of(TILE), "the winner's flowers and seasons", most=8),
    Fact("missing_suit", STR, "the declared missing suit (m, p, s), or \"\"", values=frozenset({"m", "p", "s", ""})),
    # Events of the deal (a played deal gives them; a scoring request's ``deal`` object)
    Fact("first_turn", BOOL, "the winner had not discarded yet and no one has claimed or declared a kong in the "
                             "deal (the dealer winning on the dealt tiles, a player winning on its first draw or on "
                             "a discard before its own first one)", lazy=True),
    Fact("first_go_around", BOOL, "the win comes in the deal's first go-around: no claim or kong yet and fewer "
                                  "discards before the winning tile than there are players", lazy=True),
    Fact("dealer_first_discard", BOOL, "the winning tile is the dealer's first discard, before any claim or kong",
         lazy=True),
    Fact("flower_replacement", BOOL, "the winning tile was drawn to replace a flower or season the winner "
                                     "had just drawn (or was dealt)", lazy=True),
    Fact("dealer", BOOL, "the winner is the dealer", lazy=True),
    Fact("tiles_left", INT, "the tiles left in the wall when the winning tile was taken", lazy=True,
         span=(0, None)),
    Fact("dealer_repeats", INT, "how many deals in a row the dealer has kept the deal (0 in its first)",
         lazy=True, span=(0, None)),
]}


class _NoGroup:
    """The ``pair`` of a hand without exactly one pair: every property false or empty."""

    kind = ""
    chow = pung = kong = pair = knitted = single = False
    suited = honor = wind = dragon = terminal = simple = outside = False
    concealed = declared = has_win = False
    suit = ""
    rank = 0
    size = 0
    tiles: ClassVar[list[Any]] = []  # shared and never changed, as a set's tiles
    tile = None
    middle = None

    def __repr__(self) -> str:
        return "-"


NO_GROUP = _NoGroup()


#: hand_suits for each combination of the three suit bits (m 1, p 2, s 4).
_SUIT_SETS = tuple(frozenset(s for s, bit in (("m", 1), ("p", 2), ("s", 4)) if n & bit) for n in range(8))
_NUM_TILES = len(TILES)
_NO_COUNTS = bytes(_NUM_TILES + 1)
_TILE_OF = TILES.__getitem__
#: Kind k's 8 bits in a number of copies (compiler/model/hand.py ``BYTE_OF``): its four 72-bit
#: slices are the suit keys of compiler/shapes/suits.py (9 ranks x 8 bits; the honors' 7 x 8).
_KEY_BITS = (1 << 72) - 1
#: A byte per kind (copies, as ``to_bytes`` gives them) -> b"1" where held, b"0" where not:
#: read backwards in base 2, the kinds held as a mask.
_HELD = bytes([0x30] + [0x31] * 255)


class _Lazy:
    """A fact computed on first read, then kept on the instance (a non-data descriptor:
    the instance's value shadows it), so generated code reads it as a plain attribute
    whichever fact it reads first. For the facts few conditions read."""

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class HandContext:
    """One arrangement of one hand, as pattern expressions read it.

    It is also what the shape matchers of compiler/shapes/ read (the names of
    ``Prepared``: ``_concealed_counts``, ``_concealed_mask``, ``_keys``, ``_size``,
    ``declared``), so those are computed once per hand for both; it holds the Hand fields
    they read as well (``concealed``, ``melds``, ``win_tile``, ``self_drawn``), so it
    stands for the hand there. A context made by :func:`hand_facts` from a request's
    fields has no Hand until :attr:`hand` is read.

    The facts are slots: no instance dictionary to grow past its shared-keys size as
    the arrangement names are set (``__dict__`` stays, for the facts made on demand)."""

    __slots__ = ("_hand", "_shapes", "_wait_mask", "_facts", "_concealed_counts", "_keys", "_size", "declared",
                 "_tiles_counts", "_tiles_key", "_declared_counts", "_tiles_mask", "_concealed_mask", "hand_suits",
                 "win", "self_drawn", "kong_replacement", "robbing_kong", "last_wall_tile", "last_tile_of_kind",
                 "seat_wind", "round_wind", "seat", "flowers", "missing_suit",
                 "concealed", "melds", "win_tile", "_flower_kinds", "_copies",
                 "shape", "groups", "sets", "chows", "pungs", "kongs", "pairs", "pair", "knitted", "win_group",
                 "wait", "_arr", "__dict__")

    # The facts of the hand (hand_facts sets them)...
    _hand: Hand | None
    _shapes: tuple[Shape, ...]
    _wait_mask: int  # -1 until worked out
    _facts: HandContext | None  # the context keeping the hand's waits, when not this one
    _concealed_counts: bytes
    _keys: list[int]
    _size: int
    declared: list[Group]
    _tiles_counts: bytes
    _tiles_key: int
    _declared_counts: bytes
    _tiles_mask: int
    _concealed_mask: int
    hand_suits: frozenset[str]
    win: Tile
    self_drawn: bool
    kong_replacement: bool
    robbing_kong: bool
    last_wall_tile: bool
    last_tile_of_kind: bool
    seat_wind: Tile
    round_wind: Tile
    seat: int
    flowers: list[Tile]
    missing_suit: str
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: int
    _flower_kinds: tuple[int, ...]
    _copies: tuple[int, int, int] | None
    _waits: list[Tile]  # in __dict__, made on demand
    # ...and of the arrangement (_arrange sets them).
    shape: str
    groups: list[Group]
    sets: list[Group]
    chows: list[Group]
    pungs: list[Group]
    kongs: list[Group]
    pairs: list[Group]
    pair: Group | _NoGroup
    knitted: list[Group]
    win_group: Group | _NoGroup
    wait: str
    _arr: Arrangement

    def __init__(self, hand: Hand, arr: Arrangement | None, shapes: Sequence[Shape],
                 declared: list[Any] | None = None) -> None:
        # The copies of each kind, 8 bits per kind: worked out while the request was read,
        # or now for a Hand built another way.
        copies = hand._copies
        hand_facts(hand.concealed, hand.melds, hand.win_tile, hand.flowers, hand.self_drawn, hand.seat_wind,
                   hand.round_wind, hand.last_tile_of_kind, hand.kong_replacement, hand.robbing_kong,
                   hand.last_wall_tile, hand.missing_suit, copies or tile_copies(hand), copies is not None,
                   declared, self)
        self._hand = hand
        self._shapes = shapes if type(shapes) is tuple else tuple(shapes)
        if arr is not None:
            self._arrange(arr)

    @property
    def hand(self) -> Hand:
        """The Hand these facts are of (made from them if they were built without one)."""
        hand = self._hand
        if hand is None:
            hand = self._hand = Hand(self.concealed, self.melds, self.win_tile, self._flower_kinds, self.self_drawn,
                                     self.seat_wind.kind, self.round_wind.kind, self.last_tile_of_kind,
                                     self.kong_replacement, self.robbing_kong, self.last_wall_tile,
                                     self.missing_suit or None)
        return hand

    @_Lazy
    def concealed_tiles(self) -> list[Any]:
        """The concealed tiles, winning tile last: few conditions read the list itself
        (the others read ``_concealed_mask`` / ``_concealed_counts``)."""
        tiles = list(map(_TILE_OF, self.concealed))
        tiles.append(TILES[self.win_tile])
        return tiles

    @_Lazy
    def tiles(self) -> list[Any]:
        """Every tile, concealed ones first, then each declared set's (a kong is 4)."""
        tiles = list(self.concealed_tiles)
        for m in self.melds:
            tiles.extend(map(_TILE_OF, m.tiles))
        return tiles

    @classmethod
    def for_hand(cls, hand: Hand, shapes: Sequence[Shape], declared: list[Any] | None = None) -> HandContext:
        """The hand's facts only (no arrangement): what hand-level conditions read."""
        return cls(hand, None, shapes, declared)

    def arranged(self, arr: Arrangement) -> HandContext:
        """A context for ``arr`` sharing this hand's facts (and its lazily computed waits)."""
        ctx = object.__new__(HandContext)
        for name in HandContext.__slots__[:-1]:
            if hasattr(self, name):
                setattr(ctx, name, getattr(self, name))
        ctx.__dict__.update(self.__dict__)
        ctx._facts = self
        ctx._arrange(arr)
        return ctx

    def arrange(self, arr: Arrangement) -> HandContext:
        """This context, now reading ``arr`` (the hand's facts stay): the scorer evaluates
        one arrangement after the other, so one object serves them all."""
        self._arrange(arr)
        return self

    def _arrange(self, arr: Arrangement) -> None:
        self.shape = arr.shape
        self.groups = arr.groups
        self.sets = arr.sets
        self.chows = arr.chows
        self.pungs = arr.pungs
        self.kongs = arr.kongs
        self.pairs = pairs = arr.pairs
        self.pair = pairs[0] if len(pairs) == 1 else NO_GROUP
        self.knitted = arr.knitted
        self.win_group = arr.win_group if arr.win_group is not None else NO_GROUP
        self.wait = arr.wait
        self._arr = arr

    def _held_wait_mask(self) -> int:
        """The kinds the hand waited on (bit k for kind k), worked out once per hand."""
        root = self._facts or self
        got = root._wait_mask
        if got < 0:
            win = root.win_tile
            cmask = root._concealed_mask
            keys = root._keys
            suit = SUIT_OF[win]
            held_keys = [keys[0], keys[1], keys[2], keys[3]]
            held_keys[suit] -= UNIT_OF[win]
            got = root._wait_mask = held_wait_mask(
                root._concealed_counts, cmask if root._concealed_counts[win] > 1 else cmask & ~(1 << win),
                len(root.melds), root._shapes, held_keys, root._size - 1, win)
        return got

    @property
    def waits(self) -> list[Any]:
        root = self._facts or self
        got = root.__dict__.get("_waits")
        if got is None:
            got = root._waits = list(map(_TILE_OF, kinds_in(self._held_wait_mask())))
        return got

    def _deal_event(self, name: str) -> Any:
        events = (self._facts or self).hand.extra.get("deal")
        return events.get(name, 0) if events else 0

    @property
    def first_turn(self) -> bool:
        return bool(self._deal_event("first_turn"))

    @property
    def first_go_around(self) -> bool:
        return bool(self._deal_event("first_go_around"))

    @property
    def dealer_first_discard(self) -> bool:
        return bool(self._deal_event("dealer_first_discard"))

    @property
    def flower_replacement(self) -> bool:
        return bool(self._deal_event("flower_replacement"))

    @property
    def dealer(self) -> bool:
        return bool(self._deal_event("dealer"))

    @property
    def tiles_left(self) -> int:
        return int(self._deal_event("tiles_left"))

    @property
    def dealer_repeats(self) -> int:
        return int(self._deal_event("dealer_repeats"))

    @property
    def unique_wait(self) -> bool:
        got = self._held_wait_mask()
        return got != 0 and not got & (got - 1)


_new_context = object.__new__


def hand_facts(concealed: tuple[int, ...], melds: tuple[Any, ...], win: int, flowers: tuple[int, ...],
               self_drawn: bool, seat_wind: int, round_wind: int, last_tile_of_kind: bool, kong_replacement: bool,
               robbing_kong: bool, last_wall_tile: bool, missing_suit: str | None, copies: tuple[int, int, int],
               checked: bool = True, declared: list[Any] | None = None,
               ctx: HandContext | None = None) -> HandContext:
    """The hand-level facts of a context, from a Hand's fields (``copies``: as
    :func:`~compiler.model.hand.tile_copies` gives them; ``checked``: the fields are known to be
    a valid request's, as :func:`~compiler.model.hand.checked_hand` leaves them), set on ``ctx``
    or on a new context without a Hand (:attr:`HandContext.hand` makes one on demand;
    :meth:`~compiler.scoring.scorer.Scorer.evaluate_facts` gives it its shapes).

    The context also holds the Hand fields the shape matchers read (``concealed``,
    ``melds``, ``win_tile``, ``self_drawn``), so it stands for the hand there."""
    if ctx is None:
        ctx = _new_context(HandContext)
        ctx._hand = None
        ctx._shapes = ()  # the scorer evaluating the facts gives them its shapes
    ctx._wait_mask = -1  # not worked out yet
    ctx._facts = None  # or the context holding the hand's waits (see arranged)
    ctx._copies = copies if checked else None
    ctx.concealed = concealed
    ctx.melds = melds
    ctx.win_tile = win
    ckey, dkey, dkinds = copies
    held = ckey.to_bytes(_NUM_TILES + 1, "little")
    ctx._concealed_counts = held  # bytes: the shape matchers and waits only index and search it
    ctx._concealed_mask = cmask = int(held.translate(_HELD)[::-1], 2)
    ctx._keys = [ckey & _KEY_BITS, ckey >> 72 & _KEY_BITS, ckey >> 144 & _KEY_BITS, ckey >> 216 & _KEY_BITS]
    ctx._size = len(concealed) + 1
    if melds:
        if declared is None:
            declared = []
            for m in melds:
                declared.append(m.group)
        ctx.declared = declared
        key = ckey + dkey
        ctx._tiles_counts = key.to_bytes(_NUM_TILES + 1, "little")
        ctx._declared_counts = dkey.to_bytes(_NUM_TILES + 1, "little")
        mask = cmask | dkinds
    else:
        ctx.declared = []
        key = ckey
        ctx._tiles_counts = held
        ctx._declared_counts = _NO_COUNTS
        mask = cmask
    ctx._tiles_key = key  # the copies of every kind, 8 bits each (as _tiles_counts)
    ctx._tiles_mask = mask
    ctx.hand_suits = _SUIT_SETS[(1 if mask & 0x1FF else 0) | (2 if mask & 0x3FE00 else 0)
                                | (4 if mask & 0x7FC0000 else 0)]
    ctx.win = TILES[win]
    ctx.self_drawn = self_drawn
    ctx.kong_replacement = kong_replacement
    ctx.robbing_kong = robbing_kong
    ctx.last_wall_tile = last_wall_tile
    ctx.last_tile_of_kind = last_tile_of_kind
    ctx.seat_wind = TILES[seat_wind]
    ctx.round_wind = TILES[round_wind]
    ctx.seat = seat_wind - 26
    ctx._flower_kinds = flowers
    ctx.flowers = list(map(_TILE_OF, flowers)) if flowers else []
    ctx.missing_suit = missing_suit or ""
    return ctx
