"""How fast the SVM page follows C in a real browser, at N = 1,000 (Playwright + Chromium).

Starts the app as the README says (streamlit run app.py) on a free port, opens
/svm with 1,000 blob points, then clicks the chart's C slider at one notch
after another (a jump of 1 to 12 notches each time, all over the range) and
times each change in the page itself: from the mouse press until the first
animation frame after the chart shows the new C (``layout.meta.C``), so it
includes drawing. Prints the median and the 95th percentile. For comparison
it then moves the Penalty C control above the chart (a server round trip)
a few times, timed from the key press until the chart holds the new C.
Run by hand:

    python bench/bench_svm_page.py [--moves 40] [--server-moves 8]

Target (issue 4): p50 ≤ 150 ms and p95 ≤ 300 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import app_page, chart, slider_latency, summary  # noqa: E402

GD = chart("svm")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--server-moves", type=int, default=8)
    args = ap.parse_args()
    ready = f"() => {{ const g = {GD}; return !!g && g.layout.meta.C === 0.001; }}"
    with app_page("/svm?ds=blobs&n_blobs=1000&C=0.001", ready) as page:
        # the server path: the Penalty C control reruns the page
        slider = page.get_by_test_id("stSlider").filter(has_text="Penalty C").get_by_role("slider")
        slider.focus()
        server = []
        for _ in range(args.server_moves):
            before = page.evaluate(f"() => ({GD}).layout.meta.C")
            t0 = time.perf_counter()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"(c) => {{ const g = {GD}; return !!g && g.layout.meta.C !== c; }}",
                                   arg=before, timeout=30_000)
            server.append((time.perf_counter() - t0) * 1e3)
        times = slider_latency(page, GD, "C", args.moves)
    print(f"C slider on the chart, {len(times)} moves at N = 1,000: {summary(times)} "
          "(targets: p50 ≤ 150 ms, p95 ≤ 300 ms)")
    print(f"Penalty C control above the chart (a server rerun), {len(server)} moves: {summary(server)}")


if __name__ == "__main__":
    main()
