"""The facts from_json_fast leaves on a Hand are those a Hand built any other way gives.

``from_json_fast`` counts the copies of each kind while it checks a request and keeps
them on the Hand (``_copies``); HandContext reads them instead of counting again, and
works them out itself for a Hand built another way (``Hand(...)``, ``parse_notation``,
the runtime). Every fact of the context, and every answer of the scorer, must be the
same whichever way the Hand was built.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler import load_variant
from cardavia.compiler.model.groups import make_group
from cardavia.compiler.model.hand import Hand, HandError, Meld, from_json_fast, meld_copies, tile_copies, to_json
from cardavia.compiler.scoring.context import HandContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DATA = Path(__file__).resolve().parent / "data"
VARIANTS = ("mcr", "hk", "sichuan")
#: The facts of the hand (the slots that do not change with the arrangement; _copies only
#: says whether they came from a checked request, and is tested on its own).
FACTS = [name for name in HandContext.__slots__[:HandContext.__slots__.index("shape")]
         if name not in ("_hand", "_facts", "_copies")]


def _rebuilt(hand: Hand) -> Hand:
    """The same Hand built through its constructor, without the carried copies."""
    again = Hand(**{name: getattr(hand, name) for name in Hand.FIELDS})
    assert again._copies is None and again == hand
    return again


def _facts(ctx: HandContext) -> dict[str, Any]:
    return {name: getattr(ctx, name) for name in FACTS} | {"tiles": ctx.tiles,
                                                         "concealed_tiles": ctx.concealed_tiles}


def _sample(limit: int = 3000) -> list[Any]:
    with open(DATA / "mcr-sample.jsonl") as f:
        return [json.loads(line)["input"] for line in list(f)[:limit]]


def _counted(hand: Hand) -> tuple[int, int, int]:
    """tile_copies by its definition: a count per kind, written 8 bits per kind."""
    concealed = [*hand.concealed, hand.win_tile]
    declared = [k for m in hand.melds for k in m.tiles]
    return (sum(concealed.count(k) << 8 * k for k in set(concealed)),
            sum(declared.count(k) << 8 * k for k in set(declared)),
            sum(1 << k for k in set(declared)))


def test_the_carried_copies_are_the_counted_ones() -> None:
    for obj in _sample():
        hand = from_json_fast(obj)
        assert hand is not None and hand._copies is not None
        assert hand._copies == tile_copies(_rebuilt(hand)) == _counted(hand)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_context_reads_the_same_facts_either_way(variant: str) -> None:
    shapes = load_variant(variant).scorer.shapes
    for obj in _sample(1000):
        hand = from_json_fast(obj)
        fast, built = HandContext(hand, None, shapes), HandContext(_rebuilt(hand), None, shapes)
        got, expected = _facts(fast), _facts(built)
        assert got == expected, obj
        assert fast._copies == tile_copies(hand) and built._copies is None
        assert {k: type(v) for k, v in got.items()} == {k: type(v) for k, v in expected.items()}
        assert fast.unique_wait == built.unique_wait and fast.waits == built.waits
        assert fast.declared == [make_group(m.kind, m.tiles[0], m.concealed, True) for m in hand.melds]


def _score(scorer: Any, hand: Hand) -> Any:
    try:
        r = scorer.score(hand)
    except HandError as exc:  # a tile the variant lacks
        return str(exc)
    return (r.valid, r.total, r.fans, r.arrangement, r.reason)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_scorer_answers_the_same_either_way(variant: str) -> None:
    scorer = load_variant(variant).scorer
    for obj in _sample(1000):
        hand = from_json_fast(obj)
        assert _score(scorer, hand) == _score(scorer, _rebuilt(hand))


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Any hand of 14 tiles (kongs count 3) with up to four declared sets, five copies and
    tiles a variant lacks included: the context counts whatever it is given."""
    melds = []
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["chow", "pung", "kong"]))
        if kind == "chow":
            first = draw(st.integers(0, 2)) * 9 + draw(st.integers(0, 6))
            melds.append(Meld("chow", (first, first + 1, first + 2)))
        else:
            k = draw(st.integers(0, 33))
            melds.append(Meld(kind, (k,) * (4 if kind == "kong" else 3), kind == "kong" and draw(st.booleans())))
    concealed = tuple(draw(st.lists(st.integers(0, 33), min_size=13 - 3 * len(melds), max_size=13 - 3 * len(melds))))
    flowers = tuple(draw(st.lists(st.integers(34, 41), unique=True, max_size=3)))
    return Hand(concealed, tuple(melds), draw(st.integers(0, 33)), flowers, self_drawn=draw(st.booleans()),
                seat_wind=draw(st.integers(27, 30)), round_wind=draw(st.integers(27, 30)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_random_hands_read_the_same_facts_either_way(hand: Hand) -> None:
    """A hand read from its JSON (when the fast path takes it) gives the facts of the Hand itself."""
    assert tile_copies(hand) == _counted(hand)
    for m in hand.melds:
        assert meld_copies(m) == (sum(1 << 8 * k for k in m.tiles), sum(1 << k for k in set(m.tiles)))
        assert m.group is make_group(m.kind, m.tiles[0], m.concealed, True)
    fast = from_json_fast(to_json(hand))
    if fast is None:  # five copies, a flag the fast path leaves to the checking one
        return
    assert fast == hand and fast._copies == tile_copies(hand)
    shapes = load_variant("mcr").scorer.shapes
    assert _facts(HandContext(fast, None, shapes)) == _facts(HandContext(hand, None, shapes))
