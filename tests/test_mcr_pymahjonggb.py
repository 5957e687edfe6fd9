"""MCR against PyMahjongGB on generated hands (hypothesis), and properties of every result.

PyMahjongGB (the C++ calculator of ChineseOfficialMahjongHelper) is a test-only
dependency; the adapter in mcr_reference.py converts requests the way the reference
document describes. Hands are generated from a seed so that hypothesis shrinks seeds.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from cardavia.compiler import from_json, load_variant
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("MahjongGB")

from mcr_reference import random_special_hand, random_winning_hand, reference_result

MCR = load_variant("mcr")
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _compare(request: dict[str, Any]) -> None:
    result = MCR.scorer.score(from_json(request))
    got = result.as_json()
    ref = reference_result(request)
    assert "error" not in ref, (request, ref)
    assert (got["valid"], got["total"]) == (ref["valid"], ref["total"]), (request, got, ref)
    assert Counter({f["id"]: f["count"] for f in got["fans"]}) == Counter({f["id"]: f["count"] for f in ref["fans"]}), \
        (request, got, ref)
    # Properties of every result: the total is the sum of the listed fans (MCR has no cap),
    # and the hand is valid exactly when the fans other than flowers reach 8.
    assert got["total"] == sum(f["value"] * f["count"] for f in got["fans"])
    before_flowers = sum(f["value"] * f["count"] for f in got["fans"] if f["id"] != "flower_tiles")
    assert got["valid"] == (before_flowers >= 8)


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_standard_hands_agree_with_pymahjonggb(seed: int) -> None:
    request = random_winning_hand(random.Random(seed))
    assume(request is not None)
    _compare(request)


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_special_shapes_agree_with_pymahjonggb(seed: int) -> None:
    _compare(random_special_hand(random.Random(seed)))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 33))
def test_a_hand_that_does_not_win_is_invalid_for_both(seed: int, swap: int) -> None:
    request = random_winning_hand(random.Random(seed))
    assume(request is not None)
    code = f"{swap % 9 + 1}{'mps'[swap // 9]}" if swap < 27 else f"{swap - 26}z"
    hand = list(request["hand"])
    assume(hand and hand[0] != code)
    hand[0] = code
    request = dict(request, hand=hand)
    counts = Counter(hand + [request["win_tile"]] + [t for m in request["melds"] for t in m["tiles"]])
    assume(max(counts.values()) <= 4)
    ref = reference_result(request)
    got = MCR.scorer.score(from_json(request)).as_json()
    if "error" in ref:
        assert got == {"valid": False, "total": 0, "fans": []}
    else:
        assert (got["valid"], got["total"]) == (ref["valid"], ref["total"])
