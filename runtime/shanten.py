"""Shanten (tiles away from ready) from per-suit tables, for the shapes a variant declares.

Standard shapes (sets and a pair) are counted one suit at a time: each suit's count
vector maps, once and then from a cache, to its non-dominated (sets, partial sets, pair)
splits; the suits are then combined. ``shanten == -1`` means a complete hand, 0 ready.
Pairs and unique-plus-pair shapes have closed formulas; knitted shapes are not counted
(a bot aims at the other shapes).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, Sequence

from compiler.arrangements import ShapeSpec

_Split = tuple[int, int, int]  # (sets, partial sets, pair 0/1)

#: The shape kinds these tables count exactly (a shanten of -1 is then a complete hand).
FAST_SHAPES = frozenset({"sets_and_pair", "pairs", "unique_plus_pair"})


def _prune(splits: Iterable[_Split]) -> tuple[_Split, ...]:
    items = sorted(set(splits), reverse=True)
    kept: list[_Split] = []
    for s in items:
        if not any(k[0] >= s[0] and k[1] >= s[1] and k[2] >= s[2] for k in kept):
            kept.append(s)
    return tuple(kept)


@lru_cache(maxsize=None)
def suit_splits(counts: tuple[int, ...], honors: bool) -> tuple[_Split, ...]:
    """Non-dominated (sets, partials, pair) splits of one suit's counts (9, or 7 for honors)."""
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((0, 0, 0),)
    out: list[_Split] = []
    c = list(counts)

    def sub(delta: Sequence[tuple[int, int]], add: _Split) -> None:
        for j, d in delta:
            c[j] -= d
        for m, t, p in suit_splits(tuple(c), honors):
            if not (add[2] and p):
                out.append((m + add[0], t + add[1], p + add[2]))
        for j, d in delta:
            c[j] += d

    n = len(counts)
    if c[i] >= 3:
        sub(((i, 3),), (1, 0, 0))
    if c[i] >= 2:
        sub(((i, 2),), (0, 0, 1))
        sub(((i, 2),), (0, 1, 0))
    if not honors:
        if i + 2 < n and c[i + 1] and c[i + 2]:
            sub(((i, 1), (i + 1, 1), (i + 2, 1)), (1, 0, 0))
        if i + 1 < n and c[i + 1]:
            sub(((i, 1), (i + 1, 1)), (0, 1, 0))
        if i + 2 < n and c[i + 2]:
            sub(((i, 1), (i + 2, 1)), (0, 1, 0))
    sub(((i, 1),), (0, 0, 0))  # tile i left isolated
    return _prune(out)


_CAP = 4  # no shape needs more than four sets or partial sets


def _capped(table: tuple[_Split, ...]) -> tuple[_Split, ...]:
    return _prune((min(m, _CAP), min(t, _CAP), p) for m, t, p in table)


#: Interned split tables: equal tables are one object, so caches can key on ``id``.
_INTERN: dict[tuple[_Split, ...], tuple[_Split, ...]] = {}


def _intern(table: tuple[_Split, ...]) -> tuple[_Split, ...]:
    """``table`` must already be sorted."""
    return _INTERN.setdefault(table, table)


@lru_cache(maxsize=None)
def suit_table(counts: tuple[int, ...], honors: bool) -> tuple[_Split, ...]:
    """:func:`suit_splits` with sets and partials capped at four (what combining needs), interned."""
    return _intern(tuple(sorted(_capped(suit_splits(counts, honors)))))


_MERGED: dict[tuple[int, int], tuple[_Split, ...]] = {}
_EVALUATED: dict[tuple[int, int, int], int] = {}


def merge(a: tuple[_Split, ...], b: tuple[_Split, ...]) -> tuple[_Split, ...]:
    """The splits of two suits together (interned; cached by the identity of interned tables)."""
    key = (id(a), id(b))
    hit = _MERGED.get(key)
    if hit is not None:
        return hit
    best: dict[tuple[int, int], int] = {}
    for m1, t1, p1 in a:
        for m2, t2, p2 in b:
            p = p1 + p2
            if p <= 1:
                m = m1 + m2
                if m > _CAP:
                    m = _CAP
                t = t1 + t2
                key2 = (m, p)
                if t > best.get(key2, -1):
                    best[key2] = t if t < _CAP else _CAP
    merged = _intern(tuple(sorted(_prune((m, t, p) for (m, p), t in best.items()))))
    _MERGED[key] = merged
    return merged


def evaluate(a: tuple[_Split, ...], b: tuple[_Split, ...], sets: int) -> int:
    """Standard shanten of two interned split tables together (one may hold several suits already)."""
    key = (id(a), id(b), sets)
    hit = _EVALUATED.get(key)
    if hit is not None:
        return hit
    best = 0
    for m1, t1, p1 in a:
        for m2, t2, p2 in b:
            p = p1 + p2
            if p > 1:
                continue
            m = m1 + m2
            if m > sets:
                m = sets
            t = t1 + t2
            rest = sets - m
            value = 2 * m + (t if t < rest else rest) + p
            if value > best:
                best = value
    _EVALUATED[key] = 2 * sets - best
    return 2 * sets - best


