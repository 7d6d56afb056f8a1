"""A classroom at once: N sessions against one server, each doing what a student does, over Streamlit's websocket.

Run: ``python bench/load.py [--sessions 1 10 30] [--rounds 3] [--repeat 2] [--url http://HOST:PORT]``.

Without ``--url`` it starts the app as the README says (``streamlit run app.py``) on a free port. Each
session is one websocket client speaking Streamlit's own protocol (what a browser tab sends: a rerun
with the query string, the page and the widget values), so the figures measure the server, not 30
Chromium tabs fighting for the same two cores. Every session opens the shared link, then for
``--rounds`` rounds: changes the dataset, moves τ, turns on drawing and clicks a point in, switches to
the SVM page and moves C, switches to the loss surface, moves λ and clicks a weight, and goes back; with 1 to 5 s
between actions (``--think``: reading the chart, stepping and dragging its sliders in the browser). Stepping and the chart sliders run in the browser (Plotly frames) and cost
the server nothing, so they are not sent. A page's own control (τ, C, λ) reruns that page alone, as a browser's
does (the page is a fragment: glue.shared.page_fragment); the dataset, drawing and a page switch rerun the whole app.

Printed per N: errors (a dropped connection, a timeout, an exception element on the page), p50 and
p95 latency per action (from sending the rerun to the server's "script finished"), the bytes the
server sent, the CPU time the server and its build workers used, and their resident memory (RSS)
after each repetition, so growth across repeated runs shows.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

import websockets
from streamlit.components.v2.bidi_component.main import _make_trigger_id  # the component's trigger widget id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parent.parent
SHARED_LINK = "ds=Blobs&n_blobs=100&tau=0.5"  # what the lecturer shared
TIMEOUT_S = 60.0


class Session:
    """One browser tab as the server sees it: a websocket, the page, and the widget values it sends."""

    def __init__(self, url: str, query: str):
        self.url, self.query, self.page = url, query, "perceptron"
        self.ids: dict[str, str] = {}  # widget key -> widget id, from the elements the server sent
        self.values: dict[str, WidgetState] = {}  # widget key -> the value this tab holds (sent every rerun)
        self.fragments: dict[str, str] = {}  # widget key -> the fragment it was drawn in (a page's own control)
        self.fragment = ""  # the fragment the next rerun is of: a page control's reruns that page alone, as a tab's would
        self.ws = None
        self.bytes = 0
        self.cache: dict[str, list[tuple[str, str]]] = {}  # as a browser: hash of a big message -> its widget ids

    async def connect(self) -> None:
        ws_url = self.url.replace("http", "ws", 1) + "/_stcore/stream"
        self.ws = await websockets.connect(ws_url, subprotocols=["streamlit"], max_size=2**28, open_timeout=30)

    async def rerun(self, triggers: list[WidgetState] = ()) -> list[str]:
        """Send a rerun with this tab's values (and one-off triggers); wait for it to finish; return problems."""
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = self.page
        msg.rerun_script.widget_states.widgets.extend([*self.values.values(), *triggers])
        msg.rerun_script.cached_message_hashes.extend(self.cache)  # the server sends only a reference for these
        msg.rerun_script.fragment_id, self.fragment = self.fragment, ""
        await self.ws.send(msg.SerializeToString())
        problems = []
        while True:
            raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT_S)
            self.bytes += len(raw)
            fm = ForwardMsg()
            fm.ParseFromString(raw)
            kind = fm.WhichOneof("type")
            if kind == "ref_hash":  # a message this tab has cached: its widgets are drawn again
                self.remember(self.cache.get(fm.ref_hash, []))
            elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
                el = fm.delta.new_element
                t = el.WhichOneof("type")
                sub = getattr(el, t)
                wid = getattr(sub, "id", "")
                found = [(wid.split("-", 2)[2], wid, fm.delta.fragment_id)] if wid.startswith("$$ID-") else []
                self.remember(found)
                if fm.metadata.cacheable:
                    self.cache[fm.hash] = found
                if t == "exception":
                    problems.append(f"exception: {sub.message[:120]}")
            elif kind == "script_finished":
                return problems

    def remember(self, found: list[tuple[str, str, str]]) -> None:
        for key, wid, fragment in found:
            self.ids[key] = wid
            self.fragments[key] = fragment

    def set(self, key: str, **value) -> None:
        """Change widget ``key``: the next rerun is of the fragment it is in (none: the whole app)."""
        self.values[key] = WidgetState(id=self.ids[key], **value)
        self.fragment = self.fragments.get(key, "")

    def click(self, x: float, y: float) -> list[WidgetState]:
        """A click on the data chart, as the page's component reports it."""
        comp = self.ids["dbl_tools"]
        self.values["dbl_tools"] = WidgetState(id=comp, json_value="{}")
        click = {"x": x, "y": y, "sx": 0.02, "sy": 0.02, "chart": "perceptron_chart", "id": f"{time.time()}-{x}"}
        payload = [{"event": "click", "value": {"clicks": [click]}}]
        return [WidgetState(id=_make_trigger_id(comp, "events"), json_trigger_value=json.dumps(payload))]

    def pick(self, u: float, v: float) -> list[WidgetState]:
        """A weight clicked on the Loss surface, as its chart reports it (viz/js/loss.js ``pick``), at b = 0 (a b of
        the slider's); the rerun is of the page's fragment, as a tab's is."""
        comp = self.ids["loss_chart"]
        self.values["loss_chart"] = WidgetState(id=comp, json_value="{}")  # (as a tab sends it: else no callback runs)
        self.fragment = self.fragments.get("loss_chart", "")
        payload = [{"event": "pick", "value": {"w": [u, v], "b": 0.0, "at": time.time() * 1e3}}]
        return [WidgetState(id=_make_trigger_id(comp, "events"), json_trigger_value=json.dumps(payload))]


