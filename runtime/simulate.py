"""Simulating many deals with computer players, checked by the independent validator.

Deal ``i`` is a pure function of (variant, seed, i, players): its wall comes from
:func:`deal_seed`, its dealer rotates (``i % P`` for the variant's P players), each seat's
controller is seeded from the deal, so results do not depend on how deals are spread over
worker processes. With ``duplicate`` each wall is played once per seat, the players rotated
through the seats.

Work and memory are bounded whatever the number of deals: deals are numbered as they are
played (no list of them is made), worker processes get one chunk of deals at a time and
only a few chunks ahead of the summary, and their results are summed in deal order as they
arrive. SIGINT (Ctrl-C) stops a run within a second and gives the summary of the deals
done so far, in order (what a run of that many deals gives); a second SIGINT stops at once.
A worker process that dies (killed, out of memory) is seen at once: its chunk is played
again by a new worker, and a chunk lost twice ends the run with :class:`SimulationError`.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import TYPE_CHECKING, Any

from cardavia.compiler import EvaluationError, load_variant

from .actions import Action, Decision
from .bots import make_controller
from .controllers import Controller, play_deal
from .deal import Deal
from .validator import validate
from .wall import shuffled_wall

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

DEFAULT_KIND = "ai"  # the AI at its normal level, in every seat


def deal_seed(seed: int, index: int) -> int:
    """A well-mixed 63-bit seed for wall ``index`` of a run seeded ``seed``."""
    x = (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9 + 0x94D049BB133111EB) & (2 ** 64 - 1)
    x ^= x >> 31
    x = (x * 0xD6E8FEB86659FD93) & (2 ** 64 - 1)
    return x >> 1


@dataclass(slots=True, frozen=True)
class Setup:
    variant: str
    seed: int
    players: tuple[str, ...]
    duplicate: bool
    options: tuple[tuple[str, str], ...] = ()  # the variant's options chosen, sorted by name


#: (variant name, options chosen) -> compiled variant, once per process.
_LOADED: dict[tuple[str, tuple[tuple[str, str], ...]], CompiledVariant] = {}


def _variant(name: str, options: tuple[tuple[str, str], ...] = ()) -> CompiledVariant:
    v = _LOADED.get((name, options))
    if v is None:
        v = _LOADED[name, options] = load_variant(name, dict(options))
    return v


#: Decision times are counted in buckets 2% wide (a bounded histogram, whatever the deals).
_BUCKET = math.log(1.02)
_FLOOR_MS = 0.001


def time_bucket(ms: float) -> int:
    """The histogram bucket of a decision time in milliseconds."""
    return int(math.log(max(ms, _FLOOR_MS) / _FLOOR_MS) / _BUCKET)


def bucket_ms(bucket: int) -> float:
    """The middle of a bucket, in milliseconds."""
    return _FLOOR_MS * math.exp((bucket + 0.5) * _BUCKET)


def quantile_ms(histogram: dict[int, int], q: float) -> float:
    """The ``q`` quantile (0-1) of a histogram of decision times, in milliseconds (to 2%)."""
    total = sum(histogram.values())
    if not total:
        return 0.0
    rank = q * (total - 1)
    seen = 0
    for bucket in sorted(histogram):
        seen += histogram[bucket]
        if seen > rank:
            return bucket_ms(bucket)
    return bucket_ms(max(histogram))


class _Timed:
    """A controller whose decisions are timed (processor time, into a histogram)."""

    def __init__(self, controller: Controller, histogram: dict[int, int]) -> None:
        self.controller = controller
        self.histogram = histogram

    def choose(self, deal: Deal, decision: Decision) -> Action:
        start = time.process_time()
        action = self.controller.choose(deal, decision)
        bucket = time_bucket((time.process_time() - start) * 1000.0)
        self.histogram[bucket] = self.histogram.get(bucket, 0) + 1
        return action


def play_one(setup: Setup, index: int) -> dict[str, Any]:
    """Play deal ``index`` and summarise it (kept small: it crosses process boundaries);
    ``times`` holds each kind's decision times as a histogram (:func:`time_bucket`)."""
    variant = _variant(setup.variant, setup.options)
    n = variant.table.players
    if setup.duplicate:
        wall_index, rotation = divmod(index, n)
        dealer = wall_index % n
    else:
        wall_index, rotation, dealer = index, 0, index % n
    ws = deal_seed(setup.seed, wall_index)
    wall = shuffled_wall(variant.tiles, ws)
    kinds = [setup.players[(s - rotation) % n] for s in range(n)]
    times: dict[str, dict[int, int]] = {}
    controllers = [_Timed(make_controller(kinds[s], deal_seed(ws, index * n + s + 1)), times.setdefault(kinds[s], {}))
                   for s in range(n)]
    deal = Deal(variant, wall, dealer)
    play_deal(deal, controllers)
    problems = validate(variant, wall, dealer, deal.events, deal.deltas())
    return {
        "end": deal.end,
        "wins": [(w.seat, [f.id for f in w.result.fans]) for w in deal.wins],
        "deltas": deal.deltas(),
        "kinds": kinds,
        "violations": len(problems),
        "problems": problems[:3],
        "times": times,
        # What the balance report reads beyond the summary: each win's total, the seat it was
        # won from (None: self-drawn) and the points of each of its patterns (as in "wins");
        # the dealer; the discards made; per seat, the complete hands refused for the minimum.
        "totals": [w.result.total for w in deal.wins],
        "froms": [w.from_seat for w in deal.wins],
        "fan_points": [[f.value * f.count for f in w.result.fans] for w in deal.wins],
        "dealer": dealer,
        "turns": sum(1 for e in deal.events if e["type"] == "discard"),
        "refused": list(deal.refused),
        # Per seat, the sets it declared from others' discards (pungs, chows, kongs claimed).
        "claims": [sum(1 for m in melds if m.from_seat is not None) for melds in deal.melds],
    }


