"""Size and build time of the step-through figure: 500 frames over 2,000 points.

Prints, per dataset and variant, the median build time of the dict figure, its
JSON size (what the browser receives) and gzip size, and, as the reference
measured in the same run, the time to build the same frames as validated
``plotly.graph_objects.Frame`` objects. Run by hand:

    python bench/bench_figure.py [--n 2000] [--frames 500] [--repeat 5]

Targets (issue 2): <= 0.5 MB of JSON and <= 50 ms to build.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.perceptron import run_perceptron  # noqa: E402
from datasets import make_dataset  # noqa: E402
from viz.perceptron import perceptron_figure  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--frames", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"{args.frames} frames x {args.n:,} points; median of {args.repeat} builds")
    print(f"{'data':10s} {'variant':10s} {'updates':>7s} {'frames':>7s} {'build ms':>9s} {'JSON MB':>8s} {'gzip MB':>8s}"
          f" {'go.Frame ms':>11s} {'ratio':>6s}")
    for name in ("separable", "blobs", "xor"):
        X, y = make_dataset(name, args.n, 1)
        for variant in ("cyclic", "random", "minibatch", "batch"):
            traj = run_perceptron(X, y, variant=variant, batch_size=20, max_steps=args.frames - 1)
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                fig = perceptron_figure(traj, max_frames=args.frames)
                times.append(time.perf_counter() - t0)
            ms = statistics.median(times) * 1e3
            js = pio.to_json(fig, validate=False).encode()
            ref = ""
            if variant == "cyclic":  # the reference: the same frames as validated objects
                t0 = time.perf_counter()
                for f in fig["frames"]:
                    lay = f.get("layout", {})
                    go.Frame(name=f["name"], data=f["data"], traces=f["traces"], baseframe=f.get("baseframe"),
                             layout={"annotations": [{"text": lay["annotations[0].text"]}],
                                     "updatemenus": [{}, {"buttons": lay["updatemenus[1].buttons"]}]} if lay else {})
                ref_ms = (time.perf_counter() - t0) * 1e3 + ms
                ref = f"{ref_ms:11.0f} {ref_ms / ms:5.0f}×"
            print(f"{name:10s} {variant:10s} {traj.n_updates:7d} {len(fig['frames']):7d} {ms:9.1f}"
                  f" {len(js) / 1e6:8.3f} {len(gzip.compress(js)) / 1e6:8.3f} {ref}")


if __name__ == "__main__":
    main()
