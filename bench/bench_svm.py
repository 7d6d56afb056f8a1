"""Speed of the exact linear SVM against libsvm (scikit-learn's SVC), measured in the same run.

Prints medians of several fits and the ratio ours / SVC. Run by hand:

    python bench/bench_svm.py [--repeat 5]

Target (issue 4): for the linear kernel at N = 1,000 and N = 10,000 and
C ∈ {0.01, 1, 100}, at most half of SVC's fit time. Both solve to tight
tolerances (ours 1e-10 residuals, SVC tol=1e-7); the objective of each is printed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms  # noqa: E402
from core.svm import fit_svm  # noqa: E402
from datasets import make_dataset  # noqa: E402


def objective(X, y, w, b, C):
    return 0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w + b)).sum()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    from sklearn.svm import SVC

    print(f"{'data':16s} {'N':>7s} {'C':>6s} {'ours ms':>8s} {'SVC ms':>8s} {'ratio':>6s} {'iters':>5s}"
          f" {'objective ours':>15s} {'objective SVC':>15s}")
    for name, kw in [("blobs", {"noise": 0.8}), ("moons", {}), ("separable", {})]:
        for n in (1000, 10_000):
            X, y = make_dataset(name, n, 1, **kw)
            for C in (0.01, 1.0, 100.0):
                sol = fit_svm(X, y, C=C)
                ours = median_ms(lambda X=X, y=y, C=C: fit_svm(X, y, C=C), args.repeat)
                ref = SVC(kernel="linear", C=C, tol=1e-7).fit(X, y)
                svc = median_ms(lambda X=X, y=y, C=C: SVC(kernel="linear", C=C, tol=1e-7).fit(X, y),
                                max(1, args.repeat // 2))
                print(f"{name:16s} {n:7,d} {C:6g} {ours:8.1f} {svc:8.1f} {ours / svc:5.2f}× {sol.iterations:5d}"
                      f" {sol.objective:15.6f} {objective(X, y, ref.coef_[0], ref.intercept_[0], C):15.6f}")

    print("\nkernels at N = 1,000, C = 1 (ours: SMO on kernel columns computed as needed, gap 1e-3; SVC: tol=1e-3, its default)")
    print(f"{'data':10s} {'kernel':14s} {'ours ms':>8s} {'SVC ms':>8s} {'ratio':>6s} {'iters':>6s} {'sign agree':>10s}")
    for name in ("circles", "moons", "xor"):
        X, y = make_dataset(name, 1000, 0)
        for kernel, params, sk in [("rbf", {"gamma": 1.0}, {"gamma": 1.0}),
                                   ("poly", {"degree": 3, "coef0": 1.0}, {"degree": 3, "coef0": 1.0, "gamma": 1.0})]:
            sol = fit_svm(X, y, C=1.0, kernel=kernel, **params)
            ours = median_ms(lambda X=X, y=y, k=kernel, p=params: fit_svm(X, y, C=1.0, kernel=k, **p), args.repeat)
            ref = SVC(kernel=kernel, C=1.0, **sk).fit(X, y)
            svc = median_ms(lambda X=X, y=y, k=kernel, p=sk: SVC(kernel=k, C=1.0, **p).fit(X, y), args.repeat)
            agree = (np.sign(sol.decision) == np.sign(ref.decision_function(X))).mean()
            print(f"{name:10s} {kernel + str(params.get('degree', params.get('gamma'))):14s} {ours:8.1f} {svc:8.1f}"
                  f" {ours / svc:5.2f}× {sol.iterations:6d} {agree:10.1%}")


if __name__ == "__main__":
    main()
