"""Deals per second with four normal AIs: one process, ``--workers 2``, and a local Ray
instance of 2 CPUs, each as a ratio to the one-process figure measured in the same run.

Each figure plays the same ``--deals`` deals (one seed) exactly as ``cardavia simulate``
does (wall, AIs, independent validator included), and the three results must be equal
(``same_results``). The Ray instance is started before its run and its start is reported
apart (``ray_start_s``): ``ray`` counts the deals only, ``ray_with_start`` the start too
(what one ``cardavia simulate --backend ray`` without ``--address`` takes). A warm-up of
``--warmup`` deals (another seed) fills this process's caches first. Also printed: the
load average before and after (the other work sharing the cores), which skews every
figure on a shared machine. Needs the cluster extra. Run from the repository::

    python bench/bench_cluster.py [--deals 2000] [--variant hk] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after the installed package: never a shadowing cardavia/

from cardavia.runtime import cluster  # noqa: E402
from cardavia.runtime.simulate import simulate  # noqa: E402

_TIMINGS = ("deals_per_second", "seconds", "workers", "backend")


def _stable(out: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in out.items() if k not in _TIMINGS}


def measure(variant: str, deals: int, warmup: int, seed: int) -> dict[str, object]:
    simulate(variant, warmup, seed=seed + 10 ** 6)
    t0 = time.perf_counter()
    one = simulate(variant, deals, seed=seed)
    t1 = time.perf_counter()
    two = simulate(variant, deals, seed=seed, workers=2)
    t2 = time.perf_counter()
    with cluster.connected(None, 2):
        t3 = time.perf_counter()
        on_ray = simulate(variant, deals, seed=seed, workers=2, backend="ray")
        t4 = time.perf_counter()
    wall, workers2, ray = deals / (t1 - t0), deals / (t2 - t1), deals / (t4 - t3)
    with_start = deals / (t4 - t2)
    return {
        "variant": variant,
        "deals": deals,
        "one_process": round(wall, 1),
        "workers2": round(workers2, 1),
        "ray": round(ray, 1),
        "ray_with_start": round(with_start, 1),
        "ray_start_s": round(t3 - t2, 1),
        "ratio_workers2": round(workers2 / wall, 2),
        "ratio_ray": round(ray / wall, 2),
        "ratio_ray_with_start": round(with_start / wall, 2),
        "same_results": _stable(one) == _stable(two) == _stable(on_ray),
        "wins": sum(one["wins_by_seat"]),
        "draws": one["draws"],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=2000, help="deals per figure (default 2000)")
    ap.add_argument("--variant", default="hk")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    load_before = os.getloadavg()
    r = measure(args.variant, args.deals, args.warmup, args.seed)
    load = {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in os.getloadavg()],
            "cpus": os.cpu_count()}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        print(json.dumps({**r, "load_average": load, "peak_rss_mb": round(peak, 1)}))
        return 0
    print(f"{r['variant']}, {r['deals']} deals, four normal AIs (deals per wall-clock second; ratio to one process)")
    print(f"  one process        {r['one_process']:>8}")
    print(f"  --workers 2        {r['workers2']:>8}  x{r['ratio_workers2']}")
    print(f"  Ray, 2 CPUs        {r['ray']:>8}  x{r['ratio_ray']}")
    print(f"  Ray with its start {r['ray_with_start']:>8}  x{r['ratio_ray_with_start']}  "
          f"(start {r['ray_start_s']} s)")
    print(f"  same results: {r['same_results']}; {r['wins']} wins, {r['draws']} draws")
    print(f"load average (1, 5, 15 min) before {load['before']}, after {load['after']}, on {load['cpus']} CPUs")
    print(f"peak resident memory of this process (the driver): {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
