"""Events of the deal as names (first turn, dealer, tiles left...), payments that see who
pays, ``when`` on kong rules, and call transfer: exact payments from replayed deals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler import HandError, from_json, load_variant
from scenarios.helpers import checked, run_cli, scenario


def D(seat: int, tile: str) -> dict[str, Any]:
    return {"seat": seat, "do": "discard", "tile": tile}


def A(seat: int, do: str, **kw: object) -> dict[str, Any]:
    return {"seat": seat, "do": do, **kw}


def M(seat: int, suit: str) -> dict[str, Any]:
    return {"seat": seat, "do": "missing_suit", "suit": suit}


def pays(result: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]]


def fans(result: dict[str, Any], i: int = 0) -> dict[str, int]:
    return {f["id"]: f["count"] for f in result["wins"][i]["fans"]}


# The dealer is dealt a winning hand of two suits (bamboo is its missing suit).
HEAVEN = {0: "111m 234m 567m 789p 9p", 1: "", 2: "", 3: ""}


def test_heavenly_hand_scores_the_limit_when_the_option_is_on(tmp_path: Path, capsys: Any) -> None:
    scn = {**scenario("sichuan", HEAVEN, [M(0, "s"), A(0, "win")], dealer_draw="9p"),
           "options": {"heaven_earth": "on"}}
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    assert fans(r) == {"heavenly_hand": 1} and r["wins"][0]["total"] == 5
    # a self-drawn win: each player still in the deal pays min(2 ** 5, 32) + 1
    assert pays(r)[:3] == [(1, 0, 33, "win"), (2, 0, 33, "win"), (3, 0, 33, "win")]
    plain = scenario("sichuan", HEAVEN, [M(0, "s"), A(0, "win")], dealer_draw="9p")
    status, r, _ = run_cli(plain, tmp_path, capsys)
    assert status == 0 and "heavenly_hand" not in fans(checked(plain, r)) and r["wins"][0]["total"] < 5


def test_a_claim_ends_the_first_turns(tmp_path: Path, capsys: Any) -> None:
    # Seat 1 pungs the dealer's first discard, then seat 2 self-draws on its first draw: no earthly hand.
    hands = {0: "147m 258m 369p 147p 5s", 1: "55s 258m 369m 147s 2s 8s", 2: "111m 222p 333p 444p 9m",
             3: "123s 678s 789s 33m 5p 7p"}
    scn = {**scenario("sichuan", hands, [M(0, "s"), M(1, "p"), M(2, "s"), D(0, "5s"), A(1, "pung"), D(1, "2s"),
                                             A(2, "win")], dealer_draw="5s",
                      draws="9m"), "options": {"heaven_earth": "on"}}
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    win = r["wins"][0]
    assert win["seat"] == 2 and "earthly_hand" not in fans(r)


DEALER_DOUBLE = """\
extends: hk
id: hk_dealer_double
settlement:
  win:
    - {when: "self_drawn", from: each_opponent, amount: "2 * base if payer.dealer or winner.dealer else base"}
    - {when: "not self_drawn", from: discarder, amount: "6 * base if payer.dealer or winner.dealer else 3 * base"}
  kongs:
    - {kong: concealed, from: each_opponent, amount: "2", when: "payer.dealer and tiles_left > 0"}
"""

PRIORITY = {0: "147p 258s 369s 123z 9p", 1: "111m 123m 456m 789m 5z", 2: "55z 258p 147s 44z 7z 9m 9s",
            3: "369p 3m 3m 6m 6z 6z 2z 3z 4z 1z"}


def test_the_dealer_pays_double(tmp_path: Path, capsys: Any) -> None:
    variant = tmp_path / "dealer-double.yaml"
    variant.write_text(DEALER_DOUBLE, encoding="utf-8")
    scn = scenario(str(variant), PRIORITY, [D(0, "7z"), A(1, "win")], dealer_draw="7z", draws="5z")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    assert r["wins"][0]["total"] == 6  # base 64
    assert pays(r) == [(2, 1, 64, "win"), (3, 1, 64, "win"), (0, 1, 128, "win")]
    scn = scenario(str(variant), PRIORITY, [D(0, "5z"), A(1, "win")], dealer_draw="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0 and pays(r) == [(0, 1, 6 * 32, "win")]  # 5 faan, the dealer discarded


# The dealer kongs 1m at once, discards its replacement 5s; seat 1 wins on it.
TRANSFER = {0: "1111m 234m 567m 23p 5p", 1: "111p 222p 333p 444s 5s", 2: "", 3: ""}


@pytest.mark.parametrize("option, moved", [("on", True), ("off", False)])
def test_call_transfer_moves_the_kong_money_to_the_winner(option: str, moved: bool, tmp_path: Path,
                                                          capsys: Any) -> None:
    scn = {**scenario("sichuan", TRANSFER, [M(0, "s"), M(1, "m"), A(0, "kong", tile="1m"), D(0, "5s"),
                                                A(1, "win")], dealer_draw="9p",
                      tail="5s"), "options": {"call_transfer": option}}
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    kong = [(1, 0, 2, "concealed_kong"), (2, 0, 2, "concealed_kong"), (3, 0, 2, "concealed_kong")]
    win = (r["wins"][0]["seat"], r["wins"][0]["from"], r["wins"][0]["total"])
    assert win == (1, 0, 1)  # all pungs: base 2
    expected = kong + [(0, 1, 2, "win")] + ([(0, 1, 6, "call_transfer")] if moved else [])
    assert pays(r)[:len(expected)] == expected
    assert "call_transfer" not in [p[3] for p in pays(r)[len(expected):]]
    # a transferred kong is refunded by no one at the end of the wall
    refunds = [p for p in pays(r) if p[3] == "kong_refund"]
    assert not moved or not any(p[0] == 0 for p in refunds)


def test_a_scoring_request_names_events_of_the_deal() -> None:
    hk = load_variant("hk")
    hand = {"hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2m"], "win_tile": "2m",
            "self_drawn": True}
    assert from_json(hand).extra == {}
    assert from_json({**hand, "deal": {"first_turn": True, "tiles_left": 3}}).extra == {
        "deal": {"first_turn": True, "tiles_left": 3}}
    for bad, message in (({"first": True}, "unknown event 'first'"), ({"tiles_left": -1}, "0-999"),
                         ({"dealer": 1}, "expected true or false")):
        with pytest.raises(HandError, match=message):
            from_json({**hand, "deal": bad})
    assert hk.scorer.score(from_json({**hand, "deal": {"dealer": True}})).valid in (True, False)
