"""The compiler's records (compiler/records.py) behave as the dataclasses they replace."""

from __future__ import annotations

import pytest
from cardavia.compiler.model.hand import Hand, Meld
from cardavia.compiler.records import FrozenRecord, Record
from cardavia.compiler.scoring.scorer import ScoreResult
from cardavia.compiler.variant import CompiledVariant


class _Point(FrozenRecord):
    x: int
    y: int

    def __init__(self, x: int, y: int = 0) -> None:
        vars(self).update(x=x, y=y)


class _Box(Record):
    label: str
    items: list[int]
    HIDDEN = ("items",)

    def __init__(self, label: str, items: list[int]) -> None:
        self.label = label
        self.items = items


def test_the_fields_are_the_annotations_in_order() -> None:
    assert _Point.FIELDS == ("x", "y")
    assert Meld.FIELDS == ("kind", "tiles", "concealed")
    assert Hand.FIELDS[:3] == ("concealed", "melds", "win_tile") and Hand.FIELDS[-1] == "extra"
    assert "extra" not in Hand.COMPARED


def test_equality_reads_the_compared_fields_of_the_same_class() -> None:
    assert _Point(1, 2) == _Point(1, 2)
    assert _Point(1, 2) != _Point(2, 1)
    assert _Point(1, 2) != (1, 2)
    assert Hand((0, 1), (), 2) == Hand((0, 1), (), 2, extra={"note": 1})
    assert ScoreResult(True, 8) == ScoreResult(True, 8, [])


def test_frozen_records_hash_and_refuse_changes() -> None:
    assert hash(_Point(1, 2)) == hash(_Point(1, 2))
    assert len({Meld("pung", (0, 0, 0)), Meld("pung", (0, 0, 0))}) == 1
    point = _Point(1)
    with pytest.raises(AttributeError):
        point.x = 3
    with pytest.raises(AttributeError):
        del point.y
    assert point == _Point(1, 0)


def test_mutable_records_change_and_are_not_hashable() -> None:
    box = _Box("a", [1])
    box.items.append(2)
    box.label = "b"
    assert box == _Box("b", [1, 2])
    with pytest.raises(TypeError):
        hash(box)


def test_the_repr_names_each_shown_field() -> None:
    assert repr(_Point(1, 2)) == "_Point(x=1, y=2)"
    assert repr(_Box("a", [1])) == "_Box(label='a')"
    assert CompiledVariant.HIDDEN == ("data",)