async def student(i: int, url: str, rounds: int, times: dict, errors: list, rng: random.Random,
                  think: tuple[float, float]) -> int:
    """One student's sequence; latencies go into ``times[action]``, problems into ``errors``."""
    s = Session(url, SHARED_LINK)

    async def act(name: str, change=None, triggers=()):
        await asyncio.sleep(rng.uniform(*think))  # reading the chart, stepping it in the browser
        if change:
            change()
        t0 = time.perf_counter()
        try:
            problems = await s.rerun(list(triggers))
        except (TimeoutError, websockets.ConnectionClosed, OSError) as exc:
            errors.append(f"session {i}, {name}: {type(exc).__name__} {exc}")
            raise
        times[name].append(time.perf_counter() - t0)
        errors.extend(f"session {i}, {name}: {p}" for p in problems)

    try:
        await s.connect()
        await act("open the shared link")
        for _ in range(rounds):
            s.page = "perceptron"
            await act("change dataset", lambda: s.set("ds", string_value=rng.choice(["XOR", "Blobs", "Moons"])))
            await act("move τ", lambda: s.set("tau", string_array_value={"data": [rng.choice(["0.1", "1.0", "2.0"])]}))
            await act("turn drawing on", lambda: s.set("edit_points", bool_value=True))
            await act("draw a point", triggers=s.click(rng.uniform(-1, 1), rng.uniform(-1, 1)))
            s.set("ds", string_value="Your points")  # the tab now shows them (a value only: no rerun of its own)
            s.fragment = ""
            await act("switch page", lambda: setattr(s, "page", "svm"))
            await act("move C", lambda: s.set("C", string_array_value={"data": [rng.choice(["0.1", "1", "10"])]}))
            await act("switch page", lambda: setattr(s, "page", "losses"))
            await act("move λ", lambda: s.set("lam", string_array_value={"data": [rng.choice(["0.0", "0.01", "0.1"])]}))
            await act("pick a weight", triggers=s.pick(round(rng.uniform(-1, 1), 6), round(rng.uniform(-1, 1), 6)))
            s.values.pop("edit_points", None)
    except (TimeoutError, websockets.ConnectionClosed, OSError, KeyError) as exc:
        if isinstance(exc, KeyError):
            errors.append(f"session {i}: the page did not draw widget {exc}")
    finally:
        if s.ws is not None:
            await s.ws.close()
    return s.bytes


