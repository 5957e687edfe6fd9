"""``cardavia waits --jsonl`` speed: ready hands of each shipped variant (winning hands of
bench/corpus.py less their winning tile).

Printed for each variant, in CPU time (``time.process_time``; for a process, the
children's rusage), so that other work on a shared machine does not skew it:

* per hand, in-process: each line answered alone as the command answers it (JSON read,
  hand checked, waits and their values, JSON written), timed one by one: the median and
  the 99th percentile over the hands, best of ``--rounds`` passes;
* per hand, the command as a process fed every hand on standard input, its start (an
  empty input, measured alone) taken off, best of ``--rounds``.

Run from the repository (``pip install -e .`` first)::

    python bench/bench_waits.py [--hands 2000] [--rounds 3] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after the installed package: bench.corpus, never a shadowing cardavia/

from cardavia.compiler import load_variant  # noqa: E402
from cardavia.runtime.analysis import analyst  # noqa: E402

from bench.corpus import ready  # noqa: E402
from cardavia.commands.waits import jsonl  # noqa: E402


def _lines(name: str, hands: int, seed: int) -> list[bytes]:
    return [(json.dumps(r) + "\n").encode() for r in ready(name, hands, seed)]


def per_hand(name: str, lines: list[bytes], rounds: int) -> tuple[float, float]:
    """(median, 99th percentile) seconds of one line answered alone, best of ``rounds``."""
    a = analyst(load_variant(name))
    best: list[float] | None = None
    for _ in range(rounds):
        times = []
        for line in lines:
            out = io.StringIO()
            source = io.BytesIO(line)
            start = time.process_time()
            jsonl(a, source, out)
            times.append(time.process_time() - start)
        times.sort()
        if best is None or statistics.median(times) < statistics.median(best):
            best = times
    assert best is not None
    return statistics.median(best), best[int(0.99 * (len(best) - 1))]


def _process(name: str, data: bytes) -> float:
    """Children's CPU seconds of one ``cardavia waits NAME --jsonl`` fed ``data``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "cardavia", "waits", name, "--jsonl"], input=data,
                          capture_output=True, cwd=tempfile.gettempdir(), check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.stdout.count(b"\n") == data.count(b"\n")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def in_process(name: str, lines: list[bytes], rounds: int) -> float:
    """Seconds per hand of the command as a process, its start taken off, best of ``rounds``."""
    data = b"".join(lines)
    fed = min(_process(name, data) for _ in range(rounds))
    empty = min(_process(name, b"") for _ in range(rounds))
    return max(fed - empty, 0.0) / len(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    report = {}
    for name in ("hk", "mcr", "sichuan"):
        lines = _lines(name, args.hands, args.seed)
        median, p99 = per_hand(name, lines, args.rounds)
        process = in_process(name, lines, args.rounds)
        report[name] = {"hands": len(lines), "median_ms": round(median * 1e3, 3), "p99_ms": round(p99 * 1e3, 3),
                        "process_ms_per_hand": round(process * 1e3, 3)}
        if not args.json:
            print(f"{name}: {len(lines)} ready hands: per hand median {median * 1e3:.3f} ms, "
                  f"p99 {p99 * 1e3:.3f} ms; as a process {process * 1e3:.3f} ms a hand (start taken off)")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
