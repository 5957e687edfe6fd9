"""Peak resident memory of ``cardavia score --jsonl`` and ``cardavia simulate`` as their
input grows: it must stay flat (work is streamed, nothing kept per line or per deal).

Each command runs in a process of its own at a small and a large size; its peak resident
set (VmHWM, which the process reads at exit) is reported with the growth from the small
size to the large one (with ``--workers``, the parent's: each worker plays one chunk of
deals at a time).
``score --jsonl`` reads the example requests of docs/examples/hands.jsonl repeated, with
every tenth line a bad one (answered with an error line); ``simulate`` plays deals with the
default players (the AI), whose caches (runtime/shanten.py's keyed by the tiles of a suit,
the AI's scored completions in runtime/ai/) fill as new hands are met, each up to a bound of
its own: that is its growth, about 36 MB at 20 deals to 160 MB at 1,000 and a plateau near
180 MB from 1,600 deals on (tests/test_memory_flat.py checks that nothing else is kept per
deal). Run from the repository::

    python bench/bench_memory.py [--lines 2000 200000] [--deals 20 1000] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


#: Runs the command and writes its peak resident set (VmHWM, in kB) to the file argv[1]
#: at exit: the figure of this process alone, after its exec (ru_maxrss of a child also
#: counts the parent's pages it was forked with).
_REPORTING = """
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


def peak_rss(args: list[str], stdin: bytes = b"") -> tuple[float, float]:
    """(peak resident MB, wall seconds) of ``cardavia ARGS`` fed ``stdin`` (its output
    discarded); worker processes are not included."""
    with tempfile.NamedTemporaryFile("r") as report:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _REPORTING, report.name, *args], input=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        seconds = time.perf_counter() - started
        assert done.returncode in (0, 1), f"{args}: exit status {done.returncode}"
        return int(report.read()) / 1024, seconds


def requests(n: int) -> bytes:
    """``n`` request lines: the examples of docs/examples/hands.jsonl, every tenth line bad."""
    examples = [line for line in (ROOT / "docs" / "examples" / "hands.jsonl").read_text().splitlines()
                if line.strip().startswith("{")]
    lines = [examples[i % len(examples)] if i % 10 else '{"hand": ["1m"], "win_tile": "x"}' for i in range(n)]
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, nargs=2, default=[2000, 200_000], metavar=("SMALL", "LARGE"))
    parser.add_argument("--deals", type=int, nargs=2, default=[20, 1000], metavar=("SMALL", "LARGE"))
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    peak_rss(["check", "hk"])  # the variant compiled and cached: the runs measured load it alike
    for what, sizes, run in (
        ("score --jsonl (lines)", args.lines, lambda n: peak_rss(["score", "hk", "--jsonl"], requests(n))),
        ("simulate (deals)", args.deals,
         lambda n: peak_rss(["simulate", "hk", "--deals", str(n), "--json", "--workers", str(args.workers)])),
    ):
        (small_mb, _), (large_mb, large_s) = run(sizes[0]), run(sizes[1])
        rows.append({"command": what, "small": sizes[0], "large": sizes[1], "small_mb": round(small_mb, 1),
                     "large_mb": round(large_mb, 1), "growth_mb": round(large_mb - small_mb, 1),
                     "large_seconds": round(large_s, 1)})
    if args.json:
        print(json.dumps({"load": os.getloadavg(), "rows": rows}))
        return
    print(f"load average {os.getloadavg()[0]:.1f}")
    for r in rows:
        print(f"{r['command']:<24} {r['small']:>8} -> {r['large']:>8}: {r['small_mb']:6.1f} MB -> "
              f"{r['large_mb']:6.1f} MB (growth {r['growth_mb']:+.1f} MB; the large run took {r['large_seconds']} s)")


if __name__ == "__main__":
    main()