def tables(counts: Sequence[int]) -> list[tuple[_Split, ...]]:
    return [suit_table(tuple(counts[0:9]), False), suit_table(tuple(counts[9:18]), False),
            suit_table(tuple(counts[18:27]), False), suit_table(tuple(counts[27:34]), True)]


def combine(tabs: Sequence[tuple[_Split, ...]], sets: int) -> int:
    """Standard shanten from one split table per suit, needing ``sets`` sets and a pair."""
    return evaluate(merge(merge(tabs[0], tabs[1]), tabs[2]), tabs[3], sets)


def standard_shanten(counts: Sequence[int], sets: int) -> int:
    return combine(tables(counts), sets)


def pairs_shanten(counts: Sequence[int], sets: int, quads_as_two: bool) -> int:
    zeros = counts.count(0)  # type: ignore[attr-defined]
    ones = counts.count(1)  # type: ignore[attr-defined]
    if quads_as_two:
        pairs = counts.count(2) + counts.count(3) + 2 * counts.count(4)  # type: ignore[attr-defined]
        return sets - 1 - pairs
    pairs = len(counts) - zeros - ones
    kinds = len(counts) - zeros
    return sets - 1 - pairs + (sets - kinds if kinds < sets else 0)


def unique_shanten(counts: Sequence[int], tiles: Sequence[int]) -> int:
    present = sum(1 for k in tiles if counts[k])
    pair = 1 if any(counts[k] >= 2 for k in tiles) else 0
    return len(tiles) - present - pair


def shanten(counts: Sequence[int], melds: int, shapes: Sequence[ShapeSpec]) -> int:
    """The best shanten over the variant's shapes (34 counts of the concealed tiles)."""
    best = 99
    for shape in shapes:
        if shape.kind == "sets_and_pair":
            value = standard_shanten(counts, shape.sets - melds)
        elif melds:
            continue
        elif shape.kind == "pairs":
            value = pairs_shanten(counts, shape.sets, shape.quads_as_two_pairs)
        elif shape.kind == "unique_plus_pair":
            value = unique_shanten(counts, shape.tiles)
        else:
            continue
        if value < best:
            best = value
    return best


def _suit_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


def _slice(counts: Sequence[int], suit: int) -> tuple[tuple[int, ...], bool]:
    lo = suit * 9
    return tuple(counts[lo:lo + (7 if suit == 3 else 9)]), suit == 3


_SUIT_WAITS: dict[tuple[int, tuple[int, ...], int], tuple[int, ...]] = {}


def _suit_waits(rest: tuple[_Split, ...], own: tuple[int, ...], honors: bool, need: int) -> tuple[int, ...]:
    """Offsets in one suit whose tile completes the hand (``rest``: the other suits' table)."""
    key = (id(rest), own, need)
    hit = _SUIT_WAITS.get(key)
    if hit is not None:
        return hit
    size = len(own)
    reach = 0 if honors else 2
    work = list(own)
    out = []
    for o in range(size):
        if not any(own[max(0, o - reach):o + reach + 1]):
            continue
        work[o] += 1
        if evaluate(rest, suit_table(tuple(work), honors), need) == -1:
            out.append(o)
        work[o] -= 1
    if len(_SUIT_WAITS) > 200_000:
        _SUIT_WAITS.clear()
    hit = _SUIT_WAITS[key] = tuple(out)
    return hit


def winning_kinds(counts: list[int], melds: int, shapes: Sequence[ShapeSpec], playable: Iterable[int]) -> set[int]:
    """Kinds among ``playable`` that complete ``counts`` (a ready hand), for the shapes of :data:`FAST_SHAPES`.

    Only plausible kinds are tried (held kinds and suited neighbours within two), one suit at
    a time against the other suits' combined table; per-suit answers are cached.
    """
    allowed = set(playable)
    held = [k for k in range(34) if counts[k]]
    found: set[int] = set()
    for shape in shapes:
        if shape.kind == "sets_and_pair":
            need = shape.sets - melds
            tabs = tables(counts)
            for suit in range(4):
                lo = suit * 9
                own = tuple(counts[lo:lo + (7 if suit == 3 else 9)])
                if not any(own):
                    continue
                others = [tabs[i] for i in range(4) if i != suit]
                rest = merge(merge(others[0], others[1]), others[2])
                found.update(lo + o for o in _suit_waits(rest, own, suit == 3, need) if lo + o in allowed)
        elif melds:
            continue
        elif shape.kind == "pairs":
            for k in held:
                if k in allowed:
                    counts[k] += 1
                    if pairs_shanten(counts, shape.sets, shape.quads_as_two_pairs) == -1:
                        found.add(k)
                    counts[k] -= 1
        elif shape.kind == "unique_plus_pair":
            for k in shape.tiles:
                if k in allowed:
                    counts[k] += 1
                    if unique_shanten(counts, shape.tiles) == -1 and sum(counts) == len(shape.tiles) + 1:
                        found.add(k)
                    counts[k] -= 1
    return found
