"""Computer players: the baseline bot (legal, greedy toward a win) and a random player.

The baseline bot always wins when it can, keeps the discard that leaves the lowest shanten
(ties: the least connected tile), claims or declares a kong only when that does not move
it away from ready, and picks as missing suit the suit it holds fewest of. It reads only
its own hand, its own melds and the options it is given. Until a stronger AI exists,
the kinds ``ai``, ``ai:easy`` and ``ai:strong`` are this bot.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

from compiler.arrangements import ShapeSpec
from compiler.tiles import SUITS

from .actions import Action, Decision
from .shanten import (_KEY_TABLE, SUIT_OF, pairs_shanten, rests_of, standard_shanten_keys, suit_discards, suit_keys,
                      table_of, unique_shanten)

KINDS = ("baseline", "random", "ai", "ai:easy", "ai:strong")


class Evaluator:
    """Shanten of a hand over the variant's shapes, from the suit-key tables of :mod:`runtime.shanten`."""

    def __init__(self, shapes: Sequence[ShapeSpec]) -> None:
        self.standard = [s.sets for s in shapes if s.kind == "sets_and_pair"]
        self.pairs = [(s.sets, s.quads_as_two_pairs) for s in shapes if s.kind == "pairs"]
        self.unique = [s.tiles for s in shapes if s.kind == "unique_plus_pair"]

    def _special(self, counts: Sequence[int], melds: int) -> int:
        best = 99
        if not melds:
            for sets, quads in self.pairs:
                best = min(best, pairs_shanten(counts, sets, quads))
            for tiles in self.unique:
                best = min(best, unique_shanten(counts, tiles))
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
        """Shanten after discarding one tile of each kind in ``kinds``.

        Standard shapes first, looking up again only the suit a discard changes (its key less
        the kind's weight) against the merged table of the other suits; the special shapes only
        when their bound (a discard never lowers their shanten below the value for the whole
        hand) could still beat the best standard result.
        """
        out = {k: 99 for k in kinds}
        if self.standard:
            if keys is None:
                keys = suit_keys(counts)
            get = _KEY_TABLE.get
            tabs = [get(key) for key in keys]
            for i, t in enumerate(tabs):
                if t is None:
                    tabs[i] = table_of(keys[i])
            rests = rests_of(tabs)  # type: ignore[arg-type]
            needs = [sets - melds for sets in self.standard]
            rows: dict[int, Sequence[int]] = {}
            for k in kinds:
                suit = SUIT_OF[k]
                row = rows.get(suit)
                if row is None:
                    row = suit_discards(rests[suit], keys[suit], needs[0])
                    for need in needs[1:]:
                        row = [min(a, b) for a, b in zip(row, suit_discards(rests[suit], keys[suit], need))]
                    rows[suit] = row
                out[k] = row[k - 9 * suit]
        if melds or not (self.pairs or self.unique) or min(self._special(counts, 0), 99) > min(out.values()):
            return out
        kinds_held = sum(1 for c in counts if c)
        pair_info = [(sets, quads, sum(c // 2 if quads else c >= 2 for c in counts)) for sets, quads in self.pairs]
        unique_info = [(tiles, sum(1 for t in tiles if counts[t]), [t for t in tiles if counts[t] >= 2])
                       for tiles in self.unique]
        for k in kinds:
            best = out[k]
            c = counts[k]
            for sets, quads, pairs in pair_info:
                after = pairs - (1 if (c % 2 == 0 if quads else c == 2) else 0)
                held = kinds_held - (c == 1)
                value = sets - 1 - after + (0 if quads else max(0, sets - held))
                best = min(best, value)
            for tiles, present, doubled in unique_info:
                inside = k in tiles
                p_after = present - (1 if inside and c == 1 else 0)
                has_pair = len(doubled) > 1 or (len(doubled) == 1 and (doubled[0] != k or c > 2))
                best = min(best, len(tiles) - p_after - (1 if has_pair else 0))
            out[k] = best
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

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self._evaluators: dict[int, Evaluator] = {}

    def _eval(self, deal: Any) -> Evaluator:
        key = id(deal.shapes)
        ev = self._evaluators.get(key)
        if ev is None:
            ev = self._evaluators[key] = Evaluator(deal.shapes)
        return ev

    @staticmethod
    def _steers(deal: Any) -> bool:
        """Whether the variant's minimum asks for patterns (then discards lean toward one suit)."""
        return bool(getattr(deal.variant.scoring, "minimum", 0))

    def choose(self, deal: Any, decision: Decision) -> Action:
        options = decision.options
        if decision.kind == "missing_suit":
            counts = deal.counts[decision.seat]
            held = [sum(counts[i * 9:(i + 1) * 9]) for i in range(3)]
            return Action("missing_suit", suit=SUITS[held.index(min(held))])
        if any(o.do == "win" for o in options):
            return Action("win")
        if decision.kind == "turn":
            return self._turn(deal, decision)
        if decision.kind == "claim":
            return self._claim(deal, decision)
        return Action("pass")

    def _best_discard(self, ev: Evaluator, counts: list[int], melds: int, kinds: Sequence[int],
                      keys: Sequence[int] | None = None, steer: bool = False) -> tuple[int, int]:
        scores = ev.discards(counts, melds, kinds, keys)
        best = min(scores.values())
        tied = [k for k in kinds if scores[k] == best]
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

    def _turn(self, deal: Any, decision: Decision) -> Action:
        seat = decision.seat
        ev = self._eval(deal)
        counts = deal.counts[seat]
        melds = len(deal.melds[seat])
        kinds = [o.tile for o in decision.options if o.do == "discard"]
        keys = deal.keys[seat] if hasattr(deal, "keys") else None
        best, kind = self._best_discard(ev, counts, melds, kinds, keys,  # type: ignore[arg-type]
                                        self._steers(deal))
        for o in decision.options:
            if o.do != "kong":
                continue
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

    def _claim(self, deal: Any, decision: Decision) -> Action:
        seat = decision.seat
        ev = self._eval(deal)
        counts = deal.counts[seat]
        melds = len(deal.melds[seat])
        kind = decision.tile
        assert kind is not None
        now = ev.shanten(counts, melds, deal.keys[seat] if hasattr(deal, "keys") else None)
        choice = Action("pass")
        for o in decision.options:
            if o.do in ("pung", "kong"):
                used = [kind] * (2 if o.do == "pung" else 3)
            elif o.do == "chow":
                used = list(o.tiles)
            else:
                continue
            for k in used:
                counts[k] -= 1
            if o.do == "kong":
                after = ev.shanten(counts, melds + 1)
                good = after <= now
            else:
                kinds = [k for k in range(34) if counts[k]]
                after = min(ev.discards(counts, melds + 1, kinds).values()) if kinds else 99
                good = after < now
            for k in used:
                counts[k] += 1
            if good:
                return o
        return choice


class RandomBot:
    """Uniform among the legal options (a floor to compare the baseline with)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, deal: Any, decision: Decision) -> Action:
        return self.rng.choice(decision.options)


def make_controller(kind: str, seed: int) -> Any:
    """A controller for a ``--players`` kind; the AI levels are the baseline bot for now."""
    if kind == "random":
        return RandomBot(seed)
    if kind in KINDS:
        return BaselineBot(seed)
    raise ValueError(f"unknown player kind {kind!r}: expected one of {', '.join(KINDS)}")
