"""Replay scenarios for Sichuan: missing suit, several winners, continuing after a win, kong payments,
end-of-wall settlement (kong refunds, flower pig, ready check), last tile; exact payments and deltas."""

from __future__ import annotations

from cardavia.compiler import load_variant
from cardavia.runtime.actions import Action
from cardavia.runtime.controllers import DrawnTileAutoplay
from cardavia.runtime.deal import Deal
from cardavia.runtime.replay import replay
from cardavia.runtime.wall import wall_from_codes
from scenarios.helpers import checked, run_cli, scenario


def D(seat: int, tile: str) -> dict:
    return {"seat": seat, "do": "discard", "tile": tile}


def A(seat: int, do: str, **kw: object) -> dict:
    return {"seat": seat, "do": do, **kw}


def M(seat: int, suit: str) -> dict:
    return {"seat": seat, "do": "missing_suit", "suit": suit}


def pays(result: dict) -> list[tuple[int, int, int, str]]:
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]]


def wins(result: dict) -> list[tuple[int, int | None, int]]:
    return [(w["seat"], w["from"], w["total"]) for w in result["wins"]]


# Seat 0 (m and s) must discard its drawn 5p first; seats 1, 2, 3 each wait on 5p.
THREE = {0: "2m 5m 8m 3m 6m 8m 4m 7m 1s 5s 9s 3s 7s", 1: "111m 234m 567m 999m 5p", 2: "111s 222s 333s 444s 5p",
         3: "666s 777s 888s 999s 5p"}


