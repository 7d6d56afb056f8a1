"""Heavy builds in worker processes, so one server uses every core (no Streamlit here).

Streamlit runs every session's script in a thread of one process, so Python's GIL lets the whole
classroom use one core. The builds that make a page's chart for new inputs (a run and its scene record,
the SVM for every C, the loss surfaces) are pure functions of their arguments; :func:`offload` runs
them in a pool of worker processes, and the script thread waits without holding the GIL, so other
sessions' reruns go on meanwhile. The result (a scene record or a chart's JSON, tables and arrays) comes back pickled
and is cached by the page as before.

``DBL_WORKERS`` sets the number of workers (``0``: build in the server process itself). The default
is one per core this process may use (:func:`usable_cores`: its CPU affinity, within a container's
CPU quota). The workers are forked from a fork server (a clean process
that has imported :mod:`glue.builds`, not a fork of the threaded server) when the first session
opens (``glue.server.tune_once``).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout  # the builtin one only from Python 3.11
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import spawn
from typing import TypeVar

T = TypeVar("T")
TIMEOUT_S = 120.0  # longer than any build the pages' limits allow (a hang would be a bug: say so, not wait)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken = 0  # pools that broke in a row; after MAX_BROKEN the server stops starting new ones
MAX_BROKEN = 3


MAX_WORKERS = 64


def usable_cores(cgroup: str = "/sys/fs/cgroup") -> int:
    """The cores this process may use: its CPU affinity (else every core), within its cgroup's CPU quota.

    A container limited to 2 CPUs on a 64-core host sees all 64 in its affinity; its quota is in the
    cgroup: v2 ``cpu.max`` ("200000 100000": 2 CPUs; "max 100000": none) or v1 ``cpu/cpu.cfs_quota_us``
    over ``cpu/cpu.cfs_period_us`` (−1: none). A quota of q periods counts as ⌈q⌉ cores, at least 1; a
    file that is missing, unreadable or malformed means no quota.

    Parameters
    ----------
    cgroup : str
        Where the cgroup files are (tests pass a folder of fake ones).
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    quota = cpu_quota(cgroup)
    return max(1, min(cores, quota)) if quota is not None else cores


