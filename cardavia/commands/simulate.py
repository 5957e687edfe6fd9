"""``cardavia simulate VARIANT --deals N [--seed S] [--players K,K,K,K] [--duplicate] [--workers N]
[--backend local|ray [--address ADDR]] [--json]``.

``--json`` prints the contract's object; without it, a table for people. A run that lasts
more than a moment shows a progress bar on standard error, only when standard error is a
terminal (a pipe or a file gets nothing but the result).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from cardavia.commands import (
    OptionError,
    add_option_argument,
    chosen_options,
    chosen_players,
    fail,
    print_problems,
    write,
)
from cardavia.compiler.errors import quoted
from cardavia.runtime.bots import KINDS

#: Seconds a run goes on before its progress bar appears.
PROGRESS_AFTER = 0.5


def _whole(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``low``, said briefly when it is not."""
    def whole(text: str) -> int:
        try:
            n = int(text) if len(text) <= 100 else None
        except ValueError:
            n = None
        if n is None or n < low:
            what = "a whole number" if low == -1 << 64 else f"a whole number of at least {low}"
            raise argparse.ArgumentTypeError(f"{quoted(text)} is not {what}")
        return n
    return whole


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate", help="play many deals with computer players",
        description="Play deals with computer players and report wins, points, draws, pattern frequencies and "
                    "invariant violations (counted by an independent checker that replays each event log). "
                    "Player kinds: baseline (legal, greedy toward a win), random, and the AI levels ai (= ai:normal), "
                    "ai:easy, ai:strong. With --players, each kind's results and decision times (processor time, "
                    "median and 99th percentile). Results but timings do not depend on --workers. Ctrl-C stops the "
                    "run and prints what the deals done so far give (exit status 130).")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--deals", type=_whole(0), default=100,
                   help="number of deals (walls with --duplicate; default 100)")
    p.add_argument("--seed", type=_whole(-1 << 64), default=0, help="seed of the walls and players (default 0)")
    p.add_argument("--players", help=f"one kind per seat, comma-separated ({', '.join(KINDS)}); default ai")
    p.add_argument("--duplicate", action="store_true",
                   help="play each wall four times, players rotated through the seats")
    p.add_argument("--workers", type=_whole(1), default=1,
                   help="worker processes (default 1; at most the CPUs available)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_option_argument(p)
    add_backend_arguments(p)
    p.set_defaults(func=run)


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """``--backend local|ray`` and ``--address``: where the deals are played."""
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local: processes on this machine (default); ray: tasks on a Ray cluster "
                        "(pip install 'cardavia[cluster]'), the same results")
    p.add_argument("--address", metavar="ADDR",
                   help="the Ray cluster to join (with --backend ray); without it, a local instance of "
                        "--workers CPUs on the loopback address")


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import VariantError, load_variant
    from cardavia.runtime.simulate import SimulationError, simulate

    try:
        players = chosen_players(args.players)
        options = chosen_options(args.option)
    except OptionError as exc:
        return fail(str(exc), as_json=args.json)
    try:
        variant = load_variant(args.variant, options)
        n = variant.table.players
        total = args.deals * n if args.duplicate else args.deals
        with _progress(total, sys.stderr.isatty()) as progress:
            out = simulate(args.variant, args.deals, args.seed, players, args.duplicate, args.workers, progress,
                           options=options, backend=args.backend, address=args.address)
    except VariantError as exc:
        print_problems(exc, args.json)
        return 2
    except ValueError as exc:
        return fail(str(exc), as_json=args.json)
    except SimulationError as exc:
        return fail(str(exc), 1, as_json=args.json)
    interrupted = out.get("interrupted", False)
    if args.json:
        write(json.dumps(out) + "\n")
        return 130 if interrupted else 0
    write(report(out, variant, total) + "\n")
    if interrupted:
        return 130
    return 0 if out["invariant_violations"] == 0 else 1


