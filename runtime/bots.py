"""Computer players: the baseline bot (legal, greedy toward a win), a random player, and
the kinds a ``--players`` list names (:func:`make_controller`: the AI levels are
runtime/ai's :class:`~runtime.ai.AIPlayer`).

The baseline bot always wins when it can, keeps the discard that leaves the lowest shanten
(ties: the least connected tile), claims or declares a kong only when that does not move
it away from ready, and picks as missing suit the suit it holds fewest of. Where the
variant has a minimum (a win must be worth something), it steers toward value at no
extra cost: equally good discards give up the least-held suits first (toward one suit
and honors), and it does not chow (a pung or kong still, when it helps). It reads only
its own hand, its own melds and the options it is given. It counts the shanten of its hand
with the hand analysis's :class:`~runtime.analysis.Evaluator`, over every shape but the
knitted ones. It is the reference the AI levels are measured against (bench/bench_ai.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from cardavia.compiler.model.tiles import SUITS

from .actions import Action, Decision
from .analysis import Evaluator
from .exchange import baseline as baseline_exchange
from .shanten import SUIT_OF, WEIGHT, standard_shanten_keys, suit_keys

if TYPE_CHECKING:
    from .controllers import Controller
    from .deal import Deal

_WIN = Action("win")

KINDS = ("baseline", "random", "ai", "ai:easy", "ai:normal", "ai:strong")
#: The AI level each ``ai`` kind plays (``ai`` is the normal level).
AI_LEVELS = {"ai": "normal", "ai:easy": "easy", "ai:normal": "normal", "ai:strong": "strong"}


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
            # Knitted shapes are left out: their tiles lie scattered over three suits, and a
            # greedy bot steering toward them would give up ordinary hands for rare ones.
            ev = self._evaluators[key] = Evaluator([s for s in deal.shapes if not s.parts().knitted])
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
        if decision.kind == "exchange":  # the tiles to pass on before play (runtime/exchange.py)
            return baseline_exchange(deal.counts[decision.seat], decision)
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
    """A controller for a ``--players`` kind: ``baseline``, ``random``, or an AI level."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "baseline":
        return BaselineBot(seed)
    level = AI_LEVELS.get(kind)
    if level is not None:
        from .ai import AIPlayer

        return AIPlayer(level, seed)
    raise ValueError(f"unknown player kind {kind!r}: expected one of {', '.join(KINDS)}")
