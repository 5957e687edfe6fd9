"""Replay scenarios for Chinese Official payments: 8 + total from the discarder, 8 from the others."""

from __future__ import annotations

from scenarios.helpers import checked, run_cli, scenario


def D(seat: int, tile: str) -> dict:
    return {"seat": seat, "do": "discard", "tile": tile}


def A(seat: int, do: str, **kw: object) -> dict:
    return {"seat": seat, "do": do, **kw}


def pays(result: dict) -> list[tuple[int, int, int, str]]:
    return [(p["from"], p["to"], p["amount"], p["reason"]) for p in result["payments"]]


# Seat 1: 123m 456m 789m 123p + 5p (pure straight 16, concealed 2, all chows 2, mixed double chow 1,
# one voided suit 1, single wait 1 = 23 on a discard; fully concealed 4 instead of concealed 2 self-drawn).
STRAIGHT = {0: "1234z 258s 369s 147s", 1: "123m 456m 789m 123p 5p", 2: "1z 2z 3z 5z 6z 7z 2s 5s 8s 6p 7p 9p 9m",
            3: "4z 5z 6z 7z 3s 6s 9s 1s 4s 8p 9p 1m 2m"}


def test_discard_win_discarder_pays_8_plus_total_others_8(tmp_path, capsys):
    scn = scenario("mcr", STRAIGHT, [D(0, "5p"), A(1, "win")], dealer_draw="5p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert [(w["seat"], w["from"], w["total"]) for w in r["wins"]] == [(1, 0, 23)]
    assert pays(r) == [(0, 1, 31, "win"), (2, 1, 8, "win"), (3, 1, 8, "win")]
    assert r["deltas"] == [-31, 47, -8, -8]


def test_self_drawn_win_each_opponent_pays_8_plus_total(tmp_path, capsys):
    scn = scenario("mcr", STRAIGHT, [D(0, "7z"), A(1, "win")], dealer_draw="7z", draws="5p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    assert [(w["seat"], w["from"], w["total"]) for w in r["wins"]] == [(1, None, 25)]
    assert pays(r) == [(2, 1, 33, "win"), (3, 1, 33, "win"), (0, 1, 33, "win")]
    assert r["deltas"] == [-33, 99, -33, -33]


ROB = {0: "1234z 258m 369m 148p", 1: "77p 3m 5m 66z 9m 2p 3p 9p 123z", 2: "111s 234s 567s 99s 56p",
       3: "4m 7m 1m 8m 6s 7s 8s 4p 6p 1p 9p 5z 6z"}


def test_robbing_the_kong_the_konger_pays_as_discarder(tmp_path, capsys):
    actions = [D(0, "7p"), A(1, "pung"), D(1, "3m"), D(2, "7z"), A(1, "kong", tile="7p"), A(2, "win")]
    scn = scenario("mcr", ROB, actions, dealer_draw="7p", draws="7z 5z 5z 7p")
    status, r, _ = run_cli(scn, tmp_path, capsys)
    assert status == 0
    checked(scn, r)
    (win,) = r["wins"]
    assert (win["seat"], win["from"]) == (2, 1)
    ids = {f["id"] for f in win["fans"]}
    assert "robbing_the_kong" in ids and "last_tile" not in ids
    total = win["total"]
    assert total == 15
    assert pays(r) == [(1, 2, 8 + total, "win"), (3, 2, 8, "win"), (0, 2, 8, "win")]
    assert r["deltas"] == [-8, -23, 39, -8]
