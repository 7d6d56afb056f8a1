"""Two runs side by side on the same data, stepped by one slider: what the Compare chart says of them.

A lecturer contrasts two runs of a linear classifier on identical points: cyclic against random order,
τ = 0.1 against τ = 1, B = 1 against B = 16, or the perceptron against hinge-loss SGD (the SVM), with the
exact soft-margin SVM drawn as a fixed dashed line on the hinge panel.

The chart is drawn in the browser from a scene record (:func:`viz.scene.compare_scene`, drawn by
``viz/js/compare.js``): this module holds the words it shows, written once in Python (the panel titles, sent
in the record; the reference the renderer's own words are tested against is ``compare_state`` in tests/oracles.py).
On a common step axis 0…max(S_left, S_right) the run that ends first holds its last state. Each panel rings
M, y·(w·x+b) ≤ 0 (< 0 under the rule "negative"), for the perceptron, and the active hinges, y·(w·x+b) < 1,
for hinge SGD.
"""

from __future__ import annotations

import math

import numpy as np

from core.perceptron import Trajectory
from core.svm import HingeRun
from viz.common import c_label, num


def run_label(run) -> str:
    """A short name for a run, as a panel title: "cyclic, τ = 1", "mini-batch B = 16, τ = 0.1", "hinge SGD, C = 1"."""
    if isinstance(run, HingeRun):
        return f"hinge SGD (SVM), C = {c_label(run.C)}" + (", constant η" if run.schedule == "constant" else "")
    kind = {"cyclic": "cyclic", "random": "random order", "batch": "full batch"}.get(run.variant)
    if kind is None:  # minibatch
        kind = f"mini-batch B = {run.batch_size}"
    return f"{kind}, τ = {num(run.tau)}"


def run_summary(run) -> str:
    """How a run ended, in a few words: "converged at step 57 (12 updates)", "500 steps, no convergence"…"""
    S = run.n_steps
    if isinstance(run, HingeRun):
        k = int(run.active.sum())
        return f"{S:,} steps, hinge active at {k:,}"
    K = run.n_updates
    upd = f"{K:,} update{'s' * (K != 1)}"
    if run.converged:
        return f"converged at step {S:,} ({upd})"
    if run.stopped_by_work_cap:
        return f"stopped at the work cap after {S:,} steps ({upd}; {run.batch_size:,} points a step)"
    return f"not converged in {S:,} steps ({upd})"


def _data(run) -> tuple[np.ndarray, np.ndarray]:
    """A compared run's X and y (TypeError for anything but a Trajectory or a HingeRun)."""
    if isinstance(run, Trajectory):
        return run.problem.X, run.problem.y
    if isinstance(run, HingeRun):
        return run.X, run.y
    raise TypeError(f"a compared run must be a core.perceptron.Trajectory or a core.svm.HingeRun, "
                    f"got {type(run).__name__}")


def check_pair(left, right) -> tuple[np.ndarray, np.ndarray]:
    """The points both runs are on, X of shape (N, 2) and y of shape (N,).

    Raises
    ------
    ValueError
        Unless both runs are on the same 2-D X and y.
    TypeError
        When a run is neither a Trajectory nor a HingeRun.
    """
    (Xa, ya), (Xb, yb) = _data(left), _data(right)
    if Xa.shape != Xb.shape:
        raise ValueError(f"the two runs must be on the same data: the left run has {Xa.shape[0]} points in "
                         f"{Xa.shape[1]}-D, the right one {Xb.shape[0]} in {Xb.shape[1]}-D")
    if Xa.shape[1] != 2:
        raise ValueError(f"the compare chart draws 2-D data, got d = {Xa.shape[1]}")
    if not np.array_equal(Xa, Xb) or not np.array_equal(ya, yb):
        diff = int(np.sum(np.any(Xa != Xb, axis=1) | (ya != yb)))
        raise ValueError(f"the two runs must be on the same data: both have {Xa.shape[0]} points, but {diff} of "
                         "them differ in position or label")
    return Xa, ya


def reference_of(reference) -> tuple[np.ndarray, float]:
    """(w, b) of the exact SVM from an object with ``.w`` and ``.b`` (an SVMSolution) or a pair (w, b)."""
    if hasattr(reference, "w") and hasattr(reference, "b"):
        w, b = reference.w, reference.b
    else:
        try:
            w, b = reference
        except (TypeError, ValueError):
            raise ValueError(f"reference must be an SVMSolution or a pair (w, b), got {reference!r}") from None
    try:
        w = np.asarray(w, dtype=float).reshape(-1)
        b = float(b)
    except (TypeError, ValueError):
        raise ValueError(f"reference must be an SVMSolution or a pair (w, b), got {reference!r}") from None
    if w.shape != (2,) or not np.isfinite(w).all() or not math.isfinite(b):
        raise ValueError(f"reference w must be 2 finite numbers and b finite, got w = {w.tolist()}, b = {b}")
    return w, b


