"""Deals per second for each variant with four baseline bots: one process, and ``--workers 2``.

Each figure plays ``--deals`` deals exactly as ``cardavia simulate`` does (wall, bots,
independent validator included) and reports:

* ``cpu``: deals per CPU second of this process (``time.process_time``), which other
  work on a shared machine skews least;
* ``wall``: deals per wall-clock second, one process;
* ``workers2``: deals per wall-clock second with two worker processes (the figure that
  counts when the machine has two free cores), and the speed-up over ``wall``.

The first deals of a process fill the shanten caches; a warm-up of ``--warmup`` deals
(other seeds) is played first and not counted. Also printed: the peak resident memory.
Run from the repository::

    python bench/bench_simulate.py [--deals 300] [--variants hk mcr sichuan] [--json]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from runtime.simulate import simulate  # noqa: E402


def measure(variant: str, deals: int, warmup: int) -> dict[str, float]:
    simulate(variant, warmup, seed=10 ** 6)
    c0, w0 = time.process_time(), time.perf_counter()
    one = simulate(variant, deals, seed=1)
    c1, w1 = time.process_time(), time.perf_counter()
    two = simulate(variant, deals, seed=1, workers=2)
    w2 = time.perf_counter()
    assert one["invariant_violations"] == 0 and two["invariant_violations"] == 0
    same = {k: v for k, v in one.items() if k not in ("deals_per_second", "seconds", "workers")} == \
        {k: v for k, v in two.items() if k not in ("deals_per_second", "seconds", "workers")}
    return {
        "deals": deals,
        "cpu": round(deals / (c1 - c0), 1),
        "wall": round(deals / (w1 - w0), 1),
        "workers2": round(deals / (w2 - w1), 1),
        "speedup": round((w1 - w0) / (w2 - w1), 2),
        "same_results": same,
        "draws": one["draws"],
        "wins": sum(one["wins_by_seat"]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--variants", nargs="+", default=["hk", "mcr", "sichuan"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results = {v: measure(v, args.deals, args.warmup) for v in args.variants}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        print(json.dumps({"results": results, "peak_rss_mb": round(peak, 1)}))
        return 0
    print(f"{'variant':<9} {'deals':>6} {'cpu/s':>8} {'wall/s':>8} {'2 workers/s':>12} {'speed-up':>9} {'wins':>6} {'draws':>6}")
    for v, r in results.items():
        print(f"{v:<9} {r['deals']:>6} {r['cpu']:>8} {r['wall']:>8} {r['workers2']:>12} {r['speedup']:>9} "
              f"{r['wins']:>6} {r['draws']:>6}" + ("" if r["same_results"] else "  (results differ!)"))
    print(f"peak resident memory of this process: {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
