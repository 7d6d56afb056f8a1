"""How fast the SVM page follows C in a real browser, at N = 1,000 (Playwright + Chromium).

Starts the app as the README says (streamlit run app.py) on a free port, opens
/svm with 1,000 blob points, then moves the C slider one notch at a time with
the keyboard and times each change from the key press until the new figure's
C is in the chart (``layout.meta.C``). Prints the median and the 95th
percentile of the runs. Run by hand:

    python bench/bench_svm_page.py [--moves 24]

Target (issue 4): p50 ≤ 150 ms and p95 ≤ 300 ms.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHART = "[data-testid=stPlotlyChart] .js-plotly-plot"
# the SVM data chart among the page's three
GD = f"Array.from(document.querySelectorAll({CHART!r})).find(g => g.layout && g.layout.meta && g.layout.meta.view === 'svm')"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=24)
    args = ap.parse_args()
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
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://127.0.0.1:{port}/svm?ds=blobs&n_blobs=1000&C=0.001")
            page.wait_for_function(f"() => {{ const g = {GD}; return !!g && g.layout.meta.C === 0.001; }}")
            slider = page.get_by_test_id("stSlider").filter(has_text="Penalty C").get_by_role("slider")
            slider.focus()
            times = []
            for _ in range(args.moves):
                before = page.evaluate(f"() => ({GD}).layout.meta.C")
                t0 = time.perf_counter()
                page.keyboard.press("ArrowRight")
                page.wait_for_function(f"(c) => {{ const g = {GD}; return !!g && g.layout.meta.C !== c; }}",
                                       arg=before, timeout=30_000)
                times.append((time.perf_counter() - t0) * 1e3)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    times.sort()
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(f"C moved {len(times)} times at N = 1,000: p50 {statistics.median(times):.0f} ms, p95 {p95:.0f} ms, "
          f"min {times[0]:.0f} ms, max {times[-1]:.0f} ms (targets: p50 ≤ 150 ms, p95 ≤ 300 ms)")


if __name__ == "__main__":
    main()
