"""Hong Kong scoring, pattern by pattern: the ids, values and decisions of variants/hk.yaml.

Every test goes through the public API: ``load_variant("hk").scorer.score(parse_notation(...))``;
a few go through ``cardavia score``.
"""

from __future__ import annotations

import json

import pytest
from cardavia.compiler import HandError, load_variant, parse_notation

from cardavia.cli import main


@pytest.fixture(scope="module")
def hk():
    return load_variant("hk")


def score(variant, text: str, **flags):
    return variant.scorer.score(parse_notation(text, **flags))


def fans(result) -> dict[str, tuple[int, int]]:
    """{id: (value, count)} of a result."""
    return {f.id: (f.value, f.count) for f in result.fans}


def assert_total_is_sum(result, cap: int = 13) -> None:
    raw = sum(f.value * f.count for f in result.fans)
    assert result.uncapped == raw
    assert result.total == min(raw, cap)


# ------------------------------------------------------------------ table shape

EXPECTED_VALUES = {
    "thirteen_orphans": 13, "all_honors": 13, "all_terminals": 13, "great_three_dragons": 13,
    "great_four_winds": 13, "four_kongs": 13, "nine_gates": 13, "four_concealed_pungs": 13,
    "all_chows": 1, "concealed_hand": 1, "self_drawn": 1, "no_flowers": 1, "dragon_pung": 1,
    "seat_wind_pung": 1, "round_wind_pung": 1, "little_three_dragons": 5, "all_pungs": 3,
    "half_flush": 3, "full_flush": 7, "seven_pairs": 4, "seat_flower": 1, "all_flowers": 2,
    "all_seasons": 2, "kong_replacement": 1, "robbing_kong": 1, "last_wall_draw": 1, "last_discard": 1,
}
LIMITS = ["thirteen_orphans", "all_honors", "all_terminals", "great_three_dragons", "great_four_winds",
          "four_kongs", "nine_gates", "four_concealed_pungs"]


def test_table_has_exactly_the_rules_ids_and_values(hk):
    patterns = hk.scoring.table.patterns
    assert {p.id: p.value for p in patterns} == EXPECTED_VALUES
    assert [p.id for p in patterns if p.limit] == LIMITS  # table order decides between two limits
    assert hk.scoring.minimum == 3 and hk.scoring.cap == 13
    for p in patterns:
        assert p.name and p.name[0].isupper() and "_" not in p.name
        assert p.description.endswith(".") and "\n" not in p.description


# ------------------------------------------------------------ ordinary patterns

def test_all_chows_needs_a_suited_pair(hk):
    r = score(hk, "123m456m789m123p5p +5p")
    assert fans(r) == {"all_chows": (1, 1), "concealed_hand": (1, 1), "no_flowers": (1, 1)}
    assert r.valid and r.total == 3
    honor_pair = score(hk, "123m456m789m123p1z +1z")
    assert "all_chows" not in fans(honor_pair)


def test_all_chows_with_declared_chows(hk):
    r = score(hk, "123m456m[789m][123p]5p +5p")
    assert "all_chows" in fans(r) and "concealed_hand" not in fans(r)


def test_concealed_hand_counts_on_a_discard_and_with_concealed_kongs(hk):
    assert "concealed_hand" in fans(score(hk, "123m456m789m123p5p +5p"))
    r = score(hk, "123m456m789m5p{1111z} +5p", self_drawn=True)
    assert {"concealed_hand", "self_drawn"} <= set(fans(r))
    assert "concealed_hand" not in fans(score(hk, "123m456m789m5p[1111z] +5p"))
    assert "concealed_hand" not in fans(score(hk, "123m456m789m5p[111z] +5p"))


def test_self_drawn_combines_with_concealed_hand(hk):
    r = score(hk, "123m456m789m123p5p +5p", self_drawn=True)
    assert fans(r)["self_drawn"] == (1, 1) and fans(r)["concealed_hand"] == (1, 1)
    assert r.total == 4


def test_no_flowers_and_a_flower(hk):
    assert "no_flowers" in fans(score(hk, "123m456m789m123p5p +5p"))
    r = score(hk, "123m456m789m123p5p 3f +5p")
    assert "no_flowers" not in fans(r) and "seat_flower" not in fans(r)


def test_dragon_pung_counts_each_dragon_pung_or_kong(hk):
    r = score(hk, "123m456m1p[555z][6666z] +1p")
    assert fans(r)["dragon_pung"] == (1, 2)
    assert_total_is_sum(r)


