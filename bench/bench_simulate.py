"""Deals per second for each variant with four players of one kind (``--players``: the baseline
bot by default; ``ai`` for the default players of ``cardavia simulate``): one process, and
``--workers 2``.

Each figure plays ``--deals`` deals exactly as ``cardavia simulate`` does (wall, bots,
independent validator included) and reports, as the median over ``--runs`` runs:

* ``cpu``: deals per CPU second of this process (``time.process_time``), which other
  work on a shared machine skews least;
* ``wall``: deals per wall-clock second, one process;
* ``workers2``: deals per wall-clock second with two worker processes (the figure that
  counts when the machine has two free cores), and the speed-up over ``wall``.

The first deals of a process fill the lookup caches; a warm-up of ``--warmup`` deals
(other seeds) is played first and not counted. Each run plays new walls (seeds 1, 2, ...),
the two-worker run first, so that its forked workers never inherit caches filled by the
very deals they replay; the one-process run then plays the same deals, and its results
must equal the workers' (``same_results``). Also printed: the machine's load average
before and after (the other work sharing the cores), and the peak resident memory of
this process and of the worker processes. Run from the repository::

    python bench/bench_simulate.py [--deals 200] [--runs 3] [--variants hk mcr sichuan] [--players baseline] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # after the installed package: bench.corpus, never a shadowing cardavia/

from cardavia.runtime.simulate import simulate  # noqa: E402

_TIMINGS = ("deals_per_second", "seconds", "workers")


def _stable(out: dict[str, object]) -> dict[str, object]:
    """A result without its timings (the decision times of each kind among them)."""
    kept = {k: v for k, v in out.items() if k not in _TIMINGS}
    if isinstance(kept.get("by_kind"), dict):
        kept["by_kind"] = {k: {f: x for f, x in v.items() if f != "decision_ms"} for k, v in kept["by_kind"].items()}
    return kept


def measure_once(variant: str, deals: int, seed: int, players: list[str]) -> dict[str, float | bool | int]:
    w0 = time.perf_counter()
    two = simulate(variant, deals, seed=seed, workers=2, players=players)
    w1 = time.perf_counter()
    c1 = time.process_time()
    one = simulate(variant, deals, seed=seed, players=players)
    c2, w2 = time.process_time(), time.perf_counter()
    assert one["invariant_violations"] == 0 and two["invariant_violations"] == 0
    same = _stable(one) == _stable(two)
    return {
        "cpu": deals / (c2 - c1),
        "wall": deals / (w2 - w1),
        "workers2": deals / (w1 - w0),
        "same_results": same,
        "draws": one["draws"],
        "wins": sum(one["wins_by_seat"]),
    }


def measure(variant: str, deals: int, warmup: int, runs: int, kind: str) -> dict[str, object]:
    players = [kind] * 4
    simulate(variant, warmup, seed=10 ** 6, players=players)
    each = [measure_once(variant, deals, seed, players) for seed in range(1, runs + 1)]
    med = {k: round(statistics.median(float(r[k]) for r in each), 1) for k in ("cpu", "wall", "workers2")}
    return {
        "deals": deals,
        "runs": runs,
        **med,
        "speedup": round(med["workers2"] / med["wall"], 2),
        "cpu_runs": [round(float(r["cpu"]), 1) for r in each],
        "same_results": all(r["same_results"] for r in each),
        "draws": sum(int(r["draws"]) for r in each),
        "wins": sum(int(r["wins"]) for r in each),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200, help="deals per run (default 200)")
    ap.add_argument("--runs", type=int, default=3,
                    help="runs per variant, new walls each; medians reported (default 3)")
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--variants", nargs="+", default=["hk", "mcr", "sichuan"])
    ap.add_argument("--players", default="baseline", help="the kind in every seat (default baseline)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    load_before = os.getloadavg()
    results = {v: measure(v, args.deals, args.warmup, args.runs, args.players) for v in args.variants}
    load_after = os.getloadavg()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    load = {"before": [round(x, 2) for x in load_before], "after": [round(x, 2) for x in load_after],
            "cpus": os.cpu_count()}
    if args.json:
        print(json.dumps({"results": results, "peak_rss_mb": round(peak, 1),
                          "peak_worker_rss_mb": round(peak_workers, 1), "load_average": load}))
        return 0
    print(f"four {args.players}: medians of {args.runs} runs of {args.deals} deals each "
          "(wins and draws summed over the runs)")
    print(f"{'variant':<9} {'cpu/s':>8} {'wall/s':>8} {'2 workers/s':>12} {'speed-up':>9} {'wins':>6} {'draws':>6}"
          f"  cpu/s of each run")
    for v, r in results.items():
        print(f"{v:<9} {r['cpu']:>8} {r['wall']:>8} {r['workers2']:>12} {r['speedup']:>9} "
              f"{r['wins']:>6} {r['draws']:>6}  {r['cpu_runs']}" + ("" if r["same_results"] else "  (results differ!)"))
    print(f"load average (1, 5, 15 min) before {load['before']}, after {load['after']}, on {load['cpus']} CPUs")
    print(f"peak resident memory: {peak:.0f} MB this process, {peak_workers:.0f} MB the largest worker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
