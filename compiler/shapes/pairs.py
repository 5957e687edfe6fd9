"""Pairs (``kind: pairs``): ``sets`` pairs and nothing else, all concealed.

Different kinds unless ``quads_as_two_pairs``: then four identical tiles count as two
pairs. The winning tile always completes a pair (a single wait).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model.hand import Hand
from .arrangements import NO_ARRANGEMENTS, Arrangement, Prepared, place_one, plain_groups
from .base import Shape, ShapeParts, StandardDraws, StandardShanten, plural
from .suits import kinds_in


class Pairs(Shape):
    """``sets`` pairs (seven pairs), ``quads_as_two_pairs`` allowing four of a kind as two."""

    kind = "pairs"
    KEYS = ("sets", "quads_as_two_pairs")
    reads_held = True

    @classmethod
    def default_sets(cls, hand_size: int) -> int:
        return hand_size // 2

    @property
    def size(self) -> int:
        return 2 * self.sets

    def describe(self) -> str:
        return plural(self.sets, "pair")

    def arrange(self, hand: Hand, prep: Prepared) -> list[Arrangement]:
        if hand.melds or prep._concealed_mask.bit_count() > self.sets:  # more kinds than pairs
            return NO_ARRANGEMENTS
        counts = prep._concealed_counts
        if 1 in counts or 3 in counts:
            return NO_ARRANGEMENTS
        pairs = plain_groups("pair")
        raw = []
        for k in kinds_in(prep._concealed_mask):
            c = counts[k]
            if c == 2:
                raw.append(pairs[k])
            elif c == 4 and self.quads_as_two_pairs:
                raw += [pairs[k]] * 2
            else:
                return NO_ARRANGEMENTS
        if len(raw) == self.sets:
            return place_one(self, raw, pairs[hand.win_tile], hand, "single")
        return NO_ARRANGEMENTS

    def bounds(self) -> tuple[int, int, int]:
        return 0, 1, self.sets

    def completes(self, counts: Sequence[int], melds: int) -> bool:
        return not melds and sum(counts) == 2 * self.sets and all(
            c in (0, 2) or (c == 4 and self.quads_as_two_pairs) for c in counts)

    def wait_bounds(self) -> tuple[int, int, int]:
        return 0, 1, self.sets

    def wait_mask(self, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                  keys: Sequence[int]) -> int:
        if melds or held_mask.bit_count() > self.sets:  # adding a tile never makes fewer kinds
            return 0
        odd = -1
        for k in kinds_in(held_mask):
            if held[k] & 1:
                if odd >= 0:
                    return 0
                odd = k
        if odd < 0:
            return 0
        full = list(held)
        full[odd] += 1
        return 1 << odd if self.completes(full, melds) else 0

    def shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten) -> int | None:
        if melds:
            return None
        sets = self.sets
        zeros = counts.count(0)
        ones = counts.count(1)
        if self.quads_as_two_pairs:
            return sets - 1 - (counts.count(2) + counts.count(3) + 2 * counts.count(4))
        pairs = len(counts) - zeros - ones
        kinds = len(counts) - zeros
        return sets - 1 - pairs + (sets - kinds if kinds < sets else 0)

    def discard_shanten(self, counts: Sequence[int], kinds: Sequence[int], melds: int,
                        standard: StandardShanten) -> list[int] | None:
        if melds:
            return None
        # After a discard, the shanten depends only on the count of the kind discarded.
        sets = self.sets
        quads = self.quads_as_two_pairs
        held = len(counts) - counts.count(0)
        pairs = sum(c // 2 for c in counts) if quads else held - counts.count(1)
        by_count = [99] * 5
        for c in range(1, 5):
            after = pairs - (1 if (c % 2 == 0 if quads else c == 2) else 0)
            by_count[c] = sets - 1 - after + (0 if quads else max(0, sets - (held - (c == 1))))
        return [by_count[counts[k]] for k in kinds]

    def draw_shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten,
                     draws: StandardDraws) -> list[int] | None:
        # After a draw, the shanten depends only on the count of the kind drawn.
        now = self.shanten(counts, melds, standard)
        if now is None:
            return None
        if self.quads_as_two_pairs:
            gain = (0, 1, 0, 1)  # a second copy makes a pair, a fourth a second pair
        else:
            kinds = len(counts) - counts.count(0)
            gain = (1 if kinds < self.sets else 0, 1, 0, 0)  # a new kind where kinds are short, or a pair
        return [now - gain[c] if c < 4 else 99 for c in counts[:34]]

    def parts(self) -> ShapeParts:
        return ShapeParts(pairs=self.sets, quads_as_two_pairs=self.quads_as_two_pairs)