def test_seat_and_round_wind_pungs_count_separately(hk):
    east = score(hk, "123m456m789m1p[111z] +1p", seat_wind="E")
    assert fans(east)["seat_wind_pung"] == (1, 1) and fans(east)["round_wind_pung"] == (1, 1)
    south = score(hk, "123m456m789m1p[111z] +1p", seat_wind="S")
    assert "seat_wind_pung" not in fans(south) and fans(south)["round_wind_pung"] == (1, 1)
    own = score(hk, "123m456m789m1p[2222z] +1p", seat_wind="S", round_wind="E")
    assert fans(own)["seat_wind_pung"] == (1, 1) and "round_wind_pung" not in fans(own)
    south_round = score(hk, "123m456m789m1p[222z] +1p", seat_wind="S", round_wind="S")
    assert fans(south_round)["seat_wind_pung"] == (1, 1) and fans(south_round)["round_wind_pung"] == (1, 1)


def test_little_three_dragons_replaces_the_two_dragon_pungs(hk):
    r = score(hk, "555z666z77z123m45m +6m")
    assert fans(r) == {"little_three_dragons": (5, 1), "half_flush": (3, 1), "concealed_hand": (1, 1),
                       "no_flowers": (1, 1)}
    assert r.total == 10


def test_two_dragon_pungs_without_the_dragon_pair_are_not_little_three_dragons(hk):
    r = score(hk, "555z666z11z123m45m +6m")
    assert "little_three_dragons" not in fans(r) and fans(r)["dragon_pung"] == (1, 2)


def test_all_pungs(hk):
    r = score(hk, "111m555p[999s][222p]3s +3s")
    assert fans(r) == {"all_pungs": (3, 1), "no_flowers": (1, 1)}
    assert r.valid and r.total == 4


def test_half_flush_and_full_flush(hk):
    half = score(hk, "123m456m789m1z[222m] +1z")
    assert fans(half)["half_flush"] == (3, 1) and "full_flush" not in fans(half)
    full = score(hk, "123m456m789m1m[222m] +1m")
    assert fans(full)["full_flush"] == (7, 1) and "half_flush" not in fans(full)
    mixed = score(hk, "123m456m789m1z[222p] +1z")
    assert "half_flush" not in fans(mixed) and "full_flush" not in fans(mixed)


def test_seven_pairs_combines_with_flush_and_concealed_hand_not_set_patterns(hk):
    r = score(hk, "11m22m33p44p55s66s7z +7z", self_drawn=True)
    assert fans(r) == {"seven_pairs": (4, 1), "concealed_hand": (1, 1), "self_drawn": (1, 1), "no_flowers": (1, 1)}
    assert r.shape == "seven_pairs" and r.total == 7
    flush = score(hk, "11m22m33m44m66m77m9m +9m")
    assert {"seven_pairs", "full_flush"} <= set(fans(flush))


def test_seven_pairs_with_honor_pairs_does_not_count_dragon_pungs(hk):
    r = score(hk, "11m22m33m55z66z77z9m +9m")
    assert fans(r) == {"seven_pairs": (4, 1), "half_flush": (3, 1), "concealed_hand": (1, 1), "no_flowers": (1, 1)}


def test_four_identical_tiles_are_not_two_pairs(hk):
    r = score(hk, "11m11m22p33p44s55s6z +6z")
    assert not r.valid and r.total == 0 and r.fans == []


def test_seat_flower_per_group(hk):
    east = score(hk, "123m456m789m123p5p 1f5f +5p", seat_wind="E")
    assert fans(east)["seat_flower"] == (1, 2)
    west = score(hk, "123m456m789m123p5p 1f7f +5p", seat_wind="W")
    assert fans(west)["seat_flower"] == (1, 1)
    north = score(hk, "123m456m789m123p5p 1f2f +5p", seat_wind="N")
    assert "seat_flower" not in fans(north)


def test_all_flowers_replaces_that_groups_seat_flower(hk):
    r = score(hk, "123m456m789m123p5p 1234f +5p", seat_wind="S")
    assert fans(r) == {"all_chows": (1, 1), "concealed_hand": (1, 1), "all_flowers": (2, 1)}
    with_season = score(hk, "123m456m789m123p5p 1234f6f +5p", seat_wind="S")
    assert fans(with_season)["all_flowers"] == (2, 1) and fans(with_season)["seat_flower"] == (1, 1)


def test_all_seasons_and_all_flowers_together(hk):
    r = score(hk, "123m456m789m123p5p 12345678f +5p", seat_wind="N")
    assert fans(r)["all_flowers"] == (2, 1) and fans(r)["all_seasons"] == (2, 1)
    assert "seat_flower" not in fans(r) and "no_flowers" not in fans(r)
    assert r.total == 6


