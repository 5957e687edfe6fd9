"""Hand analysis: every arrangement of a winning hand into the shapes a variant declares.

Pipeline: the concealed tiles (winning tile included) are split one suit at a time;
each suit's decompositions are computed once per 9-count vector and kept in a bounded
cache, then combined across suits. The winning tile is then placed in each group that
can hold it, which fixes the wait. Special shapes (pairs, unique-plus-pair, knitted
shapes) are generic engine notions configured by the variant file.

Conventions pattern conditions rely on:

* ``sets`` are sorted by their first tile (characters, dots, bamboo, then honors; rank
  ascending), so combinations of sets come in that order;
* a complete knitted run (147m, 258p, 369s ...) is a ``knitted`` group in every shape
  that holds one, the honors-and-knitted shape included;
* divisions into sets come in increasing order of their sets (by first tile, a pung
  before a chow at the same tile), and in each the placements of the winning tile are
  tried chow first (edge, closed, side), then pair, then pung: the scorer keeps the
  first of equally scored arrangements, so this order is its documented tie-break.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product
from operator import attrgetter
from typing import Any, Iterable, Iterator, Sequence

from ..model.groups import Group, make_group
from ..model.hand import Hand
from ..records import FrozenRecord

#: Engine shape kinds, configured by ``scoring.shapes`` in a variant file.
SHAPE_KINDS = ("sets_and_pair", "pairs", "unique_plus_pair", "knitted_and_honors", "knitted_sets_and_pair")

#: The six knitted straights: suit index order for ranks (1,4,7), (2,5,8), (3,6,9).
KNITTED_PERMS: tuple[tuple[int, int, int], ...] = tuple(permutations(range(3)))


def knitted_kinds(perm: tuple[int, int, int]) -> tuple[int, ...]:
    """The nine tile kinds of the knitted straight whose suit for offset o is perm[o]."""
    return tuple(perm[o] * 9 + o + 3 * j for o in range(3) for j in range(3))


KNITTED_KINDS: tuple[tuple[int, ...], ...] = tuple(knitted_kinds(p) for p in KNITTED_PERMS)
KNITTED_SETS: tuple[frozenset[int], ...] = tuple(frozenset(k) for k in KNITTED_KINDS)
KNITTED_MASKS: tuple[int, ...] = tuple(sum(1 << k for k in kinds) for kinds in KNITTED_KINDS)

_SUITED_MASK = (1 << 27) - 1  # the 27 suited kinds

#: Bound on each per-suit cache (entries); a cache entry is a few small tuples.
CACHE_SIZE = 1 << 15


class ShapeSpec(FrozenRecord):
    id: str
    kind: str
    sets: int
    quads_as_two_pairs: bool
    tiles: tuple[int, ...]
    max_melds: int
    concealed_only: bool

    def __init__(self, id: str, kind: str, sets: int = 4, quads_as_two_pairs: bool = False,
                 tiles: tuple[int, ...] = (), max_melds: int = 0, concealed_only: bool = True) -> None:
        vars(self).update(id=id, kind=kind, sets=sets, quads_as_two_pairs=quads_as_two_pairs, tiles=tiles,
                          max_melds=max_melds, concealed_only=concealed_only)


_BY_ORDER = attrgetter("order")


class Arrangement:
    """One way to read a winning hand: its groups, the group of the winning tile, the wait.

    The lists pattern conditions read (sets, chows, pungs, kongs, pairs, knitted runs)
    are built once here; ``sets`` are sorted by their first tile. ``bits(name)`` gives the
    cover bit of each element of one of those lists, which is what a combination
    pattern's instance records: each group of the arrangement has its own bit, by its
    place in ``sets``, then ``pairs``, then ``knitted``, then the other groups (equal
    groups in turn); it is worked out when a pattern first needs it.
    """

    __slots__ = ("shape", "shape_kind", "groups", "win_group", "wait", "sets", "pairs", "chows", "pungs",
                 "kongs", "knitted", "_bits")

    def __init__(self, shape: str, shape_kind: str, groups: list[Group], win_group: Group | None, wait: str,
                 sets: list[Group] | None = None, pairs: list[Group] | None = None) -> None:
        # ``sets`` and ``pairs`` are accepted for compatibility; both are derived from ``groups``.
        _fill(self, shape, shape_kind, groups, win_group, wait)

    def describe(self) -> str:
        return " ".join(map(repr, self.groups))

    def canonical(self) -> list[Group]:
        """Every group once, in the order of their cover bits."""
        others = [g for g in self.groups if g.order < 0 and not g.pair and not g.knitted]
        return [*self.sets, *self.pairs, *self.knitted, *others]

    def bits(self, name: str) -> list[int]:
        """The cover bit of each element of the list ``name`` (sets, chows, pungs, kongs,
        pairs, knitted or groups)."""
        cache = self._bits
        if cache is None:
            cache = self._bits = {}
        got = cache.get(name)
        if got is None:
            got = cache[name] = self._work_out(name)
        return got

    def _work_out(self, name: str) -> list[int]:
        sets = self.sets
        if name == "sets":
            return list(_POW2[:len(sets)])
        if name in ("chows", "pungs", "kongs"):
            out = []
            j = 0
            for g in getattr(self, name):  # a subsequence of sets
                while sets[j] is not g:
                    j += 1
                out.append(_POW2[j])
                j += 1
            return out
        if name == "pairs":
            return list(_POW2[len(sets):len(sets) + len(self.pairs)])
        if name == "knitted":
            start = len(sets) + len(self.pairs)
            return list(_POW2[start:start + len(self.knitted)])
        return [1 << q if q >= 0 else 0 for q in group_positions(self.canonical(), getattr(self, name))]


_POW2 = tuple(1 << j for j in range(64))


def group_positions(groups: Sequence[Any], domain: Sequence[Any]) -> list[int]:
    """Where each element of ``domain`` stands in ``groups`` (equal groups: in turn); -1 if absent."""
    taken = 0
    out = []
    for d in domain:
        for j, g in enumerate(groups):
            if g is d and not (taken >> j) & 1:
                taken |= 1 << j
                out.append(j)
                break
        else:
            out.append(-1)
    return out


def _fill(arr: Arrangement, shape: str, shape_kind: str, groups: list[Group], win_group: Group | None,
          wait: str) -> Arrangement:
    sets = []
    pairs = []
    knitted = []
    for g in groups:
        if g.order >= 0:
            sets.append(g)
        elif g.pair:
            pairs.append(g)
        elif g.knitted:
            knitted.append(g)
    return _with_sets(arr, shape, shape_kind, groups, win_group, wait, sets, pairs,
                      knitted if knitted and shape_kind.startswith("knitted") else [])


def _with_sets(arr: Arrangement, shape: str, shape_kind: str, groups: list[Group], win_group: Group | None,
               wait: str, sets: list[Group], pairs: list[Group], knitted: list[Group]) -> Arrangement:
    """:func:`_fill` for groups already told apart: ``sets`` (in the order of ``groups``),
    ``pairs`` and ``knitted`` runs (what the sets-and-pair matcher knows as it builds them)."""
    arr.shape = shape
    arr.shape_kind = shape_kind
    arr.groups = groups
    arr.win_group = win_group
    arr.wait = wait
    arr._bits = None
    if len(sets) > 1:
        sets.sort(key=_BY_ORDER)  # stable: equal groups keep their order in ``groups``
    chows = []
    pungs = []
    kongs = []
    for g in sets:  # one pass, not three comprehensions: a set is a chow or a pung (kongs too)
        if g.chow:
            chows.append(g)
        else:
            pungs.append(g)
            if g.kong:
                kongs.append(g)
    arr.sets = sets
    arr.chows = chows
    arr.pungs = pungs
    arr.kongs = kongs
    arr.pairs = pairs
    arr.knitted = knitted
    return arr


def _new(shape: str, shape_kind: str, groups: list[Group], win_group: Group | None, wait: str) -> Arrangement:
    return _fill(Arrangement.__new__(Arrangement), shape, shape_kind, groups, win_group, wait)


# ------------------------------------------------------- per-suit decomposition

Raw = tuple[tuple[str, int], ...]


@lru_cache(maxsize=CACHE_SIZE)
def _decompose(counts: tuple[int, ...], honors: bool, pair_left: int) -> tuple[Raw, ...]:
    """All ways to split one suit's counts into pungs, chows and at most ``pair_left`` pairs.

    Groups are (kind, index within the suit); each result is sorted, results are distinct.
    """
    i = 0
    while i < len(counts) and not counts[i]:
        i += 1
    if i == len(counts):
        return ((),)
    out: set[Raw] = set()
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        for rest in _decompose(tuple(c), honors, pair_left):
            out.add(tuple(sorted((("pung", i),) + rest)))
        c[i] += 3
    if c[i] >= 2 and pair_left:
        c[i] -= 2
        for rest in _decompose(tuple(c), honors, pair_left - 1):
            out.add(tuple(sorted((("pair", i),) + rest)))
        c[i] += 2
    if not honors and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _decompose(tuple(c), honors, pair_left):
            out.add(tuple(sorted((("chow", i),) + rest)))
    return tuple(sorted(out))


@lru_cache(maxsize=CACHE_SIZE)
def _forms(counts: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int]]:
    """(number of sets, number of pairs) that one suit's counts can split into exactly,
    with at most one pair. Recursive on the first tile, sharing the cache for the rest."""
    i = 0
    while i < len(counts) and not counts[i]:
        i += 1
    if i == len(counts):
        return _EMPTY_FORMS
    out: set[tuple[int, int]] = set()
    c = list(counts)
    n = c[i]
    if n >= 3:
        c[i] = n - 3
        out.update((s + 1, p) for s, p in _forms(tuple(c), honors))
    if n >= 2:
        c[i] = n - 2
        out.update((s, 1) for s, p in _forms(tuple(c), honors) if not p)
    c[i] = n
    if not honors and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out.update((s + 1, p) for s, p in _forms(tuple(c), honors))
    return frozenset(out)


_EMPTY_FORMS: frozenset[tuple[int, int]] = frozenset({(0, 0)})


def _form_mask(forms: Iterable[tuple[int, int]]) -> int:
    """(sets, pairs) forms as a bit mask: bit ``2 * sets + pairs``."""
    mask = 0
    for s, p in forms:
        mask |= 1 << (2 * s + p)
    return mask


_CONV: dict[int, int] = {}


def _combine(a: int, b: int) -> int:
    """The forms of two disjoint parts together (at most one pair), as a form mask."""
    key = a << 32 | b
    got = _CONV.get(key)
    if got is None:
        got = 0
        i = 0
        x = a
        while x:
            if x & 1:
                y = b
                j = 0
                while y:
                    if y & 1 and (i & 1) + (j & 1) <= 1:
                        got |= 1 << (i + j)
                    y >>= 1
                    j += 1
            x >>= 1
            i += 1
        if len(_CONV) >= CACHE_SIZE:
            _CONV.clear()
        _CONV[key] = got
    return got


#: The four suits: (first kind, number of kinds, honors).
_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
#: For each tile kind: its suit (0-3) and the amount it adds to its suit's key (8 bits per rank).
SUIT_OF: tuple[int, ...] = tuple(min(k // 9, 3) for k in range(34))
UNIT_OF: tuple[int, ...] = tuple(1 << 8 * (k % 9 if k < 27 else k - 27) for k in range(34))


class SuitTable:
    """What one suit's tile counts can become, computed once per distinct count vector.

    ``plain`` and ``paired`` are the splits into sets (and one pair, for ``paired``) as
    tuples of shared groups, in the order of :func:`_decompose`; ``forms`` the (sets,
    pairs) forms as a mask (see :func:`_forms_of`, which the waits use without splitting);
    ``one`` the only split and the index of its pair (-1: none), or None; ``placed`` the
    places of winning tiles in that split, filled on demand (at most 18 entries).
    """

    __slots__ = ("suit", "key", "plain", "paired", "splits", "pairs", "forms", "one", "placed")

    def __init__(self, suit: int, key: int) -> None:
        base, end, honors = _SUITS[suit]
        self.suit = suit
        self.key = key
        self.forms = forms = _forms_of(int(honors), key)
        splits: tuple[tuple[Group, ...], ...] = ()
        if forms:  # else no split: the forms come from a table, the splits from a search
            groups = _SUIT_GROUPS[suit] or _suit_groups(suit)
            splits = tuple(tuple(map(groups.__getitem__, d))
                           for d in _decompose(tuple(key.to_bytes(end - base, "little")), honors, 1))
        # The tile count fixes whether a split holds the pair: every split of a suit does, or none.
        pair = forms.bit_length() % 2 == 0  # the forms' one bit is 2 * sets + pairs
        self.plain: tuple[tuple[Group, ...], ...] = () if pair else splits
        self.paired: tuple[tuple[Group, ...], ...] = splits if pair else ()
        self.splits: tuple[tuple[Group, ...], ...] = splits  # every split, in _decompose order
        self.pairs: tuple[int, ...] = (int(pair),) * len(splits)  # the number of pairs of each split
        # The only split, with where its pair is (-1: none), or None when there are several or none.
        self.one: tuple[tuple[Group, ...], int] | None = None
        # The places of a winning tile in the only split, by 2 * tile + self-drawn (_places).
        self.placed: dict[int, tuple[tuple[int, int, str, Group], ...]] = {}
        if len(splits) == 1:
            self.one = (splits[0], next((j for j, g in enumerate(splits[0]) if g.pair), -1))


#: For each suit, its concealed groups by the (kind, index within the suit) of :func:`_decompose`.
_SUIT_GROUPS: list[dict[tuple[str, int], Group]] = [{}, {}, {}, {}]


def _suit_groups(suit: int) -> dict[tuple[str, int], Group]:
    base, end, honors = _SUITS[suit]
    kinds = ("pung", "pair") if honors else ("pung", "pair", "chow")
    got = _SUIT_GROUPS[suit] = {(kind, i): make_group(kind, base + i, True)
                                for kind in kinds for i in range(end - base - (2 if kind == "chow" else 0))}
    return got


def _forms_of(honors: int, key: int) -> int:
    """The forms mask of one suit's counts (``key``: 8 bits per rank; ``honors``: 1 for the
    honor suit, whose kinds make no chows). Suited suits share one bounded table."""
    cache = _FORMS[honors]
    got = cache.get(key)
    if got is None:
        got = _honor_forms(key) if honors else _suited_forms(key)
        if len(cache) >= CACHE_SIZE:
            cache.clear()
        cache[key] = got
    return got


def _one_form(tiles: int, pairs: int) -> int:
    """The forms mask of a split of ``tiles`` tiles holding ``pairs`` (0 or 1) pairs: the
    tile count fixes the number of sets, so a suit that splits has exactly one form."""
    return 1 << (2 * ((tiles - 2 * pairs) // 3) + pairs)


def _honor_forms(key: int) -> int:
    """The forms of honor counts, worked out directly: with no chows, each kind's count is
    pungs and at most one pair (never 1 mod 3), and the suit holds at most one pair."""
    tiles = pairs = 0
    for c in key.to_bytes(7, "little"):
        r = c % 3
        if r == 1:
            return 0
        pairs += r >> 1
        tiles += c
    return _one_form(tiles, pairs) if pairs <= 1 else 0


_ONES = 0x010101010101010101  # one in each rank of a suited key
_ABOVE_7 = 0xF8 * _ONES  # a rank's count above 7
_ABOVE_4 = 0x08 * _ONES  # with 3 added to every rank: a count above 4
_MOST_TILES = 14  # in a suit of the table: four sets and a pair


def _suited_forms(key: int) -> int:
    """The forms of suited counts: a look-up in the precomputed table of every splitting
    suit (:func:`splitting_suits`) when it covers them, else a search."""
    table = _SPLITTING if _SPLITTING is not None else splitting_suits()
    if not table or key & _ABOVE_7 or (key + 3 * _ONES) & _ABOVE_4 or key % 255 > _MOST_TILES:
        return _form_mask(_forms(tuple(key.to_bytes(9, "little")), False))
    i = _base5(key)
    if not table[i >> 3] >> (i & 7) & 1:
        return 0
    tiles = key % 255  # the sum of the counts (256 is 1 mod 255: with counts below 8, exact)
    return _one_form(tiles, int(tiles % 3 == 2))


def _base5(key: int) -> int:
    """The nine counts of a suited key (each at most 4) as one base-5 number, rank 1 lowest:
    the counts written as digits, rank 9 first, read by int() in base 5."""
    return int(key.to_bytes(9, "big").translate(_DIGITS), 5)


_DIGITS = bytes(48 + c if c < 10 else 0 for c in range(256))  # a count (below 10) -> its ASCII digit
_NONZERO = bytes(48 if c == 0 else 49 for c in range(256))  # a count -> ASCII "0" (none) or "1"


_SPLITTING: bytes | None = None  # None until first needed; b"": no table (no cache folder)


def splitting_suits() -> bytes:
    """Which suited count vectors (each count at most 4, at most 14 tiles: four sets and
    a pair) split into sets and at most one pair, as a bit set: bit ``i`` (of byte
    ``i >> 3``) for the counts whose base-5 number (:func:`_base5`) is ``i``; 5 ** 9 bits,
    21,743 of them set. Built once (some 30 ms) and kept in the compile cache's folder,
    where a process reads it (a fraction of a millisecond) the first time a suit is not
    yet in its tables. Without a cache folder there is no table (``b""``): building it in
    every process would cost more than the searches it saves."""
    global _SPLITTING
    if _SPLITTING is None:
        from ..loading import cache

        _SPLITTING = b"" if cache.cache_dir() is None else cache.table(
            f"splitting-suits-{cache.compiler_version()[:24]}", _splitting_bits,
            lambda data: len(data) == _SPLITTING_SIZE)
    return _SPLITTING


_SPLITTING_SIZE = (5 ** 9 + 7) // 8
_POW5 = tuple(5 ** j for j in range(9))


def _splitting_bits() -> bytes:
    """:func:`splitting_suits` computed: every sum of at most four sets (pungs and chows),
    then each with a pair added, no count above 4."""
    sets = [3 << 8 * i for i in range(9)] + [0x010101 << 8 * i for i in range(7)]
    level = {0}
    plain = {0}
    for _ in range(_MOST_TILES // 3):  # the sums of one set more than the last level's
        level = {k for k in (key + s for key in level for s in sets) if not (k + 3 * _ONES) & _ABOVE_4}
        plain |= level
    bits = bytearray(_SPLITTING_SIZE)
    for key in plain:
        for k in (key, *(key + (2 << 8 * i) for i in range(9))):
            if not (k + 3 * _ONES) & _ABOVE_4:
                i = _base5(k)
                bits[i >> 3] |= 1 << (i & 7)
    return bytes(bits)


def _wait_ranks(honors: int, key: int) -> int:
    """For one suit's counts: the mask of the rank indexes whose addition lets the suit
    split (tried only near a held rank; an honor only on a held one)."""
    size = 7 if honors else 9
    present = int(key.to_bytes(size, "big").translate(_NONZERO), 2)  # bit i: rank index i held
    cands = present if honors else (present | present << 1 | present << 2 | present >> 1 | present >> 2) & 0x1FF
    ranks = 0
    j = 0
    table = b"" if honors else _SPLITTING if _SPLITTING is not None else splitting_suits()
    if table and not (key & _ABOVE_7 or (key + 3 * _ONES) & _ABOVE_4 or key % 255 >= _MOST_TILES):
        # Straight from the table of splitting suits (one rank more stays in it), but for
        # a rank held four times, whose fifth tile the table does not cover.
        index = _base5(key)
        while cands:
            low = cands & -cands
            cands ^= low
            j = low.bit_length() - 1
            if key >> 8 * j & 0xFF == 4:
                if _forms_of(0, key + (1 << 8 * j)):
                    ranks |= low
            else:
                i = index + _POW5[j]
                if table[i >> 3] >> (i & 7) & 1:
                    ranks |= low
        return ranks
    while cands:
        if cands & 1 and _forms_of(honors, key + (1 << 8 * j)):
            ranks |= 1 << j
        cands >>= 1
        j += 1
    return ranks


_FORMS: tuple[dict[int, int], dict[int, int]] = ({}, {})
_HONORS = (0, 0, 0, 1)  # suit index -> 1 for the honor suit
_TABLES: tuple[dict[int, SuitTable], ...] = ({}, {}, {}, {})


def suit_table(suit: int, key: int) -> SuitTable:
    """The (bounded, cached) table of one suit's counts, ``key`` holding 8 bits per rank."""
    cache = _TABLES[suit]
    got = cache.get(key)
    if got is None:
        if len(cache) >= CACHE_SIZE:
            cache.clear()
        got = cache[key] = SuitTable(suit, key)
    return got


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The four suit keys of 34 counts."""
    return [int.from_bytes(bytes(counts[0:9]), "little"), int.from_bytes(bytes(counts[9:18]), "little"),
            int.from_bytes(bytes(counts[18:27]), "little"), int.from_bytes(bytes(counts[27:34]), "little")]


def _divisions(keys: Sequence[int]) -> list[tuple[Group, ...]]:
    """Every split of the suits' tiles into sets and exactly one pair, groups in suit order
    (each suit's in the order of :func:`_decompose`), in the order of the product of the
    suits' splits."""
    tables = []
    single = True
    for s in range(4):
        key = keys[s]
        if key:
            t = _TABLES[s].get(key) or suit_table(s, key)
            n = len(t.splits)
            if not n:
                return []
            if n > 1:
                single = False
            tables.append(t)
    if single:
        pairs = 0
        division: tuple[Group, ...] = ()
        for t in tables:
            pairs += t.pairs[0]
            division += t.splits[0]
        return [division] if pairs == 1 else []
    out: list[tuple[Group, ...]] = []
    for combo in product(*[tuple(zip(t.splits, t.pairs)) for t in tables]):
        if sum(n for _, n in combo) == 1:
            out.append(tuple(g for part, _ in combo for g in part))
    return out


def standard_decompositions(counts: Sequence[int], sets: int) -> Iterator[list[tuple[str, int]]]:
    """Every split of 34 counts into ``sets`` sets and one pair, groups as (kind, kind index)."""
    if sum(counts[:34]) != 3 * sets + 2:
        return
    for d in _divisions(suit_keys(counts)):
        yield [(g.kind, g.first) for g in d]


def _reach_mask(keys: Sequence[int]) -> int:
    reach = 1  # (0 sets, 0 pairs)
    for s in range(4):
        key = keys[s]
        if key:
            forms = _forms_of(_HONORS[s], key)
            if not forms:
                return 0
            reach = _combine(reach, forms)
            if not reach:
                return 0
    return reach


def is_standard(counts: Sequence[int], sets: int) -> bool:
    """Whether the counts split into ``sets`` sets and one pair (no enumeration)."""
    if sets < 0 or sum(counts[:34]) != 3 * sets + 2:
        return False
    return bool(_reach_mask(suit_keys(counts)) >> (2 * sets + 1) & 1)


# ------------------------------------------------------------- shape matchers

def _wait_of(kind: str, first: int, win: int) -> str:
    if kind == "pair":
        return "single"
    if kind in ("pung", "kong"):
        return "pung"
    if kind == "chow":
        if win == first + 1:
            return "closed"
        rank = first % 9 + 1
        if (win == first + 2 and rank == 1) or (win == first and rank == 7):
            return "edge"
        return "side"
    return "none"


_PLACEMENT_ORDER = {"edge": 0, "closed": 1, "side": 2, "single": 3, "pung": 4, "none": 5}


def _declared_groups(hand: Hand) -> list[Group]:
    return [make_group(m.kind, m.tiles[0], m.concealed, True) for m in hand.melds]


Placement = tuple[int, str, Group, Group]
#: (group, winning tile) -> how the group holds the tile: (placement order, wait, the
#: group holding it on a discard, the same when self-drawn), or None when it cannot.
#: Groups are interned, so the table is bounded (groups x 34 kinds).
_PLACES: dict[tuple[Group, int], Placement | None] = {}
_UNSEEN: Any = object()


def _placement(g: Group, win: int) -> Placement | None:
    first = g.first
    if g.chow:
        if not first <= win <= first + 2:
            return None
    elif g.knitted:
        if win != first and win != first + 3 and win != first + 6:
            return None
    elif win != first:
        return None
    wait = "none" if g.knitted or g.single else _wait_of(g.kind, first, win)
    return (_PLACEMENT_ORDER[wait], wait, make_group(g.kind, first, False, False, True),
            make_group(g.kind, first, True, False, True))


def _places(groups: Sequence[Group], win: int, self_drawn: bool,
            fixed_wait: str | None = None) -> list[tuple[int, int, str, Group]]:
    """The places of the winning tile among ``groups`` (plain concealed groups), equal groups
    once, in the order they are tried: edge, closed, side, single, pung, then others, equal
    ones by place: (placement order, index in ``groups``, wait, the group holding it).
    ``fixed_wait``: the wait of every set or pair holding it (special shapes)."""
    places: list[tuple[int, int, str, Group]] = []
    seen: list[Group] = []
    concealed = 3 if self_drawn else 2
    for idx, g in enumerate(groups):
        if not 0 <= win - g.first <= 6:  # no group spans more than seven kinds
            continue
        p = _PLACES.get((g, win), _UNSEEN)
        if p is _UNSEEN:
            p = _PLACES[(g, win)] = _placement(g, win)
        if p is None or g in seen:
            continue
        seen.append(g)
        if fixed_wait is not None and not (g.knitted or g.single):
            places.append((_PLACEMENT_ORDER[fixed_wait], idx, fixed_wait, p[concealed]))
        else:
            places.append((p[0], idx, p[1], p[concealed]))
    if len(places) > 1:
        places.sort()  # by order, then place (never further: places differ)
    return places


def _place_win(shape: ShapeSpec, raw: Sequence[Group], hand: Hand, declared: list[Group],
               fixed_wait: str | None = None) -> list[Arrangement]:
    """One arrangement per place of the winning tile among ``raw`` (:func:`_places`)."""
    shape_id = shape.id
    shape_kind = shape.kind
    out = []
    for _, idx, wait, win_group in _places(raw, hand.win_tile, hand.self_drawn, fixed_wait):
        groups = list(raw)
        groups[idx] = win_group
        if declared:
            groups += declared
        out.append(_new(shape_id, shape_kind, groups, win_group, wait))
    return out


def _concealed_counts(hand: Hand) -> list[int]:
    counts = [0] * 34
    for k in hand.concealed:
        counts[k] += 1
    counts[hand.win_tile] += 1
    return counts


class _Prepared:
    """What every matcher reads of one hand, computed once: the concealed counts (winning
    tile included; the list may be longer than 34, the rest zeros, and is only read), the
    kinds held as a mask, the suit keys of those counts, their number, the declared
    groups. The scorer passes its :class:`~compiler.scoring.context.HandContext` instead, which
    holds the same names (computed once for the matchers and the pattern conditions)."""

    __slots__ = ("_concealed_counts", "_keys", "declared", "_size", "_concealed_mask")

    def __init__(self, hand: Hand, declared: list[Group] | None = None, counts: list[int] | None = None,
                 mask: int | None = None) -> None:
        if counts is None:
            counts = _concealed_counts(hand)
        if mask is None:
            mask = 0
            for k in range(34):
                if counts[k]:
                    mask |= 1 << k
        self._concealed_counts = counts
        self._concealed_mask = mask  # bit k set when kind k is held (winning tile included)
        self._keys = suit_keys(counts)
        self._size = len(hand.concealed) + 1
        self.declared = _declared_groups(hand) if declared is None else declared


_NO_ARRANGEMENTS: list[Arrangement] = []


def _sets_and_pair(shape: ShapeSpec, hand: Hand, prep: _Prepared) -> list[Arrangement]:
    need = shape.sets - len(hand.melds)
    if need < 0 or prep._size != 3 * need + 2:
        return _NO_ARRANGEMENTS
    # Most hands split one way in every suit: the division is the suits' splits in turn,
    # and the winning tile's places are those in its suit's split (kept per split).
    keys = prep._keys
    win = hand.win_tile
    win_suit = SUIT_OF[win]
    division: tuple[Group, ...] = ()
    pairs = 0
    start = 0
    pair_at = 0
    win_split: tuple[Group, ...] = ()
    s = 0
    for key in keys:
        if key:
            t = _TABLES[s].get(key) or suit_table(s, key)
            one = t.one
            if one is None:
                if not t.splits:
                    return _NO_ARRANGEMENTS
                break
            split, at = one
            if s == win_suit:
                start = len(division)
                win_split = split
                win_table = t
            if at >= 0:
                pairs += 1
                pair_at = len(division) + at
            division += split
        s += 1
    else:
        if pairs != 1:
            return _NO_ARRANGEMENTS
        self_drawn = hand.self_drawn
        places = win_table.placed.get(2 * win + self_drawn)
        if places is None:
            places = win_table.placed[2 * win + self_drawn] = tuple(_places(win_split, win, self_drawn))
        declared = prep.declared
        shape_id = shape.id
        shape_kind = shape.kind
        out = []
        for _, idx, wait, win_group in places:
            groups = list(division)
            groups[start + idx] = win_group
            sets = groups[:pair_at]
            sets += groups[pair_at + 1:]
            if declared:
                groups += declared
                sets += declared
            out.append(_with_sets(Arrangement.__new__(Arrangement), shape_id, shape_kind, groups, win_group, wait,
                                  sets, [groups[pair_at]], []))
        return out
    divisions = _divisions(keys)
    if not divisions:
        return _NO_ARRANGEMENTS
    declared = prep.declared
    if len(divisions) == 1:
        return _place_win(shape, divisions[0], hand, declared)
    divisions.sort(key=_division_order)
    out: list[Arrangement] = []
    for raw in divisions:
        out += _place_win(shape, raw, hand, declared)
    return out


def _division_order(raw: Sequence[Group]) -> list[tuple[int, int]]:
    """Divisions in increasing order of their sets (by first tile, a pung before a chow)."""
    return sorted((g.first, 0 if g.pung else 1) for g in raw if not g.pair)


def _pairs(shape: ShapeSpec, hand: Hand, prep: _Prepared) -> list[Arrangement]:
    if hand.melds or prep._concealed_mask.bit_count() > shape.sets:  # more kinds than pairs
        return _NO_ARRANGEMENTS
    counts = prep._concealed_counts
    if 1 in counts or 3 in counts:
        return _NO_ARRANGEMENTS
    pairs = _PLAIN["pair"] or _plain("pair")
    raw = []
    for k in _kinds_in(prep._concealed_mask):
        c = counts[k]
        if c == 2:
            raw.append(pairs[k])
        elif c == 4 and shape.quads_as_two_pairs:
            raw += [pairs[k]] * 2
        else:
            return _NO_ARRANGEMENTS
    if len(raw) == shape.sets:
        return _place_one(shape, raw, pairs[hand.win_tile], hand, "single")
    return _NO_ARRANGEMENTS


def _unique_plus_pair(shape: ShapeSpec, hand: Hand, prep: _Prepared) -> list[Arrangement]:
    wanted = set(shape.tiles)
    if hand.melds or prep._concealed_mask != _mask_of(shape.tiles):  # every wanted kind, no other
        return _NO_ARRANGEMENTS
    counts = prep._concealed_counts
    if 3 in counts or 4 in counts or sum(counts) != len(wanted) + 1:  # so exactly one held twice
        return _NO_ARRANGEMENTS
    pairs = _PLAIN["pair"] or _plain("pair")
    singles = _PLAIN["single"] or _plain("single")
    raw = [pairs[k] if counts[k] == 2 else singles[k] for k in sorted(wanted)]
    win = hand.win_tile
    return _place_one(shape, raw, pairs[win] if counts[win] == 2 else singles[win], hand, "none")


_MASKS: dict[tuple[int, ...], int] = {}


def _mask_of(kinds: tuple[int, ...]) -> int:
    """The kinds as a bit mask (kept per tuple: a variant's shapes have a few)."""
    got = _MASKS.get(kinds)
    if got is None:
        got = 0
        for k in kinds:
            got |= 1 << k
        if len(_MASKS) < 64:
            _MASKS[kinds] = got
    return got


def _knitted_and_honors(shape: ShapeSpec, hand: Hand, prep: _Prepared) -> list[Arrangement]:
    if hand.melds or prep._concealed_mask.bit_count() != 14:  # fourteen different tiles
        return _NO_ARRANGEMENTS
    counts = prep._concealed_counts
    if 2 in counts or 3 in counts or 4 in counts or sum(counts) != 14:
        return _NO_ARRANGEMENTS
    mask = prep._concealed_mask
    suited = mask & _SUITED_MASK
    singles = _PLAIN["single"] or _plain("single")
    win = hand.win_tile
    for perm, kinds_mask in zip(KNITTED_PERMS, KNITTED_MASKS):
        if not suited & ~kinds_mask:
            if suited == kinds_mask:  # a complete knitted straight is three knitted runs
                runs = [make_group("knitted", perm[o] * 9 + o, True) for o in range(3)]
                raw = runs + [singles[k] for k in _kinds_in(mask & ~kinds_mask)]
                holder = runs[win % 9 % 3] if win < 27 else singles[win]
            else:
                raw = [singles[k] for k in _kinds_in(mask)]
                holder = singles[win]
            return _place_one(shape, raw, holder, hand, "none")
    return _NO_ARRANGEMENTS


#: Plain concealed groups of one tile kind (pairs, single tiles), by kind, made on first use.
_PLAIN: dict[str, tuple[Group, ...] | None] = {"pair": None, "single": None}


def _plain(kind: str) -> tuple[Group, ...]:
    got = _PLAIN[kind] = tuple(make_group(kind, k, True) for k in range(34))
    return got


def _place_one(shape: ShapeSpec, raw: list[Group], holder: Group, hand: Hand, fixed_wait: str) -> list[Arrangement]:
    """:func:`_place_win` where only ``holder`` (its first occurrence in ``raw``) can hold
    the winning tile: every other group is of other kinds (special shapes)."""
    win = hand.win_tile
    p = _PLACES.get((holder, win), _UNSEEN)
    if p is _UNSEEN:
        p = _PLACES[(holder, win)] = _placement(holder, win)
    if p is None:
        return _NO_ARRANGEMENTS
    win_group = p[3] if hand.self_drawn else p[2]
    groups = list(raw)
    groups[raw.index(holder)] = win_group
    wait = p[1] if holder.knitted or holder.single else fixed_wait
    return [_new(shape.id, shape.kind, groups, win_group, wait)]


def _knitted_sets_and_pair(shape: ShapeSpec, hand: Hand, prep: _Prepared) -> list[Arrangement]:
    if len(hand.melds) > shape.max_melds or (prep._concealed_mask & _SUITED_MASK).bit_count() < 9:
        return _NO_ARRANGEMENTS
    need = shape.sets - 3 - len(hand.melds)
    if need < 0 or prep._size != 3 * need + 11:
        return _NO_ARRANGEMENTS
    declared = prep.declared
    mask = prep._concealed_mask
    out: list[Arrangement] = []
    for perm, kinds, kinds_mask in zip(KNITTED_PERMS, KNITTED_KINDS, KNITTED_MASKS):
        if mask & kinds_mask != kinds_mask:
            continue
        keys = list(prep._keys)
        for k in kinds:
            keys[SUIT_OF[k]] -= UNIT_OF[k]
        knitted = [make_group("knitted", perm[o] * 9 + o, True) for o in range(3)]
        for raw in _divisions(keys):
            out += _place_win(shape, knitted + list(raw), hand, declared)
    return out


_MATCHERS = {
    "sets_and_pair": _sets_and_pair,
    "pairs": _pairs,
    "unique_plus_pair": _unique_plus_pair,
    "knitted_and_honors": _knitted_and_honors,
    "knitted_sets_and_pair": _knitted_sets_and_pair,
}


def matcher_bounds(shape: ShapeSpec) -> tuple[int, int, int]:
    """(most declared sets, fewest and most kinds among the concealed tiles, winning tile
    included) with which ``shape``'s matcher can find an arrangement: necessary
    conditions its own first tests include, which a caller checks before the call."""
    kind = shape.kind
    if kind == "sets_and_pair":
        return shape.sets, 1, 34
    if kind == "pairs":
        return 0, 1, shape.sets
    if kind == "unique_plus_pair":
        n = len(set(shape.tiles))
        return 0, n, n
    if kind == "knitted_and_honors":
        return 0, 14, 14
    if kind == "knitted_sets_and_pair":
        return shape.max_melds, 9, 34
    return 1 << 30, 0, 34


def arrangements(hand: Hand, shapes: Iterable[ShapeSpec]) -> list[Arrangement]:
    """Every arrangement of ``hand`` into any of ``shapes``; empty when it does not win."""
    prep = _Prepared(hand)
    out: list[Arrangement] = []
    for shape in shapes:
        out.extend(_MATCHERS[shape.kind](shape, hand, prep))
    return out


def _completes_shape(shape: ShapeSpec, counts: Sequence[int], melds: int) -> bool:
    kind = shape.kind
    if kind == "sets_and_pair":
        return is_standard(counts, shape.sets - melds)
    if kind == "pairs":
        return not melds and sum(counts) == 2 * shape.sets and all(
            c in (0, 2) or (c == 4 and shape.quads_as_two_pairs) for c in counts)
    if kind == "unique_plus_pair":
        wanted = set(shape.tiles)
        return not melds and sum(counts) == len(wanted) + 1 and all(
            (counts[k] >= 1 if k in wanted else counts[k] == 0) for k in range(34))
    if kind == "knitted_and_honors":
        if melds or sum(counts) != 14 or any(c > 1 for c in counts):
            return False
        suited = {k for k in range(27) if counts[k]}
        return any(suited <= kinds for kinds in KNITTED_SETS)
    if kind == "knitted_sets_and_pair" and melds <= shape.max_melds:
        for kinds in KNITTED_KINDS:
            if all(counts[k] for k in kinds):
                rest = list(counts)
                for k in kinds:
                    rest[k] -= 1
                if is_standard(rest, shape.sets - 3 - melds):
                    return True
    return False


def completes(counts: Sequence[int], melds: int, shapes: Iterable[ShapeSpec]) -> bool:
    """Whether concealed ``counts`` (34 kinds, winning tile included) win with ``melds`` declared sets."""
    return any(_completes_shape(shape, counts, melds) for shape in shapes)


# ------------------------------------------------------------------- waits

def _kinds_in(mask: int) -> list[int]:
    """The kinds of a mask, ascending (one step per set bit, not per kind)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_HONOR_MASK = ((1 << 34) - 1) & ~_SUITED_MASK
_BASES = (0, 9, 18, 27)
_INFO: tuple[dict[int, tuple[bool, int, int]], dict[int, tuple[bool, int, int]]] = ({}, {})


def _suit_info(honors: int, key: int) -> tuple[bool, int, int]:
    """One suit's counts (``key``) as the waits need them: whether they split into sets
    and at most one pair, the mask of the ranks whose addition lets them split, and
    their number of tiles mod 3 (which fixes the form: a pair iff 2). Bounded table, so
    a hand's standard waits are four look-ups and a few bit operations."""
    cache = _INFO[honors]
    got = cache.get(key)
    if got is None:
        got = (_forms_of(honors, key) != 0, _wait_ranks(honors, key), sum(key.to_bytes(9, "little")) % 3)
        if len(cache) >= CACHE_SIZE:
            cache.clear()
        cache[key] = got
    return got


def standard_wait_mask(keys: Sequence[int], held_size: int, sets: int) -> int:
    """The kinds (bit k for kind k) completing held tiles (suit ``keys``, ``held_size``
    tiles) into ``sets`` sets and a pair.

    A suit's tile count fixes its form (sets only, or sets and the pair when it is 2 mod
    3), so a tile of suit s completes the hand when it lets s split, every other suit
    splits, and exactly one suit then holds a pair: no trial per tile, no enumeration.
    """
    if sets < 0 or held_size != 3 * sets + 1:
        return 0
    broken = -1
    broken_info = _NO_INFO
    pairs = 0
    paired = 0  # the waits of the suits holding a pair
    s = 0
    for key in keys:
        if key:
            info = _INFO[_HONORS[s]].get(key) or _suit_info(_HONORS[s], key)
            if not info[0]:
                if broken >= 0:
                    return 0  # one tile mends one suit only
                broken = s
                broken_info = info
            elif info[2] == 2:
                pairs += 1
                paired |= info[1] << _BASES[s]
        s += 1
    if broken >= 0:  # the tile goes to the suit that does not split
        return broken_info[1] << _BASES[broken] if pairs + (broken_info[2] == 1) == 1 else 0
    # Every suit splits; the count (1 mod 3) makes two of them hold a pair: the tile
    # turns one of those into sets only (a suit without a pair cannot take it).
    return paired if pairs == 2 else 0


_NO_INFO = (False, 0, 0)


def _special_wait_mask(shape: ShapeSpec, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                       keys: Sequence[int] | None) -> int:
    """The waits of a special shape as a mask, worked out from its definition (no trial
    per tile); the kind-count tests come first, so most hands leave at once.
    ``held_mask`` has bit k set when ``held[k]``."""
    kind = shape.kind
    if kind == "knitted_sets_and_pair":
        if melds > shape.max_melds or (held_mask & _SUITED_MASK).bit_count() < 8:
            return 0
        need = shape.sets - 3 - melds
        if need < 0 or held_size != 3 * need + 10:
            return 0
        if keys is None:
            keys = suit_keys(held)
        out = 0
        for kinds, kinds_mask in zip(KNITTED_KINDS, KNITTED_MASKS):
            gap = kinds_mask & ~held_mask
            if gap & (gap - 1):
                continue  # more than one tile of this knitted straight is missing
            rest = list(keys)
            for k in kinds:
                if not gap >> k & 1:
                    rest[SUIT_OF[k]] -= UNIT_OF[k]
            if gap:  # the winning tile must be the missing one; the rest must split
                if _reach_mask(rest) >> (2 * need + 1) & 1:
                    out |= gap
            else:  # the straight is held: the wait lies in the fourth set or the pair
                out |= standard_wait_mask(rest, held_size - 9, need)
        return out
    if melds:
        return 0
    if kind == "pairs":
        if held_mask.bit_count() > shape.sets:  # adding a tile never makes fewer kinds
            return 0
        odd = -1
        for k in _kinds_in(held_mask):
            if held[k] & 1:
                if odd >= 0:
                    return 0
                odd = k
        if odd < 0:
            return 0
        full = list(held)
        full[odd] += 1
        return 1 << odd if _completes_shape(shape, full, melds) else 0
    if held_mask.bit_count() < 12:  # the shapes below hold (almost) only distinct tiles
        return 0
    if kind == "unique_plus_pair":
        wanted = 0
        for k in shape.tiles:
            wanted |= 1 << k
        if held_size != wanted.bit_count() or held_mask & ~wanted:
            return 0
        doubles = 0
        for k in _kinds_in(held_mask):
            if held[k] > 2:
                return 0
            if held[k] == 2:
                doubles += 1
        if not doubles:
            return wanted
        missing = wanted & ~held_mask
        return missing if doubles == 1 and missing.bit_count() == 1 else 0
    if kind == "knitted_and_honors":
        if held_size != 13 or held_mask.bit_count() != 13:  # thirteen different tiles
            return 0
        suited = held_mask & _SUITED_MASK
        out = 0
        for kinds_mask in KNITTED_MASKS:
            if not suited & ~kinds_mask:
                out |= (kinds_mask | _HONOR_MASK) & ~held_mask
        return out
    return 0


def _held_counts(hand: Hand) -> list[int]:
    counts = [0] * 34
    for k in hand.concealed:
        counts[k] += 1
    return counts


def waiting_tiles(hand: Hand, shapes: Sequence[ShapeSpec], kinds: Iterable[int] | None = None,
                  limit: int | None = None) -> list[int]:
    """The kinds that would complete the hand without its winning tile (copies not limited).

    With ``kinds``, only those are tried, and ``limit`` stops the trials once that many
    are found; otherwise ``limit`` keeps the smallest ``limit`` of them (``2`` answers
    "exactly one?").
    """
    held = _held_counts(hand)
    melds = len(hand.melds)
    if kinds is not None:
        out = []
        for k in kinds:
            held[k] += 1
            if completes(held, melds, shapes):
                out.append(k)
            held[k] -= 1
            if limit is not None and len(out) >= limit:
                break
        return out
    mask = 0
    for k in hand.concealed:
        mask |= 1 << k
    return held_waits(held, mask, melds, shapes, limit)


def _wait_bounds(shape: ShapeSpec) -> tuple[int, int, int]:
    """(most declared sets, fewest and most kinds held) with which ``shape`` can have a
    wait: the first tests of :func:`_special_wait_mask`, checked before the call."""
    kind = shape.kind
    if kind == "pairs":
        return 0, 1, shape.sets
    if kind == "unique_plus_pair":
        return 0, 12, 34
    if kind == "knitted_and_honors":
        return 0, 13, 13
    if kind == "knitted_sets_and_pair":
        return shape.max_melds, 8, 34
    return 1 << 30, 0, 34


#: For each number of declared sets (0-4) and of kinds held (0-34): the shapes that may
#: have a wait, each with whether it is the standard one (the bounds already applied).
Plan = list[list[tuple[tuple[ShapeSpec, bool], ...]]]
#: id of a tuple of shapes -> (that tuple, its plan). Keyed by identity (hashing shape
#: specs is slow): the entry holds the tuple, so its id is not reused while stored.
_PLANS: dict[int, tuple[Sequence[ShapeSpec], Plan]] = {}


def _wait_plan(shapes: Sequence[ShapeSpec]) -> Plan:
    """The shapes worth trying for a wait, by declared sets and kinds held; one entry per
    tuple of shapes (a variant's), a few in practice and at most 64."""
    got = _PLANS.get(id(shapes))
    if got is None or got[0] is not shapes:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        got = _PLANS[id(shapes)] = (shapes, [[_worth_trying(shapes, melds, kinds) for kinds in range(35)]
                                             for melds in range(5)])
    return got[1]


def _worth_trying(shapes: Sequence[ShapeSpec], melds: int, kinds: int) -> tuple[tuple[ShapeSpec, bool], ...]:
    """The shapes that may have a wait with ``melds`` declared sets and ``kinds`` kinds
    held, in order, each with whether it is the standard one."""
    out = []
    for shape in shapes:
        most_melds, fewest, most = _wait_bounds(shape)
        if melds <= most_melds and fewest <= kinds <= most:
            out.append((shape, shape.kind == "sets_and_pair"))
    return tuple(out)


def held_wait_mask(held: Sequence[int], held_mask: int, melds: int, shapes: Sequence[ShapeSpec],
                   keys: Sequence[int] | None = None, held_size: int | None = None, extra: int = -1) -> int:
    """The kinds completing the held tiles into any of ``shapes``, as a mask (bit k for
    kind k). ``held``: counts (34 or more entries, only read); ``held_mask``: the kinds
    held; ``keys`` and ``held_size``, if known: their suit keys and number of tiles.
    ``extra``: a kind of which ``held`` has one copy more than the tiles held (the
    winning tile; ``held_mask``, ``keys`` and ``held_size`` are without it), or -1: the
    counts of the held tiles are then made only if a special shape needs them."""
    if held_size is None:
        held_size = sum(held[:34]) - (extra >= 0)
    kinds = held_mask.bit_count()
    try:
        worth = _wait_plan(shapes)[melds][kinds]
    except IndexError:  # more declared sets than a hand of 14 tiles holds
        worth = _worth_trying(shapes, melds, kinds)
    out = 0
    for shape, standard in worth:
        if standard:
            if keys is None:
                if extra >= 0:
                    held = list(held)
                    held[extra] -= 1
                    extra = -1
                keys = suit_keys(held)
            out |= standard_wait_mask(keys, held_size, shape.sets - melds)
        else:
            if extra >= 0:
                held = list(held)
                held[extra] -= 1
                extra = -1
            out |= _special_wait_mask(shape, held, melds, held_mask, held_size, keys)
    return out


def held_waits(held: Sequence[int], held_mask: int, melds: int, shapes: Sequence[ShapeSpec],
               limit: int | None = None, keys: Sequence[int] | None = None) -> list[int]:
    """:func:`waiting_tiles` from the held counts (34 or more entries; only read), the
    mask of the kinds held and, if known, the suit keys of the counts; ascending."""
    found = _kinds_in(held_wait_mask(held, held_mask, melds, shapes, keys))
    return found if limit is None else found[:limit]
