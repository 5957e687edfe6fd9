"""Deals played as tasks on a Ray cluster (the optional extra ``cluster``).

Each task plays one chunk of deals with :func:`runtime.simulate.play_chunk`, the function a
worker process runs, so the results are those of a local run with the same seed. The
driver keeps only a window of tasks in flight (a few per CPU) and sums their results in
deal order as they come back (``ray.wait``): its memory does not grow with the number of
deals. A task whose worker is lost (killed, out of memory, a node gone) is retried by Ray,
up to :data:`MAX_RETRIES` times; an error raised by the code itself is not retried and ends
the run with :class:`~runtime.simulate.SimulationError`.

Without an address, a local Ray instance is started for the run and stopped after it:
bound to the loopback address, with the dashboard and usage statistics off, so nothing
leaves the machine. A Ray already initialised in this process (a test's) is used as it is.
With an address, the cluster's nodes need this package installed, and a variant given as a
file must be at the same path on each of them.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .simulate import SimulationError, chunk_size, play_chunk, usable_cpus

if TYPE_CHECKING:
    from .simulate import Setup, Summary, _Interrupt

#: Times Ray plays a task again when the worker running it is lost.
MAX_RETRIES = 3
#: Tasks in flight per CPU: enough to keep every CPU busy while results travel back.
AHEAD = 4
#: Seconds between two looks at the SIGINT flag while waiting for results.
POLL = 0.2
#: Object store of a local instance: results are small and travel inline.
OBJECT_STORE_BYTES = 100 * 1024 * 1024

INSTALL_HINT = "--backend ray needs Ray: pip install 'cardavia[cluster]'"


#: A local instance's settings, read when Ray is imported and by the processes it starts:
#: no usage statistics sent; and not a cluster, so that Ray keeps 127.0.0.1 as the node's
#: address (for a cluster it puts the machine's network address in its place) and every
#: server of the instance listens on the loopback address only.
LOCAL_ENVIRONMENT = {"RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"}


def _ray(local: bool) -> Any:
    """The ray module (set up for a local instance when ``local``), or ValueError saying how
    to install it."""
    if local:
        os.environ.update(LOCAL_ENVIRONMENT)
    try:
        import ray
    except ImportError:
        raise ValueError(INSTALL_HINT) from None
    if local:
        constants: Any = getattr(getattr(ray, "_private", None), "ray_constants", None)
        if getattr(constants, "ENABLE_RAY_CLUSTER", False):  # imported before the environment was set
            constants.ENABLE_RAY_CLUSTER = False
    return ray


@contextlib.contextmanager
def connected(address: str | None, cpus: int) -> Any:
    """Ray, initialised for the block: joined at ``address``, or a local instance of ``cpus``
    CPUs (at most this machine's) on the loopback address, dashboard and usage statistics
    off, stopped afterwards."""
    ray = _ray(local=address is None)
    if address is not None:
        _check_reachable(address)
    if ray.is_initialized():
        yield ray
        return
    if address is None:
        ray.init(address="local", num_cpus=max(1, min(cpus, usable_cpus())), include_dashboard=False,
                 _node_ip_address="127.0.0.1", object_store_memory=OBJECT_STORE_BYTES, log_to_driver=False,
                 configure_logging=True, logging_level="error")
    else:
        try:
            ray.init(address=address, log_to_driver=False, configure_logging=True, logging_level="error")
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise SimulationError(f"cannot join the Ray cluster at {address!r}: {exc}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


#: Seconds to wait for a cluster's address to answer before saying it cannot be reached
#: (Ray itself keeps trying for minutes).
CONNECT_TIMEOUT = 10.0


def _check_reachable(address: str) -> None:
    """SimulationError when ``address`` (HOST:PORT, or ray://HOST:PORT) does not accept a
    connection; other forms (``auto``) are left to Ray."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise SimulationError(f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}") from None


def play_task(setup: Setup, first: int, stop: int) -> list[dict[str, Any]] | str:
    """A task: :func:`~runtime.simulate.play_chunk`, or the message of the error it raised
    (sent as text: an exception of the code's own may not survive the trip back)."""
    try:
        return play_chunk(setup, first, stop)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def _portable(setup: Setup) -> Setup:
    """The setup with a variant file named by its absolute path (tasks may run elsewhere)."""
    path = Path(setup.variant)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return replace(setup, variant=str(path.resolve()))
    return setup


def play_on_ray(setup: Setup, total: int, workers: int, address: str | None, summary: Summary,
                interrupt: _Interrupt) -> int:
    """Play deals 0 to ``total - 1`` as Ray tasks and add their records to ``summary`` in
    order; returns the CPUs the tasks ran on. ``workers`` is the CPUs of a local instance
    (at most this machine's); a cluster at ``address`` lends all of its own."""
    with connected(address, workers) as ray:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # a cluster's, or the instance's
        if total:
            _Stream(ray, _portable(setup), total, cpus, summary, interrupt).run()
    return cpus


class _Stream:
    """Chunks handed out as tasks, at most ``AHEAD`` per CPU ahead of the summary, summed in order."""

    def __init__(self, ray: Any, setup: Setup, total: int, cpus: int, summary: Summary,
                 interrupt: _Interrupt) -> None:
        self.ray = ray
        self.task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(play_task)
        self.setup = ray.put(setup)
        self.total, self.size = total, chunk_size(total, cpus)
        self.chunks = -(-total // self.size)
        self.window = AHEAD * cpus
        self.summary, self.interrupt = summary, interrupt
        self.pending: dict[Any, int] = {}  # object ref -> chunk

    def _deals(self, chunk: int) -> tuple[int, int]:
        first = chunk * self.size
        return first, min(first + self.size, self.total)

    def run(self) -> None:
        try:
            self._run()
        finally:
            for ref in self.pending:
                with contextlib.suppress(Exception):  # already finished or gone
                    self.ray.cancel(ref, force=True)
            self.pending.clear()

    def _run(self) -> None:
        ray = self.ray
        done: dict[int, list[dict[str, Any]]] = {}
        summed = sent = 0
        while summed < self.chunks and not self.interrupt.requested:
            while sent < self.chunks and sent - summed < self.window:
                self.pending[self.task.remote(self.setup, *self._deals(sent))] = sent
                sent += 1
            ready, _ = ray.wait(list(self.pending), num_returns=1, timeout=POLL)
            for ref in ready:
                chunk = self.pending.pop(ref)
                first, stop = self._deals(chunk)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:  # raised outside the chunk's code
                    raise SimulationError(f"a task failed playing deals {first}-{stop - 1}: {exc}") from None
                except ray.exceptions.RayError as exc:
                    raise SimulationError(f"a task playing deals {first}-{stop - 1} was lost "
                                          f"{MAX_RETRIES + 1} times ({type(exc).__name__}): "
                                          "the run cannot be completed") from None
                if isinstance(result, str):
                    raise SimulationError(f"a task failed playing deals {first}-{stop - 1}: {result}")
                done[chunk] = result
            while summed in done:
                for one in done.pop(summed):
                    self.summary.add(one)
                summed += 1