async def classroom(url: str, n: int, rounds: int, seed: int, think: tuple[float, float]
                    ) -> tuple[dict, list, int, float]:
    times: dict[str, list[float]] = defaultdict(list)
    errors: list[str] = []
    t0 = time.perf_counter()
    sent = await asyncio.gather(*[student(i, url, rounds, times, errors, random.Random(seed * 1000 + i), think)
                                  for i in range(n)])
    return times, errors, sum(sent), time.perf_counter() - t0


def rss_mb(pid: int, descendants: bool = True) -> float:
    """Resident memory of a process (and its descendants': shared pages counted in each), in MB (from /proc)."""
    total = 0
    for p in [pid, *(children(pid) if descendants else [])]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def cpu_s(pid: int) -> float:
    """CPU time (user + system) a process and its live descendants have used so far, in seconds (from /proc)."""
    total = 0.0
    for p in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            pass
    return total


def children(pid: int) -> list[int]:
    """Every descendant of a process (the app's worker processes are children of its fork server)."""
    try:
        kids = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    return kids + [d for k in kids for d in children(k)]


def pct(ts: list[float], q: float) -> float:
    t = sorted(ts)
    return t[min(len(t) - 1, int(round(q * (len(t) - 1))))]


def start_server(env_extra: dict | None = None) -> tuple[subprocess.Popen, str]:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, **(env_extra or {})}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.address",
         "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).read() == b"ok":
                return proc, url
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the app did not start")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 30])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=2, help="runs per N (memory should level off)")
    ap.add_argument("--think", type=float, nargs=2, default=[1.0, 5.0], metavar=("MIN", "MAX"),
                    help="seconds between a student's server actions, uniform (default 1 to 5)")
    ap.add_argument("--pause", type=float, default=0.0,
                    help="seconds to wait after each run before reading memory (Streamlit frees a closed tab's "
                         "session after server.disconnectedSessionTTL, 120 s by default)")
    ap.add_argument("--url", help="a running server (memory is then not read)")
    ap.add_argument("--replicas", type=int, default=0,
                    help="start this many replicas behind nginx (deploy/cluster.py) instead of one server")
    args = ap.parse_args()
    with contextlib.ExitStack() as stack:
        if args.replicas:
            sys.path.insert(0, str(ROOT))
            from deploy.cluster import cluster

            c = stack.enter_context(cluster(args.replicas))
            url, pids = c.url, c.pids
            print(f"{args.replicas} replicas behind nginx at {url}")
        elif args.url:
            url, pids = args.url, []
        else:
            proc, url = start_server()
            stack.callback(_stop, proc)
            pids = [proc.pid]
        run(args, url, pids)


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.wait(timeout=10)


def run(args, url: str, pids: list[int]) -> None:
    if pids:
        print(f"server(s) {url}: {sum(rss_mb(p) for p in pids):.0f} MB at start")
    for n in args.sessions:
        for rep in range(args.repeat):
            cpu0 = sum(cpu_s(p) for p in pids)
            times, errors, sent, wall = asyncio.run(classroom(url, n, args.rounds, rep, tuple(args.think)))
            time.sleep(args.pause)
            allt = [t for ts in times.values() for t in ts]
            after = f" {args.pause:.0f} s later" if args.pause else ""
            mem = (f", server CPU {sum(cpu_s(p) for p in pids) - cpu0:.1f} s, RSS{after} "
                   f"{sum(rss_mb(p, False) for p in pids):.0f} MB (with its workers {sum(rss_mb(p) for p in pids):.0f} MB)"
                   ) if pids else ""
            print(f"\nN = {n}, run {rep + 1}: {len(allt)} actions in {wall:.1f} s, {len(errors)} errors, "
                  f"{sent / 1e6:.1f} MB sent{mem}; all actions p50 {1e3 * statistics.median(allt):.0f} ms, "
                  f"p95 {1e3 * pct(allt, 0.95):.0f} ms")
            for name, ts in times.items():
                print(f"  {name:22s} n={len(ts):4d}  p50 {1e3 * statistics.median(ts):5.0f} ms  "
                      f"p95 {1e3 * pct(ts, 0.95):5.0f} ms  max {1e3 * max(ts):5.0f} ms")
            for e in errors[:10]:
                print("  error:", e)


if __name__ == "__main__":
    main()
