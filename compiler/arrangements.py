"""Hand analysis: every arrangement of a winning hand into the shapes a variant declares.

Pipeline: the concealed tiles (winning tile included) are split one suit at a time;
each suit's decompositions are computed once per 9-count vector and cached, then
combined across suits. The winning tile is then placed in each group that can hold
it, which fixes the wait. Special shapes (pairs, unique-plus-pair, knitted shapes)
are generic engine notions configured by the variant file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import permutations, product
from typing import Iterable, Iterator

from .groups import Group, group_tiles
from .hand import Hand

#: Engine shape kinds, configured by ``scoring.shapes`` in a variant file.
SHAPE_KINDS = ("sets_and_pair", "pairs", "unique_plus_pair", "knitted_and_honors", "knitted_sets_and_pair")

#: The six knitted straights: suit index order for ranks (1,4,7), (2,5,8), (3,6,9).
KNITTED_PERMS: tuple[tuple[int, int, int], ...] = tuple(permutations(range(3)))


def knitted_kinds(perm: tuple[int, int, int]) -> tuple[int, ...]:
    """The nine tile kinds of the knitted straight whose suit for offset o is perm[o]."""
    return tuple(perm[o] * 9 + o + 3 * j for o in range(3) for j in range(3))


@dataclass(frozen=True)
class ShapeSpec:
    id: str
    kind: str
    sets: int = 4
    quads_as_two_pairs: bool = False
    tiles: tuple[int, ...] = ()
    max_melds: int = 0
    concealed_only: bool = True


@dataclass
class Arrangement:
    shape: str
    shape_kind: str
    groups: list[Group]
    win_group: Group | None
    wait: str
    sets: list[Group] = field(default_factory=list)
    pairs: list[Group] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.sets = [g for g in self.groups if g.kind in ("chow", "pung", "kong")]
        self.pairs = [g for g in self.groups if g.kind == "pair"]

    def describe(self) -> str:
        return " ".join(repr(g) for g in self.groups)


# ------------------------------------------------------- per-suit decomposition

@lru_cache(maxsize=None)
def _decompose(counts: tuple[int, ...], honors: bool, pair_left: int) -> tuple[tuple[tuple[str, int], ...], ...]:
    """All ways to split one suit's counts into pungs, chows and at most ``pair_left`` pairs.

    Groups are (kind, index within the suit); each result is sorted, results are distinct.
    """
    i = next((j for j, c in enumerate(counts) if c), -1)
    if i < 0:
        return ((),)
    out: set[tuple[tuple[str, int], ...]] = set()
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


@lru_cache(maxsize=None)
def _forms(counts: tuple[int, ...], honors: bool) -> frozenset[tuple[int, int]]:
    """(number of sets, number of pairs) that one suit's counts can split into exactly."""
    return frozenset(
        (sum(1 for g in d if g[0] != "pair"), sum(1 for g in d if g[0] == "pair"))
        for d in _decompose(counts, honors, 1)
    )


def _suit_slices(counts: list[int] | tuple[int, ...]) -> list[tuple[tuple[int, ...], bool, int]]:
    return [
        (tuple(counts[0:9]), False, 0),
        (tuple(counts[9:18]), False, 9),
        (tuple(counts[18:27]), False, 18),
        (tuple(counts[27:34]), True, 27),
    ]


def standard_decompositions(counts: list[int], sets: int) -> Iterator[list[tuple[str, int]]]:
    """Every split of 34 counts into ``sets`` sets and one pair, groups as (kind, kind index)."""
    if sum(counts) != 3 * sets + 2:
        return
    options = []
    for suit_counts, honors, base in _suit_slices(counts):
        if not any(suit_counts):
            options.append([()])
            continue
        decomps = _decompose(suit_counts, honors, 1)
        if not decomps:
            return
        options.append([tuple((k, base + i) for k, i in d) for d in decomps])
    for combo in product(*options):
        groups = [g for part in combo for g in part]
        if sum(1 for g in groups if g[0] == "pair") == 1:
            yield groups


def is_standard(counts: list[int] | tuple[int, ...], sets: int) -> bool:
    """Whether the counts split into ``sets`` sets and one pair (no enumeration)."""
    if sum(counts) != 3 * sets + 2:
        return False
    reach = {(0, 0)}
    for suit_counts, honors, _ in _suit_slices(counts):
        if not any(suit_counts):
            continue
        forms = _forms(suit_counts, honors)
        if not forms:
            return False
        reach = {(s + fs, p + fp) for s, p in reach for fs, fp in forms if p + fp <= 1}
        if not reach:
            return False
    return (sets, 1) in reach


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