def cpu_quota(cgroup: str = "/sys/fs/cgroup") -> int | None:
    """The cgroup's CPU quota in whole cores (rounded up), or None when it sets none or cannot be read."""

    def read(name: str) -> str | None:
        try:
            with open(os.path.join(cgroup, name), encoding="ascii") as f:
                return f.read(200).strip()
        except (OSError, UnicodeDecodeError):
            return None

    v2 = read("cpu.max")
    parts = v2.split() if v2 is not None else (read("cpu/cpu.cfs_quota_us"), read("cpu/cpu.cfs_period_us"))
    if len(parts) != 2 or None in parts:
        return None
    try:
        quota, period = int(parts[0]), int(parts[1])  # "max" (v2) fails here: no quota
    except ValueError:
        return None
    if quota <= 0 or period <= 0:  # v1 says −1 for none
        return None
    return max(1, -(-quota // period))


def worker_count() -> int:
    """Workers to start: ``DBL_WORKERS`` if it is a whole number ≥ 0, else one per core this process may use.

    At most MAX_WORKERS; 0 where the platform has no fork server (Windows).
    """
    if "forkserver" not in mp.get_all_start_methods():
        return 0
    raw = os.environ.get("DBL_WORKERS", "").strip()
    if raw.isdigit():
        return min(int(raw), MAX_WORKERS)
    return min(usable_cores(), MAX_WORKERS)


def _executor() -> ProcessPoolExecutor | None:
    global _pool, _broken
    with _lock:
        if _pool is None and worker_count() > 0 and _broken < MAX_BROKEN:
            for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ.setdefault(var, "1")  # the fork server loads NumPy after this: one BLAS thread a worker
            try:
                ctx = mp.get_context("forkserver")
                ctx.set_forkserver_preload(["glue.builds"])  # NumPy, Plotly, the builders: imported once, then forked
                _pool = ProcessPoolExecutor(worker_count(), mp_context=ctx)
            except Exception:  # noqa: BLE001 - no semaphores, no /dev/shm…: build in this process instead
                logging.getLogger(__name__).warning("no worker pool (building in the server process)", exc_info=True)
                _broken = MAX_BROKEN
        return _pool


_starting = threading.local()  # .plain: this thread is starting one of the pool's workers


def _preparation_data(name: str, _original=spawn.get_preparation_data) -> dict:
    """multiprocessing's start-up data for a new process; for the pool's workers, without the main script."""
    data = _original(name)
    if getattr(_starting, "plain", False):
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


if getattr(spawn.get_preparation_data, "__name__", "") != "_preparation_data":
    spawn.get_preparation_data = _preparation_data


@contextlib.contextmanager
def _plain_main():
    """While this thread may start a worker: the worker does not run the parent's ``__main__`` again.

    multiprocessing runs the parent's ``__main__`` again in every new process, from its ``__file__``. In
    the server that is the Streamlit script that ran last (``app.py`` or a page: Streamlit installs each
    script it runs as ``__main__``), which must not run outside Streamlit, in a worker. The builds are
    all importable, so the workers need nothing of it. A flag of this thread, not ``sys.modules``: other
    sessions' scripts replace ``__main__`` at any moment.
    """
    _starting.plain = True
    try:
        yield
    finally:
        _starting.plain = False


def _ready(_: int) -> bool:
    time.sleep(0.2)  # long enough that each warm-up job lands on its own worker
    return True


def warm_up() -> None:
    """Start every worker now (they load in the background), so the first student's build need not wait for them."""
    pool = _executor()
    if pool is None:
        return
    try:
        with _plain_main():  # each submit starts a worker; the jobs finish on their own
            for i in range(worker_count()):
                pool.submit(_ready, i)
    except Exception:  # noqa: BLE001 - a worker could not start: the first build finds the pool broken
        _discard(pool)


def _discard(pool: ProcessPoolExecutor, broke: bool = True) -> None:
    """Drop a pool (its running workers are stopped); the next build starts a new one.

    ``broke``: it broke, rather than timed out. After MAX_BROKEN pools broke in a row, no new one is
    started until the server restarts, and every build runs in the server process.
    """
    global _pool, _broken
    with _lock:
        if _pool is pool:
            _pool = None
            _broken += int(broke)
            if _broken >= MAX_BROKEN:
                logging.getLogger(__name__).warning("%d worker pools broke in a row: building in the server process "
                                                    "until it restarts", _broken)
    with contextlib.suppress(Exception):  # it may be broken already: stopping it may fail in any way
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


def _worked(pool: ProcessPoolExecutor) -> None:
    global _broken
    with _lock:
        if _pool is pool:
            _broken = 0


def offload(fn: Callable[..., T], *args) -> T:
    """``fn(*args)`` computed in a worker process (or here, with no workers); its exceptions are raised here.

    ``fn`` must be a module-level function of an importable module, and its arguments and result
    picklable. If the pool cannot take the build (a worker died or could not start, the pool was shut
    down) it is replaced, and ``fn`` goes to the new one (or runs here if that cannot take it either).
    If a worker dies during the build (killed, out of memory), ``fn`` is tried once more on a new pool,
    not here, where a build that kills its process would take the whole server down.

    Raises
    ------
    ValueError
        If the build took longer than ``TIMEOUT_S`` (waiting in the queue included), or killed its worker
        twice: the page says so and keeps its last good state. The pool is replaced, its workers stopped.
    """
    for attempt in range(2):
        pool = _executor()
        if pool is None:
            return fn(*args)
        try:
            with _plain_main():  # a submit may start a worker
                future = pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError, OSError, EOFError):  # broken, shut down, a worker could not start
            _discard(pool)
            if attempt:
                return fn(*args)  # two pools could not take it (the build itself never ran): here
            continue
        try:
            result = future.result(timeout=TIMEOUT_S)
        except BrokenProcessPool:
            _discard(pool)
            if attempt:
                raise ValueError("the computation stopped its worker process twice (out of memory?); try fewer "
                                 "points or steps") from None
            continue
        except CancelledError:  # another session dropped the pool while this build waited in it
            return fn(*args)
        except FutureTimeout:
            _discard(pool, broke=False)
            raise ValueError(f"the computation took longer than {TIMEOUT_S:.0f} s (the server is busy or the input "
                             "too large); try fewer points or steps") from None
        _worked(pool)
        return result
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


def offload_shared(fn: Callable[..., T], X, y, params: tuple, items: tuple) -> list[T]:
    """``fn(X, y, params, chunk)`` for ``items`` cut into one chunk per worker, the chunks computed at once.

    Each chunk goes through :func:`offload` (its failures and time limit), from a thread of its own; the
    results come back in the order of the chunks.
    """
    n = max(1, min(len(items), worker_count() or 1))
    chunks = [tuple(items[i::n]) for i in range(n)]  # every n-th: the long and short runs spread evenly
    if n == 1:
        return [offload(fn, X, y, params, chunks[0])]
    with ThreadPoolExecutor(max_workers=n) as threads:
        return list(threads.map(lambda c: offload(fn, X, y, params, c), chunks))
