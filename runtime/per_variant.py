"""One object derived from each compiled variant (an analyst, the AI's rules), made on
first use and shared by every caller: deriving one is costly, and a process rarely plays
more than a few variants at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

T = TypeVar("T")


class PerVariant(Generic[T]):
    """``made(variant)``: the object ``make`` derives from ``variant``, made once and kept
    (the last ``keep`` variants; an object is never shared by two variants, even when one
    reuses the other's ``id``)."""

    def __init__(self, make: Callable[[CompiledVariant], T], keep: int = 16) -> None:
        self.make = make
        self.keep = keep
        self._made: dict[int, tuple[CompiledVariant, T]] = {}

    def __call__(self, variant: CompiledVariant) -> T:
        got = self._made.get(id(variant))
        if got is None or got[0] is not variant:
            if len(self._made) >= self.keep:
                self._made.clear()
            got = self._made[id(variant)] = (variant, self.make(variant))
        return got[1]
