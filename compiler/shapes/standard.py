"""Sets and a pair: the standard shape (``kind: sets_and_pair``), N sets and one pair.

The hot path of scoring: most hands split one way in every suit, so the division is the
suits' only splits in turn and the winning tile's places are those in its suit's split
(kept per split); other hands take every division of their suits, in increasing order of
their sets. Its waits are :func:`~compiler.shapes.suits.standard_wait_mask`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model.groups import Group
from ..model.hand import Hand
from .arrangements import NO_ARRANGEMENTS, Arrangement, Prepared, place_win, places, with_sets
from .base import Shape, ShapeParts, StandardShanten, plural
from .suits import SUIT_OF, SUIT_TABLES, divisions, is_standard, standard_wait_mask, suit_table


class SetsPlusPair(Shape):
    """A shape of ``sets`` sets (some may be made of other groups) and a pair: its size."""

    @classmethod
    def default_sets(cls, hand_size: int) -> int:
        return (hand_size - 2) // 3

    @property
    def size(self) -> int:
        return 3 * self.sets + 2


class SetsAndPair(SetsPlusPair):
    """``sets`` sets (chows, pungs, kongs; declared ones included) and a pair."""

    kind = "sets_and_pair"
    KEYS = ("sets",)

    def describe(self) -> str:
        return f"{plural(self.sets, 'set')} and a pair"

    def arrange(self, hand: Hand, prep: Prepared) -> list[Arrangement]:
        need = self.sets - len(hand.melds)
        if need < 0 or prep._size != 3 * need + 2:
            return NO_ARRANGEMENTS
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
                t = SUIT_TABLES[s].get(key) or suit_table(s, key)
                one = t.one
                if one is None:
                    if not t.splits:
                        return NO_ARRANGEMENTS
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
            s += 1  # noqa: SIM113 - fewer instructions than enumerate here (callgrind)
        else:
            if pairs != 1:
                return NO_ARRANGEMENTS
            self_drawn = hand.self_drawn
            placed = win_table.placed.get(2 * win + self_drawn)
            if placed is None:
                placed = win_table.placed[2 * win + self_drawn] = tuple(places(win_split, win, self_drawn))
            declared = prep.declared
            shape_id = self.id
            shape_kind = self.kind
            out = []
            for _, idx, wait, win_group in placed:
                groups = list(division)
                groups[start + idx] = win_group
                sets = groups[:pair_at]
                sets += groups[pair_at + 1:]
                if declared:
                    groups += declared
                    sets += declared
                out.append(with_sets(Arrangement.__new__(Arrangement), shape_id, shape_kind, groups, win_group,
                                     wait, sets, [groups[pair_at]], []))
            return out
        found = divisions(keys)
        if not found:
            return NO_ARRANGEMENTS
        declared = prep.declared
        if len(found) == 1:
            return place_win(self, found[0], hand, declared)
        found.sort(key=_division_order)
        out = []
        for raw in found:
            out += place_win(self, raw, hand, declared)
        return out

    def bounds(self) -> tuple[int, int, int]:
        return self.sets, 1, 34

    def completes(self, counts: Sequence[int], melds: int) -> bool:
        return is_standard(counts, self.sets - melds)

    def wait_bounds(self) -> tuple[int, int, int]:
        return self.sets, 0, 34

    def wait_mask(self, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                  keys: Sequence[int]) -> int:
        return standard_wait_mask(keys, held_size, self.sets - melds)

    @property
    def standard_sets(self) -> int | None:
        return self.sets

    def shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten) -> int | None:
        return standard(counts, self.sets - melds)

    def parts(self) -> ShapeParts:
        return ShapeParts(sets=self.sets, pairs=1)


def _division_order(raw: Sequence[Any]) -> list[tuple[int, int]]:
    """Divisions in increasing order of their sets (by first tile, a pung before a chow)."""
    return sorted((g.first, 0 if g.pung else 1) for g in raw if not g.pair)
