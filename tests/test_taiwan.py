"""The shipped Taiwanese 16-tile variant: hands scored by its 台 table (each total worked out
by hand from variants/taiwan.yaml), and replayed deals with exact payments, the dealer's
台 paid between the dealer and the winner only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler import HandError, from_json, load_variant
from cardavia.runtime.simulate import simulate
from scenarios.helpers import checked, run_cli, scenario

from cardavia.render.catalog import PATTERN_NAME, translator, variant_text


def D(seat: int, tile: str) -> dict[str, Any]:
    return {"seat": seat, "do": "discard", "tile": tile}


def W(seat: int) -> dict[str, Any]:
    return {"seat": seat, "do": "win"}


def fans(result: Any) -> dict[str, int]:
    return {f.id: f.count for f in result.fans}


def tiles(text: str) -> list[str]:
    """Compact notation ("123m 5z") as a list of codes."""
    out: list[str] = []
    for group in text.split():
        out += [d + group[-1] for d in group[:-1]]
    return out


def score(hand: str, win: str, **request: Any) -> Any:
    return load_variant("taiwan").scorer.score(from_json({"hand": tiles(hand), "win_tile": win, **request}))


# (hand, winning tile, the rest of the request, the patterns counted, the total)
HANDS = [
    # 平胡 2 (five chows, no honor or flower, a two-sided wait on a discard) and 門清 1
    ("123m 456m 789p 234s 67s 55p", "8s", {"seat_wind": "S"},
     {"all_chows": 1, "concealed": 1}, 3),
    # the dealer kept two deals (莊家 1, 連二拉二 4), 大三元 8 (its pungs not counted again),
    # 四暗刻 5, 門清自摸 3, 獨聽 1 (only 9s completes the pair)
    ("555z 666z 777z 111m 234p 9s", "9s", {"self_drawn": True, "deal": {"dealer": True, "dealer_repeats": 2}},
     {"dealer": 1, "dealer_kept": 2, "big_three_dragons": 1, "four_concealed_pungs": 1,
      "concealed_self_drawn": 1, "single_wait": 1}, 22),
    # 全求 2 on a discard, 獨聽 1, 圈風 (East) 1, 門風 (North) 1, 三元 1, 正花 4f and 8f 2
    ("8s", "8s", {"seat_wind": "N", "flowers": ["4f", "8f"],
                  "melds": [{"type": "pung", "tiles": ["1z"] * 3}, {"type": "pung", "tiles": ["4z"] * 3},
                            {"type": "chow", "tiles": ["1m", "2m", "3m"]}, {"type": "pung", "tiles": ["7p"] * 3},
                            {"type": "pung", "tiles": ["5z"] * 3}]},
     {"all_claimed": 1, "single_wait": 1, "round_wind_pung": 1, "seat_wind_pung": 1, "dragon_pung": 1,
      "seat_flower": 2}, 8),
    # 花槓 2 (1f-4f) takes the place of West's 3f, 7f still counts; 槓上開花 on a flower's
    # replacement 1, 門清自摸 3, 獨聽 1, 圈風 (South round) 1
    ("123m 456m 789m 567s 222z 3z", "3z", {"seat_wind": "W", "round_wind": "S", "self_drawn": True,
                                            "flowers": ["1f", "2f", "3f", "4f", "7f"],
                                            "deal": {"flower_replacement": True}},
     {"flower_kong": 1, "seat_flower": 1, "kong_replacement": 1, "concealed_self_drawn": 1, "single_wait": 1,
      "round_wind_pung": 1}, 9),
    # 天胡 24 in place of 門清自摸, with 莊家 1 and 獨聽 1
    ("123m 456m 789m 123p 456p 9p", "9p", {"self_drawn": True, "deal": {"dealer": True, "first_turn": True}},
     {"heavenly_hand": 1, "dealer": 1, "single_wait": 1}, 26),
    # 清一色 8, 碰碰胡 4, 四暗刻 5 (111p, 222p, 333p and the concealed kong: the 555p a discard
    # completes is not concealed), 門清 1 (a concealed kong keeps the hand concealed)
    ("111p 222p 333p 55p 99p", "5p",
     {"seat_wind": "S", "melds": [{"type": "kong", "tiles": ["7p"] * 4, "concealed": True}]},
     {"full_flush": 1, "all_pungs": 1, "four_concealed_pungs": 1, "concealed": 1}, 18),
    # 0 台 still wins (no minimum): a claimed chow, a flower of another seat, a two-sided wait
    ("456m 789p 234s 67s 55p", "8s", {"seat_wind": "S", "flowers": ["1f"],
                                      "melds": [{"type": "chow", "tiles": ["1m", "2m", "3m"]}]},
     {}, 0),
]


@pytest.mark.parametrize("hand, win, request_, expected, total", HANDS)
def test_hands_score_their_tai(hand: str, win: str, request_: dict[str, Any], expected: dict[str, int],
                               total: int) -> None:
    result = score(hand, win, **request_)
    assert result.valid
    assert {k: v for k, v in fans(result).items()} == expected
    assert result.total == total


def test_a_flower_replacement_needs_a_flower_and_a_draw() -> None:
    with pytest.raises(HandError, match="flower_replacement needs self_drawn and a flower"):
        score("123m 456m 789m 567s 222z 3z", "3z", self_drawn=True, deal={"flower_replacement": True})


# Seat 1 waits on 1z with two dragon pungs, concealed; the dealer, who has kept one deal,
# discards it on its second turn.
ON_DISCARD = {0: "147m 258p 369s 23z 47z 58m 8s", 1: "555z 666z 123m 456p 789s 1z",
              2: "258m 369m 369p 258s 147s 1z", 3: "111s 222s 333s 444s 555s 6s"}


def test_the_dealer_pays_its_tai_on_a_discard(tmp_path: Path, capsys: Any) -> None:
    scn = {**scenario("taiwan", ON_DISCARD, [D(0, "9m"), D(1, "9p"), D(0, "1z"), W(1)], dealer_draw="9m",
                      draws="9p 7p 9s 1z"), "dealer_repeats": 1}
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    win = r["wins"][0]
    assert (win["seat"], win["from"], win["total"]) == (1, 0, 4)
    assert {f["id"]: f["count"] for f in win["fans"]} == {"concealed": 1, "dragon_pung": 2, "single_wait": 1}
    # 100 + 20 for each of the 4 台, and the dealer's 1 + 2 * 1 台 on top: 180 + 60
    assert r["payments"] == [{"from": 0, "to": 1, "amount": 240, "reason": "win"}]
    assert r["deltas"] == [-240, 240, 0, 0] and r["dealer_repeats"] == 1
    deal = [e for e in r["events"] if e["type"] == "deal"]
    assert [len(e["ids"]) for e in deal] == [16, 16, 16, 16]


# The dealer, who has kept two deals, draws its own flower (1f) on its second turn and wins
# on the replacement, 3z.
SELF_DRAWN = {0: "123m 456m 789m 234p 555z 3z", 1: "147m 258p 369s 147p 2z 4z 6z 7z",
              2: "258m 369m 369p 258s 147s 1z", 3: "111s 222s 333s 444s 555s 6s"}


def test_a_dealer_self_drawn_on_a_flower_replacement(tmp_path: Path, capsys: Any) -> None:
    scn = {**scenario("taiwan", SELF_DRAWN, [D(0, "9s"), W(0)], dealer_draw="9s", draws="9p 8p 7p 1f", tail="3z"),
           "dealer_repeats": 2}
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    win = r["wins"][0]
    assert (win["seat"], win["from"], win["total"]) == (0, None, 12)
    assert {f["id"]: f["count"] for f in win["fans"]} == {
        "dealer": 1, "dealer_kept": 2, "dragon_pung": 1, "concealed_self_drawn": 1, "single_wait": 1,
        "kong_replacement": 1, "seat_flower": 1}
    # the dealer's 5 台 are in the total: each other player pays 100 + 20 * 12
    assert [(p["from"], p["amount"]) for p in r["payments"]] == [(1, 340), (2, 340), (3, 340)]
    assert r["deltas"] == [1020, -340, -340, -340]


def test_a_bad_dealer_repeats_is_refused(tmp_path: Path, capsys: Any) -> None:
    scn = {**scenario("taiwan", ON_DISCARD, [], dealer_draw="9m"), "dealer_repeats": -1}
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status != 0 and r is None and "'dealer_repeats' is -1" in err


def test_the_variant_compiles_and_plays_soundly(capsys: Any) -> None:
    from cardavia.cli import main

    assert main(["check", "taiwan"]) == 0
    out = capsys.readouterr().out
    assert "tiles: 144" in out and "deal: dealer 17, others 16" in out and "minimum: 0 tai" in out
    played = simulate("taiwan", 200, seed=7, players=["baseline"] * 4)
    assert played["deals"] == 200 and played["invariant_violations"] == 0


def test_traditional_chinese_pages_use_the_taiwanese_names(capsys: Any) -> None:
    from cardavia.cli import main

    t = translator("zh-Hant")
    v = load_variant("taiwan")
    names = {p.id: variant_text(t, v.scoring.unit, PATTERN_NAME, p.name) for p in v.scoring.table.patterns}
    assert {k: names[k] for k in ("all_pungs", "all_chows", "concealed_self_drawn", "all_claimed", "single_wait",
                                  "kong_replacement", "dealer_kept", "seat_flower")} == {
        "all_pungs": "碰碰胡", "all_chows": "平胡", "concealed_self_drawn": "門清自摸", "all_claimed": "全求人",
        "single_wait": "獨聽", "kong_replacement": "槓上開花", "dealer_kept": "連莊拉莊", "seat_flower": "正花"}
    # Hong Kong keeps its Cantonese name for the same English text
    assert variant_text(t, "faan", PATTERN_NAME, "All pungs") == "對對糊"
    assert main(["rules", "taiwan", "--lang", "zh-Hant", "--format", "txt"]) == 0
    page = capsys.readouterr().out
    assert page.splitlines()[0] == "台灣十六張麻將" and "碰碰胡 — 4" in page
