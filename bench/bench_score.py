"""MCR scoring speed against PyMahjongGB, on the hands of the MCR oracle sample.

Figures on the same hands, in the same run, each the best of ``--rounds`` passes (the
rounds alternate between the measurements, so a busy moment of a shared machine hits
them alike), measured in CPU seconds (``time.process_time``; for a child process, the
children's rusage):

* PyMahjongGB (C++ behind a Python call), its arguments converted beforehand: the
  reference of every ratio;
* for information only, PyMahjongGB doing what ``--jsonl`` does for each line, in-process
  (json.loads, argument conversion, the call, json.dumps of its answer);
* ours through the Python API: ``from_json`` + ``variant.scorer.score`` + ``as_json``
  (and the score call alone, hands built beforehand);
* ours through ``cardavia score mcr --jsonl`` as a process fed the sample on standard
  input, ``--jsonl-repeat`` times over (default 10: a steadier figure; every line is
  parsed and scored again, there is no per-hand result cache), process start included;
  the same figure without the process start; and a cold process fed the sample once
  (start, variant load and the first use of every table included);
* the process start alone (empty input), reported separately.

The ``--jsonl`` processes keep their bytecode (in a temporary folder), as an installed
package does, even where the environment sets PYTHONDONTWRITEBYTECODE, and use the
compiled-variant cache as a user's process would.

Printed: hands/second for each and the ratios ours / PyMahjongGB, plus the peak
resident memory of this process and of a ``--jsonl`` process (as it reports it itself). Run from the
repository::

    python bench/bench_score.py [--rounds 5] [--jsonl-repeat 10] [--repeat 1] [--json]

``--repeat N`` feeds every measurement the sample N times (the API figures included).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after the installed package: bench.corpus, never a shadowing cardavia/
sys.path.insert(0, str(ROOT / "tests"))

from cardavia.compiler import from_json, load_variant  # noqa: E402

SAMPLE = ROOT / "tests" / "data" / "mcr-sample.jsonl"
PYCACHE = tempfile.mkdtemp(prefix="cardavia-bench-pyc-")
atexit.register(shutil.rmtree, PYCACHE, True)


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


def _cpu(run: Callable[[], None]) -> float:
    start = time.process_time()
    run()
    return time.process_time() - start


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _child_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPYCACHEPREFIX=PYCACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _jsonl(lines: bytes) -> tuple[float, int]:
    """CPU seconds of one ``--jsonl`` process over ``lines``, and its answer count."""
    before = _child_cpu()
    out = subprocess.run([sys.executable, "-m", "cardavia", "score", "mcr", "--jsonl"], input=lines,
                         capture_output=True, cwd=tempfile.gettempdir(), env=_child_env(), check=True).stdout
    return _child_cpu() - before, out.count(b"\n")


_RSS_CHILD = """
import sys
from cardavia.cli import main
code = main(["score", "mcr", "--jsonl"])
with open("/proc/self/status") as status:
    sys.stderr.write("".join(line for line in status if line.startswith("VmHWM")))