def play_chunk(setup: Setup, first: int, stop: int) -> list[dict[str, Any]]:
    """Deals ``first`` to ``stop - 1``: the unit of work of a worker process or a cluster
    task. A variant expression that fails on a deal is a :class:`SimulationError` naming
    the deals and the expression (named here, where its traceback says where it is)."""
    try:
        return [play_one(setup, i) for i in range(first, stop)]
    except EvaluationError as exc:
        raise SimulationError(f"deals {first}-{stop - 1}: {exc}") from None


@dataclass(slots=True)
class Summary:
    deals: int = 0
    wins_by_seat: list[int] = field(default_factory=list)  # one per seat (simulate sizes them)
    points_by_seat: list[int] = field(default_factory=list)
    draws: int = 0
    ends: dict[str, int] = field(default_factory=dict)
    fan_frequency: dict[str, int] = field(default_factory=dict)
    invariant_violations: int = 0
    by_kind: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    progress: Callable[[int], None] | None = None  # told the number of deals summed, after each
    listener: Callable[[dict[str, Any]], None] | None = None  # told each deal's record, in order

    def add(self, one: dict[str, Any]) -> None:
        self.deals += 1
        if self.listener is not None:
            self.listener(one)
        if self.progress is not None:
            self.progress(self.deals)
        self.ends[one["end"]] = self.ends.get(one["end"], 0) + 1
        if not one["wins"]:
            self.draws += 1
        for seat, fans in one["wins"]:
            self.wins_by_seat[seat] += 1
            for fid in dict.fromkeys(fans):
                self.fan_frequency[fid] = self.fan_frequency.get(fid, 0) + 1
        for s, d in enumerate(one["deltas"]):
            self.points_by_seat[s] += d
        self.invariant_violations += one["violations"]
        if one["problems"] and len(self.problems) < 10:
            self.problems.extend(one["problems"])
        for s, kind in enumerate(one["kinds"]):
            k = self.by_kind.setdefault(kind, {"seat_deals": 0, "wins": 0, "points": 0, "times": {}})
            k["seat_deals"] += 1
            k["wins"] += sum(1 for seat, _ in one["wins"] if seat == s)
            k["points"] += one["deltas"][s]
        for kind, histogram in one.get("times", {}).items():
            into = self.by_kind[kind]["times"]
            for bucket, count in histogram.items():
                into[bucket] = into.get(bucket, 0) + count


class SimulationError(Exception):
    """A run that cannot be completed (a worker lost twice on the same deals, an error in a
    worker); the message says which deals and why."""


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


