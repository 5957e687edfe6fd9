"""Scoring speed for Hong Kong (against the PyPI package hk-mahjong) and Sichuan (on its own).

Hong Kong: the same hands, those both scorers can score (four sets and a pair, declared
sets included, and thirteen orphans; hk-mahjong has no seven pairs), scored in the same
run by

* ours through the Python API: ``variant.scorer.score(hand)``, hands built beforehand;
* hk-mahjong's own pipeline: ``check_win`` (every decomposition) then ``score_hand`` on
  each, keeping the best, its tiles and melds built beforehand;

and printed as hands/second and the ratio ours / theirs. Each figure is the best of
``--rounds`` passes over the hands, in CPU seconds (``time.process_time``, and the
children's rusage for processes), so other work on a shared machine does not skew it.
``--jsonl`` also times ``cardavia score VARIANT --jsonl`` as a process on the same hands
(interpreter start and variant load included).
Sichuan: winning hands of two suits (sets and a pair, seven pairs with quads), API and
``--jsonl``. The agreement line counts hands where both give the same capped total:
the two tables differ (hk-mahjong has no concealed-hand-on-a-discard rule, adds
"all terminals and honors", ...), so it is information, not a check.

Run from the repository (``pip install -e '.[bench]'`` first)::

    python bench/bench_score_hk_sichuan.py [--hands 2000] [--rounds 3] [--seed 1] [--jsonl] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after the installed package: bench.corpus, never a shadowing cardavia/

from cardavia.compiler import from_json, load_variant  # noqa: E402
from cardavia.compiler.model.tiles import CODES  # noqa: E402

# ------------------------------------------------------------------ hands

def _standard(rng: random.Random, kinds: list[int], flowers: bool, declare_chows: bool) -> dict[str, Any]:
    """A random winning request: four sets (some declared) and a pair, within 4 copies."""
    while True:
        used = [0] * 34
        concealed: list[int] = []
        melds: list[dict[str, Any]] = []
        ok = True
        for _ in range(4):
            kind = rng.choice(("chow", "chow", "chow", "pung", "pung", "kong"))
            if kind == "chow":
                starts = [k for k in kinds if k < 27 and k % 9 <= 6 and k + 2 in kinds]
                first = rng.choice(starts)
                tiles = [first, first + 1, first + 2]
            else:
                tiles = [rng.choice(kinds)] * (4 if kind == "kong" else 3)
            for k in tiles:
                used[k] += 1
            if any(used[k] > 4 for k in tiles):
                ok = False
                break
            if kind == "kong" or (rng.random() < 0.3 and (kind == "pung" or declare_chows)):
                melds.append({"type": kind, "tiles": [CODES[k] for k in tiles],
                              "concealed": kind == "kong" and rng.random() < 0.4})
            else:
                concealed.extend(tiles)
        pair = rng.choice(kinds)
        if not ok or used[pair] + 2 > 4:
            continue
        concealed += [pair, pair]
        win = concealed.pop(rng.randrange(len(concealed)))
        rng.shuffle(concealed)
        return _flags(rng, {"hand": [CODES[k] for k in concealed], "win_tile": CODES[win], "melds": melds},
                      flowers)


def _orphans(rng: random.Random) -> dict[str, Any]:
    tiles = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
    tiles.append(rng.choice(tiles))
    win = tiles.pop(rng.randrange(len(tiles)))
    return _flags(rng, {"hand": [CODES[k] for k in tiles], "win_tile": CODES[win], "melds": []}, True)


def _seven_pairs(rng: random.Random, kinds: list[int]) -> dict[str, Any]:
    while True:
        chosen = [rng.choice(kinds) for _ in range(7)]
        if all(chosen.count(k) <= 2 for k in chosen):
            tiles = [k for k in chosen for _ in range(2)]
            win = tiles.pop(rng.randrange(14))
            return _flags(rng, {"hand": [CODES[k] for k in tiles], "win_tile": CODES[win], "melds": []}, False)


def _flags(rng: random.Random, request: dict[str, Any], flowers: bool) -> dict[str, Any]:
    self_drawn = rng.random() < 0.5
    request.update(self_drawn=self_drawn, seat_wind=rng.choice("ESWN"), round_wind="E",
                   last_wall_tile=rng.random() < 0.05,
                   kong_replacement=self_drawn and any(m["type"] == "kong" for m in request["melds"])
                   and rng.random() < 0.3)
    request["robbing_kong"] = not self_drawn and rng.random() < 0.05
    if flowers:
        request["flowers"] = [CODES[k] for k in range(34, 42) if rng.random() < 0.25]
    return request


def hk_requests(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    kinds = list(range(34))
    return [_orphans(rng) if rng.random() < 0.03 else _standard(rng, kinds, True, True) for _ in range(n)]


def sichuan_requests(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        missing = rng.randrange(3)
        kinds = [k for k in range(27) if k // 9 != missing]
        req = _seven_pairs(rng, kinds) if rng.random() < 0.2 else _standard(rng, kinds, False, False)
        req["missing_suit"] = "mps"[missing]
        out.append(req)
    return out


# ------------------------------------------------------------- hk-mahjong

def hk_mahjong_scorer(requests: list[dict[str, Any]]) -> tuple[Callable[[], list[int]], list[int]]:
    """hk-mahjong's inputs built once; returns (score every hand -> totals, indices it can score)."""
    from hk_mahjong.core.meld import Meld, MeldType
    from hk_mahjong.core.scoring import ScoringContext, score_hand
    from hk_mahjong.core.tiles import BonusType, Dragon, Suit, Tile, Wind
    from hk_mahjong.core.win_check import check_win

    suits = {"m": Suit.CHARACTERS, "p": Suit.DOTS, "s": Suit.BAMBOO}
    winds = [Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH]
    dragons = [Dragon.WHITE, Dragon.GREEN, Dragon.RED]

    def tile(code: str) -> Tile:
        rank, letter = int(code[0]), code[1]
        if letter in suits:
            return Tile(suit=suits[letter], rank=rank)
        if letter == "z":
            return Tile(wind=winds[rank - 1]) if rank <= 4 else Tile(dragon=dragons[rank - 5])
        bonus = BonusType.FLOWER if rank <= 4 else BonusType.SEASON
        return Tile(bonus_type=bonus, bonus_number=(rank - 1) % 4 + 1)

    kinds = {"chow": MeldType.CHOW, "pung": MeldType.PONG, "kong": MeldType.KONG}
    prepared = []
    for req in requests:
        melds = [Meld(MeldType.CONCEALED_KONG if m.get("concealed") else kinds[m["type"]],
                      tuple(sorted((tile(t) for t in m["tiles"]), key=lambda t: t.sort_key))) for m in req["melds"]]
        concealed = [tile(t) for t in req["hand"]] + [tile(req["win_tile"])]
        prepared.append((concealed, melds, [tile(t) for t in req.get("flowers", [])], tile(req["win_tile"]),
                         req["self_drawn"], winds["ESWN".index(req["seat_wind"])],
                         winds["ESWN".index(req["round_wind"])], req["last_wall_tile"],
                         req["kong_replacement"], req["robbing_kong"]))

    def run() -> list[int]:
        totals = []
        for concealed, melds, bonus, win, self_drawn, seat, prevailing, last, kong, rob in prepared:
            best = -1
            for decomposition in check_win(concealed, melds):
                result = score_hand(ScoringContext(decomposition, melds, concealed, bonus, win, self_drawn, seat,
                                                   prevailing, last, kong, rob))
                best = max(best, result.total_faan)
            totals.append(best)
        return totals

    totals = run()
    return run, [i for i, t in enumerate(totals) if t >= 0]


