"""Compile time of each shipped variant: cold and warm, each in a fresh process.

* cold: a fresh process with an empty compile cache (what the first ``cardavia`` run after
  installing or editing a variant pays);
* warm: a fresh process whose cache holds the variant (what every later ``cardavia score``
  pays at start);
* edited: a fresh process after the file changed (a comment added): the variant is compiled
  again, but the expression parser's tables are already cached;
* again: a second load inside the same process (the in-process memo).

Each figure is the median of ``--runs`` processes. ``load`` is the ``load_variant`` call
alone; ``process`` adds the interpreter start and the imports. Run from the repository::

    python bench/bench_compile.py [--runs 5] [--variants hk mcr sichuan] [--json] [--no-cache]
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
from cardavia.compiler import load_variant
t1 = time.perf_counter()
v = load_variant(sys.argv[1])
t2 = time.perf_counter()
load_variant(sys.argv[1])
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "again": t3 - t2, "patterns": len(v.scoring.table.patterns)}))
"""


PYCACHE = tempfile.mkdtemp(prefix="cardavia-bench-pyc-")
atexit.register(shutil.rmtree, PYCACHE, True)


NO_CACHE = False  # --no-cache: every load compiles from scratch (the figures before the cache)


def child(variant: str, cache_dir: str) -> dict[str, float]:
    # Bytecode is kept (in a folder of its own), as it is for an installed package, even
    # where the environment says PYTHONDONTWRITEBYTECODE: imports are then measured fairly.
    env = dict(os.environ, CARDAVIA_CACHE_DIR="off" if NO_CACHE else cache_dir,
               PYTHONPYCACHEPREFIX=PYCACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, variant], env=env, cwd=tempfile.gettempdir(),
                         capture_output=True,
                         text=True, check=True).stdout
    wall = time.perf_counter() - start
    result = json.loads(out)
    result["process"] = wall
    return result


def measure(variant: str, runs: int) -> dict[str, float]:
    cold, warm, edited = [], [], []
    source = ROOT / "variants" / f"{variant}.yaml"
    for i in range(runs):
        with tempfile.TemporaryDirectory(prefix="cardavia-bench-") as cache_dir:
            cold.append(child(variant, cache_dir))
            warm.append(child(variant, cache_dir))
            copy = Path(cache_dir) / f"{variant}-edited.yaml"
            copy.write_text(source.read_text(encoding="utf-8") + f"\n# edit {i}\n", encoding="utf-8")
            edited.append(child(str(copy), cache_dir))

    def med(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(r[key] for r in rows) * 1000

    return {
        "patterns": cold[0]["patterns"],
        "cold_load_ms": med(cold, "load"), "warm_load_ms": med(warm, "load"), "edited_load_ms": med(edited, "load"),
        "cold_process_ms": med(cold, "process"), "warm_process_ms": med(warm, "process"),
        "warm_import_ms": med(warm, "import"), "again_ms": med(warm, "again"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--variants", nargs="+", default=["hk", "mcr", "sichuan"])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-cache", action="store_true", help="switch the compile cache off (figures without it)")
    args = parser.parse_args(argv)
    global NO_CACHE
    NO_CACHE = args.no_cache
    with tempfile.TemporaryDirectory(prefix="cardavia-bench-") as cache_dir:
        child(args.variants[0], cache_dir)  # fills the bytecode folder
    results = {v: measure(v, args.runs) for v in args.variants}
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"{'variant':<9}{'patterns':>9}{'cold load':>11}{'warm load':>11}{'ratio':>7}{'edited':>9}"
          f"{'cold proc':>11}{'warm proc':>11}{'imports':>9}{'again':>8}   (ms, median of {args.runs})")
    for v, r in results.items():
        ratio = r["cold_load_ms"] / r["warm_load_ms"] if r["warm_load_ms"] else float("inf")
        print(f"{v:<9}{r['patterns']:>9.0f}{r['cold_load_ms']:>11.1f}{r['warm_load_ms']:>11.1f}{ratio:>6.1f}x"
              f"{r['edited_load_ms']:>9.1f}"
              f"{r['cold_process_ms']:>11.1f}{r['warm_process_ms']:>11.1f}{r['warm_import_ms']:>9.1f}"
              f"{r['again_ms']:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
