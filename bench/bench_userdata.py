"""The user's points: reading a CSV, the link's length, and a click on the chart until the new point is drawn.

Run: ``python bench/bench_userdata.py [--no-browser]``. Prints medians; ratios against NumPy's
``loadtxt`` on the same file, measured in the same run.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import app_page, ms_until_meta_changes, summary  # noqa: E402
from bench.timing import median_ms  # noqa: E402
from datasets.csvio import dataset_csv, parse_csv  # noqa: E402
from datasets.points import encode_points  # noqa: E402


def csv_speed(repeat: int) -> None:
    rng = np.random.default_rng(0)
    for n in (500, 5000):
        X = rng.normal(0, 2, (n, 2))
        y = np.where(rng.random(n) < 0.5, -1, 1)
        text = dataset_csv(X, y)
        ours = median_ms(lambda t=text: parse_csv(t), repeat)
        ref = median_ms(lambda t=text: np.loadtxt(io.StringIO(t), delimiter=",", skiprows=1), repeat)
        print(f"parse_csv, {n:,} rows ({len(text) / 1e3:.0f} kB): {ours:.1f} ms; np.loadtxt {ref:.1f} ms "
              f"(ratio {ours / ref:.2f}×; ours also checks every value, the classes and the limits)")


def link_lengths() -> None:
    rng = np.random.default_rng(1)
    for n in (10, 50, 100, 300, 500):
        clicked = np.round(rng.uniform(-5, 5, (n, 2)), 2)  # clicks land on the pixel's decimal grid
        raw = rng.normal(0, 2, (n, 2))  # full float64 (an imported file with 17 digits)
        y = np.where(rng.random(n) < 0.5, -1, 1)
        a, b = len(encode_points(clicked, y)), len(encode_points(raw, y))
        print(f"link, {n:>3} points: {a:>5} characters clicked ({a / n:.1f} per point), "
              f"{b:>5} at full precision ({b / n:.1f} per point)")


GD = "document.querySelector('.st-key-perceptron_chart .js-plotly-plot')"
CLICK_READY = f"() => {{ const g = {GD}; return !!(g && g._fullLayout); }}"


def click_latency(clicks: int) -> None:
    """From a mouse click on empty space to the first frame after the chart shows the new point."""
    with app_page("/perceptron?ds=Blobs&n_blobs=40", CLICK_READY) as page:
        page.get_by_text("Click the chart to add or remove points").click()
        page.wait_for_timeout(1500)
        rng = np.random.default_rng(2)
        times = []
        for _ in range(clicks):
            page.wait_for_function(CLICK_READY)
            x, y = rng.uniform(-1, 1, 2)
            px, py = page.evaluate(f"""([x, y]) => {{ const g = {GD}, fl = g._fullLayout,
                r = g.querySelector('.main-svg').getBoundingClientRect();
                return [r.left + fl.xaxis._offset + fl.xaxis.d2p(x), r.top + fl.yaxis._offset + fl.yaxis.d2p(y)]; }}""",
                                   [float(x), float(y)])
            times.append(ms_until_meta_changes(page, GD, "n_points", lambda px=px, py=py: page.mouse.click(px, py)))
            page.wait_for_timeout(300)
        print(f"click → new point drawn (perceptron page, 40 → {40 + clicks} points, {clicks} clicks): "
              f"{summary(times)}")
        # reference in the same run: a parameter change (τ one notch by the keyboard) until the chart shows it
        ref = []
        grip = page.get_by_test_id("stMain").get_by_test_id("stSlider").get_by_role("slider").first
        for i in range(clicks):
            grip.focus()
            key = "ArrowLeft" if i % 2 == 0 else "ArrowRight"
            ref.append(ms_until_meta_changes(page, GD, "tau", lambda key=key: page.keyboard.press(key)))
            page.wait_for_timeout(300)
        print(f"reference, τ one notch → chart redrawn (same page, same run): {summary(ref)}; "
              f"click / τ medians: {statistics.median(times) / statistics.median(ref):.2f}×")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--clicks", type=int, default=15)
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    csv_speed(args.repeat)
    link_lengths()
    if not args.no_browser:
        click_latency(args.clicks)


if __name__ == "__main__":
    main()
