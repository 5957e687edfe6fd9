"""MCR scoring cost in instructions, against PyMahjongGB: a figure the machine's load does not move.

On a shared machine, time varies by some 10% from one run to the next, and PyMahjongGB's
rate and ours do not always move together; the number of instructions a process executes
(valgrind's callgrind, ``Ir``) varies by well under 1%. This benchmark counts them:

* ours: ``cardavia score mcr --jsonl`` fed nothing, the sample once and the sample twice;
  from those, the process start, what the first pass costs more than a later one (tables
  filled on first use) and a warm pass, and the sample ``--jsonl-repeat`` times over
  (default 10), start included, as bench_score.py measures it;
* PyMahjongGB: a Python process calling it on the sample's hands (arguments converted
  beforehand, as bench_score.py's reference) 0 and ``--gb-passes`` times: per call, the
  Python loop included.

Printed: instructions per hand and the ratios PyMahjongGB / ours, in the direction of
bench_score.py's (ours as a fraction of PyMahjongGB's speed). Instructions are not time:
the two differ in cache misses and memory stalls, so this is a steady companion to
bench_score.py's figures, not a substitute. Needs ``valgrind`` on the PATH (Debian:
``apt-get install valgrind``); takes about a minute. Run from the repository::

    python bench/bench_instructions.py [--jsonl-repeat 10] [--gb-passes 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from bench_score import ROOT, SAMPLE, _child_env  # noqa: E402

_GB_CHILD = """
import sys
sys.path[:0] = [{bench!r}, {tests!r}]
sys.path.append({root!r})
import json
from bench_score import SAMPLE, _gb_calls
from MahjongGB import MahjongFanCalculator
requests = [json.loads(line)["input"] for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
calls = _gb_calls(requests)
for _ in range({passes}):
    for call in calls:
        try:
            MahjongFanCalculator(*call)
        except TypeError:
            pass
"""


def _instructions(cmd: list[str], stdin: bytes) -> int:
    """The instructions ``cmd`` executes with ``stdin`` as its input, as callgrind counts them."""
    env = dict(_child_env(), PYTHONHASHSEED="0")
    done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd], input=stdin,
                          capture_output=True, cwd=tempfile.gettempdir(), env=env, check=True)
    found = re.search(rb"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError("callgrind printed no instruction count:\n" + done.stderr.decode(errors="replace"))
    return int(found.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsonl-repeat", type=int, default=10,
                        help="the sample fed this many times to the --jsonl figure (default 10)")
    parser.add_argument("--gb-passes", type=int, default=20, help="passes of PyMahjongGB over the sample")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("error: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    requests = [json.loads(line)["input"] for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]
    n = len(requests)
    once = b"".join(json.dumps(r).encode() + b"\n" for r in requests)
    jsonl = [sys.executable, "-m", "cardavia", "score", "mcr", "--jsonl"]
    # Bytecode, the variant's cache entry and the code of its scorers: one hand of each
    # shape the sample holds makes sure the measured runs find them all.
    subprocess.run(jsonl, input=once, cwd=tempfile.gettempdir(), env=_child_env(), check=True, capture_output=True)
    start = _instructions(jsonl, b"")
    first = _instructions(jsonl, once)
    second = _instructions(jsonl, once * 2)
    warm = second - first
    cold = first - start - warm
    repeated = start + cold + args.jsonl_repeat * warm

    def gb(passes: int) -> int:
        code = _GB_CHILD.format(bench=str(BENCH), root=str(ROOT), tests=str(ROOT / "tests"), passes=passes)
        return _instructions([sys.executable, "-c", code], b"")

    gb_call = (gb(args.gb_passes) - gb(0)) / (args.gb_passes * n)
    per_hand = {
        "pymahjonggb_call": gb_call,
        "jsonl_warm": warm / n,
        "jsonl_repeated_start_included": repeated / (args.jsonl_repeat * n),
        "jsonl_once_start_included": first / n,
    }
    out = {
        "hands": n,
        "jsonl_repeat": args.jsonl_repeat,
        "instructions_per_hand": {k: round(v) for k, v in per_hand.items()},
        "jsonl_process_start": start,
        "jsonl_first_pass_extra": cold,
        "ratios_vs_pymahjonggb": {k: round(gb_call / v, 4) for k, v in per_hand.items() if k != "pymahjonggb_call"},
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"MCR scoring, {n} hands of {SAMPLE.name}, instructions counted by callgrind")
    print(f"  PyMahjongGB (C++), per call                            {gb_call:12,.0f}")
    rows = [("jsonl_warm", "ours, score mcr --jsonl, a warm pass"),
            ("jsonl_repeated_start_included", f"ours, score mcr --jsonl, sample x{args.jsonl_repeat}, start incl."),
            ("jsonl_once_start_included", "ours, score mcr --jsonl, sample once, start incl.")]
    for key, label in rows:
        print(f"  {label:<55}{per_hand[key]:12,.0f}   {gb_call / per_hand[key]:.3f}x PyMahjongGB")
    print(f"  --jsonl process start: {start:,} instructions; first pass's extra: {cold:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
