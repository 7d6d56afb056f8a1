"""The worker count stays within a container's CPU quota (cgroup v2 ``cpu.max``, v1 CFS quota)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from views.workers import cpu_quota, usable_cores

AFFINITY = len(os.sched_getaffinity(0))


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
    ({"cpu.max": "200000 0"}, None),
    ({"cpu.max": ""}, None),
    ({}, None),  # no cgroup files at all
])
def test_cpu_quota(tmp_path: Path, files: dict[str, str], quota: int | None) -> None:
    cgroup = _cgroup(tmp_path, files)
    assert cpu_quota(cgroup) == quota
    assert usable_cores(cgroup) == (AFFINITY if quota is None else min(AFFINITY, quota))


def test_a_quota_above_the_affinity_keeps_the_affinity(tmp_path: Path) -> None:
    cgroup = _cgroup(tmp_path, {"cpu.max": f"{(AFFINITY + 62) * 100000} 100000"})
    assert usable_cores(cgroup) == AFFINITY


def test_a_container_limited_to_one_cpu_gets_one_worker(tmp_path: Path) -> None:
    assert usable_cores(_cgroup(tmp_path, {"cpu.max": "100000 100000"})) == 1


def test_an_unreadable_file_means_no_quota(tmp_path: Path) -> None:
    (tmp_path / "cpu.max").mkdir()  # a directory where the file should be: open() fails
    assert cpu_quota(str(tmp_path)) is None and usable_cores(str(tmp_path)) == AFFINITY
