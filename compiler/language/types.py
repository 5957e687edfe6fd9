"""The types of the expression language: numbers, booleans, texts, tiles, sets of tiles
(called groups in code), players, and lists and collections of them."""

from __future__ import annotations

from ..records import FrozenRecord


class Type(FrozenRecord):
    name: str
    item: Type | None

    def __init__(self, name: str, item: Type | None = None) -> None:
        vars(self).update(name=name, item=item)

    def __str__(self) -> str:
        return f"{self.name} of {self.item}" if self.item else self.name


INT = Type("number")
BOOL = Type("boolean")
STR = Type("text")
TILE = Type("tile")
GROUP = Type("set")
PLAYER = Type("player")
#: The element type of an empty list: compatible with every type.
ANY = Type("anything")


def list_of(t: Type) -> Type:
    return Type("list", t)


def set_of(t: Type) -> Type:
    return Type("collection", t)


def is_collection(t: Type) -> bool:
    return t.name in ("list", "collection")


def compatible(a: Type, b: Type) -> bool:
    if a == ANY or b == ANY:
        return True
    if a.name != b.name:
        return False
    if a.item is None or b.item is None:
        return a.item == b.item
    return compatible(a.item, b.item)


def to_json(t: Type) -> list[object]:
    return [t.name, to_json(t.item) if t.item is not None else None]


def from_json(obj: object) -> Type:
    if not (isinstance(obj, list) and len(obj) == 2 and isinstance(obj[0], str)):
        raise ValueError(f"not a type: {obj!r}")
    return Type(obj[0], from_json(obj[1]) if obj[1] is not None else None)
