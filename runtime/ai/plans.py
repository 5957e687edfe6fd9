"""Plans: the ways a hand may head for a win, each with its own speed and value.

A plan keeps some tile kinds and one way of making them a winning shape:

* ``all``: every kind, the variant's shapes of sets and a pair;
* one suit, with the honors and without (a hand of one suit and honors, of one suit alone);
* ``pungs``: sets and a pair made of pungs only;
* each other declared shape (pairs, thirteen different tiles...) alone;
* made for each hand: one toward each group of chows the pattern table pays for that the
  hand is near (targets.py).

Nothing here knows what a plan is worth: that is the variant's pattern table, asked about
the plan's candidate completions (hands.py). A plan only says which tiles to keep and how
to count its shanten and useful tiles: the hand analysis's :class:`~runtime.analysis.Evaluator`
for shapes of sets and a pair and for the other shapes, and :class:`PungsOnly`, a closed
form, for pungs. A tile outside a plan is one it gives up; a declared set outside it (a chow
for ``pungs``) ends it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from cardavia.compiler.model.hand import Meld
from cardavia.compiler.model.tiles import SUITS

from ..analysis import NEVER, Evaluator

if TYPE_CHECKING:
    from cardavia.compiler.shapes.base import Shape

_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


class Counter(Protocol):
    """What a plan asks of its shanten counter (the analysis's Evaluator answers it)."""

    def shanten(self, counts: Sequence[int], melds: int) -> int: ...

    def values(self, counts: list[int], melds: int, kinds: Sequence[int]) -> list[int]: ...

    def useful_after(self, counts: list[int], melds: int, kinds: Sequence[int],
                     values: Sequence[int]) -> list[int]: ...

    def draws(self, counts: list[int], melds: int) -> list[int]: ...


class PungsOnly:
    """Shanten of sets-and-a-pair hands made of pungs only, a closed form: each kind held
    three times is a pung, each held twice a pair (the eyes or a pung to be), and the
    shanten is ``2 * sets`` less two a pung and one a pair, pungs and pairs capped at what
    the shape holds."""

    def __init__(self, sets: int) -> None:
        self.sets = sets

    def _value(self, pungs: int, pairs: int, melds: int) -> int:
        need = self.sets - melds
        if need < 0:
            return NEVER
        m = min(pungs, need)
        return 2 * need - 2 * m - min(pairs + pungs - m, need - m + 1)

    @staticmethod
    def _count(counts: Sequence[int]) -> tuple[int, int]:
        pungs = pairs = 0
        for c in counts[:34]:
            if c >= 3:
                pungs += 1
            elif c == 2:
                pairs += 1
        return pungs, pairs

    def shanten(self, counts: Sequence[int], melds: int) -> int:
        pungs, pairs = self._count(counts)
        return self._value(pungs, pairs, melds)

    def values(self, counts: list[int], melds: int, kinds: Sequence[int]) -> list[int]:
        pungs, pairs = self._count(counts)
        out = []
        for k in kinds:
            c = counts[k]
            if c == 3:
                out.append(self._value(pungs - 1, pairs + 1, melds))
            elif c == 2:
                out.append(self._value(pungs, pairs - 1, melds))
            else:
                out.append(self._value(pungs, pairs, melds))
        return out

    def _draw_mask(self, pungs: int, pairs: int, counts: Sequence[int], melds: int, target: int) -> int:
        mask = 0
        gain_pair = self._value(pungs, pairs + 1, melds) < target
        gain_pung = self._value(pungs + 1, pairs - 1, melds) < target
        for k in range(34):
            c = counts[k]
            if (c == 1 and gain_pair) or (c == 2 and gain_pung):
                mask |= 1 << k
        return mask

    def useful_after(self, counts: list[int], melds: int, kinds: Sequence[int],
                     values: Sequence[int]) -> list[int]:
        pungs, pairs = self._count(counts)
        out = []
        for k, target in zip(kinds, values):
            c = counts[k]
            p, q = (pungs - 1, pairs + 1) if c == 3 else (pungs, pairs - 1) if c == 2 else (pungs, pairs)
            counts[k] -= 1
            out.append(self._draw_mask(p, q, counts, melds, target))
            counts[k] += 1
        return out

    def draws(self, counts: list[int], melds: int) -> list[int]:
        pungs, pairs = self._count(counts)
        now = self._value(pungs, pairs, melds)
        out = [now] * 34
        for k in range(34):
            c = counts[k]
            if c == 1:
                out[k] = self._value(pungs, pairs + 1, melds)
            elif c == 2:
                out[k] = self._value(pungs + 1, pairs - 1, melds)
            elif c >= 4:
                out[k] = NEVER
        return out


@dataclass(slots=True, frozen=True)
class Plan:
    """One way to head for a win: the kinds kept, how its shanten is counted, the shapes its
    completions take (``chows``: sets may be chows)."""

    name: str
    mask: int  # the kinds kept, bit k for kind k
    suits: tuple[bool, bool, bool, bool]  # the suits (m, p, s, honors) kept
    counter: Counter
    shapes: tuple[Shape, ...]
    chows: bool
    claims: bool  # the plan takes claimed sets freely (sets and a pair)
    most_melds: int = 4  # the declared sets its shapes allow
    target: tuple[int, ...] = ()  # a target's tiles still to hold (targets.py), () for none
    target_sets: int = 0  # the sets those tiles make

    def keeps(self, melds: Sequence[Meld]) -> bool:
        """Whether the declared sets fit the plan (pungs only: no chow declared)."""
        if not self.shapes or len(melds) > self.most_melds:
            return False
        if not self.chows and any(m.kind == "chow" for m in melds):
            return False
        return all(self.mask >> m.tiles[0] & 1 for m in melds)

    def restrict(self, counts: Sequence[int]) -> list[int]:
        mask = self.mask
        return [c if mask >> k & 1 else 0 for k, c in enumerate(counts)]


def _mask(suits: Sequence[bool]) -> int:
    out = 0
    for i, (lo, hi) in enumerate(_SPANS):
        if suits[i]:
            for k in range(lo, hi):
                out |= 1 << k
    return out


def make_plans(shapes: Sequence[Shape], have: Sequence[bool], missing: int | None) -> list[Plan]:
    """The plans of a variant whose shapes are ``shapes`` and whose tiles fill the suits
    ``have`` (m, p, s, honors), for a player whose missing suit is ``missing`` (0-2)."""
    kept = tuple(h and i != missing for i, h in enumerate(have))
    standard = tuple(s for s in shapes if s.standard_sets is not None)
    out: list[Plan] = []
    if standard:
        counter = Evaluator(standard)
        out.append(Plan("all", _mask(kept), kept, counter, standard, True, True))  # type: ignore[arg-type]
        suited = [i for i in range(3) if kept[i]]
        if len(suited) > 1 or kept[3]:
            for i in suited:
                one = tuple(j == i for j in range(4))
                out.append(Plan(f"{SUITS[i]} only", _mask(one), one, counter, standard, True, True))  # type: ignore[arg-type]
                if kept[3]:
                    both = tuple(j in (i, 3) for j in range(4))
                    out.append(Plan(f"{SUITS[i]} and honors", _mask(both), both, counter, standard,  # type: ignore[arg-type]
                                    True, True))
        sets = standard[0].standard_sets
        assert sets is not None
        out.append(Plan("pungs", _mask(kept), kept, PungsOnly(sets), standard, False, True))  # type: ignore[arg-type]
    for shape in shapes:
        if shape.standard_sets is None:
            out.append(Plan(shape.id, _mask(kept), kept, Evaluator((shape,)), (shape,), True,  # type: ignore[arg-type]
                            False, shape.parts().max_melds))
    return out
