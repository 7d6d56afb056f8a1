"""Heavy builds in worker processes, so one server uses every core (no Streamlit here).

Streamlit runs every session's script in a thread of one process, so Python's GIL lets the whole
classroom use one core. The builds that make a page's figure for new inputs (a run and its frames,
the SVM for every C, the loss surfaces) are pure functions of their arguments; :func:`offload` runs
them in a pool of worker processes, and the script thread waits without holding the GIL, so other
sessions' reruns go on meanwhile. The result (a chart's JSON, tables and arrays) comes back pickled
and is cached by the page as before.

``DBL_WORKERS`` sets the number of workers (``0``: build in the server process itself). The default
is one per core (``os.cpu_count()``). The workers are forked from a fork server (a clean process
that has imported :mod:`views.builds`, not a fork of the threaded server) when the first session
opens (``views.server.tune_once``).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing as mp
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import spawn
from typing import TypeVar

T = TypeVar("T")
TIMEOUT_S = 120.0  # longer than any build the pages' limits allow (a hang would be a bug: say so, not wait)
_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
_broken = 0  # pools that broke in a row; after MAX_BROKEN the server stops starting new ones
MAX_BROKEN = 3


def worker_count() -> int:
    """Workers to start: ``DBL_WORKERS`` if it is a whole number ≥ 0, else one per core."""
    raw = os.environ.get("DBL_WORKERS", "").strip()
    if raw.isdigit():
        return min(int(raw), 64)
    return os.cpu_count() or 1


def _executor() -> ProcessPoolExecutor | None:
    global _pool
    with _lock:
        if _pool is None and worker_count() > 0 and _broken < MAX_BROKEN:
            for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                os.environ.setdefault(var, "1")  # the fork server loads NumPy after this: one BLAS thread a worker
            ctx = mp.get_context("forkserver")
            ctx.set_forkserver_preload(["views.builds"])  # NumPy, Plotly and the builders imported once, then forked
            _pool = ProcessPoolExecutor(worker_count(), mp_context=ctx)
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
    if pool is not None:
        with _plain_main():  # each submit starts a worker; the jobs finish on their own
            for i in range(worker_count()):
                pool.submit(_ready, i)


def _discard(pool: ProcessPoolExecutor) -> None:
    """Drop a pool that broke; the next build starts a new one, unless MAX_BROKEN have broken in a row."""
    global _pool, _broken
    with _lock:
        if _pool is pool:
            _pool = None
            _broken += 1
            if _broken >= MAX_BROKEN:
                logging.getLogger(__name__).warning("%d worker pools broke in a row: building in the server process "
                                                    "from now on", _broken)
    with contextlib.suppress(Exception):  # it is broken already: shutting it down may fail in any way
        pool.shutdown(wait=False, cancel_futures=True)


def _worked() -> None:
    global _broken
    _broken = 0


def offload(fn: Callable[..., T], *args) -> T:
    """``fn(*args)`` computed in a worker process (or here, with no workers); its exceptions are raised here.

    ``fn`` must be a module-level function of an importable module, and its arguments and result
    picklable. If the pool has broken (a worker was killed, e.g. out of memory, or could not start)
    it is replaced and ``fn`` runs here this once; after MAX_BROKEN pools broke in a row, every build
    runs here.

    Raises
    ------
    ValueError
        If the build took longer than ``TIMEOUT_S``: the page says so and keeps its last good state (the
        worker finishes it in the background; the pages' limits keep every build far below that).
    """
    pool = _executor()
    if pool is None:
        return fn(*args)
    try:
        with _plain_main():  # a submit may start a worker
            future = pool.submit(fn, *args)
    except (BrokenProcessPool, RuntimeError, OSError, EOFError):  # broken, shut down, or a worker could not start
        _discard(pool)
        return fn(*args)
    try:
        result = future.result(timeout=TIMEOUT_S)
    except BrokenProcessPool:
        _discard(pool)
        return fn(*args)
    except CancelledError:  # another session dropped the pool while this build waited in it
        return fn(*args)
    except TimeoutError:
        future.cancel()
        raise ValueError(f"the computation took longer than {TIMEOUT_S:.0f} s (the server is busy or the input "
                         "too large); try fewer points or steps") from None
    _worked()
    return result
