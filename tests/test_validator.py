"""The independent validator reports a damaged event log as violations, never by raising."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from cardavia.compiler import load_variant
from cardavia.runtime.bots import BaselineBot
from cardavia.runtime.controllers import play_deal
from cardavia.runtime.deal import Deal
from cardavia.runtime.validator import validate
from cardavia.runtime.wall import shuffled_wall


@pytest.fixture(scope="module")
def played() -> tuple[Any, list[int], Deal]:
    variant = load_variant("hk")
    for seed in range(100):  # a deal with a pung that someone wins on a discard (and so payments)
        wall = shuffled_wall(variant.tiles, seed)
        deal = play_deal(Deal(variant, wall, 0), [BaselineBot(seed * 4 + s) for s in range(4)])
        if any(w.from_seat is not None for w in deal.wins) and any(e["type"] == "pung" for e in deal.events):
            return variant, wall, deal
    raise AssertionError("no deal of the first 100 seeds has a pung and a win on a discard")


def _check(played: tuple[Any, list[int], Deal], damage: Any) -> list[str]:
    variant, wall, deal = played
    events = copy.deepcopy(deal.events)
    damage(events)
    return validate(variant, wall, deal.dealer, events, deal.deltas())


def _first(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return next(e for e in events if e["type"] == kind)


def test_a_played_deal_is_sound(played: tuple[Any, list[int], Deal]) -> None:
    assert _check(played, lambda events: None) == []


def test_an_event_without_a_seat_is_a_violation(played: tuple[Any, list[int], Deal]) -> None:
    problems = _check(played, lambda events: _first(events, "discard").pop("seat"))
    assert any("None is not a seat of this table" in p for p in problems), problems


def test_a_seat_outside_the_table_is_a_violation(played: tuple[Any, list[int], Deal]) -> None:
    problems = _check(played, lambda events: _first(events, "draw").update(seat=7))
    assert any("7 is not a seat of this table" in p for p in problems), problems


def test_an_unknown_event_type_is_a_violation(played: tuple[Any, list[int], Deal]) -> None:
    problems = _check(played, lambda events: events.insert(1, {"type": "shuffle"}))
    assert any("unknown event type 'shuffle'" in p for p in problems), problems


def test_a_claim_of_a_tile_not_just_discarded_is_a_violation(played: tuple[Any, list[int], Deal]) -> None:
    def damage(events: list[dict[str, Any]]) -> None:
        win = next(e for e in events if e["type"] == "win" and e.get("from") is not None)
        events.insert(events.index(win), {"type": "pung", "seat": win["seat"], "from": win["from"],
                                          "claimed": -1, "ids": [-1, -1, -1]})

    problems = _check(played, damage)
    assert any("tile -1 is not the last discard" in p for p in problems), problems


def test_an_added_kong_that_names_no_tile_is_a_violation(played: tuple[Any, list[int], Deal]) -> None:
    def damage(events: list[dict[str, Any]]) -> None:
        pung = _first(events, "pung")
        events.insert(events.index(pung) + 1, {"type": "kong", "seat": pung["seat"], "kong": "added", "ids": []})

    problems = _check(played, damage)
    assert any("cannot add tile None to a pung" in p for p in problems), problems


def test_a_missing_end_and_unbalanced_payments_are_violations(played: tuple[Any, list[int], Deal]) -> None:
    def damage(events: list[dict[str, Any]]) -> None:
        events.remove(_first(events, "end"))
        _first(events, "pay")["amount"] += 1

    problems = _check(played, damage)
    assert "the event log has no end" in problems
    assert any(p.startswith("reported deltas") for p in problems), problems
