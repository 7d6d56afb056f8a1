"""Speed and size of the Dual / Gram page: the Gram matrix, the dual run and the scene record it sends.

Prints medians of several runs and ratios against references measured in the
same run. Run by hand:

    python bench/bench_dual.py [--repeat 5]

Targets: the record of a new run at N = 2,000 and 1,000 steps stays near 100 KB (issue 16; it was a
500-frame Plotly figure of up to 2 MB, issue 3) and builds in well under a bare Streamlit rerun; the Gram
matrix is computed once per dataset (the page caches it). How long the browser takes to draw a step:
bench/bench_dual_live.py.

References:
- Gram matrix: scikit-learn's ``pairwise_kernels`` on the same points.
- Dual run: the textbook kernel perceptron without a Gram matrix, which
  evaluates f(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ) + b afresh at every check (NumPy over the
  points with αⱼ > 0), and the same with a precomputed G (one row read per check).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.dual import gram, kernel_matrix, run_dual  # noqa: E402
from core.perceptron import run_perceptron  # noqa: E402
from datasets import make_dataset  # noqa: E402
from viz.scene import dual_scene  # noqa: E402


def naive_run(X, y, order, kernel, params, G=None):
    """The kernel perceptron as written: at each check f(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ) + b; returns the updated points."""
    n = len(y)
    alpha, b = np.zeros(n), 0.0
    updates = []
    for i in order:
        S = np.flatnonzero(alpha)
        if G is None:
            k = kernel_matrix(X[S], X[i:i + 1], kernel, **params)[:, 0] if S.size else np.zeros(0)
        else:
            k = G[S, i]
        f = float((alpha[S] * y[S]) @ k) + b
        if y[i] * f <= 0:
            alpha[i] += 1.0
            b += y[i]
            updates.append(int(i))
    return updates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    r = args.repeat

    print("Gram matrix G = [K(xᵢ, xⱼ)], median ms (reference: sklearn.metrics.pairwise_kernels)")
    try:
        from sklearn.metrics.pairwise import pairwise_kernels
    except ImportError:  # pragma: no cover - scikit-learn is a dev dependency
        pairwise_kernels = None
    print(f"{'N':>6s} {'kernel':8s} {'ours':>8s} {'sklearn':>8s} {'ratio':>6s}")
    for n in (500, 2000):
        X, _ = make_dataset("blobs", n, 0)
        for kernel, params, sk in [("linear", {}, {}), ("poly", {"degree": 3, "coef0": 1.0},
                                                        {"degree": 3, "coef0": 1.0, "gamma": 1.0}),
                                   ("rbf", {"gamma": 1.0}, {"gamma": 1.0})]:
            ours = median_ms(lambda X=X, k=kernel, p=params: gram(X, k, **p), r)
            if pairwise_kernels is not None:
                ref = median_ms(lambda X=X, k=kernel, p=sk: pairwise_kernels(X, metric="polynomial" if k == "poly"
                                                                              else k, **p), r)
                assert np.allclose(gram(X, kernel, **params), pairwise_kernels(
                    X, metric="polynomial" if kernel == "poly" else kernel, **sk))
                print(f"{n:6,d} {kernel:8s} {ours:8.2f} {ref:8.2f} {ours / ref:5.2f}×")
            else:
                print(f"{n:6,d} {kernel:8s} {ours:8.2f}")

    print("\ndual run (cyclic, η = 1), median ms; the references examine the same points")
    print(f"{'data':22s} {'steps':>7s} {'upd':>5s} {'ours':>8s} {'naive':>9s} {'with G':>8s} {'vs naive':>9s}"
          f" {'vs G':>6s} {'K evals saved':>14s}")
    cases = [("circles N=500 rbf γ=1", make_dataset("circles", 500, 0), "rbf", {"gamma": 1.0}, 20_000),
             ("xor N=500 poly d=2", make_dataset("xor", 500, 0), "poly", {"degree": 2, "coef0": 1.0}, 20_000),
             ("blobs N=2000 rbf γ=1", make_dataset("blobs", 2000, 0, noise=0.8), "rbf", {"gamma": 1.0}, 20_000)]
    for name, (X, y), kernel, params, max_steps in cases:
        G = gram(X, kernel, **params)
        ours = median_ms(lambda X=X, y=y, k=kernel, p=params, G=G, m=max_steps: run_dual(
            X, y, kernel=k, G=G, max_steps=m, **p), r)
        traj = run_dual(X, y, kernel=kernel, G=G, max_steps=max_steps, **params)
        order = np.arange(traj.n_steps) % len(y)
        ups = naive_run(X, y.astype(float), order, kernel, params)
        assert ups == traj.update_points.tolist(), "mismatch with the naive kernel perceptron"
        naive = median_ms(lambda X=X, y=y, o=order, k=kernel, p=params: naive_run(X, y.astype(float), o, k, p), 1)
        with_g = median_ms(lambda X=X, y=y, o=order, k=kernel, p=params, G=G: naive_run(
            X, y.astype(float), o, k, p, G), 1)
        saved = traj.kernel_evaluations()["saved"]
        print(f"{name:22s} {traj.n_steps:7,d} {traj.n_updates:5,d} {ours:8.2f} {naive:9.1f} {with_g:8.1f}"
              f" {naive / ours:8.1f}× {with_g / ours:5.1f}× {saved:14,d}")

    print("\nscene record: build time (median ms) and size (the bytes sent for a new run)")
    print(f"{'case':46s} {'steps':>6s} {'ms':>7s} {'KB':>7s} {'/100KB':>7s}")
    rec_cases = [
        ("xor N=2000 linear, 1000 steps", make_dataset("xor", 2000, 0), "linear", {}, 1000),
        ("blobs N=2000 linear, 1000 steps", make_dataset("blobs", 2000, 0), "linear", {}, 1000),
        ("xor N=2000 rbf γ=1, 1000 steps", make_dataset("xor", 2000, 0), "rbf", {"gamma": 1.0}, 1000),
        ("circles N=500 poly d=3, 200 steps", make_dataset("circles", 500, 0), "poly", {"degree": 3}, 200),
        ("xor σ=0.6 N=2000 rbf γ=30, 10,000 steps (worst)", make_dataset("xor", 2000, 0, noise=0.6), "rbf",
         {"gamma": 30.0}, 10_000),
    ]
    for name, (X, y), kernel, params, steps in rec_cases:
        traj = run_dual(X, y, kernel=kernel, max_steps=steps, **params)
        primal = run_perceptron(X, y, max_steps=steps) if kernel == "linear" else None
        ms = median_ms(lambda t=traj, p=primal: dual_scene(t, p).to_bytes(), r)
        kb = len(dual_scene(traj, primal).to_bytes()) / 1000
        print(f"{name:46s} {traj.n_steps:6,d} {ms:7.1f} {kb:7.1f} {kb / 100:6.2f}×")

if __name__ == "__main__":
    main()