@pytest.mark.parametrize("flags, expected", [
    ({"self_drawn": True, "kong_replacement": True}, {"kong_replacement", "self_drawn"}),
    ({"robbing_kong": True}, {"robbing_kong"}),
    ({"self_drawn": True, "last_wall_tile": True}, {"last_wall_draw", "self_drawn"}),
    ({"last_wall_tile": True}, {"last_discard"}),
    ({"self_drawn": True, "kong_replacement": True, "last_wall_tile": True},
     {"kong_replacement", "last_wall_draw", "self_drawn"}),
])
def test_win_events_add_one_each_and_exclude_nothing(hk, flags, expected):
    plain = score(hk, "123m456m789m5p[1111z] +5p")
    r = score(hk, "123m456m789m5p[1111z] +5p", **flags)
    events = {"kong_replacement", "robbing_kong", "last_wall_draw", "last_discard", "self_drawn"}
    assert set(fans(r)) & events == expected
    assert set(fans(plain)) <= set(fans(r))
    assert r.total == plain.total + len(expected)


def test_last_tile_of_kind_is_not_a_hong_kong_pattern(hk):
    assert fans(score(hk, "123m456m789m123p5p +5p", last_tile_of_kind=True)) == fans(
        score(hk, "123m456m789m123p5p +5p"))


# ------------------------------------------------------------------ limit hands

@pytest.mark.parametrize("limit, text, flags", [
    ("thirteen_orphans", "19m19p19s1234567z +1m", {}),
    ("thirteen_orphans", "119m19p19s123456z +7z", {"self_drawn": True}),
    ("all_honors", "111z222z555z6z[777z] +6z", {}),
    ("all_honors", "11z22z33z44z55z66z7z +7z", {}),
    ("all_terminals", "111m999m111p9s[999p] +9s", {}),
    ("great_three_dragons", "555z666z777z123m2m +2m", {}),
    ("great_four_winds", "111z222z333z4m[4444z] +4m", {}),
    ("four_kongs", "5p[1111m][2222p][3333s]{4444s} +5p", {}),
    ("nine_gates", "1112345678999m +5m", {}),
    ("nine_gates", "1112345678999p +1p", {"self_drawn": True}),
    ("nine_gates", "1112345678999s +9s", {}),
    ("four_concealed_pungs", "111m555p999s222z3s +3s", {"self_drawn": True}),
    ("four_concealed_pungs", "111m555p222z3s{9999s} +3s", {"self_drawn": True}),
])
def test_limit_hand_is_13_with_no_other_pattern(hk, limit, text, flags):
    r = score(hk, text, **flags)
    assert fans(r) == {limit: (13, 1)}
    assert r.valid and r.total == 13


def test_limit_ignores_flowers_and_events(hk):
    r = score(hk, "19m19p19s1234567z 1234f +1m", self_drawn=True, last_wall_tile=True)
    assert fans(r) == {"thirteen_orphans": (13, 1)}


def test_first_listed_limit_is_reported(hk):
    # All honors and great three dragons both hold: all honors comes first in the table.
    r = score(hk, "555z666z777z111z2z +2z")
    assert fans(r) == {"all_honors": (13, 1)}
    # Four kongs of terminals: all terminals is listed before four kongs.
    r = score(hk, "9p[1111m][9999m][1111p][1111s] +9p")
    assert fans(r) == {"all_terminals": (13, 1)}


def test_nine_gates_needs_the_thirteen_held_tiles_to_be_the_gates(hk):
    # Same suit, same fourteen-tile count pattern, but the tiles held were 1113345678999.
    r = score(hk, "1113345678999m +2m")
    assert "nine_gates" not in fans(r) and fans(r)["full_flush"] == (7, 1)
    declared = score(hk, "2345678999m[111m] +5m")
    assert "nine_gates" not in fans(declared)


def test_four_concealed_pungs_won_on_a_discard_scores_ordinary_patterns(hk):
    r = score(hk, "111m555p999s222z3s +3s")
    assert fans(r) == {"all_pungs": (3, 1), "concealed_hand": (1, 1), "no_flowers": (1, 1)}
    assert r.total == 5
    exposed = score(hk, "111m555p222z3s[999s] +3s", self_drawn=True)
    assert "four_concealed_pungs" not in fans(exposed) and "all_pungs" in fans(exposed)


def test_small_four_winds_is_not_great_four_winds(hk):
    r = score(hk, "111z222z333z4z567m +4z")
    assert "great_four_winds" not in fans(r)


# ------------------------------------------------------------- cap and minimum