@contextlib.contextmanager
def _progress(total: int, shown: bool, label: str = "simulating") -> Iterator[Callable[[int], None] | None]:
    """A progress bar on standard error while the deals are played (when ``shown`` and the
    run lasts more than :data:`PROGRESS_AFTER` seconds), headed ``label``; yields what
    simulate() tells the number of deals done."""
    if not shown or total < 2:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("deals", total=total)
    start = time.monotonic()
    started = False

    def advance(done: int) -> None:
        nonlocal started
        if not started and time.monotonic() - start > PROGRESS_AFTER:
            bar.start()
            started = True
        bar.update(task, completed=done)

    try:
        yield advance
    finally:
        if started:
            bar.stop()


def report(out: dict[str, Any], variant: Any, total: int) -> str:
    """The summary for people: a line on the run, a table by seat, the ends, the most
    frequent patterns by name, and each player kind's results when kinds were given."""
    from rich.console import Console
    from rich.table import Table

    names = {p.id: p.name for p in variant.scoring.table.patterns}
    deals = out["deals"]
    rate = out["deals_per_second"]
    done = (f"interrupted after {deals} of {total} deals" if out.get("interrupted")
            else f"{deals} {'deal' if deals == 1 else 'deals'}")
    head = (f"{variant.title}: {done} in {out['seconds']} s"
            + (f" ({rate} a second)" if rate else "") + f", seed {out['seed']}"
            + (", each wall played once from each seat" if out["duplicate"] else ""))
    seats = Table(box=None, padding=(0, 2), pad_edge=False, show_header=True, header_style="")
    seats.add_column("seat")
    n = len(out["wins_by_seat"])
    for s in range(n):
        seats.add_column(str(s), justify="right")
    seats.add_row("players", *out["players"])
    seats.add_row("wins", *(str(w) for w in out["wins_by_seat"]))
    seats.add_row("points", *(f"{p:+d}" for p in out["points_by_seat"]))
    ends = out["ends"]
    words = {"win": "with a win", "exhausted": "wall exhausted", "two_won": "two players won",
             "three_won": "three players won"}
    parts = [f"{count} {words.get(end, end.replace('_', ' '))}" for end, count in ends.items()]
    lines = [head, ""]
    console = Console(width=100, force_terminal=False, color_system=None, highlight=False)
    with console.capture() as captured:
        console.print(seats)
    lines += ["  " + row.rstrip() for row in captured.get().rstrip("\n").splitlines()]
    draws = out["draws"]
    lines += ["", f"  ends: {', '.join(parts) or 'none'}; {draws} {'deal' if draws == 1 else 'deals'} without a win",
              f"  invariant violations: {out['invariant_violations']}"]
    for example in out.get("violation_examples", ()):
        lines.append(f"    {example}")
    top = list(out["fan_frequency"].items())[:10]
    if top:
        patterns = Table(box=None, padding=(0, 2), pad_edge=False, show_header=True, header_style="")
        patterns.add_column("most frequent patterns")
        patterns.add_column("wins", justify="right")
        for fid, count in top:
            patterns.add_row(names.get(fid, fid), str(count))
        with console.capture() as captured:
            console.print(patterns)
        lines += [""] + ["  " + row.rstrip() for row in captured.get().rstrip("\n").splitlines()]
    kinds = out.get("by_kind")
    if kinds:
        table = Table(box=None, padding=(0, 2), pad_edge=False, show_header=True, header_style="")
        for title in ("player kind", "seats", "wins", "points", "mean a deal", "decision ms", "p99 ms"):
            table.add_column(title, justify="left" if title == "player kind" else "right")
        for kind, k in kinds.items():
            ms = k["decision_ms"]
            table.add_row(kind, str(k["seats"]), str(k["wins"]), f"{k['points']:+d}", f"{k['mean_points_per_deal']:+}",
                          f"{ms['median']:.2f}", f"{ms['p99']:.2f}")
        with console.capture() as captured:
            console.print(table)
        lines += [""] + ["  " + row.rstrip() for row in captured.get().rstrip("\n").splitlines()]
    return "\n".join(lines)
