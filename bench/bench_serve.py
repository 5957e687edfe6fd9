"""The site's server under play: time per action, and memory with many games open.

Deals are played through the HTTP API in this process, each of your actions followed by
the table page's own request for the rendered table, as the browser does. Requests go
through Starlette's test client, but the time reported is the server's: measured around
the ASGI app (routing, JSON, the thread pool and the SQLite writes included; the test
client's own cost, several milliseconds a request, and the network are not). Reported,
per variant:

* ``action_ms``: the server's time for one ``POST /api/games/ID/actions`` (your answer,
  then the computer players' moves until you are asked again; pace 0), median and 99th
  percentile;
* ``view_ms``: the same for ``GET /LANG/table/ID/view`` (the table in HTML);
* ``direct_ms``: the reference, measured in the same run: the same answers applied to the
  game object directly (runtime, computer players and SQLite writes, no HTTP, no JSON);
  ``ratio`` is action_ms / direct_ms (medians): what the web layer costs on top.

Then ``--games`` games (default 100) are started and played a few moves each, and the
resident memory of the process is read before and after (``memory_mb``). Run from the
repository::

    python bench/bench_serve.py [--deals 10] [--games 100] [--variants hk mcr sichuan] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after the installed package: never a shadowing cardavia/

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from cardavia.web.app import create_app  # noqa: E402
from cardavia.web.games import Games  # noqa: E402
from cardavia.web.store import Store  # noqa: E402
from cardavia.web.view import state  # noqa: E402


class Timed:
    """The app, timing each request from its start to the end of its response."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last = 0.0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        t0 = time.perf_counter()
        await self.app(scope, receive, send)
        self.last = time.perf_counter() - t0


def choice(s: dict[str, Any]) -> dict[str, Any]:
    """Win when possible, else discard the tile just drawn (or the last allowed), pass on claims."""
    asked = s["asked"]
    if any(o["do"] == "win" for o in asked["options"]):
        return {"do": "win"}
    if asked["kind"] == "missing_suit":
        held = {suit: sum(1 for t in s["you"]["hand"] if t["tile"][1] == suit) for suit in "mps"}
        return {"do": "missing_suit", "suit": min("mps", key=lambda suit: held[suit])}
    if asked["kind"] == "turn":
        allowed = [t for t in s["you"]["hand"] if t["allowed"]]
        drawn = [t for t in allowed if t["id"] == s["you"]["drawn"]]
        return {"do": "discard", "id": (drawn or allowed)[-1]["id"]}
    return {"do": "pass"}


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def through_http(c: TestClient, timer: Timed, variant: str,
                 seed: int) -> tuple[list[float], list[float], list[dict[str, Any]]]:
    """One deal through the API; the time of each action and view, and the answers given."""
    s = c.post("/api/games", json={"variant": variant, "seed": seed, "pace": 0}).json()
    acts, views, answers = [], [], []
    while not s["over"]:
        body = choice(s)
        answers.append(body)
        r = c.post(f"/api/games/{s['id']}/actions", json={**body, "version": s["version"]})
        acts.append(timer.last)
        assert r.status_code == 200, r.text
        s = r.json()
        assert c.get(f"/en/table/{s['id']}/view").status_code == 200
        views.append(timer.last)
    return acts, views, answers


def direct(games: Games, variant: str, seed: int, answers: list[dict[str, Any]]) -> list[float]:
    """The same deal, the same answers, straight on the game object."""
    game = games.start(variant, seed=seed)
    times = []
    for body in answers:
        t0 = time.perf_counter()
        game.act(game.version, body)
        times.append(time.perf_counter() - t0)
    assert game.deal.over
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--variants", nargs="+", default=["hk", "mcr", "sichuan"])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, Any] = {"deals": args.deals, "variants": {}}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "bench.sqlite3", pace=0)
        timer = Timed(app)
        c = TestClient(timer)
        games = Games(Store(Path(tmp) / "direct.sqlite3"), pace=0)
        for variant in args.variants:
            through_http(c, timer, variant, 10 ** 6)  # warm-up: compiled variant, tables, templates
            acts: list[float] = []
            views: list[float] = []
            refs: list[float] = []
            for seed in range(1, args.deals + 1):
                a, v, answers = through_http(c, timer, variant, seed)
                acts += a
                views += v
                refs += direct(games, variant, seed, answers)
            ms = 1000.0
            out["variants"][variant] = {
                "actions": len(acts),
                "action_ms": {"median": round(statistics.median(acts) * ms, 2), "p99": round(pct(acts, .99) * ms, 2)},
                "view_ms": {"median": round(statistics.median(views) * ms, 2), "p99": round(pct(views, .99) * ms, 2)},
                "direct_ms": {"median": round(statistics.median(refs) * ms, 2), "p99": round(pct(refs, .99) * ms, 2)},
                "ratio": round(statistics.median(acts) / statistics.median(refs), 2),
            }
        before = rss_mb()
        opened = []
        for i in range(args.games):
            s = c.post("/api/games", json={"variant": args.variants[i % len(args.variants)], "pace": 0}).json()
            for _ in range(5):
                if s["over"]:
                    break
                s = c.post(f"/api/games/{s['id']}/actions", json={**choice(s), "version": s["version"]}).json()
            opened.append(s["id"])
        after = rss_mb()
        assert len(app.state.games) >= min(args.games, 256)
        assert all(state(app.state.games.get(g))["id"] == g for g in opened[:3])
        out["memory_mb"] = {"games": args.games, "before": round(before, 1), "after": round(after, 1),
                            "per_game_kb": round((after - before) * 1024 / max(1, args.games), 1)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'variant':10} {'actions':>8} {'action ms (median/p99)':>24} {'view ms':>16} {'direct ms':>16} "
          f"{'ratio':>6}")
    for variant, r in out["variants"].items():
        print(f"{variant:10} {r['actions']:>8} {r['action_ms']['median']:>14}/{r['action_ms']['p99']:<9}"
              f" {r['view_ms']['median']:>8}/{r['view_ms']['p99']:<7} {r['direct_ms']['median']:>8}/"
              f"{r['direct_ms']['p99']:<7} {r['ratio']:>6}")
    m = out["memory_mb"]
    print(f"memory: {m['before']} MB before, {m['after']} MB with {m['games']} more games open "
          f"({m['per_game_kb']} kB a game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