def _declared_groups(hand: Hand) -> list[Group]:
    return [Group(m.kind, m.tiles[0], m.tiles, m.concealed, True) for m in hand.melds]


def _place_win(shape: ShapeSpec, raw: list[tuple[str, int]], hand: Hand, declared: list[Group],
               fixed_wait: str | None = None) -> Iterator[Arrangement]:
    """One arrangement per distinct group of ``raw`` that can hold the winning tile."""
    seen: set[tuple[str, int]] = set()
    win = hand.win_tile
    for idx, (kind, first) in enumerate(raw):
        if (kind, first) in seen or win not in group_tiles(kind, first):
            continue
        seen.add((kind, first))
        groups = []
        win_group = None
        for j, (k, f) in enumerate(raw):
            if j == idx:
                g = Group(k, f, group_tiles(k, f), hand.self_drawn, False, True)
                win_group = g
            else:
                g = Group(k, f, group_tiles(k, f), True, False)
            groups.append(g)
        wait = fixed_wait if fixed_wait is not None else _wait_of(kind, first, win)
        if kind == "knitted" or kind == "single":
            wait = "none"
        yield Arrangement(shape.id, shape.kind, groups + declared, win_group, wait)


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
    for raw in standard_decompositions(counts, need):
        yield from _place_win(shape, raw, hand, declared)


def _pairs(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    if hand.melds:
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
    if hand.melds:
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
    if hand.melds or sum(counts) != 14 or any(c > 1 for c in counts):
        return
    present = {k for k, c in enumerate(counts) if c}
    suited = {k for k in present if k < 27}
    for perm in KNITTED_PERMS:
        if suited <= set(knitted_kinds(perm)):
            raw = [("single", k) for k in sorted(present)]
            yield from _place_win(shape, raw, hand, [], "none")
            return


def _knitted_sets_and_pair(shape: ShapeSpec, hand: Hand, counts: list[int]) -> Iterator[Arrangement]:
    if len(hand.melds) > shape.max_melds:
        return
    declared = _declared_groups(hand)
    need = shape.sets - 3 - len(hand.melds)
    for perm in KNITTED_PERMS:
        kinds = knitted_kinds(perm)
        if any(counts[k] == 0 for k in kinds):
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


def completes(counts: list[int], melds: int, shapes: Iterable[ShapeSpec]) -> bool:
    """Whether concealed ``counts`` (34 kinds, winning tile included) win with ``melds`` declared sets."""
    for shape in shapes:
        if shape.kind == "sets_and_pair":
            if is_standard(counts, shape.sets - melds):
                return True
        elif shape.kind == "pairs":
            if not melds and sum(counts) == 2 * shape.sets and all(
                c in (0, 2) or (c == 4 and shape.quads_as_two_pairs) for c in counts
            ):
                return True
        elif shape.kind == "unique_plus_pair":
            wanted = set(shape.tiles)
            if not melds and sum(counts) == len(wanted) + 1 and all(
                (counts[k] >= 1 if k in wanted else counts[k] == 0) for k in range(34)
            ):
                return True
        elif shape.kind == "knitted_and_honors":
            if not melds and sum(counts) == 14 and all(c <= 1 for c in counts):
                suited = {k for k in range(27) if counts[k]}
                if any(suited <= set(knitted_kinds(p)) for p in KNITTED_PERMS):
                    return True
        elif shape.kind == "knitted_sets_and_pair" and melds <= shape.max_melds:
            for perm in KNITTED_PERMS:
                kinds = knitted_kinds(perm)
                if all(counts[k] for k in kinds):
                    rest = list(counts)
                    for k in kinds:
                        rest[k] -= 1
                    if is_standard(rest, shape.sets - 3 - melds):
                        return True
    return False


def waiting_tiles(hand: Hand, shapes: tuple[ShapeSpec, ...], kinds: Iterable[int] = range(34)) -> list[int]:
    """The kinds that would complete the hand without its winning tile (copies not limited)."""
    counts = [0] * 34
    for k in hand.concealed:
        counts[k] += 1
    out = []
    for k in kinds:
        counts[k] += 1
        if completes(counts, len(hand.melds), shapes):
            out.append(k)
        counts[k] -= 1
    return out
