"""How fast the loss-surface page follows b in a real browser, at N = 1,000 (Playwright + Chromium).

Starts the app as the README says on a free port, opens /losses with 1,000 blob points and the hinge loss
(with a perceptron trajectory), then clicks the chart's b slider at one notch after another and times each
change in the page, from the mouse press until the first animation frame after the chart shows the new b
(``layout.meta.b``). Prints the median and the 95th percentile, for one loss and for all three. Run by hand:

    python bench/bench_loss_page.py [--moves 30]

Target (issue 5): p50 ≤ 150 ms.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import app_page, chart, slider_latency, summary  # noqa: E402

GD = chart("loss_surface")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    args = ap.parse_args()
    for loss in ("hinge", "all"):
        with app_page(f"/losses?ds=blobs&n_blobs=1000&loss={loss}&path=perceptron", f"() => !!({GD})") as page:
            times = slider_latency(page, GD, "b", args.moves)
        print(f"b slider on the chart, loss = {loss}, {len(times)} moves at N = 1,000: {summary(times)} "
              "(target: p50 ≤ 150 ms)")


if __name__ == "__main__":
    main()