class _Interrupt:
    """SIGINT while deals are played: the first one sets :attr:`requested` (the run stops
    between two deals and reports what it has), a second one raises KeyboardInterrupt.
    Installed only in the main thread (the only one Python runs signal handlers in)."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None
        self._installed = False

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> _Interrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handler)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)


def chunk_size(total: int, workers: int) -> int:
    """Deals per chunk: about four chunks per worker, at most 50 deals (a second or so)."""
    return max(1, min(50, total // (workers * 4) or 1))


def _plan(total: int, workers: int) -> tuple[int, int]:
    """(worker processes, deals per chunk) for ``total`` deals and the ``workers`` asked:
    never more processes than CPUs or chunks."""
    workers = max(1, min(workers, usable_cpus(), total))
    size = chunk_size(total, workers)
    chunks = -(-total // size)
    return max(1, min(workers, chunks)), size


#: Where deals are played: processes on this machine, or tasks on a Ray cluster.
BACKENDS = ("local", "ray")


def simulate(variant: str, deals: int, seed: int = 0, players: Sequence[str] | None = None,
             duplicate: bool = False, workers: int = 1,
             progress: Callable[[int], None] | None = None,
             options: Mapping[str, str] | None = None, *, backend: str = "local", address: str | None = None,
             listener: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play ``deals`` deals (one per seat of each with ``duplicate``) and return the contract's
    summary object; ``progress`` is told how many deals are done, after each. ``workers`` is
    capped by the CPUs and the work; the object's ``workers`` says how many ran. Interrupted
    by SIGINT, the summary of the deals done in order, with ``"interrupted": true``.

    ``options`` picks the variant's options; ``listener`` is told each deal's record (see
    :func:`play_one`) in deal order. ``backend="ray"`` plays the chunks as tasks on a Ray
    cluster (:mod:`runtime.cluster`): at ``address``, or a local instance of ``workers`` CPUs;
    the results are the same."""
    if deals < 0:
        raise ValueError("--deals must be 0 or more")
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    if backend not in BACKENDS:
        raise ValueError(f"--backend: expected one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError("--address names a Ray cluster: it needs --backend ray")
    chosen = tuple(sorted((options or {}).items()))
    v = load_variant(variant, dict(chosen))
    n = v.table.players
    given = players is not None
    kinds = tuple(players) if players is not None else (DEFAULT_KIND,) * n
    for k in kinds:
        make_controller(k, 0)  # raises ValueError on an unknown kind
    if len(kinds) != n:
        raise ValueError(f"--players names {n} kinds, one per seat; got {len(kinds)}")
    setup = Setup(variant, seed, kinds, duplicate, chosen)
    _LOADED.setdefault((variant, chosen), v)  # worker processes inherit it
    total = deals * n if duplicate else deals
    summary = Summary(wins_by_seat=[0] * n, points_by_seat=[0] * n, progress=progress, listener=listener)
    start = time.perf_counter()
    with _Interrupt() as interrupt:
        if backend == "ray":
            from .cluster import play_on_ray

            workers = play_on_ray(setup, total, workers, address, summary, interrupt)
        else:
            workers, size = _plan(total, workers)
            if workers == 1:
                for i in range(total):
                    if interrupt.requested:
                        break
                    try:
                        one = play_one(setup, i)
                    except EvaluationError as exc:  # the variant's fault, named with its place
                        raise SimulationError(f"deal {i}: {exc}") from None
                    summary.add(one)
            else:
                _Pool(setup, workers, size, total, summary, interrupt).run()
    elapsed = time.perf_counter() - start
    out: dict[str, Any] = {
        "variant": v.id,
        "deals": summary.deals,
        "seed": seed,
        "workers": workers,
        "players": list(kinds),
        "duplicate": duplicate,
        "deals_per_second": round(summary.deals / elapsed, 2) if elapsed > 0 else None,
        "seconds": round(elapsed, 3),
        "wins_by_seat": summary.wins_by_seat,
        "points_by_seat": summary.points_by_seat,
        "draws": summary.draws,
        "ends": dict(sorted(summary.ends.items())),
        "fan_frequency": dict(sorted(summary.fan_frequency.items(), key=lambda kv: (-kv[1], kv[0]))),
        "invariant_violations": summary.invariant_violations,
    }
    if summary.problems:
        out["violation_examples"] = summary.problems
    if given:
        out["by_kind"] = {
            kind: {"seats": kinds.count(kind), "wins": k["wins"], "points": k["points"],
                   "mean_points_per_deal": round(k["points"] / k["seat_deals"], 3) if k["seat_deals"] else 0.0,
                   "decision_ms": {"median": round(quantile_ms(k["times"], 0.5), 3),
                                   "p99": round(quantile_ms(k["times"], 0.99), 3)}}
            for kind, k in summary.by_kind.items()
        }
    if backend != "local":
        out["backend"] = backend
    if interrupt.requested:
        out["interrupted"] = True
    return out


# ------------------------------------------------------------------ worker processes

def _worker(conn: Any, setup: Setup, others: list[Any]) -> None:
    """A worker process: play each chunk (start, stop) it is sent and send back
    ("done", start, results), or ("failed", start, message); stop at None or when the parent
    is gone. SIGINT is the parent's to handle: here it is ignored (no traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for other in others:  # the parent's ends of the other workers' pipes: see _Pool._spawn
        other.close()
    try:
        while True:
            task = conn.recv()
            if task is None:
                return
            first, stop = task
            try:
                results = play_chunk(setup, first, stop)
            except SimulationError as exc:  # a variant expression failed: the message names it
                conn.send(("failed", first, str(exc)))
                continue
            except Exception as exc:  # reported by the parent, which stops the run
                conn.send(("failed", first, f"a worker process failed playing deals {first}-{stop - 1}: "
                                            f"{type(exc).__name__}: {exc}"))
                continue
            conn.send(("done", first, results))
    except (EOFError, OSError):  # the parent is gone
        return


@dataclass(slots=True)
class _Worker:
    process: Any
    conn: Any
    chunk: int | None = None  # the index of the chunk it plays


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by signal {-code} ({signal.Signals(-code).name})"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit status {code}"


class _Pool:
    """Worker processes, each playing one chunk of deals at a time (a pipe each, so that the
    loss of one is seen and its chunk known); results are summed in chunk order, at most
    ``AHEAD`` chunks per worker ahead of the summary."""

    AHEAD = 4
    POLL = 0.2  # seconds between two looks at the SIGINT flag while waiting

    def __init__(self, setup: Setup, workers: int, size: int, total: int, summary: Summary,
                 interrupt: _Interrupt) -> None:
        import multiprocessing
        import multiprocessing.connection

        self.context = multiprocessing.get_context("fork")
        self.wait = multiprocessing.connection.wait
        self.setup, self.count, self.size, self.total = setup, workers, size, total
        self.summary, self.interrupt = summary, interrupt
        self.chunks = -(-total // size)
        self.workers: list[_Worker] = []
        self.lost: dict[int, int] = {}  # chunk -> workers lost playing it
        self.retry: deque[int] = deque()

    def _deals(self, chunk: int) -> tuple[int, int]:
        first = chunk * self.size
        return first, min(first + self.size, self.total)

    def _spawn(self) -> _Worker:
        parent, child = self.context.Pipe()
        # The child inherits every open pipe end: it closes the parent's ends of the other
        # workers' pipes, so that each pipe reaches end-of-file when the parent is gone.
        others = [w.conn for w in self.workers] + [parent]
        # SIGINT blocked across the fork: the child ignores it before it can arrive.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process = self.context.Process(target=_worker, args=(child, self.setup, others), daemon=True)
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        child.close()
        worker = _Worker(process, parent)
        self.workers.append(worker)
        return worker

    def _lose(self, worker: _Worker) -> None:
        """A worker that died: drop it, start another, play its chunk again (once)."""
        worker.process.join(1)
        worker.conn.close()
        self.workers.remove(worker)
        chunk = worker.chunk
        if chunk is not None:
            first, stop = self._deals(chunk)
            self.lost[chunk] = self.lost.get(chunk, 0) + 1
            if self.lost[chunk] > 1:
                raise SimulationError(f"a worker process was lost twice playing deals {first}-{stop - 1} "
                                      f"({_exit_reason(worker.process.exitcode)}): the run cannot be completed")
            self.retry.appendleft(chunk)
        self._spawn()

    def run(self) -> None:
        try:
            self._run()
        finally:
            self._stop()

    def _run(self) -> None:
        done: dict[int, list[dict[str, Any]]] = {}
        summed = 0  # chunks summed so far (in order)
        sent = 0  # chunks handed out (retries aside)
        for _ in range(self.count):
            self._spawn()
        while summed < self.chunks and not self.interrupt.requested:
            for worker in self.workers:
                if worker.chunk is not None:
                    continue
                if self.retry:
                    chunk = self.retry.popleft()
                elif sent < self.chunks and sent - summed < self.AHEAD * self.count:
                    chunk, sent = sent, sent + 1
                else:
                    break
                worker.chunk = chunk
                with contextlib.suppress(OSError):  # it died while idle: seen below
                    worker.conn.send(self._deals(chunk))
            by_handle: dict[Any, _Worker] = {}
            for worker in self.workers:
                by_handle[worker.conn] = worker
                by_handle[worker.process.sentinel] = worker
            ready = {id(by_handle[h]): by_handle[h] for h in self.wait(list(by_handle), self.POLL)}
            for worker in ready.values():
                try:
                    if not worker.conn.poll():
                        raise EOFError  # only its process ended
                    status, first, payload = worker.conn.recv()
                except (EOFError, OSError, ValueError, TypeError):
                    self._lose(worker)
                    continue
                if status == "failed":
                    raise SimulationError(payload)
                done[first // self.size] = payload
                worker.chunk = None
            while summed in done:
                for one in done.pop(summed):
                    self.summary.add(one)
                summed += 1

    def _stop(self) -> None:
        """End every worker: those still playing (SIGINT, an error) are terminated."""
        for worker in self.workers:
            if worker.chunk is None:
                with contextlib.suppress(OSError):
                    worker.conn.send(None)
            else:
                worker.process.terminate()
        for worker in self.workers:
            worker.process.join(1)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []
