"""The combination principles as a generic mechanism, on small tables written for the test.

MCR switches them on in its file; here each principle is switched on and off on a tiny
table so that its effect alone is visible, and the compiler's checks of combination
patterns and of ``principles`` are exercised.
"""

from __future__ import annotations

from typing import Any

import pytest
from cardavia.compiler import VariantError, compile_text, parse_notation

HEAD = """
id: toy
name: Toy
title: Toy mahjong
summary: A table written for a test.
tiles:
  - {group: characters, copies: 4}
  - {group: dots, copies: 4}
  - {group: bamboo, copies: 4}
  - {group: winds, copies: 4}
  - {group: dragons, copies: 4}
table: {players: 4, dealer_tiles: 14, other_tiles: 13}
play: {chow: previous_player, discard_win: first_in_seat_order, after_win: end_deal}
settlement:
  base: "total"
  win:
    - {from: discarder, amount: "total"}
scoring:
  unit: points
  minimum: 0
  shapes:
    - {id: standard, kind: sets_and_pair, sets: 4}
"""

PATTERNS = """
  patterns:
    - id: straight
      name: Straight
      description: 123, 456 and 789 of one suit.
      value: 10
      combination: chows
      count: "count(a, b, c in chows: same(a.suit, b.suit, c.suit) and a.rank == 1 and b.rank == 4 and c.rank == 7)"
      excludes: [suited_pair]
    - id: suited_pair
      name: Suited pair of chows
      description: Two chows of one suit.
      value: 1
      combination: chows
      count: "count(a, b in chows: a.suit == b.suit)"
    - id: chow_count
      name: Chow
      description: Each chow.
      value: 1
      combination: chows
      count: "count(s in chows: true)"
"""


def toy(principles: str = "", patterns: str = PATTERNS) -> Any:
    return compile_text(HEAD + principles + patterns, "toy.yaml")


def fans(variant: Any, text: str) -> dict[str, int]:
    return {f.id: f.count for f in variant.scorer.score(parse_notation(text)).fans}


HAND = "123m 456m 789m 234m 5z +5z"  # four characters chows, a straight among them


def test_scoped_exclusion_only_removes_combinations_within_the_straight() -> None:
    got = fans(toy(), HAND)
    assert got["straight"] == 1 and got["chow_count"] == 4
    # Six two-chow pairs; the straight removes the three inside it, the three with 234m stay.
    assert got["suited_pair"] == 3


def test_account_once_lets_the_fourth_chow_join_only_once() -> None:
    got = fans(toy("  principles: {account_once: true}\n"), HAND)
    assert got["straight"] == 1 and got["suited_pair"] == 1 and got["chow_count"] == 4


def test_non_identical_lets_a_set_form_each_combination_once() -> None:
    plain = toy(patterns=PATTERNS.replace("excludes: [suited_pair]", "excludes: []"))
    assert fans(plain, "123m 456m 789m 11p 22z +2z")["suited_pair"] == 3
    ni = toy("  principles: {non_identical: true}\n", PATTERNS.replace("excludes: [suited_pair]", "excludes: []"))
    assert fans(ni, "123m 456m 789m 11p 22z +2z")["suited_pair"] == 1


def test_the_straight_is_taken_before_the_pairs_it_contains() -> None:
    got = fans(toy("  principles: {account_once: true}\n"), "123m 456m 789m 111p 5z +5z")
    assert got == {"straight": 1, "chow_count": 3}


def test_replacement_of_a_later_pattern_is_paid_as_it_comes() -> None:
    patterns = PATTERNS.replace("      excludes: [suited_pair]\n", "      replaces: {chow_count: 2}\n")
    got = fans(toy(patterns=patterns), HAND)
    assert got["chow_count"] == 2  # four chows, two replaced by the straight listed before them


def test_prefer_breaks_a_tie_between_arrangements() -> None:
    tie = """
  patterns:
    - id: three_same_chows
      name: Three same chows
      description: Three identical chows.
      value: 5
      combination: chows
      count: "count(a, b, c in chows: same(a.tile, b.tile, c.tile))"
    - id: shifted_pungs
      name: Shifted pungs
      description: Three pungs in consecutive ranks.
      value: 5
      combination: pungs
      count: "count(a, b, c in pungs: same(a.suit, b.suit, c.suit) and b.rank == a.rank + 1 and c.rank == a.rank + 2)"
"""
    hand = "111222333m 789p 5z +5z"
    assert "shifted_pungs" in fans(toy("", tie), hand)  # pungs come first among equals
    preferred = toy("  principles: {prefer: [three_same_chows]}\n", tie)
    assert fans(preferred, hand) == {"three_same_chows": 1}


def test_a_combination_needs_a_count_over_sets() -> None:
    bad = PATTERNS.replace('count: "count(s in chows: true)"', 'when: "len(chows) > 0"')
    with pytest.raises(VariantError) as err:
        toy(patterns=bad)
    text = str(err.value)
    assert "toy.yaml:" in text and "combination" in text and "count(a, b in chows" in text


def test_prefer_must_name_a_pattern() -> None:
    with pytest.raises(VariantError) as err:
        toy("  principles: {prefer: [no_such_pattern]}\n")
    assert "no_such_pattern" in str(err.value)


def test_an_unknown_principle_is_reported() -> None:
    with pytest.raises(VariantError) as err:
        toy("  principles: {account_twice: true}\n")
    assert "account_twice" in str(err.value)


def test_shared_definitions_are_computed_once_but_never_where_they_could_fail() -> None:
    # Both patterns use the definitions; the division is only safe behind its guard, so it
    # must not be computed ahead of the guard for a hand without chows.
    defs = """
  definitions:
    chow_count: "count(s in chows: true)"
    share: "12 // chow_count"
"""
    patterns = """
  patterns:
    - id: many
      name: Many chows
      description: At least three chows, and a share above three.
      value: 1
      when: "chow_count >= 3 and share <= 4"
    - id: few
      name: Few chows
      description: One or two chows, and a share of six or more.
      value: 1
      when: "chow_count > 0 and chow_count < 3 and share >= 6"
"""
    variant = toy(defs, patterns)
    assert fans(variant, "111m 222p 333s 444z 5z +5z") == {}
    assert fans(variant, "123m 456m 789m 11p 22z +2z") == {"many": 1}
    assert fans(variant, "123m 222p 333s 11p 22z +2z") == {"few": 1}