sys.exit(code)
"""


def _jsonl_peak_rss_kb(lines: bytes) -> int:
    """The peak resident memory of a ``--jsonl`` run, as the process itself reports it
    (VmHWM; a child's ru_maxrss on Linux keeps the parent's figure across exec)."""
    err = subprocess.run([sys.executable, "-c", _RSS_CHILD], input=lines, capture_output=True,
                         cwd=tempfile.gettempdir(),
                         env=_child_env(), check=True).stderr.decode()
    return int(err.rsplit("VmHWM:", 1)[1].split()[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="passes per measurement; the best is kept")
    parser.add_argument("--repeat", type=int, default=1, help="feed every measurement the sample this many times")
    parser.add_argument("--jsonl-repeat", type=int, default=10,
                        help="feed the --jsonl process the sample this many times (default 10)")
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
    once = b"".join(json.dumps(r).encode() + b"\n" for r in requests)
    many = once * args.jsonl_repeat
    n_many = n * args.jsonl_repeat

    def gb() -> None:
        for call in calls:
            # A contextlib.suppress() here would add a context manager to every timed reference call.
            try:  # noqa: SIM105
                MahjongFanCalculator(*call)
            except TypeError:  # ERROR_NOT_WIN: answered, like ours
                pass

    lines = once.splitlines()

    def gb_same_job() -> None:
        for line in lines:  # what --jsonl does for a line: parse, convert, score, write JSON
            try:
                out = {"fans": MahjongFanCalculator(*_gb_calls([json.loads(line)])[0])}
            except TypeError:
                out = {"error": "not a win"}
            json.dumps(out)

    def api() -> None:
        for r in requests:
            scorer.score(from_json(r)).as_json()

    def api_score_only() -> None:
        for h in hands:
            scorer.score(h)

    _jsonl(b"")  # the first process writes the bytecode and the compiled-variant cache
    best = {name: float("inf") for name in ("gb", "gb_job", "api", "score", "jsonl", "cold", "start")}
    for _ in range(args.rounds):
        best["gb"] = min(best["gb"], _cpu(gb))
        best["gb_job"] = min(best["gb_job"], _cpu(gb_same_job))
        best["api"] = min(best["api"], _cpu(api))
        best["score"] = min(best["score"], _cpu(api_score_only))
        t, answers = _jsonl(many)
        assert answers == n_many, f"--jsonl answered {answers} of {n_many} lines"
        best["jsonl"] = min(best["jsonl"], t)
        t, answers = _jsonl(once)
        assert answers == n, f"--jsonl answered {answers} of {n} lines"
        best["cold"] = min(best["cold"], t)
        best["start"] = min(best["start"], _jsonl(b"")[0])
    child_peak_kb = _jsonl_peak_rss_kb(many)
    self_peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    rate = {
        "pymahjonggb": n / best["gb"],
        "api": n / best["api"],
        "api_score_only": n / best["score"],
        "jsonl": n_many / best["jsonl"],
        "jsonl_without_start": n_many / max(best["jsonl"] - best["start"], 1e-9),
        "jsonl_cold_sample_once": n / best["cold"],
    }
    same_job = n / best["gb_job"]
    result = {
        "pymahjonggb_same_job_hands_per_second": round(same_job),
        "jsonl_without_start_vs_pymahjonggb_same_job": round(rate["jsonl_without_start"] / same_job, 3),
        "hands": n,
        "jsonl_hands": n_many,
        "hands_per_second": {k: round(v) for k, v in rate.items()},
        "ratio_vs_pymahjonggb": {
            k: round(v / rate["pymahjonggb"], 3) for k, v in rate.items() if k != "pymahjonggb"
        },
        "jsonl_process_start_cpu_seconds": round(best["start"], 3),
        "peak_rss_mb": {
            "bench_process": round(self_peak_kb / 1024, 1),
            "jsonl_process": round(child_peak_kb / 1024, 1),
        },
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"MCR scoring, {n} hands of {SAMPLE.name} (best of {args.rounds} alternating rounds, CPU time)")
    labels = (
        ("pymahjonggb", "PyMahjongGB (C++)"),
        ("api", "ours, Python API (from_json + score + as_json)"),
        ("api_score_only", "ours, Scorer.score alone"),
        ("jsonl", f"ours, score mcr --jsonl, sample x{args.jsonl_repeat}, start incl."),
        ("jsonl_without_start", f"ours, score mcr --jsonl, sample x{args.jsonl_repeat}, minus start"),
        ("jsonl_cold_sample_once", "ours, score mcr --jsonl, sample once, start incl."),
    )
    for name, label in labels:
        ratio = "" if name == "pymahjonggb" else f"   {rate[name] / rate['pymahjonggb']:.3f}x PyMahjongGB"
        print(f"  {label:<58} {rate[name]:>9.0f} hands/s{ratio}")
    print(f"  --jsonl process start (empty input): {best['start']:.3f} s CPU")
    print(f"  for information, PyMahjongGB doing --jsonl's job in-process (json.loads, argument conversion, "
          f"call, json.dumps): {same_job:.0f} hands/s; ours --jsonl minus start "
          f"{rate['jsonl_without_start'] / same_job:.3f}x that (the figures above use the bare call)")
    print(f"  --jsonl over the sample x{args.jsonl_repeat}: every line parsed and scored again (no per-hand "
          "result cache; shared between hands only bounded tables keyed by one suit's counts, by one suit's "
          "split (with the winning tile and self-drawn), by a checked declared set, by a (group, winning tile) "
          "placement, by the kinds of one list of sets with the single context values its patterns' choice "
          "conditions read (combination patterns' choices), and by an output piece's (pattern, value, count) "
          "or (valid, total); the generated scorers' code and the bit set of splitting suits come from the "
          "compile cache)")
    print(f"  peak RSS: bench process {self_peak_kb / 1024:.1f} MB, --jsonl process over the sample "
          f"x{args.jsonl_repeat} {child_peak_kb / 1024:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
