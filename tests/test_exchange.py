"""The exchange of tiles before play (``play.exchange``; Sichuan's 换三张 option)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler import VariantError, compile_file, load_variant
from cardavia.runtime.actions import Action, ActionError
from cardavia.runtime.exchange import dice_of, direction_of, target
from cardavia.runtime.simulate import simulate
from scenarios.helpers import checked, run_cli, scenario

NEXT = "extends: sichuan\nid: sichuan_pass_next\nplay:\n  exchange: {tiles: 3, same_suit: true, direction: next}\n"


def test_three_tiles_pass_to_the_next_player_and_the_dealer_wins_at_once(tmp_path: Path, capsys: Any) -> None:
    variant = tmp_path / "pass-next.yaml"
    variant.write_text(NEXT, encoding="utf-8")
    # The dealer passes 1s 2s 9s to seat 1 and gets 555p from seat 3: 111m 234m 567m 555p 88m wins.
    hands = {0: "111m 234m 567m 8m 1s 2s 9s", 1: "", 2: "", 3: "555p"}
    actions = [{"seat": 0, "do": "exchange", "tiles": ["1s", "2s", "9s"]},
               {"seat": 3, "do": "exchange", "tiles": ["5p", "5p", "5p"]},
               {"seat": 0, "do": "missing_suit", "suit": "s"}, {"seat": 0, "do": "win"}]
    scn = scenario(str(variant), hands, actions, dealer_draw="8m")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    moves = {e["seat"]: (e["to"], e["tiles"]) for e in r["events"] if e["type"] == "exchange"}
    assert moves[0] == (1, ["1s", "2s", "9s"]) and moves[3] == (0, ["5p", "5p", "5p"])
    assert set(moves) == {0, 1, 2, 3} and all(to == (s + 1) % 4 for s, (to, _) in moves.items())
    assert [(w["seat"], w["from"], w["total"]) for w in r["wins"]] == [(0, None, 0)]
    # a self-drawn basic hand: base 2 ** 0, each player still in the deal pays base + 1
    assert [(p["from"], p["to"], p["amount"]) for p in r["payments"]][:3] == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]


def test_an_exchange_not_offered_is_refused(tmp_path: Path, capsys: Any) -> None:
    variant = tmp_path / "pass-next.yaml"
    variant.write_text(NEXT, encoding="utf-8")
    scn = scenario(str(variant), {0: "111m 234m 567m 8m 1s 2s 9s"},
                   [{"seat": 0, "do": "exchange", "tiles": ["1s", "2s", "1m"]}], dealer_draw="8m")
    status, _, err = run_cli(scn, tmp_path, capsys)
    assert status == 2 and "pass on 1m 1s 2s is not a legal answer" in err
    with pytest.raises(ActionError, match="names the 'tiles'"):
        Action.from_json({"do": "exchange"})


def test_the_dice_decide_the_direction() -> None:
    v = load_variant("sichuan", {"exchange": "on"})
    assert v.play.exchange == {"tiles": 3, "same_suit": True, "direction": "dice",
                               "dice": {"across": [3, 6, 9, 12], "next": [4, 7, 10], "previous": [2, 5, 8, 11]}}
    wall = list(range(108))
    d1, d2 = dice_of(wall)
    assert (d1, d2) == (107 % 6 + 1, 106 % 6 + 1)
    assert direction_of(v.play.exchange, wall) == {0: "across", 1: "next", 2: "previous"}[(d1 + d2) % 3]
    assert [target(0, d, 4) for d in ("next", "across", "previous")] == [1, 2, 3]


ODD_EVEN = NEXT.replace("direction: next}", "direction: dice, dice: {next: [3, 5, 7, 9, 11], "
                                            "previous: [2, 4, 6, 8, 10, 12]}}")


def test_a_variant_says_which_totals_go_which_way(tmp_path: Path) -> None:
    path = tmp_path / "odd-even.yaml"
    path.write_text(ODD_EVEN, encoding="utf-8")
    v = compile_file(path)
    for wall_end, expected in (([0, 0], "previous"), ([0, 1], "next"), ([5, 5], "previous"), ([4, 5], "next")):
        wall = list(range(2, 108)) + wall_end  # the dice: each of the last two ids % 6 + 1
        assert direction_of(v.play.exchange, wall) == expected
    out = simulate(str(path), 20, seed=1)
    assert out["invariant_violations"] == 0


@pytest.mark.parametrize("dice, message", [
    ("{next: [3, 5, 7, 9, 11], previous: [2, 4, 6, 8, 10]}", "expected every total of two dice, 2 to 12, once: "
                                                             "missing 12"),
    ("{next: [2, 3, 5, 7, 9, 11], previous: [2, 4, 6, 8, 10, 12]}", "given twice 2"),
    ("{next: [3, 5, 7, 9, 11], previous: [2, 4, 6, 8, 10, 13]}", "expected a number <= 12"),
])
def test_dice_that_leave_a_total_without_a_direction_are_refused(tmp_path: Path, dice: str, message: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(NEXT.replace("direction: next}", f"direction: dice, dice: {dice}}}"), encoding="utf-8")
    with pytest.raises(VariantError) as info:
        compile_file(bad)
    assert "bad.yaml:4:" in str(info.value) and message in str(info.value)


def test_dice_with_a_fixed_direction_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(NEXT.replace("direction: next}", "direction: next, dice: {next: [2]}}"), encoding="utf-8")
    with pytest.raises(VariantError, match="dice say where tiles go only with direction: dice, not 'next'"):
        compile_file(bad)


def test_more_tiles_than_a_hand_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(NEXT.replace("tiles: 3", "tiles: 14"), encoding="utf-8")
    with pytest.raises(VariantError, match=r"play\.exchange\.tiles: expected a number <= 13"):
        compile_file(bad)


def test_the_exchange_option_simulates_soundly() -> None:
    # The AI passes the tiles (200 deals of each choice with baseline bots: test_options_cli.py).
    out = simulate("sichuan", 50, seed=5, options={"exchange": "on"})
    assert out["deals"] == 50 and out["invariant_violations"] == 0
