"""Every shipped variant, overlay and option choice played at length: ``--deals`` deals
(default 1,000) each, with the built-in computer players and the independent validator, as
``cardavia simulate`` plays them. Prints, for each, the deals per second, the ends and the
invariant violations, and exits with status 1 when any run has a violation. The tests play
200 deals of each (tests/test_options_cli.py, tests/test_blood_river.py). Run from the
repository::

    python bench/bench_choices.py [--deals 1000] [--seed 0] [--workers 2] [--players KIND] [--json]

``--players`` seats one kind in every seat (default: simulate's, the normal AI; ``baseline``
plays ten times faster and checks the rules as well).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from cardavia.compiler import load_variant
from cardavia.compiler.registry import each_choice, shipped_variants
from cardavia.runtime.simulate import simulate


def runs() -> list[tuple[str, dict[str, str]]]:
    """(shipped name, options) for each variant at its defaults and each other choice."""
    return [(name, dict(v.options)) for name in shipped_variants() for v in each_choice(name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--players", default=None, help="one player kind for every seat (default: the AI)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: list[dict[str, Any]] = []
    for name, options in runs():
        start = time.perf_counter()
        seats = load_variant(name, options).table.players
        players = [args.players] * seats if args.players else None
        out = simulate(name, args.deals, seed=args.seed, workers=args.workers, options=options, players=players)
        seconds = time.perf_counter() - start
        results.append({"variant": name, "options": options, "players": out["players"], "deals": out["deals"],
                        "deals_per_second": round(out["deals"] / seconds, 1), "ends": out["ends"],
                        "invariant_violations": out["invariant_violations"]})
        if not args.json:
            chosen = " ".join(f"{k}={v}" for k, v in options.items()) or "-"
            print(f"{name:22} {chosen:60} {out['deals']:5} deals {results[-1]['deals_per_second']:7} /s  "
                  f"violations {out['invariant_violations']}  ends {out['ends']}", flush=True)
    if args.json:
        print(json.dumps(results))
    return 1 if any(r["invariant_violations"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
