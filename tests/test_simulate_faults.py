"""simulate under faults: a request sized far beyond what can be played, Ctrl-C, a worker
process killed. Each ends with a summary or one clear message, in bounded time and
memory, never a hang or a traceback per worker."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import cardavia.runtime.simulate as simulate_mod
import pytest
from cardavia.runtime.simulate import SimulationError, simulate
from timings import untimed

ROOT = Path(__file__).resolve().parent.parent


def same_deals(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two summaries are of the same deals (timings and worker counts aside)."""
    skip = ("seconds", "deals_per_second", "workers")
    return untimed(a, skip) == untimed(b, skip)


def interrupt_after(deals: int) -> Any:
    """A progress callback that sends this process SIGINT (as Ctrl-C does) once ``deals``
    deals are summed."""
    def progress(done: int) -> None:
        if done == deals:
            os.kill(os.getpid(), signal.SIGINT)
    return progress


@pytest.fixture
def cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes even on a machine of one CPU (the cap is checked on its own)."""
    monkeypatch.setattr(simulate_mod, "usable_cpus", lambda: 4)


def test_a_billion_deals_start_at_once_and_stop_on_ctrl_c_with_what_was_played() -> None:
    simulate("hk", 1)  # the variant loaded, outside the measure
    tracemalloc.start()
    try:
        out = simulate("hk", 10 ** 9, progress=interrupt_after(3))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out["interrupted"] is True and out["deals"] == 3
    assert same_deals({**out, "interrupted": None}, {**simulate("hk", 3), "interrupted": None})
    assert peak < 50_000_000  # a list of a billion deal numbers alone is 8 GB


def test_ctrl_c_with_worker_processes_gives_the_deals_summed_in_order(cpus: None) -> None:
    bots = ["baseline"] * 4  # whole chunks are played before the stop: the fast players
    out = simulate("hk", 10 ** 9, workers=2, progress=interrupt_after(2), players=bots)
    # whole chunks of deals, in order: what a run of that many deals gives
    assert out["interrupted"] is True and out["workers"] == 2 and out["deals"] >= 2
    assert same_deals({**out, "interrupted": None},
                      {**simulate("hk", out["deals"], players=bots), "interrupted": None})


def test_a_killed_worker_has_its_deals_played_again(cpus: None, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    alone = simulate("hk", 12)
    play_one = simulate_mod.play_one
    marker = tmp_path / "killed"

    def killed_once(setup: Any, index: int) -> dict[str, Any]:
        if index == 7 and not marker.exists():  # (runs in a worker process)
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return play_one(setup, index)

    monkeypatch.setattr(simulate_mod, "play_one", killed_once)
    out = simulate("hk", 12, workers=2)
    assert marker.exists() and out["workers"] == 2 and same_deals(out, alone)


def test_a_worker_lost_twice_on_the_same_deals_ends_the_run_with_a_message(cpus: None,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    play_one = simulate_mod.play_one

    def always_killed(setup: Any, index: int) -> dict[str, Any]:
        if index == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return play_one(setup, index)

    monkeypatch.setattr(simulate_mod, "play_one", always_killed)
    started = time.monotonic()
    with pytest.raises(SimulationError) as info:
        simulate("hk", 12, workers=2)
    assert time.monotonic() - started < 60
    assert str(info.value) == ("a worker process was lost twice playing deals 5-5 (killed by signal 9 (SIGKILL)): "
                               "the run cannot be completed")


def test_an_error_in_a_worker_ends_the_run_with_a_message(cpus: None, monkeypatch: pytest.MonkeyPatch) -> None:
    play_one = simulate_mod.play_one

    def failing(setup: Any, index: int) -> dict[str, Any]:
        if index == 3:
            raise RuntimeError("a bug")
        return play_one(setup, index)

    monkeypatch.setattr(simulate_mod, "play_one", failing)
    with pytest.raises(SimulationError, match=r"failed playing deals 3-3: RuntimeError: a bug"):
        simulate("hk", 12, workers=2)


def test_workers_are_capped_by_the_cpus_and_the_deals() -> None:
    out = simulate("hk", 2, workers=300)
    assert out["workers"] <= min(2, simulate_mod.usable_cpus()) and out["deals"] == 2


def test_arguments_are_checked_before_any_work() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "cardavia", "simulate", "hk", *args], capture_output=True,
                              timeout=60, cwd=ROOT)

    for args, message in ((["--deals", "-1"], b"at least 0"), (["--workers", "0"], b"at least 1"),
                          (["--deals", "9" * 5000], b"(5,002 characters)"), (["--workers", "x"], b"'x' is not"),
                          (["--players", "ai,ai"], b"one per seat")):
        done = run(*args)
        assert done.returncode == 2 and done.stdout == b"" and b"Traceback" not in done.stderr, done.stderr
        assert message in done.stderr.splitlines()[-1] and done.stderr.count(b"error: ") == 1


def test_ctrl_c_from_the_terminal_reaches_every_process_and_prints_one_summary() -> None:
    """SIGINT to the whole process group, as Ctrl-C sends it: the workers ignore it, the
    run stops and prints the summary of the deals done, nothing on standard error."""
    workers = "2" if simulate_mod.usable_cpus() >= 2 else "1"
    with subprocess.Popen([sys.executable, "-m", "cardavia", "simulate", "hk", "--deals", "1000000000", "--json",
                           "--workers", workers], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                          start_new_session=True) as proc:
        deadline = time.monotonic() + 60
        while workers == "2" and time.monotonic() < deadline and not _children(proc.pid):
            time.sleep(0.1)
        time.sleep(2)  # deals are being played
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err == b"", err
    summary = json.loads(out)
    assert summary["interrupted"] is True and 0 <= summary["deals"] < 10 ** 9


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []
