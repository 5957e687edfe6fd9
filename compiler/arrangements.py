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

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations, product
from operator import attrgetter
from typing import Iterable, Iterator, Sequence

from .groups import Group, make_group
from .hand import Hand

#: Engine shape kinds, configured by ``scoring.shapes`` in a variant file.
SHAPE_KINDS = ("sets_and_pair", "pairs", "unique_plus_pair", "knitted_and_honors", "knitted_sets_and_pair")

#: The six knitted straights: suit index order for ranks (1,4,7), (2,5,8), (3,6,9).
KNITTED_PERMS: tuple[tuple[int, int, int], ...] = tuple(permutations(range(3)))


def knitted_kinds(perm: tuple[int, int, int]) -> tuple[int, ...]:
    """The nine tile kinds of the knitted straight whose suit for offset o is perm[o]."""
    return tuple(perm[o] * 9 + o + 3 * j for o in range(3) for j in range(3))


KNITTED_KINDS: tuple[tuple[int, ...], ...] = tuple(knitted_kinds(p) for p in KNITTED_PERMS)
KNITTED_SETS: tuple[frozenset[int], ...] = tuple(frozenset(k) for k in KNITTED_KINDS)

#: Bound on each per-suit cache (entries); a cache entry is a few small tuples.
CACHE_SIZE = 1 << 15


@dataclass(frozen=True)
class ShapeSpec:
    id: str
    kind: str
    sets: int = 4
    quads_as_two_pairs: bool = False
    tiles: tuple[int, ...] = ()
    max_melds: int = 0
    concealed_only: bool = True


_SET_ORDER = {"chow": 0, "pung": 1, "kong": 2}
_BY_ORDER = attrgetter("order")


class Arrangement:
    """One way to read a winning hand: its groups, the group of the winning tile, the wait.

    The lists pattern conditions read (sets, chows, pungs, kongs, pairs, knitted runs)
    are built once here; ``sets`` are sorted by their first tile.
    """

    __slots__ = ("shape", "shape_kind", "groups", "win_group", "wait", "sets", "pairs", "chows", "pungs",
                 "kongs", "knitted")

    def __init__(self, shape: str, shape_kind: str, groups: list[Group], win_group: Group | None, wait: str,
                 sets: list[Group] | None = None, pairs: list[Group] | None = None) -> None:
        self.shape = shape
        self.shape_kind = shape_kind
        self.groups = groups
        self.win_group = win_group
        self.wait = wait
        if sets is None:
            sets = sorted((g for g in groups if g.kind in _SET_ORDER), key=_BY_ORDER)
        self.sets = sets
        self.pairs = [g for g in groups if g.pair] if pairs is None else pairs
        self.chows = chows = []
        self.pungs = pungs = []
        self.kongs = kongs = []
        for g in sets:
            if g.chow:
                chows.append(g)
            else:
                pungs.append(g)
                if g.kong:
                    kongs.append(g)
        self.knitted = [g for g in groups if g.knitted] if shape_kind.startswith("knitted") else []

    def describe(self) -> str:
        return " ".join(repr(g) for g in self.groups)


# ------------------------------------------------------- per-suit decomposition

Raw = tuple[tuple[str, int], ...]


@lru_cache(maxsize=CACHE_SIZE)
def _decompose(counts: tuple[int, ...], honors: bool, pair_left: int) -> tuple[Raw, ...]:
    """All ways to split one suit's counts into pungs, chows and at most ``pair_left`` pairs.

    Groups are (kind, index within the suit); each result is sorted, results are distinct.
    """
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
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


@lru_cache(maxsize=CACHE_SIZE)
def _suit_waits(counts: tuple[int, ...], honors: bool) -> tuple[tuple[int, frozenset[tuple[int, int]]], ...]:
    """For one suit: each tile (index) that, added, lets the suit split, with the forms it then takes."""
    present = [j for j, c in enumerate(counts) if c]
    if honors:
        cands: Iterable[int] = present
    else:
        cands = sorted({j for i in present for j in range(max(0, i - 2), min(9, i + 3))})
    out = []
    for j in cands:
        new = list(counts)
        new[j] += 1
        forms = _forms(tuple(new), honors)
        if forms:
            out.append((j, forms))
    return tuple(out)


