"""The exchange of tiles before play (``play.exchange``, e.g. Sichuan's 换三张).

Every player chooses at once which tiles to pass on; the deal then moves them all
together. What is legal, where the tiles go, and a sound default choice for computer
players are here; :class:`runtime.deal.Deal` runs the phase.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement
from typing import Any

from .actions import Action, Decision

#: How many seats on the tiles go, in turn order, for each direction (of four players).
STEPS = {"next": 1, "across": 2, "previous": -1}


def dice_of(wall: Sequence[int]) -> tuple[int, int]:
    """The two dice of a deal, read from the wall (its last two physical ids), so that a deal
    stays fully determined by its wall: each die is ``id % 6 + 1``."""
    return wall[-1] % 6 + 1, wall[-2] % 6 + 1


def direction_of(exchange: Mapping[str, Any], wall: Sequence[int]) -> str:
    """``next``, ``previous`` or ``across``: the variant's, or where its ``dice`` send the
    total of the deal's two dice (the compiler checks every total has one direction)."""
    direction = str(exchange["direction"])
    if direction == "dice":
        total = sum(dice_of(wall))
        return next(d for d, totals in exchange["dice"].items() if total in totals)
    return direction


def target(seat: int, direction: str, players: int) -> int:
    """The seat that receives ``seat``'s tiles."""
    return (seat + STEPS[direction]) % players


def options(counts: Sequence[int], n: int, same_suit: bool) -> list[Action]:
    """Every choice of ``n`` tiles (kinds, with repeats) a hand with ``counts`` can pass on,
    all of one suit when ``same_suit``."""
    held = [k for k in range(34) if counts[k]]
    out: list[Action] = []
    groups = [[k for k in held if k < 27 and k // 9 == s] for s in range(3)] if same_suit else [held]
    for kinds in groups:
        for pick in combinations_with_replacement(kinds, n):
            if all(pick.count(k) <= counts[k] for k in set(pick)):
                out.append(Action("exchange", tiles=pick))
    return out


def _keep_value(counts: Sequence[int], kind: int) -> int:
    """How much a tile helps the hand: copies of it held, and neighbours of its suit held
    within two ranks (an honor only by its copies)."""
    value = 3 * (counts[kind] - 1)
    if kind < 27:
        rank, base = kind % 9, kind - kind % 9
        value += sum(1 for d in (-2, -1, 1, 2) if 0 <= rank + d <= 8 and counts[base + rank + d])
    return value


def baseline(counts: Sequence[int], decision: Decision) -> Action:
    """A sound default: pass on tiles of the suit held least (of those that can give enough),
    the tiles that help the hand least, lowest codes on a tie."""
    held = [sum(counts[s * 9:(s + 1) * 9]) for s in range(3)] + [sum(counts[27:34])]

    def key(option: Action) -> tuple[int, int, tuple[int, ...]]:
        suits = {k // 9 if k < 27 else 3 for k in option.tiles}
        return (max(held[s] for s in suits), sum(_keep_value(counts, k) for k in option.tiles), option.tiles)

    return min(decision.options, key=key)
