"""Controllers: whoever answers a seat's decisions (a person, a bot, a script).

A controller only proposes; :meth:`runtime.deal.Deal.act` checks the answer. The driver
:func:`play_deal` collects every pending decision (all answers to one discard before any
is applied) until the deal is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cardavia.compiler.model.tiles import SUITS

from .actions import Action, Decision
from .deal import Deal
from .exchange import baseline as baseline_exchange


class Controller(Protocol):
    def choose(self, deal: Deal, decision: Decision) -> Action:
        """One of ``decision.options`` (the runtime rejects anything else)."""
        ...


class DrawnTileAutoplay:
    """The ``drawn-tile`` autoplay of docs/interfaces.md: discard what was drawn, pass everything else."""

    def choose(self, deal: Deal, decision: Decision) -> Action:
        if decision.kind == "missing_suit":
            counts = deal.counts[decision.seat]
            held = [sum(counts[i * 9:(i + 1) * 9]) for i in range(3)]
            return Action("missing_suit", suit=SUITS[held.index(min(held))])
        if decision.kind == "exchange":
            return baseline_exchange(deal.counts[decision.seat], decision)
        if decision.kind != "turn":
            return Action("pass")
        discards = [o for o in decision.options if o.do == "discard"]
        drawn = decision.drawn
        if drawn is not None:
            kind = deal.kinds[drawn]
            if any(o.tile == kind for o in discards):
                return Action("discard", tile=kind, id=drawn)
        return min(discards, key=_discard_kind)


def _discard_kind(option: Action) -> int:
    """The kind a discard option names (every discard option names one)."""
    assert option.tile is not None
    return option.tile


def play_deal(deal: Deal, controllers: Sequence[Controller], on_step: Any = None) -> Deal:
    """Ask each seat's controller until the deal is over; ``on_step(deal, seat, action)`` after each answer."""
    while not deal.over:
        for decision in deal.pending():
            action = controllers[decision.seat].choose(deal, decision)
            deal.act(decision.seat, action)
            if on_step is not None:
                on_step(deal, decision.seat, action)
            if deal.over:
                break
    return deal
