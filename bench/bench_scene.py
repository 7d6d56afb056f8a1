"""Size and build time of the Perceptron page's scene record (viz/scene.py) at N = 2,000.

Prints, per dataset and variant, for one run of up to ``--steps`` steps: the median time to
build the record (every state's M, |M| and loss, then the bytes), its size and gzip size (what
the browser receives for a new run), and, as the reference measured in the same run, the size of
the same arrays written as JSON lists of numbers (the shape of a Plotly figure's data). The last
lines: the whole τ family the page sends for a new dataset. Run by hand:

    python bench/bench_scene.py [--n 2000] [--steps 1000] [--repeat 5]

Target (issue 16): <= 100 KB for a new run at N = 2,000 and 1,000 steps. A mini-batch with B = N/4 (the page's
default B) sends each step's I as N bits (``minibatch/4``): 250 KB of subsets for 1,000 steps, above the target, and
no exact form can be much smaller (choosing 500 of 2,000 points takes log₂ C(2000, 500) ≈ 1,623 bits a step).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.perceptron import run_perceptron  # noqa: E402
from datasets import make_dataset  # noqa: E402
from glue.options import TAUS  # noqa: E402  (the page's τ list)
from viz.scene import PerceptronScene, perceptron_scene, unpack  # noqa: E402


def as_json(blob: bytes) -> int:
    """Bytes of the record's arrays written as JSON lists (the reference)."""
    header, arrays = unpack(blob)
    return len(json.dumps({"header": header, **{k: v.tolist() for k, v in arrays.items()}}).encode())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    print(f"N = {args.n:,}, up to {args.steps:,} steps; median of {args.repeat} builds")
    print(f"{'data':10s} {'variant':10s} {'steps':>6s} {'updates':>7s} {'build ms':>9s} {'KB':>7s} {'gzip KB':>8s}"
          f" {'JSON KB':>8s} {'ratio':>6s}")
    for name in ("separable", "blobs", "xor"):
        X, y = make_dataset(name, args.n, 1)
        for variant in ("cyclic", "random", "minibatch", "minibatch/4", "batch"):
            B = args.n // 4 if variant == "minibatch/4" else 20  # B = N/4 (the page's default): I as bit sets
            traj = run_perceptron(X, y, variant=variant.split("/")[0], batch_size=B, max_steps=args.steps)
            ms = median_ms(lambda t=traj: perceptron_scene([t]).to_bytes(), args.repeat)
            blob = perceptron_scene([traj]).to_bytes()
            ref = as_json(blob)
            print(f"{name:10s} {variant:10s} {traj.n_steps:6d} {traj.n_updates:7d} {ms:9.1f} {len(blob) / 1e3:7.1f}"
                  f" {len(gzip.compress(blob)) / 1e3:8.1f} {ref / 1e3:8.1f} {ref / len(blob):5.1f}×")
    print("ratio = the same arrays as JSON lists / the record's bytes")
    print("\nthe τ family a new dataset sends (one run per τ of the page's list, one record):")
    for name, variant, B in (("xor", "cyclic", 20), ("blobs", "minibatch", 20), ("blobs", "minibatch", args.n // 4)):
        X, y = make_dataset(name, args.n, 1)
        trajs = [run_perceptron(X, y, variant=variant, tau=t, batch_size=B, max_steps=args.steps) for t in TAUS]
        t0 = time.perf_counter()
        blob = perceptron_scene(trajs).to_bytes()
        ms = (time.perf_counter() - t0) * 1e3
        how = f"B = {B}" + (" (I as bit sets)" if PerceptronScene.from_bytes(blob).runs[0].run["order_bits"] else "")
        print(f"{name:10s} {variant:10s} {how:22s} {len(TAUS)} runs: {len(blob) / 1e3:8.1f} KB, gzip "
              f"{len(gzip.compress(blob)) / 1e3:7.1f} KB, built in {ms:.0f} ms")


if __name__ == "__main__":
    main()