@lru_cache(maxsize=CACHE_SIZE)
def _based(counts: tuple[int, ...], honors: bool, base: int) -> tuple[Raw, ...]:
    """:func:`_decompose` with kind indices shifted to the suit's place among the 34 kinds."""
    return tuple(tuple((k, base + i) for k, i in d) for d in _decompose(counts, honors, 1))


_SUITS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def _suit_slices(counts: Sequence[int]) -> list[tuple[tuple[int, ...], bool, int]]:
    return [(tuple(counts[a:b]), honors, a) for a, b, honors in _SUITS]


def standard_decompositions(counts: Sequence[int], sets: int) -> Iterator[list[tuple[str, int]]]:
    """Every split of 34 counts into ``sets`` sets and one pair, groups as (kind, kind index)."""
    if sum(counts) != 3 * sets + 2:
        return
    options = []
    for a, b, honors in _SUITS:
        suit_counts = tuple(counts[a:b])
        if not any(suit_counts):
            continue
        decomps = _based(suit_counts, honors, a)
        if not decomps:
            return
        options.append(decomps)
    if len(options) == 1:
        for d in options[0]:
            if sum(1 for g in d if g[0] == "pair") == 1:
                yield list(d)
        return
    for combo in product(*options):
        if sum(1 for part in combo for g in part if g[0] == "pair") == 1:
            yield [g for part in combo for g in part]


def _reach(counts: Sequence[int]) -> set[tuple[int, int]] | None:
    """(sets, pairs) the counts can split into exactly, with at most one pair; None if none."""
    reach = {(0, 0)}
    for a, b, honors in _SUITS:
        suit_counts = tuple(counts[a:b])
        if not any(suit_counts):
            continue
        forms = _forms(suit_counts, honors)
        if not forms:
            return None
        reach = {(s + fs, p + fp) for s, p in reach for fs, fp in forms if p + fp <= 1}
        if not reach:
            return None
    return reach


def is_standard(counts: Sequence[int], sets: int) -> bool:
    """Whether the counts split into ``sets`` sets and one pair (no enumeration)."""
    if sum(counts) != 3 * sets + 2:
        return False
    reach = _reach(counts)
    return reach is not None and (sets, 1) in reach


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


def _place_win(shape: ShapeSpec, raw: Sequence[tuple[str, int]], hand: Hand, declared: list[Group],
               fixed_wait: str | None = None) -> Iterator[Arrangement]:
    """One arrangement per distinct group of ``raw`` that can hold the winning tile."""
    win = hand.win_tile
    places: list[tuple[int, int, str]] = []
    seen: set[tuple[str, int]] = set()
    for idx, (kind, first) in enumerate(raw):
        if kind == "chow":
            if not first <= win <= first + 2:
                continue
        elif kind == "knitted":
            if win not in (first, first + 3, first + 6):
                continue
        elif win != first:
            continue
        if (kind, first) in seen:
            continue
        seen.add((kind, first))
        wait = fixed_wait if fixed_wait is not None else _wait_of(kind, first, win)
        if kind == "knitted" or kind == "single":
            wait = "none"
        places.append((_PLACEMENT_ORDER.get(wait, 5), idx, wait))
    places.sort()
    plain = [make_group(k, f, True) for k, f in raw]
    for _, idx, wait in places:
        kind, first = raw[idx]
        win_group = make_group(kind, first, hand.self_drawn, False, True)
        groups = list(plain)
        groups[idx] = win_group
        groups += declared
        sets = [g for g in groups if g.order >= 0]
        sets.sort(key=_BY_ORDER)
        yield Arrangement(shape.id, shape.kind, groups, win_group, wait, sets, [g for g in groups if g.pair])


def _concealed_counts(hand: Hand) -> list[int]:
    counts = [0] * 34
    for k in hand.concealed:
        counts[k] += 1
    counts[hand.win_tile] += 1
    return counts


