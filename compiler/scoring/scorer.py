"""Scoring a hand with a compiled variant.

Pipeline: validate the hand against the variant's tile set -> every arrangement of
every declared shape -> the variant's ``valid_when`` conditions -> the pattern table
on each arrangement (facts of the whole hand computed once and shared) -> keep the
best (a limit hand first, then the highest total before the cap; a tie goes to an
arrangement scoring a pattern of ``principles.prefer``, else to the first found: shapes
in file order, see compiler/shapes/arrangements.py) -> minimum and cap.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..language.compiled import Compiled
from ..language.passes import reads_length_only
from ..model.hand import MAX_COPIES, Hand, HandError, tile_count_error
from ..model.tiles import CODES, NUM_KINDS, is_bonus
from ..records import Record
from ..shapes.arrangements import Arrangement, completes
from ..shapes.base import Shape
from .context import HandContext
from .patterns import Evaluation, Fan, PatternTable


class Scoring(Record):
    """``scoring`` of a variant file, compiled: what a :class:`Scorer` needs."""

    unit: str
    minimum: int
    cap: int | None
    shapes: tuple[Shape, ...]
    valid_when: list[tuple[Compiled, str]]
    definitions: dict[str, str]
    table: PatternTable
    principles: dict[str, Any]

    def __init__(self, unit: str, minimum: int, cap: int | None, shapes: tuple[Shape, ...],
                 valid_when: list[tuple[Compiled, str]], definitions: dict[str, str], table: PatternTable,
                 principles: dict[str, Any]) -> None:
        self.unit = unit
        self.minimum = minimum
        self.cap = cap
        self.shapes = shapes
        self.valid_when = valid_when
        self.definitions = definitions
        self.table = table
        self.principles = principles

    def reads_length_only(self, fact: str) -> bool:
        """Whether every expression that scores a hand (each pattern's condition, count and
        value, each ``valid_when``) reads the list fact ``fact`` only as its length: which
        items the list holds, as many, changes no score (the flowers in a table that pays
        each the same)."""
        exprs = [e for p in self.table.patterns for e in (p.when, p.count, p.value) if isinstance(e, Compiled)]
        exprs.extend(c for c, _ in self.valid_when)
        return all(reads_length_only(e.node, fact) for e in exprs)


class ScoreResult(Record):
    valid: bool
    total: int
    fans: list[Fan]
    uncapped: int
    minimum_points: int
    arrangement: str | None
    shape: str | None
    reason: str | None

    def __init__(self, valid: bool, total: int, fans: list[Fan] | None = None, uncapped: int = 0,
                 minimum_points: int = 0, arrangement: str | None = None, shape: str | None = None,
                 reason: str | None = None) -> None:
        self.valid = valid
        self.total = total
        self.fans = fans if fans is not None else []
        self.uncapped = uncapped
        self.minimum_points = minimum_points
        self.arrangement = arrangement
        self.shape = shape
        self.reason = reason

    def as_json(self) -> dict[str, Any]:
        return {"valid": self.valid, "total": self.total, "fans": [f.as_json() for f in self.fans]}


class Scorer:
    """Scores hands for one compiled variant."""

    def __init__(self, scoring: Scoring, playable: frozenset[int], has_bonus: bool, copies: list[int],
                 hand_size: int) -> None:
        self.scoring = scoring
        #: The tiles of a complete hand (the table's), winning tile included, a declared set counted three.
        self.hand_size = hand_size
        self.table = scoring.table
        self.shapes = scoring.shapes
        self.playable = playable
        self.has_bonus = has_bonus
        self.copies = copies
        self.table.configure(scoring.principles)
        self._scorers = self.table.scorers  # shape -> its generated scorer, filled on first use
        self._unplayable = ~sum(1 << k for k in playable)
        counted = {copies[k] for k in playable}
        # One number of copies for every playable kind: the tile check is one addition on
        # the context's _tiles_key (8 bits per kind): adding 127 - copies to every byte
        # sets its top bit exactly where there are more copies. Otherwise every bit: the
        # key of a hand is never 0 (the winning tile), so the full check runs.
        uniform = counted.pop() if len(counted) == 1 else None
        ones = sum(1 << 8 * k for k in range(len(copies) + 1))
        if uniform is not None and 0 <= uniform <= 127:
            self._over_add, self._over_bits = (127 - uniform) * ones, 0x80 * ones
        else:
            self._over_add, self._over_bits = 0, -1
        # A hand compiler.model.hand.checked_hand built (its context keeps _copies) holds playable
        # kinds only, at most four copies of each: where the variant has every playable kind
        # four times or more, neither test can fail for it.
        self._checked_hands_pass = (uniform is not None and uniform >= MAX_COPIES
                                    and all(k in playable for k in range(NUM_KINDS) if not is_bonus(k)))
        # The shapes worth asking for arrangements, by the number of declared sets and of kinds
        # among the concealed tiles (the bounds outside which each finds nothing): one look-up.
        self._matchers = [(s.arrange, *s.bounds()) for s in self.shapes]
        most_melds = min(max(bounds[1] for bounds in self._matchers), hand_size // 3)
        self._candidates = [[self._worth_calling(melds, kinds) for kinds in range(len(copies) + 1)]
                            for melds in range(most_melds + 1)]

    def _worth_calling(self, melds: int, kinds: int) -> tuple[Any, ...]:
        """The shapes' ``arrange`` methods that may find an arrangement of a hand with ``melds``
        declared sets and ``kinds`` kinds among its concealed tiles, in shape order."""
        return tuple(arrange for arrange, most_melds, fewest, most in self._matchers
                     if melds <= most_melds and fewest <= kinds <= most)

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
        valid, total, ev, arr, reason = self.evaluate_hand(hand)
        if ev is None or arr is None:
            return ScoreResult(False, 0, reason=reason)
        return ScoreResult(valid, total, ev.fans, ev.total, ev.minimum_points, arr.describe(), arr.shape, reason)

    def evaluate_hand(self, hand: Hand) -> tuple[bool, int, Evaluation | None, Arrangement | None, str | None]:
        """(valid, total after the cap, the best arrangement's evaluation, that arrangement,
        why the hand is not valid): :meth:`score` without building its result object.
        The evaluation is None when the hand does not win; a hand of the wrong number of tiles
        is a :class:`HandError`."""
        if len(hand.concealed) + 1 + 3 * len(hand.melds) != self.hand_size:
            raise tile_count_error(self.hand_size, len(hand.melds), len(hand.concealed))
        return self.evaluate_facts(HandContext(hand, None, self.shapes))

    def evaluate_facts(self, facts: HandContext) -> tuple[bool, int, Evaluation | None, Arrangement | None,
                                                          str | None]:
        """:meth:`evaluate_hand` for the facts of a hand (compiler/scoring/context.py ``hand_facts``,
        which a request can be read into without making a Hand): they stand for the hand, and
        their number of tiles is the variant's (as the readers given ``size`` check).
        Facts first evaluated with other shapes forget what they worked out with those."""
        shapes = self.shapes
        if facts._shapes is not shapes:
            facts._shapes = shapes
            facts._wait_mask = -1
            facts.__dict__.clear()  # the facts made on demand (the waits among them)
        if (((facts._copies is None or not self._checked_hands_pass)
                and (facts._tiles_mask & self._unplayable or (facts._tiles_key + self._over_add) & self._over_bits))
                or (facts.flowers and not self.has_bonus)):
            self.check_tiles(facts.hand)  # the message names the first offending tile
        melds = len(facts.melds)
        kinds = facts._concealed_mask.bit_count()
        try:
            candidates = self._candidates[melds][kinds]
        except IndexError:  # more declared sets than any shape allows
            candidates = self._worth_calling(melds, kinds)
        if len(candidates) == 1:
            arrs = candidates[0](facts, facts)  # the context holds what the matchers read
        else:
            arrs = []
            for arrange in candidates:
                arrs += arrange(facts, facts)
        if not arrs:
            return False, 0, None, None, "not a winning shape"
        scoring = self.scoring
        if len(arrs) == 1 and not scoring.valid_when:  # the common case: nothing to choose
            best_arr = arrs[0]
            facts._arrange(best_arr)  # what arrange does, without its call; then table.evaluate's look-up
            best = (self._scorers.get(best_arr.shape) or self.table.scorer(best_arr.shape))(facts)
        else:
            found, found_arr, rejected = self._best(facts, arrs)
            if found is None or found_arr is None:
                return False, 0, None, None, rejected
            best, best_arr = found, found_arr
        cap = scoring.cap
        total = min(best.total, cap) if cap is not None else best.total
        if best.minimum_points >= scoring.minimum:
            return True, total, best, best_arr, None
        reason = (f"below the minimum: {best.minimum_points} {scoring.unit} counted toward it, "
                  f"{scoring.minimum} needed")
        return False, total, best, best_arr, reason

    def _best(self, facts: HandContext,
              arrs: list[Arrangement]) -> tuple[Evaluation | None, Arrangement | None, str | None]:
        """(the best arrangement's evaluation, that arrangement, the reason of the last one
        ``valid_when`` rejected): a limit hand first, then the highest total; a tie goes to an
        arrangement scoring a preferred pattern, else to the first."""
        table = self.table
        valid_when = self.scoring.valid_when
        best: Evaluation | None = None
        best_arr: Arrangement | None = None
        best_score = (False, 0)  # (a limit hand, total) of the best so far
        rejected: str | None = None
        for arr in arrs:
            ctx = facts.arrange(arr)
            if valid_when:
                failed = next((reason for cond, reason in valid_when if not cond.fn(ctx)), None)
                if failed is not None:
                    rejected = failed
                    continue
            ev = table.evaluate(ctx)
            score = (ev.limit, ev.total)
            if best is None or score > best_score or (
                    score == best_score and table.preferred(ev) and not table.preferred(best)):
                best, best_arr, best_score = ev, arr, score
        return best, best_arr, rejected
