"""What the browser benches share: the app served as the README says, a Chromium page, a slider's latency."""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHART = ".dbls .js-plotly-plot"  # every chart is drawn by the app's renderer (a still figure too)


def chart(view: str) -> str:
    """JS: the Plotly chart whose ``layout.meta.view`` is ``view``."""
    return (f"Array.from(document.querySelectorAll({CHART!r}))"
            f".find(g => g.layout && g.layout.meta && g.layout.meta.view === {view!r})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def app_page(path: str, ready_js: str):
    """``streamlit run app.py`` on a free port, and a Chromium page opened at ``path`` once ``ready_js`` holds."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.address",
         "127.0.0.1", "--server.port", str(port), "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.2)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                        "--disable-dev-shm-usage"])
            page = browser.new_page(viewport={"width": 1400, "height": 1500})
            page.goto(f"http://127.0.0.1:{port}{path}")
            page.wait_for_function(ready_js, timeout=60_000)
            page.wait_for_timeout(500)
            yield page
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def slider_latency(page, gd: str, meta_key: str, moves: int) -> list[float]:
    """Click the chart's own slider at ``moves`` notches (jumps of 1–12, seeded) and time each change in the page.

    Each time runs from the mouse press until the first animation frame after ``layout.meta[meta_key]`` changed,
    so it includes drawing.
    """
    n_steps = page.evaluate(f"() => ({gd}).layout.sliders[0].steps.length")
    rail = page.locator(".slider-rail-rect").first
    rail.scroll_into_view_if_needed()
    box = rail.bounding_box()
    page.evaluate(f"""() => {{
        const g = {gd};
        window.__lat = [];
        document.addEventListener('mousedown', () => {{
            const t0 = performance.now(), before = g.layout.meta[{meta_key!r}];
            const poll = () => {{
                if (g.layout.meta[{meta_key!r}] !== before) requestAnimationFrame(() => window.__lat.push(performance.now() - t0));
                else if (performance.now() - t0 < 10000) requestAnimationFrame(poll);
            }};
            requestAnimationFrame(poll);
        }}, true);
    }}""")
    rng = random.Random(0)
    at = page.evaluate(f"() => ({gd}).layout.sliders[0].active")
    for _ in range(moves):
        to = at
        while to == at:
            to = min(n_steps - 1, max(0, at + rng.choice([-1, 1]) * rng.randint(1, 12)))
        # the rail's ends are inset by the grip's half width (Plotly's slider: 8 px)
        x = box["x"] + 8 + to / (n_steps - 1) * (box["width"] - 16)
        count = page.evaluate("() => window.__lat.length")
        page.mouse.click(x, box["y"] + box["height"] / 2)
        page.wait_for_function(f"() => window.__lat.length > {count}", timeout=30_000)
        at = to
        page.wait_for_timeout(100)
    return page.evaluate("() => window.__lat")


def ms_until_meta_changes(page, gd: str, meta_key: str, act) -> float:
    """Milliseconds from ``act()`` (a click, a key press) to the first frame after ``layout.meta[meta_key]`` of the
    chart ``gd`` (JS) changed: a rerun and its redraw, as the user sees it."""
    before = page.evaluate(f"() => ({gd}).layout.meta[{meta_key!r}]")
    page.evaluate(f"""(before) => {{ window.__done = null; const t0 = performance.now();
        const poll = () => {{ const g = {gd};
            if (g && g.layout && g.layout.meta && g.layout.meta[{meta_key!r}] !== before)
                requestAnimationFrame(() => {{ window.__done = performance.now() - t0; }});
            else if (performance.now() - t0 < 20000) requestAnimationFrame(poll); }};
        requestAnimationFrame(poll); }}""", before)
    act()
    page.wait_for_function("() => window.__done !== null", timeout=30_000)
    return page.evaluate("() => window.__done")


def summary(times: list[float]) -> str:
    """p50, p95, min and max of a list of milliseconds."""
    t = sorted(times)
    p95 = t[min(len(t) - 1, int(round(0.95 * (len(t) - 1))))]
    return f"p50 {statistics.median(t):.0f} ms, p95 {p95:.0f} ms, min {t[0]:.0f} ms, max {t[-1]:.0f} ms"
