"""The per-suit tables every shape kind reads: what one suit's tile counts can become.

A suit's counts are one integer, its *key* (8 bits per rank, rank 1 lowest: the bytes of
the counts, read little-endian). Each key is split once into pungs, chows and at most one
pair, the splits kept in a bounded table per suit (:class:`SuitTable`), and a hand is
then its suits' splits combined; the (sets, pairs) forms of a key, without its splits,
come from their own bounded tables (and, for suited keys with at most four of each rank,
from a precomputed bit set of every suit that splits, kept in the compile cache's
folder). The waits of sets and a pair are worked out per suit from the same tables
(:func:`standard_wait_mask`), with no trial per tile.

Honors are the fourth "suit" (seven kinds, no chows). Nothing here knows a hand's size:
the tables answer for any number of tiles.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import product

from ..model.groups import Group, make_group

#: Bound on each per-suit cache (entries); a cache entry is a few small tuples.
CACHE_SIZE = 1 << 15

SUITED_MASK = (1 << 27) - 1  # the 27 suited kinds
HONOR_MASK = ((1 << 34) - 1) & ~SUITED_MASK  # the seven honor kinds


def kinds_in(mask: int) -> list[int]:
    """The kinds of a mask, ascending (one step per set bit, not per kind)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


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


def _suited_forms(key: int) -> int:
    """The forms of suited counts: a look-up in the precomputed table of every splitting
    suit (:func:`splitting_suits`) when it covers them, else a search."""
    table = _SPLITTING if _SPLITTING is not None else splitting_suits()
    if not table or key & _ABOVE_7 or (key + 3 * _ONES) & _ABOVE_4:
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
    """Which suited count vectors (each count at most 4, however many tiles) split into
    sets and at most one pair, as a bit set: bit ``i`` (of byte ``i >> 3``) for the
    counts whose base-5 number (:func:`_base5`) is ``i``; 5 ** 9 bits, 165,916 of them
    set. Built once (some 0.4 s) and kept in the compile cache's folder,
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
    """:func:`splitting_suits` computed: every sum of sets (pungs and chows) with no count
    above 4, level by level (one set more each time), then each with a pair added where
    the count allows."""
    sets = [3 << 8 * i for i in range(9)] + [0x010101 << 8 * i for i in range(7)]
    level = {0}
    plain = {0}
    while level:  # the sums of one set more than the last level's, until no count fits
        level = {k for k in (key + s for key in level for s in sets) if not (k + 3 * _ONES) & _ABOVE_4}
        plain |= level
    bits = bytearray(_SPLITTING_SIZE)
    for key in plain:
        i = _base5(key)
        bits[i >> 3] |= 1 << (i & 7)
        for r in range(9):
            if key >> 8 * r & 0xFF <= 2:  # a pair fits on this rank
                j = i + 2 * _POW5[r]
                bits[j >> 3] |= 1 << (j & 7)
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
    if table and not (key & _ABOVE_7 or (key + 3 * _ONES) & _ABOVE_4):
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
SUIT_TABLES: tuple[dict[int, SuitTable], ...] = ({}, {}, {}, {})


def suit_table(suit: int, key: int) -> SuitTable:
    """The (bounded, cached) table of one suit's counts, ``key`` holding 8 bits per rank."""
    cache = SUIT_TABLES[suit]
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


def divisions(keys: Sequence[int]) -> list[tuple[Group, ...]]:
    """Every split of the suits' tiles into sets and exactly one pair, groups in suit order
    (each suit's in the order of :func:`_decompose`), in the order of the product of the
    suits' splits."""
    tables = []
    single = True
    for s in range(4):
        key = keys[s]
        if key:
            t = SUIT_TABLES[s].get(key) or suit_table(s, key)
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
    for d in divisions(suit_keys(counts)):
        yield [(g.kind, g.first) for g in d]


def reach_mask(keys: Sequence[int]) -> int:
    """The (sets, pairs) forms the suits of ``keys`` make together, at most one pair (a
    form mask, see :func:`_form_mask`); 0 when a suit does not split."""
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
    return bool(reach_mask(suit_keys(counts)) >> (2 * sets + 1) & 1)


# ------------------------------------------------------------- standard waits

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
        s += 1  # noqa: SIM113 - fewer instructions than enumerate here (callgrind)
    if broken >= 0:  # the tile goes to the suit that does not split
        return broken_info[1] << _BASES[broken] if pairs + (broken_info[2] == 1) == 1 else 0
    # Every suit splits; the count (1 mod 3) makes two of them hold a pair: the tile
    # turns one of those into sets only (a suit without a pair cannot take it).
    return paired if pairs == 2 else 0


_NO_INFO = (False, 0, 0)
