"""The per-hand facts computed the fast way agree with their definitions.

The waits are worked out from per-suit tables and masks (compiler/shapes/waits.py
``held_wait_mask``); here they are checked against the definition, a trial of every
kind with ``completes``, for random held hands of every shape of the shipped variants.
The context's facts are checked against a direct count of the hand's tiles.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cardavia.compiler import from_json, load_variant
from cardavia.compiler.model.groups import TILES
from cardavia.compiler.model.hand import Hand, HandError, Meld
from cardavia.compiler.scoring.context import HandContext
from cardavia.compiler.shapes.arrangements import Prepared, arrangements, completes
from cardavia.compiler.shapes.knitted import KNITTED_KINDS
from cardavia.compiler.shapes.suits import suit_keys
from cardavia.compiler.shapes.waits import held_wait_mask, held_waits
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VARIANTS = ("mcr", "hk", "sichuan")
SHAPES = {v: load_variant(v).scorer.shapes for v in VARIANTS}
ALL_SHAPES = tuple(s for v in VARIANTS for s in SHAPES[v])
DATA = Path(__file__).resolve().parent / "data"


def _brute(held: list[int], melds: int, shapes: tuple) -> list[int]:
    out = []
    for k in range(34):
        held[k] += 1
        if completes(held, melds, shapes):
            out.append(k)
        held[k] -= 1
    return out


@st.composite
def held_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """Held tiles (one short of a win for some number of declared sets), drawn from a few
    kinds so that waits are common: one suit, a knitted straight and honors, pairs, any."""
    melds = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4]))
    size = 13 - 3 * melds
    pool_kind = draw(st.sampled_from(["any", "suit", "few", "knitted", "pairs"]))
    if pool_kind == "suit":
        s = draw(st.integers(0, 3))
        kinds = list(range(9 * s, min(9 * s + 9, 34)))
    elif pool_kind == "few":
        kinds = draw(st.lists(st.integers(0, 33), min_size=4, max_size=8, unique=True))
    elif pool_kind == "knitted":
        kinds = list(draw(st.sampled_from(KNITTED_KINDS))) + list(range(27, 34))
    else:
        kinds = list(range(34))
    held = [0] * 34
    picks = draw(st.lists(st.sampled_from(kinds), min_size=size, max_size=size))
    if pool_kind == "pairs":
        picks = [k for k in picks[: (size + 1) // 2] for _ in range(2)][:size]
    for k in picks:
        held[k] += 1
    if max(held) > 4:
        held = [min(c, 4) for c in held]
    return held, melds


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(held_hands(), st.sampled_from(("all",) + VARIANTS))
def test_waits_equal_brute_force(hand: tuple[list[int], int], variant: str) -> None:
    held, melds = hand
    shapes = ALL_SHAPES if variant == "all" else SHAPES[variant]
    mask = sum(1 << k for k in range(34) if held[k])
    expected = _brute(list(held), melds, shapes)
    assert held_waits(list(held), mask, melds, shapes) == expected
    got = held_wait_mask(held + [0], mask, melds, shapes, suit_keys(held), sum(held))
    assert [k for k in range(34) if got >> k & 1] == expected


def _sample(name: str, limit: int = 400) -> list:
    with open(DATA / name) as f:
        return [from_json(json.loads(line)["input"]) for line in list(f)[:limit]]


@pytest.mark.parametrize("variant", ["mcr"])
def test_context_facts_match_the_hand(variant: str) -> None:
    shapes = SHAPES[variant]
    for hand in _sample("mcr-sample.jsonl"):
        ctx = HandContext(hand, None, shapes)
        concealed = list(hand.concealed) + [hand.win_tile]
        every = concealed + [k for m in hand.melds for k in m.tiles]
        assert ctx.concealed_tiles == [TILES[k] for k in concealed]
        assert ctx.tiles == [TILES[k] for k in every]
        assert list(ctx._concealed_counts[:34]) == [concealed.count(k) for k in range(34)]
        assert list(ctx._tiles_counts) == [every.count(k) for k in range(len(TILES) + 1)]
        declared = [k for m in hand.melds for k in m.tiles]
        assert list(ctx._declared_counts) == [declared.count(k) for k in range(len(TILES) + 1)]
        assert ctx._tiles_mask == sum(1 << k for k in set(every))
        assert ctx._keys == suit_keys(ctx._concealed_counts)
        assert ctx._size == len(concealed)
        prep = Prepared(hand)
        assert (list(prep._concealed_counts[:34]), prep._concealed_mask, prep._keys, prep._size) == (
            list(ctx._concealed_counts[:34]), ctx._concealed_mask, ctx._keys, ctx._size)
        # the waits, whichever is read first, on a fresh context and on a shared one
        held = list(hand.concealed)
        expected = _brute([held.count(k) for k in range(34)], len(hand.melds), shapes)
        first = HandContext(hand, None, shapes)
        assert first.unique_wait == (len(expected) == 1)
        assert [t.kind for t in first.waits] == expected
        second = HandContext(hand, None, shapes)
        assert [t.kind for t in second.waits] == expected
        assert second.unique_wait == (len(expected) == 1)
        # the matchers read the context as they read Prepared
        via_ctx = [a.describe() for s in shapes for a in s.arrange(hand, ctx)]
        assert via_ctx == [a.describe() for a in arrangements(hand, shapes)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(held_hands(), st.integers(0, 33), st.sampled_from(VARIANTS))
def test_matcher_bounds_never_rule_out_a_win(hand: tuple[list[int], int], win: int, variant: str) -> None:
    """The scorer skips a matcher outside its bounds: it must find nothing there."""
    held, melds = hand
    counts = list(held)
    counts[win] += 1
    if counts[win] > 4:
        return
    concealed = [k for k in range(34) for _ in range(held[k])]
    declared = tuple(Meld("pung", (k, k, k)) for k in [k for k in range(34) if counts[k] == 0][:melds])
    hand_obj = Hand(tuple(concealed), declared, win)
    kinds = sum(1 for c in counts if c)
    for shape in SHAPES[variant]:
        most_melds, fewest, most = shape.bounds()
        if not (melds <= most_melds and fewest <= kinds <= most):
            assert not shape.arrange(hand_obj, Prepared(hand_obj)), shape


@pytest.mark.parametrize("variant", VARIANTS)
def test_too_many_copies_rejected_as_before(variant: str) -> None:
    """The scorer's quick copies test (one addition on the tiles key) sends a hand with a
    fifth copy, concealed or declared, to the full check and its message."""
    scorer = load_variant(variant).scorer
    hands = [
        Hand((0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (), 0),
        Hand((0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (Meld("pung", (9, 9, 9)),), 9),
        Hand((1, 2, 3, 4, 5, 6, 7), (Meld("kong", (9, 9, 9, 9)), Meld("chow", (9, 10, 11))), 12),
    ]
    for hand in hands:
        with pytest.raises(HandError) as quick:
            scorer.evaluate_hand(hand)
        with pytest.raises(HandError) as full:
            scorer.check_tiles(hand)
        assert str(quick.value) == str(full.value)


def test_arranged_contexts_share_the_hand_facts() -> None:
    """``arranged`` copies the facts (slots and facts made on demand) and shares the waits."""
    shapes = SHAPES["mcr"]
    for hand in _sample("mcr-sample.jsonl", 100):
        facts = HandContext.for_hand(hand, shapes)
        arrs = arrangements(hand, shapes)
        if not arrs:
            continue
        first = facts.arranged(arrs[0])
        again = HandContext(hand, arrs[0], shapes)
        for name in ("declared", "win", "hand_suits", "flowers", "_tiles_counts", "_keys", "shape", "sets",
                     "pair", "wait", "win_group", "tiles", "concealed_tiles"):
            assert getattr(first, name) == getattr(again, name), name
        assert first.unique_wait == again.unique_wait
        assert facts._wait_mask >= 0  # worked out once, on the hand's own context
        assert [t.kind for t in first.waits] == [t.kind for t in again.waits]


def test_a_variant_with_fewer_copies_checks_requests_read_straight_away() -> None:
    """A request read by the direct path (at most four copies of a playable kind) skips the
    scorer's tile test only where the variant has every kind four times: a house rule with
    three copies of each dragon still turns a fourth away."""
    from cardavia.compiler import compile_text, from_json

    text = (Path(__file__).resolve().parent.parent / "variants" / "mcr.yaml").read_text(encoding="utf-8")
    assert "{group: dragons, copies: 4}" in text
    scorer = compile_text(text.replace("{group: dragons, copies: 4}", "{group: dragons, copies: 3}"),
                          "three-dragons.yaml").scorer
    hand = from_json({"hand": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9p"], "win_tile": "9p",
                      "melds": [{"type": "kong", "tiles": ["5z"] * 4}]})
    assert hand._copies is not None  # read by the direct path
    with pytest.raises(HandError, match="4 copies of 5z: this variant has 3"):
        scorer.evaluate_hand(hand)
    assert load_variant("mcr").scorer.evaluate_hand(hand)[2] is not None  # four are fine in MCR