def test_cap_limits_the_total_but_every_pattern_is_listed(hk):
    r = score(hk, "11m22m33m44m55m66m7m +7m", self_drawn=True)
    assert fans(r) == {"seven_pairs": (4, 1), "full_flush": (7, 1), "concealed_hand": (1, 1),
                       "self_drawn": (1, 1), "no_flowers": (1, 1)}
    assert r.uncapped == 14 and r.total == 13 and r.valid


def test_big_ordinary_hand_is_capped_at_13(hk):
    r = score(hk, "111m222m333m4m[999m] 12345f +4m", self_drawn=True, seat_wind="E")
    assert {"full_flush", "all_pungs", "all_flowers", "seat_flower", "self_drawn"} <= set(fans(r))
    assert r.uncapped > 13 and r.total == 13
    assert_total_is_sum(r)


def test_below_the_minimum_is_reported_with_its_patterns(hk):
    r = score(hk, "123m456m789m5p[123p] 3f +5p")
    assert not r.valid
    assert fans(r) == {"all_chows": (1, 1)} and r.total == 1
    assert "minimum" in r.reason


def test_flowers_count_toward_the_minimum(hk):
    r = score(hk, "123m456m789m5p[123p] 12f +5p", seat_wind="S")
    assert fans(r) == {"all_chows": (1, 1), "seat_flower": (1, 1)}
    assert not r.valid
    r = score(hk, "123m456m789m5p[123p] 26f +5p", seat_wind="S")
    assert fans(r) == {"all_chows": (1, 1), "seat_flower": (1, 2)}
    assert r.valid and r.total == 3


def test_chicken_hand_is_a_winning_shape_worth_nothing(hk):
    r = score(hk, "123m456m789m1z[555p] 3f +1z")
    assert r.fans == [] and r.total == 0 and not r.valid
    assert r.arrangement is not None


# -------------------------------------------------------- arrangement choice

def test_the_arrangement_with_the_highest_total_is_used(hk):
    # 111222333m can be three pungs or three chows: pungs give all pungs (3).
    r = score(hk, "111222333m555p7s +7s")
    assert fans(r)["all_pungs"] == (3, 1) and "all_chows" not in fans(r)
    # With a chow elsewhere, the chows arrangement gives all chows.
    r = score(hk, "111222333m456p7s +7s")
    assert fans(r)["all_chows"] == (1, 1)


def test_seven_pairs_or_standard_whichever_scores_more(hk):
    r = score(hk, "112233m445566p7s +7s")
    assert r.shape == "seven_pairs" and r.total == 6
    # As chows, 112233m445566p77s would be all chows (1) + concealed (1) + no flowers (1) = 3.


# ------------------------------------------------------------ shapes that lose

@pytest.mark.parametrize("text", [
    "123m456m789m123p5p +6p",
    "123m456m789m124p5p +5p",
    "19m19p19s1234566z +6z",
    "11m22m33p44p55s66s7z +1z",
    "159m159p159s1234z +4z",
])
def test_shapes_that_do_not_win(hk, text):
    r = score(hk, text)
    assert (r.valid, r.total, r.fans) == (False, 0, [])
    assert r.reason == "not a winning shape"


@pytest.mark.parametrize("text, flags, message", [
    ("123m456m789m123p5p +5p", {"robbing_kong": True, "self_drawn": True}, "robbing_kong"),
    ("123m456m789m123p5p +5p", {"kong_replacement": True, "self_drawn": True}, "kong"),
    ("123m456m789m5p[1111z] +5p", {"kong_replacement": True}, "self_drawn"),
    ("11111m456m789m12p +5p", {}, "5 copies of 1m"),
    ("123m456m789m123p +5p", {}, "wrong tile count"),
    ("123m456m789m123p5p 1f1f +5p", {}, "flower is listed twice"),
])
def test_bad_hands_are_rejected_with_a_reason(hk, text, flags, message):
    with pytest.raises(HandError, match=message):
        score(hk, text, **flags)


# ------------------------------------------------------------------ through the CLI

def test_cli_json_matches_the_api(hk, capsys):
    assert main(["score", "hk", "555z666z77z123m45m +6m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is True and out["total"] == 10
    assert {"id": "little_three_dragons", "value": 5, "count": 1} in out["fans"]
    assert out["base"] == 2 ** 10


def test_cli_table_for_a_limit_hand(capsys):
    assert main(["score", "hk", "19m19p19s1234567z +1m", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "Thirteen orphans" in out and "thirteen_orphans" in out
    assert "total: 13 faan" in out and "valid win" in out


def test_cli_seat_flag(capsys):
    assert main(["score", "hk", "123m456m789m1p[222z] +1p", "--seat", "S", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"id": "seat_wind_pung", "value": 1, "count": 1} in out["fans"]
    assert not any(f["id"] == "round_wind_pung" for f in out["fans"])
