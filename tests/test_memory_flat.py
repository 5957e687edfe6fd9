"""The memory of ``score --jsonl`` and ``simulate`` does not grow with their input: lines
and deals are streamed, nothing is kept per line or per deal (bench/bench_memory.py
reports the figures at larger sizes).

``simulate``'s players keep caches keyed by the tiles of a suit (runtime/shanten.py), which
fill up to a bound fixed by the number of such keys, whatever the number of deals; the
deals are replayed once those caches hold them, so that what is measured is what a run
keeps beyond them."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Runs ``cardavia ARGS`` and writes its peak resident set (VmHWM, kB) to argv[1] at exit.
REPORTING = """
import atexit, sys
def report():
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM"))
    with open(sys.argv[1], "w") as out:
        out.write(peak)
atexit.register(report)
from cardavia.cli import main
sys.exit(main(sys.argv[2:]))
"""


def peak_mb(args: list[str], stdin: bytes) -> float:
    with tempfile.NamedTemporaryFile("r") as report:
        done = subprocess.run([sys.executable, "-c", REPORTING, report.name, *args], input=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, timeout=600)
        assert done.returncode == 0, done.stderr
        return int(report.read()) / 1024


def requests(n: int) -> bytes:
    examples = [line for line in (ROOT / "docs" / "examples" / "hands.jsonl").read_text().splitlines()
                if line.strip().startswith("{")]
    bad = json.dumps({"hand": ["1m"] * 3, "win_tile": "x", "note": "y" * 200})
    return ("\n".join(examples[i % len(examples)] if i % 10 else bad for i in range(n)) + "\n").encode()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_score_jsonl_memory_does_not_grow_with_the_lines() -> None:
    peak_mb(["check", "hk"], b"")  # compiled and cached: both runs load it alike
    small, large = peak_mb(["score", "hk", "--jsonl"], requests(1000)), peak_mb(["score", "hk", "--jsonl"],
                                                                               requests(60_000))
    assert large - small < 4, (small, large)  # 60 times the lines: a few kB of answers buffered at most


#: Runs ``simulate`` twice over the same deals with baseline bots and prints the memory held
#: (tracemalloc) after deals 30 and 300 of the second run, as JSON.
HOLDING = """
import gc, json, tracemalloc
from cardavia.runtime.simulate import simulate
players = ["baseline"] * 4
simulate("hk", 300, seed=5, players=players)  # the players' caches filled with these deals' hands
held = {}
def progress(done):
    if done in (30, 300):
        gc.collect()  # what the last deal left in reference cycles is not held
        held[done] = tracemalloc.get_traced_memory()[0]
tracemalloc.start()
simulate("hk", 300, seed=5, progress=progress, players=players)
print(json.dumps(held))
"""


@pytest.mark.slow
def test_simulate_keeps_nothing_per_deal() -> None:
    """The memory held between two deals, at deal 30 and at deal 300 of a run: what a run
    keeps per deal shows as the difference (a summary of each deal kept would be 200 kB).
    Measured in a process of its own: tracemalloc counts every thread's allocations, and a
    test worker may run others (a browser connection's)."""
    # The baseline bots play: the AI's caches (runtime/ai/value.py) are emptied when full and
    # refill, so their size at deal 30 and at deal 300 differs by chance, within their bounds
    # (bench/bench_memory.py measures a whole process with the AI at 20 and 1,000 deals).
    done = subprocess.run([sys.executable, "-c", HOLDING], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    held = {int(k): v for k, v in json.loads(done.stdout).items()}
    assert held[300] - held[30] < 20_000, held