# ------------------------------------------------------------------ timing

def best_of(rounds: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """The least CPU time of ``rounds`` calls (CPU, not wall clock: the machine may be shared)."""
    best, value = float("inf"), None
    for _ in range(rounds):
        t0 = time.process_time()
        value = fn()
        best = min(best, time.process_time() - t0)
    return best, value


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def jsonl_rate(variant: str, requests: list[dict[str, Any]], rounds: int) -> tuple[float, float, float]:
    """(hands/s including the process start, start-up seconds, hands/s once started).

    The start-up is a run on empty input; "once started" divides by the difference.
    """
    env = dict(os.environ)

    def timed(reqs: list[dict[str, Any]]) -> float:
        data = "".join(json.dumps(r) + "\n" for r in reqs).encode()

        best = float("inf")
        for _ in range(rounds):
            before = _children_cpu()
            out = subprocess.run([sys.executable, "-m", "cardavia", "score", variant, "--jsonl"], input=data,
                                 capture_output=True, env=env, cwd=tempfile.gettempdir(), check=True).stdout
            best = min(best, _children_cpu() - before)
            assert out.count(b"\n") == len(reqs)
        return best

    start = timed([])
    total = timed(requests)
    return len(requests) / total, start, len(requests) / max(total - start, 1e-9)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jsonl", action="store_true", help="also time cardavia score --jsonl as a process")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args()
    report: dict[str, Any] = {"hands": args.hands, "rounds": args.rounds, "seed": args.seed}

    hk = load_variant("hk")
    requests = hk_requests(args.hands, args.seed)
    try:
        _, scorable = hk_mahjong_scorer(requests)
    except ImportError:
        print("hk-mahjong is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    requests = [requests[i] for i in scorable]
    theirs, _ = hk_mahjong_scorer(requests)
    hands = [from_json(r) for r in requests]
    # The first pass fills the engine's per-suit caches: reported on its own as "cold".
    cold_s, _ = best_of(1, lambda: [hk.scorer.score(h).total for h in hands])
    # Rounds alternate between the two scorers, so a busy moment of the machine hits both alike.
    ours_s = theirs_s = float("inf")
    for _ in range(args.rounds):
        seconds, ours_totals = best_of(1, lambda: [hk.scorer.score(h).total for h in hands])
        ours_s = min(ours_s, seconds)
        seconds, theirs_totals = best_of(1, theirs)
        theirs_s = min(theirs_s, seconds)
    n = len(hands)
    agree = sum(1 for a, b in zip(ours_totals, theirs_totals) if a == min(b, 13))
    report["hk"] = {"hands": n, "ours_per_s": round(n / ours_s), "hk_mahjong_per_s": round(n / theirs_s),
                    "ratio": round(theirs_s / ours_s, 2), "ours_cold_per_s": round(n / cold_s),
                    "cold_ratio": round(theirs_s / cold_s, 2), "same_total": agree}
    if args.jsonl:
        rate, start, steady = jsonl_rate("hk", requests, args.rounds)
        report["hk"].update(jsonl_per_s=round(rate), jsonl_start_s=round(start, 3), jsonl_steady_per_s=round(steady),
                            jsonl_steady_ratio=round(steady / report["hk"]["hk_mahjong_per_s"], 2))

    sc = load_variant("sichuan")
    sc_requests = sichuan_requests(args.hands, args.seed)
    sc_hands = [from_json(r) for r in sc_requests]
    sc_cold, _ = best_of(1, lambda: [sc.scorer.score(h) for h in sc_hands])
    sc_s, sc_results = best_of(args.rounds, lambda: [sc.scorer.score(h) for h in sc_hands])
    assert all(r.valid for r in sc_results)
    report["sichuan"] = {"hands": len(sc_hands), "ours_per_s": round(len(sc_hands) / sc_s),
                         "ours_cold_per_s": round(len(sc_hands) / sc_cold)}
    if args.jsonl:
        rate, start, steady = jsonl_rate("sichuan", sc_requests, args.rounds)
        report["sichuan"].update(jsonl_per_s=round(rate), jsonl_start_s=round(start, 3),
                                 jsonl_steady_per_s=round(steady))

    if args.json:
        print(json.dumps(report))
        return 0
    h = report["hk"]
    print(f"Hong Kong, {h['hands']} hands both can score (best of {args.rounds}):")
    print(f"  ours (Python API)   {h['ours_per_s']:>9} hands/s")
    print(f"  hk-mahjong          {h['hk_mahjong_per_s']:>9} hands/s")
    print(f"  ratio ours/theirs   {h['ratio']:>9}x")
    print(f"  ours, first pass    {h['ours_cold_per_s']:>9} hands/s (caches cold; {h['cold_ratio']}x)")
    if "jsonl_per_s" in h:
        print(f"  ours --jsonl        {h['jsonl_per_s']:>9} hands/s (process start of {h['jsonl_start_s']} s included)")
        print(f"  ours --jsonl        {h['jsonl_steady_per_s']:>9} hands/s once started "
              f"({h['jsonl_steady_ratio']}x hk-mahjong's API)")
    print(f"  same capped total   {h['same_total']:>9} of {h['hands']} (the tables differ; information only)")
    s = report["sichuan"]
    print(f"Sichuan, {s['hands']} winning hands:")
    print(f"  ours (Python API)   {s['ours_per_s']:>9} hands/s")
    print(f"  ours, first pass    {s['ours_cold_per_s']:>9} hands/s (caches cold)")
    if "jsonl_per_s" in s:
        print(f"  ours --jsonl        {s['jsonl_per_s']:>9} hands/s (process start of {s['jsonl_start_s']} s included)")
        print(f"  ours --jsonl        {s['jsonl_steady_per_s']:>9} hands/s once started")
    return 0


if __name__ == "__main__":
    sys.exit(main())
