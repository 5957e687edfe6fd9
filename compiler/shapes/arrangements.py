"""Arrangements: the ways to read a winning hand, and the placing of its winning tile.

Each shape kind (compiler/shapes/kinds.py) finds the groups a hand splits into; this
module makes the arrangements of those groups: it places the winning tile in each group
that can hold it, which fixes the wait, and builds the lists pattern conditions read.
:func:`arrangements` and :func:`completes` ask every declared shape in turn.

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

from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..model.groups import Group, make_group
from ..model.hand import Hand
from .suits import suit_keys

if TYPE_CHECKING:  # pragma: no cover
    from .base import Shape

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

    shape: str
    shape_kind: str
    groups: list[Group]
    win_group: Group | None
    wait: str
    sets: list[Group]
    pairs: list[Group]
    chows: list[Group]
    pungs: list[Group]
    kongs: list[Group]
    knitted: list[Group]
    _bits: dict[str, list[int]] | None

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
    return with_sets(arr, shape, shape_kind, groups, win_group, wait, sets, pairs, knitted)


def with_sets(arr: Arrangement, shape: str, shape_kind: str, groups: list[Group], win_group: Group | None,
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


# ------------------------------------------------------ placing the winning tile

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


def declared_groups(hand: Hand) -> list[Group]:
    """The groups of the hand's declared sets (concealed kongs included)."""
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


def places(groups: Sequence[Group], win: int, self_drawn: bool,
           fixed_wait: str | None = None) -> list[tuple[int, int, str, Group]]:
    """The places of the winning tile among ``groups`` (plain concealed groups), equal groups
    once, in the order they are tried: edge, closed, side, single, pung, then others, equal
    ones by place: (placement order, index in ``groups``, wait, the group holding it).
    ``fixed_wait``: the wait of every set or pair holding it (special shapes)."""
    out: list[tuple[int, int, str, Group]] = []
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
            out.append((_PLACEMENT_ORDER[fixed_wait], idx, fixed_wait, p[concealed]))
        else:
            out.append((p[0], idx, p[1], p[concealed]))
    if len(out) > 1:
        out.sort()  # by order, then place (never further: places differ)
    return out


def place_win(shape: Shape, raw: Sequence[Group], hand: Hand, declared: list[Group],
              fixed_wait: str | None = None) -> list[Arrangement]:
    """One arrangement per place of the winning tile among ``raw`` (:func:`places`)."""
    shape_id = shape.id
    shape_kind = shape.kind
    out = []
    for _, idx, wait, win_group in places(raw, hand.win_tile, hand.self_drawn, fixed_wait):
        groups = list(raw)
        groups[idx] = win_group
        if declared:
            groups += declared
        out.append(_new(shape_id, shape_kind, groups, win_group, wait))
    return out


def place_one(shape: Shape, raw: list[Group], holder: Group, hand: Hand, fixed_wait: str) -> list[Arrangement]:
    """:func:`place_win` where only ``holder`` (its first occurrence in ``raw``) can hold
    the winning tile: every other group is of other kinds (special shapes)."""
    win = hand.win_tile
    p = _PLACES.get((holder, win), _UNSEEN)
    if p is _UNSEEN:
        p = _PLACES[(holder, win)] = _placement(holder, win)
    if p is None:
        return NO_ARRANGEMENTS
    win_group = p[3] if hand.self_drawn else p[2]
    groups = list(raw)
    groups[raw.index(holder)] = win_group
    wait = p[1] if holder.knitted or holder.single else fixed_wait
    return [_new(shape.id, shape.kind, groups, win_group, wait)]


#: Plain concealed groups of one tile kind (pairs, single tiles), by kind, made on first use.
_PLAIN: dict[str, tuple[Group, ...] | None] = {"pair": None, "single": None}


def plain_groups(kind: str) -> tuple[Group, ...]:
    """The concealed ``kind`` groups ("pair", "single") of each of the 34 tile kinds."""
    got = _PLAIN[kind]
    if got is None:
        got = _PLAIN[kind] = tuple(make_group(kind, k, True) for k in range(34))
    return got


# ------------------------------------------------------------ what matchers read

def _concealed_counts(hand: Hand) -> list[int]:
    counts = [0] * 34
    for k in hand.concealed:
        counts[k] += 1
    counts[hand.win_tile] += 1
    return counts


class Prepared:
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
        self.declared = declared_groups(hand) if declared is None else declared


#: What a matcher gives for a hand it does not arrange (shared: never changed).
NO_ARRANGEMENTS: list[Arrangement] = []


def arrangements(hand: Hand, shapes: Iterable[Shape]) -> list[Arrangement]:
    """Every arrangement of ``hand`` into any of ``shapes``; empty when it does not win."""
    prep = Prepared(hand)
    out: list[Arrangement] = []
    for shape in shapes:
        out.extend(shape.arrange(hand, prep))
    return out


def completes(counts: Sequence[int], melds: int, shapes: Iterable[Shape]) -> bool:
    """Whether concealed ``counts`` (34 kinds, winning tile included) win with ``melds`` declared sets."""
    return any(shape.completes(counts, melds) for shape in shapes)
