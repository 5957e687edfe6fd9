"""Targets: groups of sets the pattern table pays for, steered toward from afar.

A hand's candidate completions (completions.py) are its cheapest ones, so a pattern made of
several particular sets (the same chow in three suits, a straight across suits...) is seen
only when the hand is nearly there by chance. A *target* is such a group of chows, found
from the variant's own scorer: every group of three chows is scored in a few complete
hands (a neutral set and pair added, the lowest total kept), and the groups that score at
least :data:`TARGET_SHARE` of the minimum more than the plainest group are kept. A variant
whose patterns pay nothing for particular chows has no targets.

A hand near a target gets a plan of its own (:func:`target_plans`): the target's chows
kept, the rest of the hand made into sets and a pair. Its shanten is the target's missing
tiles plus the rest's shanten with the target's sets counted as made
(:class:`TargetCounter`), so that a discard breaking the target is seen to cost, and its
completions are the target with the rest's completions (value.Rules.completions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING

from cardavia.compiler.model.hand import Hand, HandError, Meld
from cardavia.compiler.model.tiles import CODES

from ..analysis import NEVER, Evaluator
from .plans import Plan

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

#: A group of chows is a target when it scores at least this share of the variant's
#: minimum more than the plainest group.
TARGET_SHARE = 0.75
#: The sets in a target.
TARGET_SETS = 3
#: The neutral sets and pairs a target is scored with (the lowest total kept): middle
#: pungs and chows of each suit, with a pair of another suit.
_FILLERS = (((4, 4, 4), (13, 13)), ((13, 13, 13), (22, 22)), ((22, 22, 22), (4, 4)),
            ((1, 2, 3), (16, 16)), ((10, 11, 12), (25, 25)), ((19, 20, 21), (7, 7)))


def find_targets(variant: CompiledVariant, sets: int, copies: Sequence[int]) -> list[tuple[tuple[int, ...], int]]:
    """The variant's targets: (the chows' first tiles, the group's score above the plainest
    group), best first (``copies``: of each kind in the variant); [] where a hand has
    ``sets`` of at most three, or the variant no minimum (a share of it is the yardstick)."""
    if sets < TARGET_SETS + 1 or variant.scoring.minimum <= 0:
        return []
    starts = [s * 9 + r for s in range(3) for r in range(7) if all(copies[s * 9 + r + d] for d in range(3))]
    scorer = variant.scorer
    totals = []
    for group in combinations_with_replacement(starts, TARGET_SETS):
        counts = [0] * 34
        for c in group:
            for k in (c, c + 1, c + 2):
                counts[k] += 1
        lowest = None
        for filler, pair in _FILLERS:
            whole = list(counts)
            for k in filler + pair:
                whole[k] += 1
            if any(whole[k] > copies[k] for k in range(34)):
                continue
            concealed = [k for k in range(34) for _ in range(whole[k])]
            concealed.remove(group[0])
            hand = Hand(tuple(concealed), (), group[0], (), self_drawn=False, seat_wind=27, round_wind=27,
                        missing_suit=None)
            try:
                _, total, _, _, _ = scorer.evaluate_hand(hand)
            except HandError:
                continue
            lowest = total if lowest is None else min(lowest, total)
        if lowest is not None:
            totals.append((group, lowest))
    if not totals:
        return []
    plain = min(t for _, t in totals)
    need = TARGET_SHARE * variant.scoring.minimum
    kept = [(g, t - plain) for g, t in totals if t - plain >= need]
    kept.sort(key=lambda x: (-x[1], x[0]))
    return kept


class TargetCounter:
    """Shanten toward a target: its missing tiles plus the rest's shanten (the target's
    sets counted as made), the tiles held given to the target first."""

    def __init__(self, base: Evaluator, target: Sequence[int], sets: int) -> None:
        self.base = base
        self.target = tuple(target)
        self.sets = sets
        self.kinds = [k for k in range(34) if target[k]]

    def _split(self, counts: Sequence[int]) -> tuple[list[int], int]:
        rest = list(counts)
        miss = 0
        for k in self.kinds:
            want = self.target[k]
            have = rest[k]
            if have >= want:
                rest[k] = have - want
            else:
                rest[k] = 0
                miss += want - have
        return rest, miss

    def shanten(self, counts: Sequence[int], melds: int) -> int:
        rest, miss = self._split(counts)
        value = self.base.shanten(rest, melds + self.sets)
        return NEVER if value >= NEVER else value + miss

    def values(self, counts: list[int], melds: int, kinds: Sequence[int]) -> list[int]:
        out = []
        for k in kinds:
            counts[k] -= 1
            out.append(self.shanten(counts, melds))
            counts[k] += 1
        return out

    def draws(self, counts: list[int], melds: int) -> list[int]:
        rest, miss = self._split(counts)
        now = self.base.shanten(rest, melds + self.sets)
        if now >= NEVER:
            return [NEVER] * 34
        after = self.base.draws(rest, melds + self.sets)
        out = []
        for k in range(34):
            if counts[k] >= 4:
                out.append(NEVER)
            elif self.target[k] > counts[k]:
                out.append(now + miss - 1)
            else:
                out.append(after[k] + miss if after[k] < NEVER else NEVER)
        return out

    def useful_after(self, counts: list[int], melds: int, kinds: Sequence[int],
                     values: Sequence[int]) -> list[int]:
        out = []
        for k, target in zip(kinds, values):
            counts[k] -= 1
            after = self.draws(counts, melds)
            counts[k] += 1
            mask = 0
            for u, v in enumerate(after):
                if v < target:
                    mask |= 1 << u
            out.append(mask)
        return out


def _wanted(chows: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The tiles of ``chows`` (their first tiles): (kind, copies) pairs."""
    want: dict[int, int] = {}
    for c in chows:
        for k in (c, c + 1, c + 2):
            want[k] = want.get(k, 0) + 1
    return tuple(sorted(want.items()))


