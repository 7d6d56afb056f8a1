"""Speed and memory of the exact loss surfaces against the direct broadcast, measured in the same run.

For a 200 × 200 grid over (w₁, w₂) at a fixed b, prints for each loss and N the median time of
:func:`core.losses.surface`, of the direct evaluation (every grid weight against every point, by
broadcasting, in blocks of rows so it fits in memory), their ratio, and the peak memory of the surface
(tracemalloc) against the grid × N tensor a single broadcast would need. Run by hand:

    python bench/bench_losses.py [--repeat 7]

Targets (issue 5): ≤ 10 ms at N = 200 and ≤ 50 ms at N = 2,000; memory growing with grid + N.
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.losses import grid_around, hinge, perceptron, surface, zero_one  # noqa: E402
from datasets import make_dataset  # noqa: E402

DIRECT = {"zero_one": zero_one, "perceptron": perceptron, "hinge": hinge}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    print(f"{'loss':11s} {'N':>6s} {'surface ms':>10s} {'direct ms':>9s} {'ratio':>6s} {'peak MB':>8s}"
          f" {'grid×N MB':>9s} {'max diff':>9s}")
    for n in (200, 1000, 2000):
        X, y = make_dataset("blobs", n, 0)
        us, vs = grid_around(X, y, size=200)
        W = np.stack(np.meshgrid(us, vs), axis=-1)
        for loss, direct in DIRECT.items():
            S = surface(loss, X, y, us, vs, b=0.3)
            ours = median_ms(lambda loss=loss, X=X, y=y, us=us, vs=vs: surface(loss, X, y, us, vs, b=0.3),
                             args.repeat)
            ref = median_ms(lambda d=direct, W=W, X=X, y=y: d(W, 0.3, X, y), max(1, args.repeat // 3))
            diff = float(np.abs(S - direct(W, 0.3, X, y)).max())
            tracemalloc.start()
            surface(loss, X, y, us, vs, b=0.3)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{loss:11s} {n:6,d} {ours:10.1f} {ref:9.1f} {ours / ref:5.2f}× {peak / 1e6:8.1f}"
                  f" {200 * 200 * n * 8 / 1e6:9.0f} {diff:9.1e}")


if __name__ == "__main__":
    main()
