"""The shape kinds the engine knows, registered in one place.

A variant's ``scoring.shapes[].kind`` names one of :data:`KINDS`; its class reads the
declaration and does everything else a shape does (compiler/shapes/base.py). A new kind
is one subclass of :class:`~compiler.shapes.base.Shape` and its entry here (the schema's
``kind`` list and the documentation name it too; tests check that they agree).
"""

from __future__ import annotations

from .base import Shape
from .knitted import KnittedAndHonors, KnittedSetsAndPair
from .pairs import Pairs
from .standard import SetsAndPair
from .unique import UniquePlusPair

#: Every shape kind, by the name a variant file gives it, in the order the documentation lists them.
KINDS: dict[str, type[Shape]] = {cls.kind: cls for cls in (
    SetsAndPair, Pairs, UniquePlusPair, KnittedAndHonors, KnittedSetsAndPair)}

#: The kinds' names (the engine's vocabulary).
SHAPE_KINDS: tuple[str, ...] = tuple(KINDS)


def shape_kind(name: str) -> type[Shape]:
    """The class of the kind ``name``; ``ValueError`` for a kind the engine does not know."""
    try:
        return KINDS[name]
    except KeyError:
        raise ValueError(f"unsupported shape kind: {name!r}: expected one of {', '.join(KINDS)}") from None
