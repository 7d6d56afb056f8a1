"""Server time of the loss page's figure build for a fresh dataset, and of its level-band tracing.

Builds what ``views/losses.py``'s ``figures(...)`` builds for a dataset it has not seen (the perceptron
trajectory, the exact surfaces at the 17 b of the slider, the weight chart with its filled level bands,
the data chart), without Streamlit, and prints the median CPU time (this process's, so other load on the
machine counts less) for one loss (81 × 81 grid) and for all three (61 × 61), and the part of it spent
in the weight chart. Then, for one panel's 17 frames × 9 levels (the 0-1 loss: its own levels, as the page), the median
time to trace the level bands one field at a time (``zero_loops`` per field, the page's old call pattern)
against all at once (``zero_loops_many``, what the page does now), and whether the two agree exactly.
Run by hand:

    python bench/bench_contour.py [--repeat 7]

Target (issue 8): p95 ≤ 1 s at N = 30 students on one 2-core server; this build is what each fresh
dataset costs the server.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.losses import grid_around, grid_half_width, surface  # noqa: E402
from core.perceptron import run_perceptron  # noqa: E402
from datasets import make_dataset  # noqa: E402
from viz.contour import zero_loops, zero_loops_many  # noqa: E402
from viz.dual import PIXEL  # noqa: E402
from viz.losses import N_BANDS, data_figure, default_bs, weight_figure  # noqa: E402

GRID = {1: 81, 3: 61}  # as views/losses.py
PATH_STEPS = 120
CASES = [("blobs", 40), ("moons", 120), ("xor", 200)]


def page_parts(X, y, names: tuple, lam: float):
    """The trajectory, surfaces and grids the page computes before it draws (views/losses.py, cached there)."""
    run = run_perceptron(X, y, variant="cyclic", tau=1.0, seed=0, max_steps=2000)
    keep = np.unique(np.linspace(0, len(run.B) - 1, min(len(run.B), PATH_STEPS + 1)).round().astype(int))
    traj = (run.W[keep], run.B[keep], "perceptron")
    us, vs = grid_around(X, y, size=GRID[len(names)], scale=grid_half_width(X, y, traj[0]))
    bs = default_bs(us, X)
    surfaces = {nm: np.stack([surface(nm, X, y, us, vs, b=float(bv), lam=lam) for bv in bs]) for nm in names}
    return traj, surfaces, us, vs, bs


def build(X, y, names: tuple, lam: float):
    """Everything ``figures(...)`` does for the weight-space view at a fresh dataset."""
    traj, surfaces, us, vs, bs = page_parts(X, y, names, lam)
    fig = weight_figure(X, y, surfaces, us, vs, bs, start=len(bs) // 2, lam=lam, trajectory=traj, height=680)
    return fig, data_figure(X, y, clickable=True, height=620)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    clock = time.process_time
    print(f"median CPU ms of {args.repeat} builds, λ = 0.1")
    print(f"{'data':8s} {'N':>4s} {'losses':7s} {'page ms':>8s} {'weight chart ms':>15s}")
    for ds, n in CASES:
        X, y = make_dataset(ds, n, 0)
        for names in (("hinge",), ("hinge", "perceptron", "zero_one")):
            page = median_ms(lambda X=X, y=y, names=names: build(X, y, names, 0.1), args.repeat, clock)
            traj, surfaces, us, vs, bs = page_parts(X, y, names, 0.1)
            chart = median_ms(lambda X=X, y=y, s=surfaces, us=us, vs=vs, bs=bs, t=traj: weight_figure(
                X, y, s, us, vs, bs, start=len(bs) // 2, lam=0.1, trajectory=t, height=680), args.repeat, clock)
            print(f"{ds:8s} {n:4d} {'one' if len(names) == 1 else 'all':7s} {page:8.1f} {chart:15.1f}")
    print("\none panel's level bands (17 frames × its levels, 81 × 81), median CPU ms")
    print(f"{'data':8s} {'N':>4s} {'loss':10s} {'per field':>9s} {'all at once':>11s} {'ratio':>6s} {'identical':>9s}")
    for ds, n in CASES:
        X, y = make_dataset(ds, n, 0)
        _, surfaces, us, vs, _ = page_parts(X, y, ("hinge", "perceptron", "zero_one"), 0.1)
        us, vs = grid_around(X, y, size=GRID[1], scale=float(us[-1]))
        for name in surfaces:
            Z = np.stack([surface(name, X, y, us, vs, b=float(bv), lam=0.1) for bv in default_bs(us, X)])
            top = float(np.percentile(Z, 99)) if name != "zero_one" else 1.0
            levels = np.linspace(0.0, max(top, 1e-12), N_BANDS + 1)[1:-1]  # as viz.losses.weight_figure
            if name == "zero_one":
                levels = np.unique((np.round(levels * n) - 0.5) / n)
                levels = levels[levels > 0]
            Fs = (Z[:, None] - levels[None, :, None, None]).reshape(-1, *Z.shape[1:])
            tol = PIXEL * float(us[-1] - us[0])
            one = median_ms(lambda Fs=Fs, us=us, vs=vs, tol=tol: [zero_loops(F, us, vs, tol) for F in Fs],
                            args.repeat, clock)
            many = median_ms(lambda Fs=Fs, us=us, vs=vs, tol=tol: zero_loops_many(Fs, us, vs, tol), args.repeat, clock)
            same = all(len(a) == len(b) and all(np.array_equal(p, q) for p, q in zip(a, b, strict=True))
                       for a, b in zip([zero_loops(F, us, vs, tol) for F in Fs], zero_loops_many(Fs, us, vs, tol),
                                       strict=True))
            print(f"{ds:8s} {n:4d} {name:10s} {one:9.1f} {many:11.1f} {one / many:5.1f}× {str(same):>9s}")


if __name__ == "__main__":
    main()
