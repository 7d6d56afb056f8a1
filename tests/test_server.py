"""The server-wide settings (glue.server) and the worker processes that build pages (glue.workers)."""

from __future__ import annotations

import os
import socket

import numpy as np
import pytest

from glue import builds, server, workers


def _listener() -> socket.socket:
    """A listening socket made as Streamlit 1.67 makes its own: ``socket.socket(family)``, so ``proto`` is 0."""
    sock = socket.socket(family=socket.AF_INET)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    return sock


def _accepted_nodelay(listener: socket.socket) -> int:
    with socket.create_connection(listener.getsockname()) as _client:
        conn, _ = listener.accept()
        with conn:
            return conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_a_listener_like_streamlits_leaves_nagle_on_until_no_delay_turns_it_off():
    with _listener() as plain:
        assert plain.proto == 0
        assert _accepted_nodelay(plain) == 0  # what every browser's websocket got before
    with _listener() as fixed:
        assert server.no_delay() >= 1  # this process's TCP sockets, the listener among them
        assert fixed.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        assert _accepted_nodelay(fixed) == 1  # connections accepted later inherit it


def test_no_delay_sets_tcp_sockets_only():
    before = server.no_delay()
    a, b = socket.socketpair()  # Unix sockets and UDP have no Nagle to turn off
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    with a, b, udp:
        assert server.no_delay() == before
        with _listener():
            assert server.no_delay() == before + 1
        a.send(b"x")  # the sockets it looked at still work
        assert b.recv(1) == b"x"


def test_socket_fds_lists_descriptors_of_this_process():
    with _listener() as sock:
        assert sock.fileno() in server.socket_fds()


@pytest.fixture(autouse=True)
def _default_workers(monkeypatch):
    """Every test starts with the default worker count and no broken pools."""
    monkeypatch.delenv("DBL_WORKERS", raising=False)
    monkeypatch.setattr(workers, "_broken", 0)


def test_offload_builds_in_another_process_and_returns_the_result():
    assert workers.worker_count() >= 1
    assert workers.offload(os.getpid) != os.getpid()
    X = np.array([[1.0, 2.0], [-1.0, -1.5], [0.5, -2.0]])
    y = np.array([1, -1, -1])
    got = workers.offload(builds.loss_grid, X, y, 11, 2.0)
    for a, b in zip(got, builds.loss_grid(X, y, 11, 2.0), strict=True):
        np.testing.assert_array_equal(a, b)


def test_offload_raises_the_builds_own_error_here():
    with pytest.raises(ValueError, match="invalid literal"):
        workers.offload(int, "not a number")


def test_a_killed_worker_is_replaced_and_the_build_still_answers_from_a_worker():
    pool = workers._executor()
    workers.offload(os.getpid)  # the pool has started its workers
    for proc in list(pool._processes.values()):
        proc.kill()
        proc.join()
    assert workers.offload(os.getpid) != os.getpid()  # tried again on a new pool, not in the server
    assert workers._executor() is not pool


def test_a_build_that_kills_its_worker_is_named_and_the_server_lives():
    with pytest.raises(ValueError, match="stopped its worker process twice"):
        workers.offload(os._exit, 3)  # had it run here, this test process would be gone
    assert workers.offload(os.getpid) != os.getpid()  # the next build has a pool again


def test_no_pool_can_be_made_so_the_server_builds_alone(monkeypatch):
    def no_context(method):
        raise OSError("no /dev/shm")

    monkeypatch.setattr(workers, "_pool", None)
    monkeypatch.setattr(workers.mp, "get_context", no_context)
    workers.warm_up()  # no exception: the first session still opens
    assert workers.offload(os.getpid) == os.getpid()
    assert workers._broken == workers.MAX_BROKEN


def test_a_warm_up_that_cannot_start_a_worker_leaves_the_page_alone(monkeypatch):
    pool = _FailingPool(OSError("Resource temporarily unavailable"))
    monkeypatch.setattr(workers, "_pool", pool)
    workers.warm_up()
    assert pool.shut and workers._pool is None


def test_worker_count_needs_a_fork_server(monkeypatch):
    monkeypatch.setattr(workers.mp, "get_all_start_methods", lambda: ["spawn"])  # as on Windows
    assert workers.worker_count() == 0


