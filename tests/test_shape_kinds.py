"""The shape-kind protocol: every kind one registered class, declarations checked where they
stand in the file, and the one answer to "which tiles complete this hand" (compiler/shapes/
waits.py) equal to a trial of every tile kind with the scorer's own shape check, for every
shipped variant and for a variant of 11-tile hands, and to the runtime's waits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler import compile_text, load_variant, shipped_variants
from cardavia.compiler.loading import schema
from cardavia.compiler.model.hand import Hand, Meld
from cardavia.compiler.shapes.arrangements import arrangements
from cardavia.compiler.shapes.base import Shape
from cardavia.compiler.shapes.kinds import KINDS, SHAPE_KINDS, shape_kind
from cardavia.compiler.shapes.knitted import KNITTED_KINDS
from cardavia.compiler.shapes.waits import held_wait_mask
from cardavia.runtime.deal import Deal
from cardavia.runtime.wall import shuffled_wall
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_compiler_errors import at, locate, problems_of, replace_line, shipped
from test_hand_size import eleven_tiles_text

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ the registry

def test_every_kind_is_one_registered_class() -> None:
    assert tuple(KINDS) == SHAPE_KINDS
    for name, cls in KINDS.items():
        assert issubclass(cls, Shape) and cls.kind == name and shape_kind(name) is cls
    with pytest.raises(ValueError, match="unsupported shape kind: 'sevens'"):
        shape_kind("sevens")


def test_the_schema_lists_the_registered_kinds() -> None:
    item = schema.schema()["properties"]["scoring"]["properties"]["shapes"]["items"]
    assert item["properties"]["kind"]["enum"] == list(SHAPE_KINDS)
    keys = set(item["properties"])
    for cls in KINDS.values():
        assert set(cls.KEYS) <= keys, cls.kind


# ------------------------------------------------------------- declarations

def eleven_tile_deal(text: str) -> str:
    """``text`` dealing 11 (dealer) and 10 tiles, its shapes unchanged."""
    text = replace_line(text, "  dealer_tiles: 14", "  dealer_tiles: 11")
    return replace_line(text, "  other_tiles: 13", "  other_tiles: 10")


def test_shapes_needing_more_tiles_than_dealt_are_located_errors() -> None:
    text = eleven_tile_deal(shipped("hk"))
    problems = problems_of(text)
    assert len(problems) == 3, "\n".join(map(str, problems))
    standard, pairs, orphans = problems
    line, column = locate(text, "sets: 4")
    at(standard, (line, column + len("sets: ")))  # at the number
    assert standard.message == ("shape 'standard' takes 14 tiles (4 sets and a pair), but a hand holds 11 "
                                "(10 dealt, as table.other_tiles says, plus the winning tile): "
                                "expected a shape of 11 tiles")
    line, column = locate(text, "sets: 7")
    at(pairs, (line, column + len("sets: ")))
    assert pairs.message.startswith("shape 'seven_pairs' takes 14 tiles (7 pairs), but a hand holds 11 ")
    at(orphans, locate(text, "{id: thirteen_orphans"))
    assert orphans.message.startswith("shape 'thirteen_orphans' takes 14 tiles (one each of 13 listed tiles "
                                      "and a pair), but a hand holds 11 ")


def test_mcrs_knitted_shapes_do_not_fit_eleven_tiles_either() -> None:
    text = eleven_tile_deal(shipped("mcr"))
    messages = [p.message for p in problems_of(text)]
    assert any(m.startswith("shape 'honors_and_knitted' takes 14 tiles (14 different tiles") for m in messages)
    assert any(m.startswith("shape 'knitted_straight' takes 14 tiles (a knitted straight, 1 set and a pair)")
               for m in messages)


def test_an_omitted_sets_follows_the_hand_size() -> None:
    text = eleven_tiles_text().replace("{id: standard, kind: sets_and_pair, sets: 3}",
                                       "{id: standard, kind: sets_and_pair}")
    [standard] = compile_text(text, "eleven.yaml").scoring.shapes
    assert (standard.sets, standard.size) == (3, 11)
    hk = shipped("hk").replace("{id: seven_pairs, kind: pairs, sets: 7, quads_as_two_pairs: false}",
                               "{id: seven_pairs, kind: pairs}")
    assert compile_text(hk, "hk.yaml").scoring.shapes[1].sets == 7


def test_a_key_the_kind_does_not_read_is_a_located_error() -> None:
    text = shipped("hk").replace("{id: standard, kind: sets_and_pair, sets: 4}",
                                 "{id: standard, kind: sets_and_pair, sets: 4, max_melds: 1}")
    [problem] = problems_of(text)
    at(problem, locate(text, "max_melds"))
    assert problem.message == "'max_melds' does not apply to a sets_and_pair shape: expected sets"


def test_a_unique_plus_pair_shape_lists_its_tiles_once() -> None:
    text = shipped("hk").replace('tiles: "19m19p19s1234567z"', 'tiles: "19m19p19s1234566z"')
    messages = [p.message for p in problems_of(text)]
    assert "each tile of a unique_plus_pair shape is listed once" in messages


# ------------------------------------------------------ which tiles complete a hand

def _variants() -> dict[str, Any]:
    out = {name: load_variant(name) for name in shipped_variants()}
    out["eleven"] = compile_text(eleven_tiles_text(), "eleven.yaml")
    return out


VARIANTS = _variants()


@st.composite
def held_hands(draw: st.DrawFn) -> tuple[str, list[int], int]:
    """(variant, held counts one tile short of its hand size, declared sets), drawn from a
    few kinds so that waits are common: one suit, a knitted straight and honors, a whole
    knitted straight and characters, pairs, different kinds, any."""
    name = draw(st.sampled_from(sorted(VARIANTS)))
    v = VARIANTS[name]
    playable = sorted({k for k in v.tiles.kinds if k < 34})
    melds = draw(st.sampled_from([0, 0, 0, 1, 2]))
    size = v.table.hand_size - 1 - 3 * melds
    style = draw(st.sampled_from(["any", "suit", "few", "knitted", "straight", "pairs", "distinct"]))
    if style == "suit":
        s = draw(st.sampled_from(sorted({k // 9 for k in playable})))
        kinds = [k for k in playable if k // 9 == s]
    elif style == "few":
        kinds = draw(st.lists(st.sampled_from(playable), min_size=4, max_size=8, unique=True))
    elif style == "knitted":
        kinds = [k for k in list(draw(st.sampled_from(KNITTED_KINDS))) + list(range(27, 34)) if k in playable]
    else:
        kinds = playable
    picks = draw(st.lists(st.sampled_from(kinds), min_size=size, max_size=size))
    if style == "pairs":
        picks = [k for k in picks[: (size + 1) // 2] for _ in range(2)][:size]
    elif style == "straight" and size >= 9:  # a whole knitted straight and a few tiles near each other
        rest = draw(st.lists(st.sampled_from(playable[:9]), min_size=size - 9, max_size=size - 9))
        picks = list(draw(st.sampled_from(KNITTED_KINDS))) + rest
    elif style == "distinct":
        picks = draw(st.permutations(playable))[:size]
    held = [0] * 34
    for k in picks:
        held[k] = min(held[k] + 1, 4)
    return name, held, melds


def _hand(held: list[int], melds: int, win: int) -> Hand:
    """The hand of ``held`` and ``win``, with ``melds`` declared pungs of kinds it does not hold."""
    free = [k for k in range(34) if not held[k] and k != win]
    return Hand(tuple(k for k in range(34) for _ in range(held[k])),
                tuple(Meld("pung", (k, k, k)) for k in free[:melds]), win)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(held_hands())
def test_the_one_waits_equal_every_tile_tried_by_the_scorer(hand: tuple[str, list[int], int]) -> None:
    name, held, melds = hand
    v = VARIANTS[name]
    shapes = v.scorer.shapes
    brute = []
    for k in range(34):  # every kind, copies not limited, as the scorer would arrange the hand
        if arrangements(_hand(held, melds, k), shapes):
            brute.append(k)
            counts = list(held)
            counts[k] += 1
            assert v.scorer.is_winning_shape(counts, melds)
    mask = sum(1 << k for k in range(34) if held[k])
    got = held_wait_mask(held, mask, melds, shapes)
    assert [k for k in range(34) if got >> k & 1] == brute
    # the runtime's waits are the same, less the kinds the variant lacks or the hand holds four of
    deal = Deal(v, shuffled_wall(v.tiles, 1), 0)
    deal.counts[1] = list(held)
    deal.keys[1] = [-1, -1, -1, -1]  # a hand not seen before: no cached waits
    deal.melds[1] = [None] * melds  # type: ignore[list-item] - only their number matters here
    assert sorted(deal.waits(1)) == [k for k in brute if k in v.tiles.kinds and held[k] < 4]