def _sets_and_pair(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    need = shape.sets - len(hand.melds)
    if need < 0:
        return
    declared = _declared_groups(hand)
    divisions = list(standard_decompositions(counts, need))
    if len(divisions) > 1:
        divisions.sort(key=_division_order)
    for raw in divisions:
        yield from _place_win(shape, raw, hand, declared)


def _division_order(raw: Sequence[tuple[str, int]]) -> list[tuple[int, int]]:
    """Divisions in increasing order of their sets (by first tile, a pung before a chow)."""
    return sorted((first, 0 if kind == "pung" else 1) for kind, first in raw if kind != "pair")


def _pairs(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    if hand.melds or 1 in counts or 3 in counts:
        return
    raw = []
    for k, c in enumerate(counts):
        if c == 2 or (c == 4 and shape.quads_as_two_pairs):
            raw.extend([("pair", k)] * (c // 2))
        elif c:
            return
    if len(raw) == shape.sets:
        yield from _place_win(shape, raw, hand, [], "single")


def _unique_plus_pair(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    if hand.melds or 3 in counts or 4 in counts:
        return
    wanted = set(shape.tiles)
    if any(c and k not in wanted for k, c in enumerate(counts)):
        return
    if any(counts[k] == 0 for k in wanted) or sorted(counts[k] for k in wanted)[-1] != 2:
        return
    if sum(counts) != len(wanted) + 1:
        return
    raw = [("pair" if counts[k] == 2 else "single", k) for k in sorted(wanted)]
    yield from _place_win(shape, raw, hand, [], "none")


def _knitted_and_honors(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    if hand.melds or 2 in counts or 3 in counts or 4 in counts or sum(counts) != 14:
        return
    present = {k for k, c in enumerate(counts) if c}
    suited = {k for k in present if k < 27}
    for perm, kinds in zip(KNITTED_PERMS, KNITTED_SETS):
        if suited <= kinds:
            if len(suited) == 9:  # a complete knitted straight is three knitted runs
                raw = [("knitted", perm[o] * 9 + o) for o in range(3)]
                raw += [("single", k) for k in sorted(present - kinds)]
            else:
                raw = [("single", k) for k in sorted(present)]
            yield from _place_win(shape, raw, hand, [], "none")
            return


def _knitted_sets_and_pair(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    if len(hand.melds) > shape.max_melds:
        return
    if counts[0] + counts[9] + counts[18] == 0 or counts[8] + counts[17] + counts[26] == 0:
        return  # every knitted straight holds a 1 and a 9
    declared = _declared_groups(hand)
    need = shape.sets - 3 - len(hand.melds)
    for perm, kinds in zip(KNITTED_PERMS, KNITTED_KINDS):
        if not all(counts[k] for k in kinds):
            continue
        rest = list(counts)
        for k in kinds:
            rest[k] -= 1
        knitted = [("knitted", perm[o] * 9 + o) for o in range(3)]
        for raw in standard_decompositions(rest, need):
            yield from _place_win(shape, knitted + raw, hand, declared)


_MATCHERS = {
    "sets_and_pair": _sets_and_pair,
    "pairs": _pairs,
    "unique_plus_pair": _unique_plus_pair,
    "knitted_and_honors": _knitted_and_honors,
    "knitted_sets_and_pair": _knitted_sets_and_pair,
}


def arrangements(hand: Hand, shapes: Iterable[ShapeSpec]) -> list[Arrangement]:
    """Every arrangement of ``hand`` into any of ``shapes``; empty when it does not win."""
    counts = _concealed_counts(hand)
    out: list[Arrangement] = []
    for shape in shapes:
        out.extend(_MATCHERS[shape.kind](shape, hand, counts))
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

def _special_waits(shape: ShapeSpec, held: list[int], melds: int, present: list[int]) -> Iterable[int]:
    """The waits of a special shape, worked out from its definition (no trial per tile)."""
    kind = shape.kind
    if kind == "knitted_sets_and_pair":
        if melds > shape.max_melds or sum(1 for k in present if k < 27) < 8:
            return ()
        out: set[int] = set()
        for kinds in KNITTED_KINDS:
            missing = [k for k in kinds if not held[k]]
            if len(missing) > 1:
                continue
            cands = set(missing)
            for k in present:  # the wait may also lie in the fourth set or the pair
                base = k - k % 9 if k < 27 else k
                cands.update(range(max(base, k - 2), min(base + 9, k + 3)) if k < 27 else (k,))
            for k in cands:
                held[k] += 1
                if _completes_shape(shape, held, melds):
                    out.add(k)
                held[k] -= 1
        return out
    if melds:
        return ()
    if kind == "pairs":
        odd = [k for k in present if held[k] % 2]
        if len(odd) != 1:
            return ()
        held[odd[0]] += 1
        ok = _completes_shape(shape, held, melds)
        held[odd[0]] -= 1
        return odd if ok else ()
    if len(present) < 12:  # the shapes below hold (almost) only distinct tiles
        return ()
    if kind == "unique_plus_pair":
        wanted = set(shape.tiles)
        if sum(held) != len(wanted) or any(k not in wanted or held[k] > 2 for k in present):
            return ()
        doubles = [k for k in present if held[k] == 2]
        if not doubles:
            return sorted(wanted)
        missing = [k for k in wanted if not held[k]]
        return missing if len(doubles) == 1 and len(missing) == 1 else ()
    if kind == "knitted_and_honors":
        if sum(held) != 13 or any(held[k] > 1 for k in present):
            return ()
        suited = {k for k in present if k < 27}
        out = set()
        for kinds in KNITTED_SETS:
            if suited <= kinds:
                out |= (kinds | set(range(27, 34))) - set(present)
        return out
    return ()


def _held_counts(hand: Hand) -> list[int]:
    counts = [0] * 34
    for k in hand.concealed:
        counts[k] += 1
    return counts


def _standard_waits(held: Sequence[int], sets: int) -> Iterator[int]:
    """Kinds completing ``held`` into ``sets`` sets and a pair, one suit at a time.

    Each suit's possible (sets, pairs) splits, and the tiles that would let it split,
    come from per-suit caches; adding a tile changes one suit only, so the hand's waits
    are a merge of small cached tables.
    """
    if sets < 0 or sum(held) != 3 * sets + 1:
        return
    slices = [tuple(held[a:b]) for a, b, _ in _SUITS]
    forms = [_forms(sl, honors) for sl, (_, _, honors) in zip(slices, _SUITS)]
    broken = [s for s, f in enumerate(forms) if not f]
    if len(broken) > 1:
        return
    for s, (a, b, honors) in enumerate(_SUITS):
        if broken and broken[0] != s:
            continue
        sl = slices[s]
        if not any(sl) and s < 3:
            continue  # a suit the hand does not hold cannot be completed by one tile
        others = {(0, 0)}
        for t, f in enumerate(forms):
            if t != s and f is not _EMPTY_FORMS:
                others = {(x + fx, y + fy) for x, y in others for fx, fy in f if y + fy <= 1}
        if not others:
            continue
        wanted = {(sets - x, 1 - y) for x, y in others}
        for j, got in _suit_waits(sl, honors):
            if not wanted.isdisjoint(got):
                yield a + j


def _shape_waits(shape: ShapeSpec, held: list[int], melds: int, present: list[int]) -> Iterable[int]:
    if shape.kind == "sets_and_pair":
        return _standard_waits(held, shape.sets - melds)
    return _special_waits(shape, held, melds, present)


def waiting_tiles(hand: Hand, shapes: Sequence[ShapeSpec], kinds: Iterable[int] | None = None,
                  limit: int | None = None) -> list[int]:
    """The kinds that would complete the hand without its winning tile (copies not limited).

    ``limit`` stops the search once that many are found (``2`` answers "exactly one?").
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
    found: set[int] = set()
    present = [k for k in range(34) if held[k]]
    for shape in shapes:
        for k in _shape_waits(shape, held, melds, present):
            found.add(k)
            if limit is not None and len(found) >= limit:
                return sorted(found)
    return sorted(found)