def test_no_workers_builds_in_the_server_process(monkeypatch):
    monkeypatch.setenv("DBL_WORKERS", "0")
    monkeypatch.setattr(workers, "_pool", None)
    assert workers.worker_count() == 0
    assert workers.offload(os.getpid) == os.getpid()


@pytest.mark.parametrize(("raw", "expected"), [("3", 3), ("0", 0), ("999", 64), ("", None), ("two", None),
                                               ("-1", None)])
def test_worker_count_reads_the_environment(monkeypatch, raw, expected):
    monkeypatch.setenv("DBL_WORKERS", raw)
    # the default is the usable cores: the affinity within a container's CPU quota
    assert workers.worker_count() == (expected if expected is not None else min(workers.usable_cores(), workers.MAX_WORKERS))


def test_a_build_that_overruns_is_named_not_waited_for(monkeypatch):
    import time

    monkeypatch.setattr(workers, "TIMEOUT_S", 0.2)
    pool = workers._executor()
    with pytest.raises(ValueError, match="took longer than"):  # had it waited, sleep's None would come back
        workers.offload(time.sleep, 30)
    assert workers._executor() is not pool  # its workers stopped: the next builds do not queue behind it
    monkeypatch.setattr(workers, "TIMEOUT_S", 30)
    assert workers.offload(os.getpid) != os.getpid()
    assert workers._broken == 0  # a timeout is not a broken pool


def test_workers_do_not_run_the_script_that_started_them(tmp_path, monkeypatch):
    """Streamlit installs the script it runs as ``__main__``; a new worker must not run it again."""
    import sys
    import types

    marker = tmp_path / "ran"
    script = tmp_path / "page.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    monkeypatch.setattr(workers, "_pool", None)  # a new pool, whose workers start under this __main__
    try:
        assert workers.offload(os.getpid) != os.getpid()
        assert sys.modules["__main__"] is page  # left as it is: other sessions' scripts use it
    finally:
        workers._executor().shutdown()
    assert not marker.exists()


class _FailingPool:
    """A pool whose machinery fails as a broken one can: a closed pipe, a fork server that is gone."""

    def __init__(self, exc: Exception):
        self.exc, self.shut = exc, False

    def submit(self, *args, **kwargs):
        raise self.exc

    def shutdown(self, **kwargs):
        self.shut = True
        raise OSError("handle is closed")  # even shutting it down fails


@pytest.mark.parametrize("exc", [OSError("handle is closed"), ConnectionRefusedError(111, "Connection refused"),
                                 RuntimeError("cannot schedule new futures after shutdown")])
def test_a_pool_that_fails_to_submit_is_dropped_and_the_build_goes_to_a_new_one(monkeypatch, exc):
    pool = _FailingPool(exc)
    monkeypatch.setattr(workers, "_pool", pool)
    assert workers.offload(os.getpid) != os.getpid()
    assert pool.shut and workers._pool is not pool


def test_when_two_pools_fail_to_submit_the_build_runs_here(monkeypatch):
    pools = [_FailingPool(OSError("handle is closed")) for _ in range(2)]
    monkeypatch.setattr(workers, "_executor", lambda: pools[0] if pools[0].shut is False else pools[1])
    assert workers.offload(os.getpid) == os.getpid()
    assert all(p.shut for p in pools)


def test_after_pools_break_in_a_row_the_server_builds_alone(monkeypatch):
    for _ in range(workers.MAX_BROKEN):
        monkeypatch.setattr(workers, "_pool", _FailingPool(OSError("handle is closed")))
        workers._discard(workers._pool)
    monkeypatch.setattr(workers, "_pool", None)
    assert workers._executor() is None  # no new pool is started
    assert workers.offload(os.getpid) == os.getpid()


def test_a_build_cancelled_by_a_dropped_pool_runs_here(monkeypatch):
    from concurrent.futures import Future

    class _Dropped:
        def submit(self, *args, **kwargs):
            future = Future()
            future.cancel()  # what shutdown(cancel_futures=True) does to a build still waiting
            return future

    monkeypatch.setattr(workers, "_pool", _Dropped())
    assert workers.offload(os.getpid) == os.getpid()
