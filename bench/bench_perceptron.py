"""Speed and memory of the perceptron core: one online epoch at N = 100,000.

Prints medians of several runs and ratios against a reference measured in the
same run: the textbook loop (one point at a time, NumPy per step). Run by hand:

    python bench/bench_perceptron.py [--n 100000] [--repeat 7]

Target (issue 2): one online epoch at N = 100,000 in <= 10 ms.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.perceptron import run_perceptron  # noqa: E402
from datasets import make_dataset  # noqa: E402


def naive_epoch(X: np.ndarray, y: np.ndarray, order: np.ndarray) -> tuple[np.ndarray, float, int]:
    """The loop as the seeds write it: for each examined point, if y(w·x+b) <= 0, w += y x, b += y."""
    w, b, k = np.zeros(X.shape[1]), 0.0, 0
    for i in order:
        if y[i] * (X[i] @ w + b) <= 0:
            w = w + y[i] * X[i]
            b += y[i]
            k += 1
    return w, b, k


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    n = args.n
    cases = [
        ("separable γ=0.05", make_dataset("separable", n, 1, margin=0.05)),
        ("blobs σ=0.6", make_dataset("blobs", n, 1, noise=0.6)),
        ("xor σ=0.25", make_dataset("xor", n, 1, noise=0.25)),
    ]
    print(f"one online epoch (max_steps = N = {n:,}), median of {args.repeat} runs")
    print(f"{'data':18s} {'variant':8s} {'steps':>8s} {'updates':>8s} {'ours ms':>8s} {'naive ms':>9s} {'speed-up':>8s}"
          f" {'run bytes':>10s} {'per-step snapshots':>19s}")
    for name, (X, y) in cases:
        for variant in ("cyclic", "random"):
            ours = median_ms(lambda X=X, y=y, v=variant: run_perceptron(X, y, variant=v, max_steps=n), args.repeat)
            traj = run_perceptron(X, y, variant=variant, max_steps=n)
            # the reference examines the same points: in cyclic order the whole epoch (our run scans it
            # too, to learn that nothing changes after the last update); in random order the steps run
            order = np.arange(n) if traj.order is None else traj.order
            w, b, k = naive_epoch(X, y.astype(float), order)
            assert k == traj.n_updates and np.allclose(w, traj.W[-1]) and np.isclose(b, traj.B[-1]), "mismatch"
            naive = median_ms(lambda X=X, y=y, o=order: naive_epoch(X, y.astype(float), o), max(1, args.repeat // 3))
            stored = traj.W.nbytes + traj.B.nbytes + traj.update_steps.nbytes + (
                0 if traj.order is None else traj.order.nbytes)
            # a snapshot per step holding w (d floats), b, and an N-bool mask M
            per_step = (traj.n_steps + 1) * (8 * X.shape[1] + 8 + n)
            print(f"{name:18s} {variant:8s} {traj.n_steps:8,d} {traj.n_updates:8,d} {ours:8.2f} {naive:9.1f}"
                  f" {naive / ours:7.0f}× {stored:10,d} {per_step:19,d}")
    X, y = cases[0][1]
    t0 = time.perf_counter()
    traj = run_perceptron(X, y, max_steps=n)
    snap = traj[traj.n_steps]
    _ = snap.misclassified  # the mask is derived on access, O(N) once
    print(f"one snapshot's mask on access: {(time.perf_counter() - t0) * 1e3:.2f} ms including the run")


if __name__ == "__main__":
    main()
