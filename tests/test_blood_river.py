"""Blood River (``after_win: stay``, variants/sichuan-blood-river.yaml): a winner stays in
with its hand locked, wins again, and every win is paid at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardavia.compiler import load_variant
from cardavia.runtime.deal import Deal
from cardavia.runtime.simulate import simulate
from cardavia.runtime.wall import shuffled_wall
from scenarios.helpers import checked, run_cli, scenario


def M(seat: int, suit: str) -> dict[str, Any]:
    return {"seat": seat, "do": "missing_suit", "suit": suit}


# The dealer (missing suit s) holds two 5s and must discard them first; seat 1 waits on 5s.
HANDS = {0: "147m 258m 369p 147p 5s", 1: "111p 222p 333p 444s 5s", 2: "", 3: ""}


def test_a_winner_stays_in_and_wins_again(tmp_path: Path, capsys: Any) -> None:
    actions = [M(0, "s"), M(1, "m"), {"seat": 0, "do": "discard", "tile": "5s"}, {"seat": 1, "do": "win"},
               {"seat": 1, "do": "win"}]
    scn = scenario("sichuan-blood-river", HANDS, actions, dealer_draw="5s", draws=[None, None, "9m"])
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    assert [(w["seat"], w["from"], w["total"]) for w in r["wins"]] == [(1, 0, 1), (1, 0, 1)]  # all pungs
    wins = [(p["from"], p["to"], p["amount"]) for p in r["payments"] if p["reason"] == "win"]
    assert wins[:2] == [(0, 1, 2), (0, 1, 2)]  # each win paid at once: base 2 ** 1
    assert r["end"] == "exhausted"
    events = r["events"]
    first = next(i for i, e in enumerate(events) if e["type"] == "win")
    # the winner goes on drawing, and discards what it draws unless it wins with it
    after = [e for e in events[first:] if e.get("seat") == 1 and e["type"] in ("draw", "discard")]
    assert after and all(d["id"] == after[i - 1]["id"] for i, d in enumerate(after) if d["type"] == "discard")
    # no end-of-wall payment to or from a player who won
    late = [p for p in r["payments"] if p["reason"] in ("ready_check", "flower_pig", "kong_refund")]
    assert all(1 not in (p["from"], p["to"]) or p["reason"] == "kong_refund" for p in late)


def test_a_locked_hand_claims_nothing_but_a_win() -> None:
    v = load_variant("sichuan-blood-river")
    for seed in range(30):
        deal = Deal(v, shuffled_wall(v.tiles, seed))
        while not deal.over:
            for d in deal.pending():
                if deal.stay and deal.won[d.seat]:
                    assert {o.do for o in d.options} <= {"win", "pass", "discard", "kong"}
                    if d.kind == "turn":
                        assert [o.tile for o in d.options if o.do == "discard"] == [deal.kinds[deal.drawn]]
                win = next((o for o in d.options if o.do == "win"), None)
                deal.act(d.seat, win or d.options[-1] if d.kind != "turn" else win or
                         next(o for o in d.options if o.do == "discard"))
                if deal.over:
                    break
        assert deal.end == "exhausted"


def test_the_overlay_simulates_soundly() -> None:
    # The AI plays (200 deals of each choice with baseline bots: test_options_cli.py).
    out = simulate("sichuan-blood-river", 50, seed=3)
    assert out["deals"] == 50 and out["invariant_violations"] == 0
    assert out["ends"] == {"exhausted": 50}
