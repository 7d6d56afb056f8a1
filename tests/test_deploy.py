"""The container setup (Dockerfile, compose.yaml), tested as far as a machine without Docker can.

CI has no Docker daemon, so: the Dockerfile says what the README claims (a non-root user, port 8501 on
every address, a health check on /_stcore/health); the app starts with exactly the Dockerfile's command
and its health check passes; compose.yaml's nginx configuration is the template the replica tests run
(tests/test_e2e_replicas.py), rendered for its services app1…appK, and nginx accepts it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from deploy.cluster import COMPOSE_CONFIG, compose_config, compose_replicas, find_nginx, free_port  # noqa: E402


def _steps() -> list[tuple[str, str]]:
    """The Dockerfile's instructions in order, (INSTRUCTION, its arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _instructions() -> dict[str, str]:
    """The Dockerfile's instructions, the last of each kind (the one that counts for CMD, USER…)."""
    return dict(_steps())


def _argv(exec_form: str) -> list[str]:
    return json.loads(exec_form)


def test_the_dockerfile_runs_as_a_user_on_every_address_with_a_health_check():
    ins = _instructions()
    assert ins["FROM"].startswith("python:3.11")
    assert ins["USER"] not in ("root", "0") and "useradd" in (ROOT / "Dockerfile").read_text()
    assert ins["EXPOSE"] == "8501"
    cmd = _argv(ins["CMD"])
    assert cmd[:3] == ["streamlit", "run", "app.py"]
    assert cmd[cmd.index("--server.address") + 1] == "0.0.0.0" and cmd[cmd.index("--server.port") + 1] == "8501"
    assert cmd[cmd.index("--server.headless") + 1] == "true"
    assert cmd[cmd.index("--browser.gatherUsageStats") + 1] == "false"
    health = ins["HEALTHCHECK"]
    assert "http://127.0.0.1:8501/_stcore/health" in health and "CMD" in health
    made = [r.split()[-1] for w, r in _steps() if w == "RUN" and r.startswith("useradd")]
    assert made == [ins["USER"]]  # the image makes that user


def test_the_dockerfile_installs_the_whole_project_as_requirements_txt_says():
    steps = _steps()
    copy = steps.index(("COPY", ". ."))
    install = next(i for i, (w, r) in enumerate(steps) if w == "RUN" and "pip install" in r)
    assert copy < install and "-r requirements.txt" in steps[install][1]
    assert steps.index(("USER", _instructions()["USER"])) > install  # installed as root, run as the user


def _listening(port: int) -> set[str]:
    """The IPv4 addresses a socket listens on at ``port`` (from /proc/net/tcp: state 0A is LISTEN)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if state == "0A" and int(hex_port, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def _port_swapped(argv: list[str], port: int) -> list[str]:
    return [a.replace("8501", str(port)) for a in argv]


def test_the_image_command_serves_the_app_and_its_health_check_passes():
    ins = _instructions()
    port = free_port()
    cmd = _port_swapped(_argv(ins["CMD"]), port)
    assert cmd[0] == "streamlit"
    cmd = [sys.executable, "-m", *cmd]  # the image's `streamlit` is this Python's
    health = _port_swapped(_argv(ins["HEALTHCHECK"].split("CMD", 1)[1].strip()), port)
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:  # the health check, exactly as the image runs it, with this Python
            if subprocess.run([sys.executable, *health[1:]], capture_output=True, timeout=10).returncode == 0:
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                pytest.fail(f"the image's command did not become healthy: {shlex.join(cmd)}\n"
                            + log.read().decode(errors="replace")[-2000:])
            time.sleep(0.5)
        # it listens on every address (0.0.0.0), as the kernel's socket table says
        assert _listening(port) == {"0.0.0.0"}, _listening(port)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def test_compose_runs_the_replica_tests_nginx_configuration():
    k = compose_replicas()
    assert k >= 2
    assert COMPOSE_CONFIG.read_text() == compose_config(k), (
        "deploy/nginx.compose.conf is stale: python deploy/cluster.py --compose-config")
    assert f"server app{k}:8501;" in compose_config(k) and f"app{k + 1}" not in compose_config(k)
    compose = (ROOT / "compose.yaml").read_text()
    apps = [f"app{i}" for i in range(1, k + 1)]
    assert re.findall(r"^  (app\d+): \*app$", compose, re.M) == apps  # every replica is the same service
    # nginx starts when every replica answers (it looks their addresses up once)
    assert re.findall(r"^      (app\d+): \{condition: service_healthy\}$", compose, re.M) == apps
    assert "./deploy/nginx.compose.conf:/etc/nginx/dbl.conf" in compose and "nginx -c /etc/nginx/dbl.conf" in compose
    assert compose.count("restart: unless-stopped") == 2  # the apps (one anchor) and nginx


def test_compose_config_counts_the_app_services():
    assert compose_replicas("services:\n  app1: *app\n  app2: *app\n  nginx:\n    depends_on:\n      app1: {}\n") == 2


def test_nginx_accepts_the_compose_configuration():
    try:
        nginx = find_nginx()
    except FileNotFoundError as exc:
        pytest.fail(str(exc), pytrace=False)
    with tempfile.TemporaryDirectory() as work:
        # the replicas' names resolve only inside compose's network: stand in loopback addresses; files in work
        conf = re.sub(r"app\d+:8501", "127.0.0.1:8501", compose_config()).replace("/tmp/nginx", work)
        conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{free_port()};")
        path = Path(work) / "nginx.conf"
        path.write_text(conf)
        done = subprocess.run([nginx, "-t", "-c", str(path), "-p", work], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr


def test_dockerignore_keeps_the_image_small_but_complete():
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    ignored = [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]
    assert ".git" in ignored and "tests" in ignored
    for needed in ("app.py", "core", "viz", "glue", "datasets", "static", ".streamlit", "pyproject.toml",
                   "requirements.txt", "README.md"):  # README.md: pyproject.toml's readme
        assert needed not in ignored