def test_several_winners_on_one_discard_and_three_won_ends_the_deal(tmp_path, capsys):
    scn = scenario("sichuan", THREE, [M(1, "s"), M(2, "m"), M(3, "m"), A(3, "win"), A(2, "win"), A(1, "win")],
                   dealer_draw="5p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert r["end"] == "three_won"
    assert wins(r) == [(1, 0, 0), (2, 0, 1), (3, 0, 1)]  # basic hand, all pungs, all pungs
    assert pays(r) == [(0, 1, 1, "win"), (0, 2, 2, "win"), (0, 3, 2, "win")]  # no end-of-wall settlement
    assert r["deltas"] == [-5, 1, 2, 2]
    takes = [(e["seat"], e["takes"]) for e in r["events"] if e["type"] == "win"]
    assert takes == [(1, True), (2, False), (3, False)]  # the tile joins the first winner's hand


TWO = {**THREE, 2: "1s 2s 2s 2s 4s 4s 5s 5s 1m 8m 8m 9m 4m"}


def test_play_continues_after_the_last_winner_on_one_discard(tmp_path, capsys):
    scn = scenario("sichuan", TWO, [M(1, "s"), M(3, "m"), A(1, "win"), A(3, "win")], dealer_draw="5p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert r["end"] == "exhausted"
    assert wins(r) == [(1, 0, 0), (3, 0, 1)]
    assert pays(r) == [(0, 1, 1, "win"), (0, 3, 2, "win")]
    assert r["deltas"] == [-3, 1, 0, 2]
    last_win = max(i for i, e in enumerate(r["events"]) if e["type"] == "win")
    nxt = next(e for e in r["events"][last_win:] if e["type"] == "draw")
    assert nxt["seat"] == 0  # the next active player after seat 3
    assert all(e["seat"] not in (1, 3) for e in r["events"][last_win:] if e["type"] in ("draw", "discard"))


# Seat 1 wins on 5p; seat 2 then draws 4s, declares a concealed kong of 1s and wins on the replacement.
AFTER_WIN = {0: "2m 5m 8m 3m 6m 8m 4m 7m 2s 5s 9s 3s 7s", 1: "111m 234m 567m 999m 5p", 2: "1111s 222s 333s 44s 6p",
             3: "2m 3m 5m 6m 8m 9p 9p 1p 2p 3p 7p 8p 9p"}


def test_winners_pay_no_later_kong_or_self_draw_charges(tmp_path, capsys):
    scn = scenario("sichuan", AFTER_WIN, [M(1, "s"), M(2, "m"), A(1, "win"), A(2, "kong", tile="1s"), A(2, "win")],
                   dealer_draw="5p", draws="4s", tail="6p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(1, 0, 0), (2, None, 3)]  # all pungs + root + kong replacement
    assert {f["id"] for f in r["wins"][1]["fans"]} == {"all_pungs", "root", "kong_replacement"}
    assert pays(r) == [(0, 1, 1, "win"),
                       (3, 2, 2, "concealed_kong"), (0, 2, 2, "concealed_kong"),
                       (3, 2, 9, "win"), (0, 2, 9, "win")]  # self-draw: base 8 + 1 from each active opponent
    assert r["deltas"] == [-12, 1, 22, -11]


# Kongs: seat 0 concealed 8m at once, seat 1 exposed 5p on seat 0's discard, seat 2 pungs 7s then adds the 4th.
KONGS = {0: "8888m 1m 2m 4m 1p 2p 4p 9p 9p 6p", 1: "555p 1m 3m 5m 7m 9m 2p 4p 6p 8p 3m",
         2: "77s 1p 3p 7p 9p 2s 3s 5s 6s 8s 1s 9s", 3: "2m 3m 6m 9m 2p 3p 6p 9p 4m 5m 1p 8p 7p"}
KONG_ACTIONS = [M(0, "s"), A(0, "kong", tile="8m"), D(0, "5p"), M(1, "s"), A(1, "kong"), M(2, "m"), A(2, "pung"),
                D(2, "1p"), A(2, "kong", tile="7s")]


def test_kong_payments_at_once_and_refunds_at_the_end_of_the_wall(tmp_path, capsys):
    scn = scenario("sichuan", KONGS, KONG_ACTIONS, dealer_draw="5p", draws="4p 6s 8s 7s", tail="7m 7s 5s")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    kinds = [(e["seat"], e["kong"]) for e in r["events"] if e["type"] == "kong"]
    assert kinds == [(0, "concealed"), (1, "exposed"), (2, "added")]
    assert r["end"] == "exhausted" and r["wins"] == []
    assert pays(r) == [
        (1, 0, 2, "concealed_kong"), (2, 0, 2, "concealed_kong"), (3, 0, 2, "concealed_kong"),
        (0, 1, 2, "exposed_kong"),
        (3, 2, 1, "added_kong"), (0, 2, 1, "added_kong"), (1, 2, 1, "added_kong"),
        # nobody is ready at the end: every kong is refunded to whoever paid it
        (0, 1, 2, "kong_refund"), (0, 2, 2, "kong_refund"), (0, 3, 2, "kong_refund"),
        (1, 0, 2, "kong_refund"),
        (2, 0, 1, "kong_refund"), (2, 1, 1, "kong_refund"), (2, 3, 1, "kong_refund"),
    ]
    assert r["deltas"] == [0, 0, 0, 0]


# End of the wall: seat 1 ready (seven pairs on 7p: 2 fan, 4 points), seat 3 a flower pig (declares p and
# draws only p tiles), seats 0 and 2 not ready.
END = {0: "1m 4m 7m 2s 5s 8s 3m 6m 9m 1s 4s 7s 9s", 1: "1199m 2288p 5566m 7p",
       2: "2m 5m 8m 3s 6s 9s 1m 4m 7m 2s 5s 8s 9m", 3: "1234567p 1s 3s 5s 7s 9s 2s"}


def test_flower_pig_and_ready_check_at_the_end_of_the_wall(tmp_path, capsys):
    pig_draws = iter(["1p", "3p", "3p", "4p", "4p", "5p", "5p", "6p", "6p", "9p", "9p", "9p", "9p", "3p"])
    draws = [next(pig_draws) if i % 4 == 2 else None for i in range(55)]  # seat 3 draws every fourth tile
    scn = scenario("sichuan", END, [M(3, "p")], dealer_draw="8m", draws=draws)
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert r["end"] == "exhausted" and r["wins"] == []
    assert pays(r) == [(3, 0, 32, "flower_pig"), (3, 1, 32, "flower_pig"), (3, 2, 32, "flower_pig"),
                       (0, 1, 4, "ready_check"), (2, 1, 4, "ready_check")]
    assert r["deltas"] == [28, 40, 28, -96]


# Seat 1 pungs 7p and later adds the drawn fourth; seat 2 (111m 234m 567m 99m 56p) robs it.
ROB = {0: "1m 4m 7m 2s 5s 8s 3m 6m 9m 1s 4s 7s 9s", 1: "77p 2m 5m 8m 3m 1p 2p 3p 4p 6p 8p 9p",
       2: "111m 234m 567m 99m 56p", 3: "2s 3s 5s 6s 8s 9s 2p 4p 8p 9p 1p 3p 5p"}


def test_robbing_a_kong_konger_pays_as_discarder_and_the_kong_earns_nothing(tmp_path, capsys):
    actions = [M(1, "s"), A(1, "pung"), D(1, "2m"), A(1, "kong", tile="7p"), M(2, "s"), A(2, "pass"), D(2, "6s"),
               A(2, "win")]
    scn = scenario("sichuan", ROB, actions, dealer_draw="7p", draws="6s 7s 7m 7p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(2, 1, 1)]
    assert [f["id"] for f in r["wins"][0]["fans"]] == ["robbing_kong"]
    assert pays(r) == [(1, 2, 2, "win")]
    assert r["deltas"] == [0, -2, 2, 0]
    assert not any(e["type"] == "kong" for e in r["events"])
    rob = max(i for i, e in enumerate(r["events"]) if e["type"] == "win")
    assert next(e for e in r["events"][rob:] if e["type"] == "draw")["seat"] == 3


def test_missing_suit_first_and_pung_blocked_while_holding_it(tmp_path, capsys):
    hands = {0: "1m 4m 7m 2s 5s 8s 3m 6m 9m 1s 4s 7s 9s", 1: "55m 2p 5p 8p 1p 4p 7p 3p 6p 9p 2m 1s",
             2: "2m 3m 5m 6m 8m 2s 3s 5s 6s 8s 9m 4m 7m", 3: "2p 3p 5p 6p 8p 9p 2s 3s 5s 6s 8s 3s 6s"}
    # Seat 0 holds no p: it must discard its drawn p first.
    scn = scenario("sichuan", hands, [M(0, "p"), D(0, "1m")], dealer_draw="4p")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 2 and "action 1 (seat 0, discard 1m)" in err
    # Seat 1 declares s but still holds 1s: it cannot pung the 5m seat 0 discards, so it is not asked.
    scn = scenario("sichuan", hands, [M(0, "p"), D(0, "5m"), M(1, "s")], dealer_draw="5m")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    i = next(i for i, e in enumerate(r["events"]) if e["type"] == "discard")
    assert r["events"][i]["tile"] == "5m"
    assert (r["events"][i + 1]["type"], r["events"][i + 1]["seat"]) == ("draw", 1)
    assert [d["seat"] for d in r["decisions"][:6]] == [0, 1, 2, 3, 0, 1]  # suits in turn order, no claim
    assert r["decisions"][5]["do"] == "discard" and r["decisions"][5]["tile"] == "1s"  # missing suit first
    refused = scenario("sichuan", hands, [M(0, "p"), D(0, "5m"), M(1, "s"), A(1, "pung")], dealer_draw="5m")
    status, r, err = run_cli(refused, tmp_path, capsys)
    assert status == 2 and "action 3 (seat 1, pung)" in err


def _script_all(scn: dict) -> list[dict]:
    """Every decision autoplay takes in ``scn`` (a full script of the deal)."""
    return replay(scn)["decisions"]


LAST = {0: "1m 4m 7m 2s 5s 8s 3m 6m 9m 1s 4s 7s 9s", 1: "2m 6m 8m 3s 6s 9s 1m 4m 7m 2s 5s 8s 9m",
        2: "1p 4p 7p 3s 6s 9s 2p 5p 8p 1s 4s 7s 9p", 3: "555m 123p 456p 789p 1m"}


def test_last_tile_of_the_wall_self_drawn(tmp_path, capsys):
    base = scenario("sichuan", LAST, [], dealer_draw="8m", tail="1m")
    decisions = _script_all(base)
    last = max(i for i, a in enumerate(decisions) if a["seat"] == 3)
    assert decisions[last]["do"] == "discard" and decisions[last]["tile"] == "1m"
    scn = dict(base, actions=decisions[:last] + [A(3, "win")])
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert wins(r) == [(3, None, 1)]
    assert [f["id"] for f in r["wins"][0]["fans"]] == ["last_tile"]
    assert r["end"] == "exhausted"
    assert pays(r)[:3] == [(0, 3, 3, "win"), (1, 3, 3, "win"), (2, 3, 3, "win")]


def test_no_kong_without_a_replacement_tile(tmp_path, capsys):
    base = scenario("sichuan", LAST, [], dealer_draw="8m", tail="5m")
    decisions = _script_all(base)
    last = max(i for i, a in enumerate(decisions) if a["seat"] == 3)
    assert decisions[last]["tile"] == "5m"  # seat 3 drew the fourth 5m as the very last tile
    scn = dict(base, actions=decisions[:last] + [A(3, "kong", tile="5m")])
    status, _, err = run_cli(scn, tmp_path, capsys)
    assert status == 2 and f"action {last} (seat 3, kong 5m)" in err
    # The same point through the API: four 5m in hand, the wall empty, no kong among the options.
    deal = Deal(load_variant("sichuan"), wall_from_codes(load_variant("sichuan").tiles, base["wall"]))
    auto = DrawnTileAutoplay()
    while deal.wall_left() > 0 or deal.phase != "turn" or deal.turn != 3:
        d = deal.pending()[0]
        deal.act(d.seat, auto.choose(deal, d))
    assert deal.counts[3][4] == 4
    assert [o.do for o in deal.pending()[0].options if o.do != "discard"] == []
    assert Action("kong", tile=4) not in deal.pending()[0].options
