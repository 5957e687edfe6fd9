"""MCR scoring speed against PyMahjongGB, on the hands of the MCR oracle sample.

Three figures on the same hands, in the same run, each the best of ``--rounds`` passes
measured in CPU seconds (``time.process_time``; for a child process, the children's
rusage), so that other work on a shared machine does not skew them:

* PyMahjongGB (C++ behind a Python call), its arguments converted beforehand;
* ours through the Python API: ``from_json`` + ``variant.scorer.score`` (and the score
  call alone, hands built beforehand);
* ours through ``cardavia score mcr --jsonl`` as a process fed every hand on standard
  input: interpreter start, variant load, JSON in and out included. The process start
  alone (empty input) is measured too and reported next to it.

Printed: hands/second for each and the ratios ours / PyMahjongGB, plus the peak resident
memory of this process and of the ``--jsonl`` process. Run from the repository::

    python bench/bench_score.py [--rounds 3] [--repeat 1] [--json]

``--repeat N`` feeds the sample N times (more hands per pass: steadier figures).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from compiler import from_json, load_variant  # noqa: E402

SAMPLE = ROOT.parent / "shared" / "oracles" / "mcr-sample.jsonl"


def _gb_calls(requests: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """PyMahjongGB's positional arguments for each request (as tests/mcr_reference.py builds them)."""
    from mcr_reference import _WINDS, _gb_tile

    calls = []
    for r in requests:
        packs = []
        for m in r.get("melds", []):
            tiles = sorted(m["tiles"], key=lambda c: (c[1], c[0]))
            if m["type"] == "chow":
                packs.append(("CHI", _gb_tile(tiles[1]), 1))
            elif m["type"] == "pung":
                packs.append(("PENG", _gb_tile(tiles[0]), 1))
            else:
                packs.append(("GANG", _gb_tile(tiles[0]), 0 if m.get("concealed") else 1))
        calls.append((tuple(packs), tuple(_gb_tile(t) for t in r["hand"]), _gb_tile(r["win_tile"]),
                      len(r.get("flowers", [])), bool(r.get("self_drawn")), bool(r.get("last_tile_of_kind")),
                      bool(r.get("kong_replacement") or r.get("robbing_kong")), bool(r.get("last_wall_tile")),
                      _WINDS.index(r.get("seat_wind", "E")), _WINDS.index(r.get("round_wind", "E")), True))
    return calls


def _best(rounds: int, run: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _jsonl(lines: bytes, rounds: int) -> tuple[float, int]:
    """Best CPU seconds of one ``--jsonl`` process over ``lines``, and its answer count."""
    best = float("inf")
    answers = 0
    for _ in range(rounds):
        before = _child_cpu()
        out = subprocess.run([sys.executable, "-m", "cardavia", "score", "mcr", "--jsonl"], input=lines,
                             capture_output=True, cwd=ROOT, check=True).stdout
        best = min(best, _child_cpu() - before)
        answers = out.count(b"\n")
    return best, answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="passes per measurement; the best is kept")
    parser.add_argument("--repeat", type=int, default=1, help="feed the sample this many times per pass")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    from MahjongGB import MahjongFanCalculator

    records = [json.loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    requests = [r["input"] for r in records] * args.repeat
    n = len(requests)
    variant = load_variant("mcr")
    scorer = variant.scorer
    calls = _gb_calls(requests)
    hands = [from_json(r) for r in requests]

    def gb() -> None:
        for call in calls:
            try:
                MahjongFanCalculator(*call)
            except TypeError:  # ERROR_NOT_WIN: answered, like ours
                pass

    def api() -> None:
        for r in requests:
            scorer.score(from_json(r)).as_json()

    def api_score_only() -> None:
        for h in hands:
            scorer.score(h)

    t_gb = _best(args.rounds, gb)
    t_api = _best(args.rounds, api)
    t_score = _best(args.rounds, api_score_only)
    lines = b"".join(json.dumps(r).encode() + b"\n" for r in requests)
    t_jsonl, answers = _jsonl(lines, args.rounds)
    t_start, _ = _jsonl(b"", args.rounds)
    assert answers == n, f"--jsonl answered {answers} of {n} lines"
    child_peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    self_peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    rate = {name: n / t for name, t in
            (("pymahjonggb", t_gb), ("api", t_api), ("api_score_only", t_score), ("jsonl", t_jsonl))}
    rate["jsonl_without_start"] = n / max(t_jsonl - t_start, 1e-9)
    result = {
        "hands": n,
        "hands_per_second": {k: round(v) for k, v in rate.items()},
        "ratio_vs_pymahjonggb": {k: round(v / rate["pymahjonggb"], 3) for k, v in rate.items() if k != "pymahjonggb"},
        "jsonl_process_start_cpu_seconds": round(t_start, 3),
        "peak_rss_mb": {"bench_process": round(self_peak_kb / 1024, 1), "jsonl_process": round(child_peak_kb / 1024, 1)},
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"MCR scoring, {n} hands of {SAMPLE.name} (best of {args.rounds}, CPU time)")
    for name, label in (("pymahjonggb", "PyMahjongGB (C++)"), ("api", "ours, Python API (from_json + score)"),
                        ("api_score_only", "ours, Scorer.score alone"),
                        ("jsonl", "ours, cardavia score mcr --jsonl"),
                        ("jsonl_without_start", "ours, --jsonl minus process start")):
        ratio = "" if name == "pymahjonggb" else f"   {rate[name] / rate['pymahjonggb']:.3f}x PyMahjongGB"
        print(f"  {label:<40} {rate[name]:>9.0f} hands/s{ratio}")
    print(f"  --jsonl process start (empty input): {t_start:.3f} s CPU")
    print(f"  peak RSS: bench process {self_peak_kb / 1024:.1f} MB, --jsonl process {child_peak_kb / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
