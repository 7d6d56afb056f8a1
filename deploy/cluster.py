"""Several app replicas behind nginx on one machine, with sticky sessions: ``python deploy/cluster.py``.

Streamlit keeps each browser tab's session in the memory of the server process its websocket reached;
a file upload is a separate HTTP request that must reach the same process. So every request of one
browser must go to one replica. nginx does that here with a cookie it sets itself on the first response
(``dbl_route``, a random id) and hashes on every request (``hash $dbl_route consistent``): browsers
spread over the replicas, each stays on its own, even when a whole classroom shares one IP address
behind the campus NAT (where ``ip_hash`` would put everyone on one replica).

Run ``python deploy/cluster.py --replicas 2 --port 8080`` and open http://127.0.0.1:8080; Ctrl-C stops
everything. In containers, ``compose.yaml`` at the top of the project runs the same nginx configuration
(``nginx.compose.conf``, written by ``python deploy/cluster.py --compose-config`` for its services app1…appK)
in front of app containers built from the ``Dockerfile``. ``nginx.conf.template`` beside this file is the
configuration (the same for a real server: :func:`render_config` with its upstream addresses and listen
address). Tests and ``bench/load.py --replicas`` use :func:`cluster`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: the app's modules sit one folder up
    sys.path.insert(0, str(ROOT))

from glue.workers import usable_cores  # noqa: E402 - after the path is set

TEMPLATE = Path(__file__).with_name("nginx.conf.template")
NGINX_FIX = "Install nginx (Debian/Ubuntu: `apt-get install -y nginx-light`) or set NGINX to its path."


@dataclass
class Cluster:
    """A running cluster: the proxy's address and the replicas behind it."""

    url: str  # http://127.0.0.1:PORT, through nginx
    replicas: list[str]  # 127.0.0.1:PORT of each app server, as nginx names it in X-DBL-Upstream
    pids: list[int]  # the app servers' process ids


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def find_nginx() -> str:
    """The nginx executable (``NGINX``, then PATH, then /usr/sbin/nginx); a clear error naming the fix if none."""
    for cand in (os.environ.get("NGINX"), shutil.which("nginx"), "/usr/sbin/nginx"):
        if cand and Path(cand).is_file():
            return cand
    raise FileNotFoundError(f"nginx was not found. {NGINX_FIX}")


def wait_ok(url: str, timeout_s: float = 60.0) -> None:
    """Wait until ``url`` answers ``ok`` (bounded by ``timeout_s``)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        try:
            if urllib.request.urlopen(url, timeout=1).read() == b"ok":
                return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer ok within {timeout_s:.0f} s")


def render_config(listen: str, upstreams: list[str], workdir: str | Path) -> str:
    """The nginx configuration (``nginx.conf.template`` filled in) for the replicas at ``upstreams``.

    Parameters
    ----------
    listen : str
        What nginx listens on: "127.0.0.1:8080", or "8080" (every address, in a container).
    upstreams : list of str
        The replicas, "HOST:PORT" each.
    workdir : str or Path
        Where nginx keeps its pid, log and temporary files.
    """
    servers = "\n".join(f"        server {u};" for u in upstreams)
    return (TEMPLATE.read_text().replace("{{WORKDIR}}", str(workdir)).replace("{{LISTEN}}", listen)
            .replace("{{UPSTREAMS}}", servers))


COMPOSE_FILE = ROOT / "compose.yaml"
COMPOSE_CONFIG = Path(__file__).with_name("nginx.compose.conf")


def compose_replicas(compose: str | None = None) -> int:
    """How many app services (``app1:``, ``app2:``…) ``compose.yaml`` (or the text ``compose``) defines."""
    text = COMPOSE_FILE.read_text() if compose is None else compose
    return len(re.findall(r"^  app\d+:", text, re.M))


def compose_config(replicas: int | None = None) -> str:
    """nginx's configuration in compose.yaml: port 8080 of its container, in front of app1…appK on port 8501.

    ``replicas``: K, by default compose.yaml's count. nginx's errors go to the container's log
    (``docker compose logs nginx``), its other files to /tmp/nginx.
    """
    k = compose_replicas() if replicas is None else replicas
    conf = render_config("8080", [f"app{i}:8501" for i in range(1, k + 1)], "/tmp/nginx")
    return conf.replace("error_log /tmp/nginx/error.log", "error_log stderr")


@contextlib.contextmanager
def cluster(replicas: int = 2, port: int | None = None, env: dict | None = None) -> Iterator[Cluster]:
    """Start ``replicas`` app servers (``streamlit run app.py``) and nginx in front of them; stop all on exit."""
    nginx = find_nginx()
    ports = [free_port() for _ in range(replicas)]
    port = port or free_port()
    procs: list[subprocess.Popen] = []
    # the replicas share the cores: each gets its part of the build workers, unless DBL_WORKERS says otherwise
    env = {"DBL_WORKERS": os.environ.get("DBL_WORKERS", str(max(1, usable_cores() // replicas))), **(env or {})}
    with tempfile.TemporaryDirectory(prefix="dbl-nginx-") as tmp:
        work = Path(tmp)
        try:
            for p in ports:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                     "--server.address", "127.0.0.1", "--server.port", str(p), "--browser.gatherUsageStats",
                     "false", "--server.fileWatcherType", "none"],
                    cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env}))
            conf = work / "nginx.conf"
            conf.write_text(render_config(f"127.0.0.1:{port}", [f"127.0.0.1:{p}" for p in ports], work))
            proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", str(work)], stdout=subprocess.DEVNULL,
                                     stderr=open(work / "stderr.log", "w"))  # noqa: SIM115 - closed with the dir
            procs.append(proxy)
            for p in ports:
                wait_ok(f"http://127.0.0.1:{p}/_stcore/health")
            try:
                wait_ok(f"http://127.0.0.1:{port}/_stcore/health", 20)
            except TimeoutError:
                raise RuntimeError("nginx did not start: " + (work / "stderr.log").read_text()[-800:]) from None
            yield Cluster(f"http://127.0.0.1:{port}", [f"127.0.0.1:{p}" for p in ports], [p.pid for p in procs[:-1]])
        finally:
            for p in reversed(procs):
                p.send_signal(signal.SIGTERM)
            for p in procs:
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--replicas", type=int, default=None, help="app servers (default 2; with --compose-config, "
                    "compose.yaml's app services)")
    ap.add_argument("--port", type=int, default=8080)
    ap.add_argument("--compose-config", action="store_true",
                    help=f"write {COMPOSE_CONFIG.name} for compose.yaml's app1…appK and stop")
    args = ap.parse_args()
    if args.compose_config:
        k = args.replicas or compose_replicas()
        COMPOSE_CONFIG.write_text(compose_config(k))
        print(f"wrote {COMPOSE_CONFIG} for app1…app{k}")
        return
    args.replicas = args.replicas or 2
    with cluster(args.replicas, args.port) as c:
        print(f"{args.replicas} replicas ({', '.join(c.replicas)}) behind nginx at {c.url}; Ctrl-C stops them")
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)


if __name__ == "__main__":
    main()
