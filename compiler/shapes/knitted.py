"""The knitted shapes: a knitted straight (147, 258, 369, each run in a different suit).

``knitted_and_honors``: fourteen different single tiles, from one knitted straight and the
honors; ``knitted_sets_and_pair``: a whole knitted straight, concealed, then sets and a
pair (the straight counts as three of the ``sets``). A complete knitted run is a
``knitted`` group in either.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations
from typing import ClassVar

from ..model.groups import make_group
from ..model.hand import Hand
from .arrangements import NO_ARRANGEMENTS, Arrangement, Prepared, place_one, place_win, plain_groups
from .base import Shape, ShapeParts, plural
from .suits import (
    HONOR_MASK,
    SUIT_OF,
    SUITED_MASK,
    UNIT_OF,
    divisions,
    is_standard,
    kinds_in,
    reach_mask,
    standard_wait_mask,
)

#: The six knitted straights: suit index order for ranks (1,4,7), (2,5,8), (3,6,9).
KNITTED_PERMS: tuple[tuple[int, int, int], ...] = tuple(permutations(range(3)))  # type: ignore[arg-type]


def knitted_kinds(perm: tuple[int, int, int]) -> tuple[int, ...]:
    """The nine tile kinds of the knitted straight whose suit for offset o is perm[o]."""
    return tuple(perm[o] * 9 + o + 3 * j for o in range(3) for j in range(3))


KNITTED_KINDS: tuple[tuple[int, ...], ...] = tuple(knitted_kinds(p) for p in KNITTED_PERMS)
KNITTED_SETS: tuple[frozenset[int], ...] = tuple(frozenset(k) for k in KNITTED_KINDS)
KNITTED_MASKS: tuple[int, ...] = tuple(sum(1 << k for k in kinds) for kinds in KNITTED_KINDS)


class KnittedAndHonors(Shape):
    """Fourteen different single tiles: honors and tiles of one knitted straight."""

    kind = "knitted_and_honors"
    #: The kind's definition: fourteen of the sixteen kinds of a knitted straight and the
    #: honors, each once (a rules page says so in these words).
    SINGLES: ClassVar[int] = 14

    @property
    def size(self) -> int:
        return self.SINGLES

    def describe(self) -> str:
        return f"{self.SINGLES} different tiles of a knitted straight and the honors"

    def arrange(self, hand: Hand, prep: Prepared) -> list[Arrangement]:
        mask = prep._concealed_mask
        if hand.melds or mask.bit_count() != self.SINGLES:  # that many different tiles
            return NO_ARRANGEMENTS
        counts = prep._concealed_counts
        if 2 in counts or 3 in counts or 4 in counts or sum(counts) != self.SINGLES:
            return NO_ARRANGEMENTS
        suited = mask & SUITED_MASK
        singles = plain_groups("single")
        win = hand.win_tile
        for perm, kinds_mask in zip(KNITTED_PERMS, KNITTED_MASKS):
            if not suited & ~kinds_mask:
                if suited == kinds_mask:  # a complete knitted straight is three knitted runs
                    runs = [make_group("knitted", perm[o] * 9 + o, True) for o in range(3)]
                    raw = runs + [singles[k] for k in kinds_in(mask & ~kinds_mask)]
                    holder = runs[win % 9 % 3] if win < 27 else singles[win]
                else:
                    raw = [singles[k] for k in kinds_in(mask)]
                    holder = singles[win]
                return place_one(self, raw, holder, hand, "none")
        return NO_ARRANGEMENTS

    def bounds(self) -> tuple[int, int, int]:
        return 0, self.SINGLES, self.SINGLES

    def completes(self, counts: Sequence[int], melds: int) -> bool:
        if melds or sum(counts) != self.SINGLES or any(c > 1 for c in counts):
            return False
        suited = {k for k in range(27) if counts[k]}
        return any(suited <= kinds for kinds in KNITTED_SETS)

    def wait_bounds(self) -> tuple[int, int, int]:
        return 0, self.SINGLES - 1, self.SINGLES - 1

    def wait_mask(self, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                  keys: Sequence[int]) -> int:
        if melds or held_size != self.SINGLES - 1 or held_mask.bit_count() != held_size:  # all different
            return 0
        suited = held_mask & SUITED_MASK
        out = 0
        for kinds_mask in KNITTED_MASKS:
            if not suited & ~kinds_mask:
                out |= (kinds_mask | HONOR_MASK) & ~held_mask
        return out

    def parts(self) -> ShapeParts:
        return ShapeParts(singles=self.SINGLES, knitted=True)


class KnittedSetsAndPair(Shape):
    """A knitted straight held concealed, plus sets and a pair (``sets`` counts the straight
    as three); at most ``max_melds`` declared sets."""

    kind = "knitted_sets_and_pair"
    KEYS = ("sets", "max_melds")
    DEFAULT_MAX_MELDS = 1

    @classmethod
    def default_sets(cls, hand_size: int) -> int:
        return (hand_size - 2) // 3

    @property
    def size(self) -> int:
        return 3 * self.sets + 2

    def describe(self) -> str:
        return f"a knitted straight, {plural(self.sets - 3, 'set')} and a pair"

    def arrange(self, hand: Hand, prep: Prepared) -> list[Arrangement]:
        if len(hand.melds) > self.max_melds or (prep._concealed_mask & SUITED_MASK).bit_count() < 9:
            return NO_ARRANGEMENTS
        need = self.sets - 3 - len(hand.melds)
        if need < 0 or prep._size != 3 * need + 11:
            return NO_ARRANGEMENTS
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
            for raw in divisions(keys):
                out += place_win(self, knitted + list(raw), hand, declared)
        return out

    def bounds(self) -> tuple[int, int, int]:
        return self.max_melds, 9, 34

    def completes(self, counts: Sequence[int], melds: int) -> bool:
        if melds > self.max_melds:
            return False
        for kinds in KNITTED_KINDS:
            if all(counts[k] for k in kinds):
                rest = list(counts)
                for k in kinds:
                    rest[k] -= 1
                if is_standard(rest, self.sets - 3 - melds):
                    return True
        return False

    def wait_bounds(self) -> tuple[int, int, int]:
        return self.max_melds, 8, 34

    def wait_mask(self, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                  keys: Sequence[int]) -> int:
        if melds > self.max_melds or (held_mask & SUITED_MASK).bit_count() < 8:
            return 0
        need = self.sets - 3 - melds
        if need < 0 or held_size != 3 * need + 10:
            return 0
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
                if reach_mask(rest) >> (2 * need + 1) & 1:
                    out |= gap
            else:  # the straight is held: the wait lies in the fourth set or the pair
                out |= standard_wait_mask(rest, held_size - 9, need)
        return out

    def parts(self) -> ShapeParts:
        return ShapeParts(sets=max(self.sets - 3, 0), pairs=1, knitted=True, max_melds=self.max_melds)
