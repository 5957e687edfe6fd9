"""``cardavia report VARIANT [--compare OTHER] [--deals N] [--players K,...] [--option NAME=CHOICE]
--out report.html [--json]``.

Plays deals as ``cardavia simulate`` does and writes a balance report for the variant's
designer: one self-contained HTML page (charts and tables, 95% intervals) and, with
``--json``, the same figures as one JSON object on standard output. ``--compare`` plays a
second variant (or the same with ``--compare-option``) on the same walls and adds the
differences and whether each is significant.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from cardavia.commands import OptionError, add_option_argument, chosen_options, fail, print_problems, write
from cardavia.commands.simulate import _progress, _whole, add_backend_arguments
from cardavia.compiler.errors import quoted
from cardavia.runtime.bots import KINDS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "report", help="a balance report of a variant: wins, seats, values, patterns",
        description="Play deals with computer players and write a balance report: how often deals are won and "
                    "drawn, the dealer's advantage, win rates and points by seat and by player, deal length, hand "
                    "values, points exchanged, each pattern's frequency against its value, and complete hands "
                    "refused for the minimum, each with a 95% interval. --compare adds a second variant (or the "
                    "same with other options) and tests each difference.")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--compare", metavar="OTHER", help="a second variant to compare with (it may be VARIANT again, "
                                                      "with --compare-option)")
    p.add_argument("--compare-option", action="append", default=[], metavar="NAME=CHOICE",
                   help="a choice for one of the compared variant's options; repeatable")
    p.add_argument("--deals", type=_whole(1), default=1000, help="deals per variant (default 1000)")
    p.add_argument("--seed", type=_whole(-1 << 64), default=0, help="seed of the walls and players (default 0)")
    p.add_argument("--compare-seed", type=_whole(-1 << 64),
                   help="seed of the compared variant's deals (default: --seed, the same walls)")
    p.add_argument("--players", help=f"one kind per seat, comma-separated ({', '.join(KINDS)}); default ai")
    p.add_argument("--workers", type=_whole(1), default=1,
                   help="worker processes (default 1; at most the CPUs available)")
    add_option_argument(p)
    add_backend_arguments(p)
    p.add_argument("--out", metavar="FILE", help="write the HTML page to FILE")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import VariantError
    from cardavia.report.runs import Run, differences, differences_json
    from cardavia.runtime.simulate import SimulationError

    if not args.out and not args.json:
        return fail("expected --out FILE (the HTML page), --json (the figures), or both")
    if args.out is not None and not args.out.strip():
        return fail("--out: expected a file name", as_json=args.json)
    if args.compare_option and args.compare is None:
        return fail("--compare-option needs --compare OTHER", as_json=args.json)
    players = None
    if args.players is not None:
        players = [k.strip() for k in args.players.split(",")]
        unknown = [k for k in players if k not in KINDS]
        if unknown:
            return fail(f"--players: unknown kind {quoted(unknown[0])}: expected one of {', '.join(KINDS)}",
                        as_json=args.json)
    try:
        options = chosen_options(args.option)
        other_options = chosen_options(args.compare_option)
    except OptionError as exc:
        return fail(str(exc), as_json=args.json)
    plan = [(args.variant, options, args.seed)]
    if args.compare is not None:
        plan.append((args.compare, other_options, args.seed if args.compare_seed is None else args.compare_seed))
    runs: list[Run] = []
    try:
        from cardavia.compiler import load_variant

        for source, chosen, _ in plan:  # every variant compiles before anything is played
            load_variant(source, chosen)
        with contextlib.ExitStack() as stack:
            if args.backend == "ray":  # one Ray instance (or connection) for both runs
                from cardavia.runtime.cluster import connected

                stack.enter_context(connected(args.address, args.workers))
            _play(plan, args, players, runs)
    except VariantError as exc:
        print_problems(exc, args.json)
        return 2
    except ValueError as exc:
        return fail(str(exc), as_json=args.json)
    except SimulationError as exc:
        return fail(str(exc), 1, as_json=args.json)
    if len(runs) == 2 and runs[0].label == runs[1].label:  # told apart by their seeds, or their order
        same_seed = plan[0][2] == plan[1][2]
        for i, r in enumerate(runs):
            r.label += f" ({i + 1})" if same_seed else f" (seed {plan[i][2]})"
    diffs = differences(runs[0], runs[1]) if len(runs) == 2 else None
    interrupted = any(r.simulate.get("interrupted") for r in runs) or len(runs) < len(plan)
    if args.out:
        status = _write_page(Path(args.out), runs, diffs, args.json)
        if status:
            return status
    if args.json:
        out: dict[str, Any] = {"runs": [r.to_json() for r in runs]}
        if diffs is not None:
            out["differences"] = differences_json(diffs)
        if interrupted:
            out["interrupted"] = True
        write(json.dumps(out) + "\n")
        return 130 if interrupted else 0
    if interrupted:
        return 130
    return 1 if any(r.simulate["invariant_violations"] for r in runs) else 0


def _play(plan: list[tuple[str, dict[str, str], int]], args: argparse.Namespace, players: list[str] | None,
          runs: list[Any]) -> None:
    """Play each run of the plan (a progress bar each), adding it to ``runs``; stop after an
    interrupted one."""
    from cardavia.report.runs import play

    for source, chosen, seed in plan:
        label = f"simulating {source}" if len(plan) > 1 else "simulating"
        with _progress(args.deals, sys.stderr.isatty(), label) as progress:
            runs.append(play(source, args.deals, seed, players, chosen, args.workers, args.backend, args.address,
                             progress))
        if runs[-1].simulate.get("interrupted"):
            return


def _write_page(path: Path, runs: list[Any], diffs: list[dict[str, Any]] | None, as_json: bool) -> int:
    """Write the page; 0, or the exit status of a failure (reported)."""
    from cardavia.cli import version
    from cardavia.report.page import render

    html = render(runs, diffs, version())
    try:
        path.write_text(html, encoding="utf-8")
    except OSError as exc:
        return fail(f"cannot write {quoted(str(path))}: {exc.strerror or exc}", as_json=as_json)
    return 0
