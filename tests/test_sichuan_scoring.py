"""Sichuan scoring, pattern by pattern: the ids, values and decisions of variants/sichuan.yaml.

Through ``load_variant("sichuan").scorer.score(parse_notation(...))`` and ``cardavia score``.
"""

from __future__ import annotations

import json

import pytest
from cardavia.compiler import HandError, load_variant, parse_notation

from cardavia.cli import main


@pytest.fixture(scope="module")
def sc():
    return load_variant("sichuan")


def score(variant, text: str, **flags):
    return variant.scorer.score(parse_notation(text, **flags))


def fans(result) -> dict[str, tuple[int, int]]:
    return {f.id: (f.value, f.count) for f in result.fans}


EXPECTED_VALUES = {
    "basic_hand": 0, "all_pungs": 1, "seven_pairs": 2, "outside_hand": 2, "all_258_pungs": 3,
    "full_flush": 2, "single_wait_four_melds": 1, "root": 1, "kong_replacement": 1, "robbing_kong": 1,
    "last_tile": 1,
}


def test_table_has_exactly_the_rules_ids_and_values(sc):
    patterns = sc.scoring.table.patterns
    assert {p.id: p.value for p in patterns} == EXPECTED_VALUES
    assert not any(p.limit for p in patterns)
    assert sc.scoring.minimum == 0 and sc.scoring.cap == 5
    for p in patterns:
        assert p.name and p.description.endswith(".")


# ------------------------------------------------------------------ patterns

def test_basic_hand_is_a_valid_win_worth_zero(sc):
    r = score(sc, "123m456m789m123p5p +5p")
    assert fans(r) == {"basic_hand": (0, 1)}
    assert r.valid and r.total == 0


def test_basic_hand_is_not_listed_beside_another_pattern(sc):
    r = score(sc, "123m456m789m123p5p +5p", last_wall_tile=True)
    assert fans(r) == {"last_tile": (1, 1)}


def test_self_draw_is_not_a_fan(sc):
    a = score(sc, "123m456m789m123p5p +5p", self_drawn=True)
    b = score(sc, "123m456m789m123p5p +5p")
    assert fans(a) == fans(b) and a.total == b.total == 0


def test_all_pungs(sc):
    r = score(sc, "111m333m444p777p5p +5p")
    assert fans(r) == {"all_pungs": (1, 1)} and r.total == 1


def test_all_258_pungs_replaces_all_pungs(sc):
    r = score(sc, "222m555m888p222p5p +5p")
    assert fans(r) == {"all_258_pungs": (3, 1)} and r.total == 3


def test_all_258_pungs_with_a_kong_also_has_a_root(sc):
    r = score(sc, "222m555m888p5p[2222p] +5p")
    assert fans(r) == {"all_258_pungs": (3, 1), "root": (1, 1)} and r.total == 4


def test_258_pungs_with_another_pair_is_only_all_pungs(sc):
    r = score(sc, "222m555m888p222p3p +3p")
    assert fans(r) == {"all_pungs": (1, 1)}


def test_seven_pairs(sc):
    r = score(sc, "11m33m55m77p88p99p2p +2p")
    assert fans(r) == {"seven_pairs": (2, 1)} and r.shape == "seven_pairs"


def test_seven_pairs_with_four_identical_tiles_counts_two_pairs_and_a_root(sc):
    r = score(sc, "11m11m55m77p88p99p2p +2p")
    assert fans(r) == {"seven_pairs": (2, 1), "root": (1, 1)} and r.total == 3


def test_outside_hand(sc):
    r = score(sc, "123m789m111p99p78p +9p")
    assert fans(r) == {"outside_hand": (2, 1)}
    not_outside = score(sc, "123m789m111p99p45p +6p")
    assert "outside_hand" not in fans(not_outside)


def test_outside_hand_full_flush_and_two_roots(sc):
    r = score(sc, "123m789m111m99m78m +9m")
    assert fans(r) == {"outside_hand": (2, 1), "full_flush": (2, 1), "root": (1, 2)}
    assert r.uncapped == 6 and r.total == 5


def test_full_flush(sc):
    r = score(sc, "123m234m678m99m45m +6m")
    assert fans(r) == {"full_flush": (2, 1)}


def test_full_flush_seven_pairs(sc):
    r = score(sc, "11m22m44m55m66m88m9m +9m")
    assert fans(r) == {"seven_pairs": (2, 1), "full_flush": (2, 1)} and r.total == 4


def test_single_wait_four_melds(sc):
    r = score(sc, "3p[111m][444m][5555p][777p] +3p")
    assert fans(r) == {"single_wait_four_melds": (1, 1), "all_pungs": (1, 1), "root": (1, 1)}


def test_four_melds_counts_concealed_kongs(sc):
    r = score(sc, "3p[111m][444m]{5555p}[777p] +3p")
    assert "single_wait_four_melds" in fans(r)


def test_three_melds_is_not_single_wait_four_melds(sc):
    r = score(sc, "777p3p[111m][444m][555p] +3p")
    assert "single_wait_four_melds" not in fans(r)


