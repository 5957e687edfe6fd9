"""Simulation on Ray (``--backend ray``): the same results as one process, a local instance
on the loopback address only, a killed task retried with the totals unchanged, an error
reported with the deals it happened in.

One local Ray instance of 2 CPUs serves the whole module (started as ``simulate`` starts
it, by :func:`runtime.cluster.connected`); its start takes several seconds.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cardavia.runtime import cluster
from cardavia.runtime.simulate import simulate
from timings import untimed

from cardavia.cli import main

pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[cluster]')")
pytestmark = pytest.mark.slow  # a Ray instance's start alone takes 10-20 s on two busy cores

TIMINGS = ("deals_per_second", "seconds", "workers", "backend")


def stable(result: dict) -> dict:
    """The result without its timings: the run's, and each player kind's decision times."""
    return untimed(result, TIMINGS)


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[object]:
    with cluster.connected(None, 2) as ray:
        yield ray


def test_a_local_instance_listens_on_the_loopback_address_only(ray_instance):
    ray = ray_instance
    assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")
    assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}
    assert os.environ["RAY_USAGE_STATS_ENABLED"] == "0"
    assert ray.cluster_resources()["CPU"] == 2


@pytest.mark.parametrize(("variant", "players"), [("hk", None), ("sichuan", ("ai", "baseline", "random", "ai"))])
def test_ray_gives_the_results_of_one_process(ray_instance, variant, players):
    records_ray: list[dict] = []
    records_one: list[dict] = []
    on_ray = simulate(variant, 30, seed=11, players=players, backend="ray", listener=records_ray.append)
    one = simulate(variant, 30, seed=11, players=players, listener=records_one.append)
    assert on_ray["backend"] == "ray" and on_ray["workers"] == 2
    assert stable(on_ray) == stable(one)
    # every deal, in order (but the decision times each deal records)
    assert [untimed(r, ("times",)) for r in records_ray] == [untimed(r, ("times",)) for r in records_one]


def test_simulate_and_report_take_the_backend(ray_instance, capsys, tmp_path: Path):
    capsys.readouterr()
    assert main(["simulate", "hk", "--deals", "12", "--seed", "2", "--backend", "ray", "--json"]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main(["simulate", "hk", "--deals", "12", "--seed", "2", "--json"]) == 0
    assert stable(on_ray) == stable(json.loads(capsys.readouterr().out))
    assert main(["report", "mcr", "--deals", "10", "--backend", "ray", "--json"]) == 0
    report_ray = json.loads(capsys.readouterr().out)
    assert main(["report", "mcr", "--deals", "10", "--json"]) == 0
    report_one = json.loads(capsys.readouterr().out)
    assert report_ray["runs"][0]["figures"] == report_one["runs"][0]["figures"]


def _kill_first_task(killed: list[int], stop: threading.Event) -> None:
    """Kill (SIGKILL) the first Ray worker process seen playing a chunk (its title names the task)."""
    while not stop.is_set():
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
            except OSError:
                continue
            if title.startswith(b"ray::play_task"):
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                return
        time.sleep(0.01)


def test_a_killed_task_is_retried_and_the_totals_are_unchanged(ray_instance):
    killed: list[int] = []
    stop = threading.Event()
    killer = threading.Thread(target=_kill_first_task, args=(killed, stop), daemon=True)
    killer.start()
    # Baseline players: what is retried is a chunk of deals, whoever plays them (the AI's
    # deals are compared across backends above); the AI would make this the module's slowest test.
    players = ("baseline",) * 4
    try:
        on_ray = simulate("hk", 80, seed=5, players=players, backend="ray")
    finally:
        stop.set()
        killer.join()
    assert killed, "no task was seen running"
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    assert stable(on_ray) == stable(simulate("hk", 80, seed=5, players=players))


def test_a_failing_task_ends_the_run_with_a_message(ray_instance, tmp_path: Path, monkeypatch):
    # A variant file that compiles here but is gone when the tasks run: they fail, and the
    # error (not retried: a lost worker is, an error is not) names the deals.
    from cardavia.runtime.simulate import SimulationError

    variant = tmp_path / "gone.yaml"
    variant.write_text("extends: hk\nid: gone\n", encoding="utf-8")
    portable = cluster._portable

    def then_removed(setup):
        out = portable(setup)
        variant.unlink()
        return out

    monkeypatch.setattr(cluster, "_portable", then_removed)
    with pytest.raises(SimulationError, match=r"a task failed playing deals \d+-\d+: VariantError: .*no such file"):
        simulate(str(variant), 4, backend="ray")


def test_an_address_that_does_not_answer_is_said_at_once(capsys):
    import socket

    with socket.socket() as s:  # a port of the loopback address that nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    capsys.readouterr()
    status = main(["simulate", "hk", "--deals", "2", "--backend", "ray", "--address", f"127.0.0.1:{port}", "--json"])
    assert status == 1
    assert "cannot reach the Ray cluster" in json.loads(capsys.readouterr().out)["error"]
