"""The site's server through its HTTP API and pages (Starlette's test client, no browser).

Whole deals of every shipped variant are played through ``/api/games``; every kind of bad
request is answered 4xx with a message naming the problem and the state unchanged; a new
app on the same database resumes a deal mid-way; two clients on one game see the same
state and the stale one is refused; the pages carry the hooks programs rely on.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx", reason="the test client needs httpx (pip install -e '.[test]')")

with warnings.catch_warnings():  # newer Starlette prefers httpx2, and says so on import
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardavia.compiler import shipped_variants
from cardavia.runtime.bots import BaselineBot

from cardavia.render.languages import LANGUAGES
from cardavia.web.app import create_app
from cardavia.web.games import Games, TableGame
from cardavia.web.store import Store
from cardavia.web.view import Table


def client(db: Path | str, pace: float = 0.0) -> TestClient:
    return TestClient(create_app(db, pace=pace))


def start(c: TestClient, variant: str, seed: int = 7) -> dict[str, Any]:
    r = c.post("/api/games", json={"variant": variant, "seed": seed, "pace": 0})
    assert r.status_code == 201, r.text
    return r.json()


def choice(s: dict[str, Any]) -> dict[str, Any]:
    """A plain player's answer: win when possible, else the tile just drawn (or the last
    allowed), pass on claims, give up the suit held least."""
    asked = s["asked"]
    options = asked["options"]
    if any(o["do"] == "win" for o in options):
        return {"do": "win"}
    if asked["kind"] == "missing_suit":
        held = {suit: sum(1 for t in s["you"]["hand"] if t["tile"][1] == suit) for suit in "mps"}
        return {"do": "missing_suit", "suit": min("mps", key=lambda suit: held[suit])}
    if asked["kind"] == "turn":
        allowed = [t for t in s["you"]["hand"] if t["allowed"]]
        drawn = [t for t in allowed if t["id"] == s["you"]["drawn"]]
        tile = (drawn or allowed)[-1]
        return {"do": "discard", "id": tile["id"], "tile": tile["tile"]}
    return {"do": "pass"}


def act(c: TestClient, s: dict[str, Any], body: dict[str, Any]) -> Any:
    return c.post(f"/api/games/{s['id']}/actions", json={**body, "version": s["version"]})


def play_out(c: TestClient, s: dict[str, Any], limit: int = 400) -> dict[str, Any]:
    for _ in range(limit):
        if s["over"]:
            return s
        r = act(c, s, choice(s))
        assert r.status_code == 200, r.text
        s = r.json()
    raise AssertionError("the deal did not end")


def comparable(s: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in s.items() if k != "next_move_in"}


@pytest.mark.parametrize("variant", shipped_variants())
def test_a_whole_deal_through_the_api(tmp_path: Path, variant: str) -> None:
    c = client(tmp_path / "games.sqlite3")
    s = play_out(c, start(c, variant))
    result = s["result"]
    assert result["end"] in ("win", "exhausted", "three_won", "two_won")
    assert sum(result["deltas"]) == 0
    assert s["totals"] == result["deltas"]
    assert all(isinstance(o["hand"], list) for o in s["others"])  # every hand face up at the end
    nxt = act(c, s, {"do": "next-deal"})
    assert nxt.status_code == 200, nxt.text
    second = nxt.json()
    assert second["deal"] == 2 and not second["over"]
    assert second["dealer"] == 1  # the dealer rotates
    assert second["totals"] == result["deltas"]


def test_the_others_see_nothing_hidden(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    s = start(c, "hk")
    assert all("hand" not in o for o in s["others"])
    for e in s["events"]:
        if e["type"] in ("deal", "draw") and e["seat"] != 0:
            assert "tile" not in e and "tiles" not in e and "id" not in e


def test_sichuan_missing_suits_stay_hidden_until_all_have_chosen(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    s = start(c, "sichuan")
    assert s["phase"] == "missing_suit" and s["asked"]["kind"] == "missing_suit"
    assert all(o["missing_suit"] is None for o in s["others"])
    s = act(c, s, {"do": "missing-suit", "suit": "m"}).json()
    assert s["you"]["missing_suit"] == "m"
    assert all(o["missing_suit"] in ("m", "p", "s") for o in s["others"])


def state_of(c: TestClient, game: str) -> dict[str, Any]:
    r = c.get(f"/api/games/{game}")
    assert r.status_code == 200
    return r.json()


BAD = [
    ({"do": "discard", "id": 999}, 400, "id"),
    ({"do": "discard", "id": -1}, 400, "id"),
    ({"do": "discard", "id": "x"}, 400, "id"),
    ({"do": "fly"}, 400, "'do'"),
    ({"do": "pung"}, 422, "not possible"),
    ({"do": "chow", "tiles": ["1m"]}, 400, "chow"),
    ({"do": "discard", "tile": "9z"}, 400, "9z"),
    ({"do": "missing_suit", "suit": "z"}, 400, "suit"),
    ({"do": "next-deal"}, 409, "still being played"),
]


@pytest.mark.parametrize(("body", "status", "words"), BAD)
def test_bad_actions_are_refused_and_change_nothing(tmp_path: Path, body: dict[str, Any], status: int,
                                                    words: str) -> None:
    c = client(tmp_path / "g.sqlite3")
    s = start(c, "hk")
    assert s["asked"]["kind"] == "turn"
    r = act(c, s, body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert comparable(state_of(c, s["id"])) == comparable(s)


def test_a_tile_not_in_your_hand_is_refused(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    s = start(c, "hk")
    mine = {t["id"] for t in s["you"]["hand"]}
    other = next(i for i in range(144) if i not in mine)
    r = act(c, s, {"do": "discard", "id": other})
    assert r.status_code == 422 and f"tile id {other} is not in your hand" in r.json()["error"]
    assert comparable(state_of(c, s["id"])) == comparable(s)


def test_stale_repeated_and_malformed_requests(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    s = start(c, "mcr")
    body = choice(s)
    assert act(c, s, body).status_code == 200
    after = state_of(c, s["id"])
    again = act(c, s, body)  # the same action again: it answers a version that is gone
    assert again.status_code == 409 and again.json()["code"] == "stale"
    assert comparable(state_of(c, s["id"])) == comparable(after)
    r = c.post(f"/api/games/{s['id']}/actions", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = c.post(f"/api/games/{s['id']}/actions", json={"do": "pass"})
    assert r.status_code == 400 and "'version'" in r.json()["error"]
    r = c.post(f"/api/games/{s['id']}/actions", json=[1, 2])
    assert r.status_code == 400 and "object" in r.json()["error"]
    r = c.post(f"/api/games/{s['id']}/actions", content=b"x" * 20000)
    assert r.status_code == 413
    assert comparable(state_of(c, s["id"])) == comparable(after)


def test_unknown_games_variants_and_options(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    r = c.get("/api/games/nosuchgame0000")
    assert r.status_code == 404 and "no game" in r.json()["error"]
    r = c.post("/api/games/nosuchgame0000/actions", json={"do": "pass", "version": "1.0"})
    assert r.status_code == 404
    r = c.post("/api/games", json={"variant": "riichi"})
    assert r.status_code == 404 and "hk" in r.json()["error"]
    r = c.post("/api/games", json={"variant": "hk", "options": {"no_such_option": "x"}})
    assert r.status_code == 400 and "no_such_option" in r.json()["error"]
    r = c.post("/api/games", json={"variant": "hk", "pace": 99})
    assert r.status_code == 400 and "pace" in r.json()["error"]
    assert c.get("/play/riichi", follow_redirects=False).status_code == 404
    assert c.get("/xx/").status_code == 404
    assert c.get("/en/nothing").status_code == 404


def test_out_of_turn_is_refused(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.sqlite3")
    clock = [0.0]
    games = Games(store, pace=0.5, clock=lambda: clock[0])
    game = games.start("hk", seed=3)
    with game.lock:
        body = dict(choice(_state(game)))
        game.act(game.version, body)
    assert game.waiting_on_others()  # the others move at the pace: not yet
    before = game.version
    with pytest.raises(Exception) as exc:
        game.act(game.version, {"do": "discard", "id": game.deal.hands[0][0]})
    assert getattr(exc.value, "status", None) == 409 and "not your turn" in str(exc.value)
    assert game.version == before


def _state(game: TableGame) -> dict[str, Any]:
    from cardavia.web.view import state

    return state(game)


def test_the_others_move_at_the_pace(tmp_path: Path) -> None:
    clock = [100.0]
    games = Games(Store(tmp_path / "g.sqlite3"), pace=0.5, clock=lambda: clock[0])
    game = games.start("hk", seed=11)
    with game.lock:
        game.act(game.version, choice(_state(game)))
        discards = sum(len(r) for r in game.deal.rivers)
        game.advance()
        assert sum(len(r) for r in game.deal.rivers) == discards  # no time has passed
        assert game.next_move_in() == pytest.approx(0.5)
        clock[0] += 0.5
        game.advance()
        assert sum(len(r) for r in game.deal.rivers) + sum(len(m) for m in game.deal.melds) > discards or \
            game.deal.over
        moved = game.version
        clock[0] += 0.1
        game.advance()
        assert game.version == moved  # one visible move per pace


def test_a_restart_resumes_the_deal(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    c = client(db)
    s = start(c, "sichuan", seed=5)
    for _ in range(6):
        s = act(c, s, choice(s)).json()
    assert not s["over"]
    c.app.state.store.close()
    again = client(db)  # a new server on the same database
    resumed = state_of(again, s["id"])
    assert comparable(resumed) == comparable(s)
    finished = play_out(again, resumed)
    assert finished["over"]


def test_a_finished_deal_and_its_totals_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    c = client(db)
    s = play_out(c, start(c, "hk", seed=2))
    s = act(c, s, {"do": "next-deal"}).json()
    again = client(db)
    resumed = state_of(again, s["id"])
    assert resumed["deal"] == 2 and resumed["totals"] == s["totals"]


def test_two_clients_on_one_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    app = create_app(db, pace=0)
    a, b = TestClient(app), TestClient(app)
    s = start(a, "hk")
    seen_b = state_of(b, s["id"])
    assert comparable(seen_b) == comparable(s)
    moved = act(a, s, choice(s)).json()
    stale = act(b, seen_b, choice(seen_b))
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    assert comparable(state_of(b, s["id"])) == comparable(moved)


# ------------------------------------------------------------------ pages

def test_pages_in_every_language(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    assert c.get("/", follow_redirects=False).headers["location"] == "/en/"
    assert c.get("/", headers={"accept-language": "de-CH,de;q=0.9"}, follow_redirects=False).headers[
        "location"] == "/de/"
    for lang in LANGUAGES:
        for path in ("", "china", *shipped_variants()):
            r = c.get(f"/{lang.tag}/{path}")
            assert r.status_code == 200, (lang.tag, path)
            html = r.text
            assert f'lang="{lang.tag}"' in html
            assert 'data-role="language"' in html
            for name in ("contrast", "grain", "temperature"):
                assert f'name="{name}"' in html
            assert 'href="/favicon.svg"' in html
            if path:  # a family page and a game page offer Start game
                assert 'action="/play/' in html
    page = c.get("/it/hk").text
    assert "Regole complete" in page and "Tavolo" in page and "Inizio partita" in page
    assert c.get("/favicon.ico").status_code == 200
    assert c.get("/static/tiles.svg").headers["content-type"].startswith("image/svg+xml")
    assert c.get("/static/nothing.js").status_code == 404


def test_play_redirects_to_a_table_with_the_hooks(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    r = c.get("/play/hk?pace=0&lang=pt", follow_redirects=False)
    assert r.status_code == 303
    table = r.headers["location"]
    assert re.fullmatch(r"/pt/table/[A-Za-z0-9_-]{20,}", table)
    html = c.get(table).text
    hand = re.search(r'<div class="hand" data-role="hand".*?</div>', html, re.S)
    assert hand is not None
    ids = re.findall(r'data-tile-id="(\d+)"', html)
    assert len(ids) == len(re.findall(r'data-tile-id="(\d+)"', hand.group(0))) == 14  # the dealer's tiles, only there
    assert 'data-action="discard"' in html and 'data-role="settlement"' not in html
    game = table.rsplit("/", 1)[1]
    s = play_out(c, state_of(c, game))
    end = c.get(f"/pt/table/{game}/view").text
    assert 'data-role="settlement"' in end and 'data-action="next-deal"' in end
    r = c.post("/play/sichuan", data={"lang": "zh-Hant", "pace": "0"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/zh-Hant/table/")
    assert s["over"]


def test_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "cardavia", "serve", "--port", str(port), "--db",
                             str(tmp_path / "g.sqlite3")], stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline() if proc.stderr else ""
        assert f"http://127.0.0.1:{port}/" in line
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/en/") as answer:
                    assert answer.status == 200
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_refuses_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from cardavia.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--pace", "-1"]) == 2


HOUSE = """\
extends: hk
id: hk_house
options:
  base_table:
    name: Faan to base
    description: How a hand's faan become the base points it is paid.
    default: doubling
    choices:
      doubling:
        name: Doubling at every faan
      half_spicy:
        name: Half spicy
        description: The base doubles up to 4 faan, then grows by half.
        changes:
          settlement:
            base: "[1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384][min(total, 13)]"
"""


def test_start_game_offers_the_variants_options(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    db = tmp_path / "g.sqlite3"
    c = TestClient(create_app(db, pace=0, variants=["hk", str(house)]))
    page = c.get("/en/hk_house?tab=table").text
    assert 'name="option.base_table"' in page and '<option value="half_spicy">' in page
    assert 'name="option.discard_pays"' in c.get("/en/hk?tab=table").text  # hk's own options
    r = c.post("/play/hk_house", data={"lang": "en", "pace": "0", "option.base_table": "half_spicy"},
               follow_redirects=False)
    assert r.status_code == 303
    game = r.headers["location"].rsplit("/", 1)[1]
    # hk's own discard_pays option keeps its default
    assert state_of(c, game)["options"] == {"base_table": "half_spicy", "discard_pays": "discarder"}
    again = TestClient(create_app(db, pace=0, variants=["hk", str(house)]))  # a restart keeps the choice
    assert state_of(again, game)["options"] == {"base_table": "half_spicy", "discard_pays": "discarder"}
    r = c.post("/play/hk_house", data={"option.base_table": "nope"}, follow_redirects=False)
    assert r.status_code == 400 and "nope" in r.text
    assert c.get("/play/hk?option.x=y", follow_redirects=False).status_code == 400
    assert c.get("/play/mcr", follow_redirects=False).status_code == 404  # not served here


def test_the_pace_can_be_changed(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    s = start(c, "hk")
    r = c.post(f"/api/games/{s['id']}/pace", json={"pace": 1})
    assert r.status_code == 200 and r.json()["pace"] == 1
    r = c.post(f"/api/games/{s['id']}/pace", json={"pace": "fast"})
    assert r.status_code == 400 and "pace" in r.json()["error"]
    assert state_of(c, s["id"])["pace"] == 1
    page = c.get(f"/en/table/{s['id']}").text
    assert '<option value="1" selected>' in page


def test_the_exchange_is_played_on_the_table_and_hides_the_others_tiles(tmp_path: Path) -> None:
    c = client(tmp_path / "g.sqlite3")
    r = c.post("/api/games", json={"variant": "sichuan", "seed": 3, "pace": 0, "options": {"exchange": "on"}})
    assert r.status_code == 201, r.text
    s = r.json()
    assert s["phase"] == "exchange" and s["asked"]["kind"] == "exchange"
    html = c.get(f"/en/table/{s['id']}/view")
    assert html.status_code == 200 and 'data-pick="3"' in html.text
    assert 'data-action="exchange" class="primary" data-selection="true" disabled>Pass on<' in html.text
    suggested = re.search(r'data-action="exchange" data-tiles="([^"]+)"', html.text)
    assert suggested is not None
    bad = act(c, s, {"do": "exchange", "tiles": ["1m", "1p", "1s"]})
    assert bad.status_code == 422 and "pass on 3 tiles you hold, of one suit" in bad.json()["error"]
    assert state_of(c, s["id"]) == {**s, "next_move_in": state_of(c, s["id"])["next_move_in"]}  # nothing changed
    s = act(c, s, {"do": "exchange", "tiles": suggested.group(1).split(",")}).json()
    moves = [e for e in s["events"] if e["type"] == "exchange"]
    assert len(moves) == 4 and s["phase"] == "missing_suit"
    for e in moves:  # your tiles and the ones you received are shown; the others' are not
        assert ("tiles" in e) == (0 in (e["seat"], e["to"]))
    log = c.get(f"/en/table/{s['id']}/view").text
    assert "You pass " in log and " passes you " in log and " passes 3 tiles to seat " in log
    s = play_out(c, s)
    assert all("tiles" in e for e in s["events"] if e["type"] == "exchange")  # face up once the deal is over


def test_a_winner_who_stays_in_keeps_the_hints(tmp_path: Path) -> None:
    # Blood River: after its win seat 0 plays on with its hand locked and may win again.
    # The first seed whose deal gets there (the computer players' choices decide which).
    games = Games(Store(tmp_path / "g.sqlite3"), pace=0)
    for seed in range(1, 30):
        game = games.start("sichuan-blood-river", seed=seed, pace=0)
        bot = BaselineBot(seed)
        for _ in range(400):
            decision = game.your_decision()
            if game.deal.over or (game.deal.won[0] and decision is not None and decision.kind == "turn"):
                break
            if decision is None:
                game.advance()
                continue
            game.act(game.version, bot.choose(game.deal, decision).to_json())
        if game.deal.won[0] and not game.deal.over:
            break
    assert game.deal.won[0] and not game.deal.over
    hints = Table(game, "en").hints()
    assert any(" ready on " in h or h.startswith("You are ready") for h in hints), hints
