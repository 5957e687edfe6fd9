"""Small value classes without the start-up cost of ``dataclasses``.

``dataclasses`` writes each class's methods as Python source and compiles them when the
class is created: for the compiler's two dozen records that was some 15 ms of every
process start, plus 6 ms to import it (and ``inspect``), paid in full by a one-hand
``cardavia score``. A record here annotates its fields in its class body, as a dataclass
does, and writes its own ``__init__`` (plain and fast); :class:`Record` gives it equality
and a repr over those fields, :class:`FrozenRecord` a hash as well and no assignment after
``__init__`` (which sets its fields in ``vars(self)``).
"""

from __future__ import annotations

from typing import Any, ClassVar


class Record:
    """Equality and repr over the fields, in the order the class body annotates them.

    ``FIELDS`` lists them (worked out when the class is created); ``COMPARED`` (default:
    every field) are those equality and hashing read, and ``HIDDEN`` those the repr
    leaves out. A mutable record is not hashable."""

    FIELDS: ClassVar[tuple[str, ...]] = ()
    COMPARED: ClassVar[tuple[str, ...]] = ()
    HIDDEN: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - strings as written (no evaluation at import)
        cls.FIELDS = tuple(name for name, note in own.items() if not str(note).startswith("ClassVar"))
        if "COMPARED" not in cls.__dict__:
            cls.COMPARED = cls.FIELDS

    def _compared(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.COMPARED])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()

    __hash__: Any = None

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS if name not in self.HIDDEN)
        return f"{type(self).__qualname__}({shown})"


class FrozenRecord(Record):
    """A record that cannot change once built: hashable over its compared fields."""

    def __hash__(self) -> int:
        return hash(self._compared())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} does not change")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a {type(self).__name__} does not change")
