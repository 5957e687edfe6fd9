"""Computer players: the baseline bot (legal, greedy toward a win) and a random player.

The baseline bot always wins when it can, keeps the discard that leaves the lowest shanten
(ties: the least connected tile), claims or declares a kong only when that does not move
it away from ready, and picks as missing suit the suit it holds fewest of. Where the
variant has a minimum (a win must be worth something), it steers toward value at no
extra cost: equally good discards give up the least-held suits first (toward one suit
and honors), and it does not chow (a pung or kong still, when it helps). It reads only
its own hand, its own melds and the options it is given. Until a stronger AI exists,
the kinds ``ai``, ``ai:easy`` and ``ai:strong`` are this bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.tiles import SUITS
from cardavia.compiler.shapes.base import Shape

from .actions import Action, Decision
from .shanten import (
    _DROPS,
    _EVAL_IDS,
    _KEY_TABLE,
    SUIT_OF,
    WEIGHT,
    eval_ids,
    rests_of,
    standard_shanten,
    standard_shanten_keys,
    suit_drops,
    suit_keys,
    table_of,
)

if TYPE_CHECKING:
    from .controllers import Controller
    from .deal import Deal

_WIN = Action("win")

KINDS = ("baseline", "random", "ai", "ai:easy", "ai:strong")


class Evaluator:
    """Shanten of a hand over the variant's shapes: shapes of sets and a pair from the suit-key
    tables of :mod:`runtime.shanten`, the others as each counts itself (``Shape.shanten``)."""

    def __init__(self, shapes: Sequence[Shape]) -> None:
        self.standard = [s.standard_sets for s in shapes if s.standard_sets is not None]
        self.special = [s for s in shapes if s.standard_sets is None]

    def _special(self, counts: Sequence[int], melds: int) -> int:
        best = 99
        for shape in self.special:
            value = shape.shanten(counts, melds, standard_shanten)
            if value is not None and value < best:
                best = value
        return best

    def shanten(self, counts: Sequence[int], melds: int, keys: Sequence[int] | None = None) -> int:
        best = self._special(counts, melds)
        if self.standard:
            if keys is None:
                keys = suit_keys(counts)
            for sets in self.standard:
                value = standard_shanten_keys(keys, sets - melds)
                if value < best:
                    best = value
        return best

    def discards(self, counts: list[int], melds: int, kinds: Sequence[int],
                 keys: Sequence[int] | None = None) -> dict[int, int]:
        """Shanten after discarding one tile of each kind in ``kinds`` (see :meth:`values`)."""
        return dict(zip(kinds, self.values(counts, melds, kinds, keys)))

    def values(self, counts: list[int], melds: int, kinds: Sequence[int],
               keys: Sequence[int] | None = None) -> list[int]:
        """Shanten after discarding one tile of each kind in ``kinds``, in that order.

        Standard shapes first: per suit, one cached row (the shanten after discarding each
        offset of that suit, against the merged table of the other suits); the other shapes
        only when their bound (a discard never lowers their shanten below the value for the
        whole hand) could still beat the best standard result, each from its own closed
        form (``Shape.discard_shanten``).
        """
        out = [99] * len(kinds)
        if self.standard:
            if keys is None:
                keys = suit_keys(counts)
            get = _KEY_TABLE.get
            t0, t1, t2, t3 = get(keys[0]), get(keys[1]), get(keys[2]), get(keys[3])
            if t0 is None or t1 is None or t2 is None or t3 is None:
                t0, t1, t2, t3 = (table_of(key) for key in keys)
            rests = rests_of((t0, t1, t2, t3))
            drops: list[Any] = [None, None, None, None]
            evals = _EVAL_IDS
            needs = [sets - melds for sets in self.standard]
            for i, k in enumerate(kinds):
                suit = SUIT_OF[k]
                row = drops[suit]
                if row is None:
                    row = drops[suit] = _DROPS.get(keys[suit]) or suit_drops(keys[suit])
                new = row[k - 9 * suit]
                rest = rests[suit]
                best = 99
                for need in needs:
                    value = evals.get((rest << 16 | new) << 3 | need)
                    if value is None:
                        value = eval_ids(rest, new, need)
                    if value < best:
                        best = value
                out[i] = best
        if melds or not self.special or self._special(counts, 0) > min(out, default=99):
            return out
        for shape in self.special:
            row = shape.discard_shanten(counts, kinds)
            if row is not None:
                out = [a if a < b else b for a, b in zip(out, row)]
        return out


def _connection(counts: Sequence[int], k: int) -> int:
    """How useful tile ``k`` looks: copies and neighbours (suited tiles only have neighbours)."""
    score = 4 * counts[k]
    if k < 27:
        r = k % 9
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= r + d <= 8:
                score += w * counts[k + d]
        if r in (0, 8):
            score -= 1
    return score


class BaselineBot:
    """Greedy toward a win; deterministic for a given seed (the seed only breaks exact ties)."""

    #: Reject a pung or chow from a lower bound before evaluating it (the choice is the same).
    claim_bound = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._evaluators: dict[int, Evaluator] = {}

    def _eval(self, deal: Deal) -> Evaluator:
        key = id(deal.shapes)
        ev = self._evaluators.get(key)
        if ev is None:
            ev = self._evaluators[key] = Evaluator(deal.shapes)
        return ev

    @staticmethod
    def _steers(deal: Deal) -> bool:
        """Whether the variant's minimum asks for patterns (then discards lean toward one suit)."""
        return bool(getattr(deal.variant.scoring, "minimum", 0))

    def choose(self, deal: Deal, decision: Decision) -> Action:
        options = decision.options
        if decision.kind == "missing_suit":
            counts = deal.counts[decision.seat]
            held = [sum(counts[i * 9:(i + 1) * 9]) for i in range(3)]
            return Action("missing_suit", suit=SUITS[held.index(min(held))])
        for o in options:
            if o.do == "win":
                return _WIN
        if decision.kind == "turn":
            return self._turn(deal, decision)
        if decision.kind == "claim":
            return self._claim(deal, decision)
        return Action("pass")

    def _best_discard(self, ev: Evaluator, counts: list[int], melds: int, kinds: Sequence[int],
                      keys: Sequence[int] | None = None, steer: bool = False) -> tuple[int, int]:
        values = ev.values(counts, melds, kinds, keys)
        best = min(values)
        tied = [k for k, v in zip(kinds, values) if v == best]
        if len(tied) > 1 and steer:
            # The variant has a minimum: among equally good discards, give up the suits held least
            # first (toward one suit and honors, the usual way to reach a minimum), keeping honors.
            held = [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]
            main = held.index(max(held))
            ranks = [held[k // 9] if k < 27 and k // 9 != main else 99 for k in tied]
            low = min(ranks)
            tied = [k for k, r in zip(tied, ranks) if r == low]
        if len(tied) > 1:
            links = [_connection(counts, k) for k in tied]
            low = min(links)
            tied = [k for k, c in zip(tied, links) if c == low]
        return best, tied[0] if len(tied) == 1 else self.rng.choice(tied)

    def _turn(self, deal: Deal, decision: Decision) -> Action:
        seat = decision.seat
        ev = self._eval(deal)
        counts = deal.counts[seat]
        melds = len(deal.melds[seat])
        kinds = []
        kongs = []
        for o in decision.options:
            if o.do == "discard":
                kinds.append(o.tile)
            elif o.do == "kong":
                kongs.append(o)
        keys = deal.keys[seat] if hasattr(deal, "keys") else None
        # kinds is list[int | None] to mypy: Action.tile is None only for options that are not
        # discards or kongs, and this hot loop does not test every option for it.
        best, kind = self._best_discard(ev, counts, melds, kinds, keys,  # type: ignore[arg-type]
                                        self._steers(deal))
        for o in kongs:
            k = o.tile
            assert k is not None
            if counts[k] == 4:
                counts[k] -= 4
                after = ev.shanten(counts, melds + 1)
                counts[k] += 4
            else:
                counts[k] -= 1
                after = ev.shanten(counts, melds)
                counts[k] += 1
            if after <= best:
                return o
        drawn = decision.drawn
        if drawn is not None and deal.kinds[drawn] == kind:
            return Action("discard", tile=kind, id=drawn)
        return Action("discard", tile=kind)

    def _claim(self, deal: Deal, decision: Decision) -> Action:
        seat = decision.seat
        ev = self._eval(deal)
        counts = deal.counts[seat]
        melds = len(deal.melds[seat])
        kind = decision.tile
        assert kind is not None
        choice = Action("pass")
        steer = self._steers(deal)
        if steer and not any(o.do in ("pung", "kong") for o in decision.options):
            return choice  # only chows on offer, and a chow adds no value toward a minimum
        keys = list(deal.keys[seat]) if hasattr(deal, "keys") else suit_keys(counts)
        now = ev.shanten(counts, melds, keys)
        if self.claim_bound and ev.standard and not any(o.do == "kong" for o in decision.options):
            # A pung or chow is the claimed tile plus one fixed way of using it: never better than
            # drawing it, and the standard shanten of the hand with it bounds that from below.
            suit = SUIT_OF[kind]
            keys[suit] += WEIGHT[kind]
            bound = min(standard_shanten_keys(keys, sets - melds) for sets in ev.standard)
            keys[suit] -= WEIGHT[kind]
            if bound >= now:
                return choice
        for o in decision.options:
            if o.do in ("pung", "kong"):
                used = [kind] * (2 if o.do == "pung" else 3)
            elif o.do == "chow" and not steer:
                used = list(o.tiles)
            else:
                continue
            for k in used:
                counts[k] -= 1
                keys[SUIT_OF[k]] -= WEIGHT[k]
            if o.do == "kong":
                after = ev.shanten(counts, melds + 1, keys)
                good = after <= now
            else:
                kinds = [k for k in range(34) if counts[k]]
                after = min(ev.values(counts, melds + 1, kinds, keys)) if kinds else 99
                good = after < now
            for k in used:
                counts[k] += 1
                keys[SUIT_OF[k]] += WEIGHT[k]
            if good:
                return o
        return choice


class RandomBot:
    """Uniform among the legal options (a floor to compare the baseline with)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, deal: Deal, decision: Decision) -> Action:
        return self.rng.choice(decision.options)


def make_controller(kind: str, seed: int) -> Controller:
    """A controller for a ``--players`` kind; the AI levels are the baseline bot for now."""
    if kind == "random":
        return RandomBot(seed)
    if kind in KINDS:
        return BaselineBot(seed)
    raise ValueError(f"unknown player kind {kind!r}: expected one of {', '.join(KINDS)}")
