"""The worker count stays within a container's CPU quota (cgroup v2 ``cpu.max``, v1 CFS quota).

The cgroup files are fakes in a temporary folder, and the process's CPU affinity is faked too: a
container limited to 2 CPUs on a 64-core host, as in the issue, whatever machine runs the tests.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from glue import workers
from glue.workers import cpu_quota, usable_cores

HOST_CORES = 64


@pytest.fixture(autouse=True)
def _host_cores(monkeypatch):
    """This process may run on 64 cores (its affinity), as in a container on a large host."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(HOST_CORES)))
    monkeypatch.delenv("DBL_WORKERS", raising=False)


def _cgroup(tmp_path: Path, files: dict[str, str]) -> str:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return str(tmp_path)


@pytest.mark.parametrize(("files", "quota"), [
    ({"cpu.max": "200000 100000\n"}, 2),  # v2: 2 CPUs
    ({"cpu.max": "150000 100000\n"}, 2),  # 1.5 CPUs: rounded up
    ({"cpu.max": "50000 100000\n"}, 1),  # half a CPU: at least 1
    ({"cpu.max": "max 100000\n"}, None),  # v2: no limit
    ({"cpu/cpu.cfs_quota_us": "400000\n", "cpu/cpu.cfs_period_us": "100000\n"}, 4),  # v1
    ({"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),  # v1: no limit
    ({"cpu/cpu.cfs_quota_us": "400000\n"}, None),  # v1 without its period
    ({"cpu.max": "two CPUs please"}, None),  # malformed
    ({"cpu.max": "200000 100000 7"}, None),
    ({"cpu.max": "200000 0"}, None),
    ({"cpu.max": ""}, None),
    ({"cpu/cpu.cfs_quota_us": "lots\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
    ({}, None),  # no cgroup files at all
])
def test_cpu_quota(tmp_path: Path, files: dict[str, str], quota: int | None) -> None:
    cgroup = _cgroup(tmp_path, files)
    assert cpu_quota(cgroup) == quota
    assert usable_cores(cgroup) == (HOST_CORES if quota is None else quota)


def test_a_missing_cgroup_folder_means_no_quota(tmp_path: Path) -> None:
    assert cpu_quota(str(tmp_path / "nowhere")) is None
    assert usable_cores(str(tmp_path / "nowhere")) == HOST_CORES


def test_an_unreadable_file_means_no_quota(tmp_path: Path) -> None:
    (tmp_path / "cpu.max").mkdir()  # a directory where the file should be: open() fails
    assert cpu_quota(str(tmp_path)) is None and usable_cores(str(tmp_path)) == HOST_CORES
    (tmp_path / "bytes").mkdir()
    (tmp_path / "bytes" / "cpu.max").write_bytes(b"\xff\xfe 100000")  # not text: no quota either
    assert cpu_quota(str(tmp_path / "bytes")) is None


def test_an_affinity_smaller_than_the_quota_wins(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})  # e.g. `taskset -c 0,1`
    assert usable_cores(_cgroup(tmp_path, {"cpu.max": "400000 100000"})) == 2


def test_the_worker_count_follows_the_quota_and_dbl_workers_overrides_it(tmp_path: Path, monkeypatch) -> None:
    cgroup = _cgroup(tmp_path, {"cpu.max": "200000 100000"})
    monkeypatch.setattr(workers, "usable_cores", functools.partial(usable_cores, cgroup))
    if "forkserver" not in workers.mp.get_all_start_methods():
        pytest.fail("this test needs a platform with a fork server (Linux, macOS)", pytrace=False)
    assert workers.worker_count() == 2  # not 64
    monkeypatch.setenv("DBL_WORKERS", "5")
    assert workers.worker_count() == 5
    monkeypatch.setenv("DBL_WORKERS", "0")
    assert workers.worker_count() == 0
