"""Scoring a hand with a compiled variant.

Pipeline: validate the hand against the variant's tile set -> every arrangement of
every declared shape -> the variant's ``valid_when`` conditions -> the pattern table
on each arrangement (facts of the whole hand computed once and shared) -> keep the
best (a limit hand first, then the highest total before the cap; a tie goes to an
arrangement scoring a pattern of ``principles.prefer``, else to the first found: shapes
in file order, see compiler/arrangements.py) -> minimum and cap.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING

from .arrangements import Arrangement, arrangements, completes
from .context import HandContext
from .hand import Hand, HandError
from .patterns import Evaluation, Fan
from .tiles import CODES

if TYPE_CHECKING:  # pragma: no cover
    from .variant import Scoring


@dataclass
class ScoreResult:
    valid: bool
    total: int
    fans: list[Fan] = field(default_factory=list)
    uncapped: int = 0
    minimum_points: int = 0
    arrangement: str | None = None
    shape: str | None = None
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"valid": self.valid, "total": self.total, "fans": [f.as_json() for f in self.fans]}


class Scorer:
    """Scores hands for one compiled variant."""

    def __init__(self, scoring: "Scoring", playable: frozenset[int], has_bonus: bool, copies: list[int]) -> None:
        self.scoring = scoring
        self.table = scoring.table
        self.shapes = scoring.shapes
        self.playable = playable
        self.has_bonus = has_bonus
        self.copies = copies
        self.table.configure(scoring.principles)

    def check_tiles(self, hand: Hand) -> None:
        """Reject tiles the variant does not have, and more copies than it has."""
        copies = self.copies
        for k, n in Counter(hand.all_tiles).items():
            if k not in self.playable:
                raise HandError(f"tile {CODES[k]} is not part of this variant's tile set")
            if n > copies[k]:
                raise HandError(f"{n} copies of {CODES[k]}: this variant has {copies[k]}")
        if hand.flowers and not self.has_bonus:
            raise HandError("this variant has no flowers or seasons")

    def is_winning_shape(self, concealed_counts: list[int], melds: int) -> bool:
        return completes(concealed_counts, melds, self.shapes)

    def score(self, hand: Hand) -> ScoreResult:
        self.check_tiles(hand)
        arrs = arrangements(hand, self.shapes)
        if not arrs:
            return ScoreResult(False, 0, reason="not a winning shape")
        best: tuple[Evaluation, Arrangement] | None = None
        rejected: str | None = None
        facts = HandContext.for_hand(hand, self.shapes)
        memo: dict[int, list] = {}  # hand-level pattern results, shared by the arrangements
        for arr in arrs:
            ctx = facts.arrange(arr)
            failed = next((reason for cond, reason in self.scoring.valid_when if not cond.fn(ctx)), None)
            if failed is not None:
                rejected = failed
                continue
            ev = self.table.evaluate(ctx, memo)
            if best is None or (ev.limit, ev.total) > (best[0].limit, best[0].total):
                best = (ev, arr)
            elif ((ev.limit, ev.total) == (best[0].limit, best[0].total)
                  and self.table.preferred(ev) and not self.table.preferred(best[0])):
                best = (ev, arr)
        if best is None:
            return ScoreResult(False, 0, reason=rejected)
        ev, arr = best
        cap = self.scoring.cap
        total = min(ev.total, cap) if cap is not None else ev.total
        valid = ev.minimum_points >= self.scoring.minimum
        reason = None if valid else (
            f"below the minimum: {ev.minimum_points} {self.scoring.unit} counted toward it, {self.scoring.minimum} needed"
        )
        return ScoreResult(valid, total, ev.fans, ev.total, ev.minimum_points, arr.describe(), arr.shape, reason)
