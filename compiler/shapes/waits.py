"""Which tiles complete a hand: the one answer the scorer, the runtime and the bots share.

:func:`held_wait_mask` asks each declared shape (:meth:`~compiler.shapes.base.Shape.wait_mask`,
worked out from the shape's definition, with no trial per tile) and joins the answers.
Which shapes are worth asking depends only on the number of declared sets and of kinds
held (each shape's :meth:`~compiler.shapes.base.Shape.wait_bounds`), so it is planned once per
tuple of shapes: a hand asks only the shapes that may have a wait.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ..model.hand import Hand
from .arrangements import completes
from .base import Shape
from .suits import kinds_in, suit_keys


def held_wait_mask(held: Sequence[int], held_mask: int, melds: int, shapes: Sequence[Shape],
                   keys: Sequence[int] | None = None, held_size: int | None = None, extra: int = -1) -> int:
    """The kinds completing the held tiles into any of ``shapes``, as a mask (bit k for
    kind k), copies not limited. ``held``: counts (34 or more entries, only read);
    ``held_mask``: the kinds held; ``keys`` and ``held_size``, if known: their suit keys
    and number of tiles. ``extra``: a kind of which ``held`` has one copy more than the
    tiles held (the winning tile; ``held_mask``, ``keys`` and ``held_size`` are without
    it), or -1: the counts of the held tiles are then made only if a shape reads them."""
    if held_size is None:
        held_size = sum(held[:34]) - (extra >= 0)
    kinds = held_mask.bit_count()
    try:
        worth = _wait_plan(shapes)[melds][kinds]
    except IndexError:  # more declared sets than any shape allows
        worth = _worth_trying(shapes, melds, kinds)
    out = 0
    for wait_mask, reads_held in worth:
        if extra >= 0 and (reads_held or keys is None):
            held = list(held)
            held[extra] -= 1
            extra = -1
        if keys is None:
            keys = suit_keys(held)
        out |= wait_mask(held, melds, held_mask, held_size, keys)
    return out


def held_waits(held: Sequence[int], held_mask: int, melds: int, shapes: Sequence[Shape],
               limit: int | None = None, keys: Sequence[int] | None = None) -> list[int]:
    """:func:`held_wait_mask` as a list of kinds, ascending (the first ``limit`` of them)."""
    found = kinds_in(held_wait_mask(held, held_mask, melds, shapes, keys))
    return found if limit is None else found[:limit]


def waiting_tiles(hand: Hand, shapes: Sequence[Shape], kinds: Iterable[int] | None = None,
                  limit: int | None = None) -> list[int]:
    """The kinds that would complete the hand without its winning tile (copies not limited).

    With ``kinds``, only those are tried, and ``limit`` stops the trials once that many
    are found; otherwise ``limit`` keeps the smallest ``limit`` of them (``2`` answers
    "exactly one?").
    """
    held = [0] * 34
    mask = 0
    for k in hand.concealed:
        held[k] += 1
        mask |= 1 << k
    melds = len(hand.melds)
    if kinds is None:
        return held_waits(held, mask, melds, shapes, limit)
    out = []
    for k in kinds:
        held[k] += 1
        if completes(held, melds, shapes):
            out.append(k)
        held[k] -= 1
        if limit is not None and len(out) >= limit:
            break
    return out


#: A shape's :meth:`~compiler.shapes.base.Shape.wait_mask` and whether it reads the held counts.
Asked = tuple[Callable[[Sequence[int], int, int, int, Sequence[int]], int], bool]
#: For each number of declared sets and of kinds held (0-34): the shapes that may have a
#: wait (their bounds already applied), as what is asked of them.
Plan = list[list[tuple[Asked, ...]]]
#: id of a tuple of shapes -> (that tuple, its plan). Keyed by identity (hashing shapes is
#: slow): the entry holds the tuple, so its id is not reused while stored.
_PLANS: dict[int, tuple[Sequence[Shape], Plan]] = {}


def _wait_plan(shapes: Sequence[Shape]) -> Plan:
    """The shapes worth asking for a wait, by declared sets and kinds held; one entry per
    tuple of shapes (a variant's), a few in practice and at most 64."""
    got = _PLANS.get(id(shapes))
    if got is None or got[0] is not shapes:
        if len(_PLANS) >= 64:
            _PLANS.clear()
        most = max((min(s.wait_bounds()[0], 34) for s in shapes), default=0)
        got = _PLANS[id(shapes)] = (shapes, [[_worth_trying(shapes, melds, kinds) for kinds in range(35)]
                                             for melds in range(most + 1)])
    return got[1]


def _worth_trying(shapes: Sequence[Shape], melds: int, kinds: int) -> tuple[Asked, ...]:
    """The shapes that may have a wait with ``melds`` declared sets and ``kinds`` kinds held, in order."""
    out = []
    for shape in shapes:
        most_melds, fewest, most = shape.wait_bounds()
        if melds <= most_melds and fewest <= kinds <= most:
            out.append((shape.wait_mask, shape.reads_held))
    return tuple(out)