@pytest.mark.parametrize("text, roots", [
    ("123m456m789m5p{1111p} +5p", 1),            # a kong
    ("11m11m55m77p88p99p2p +2p", 1),             # a seven-pairs quad
    ("111m123m456m77p78p +9p", 1),               # spread over a pung and a chow
    ("123m123m11m456p78p +9p", 1),               # over two chows and a pair
    ("1111m2222m33m44m5m +5m", 2),               # two quads in seven pairs
    ("123m456m34p555p11p +5p", 1),               # the winning tile completes the four
])
def test_root_however_the_four_tiles_are_arranged(sc, text, roots):
    r = score(sc, text)
    assert fans(r).get("root") == (1, roots)


@pytest.mark.parametrize("flags, event", [
    ({"self_drawn": True, "kong_replacement": True}, "kong_replacement"),
    ({"robbing_kong": True}, "robbing_kong"),
    ({"last_wall_tile": True}, "last_tile"),
    ({"last_wall_tile": True, "self_drawn": True}, "last_tile"),
])
def test_events_add_one(sc, flags, event):
    r = score(sc, "123m456m789m5p[2222p] +5p", **flags)
    assert fans(r) == {"root": (1, 1), event: (1, 1)} and r.total == 2


# ------------------------------------------------------------ cap, minimum

def test_cap_is_five_and_every_pattern_is_listed(sc):
    r = score(sc, "1111m2222m33m44m5m +5m")
    assert fans(r) == {"seven_pairs": (2, 1), "full_flush": (2, 1), "root": (1, 2)}
    assert r.uncapped == 6 and r.total == 5 and r.valid


def test_cap_with_events(sc):
    r = score(sc, "555m888m222m8p[2222p] +8p", self_drawn=True, kong_replacement=True, last_wall_tile=True)
    assert r.uncapped == sum(f.value * f.count for f in r.fans) > 5
    assert r.total == 5


def test_every_winning_shape_meets_the_zero_minimum(sc):
    r = score(sc, "123m456m789m123p5p +5p")
    assert r.valid


# -------------------------------------------------------------- missing suit

def test_missing_suit_held_is_not_a_win_at_all(sc):
    r = score(sc, "111m333m444p777p5p +5p", missing_suit="p")
    assert (r.valid, r.total, r.fans) == (False, 0, [])
    assert "missing suit" in r.reason


def test_declared_missing_suit_absent_is_a_win(sc):
    r = score(sc, "111m333m444p777p5p +5p", missing_suit="s")
    assert r.valid and fans(r) == {"all_pungs": (1, 1)}


def test_three_suits_without_a_declared_suit_is_not_a_win(sc):
    r = score(sc, "123m456m789m123s5p +5p")
    assert (r.valid, r.total, r.fans) == (False, 0, [])
    assert "three suits" in r.reason


def test_the_missing_suit_can_be_the_only_absent_one_of_a_flush(sc):
    r = score(sc, "123m234m678m99m45m +6m", missing_suit="p")
    assert r.valid and fans(r) == {"full_flush": (2, 1)}


# ------------------------------------------------------------ shapes that lose

@pytest.mark.parametrize("text", [
    "123m456m789m123p5p +6p",
    "11m33m55m77p88p99p2p +3p",
    "147m258m369p147p5p +5p",
])
def test_shapes_that_do_not_win(sc, text):
    r = score(sc, text)
    assert (r.valid, r.total, r.fans) == (False, 0, [])


def test_honors_and_flowers_are_not_sichuan_tiles(sc):
    with pytest.raises(HandError, match="not part of this variant"):
        score(sc, "123m456m789m123p1z +1z")
    with pytest.raises(HandError, match="no flowers"):
        score(sc, "123m456m789m123p5p 1f +5p")


# ------------------------------------------------------------------ CLI

def test_cli_missing_suit_flag(capsys):
    assert main(["score", "sichuan", "111m333m444p777p5p +5p", "--missing-suit", "p", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["valid"], out["total"], out["fans"]) == (False, 0, [])
    assert main(["score", "sichuan", "111m333m444p777p5p +5p", "--missing-suit", "s", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] and out["fans"] == [{"id": "all_pungs", "value": 1, "count": 1}]


def test_cli_table_shows_cap(capsys):
    assert main(["score", "sichuan", "1111m2222m33m44m5m +5m"]) == 0
    out = capsys.readouterr().out
    assert "Root" in out and "1 x 2 = 2" in out
    assert "total: 5 fan (capped from 6)" in out


def test_cli_jsonl_missing_suit_null_and_base(monkeypatch, capsys):
    import io

    lines = [
        {"hand": ["1m", "1m", "1m", "3m", "3m", "3m", "4p", "4p", "4p", "7p", "7p", "7p", "5p"],
         "win_tile": "5p", "missing_suit": None},
        {"hand": ["1m", "1m", "1m", "3m", "3m", "3m", "4p", "4p", "4p", "7p", "7p", "7p", "5p"],
         "win_tile": "5p", "missing_suit": "m"},
    ]
    data = "\n".join(json.dumps(x) for x in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data.encode())))
    assert main(["score", "sichuan", "--jsonl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0]["valid"] and out[0]["total"] == 1 and out[0]["base"] == 2
    assert (out[1]["valid"], out[1]["total"], out[1]["fans"]) == (False, 0, [])