def target_masks(targets: list[tuple[tuple[int, ...], int]]) -> list[int]:
    """Each target's kinds as a 34-bit mask (a quick bound on how far a hand is from it)."""
    return [sum(1 << k for k, _ in _wanted(group)) for group, _ in targets]


def target_plans(base: Plan, targets: list[tuple[tuple[int, ...], int]], masks: list[int], counts: Sequence[int],
                 melds: tuple[Meld, ...], unseen: Sequence[int], most: int, reach: int) -> list[Plan]:
    """Plans toward the targets nearest the hand (at most ``most``, none more than ``reach``
    tiles away, every missing tile still unseen), from the plan of every kind ``base``
    (``masks``: :func:`target_masks`); a declared chow of the target counts as made, one
    outside it must fit the rest."""
    if not targets or not base.chows:
        return []
    declared = [m.tiles[0] for m in melds if m.kind == "chow"]
    room = base.most_melds - TARGET_SETS
    # Each kind of a target the hand lacks is a tile to draw, but for a declared chow's.
    lacking = sum(1 << k for k in range(34) if not counts[k])
    for c in declared:
        lacking &= ~(0b111 << c)
    near = []
    for i in [i for i, m in enumerate(masks) if (m & lacking).bit_count() <= reach]:
        group, score = targets[i]
        if not base.mask >> group[0] & 1:
            continue
        left = group
        if declared:
            rest = list(group)
            for c in declared:
                if c in rest:
                    rest.remove(c)
            left = tuple(rest)
        if len(melds) - (len(group) - len(left)) > room:
            continue
        want = _WANTED.get(left)
        if want is None:
            want = _WANTED[left] = _wanted(left)
        miss = 0
        for k, n in want:
            short = n - counts[k]
            if short > 0:
                if unseen[k] < short:
                    miss = reach + 1
                    break
                miss += short
                if miss > reach:
                    break
        if miss <= reach:
            near.append((miss, -score, group, want, len(left)))
    near.sort()
    out = []
    for _, _, group, want, sets in near[:most]:
        if any(not base.mask >> k & 1 for k, _ in want):
            continue
        tiles = [0] * 34
        for k, n in want:
            tiles[k] = n
        name = "target " + "-".join(CODES[c] for c in group)
        counter = TargetCounter(base.counter, tiles, sets)  # type: ignore[arg-type]
        out.append(replace(base, name=name, counter=counter, target=tuple(tiles), target_sets=sets))
    return out


#: Each group of chows' tiles, worked out once (there are at most a few thousand groups).
_WANTED: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
