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
from .base import Shape, ShapeParts, StandardDraws, StandardShanten, plural
from .standard import SetsPlusPair
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

    def _distinct(self, counts: Sequence[int]) -> list[int]:
        """For each knitted straight, the kinds held among its tiles and the honors."""
        return [sum(1 for k in kinds if counts[k]) + sum(1 for k in range(27, 34) if counts[k])
                for kinds in KNITTED_KINDS]

    def shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten) -> int | None:
        # Every tile is a single of its own kind: the shanten is the kinds still missing
        # from the best knitted straight and the honors, less one (ready: one missing).
        if melds:
            return None
        return self.SINGLES - 1 - max(self._distinct(counts))

    def discard_shanten(self, counts: Sequence[int], kinds: Sequence[int], melds: int,
                        standard: StandardShanten) -> list[int] | None:
        # A discard loses a kind only when it held one copy of it; then it matters only to
        # the straights (and honors) that kind belongs to.
        if melds:
            return None
        held = self._distinct(counts)
        out = []
        for k in kinds:
            lost = counts[k] == 1
            best = max(h - (lost and (k >= 27 or k in members)) for h, members in zip(held, KNITTED_SETS))
            out.append(self.SINGLES - 1 - best)
        return out

    def draw_shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten,
                     draws: StandardDraws) -> list[int] | None:
        # A draw adds a kind only when none is held; then it helps the straights (and honors)
        # that kind belongs to.
        if melds:
            return None
        held = self._distinct(counts)
        now = self.SINGLES - 1 - max(held)
        out = []
        for k in range(34):
            c = counts[k]
            if c == 0:
                best = max(h + (k >= 27 or k in members) for h, members in zip(held, KNITTED_SETS))
                out.append(self.SINGLES - 1 - best)
            else:
                out.append(now if c < 4 else 99)
        return out

    def parts(self) -> ShapeParts:
        return ShapeParts(singles=self.SINGLES, knitted=True)


class KnittedSetsAndPair(SetsPlusPair):
    """A knitted straight held concealed, plus sets and a pair (``sets`` counts the straight
    as three); at most ``max_melds`` declared sets."""

    kind = "knitted_sets_and_pair"
    KEYS = ("sets", "max_melds")
    DEFAULT_MAX_MELDS = 1

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

    def shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten) -> int | None:
        # For each knitted straight: its tiles still missing (each takes one draw), plus the
        # standard shanten of the other tiles toward the remaining sets and the pair. A held
        # tile of the straight is always given to it: it saves a draw there, and costs the
        # rest at most one.
        if melds > self.max_melds:
            return None
        need = self.sets - 3 - melds
        if need < 0:
            return None
        best = 99
        rest = list(counts[:34])
        # The most complete straights first: a straight missing m tiles is never below m - 1
        # (the rest complete), so the others are often not counted at all.
        for held in sorted(([k for k in kinds if rest[k]] for kinds in KNITTED_KINDS), key=len, reverse=True):
            if 8 - len(held) >= best:
                break
            for k in held:
                rest[k] -= 1
            value = 9 - len(held) + standard(rest, need)
            for k in held:
                rest[k] += 1
            if value < best:
                best = value
        return best

    def discard_shanten(self, counts: Sequence[int], kinds: Sequence[int], melds: int,
                        standard: StandardShanten) -> list[int] | None:
        if melds > self.max_melds or self.sets - 3 - melds < 0:
            return None
        out = []
        rest = list(counts[:34])
        for k in kinds:
            rest[k] -= 1
            value = self.shanten(rest, melds, standard)
            rest[k] += 1
            out.append(99 if value is None else value)
        return out

    def draw_shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten,
                     draws: StandardDraws) -> list[int] | None:
        # For each straight: a draw of one of its missing tiles saves a draw there; any
        # other draw goes to the rest, whose standard shanten after each draw the runtime
        # gives in one call.
        if melds > self.max_melds or self.sets - 3 - melds < 0:
            return None
        # A draw never raises a straight's count and lowers it by one at most: only the
        # straights that give the hand's shanten now can give a lower one after a draw.
        need = self.sets - 3 - melds
        rest = list(counts[:34])
        found = []
        for kinds in KNITTED_KINDS:
            held = [k for k in kinds if rest[k]]
            for k in held:
                rest[k] -= 1
            found.append((9 - len(held) + standard(rest, need), kinds, held))
            for k in held:
                rest[k] += 1
        now = min(value for value, _, _ in found)
        out = [now] * 34
        for value, kinds, held in found:
            if value > now:
                continue
            for k in held:
                rest[k] -= 1
            base = 9 - len(held)
            row = draws(rest, need)
            for k in range(34):
                after = value - 1 if k in kinds and not counts[k] else base + row[k]
                if after < out[k]:
                    out[k] = after
            for k in held:
                rest[k] += 1
        for k in range(34):
            if counts[k] >= 4:
                out[k] = 99
        return out

    def parts(self) -> ShapeParts:
        return ShapeParts(sets=max(self.sets - 3, 0), pairs=1, knitted=True, max_melds=self.max_melds)
