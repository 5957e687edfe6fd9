"""Replay scenarios for the table rules all variants share and Hong Kong's payments
(variants/hk.yaml), exact deltas."""

from __future__ import annotations

from scenarios.helpers import checked, run_cli, scenario


def D(seat: int, tile: str) -> dict:
    return {"seat": seat, "do": "discard", "tile": tile}


def A(seat: int, do: str, **kw: object) -> dict:
    return {"seat": seat, "do": do, **kw}


def pays(result: dict) -> list[tuple[int, int, int, str]]:
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]]


def wins(result: dict) -> list[tuple[int, int | None, int]]:
    return [(w["seat"], w["from"], w["total"]) for w in result["wins"]]


def fans(result: dict, i: int = 0) -> dict[str, int]:
    return {f["id"]: f["count"] for f in result["wins"][i]["fans"]}


# Seat 1 waits on 5z (half flush), seat 2 holds a pair of 5z.
PRIORITY = {0: "147p 258s 369s 123z 9p", 1: "111m 123m 456m 789m 5z", 2: "55z 258p 147s 44z 7z 9m 9s",
            3: "369p 3m 3m 6m 6z 6z 2z 3z 4z 1z"}


def test_win_beats_pung_and_discarder_pays_three_bases(tmp_path, capsys):
    scn = scenario("hk", PRIORITY, [D(0, "5z"), A(2, "pung"), A(1, "win")], dealer_draw="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert r["end"] == "win"
    assert wins(r) == [(1, 0, 5)]  # half flush 3 + concealed hand 1 + no flowers 1
    assert fans(r) == {"half_flush": 1, "concealed_hand": 1, "no_flowers": 1}
    assert pays(r) == [(0, 1, 96, "win")]  # 3 * 2 ** 5
    assert r["deltas"] == [-96, 96, 0, 0]
    assert not any(e["type"] == "pung" for e in r["events"])


def test_pung_when_the_win_is_passed_then_drawn_deal_pays_nothing(tmp_path, capsys):
    scn = scenario("hk", PRIORITY, [D(0, "5z"), A(2, "pung"), A(1, "pass"), D(2, "9m")], dealer_draw="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    pung = next(e for e in r["events"] if e["type"] == "pung")
    assert (pung["seat"], pung["from"], pung["tiles"]) == (2, 0, ["5z", "5z", "5z"])
    after = r["events"][r["events"].index(pung) + 1]
    assert (after["type"], after["seat"], after["tile"]) == ("discard", 2, "9m")  # no draw after a claim
    assert r["end"] == "exhausted" and r["wins"] == [] and r["payments"] == []
    assert r["deltas"] == [0, 0, 0, 0]


def test_self_drawn_win_each_opponent_pays_one_base(tmp_path, capsys):
    scn = scenario("hk", PRIORITY, [D(0, "7z"), A(1, "win")], dealer_draw="7z", draws="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(1, None, 6)]  # + self_drawn
    assert pays(r) == [(2, 1, 64, "win"), (3, 1, 64, "win"), (0, 1, 64, "win")]
    assert r["deltas"] == [-64, 192, -64, -64]


# Seats 1 and 3 both wait on 5z; seat 2 cannot claim it.
TWO_WAITING = {0: "258s 369s 147s 1234z", 1: "111m 123m 456m 789m 5z", 2: "258m 369m 47m 66z 77z 9s",
               3: "111p 123p 456p 789p 5z"}


def test_only_the_first_winner_in_seat_order_after_the_discarder_wins(tmp_path, capsys):
    scn = scenario("hk", TWO_WAITING, [D(0, "5z"), A(3, "win"), A(1, "win")], dealer_draw="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(1, 0, 5)]
    assert r["deltas"] == [-96, 96, 0, 0]


def test_a_later_seat_wins_when_the_first_passes(tmp_path, capsys):
    scn = scenario("hk", TWO_WAITING, [D(0, "5z"), A(1, "pass"), A(3, "win")], dealer_draw="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    assert wins(checked(scn, r)) == [(3, 0, 5)]
    assert r["deltas"] == [-96, 0, 0, 96]


# Seat 0 discards 3m: seat 1 (next) can chow 12m/24m, seat 2 holds 33m and 45m.
CHOWS = {0: "147p 258p 369s 123z 9p", 1: "12m 4m 7m 9m 1s 4s 7s 2p 5p 8p 5z 6z",
         2: "33m 45m 8m 2s 5s 8s 3p 6p 9p 6z 7z", 3: "6m 6m 7m 3s 6s 9s 1p 4p 7p 1z 2z 3z 4z"}


def test_pung_beats_chow(tmp_path, capsys):
    scn = scenario("hk", CHOWS, [D(0, "3m"), A(1, "chow", tiles=["2m", "4m"]), A(2, "pung"), D(2, "8m")],
                   dealer_draw="3m")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    claims = [e for e in r["events"] if e["type"] in ("chow", "pung")]
    assert [(e["type"], e["seat"]) for e in claims] == [("pung", 2)]


def test_chow_by_the_next_player_with_chosen_tiles(tmp_path, capsys):
    scn = scenario("hk", CHOWS, [D(0, "3m"), A(1, "chow", tiles=["2m", "4m"]), A(2, "pass"), D(1, "9m")],
                   dealer_draw="3m")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    chow = next(e for e in r["events"] if e["type"] == "chow")
    assert (chow["seat"], chow["from"], chow["tiles"]) == (1, 0, ["2m", "3m", "4m"])


def test_chow_by_any_other_player_is_refused_naming_the_action(tmp_path, capsys):
    scn = scenario("hk", CHOWS, [D(0, "3m"), A(1, "pass"), A(2, "chow", tiles=["4m", "5m"])], dealer_draw="3m")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 2 and r is None
    assert "action 2 (seat 2, chow with 4m 5m)" in err and "not a legal answer" in err


# Seat 1 pungs 7p, later adds the drawn fourth 7p; seat 2 waits on 4p/7p and robs the kong.
ROB = {0: "1234z 258m 369m 148p", 1: "77p 3m 5m 66z 9m 2p 3p 9p 123z", 2: "111s 234s 567s 99s 56p",
       3: "4m 7m 1m 8m 6s 7s 8s 4p 6p 1p 9p 5z 6z"}
ROB_ACTIONS = [D(0, "7p"), A(1, "pung"), D(1, "3m"), D(2, "7z"), A(1, "kong", tile="7p"), A(2, "win")]


def test_robbing_an_added_kong_the_robbed_player_pays_as_discarder(tmp_path, capsys):
    scn = scenario("hk", ROB, ROB_ACTIONS, dealer_draw="7p", draws="7z 5z 5z 7p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(2, 1, 3)]
    assert fans(r) == {"concealed_hand": 1, "no_flowers": 1, "robbing_kong": 1}
    assert pays(r) == [(1, 2, 24, "win")]
    assert r["deltas"] == [0, -24, 24, 0]
    assert not any(e["type"] == "kong" for e in r["events"])  # the kong never happened


def test_an_added_kong_nobody_robs_draws_a_replacement_from_the_end(tmp_path, capsys):
    scn = scenario("hk", ROB, ROB_ACTIONS[:-1] + [A(2, "pass")], dealer_draw="7p", draws="7z 5z 5z 7p", tail="8m")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    i = next(i for i, e in enumerate(r["events"]) if e["type"] == "kong")
    assert r["events"][i]["kong"] == "added" and r["events"][i]["tiles"] == ["7p"] * 4
    assert (r["events"][i + 1]["type"], r["events"][i + 1]["end"], r["events"][i + 1]["tile"]) == ("draw", "back", "8m")


KONG = {0: "9999s 123m 456m 789m", 1: "1234z 258p 369p 147p", 2: "1p 4p 7p 2s 5s 8s 2z 3z 4z 6z 6z 1z 3s",
        3: "3s 6s 1s 4s 7s 7z 7z 7z 2m 5m 8m 3m 6m"}


def test_win_on_a_kong_replacement(tmp_path, capsys):
    scn = scenario("hk", KONG, [A(0, "kong", tile="9s"), A(0, "win")], dealer_draw="5z", tail="5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(0, None, 4)]
    assert fans(r) == {"concealed_hand": 1, "self_drawn": 1, "no_flowers": 1, "kong_replacement": 1}
    assert r["deltas"] == [48, -16, -16, -16]


def test_discard_before_any_kong_after_a_claim(tmp_path, capsys):
    hands = {0: "1234z 258m 369m 147p", 1: "55p 9999s 1m 4m 7m 6z 7z 8p", 2: "2m 5m 8m 3p 6p 9p 1s 2s 3s 5z 5z 6z 7z",
             3: "3m 6m 9m 2p 4p 7p 4s 5s 6s 7s 8s 1p 2p"}
    scn = scenario("hk", hands, [D(0, "5p"), A(1, "pung"), A(1, "kong", tile="9s")], dealer_draw="5p")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 2 and "action 2 (seat 1, kong 9s)" in err
    ok = scenario("hk", hands, [D(0, "5p"), A(1, "pung"), D(1, "1m"), A(1, "kong", tile="9s")], dealer_draw="5p",
                  draws="1z 2z 3z 1f", tail="4z 8m")
    status, r, _ = run_cli(ok, tmp_path, capsys)
    assert status == 0
    checked(ok, r)
    kong = next(e for e in r["events"] if e["type"] == "kong")
    assert (kong["seat"], kong["kong"]) == (1, "concealed")


FLOWERS = {0: "1f 1234z 258m 369s 47s", 1: "2f 111m 123m 456m 78m 5z", 2: "1p 4p 7p 2s 5s 8s 2z 3z 4z 6z 6z 1z 3s",
           3: "3p 6p 9p 2p 5p 8p 7z 7z 7z 2m 5m 8m 3m"}


def test_flowers_replaced_from_the_end_at_the_deal_and_in_play(tmp_path, capsys):
    scn = scenario("hk", FLOWERS, [D(0, "6z"), A(1, "win")], dealer_draw="6z", draws="6f", tail="7p 9m 5z")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    moves = [(e["type"], e["seat"], e["tile"], e.get("end")) for e in r["events"] if e["type"] in ("flower", "draw")]
    assert moves == [
        ("draw", 0, "6z", "front"),  # the dealer's 14th tile
        ("flower", 0, "1f", None), ("draw", 0, "7p", "back"),  # seat by seat from the dealer
        ("flower", 1, "2f", None), ("draw", 1, "9m", "back"),
        ("draw", 1, "6f", "front"), ("flower", 1, "6f", None), ("draw", 1, "5z", "back"),
    ]
    assert wins(r) == [(1, None, 7)]
    assert fans(r) == {"concealed_hand": 1, "self_drawn": 1, "half_flush": 1, "seat_flower": 2}
    assert r["deltas"] == [-128, 384, -128, -128]


def test_illegal_and_malformed_actions_exit_2_naming_the_action(tmp_path, capsys):
    bad_tile = scenario("hk", PRIORITY, [D(0, "9m")], dealer_draw="5z")
    status, r, err = run_cli(bad_tile, tmp_path, capsys)
    assert status == 2 and r is None and "action 0 (seat 0, discard 9m)" in err
    wrong_answer = scenario("hk", PRIORITY, [D(0, "5z"), D(1, "5z")], dealer_draw="5z")
    status, r, err = run_cli(wrong_answer, tmp_path, capsys)
    assert status == 2 and "action 1 (seat 1, discard 5z)" in err and "discard of 5z by seat 0" in err
    unknown = scenario("hk", PRIORITY, [{"seat": 0, "do": "fly"}], dealer_draw="5z")
    status, r, err = run_cli(unknown, tmp_path, capsys)
    assert status == 2 and "action 0" in err and "'fly'" in err
    leftover = scenario("hk", PRIORITY, [D(0, "5z"), A(1, "win"), A(3, "pung")], dealer_draw="5z")
    status, r, err = run_cli(leftover, tmp_path, capsys)
    assert status == 2 and "action 2 (seat 3, pung)" in err and "still queued" in err
    short_wall = dict(bad_tile, wall=bad_tile["wall"][:-1])
    status, r, err = run_cli(short_wall, tmp_path, capsys)
    assert status == 2 and "wall" in err
    status, r, err = run_cli({"variant": "nope", "seed": 1}, tmp_path, capsys)
    assert status == 2 and "unknown variant" in err
