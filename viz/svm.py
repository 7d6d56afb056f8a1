"""The SVM page's words: the exact SVM's and the hinge-SGD tab's.

The exact SVM's chart is drawn in the browser from a scene record (:func:`viz.scene.svm_scene`,
``viz/js/svm.js``): here are what that record sends as the solver decided it (each point's category at
:func:`margin_tol`, :data:`ON_MARGIN`, :data:`MAX_SLACK_LABELS`) and the Python references of the words the
renderer writes (:func:`svm_state`, :func:`svm_status`). The hinge-SGD tab is drawn from its own record
(:func:`viz.scene.sgd_scene`, ``viz/js/sgd.js``); its words' references are :func:`sgd_step_text` and
:func:`sgd_state`. No Streamlit.
"""

from __future__ import annotations

import math

import numpy as np

from core.dual import kernel_matrix
from core.snapshot import activation
from core.svm import SVMSolution
from datasets.points import standardize
from viz.common import (
    names,
    num,
    state_line,
    state_text,
    sub,
    vec,
    view_box,
)

ON_MARGIN = 1e-3  # |y·f − 1| below this counts as on the margin line
CATEGORIES = ("outside the margin", "on the margin", "inside the margin", "misclassified")  # by viz.svm.categories
MAX_SLACK_LABELS = 12  # the largest ξ are written; more would bury the points
STATE_NAMES = 5  # most points the state line names in one list
KERNEL_NAMES = {"poly": "polynomial", "rbf": "RBF"}


KERNEL_LARGE = 10.0  # K(x, x) this many times its standardized size: an SMO stopped at its cap says standardize


def margin_tol(sol: SVMSolution, box) -> float:
    """How far |y·f − 1| may be from 0 for a point drawn on its margin line.

    ON_MARGIN in units of f, and for the linear kernel at most a thousandth of the view's width in distance
    (|y·f − 1|/‖w‖ is the distance to the margin line: with a small C, ‖w‖ is small and 1e-3 in f is far).
    """
    if sol.kernel == "linear" and sol.w is not None:
        return min(ON_MARGIN, ON_MARGIN * float(np.linalg.norm(sol.w)) * (box[1] - box[0]))
    return ON_MARGIN


def categories(y: np.ndarray, f: np.ndarray, tol: float = ON_MARGIN) -> np.ndarray:
    """Where each point lies, from m = y·f(x): 0 outside (m > 1), 1 on (m ≈ 1), 2 inside (0 < m < 1), 3 misclassified.

    Parameters
    ----------
    y : ndarray of shape (n,)
    f : ndarray of shape (n,)
    tol : float
        |m − 1| up to this counts as on the margin.

    Returns
    -------
    ndarray of shape (n,), int
    """
    m = y * f
    out = np.zeros(m.shape, dtype=np.int64)
    out[np.abs(m - 1) <= tol] = 1
    out[(m < 1 - tol) & (m > 0)] = 2
    out[m <= 0] = 3
    return out


def _listed(idx: np.ndarray, n: int) -> str:
    """'x₁, x₄ (2 of 60)', or past STATE_NAMES names 'x₁, x₂, x₃, x₄, x₅, … (14 of 60)'."""
    more = ", …" if idx.size > STATE_NAMES else ""
    return f"{names(idx[:STATE_NAMES])}{more} ({idx.size:,} of {n:,})"


def svm_state(sol: SVMSolution, y: np.ndarray) -> str:
    """The state line under the SVM chart, two lines: C, w, b, the width 2/‖w‖ and M; the support vectors and ξ > 0.

    E.g. ``"C = 1: w = (0.5, 0.5), b = −2, margin 2/‖w‖ = 2.828; no point misclassified (0 of 3)<br>support
    vectors: x₁, x₃ (2 of 3); ξ = 0 at every point"``.

    The renderer writes it (``viz/js/svm.js``, ``SvmModel.stateLine``, with a line break for the ``<br>``); this is
    its reference.

    Parameters
    ----------
    sol : SVMSolution
    y : ndarray of shape (n,)
    """
    f, sv = sol.decision, np.flatnonzero(sol.support)  # f(xᵢ) = w·xᵢ + b (or the kernel expansion)
    viol = np.flatnonzero(sol.slack > ON_MARGIN)  # ξᵢ > 0, above the solver's residue
    n = len(y)
    head = "Hard margin (C = ∞)" if not math.isfinite(sol.C) else f"C = {sol.C:g}"
    width = 2 * sol.margin
    if sol.kernel == "linear" and sol.w is not None:
        params = f"w = {vec(sol.w)}, b = {num(sol.b)}"
        params += f", margin 2/‖w‖ = {num(width)}" if math.isfinite(width) else ", w = 0: no margin lines"
    else:  # no w in the plane: b and the width in the kernel's feature space
        params = f"{KERNEL_NAMES.get(sol.kernel, sol.kernel)} kernel, b = {num(sol.b)}" + (f", margin 2/‖w‖ = {num(width)} in feature space"
                                                             if math.isfinite(width) else "")
    mis = np.flatnonzero(y * f <= 0)  # M: y·f(x) ≤ 0
    slack = f"ξ > 0 for {_listed(viol, n)}" if viol.size else "ξ = 0 at every point"
    return state_text(head, params, mis, n, limit=STATE_NAMES) + f"<br>support vectors: {_listed(sv, n)}; {slack}"


def svm_status(sol: SVMSolution, X: np.ndarray, y: np.ndarray) -> str:
    """The status over the SVM chart, in three short lines: C, width, support vectors, Σξ; the objective; the
    points by where they lie (and a warning when SMO stopped at its cap).

    The renderer writes it (``viz/js/svm.js``, ``SvmModel.describe``); this is its reference.

    Parameters
    ----------
    sol : SVMSolution
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    """
    cat = categories(y, sol.decision, margin_tol(sol, view_box(X)))
    c = {name: int((cat == k).sum()) for k, name in enumerate(CATEGORIES)}
    sigma_xi = float(sol.slack.sum())
    sigma_xi = 0.0 if sigma_xi < 1e-9 else sigma_xi  # the solver's residue, not slack
    status = (f"{'Hard margin' if not math.isfinite(sol.C) else f'C = {sol.C:g}'}: margin width 2/‖w‖ = "
              f"{num(2 * sol.margin)}, {int(sol.support.sum())} support vectors, Σξ = {num(sigma_xi)}<br>"
              f"objective ½‖w‖² + C Σξ = {num(sol.objective)}<br>"
              f"points: {c['outside the margin']} outside, {c['on the margin']} on, {c['inside the margin']} inside "
              f"the margin; {c['misclassified']} misclassified")
    if not sol.converged:
        status += (f"<br>SMO stopped at its cap of {sol.iterations:,} iterations before its tolerance: this solution "
                   "is approximate ")
        scale = kernel_scale(X, sol)
        kmax, kstd = scale.get("kernel_max", 0.0), scale.get("kernel_max_standardized", 0.0)
        if kmax > KERNEL_LARGE * kstd:  # raw features: K(x, x) in the thousands makes SMO's steps tiny
            status += (f"(the kernel's values reach K(x, x) = {num(kmax)}; standardized, they would reach "
                       f"{num(kstd)}: turn on <i>Standardize x₁ and x₂</i> in the sidebar).")
        else:
            status += "(a smaller C or γ converges faster)."
    return status


def kernel_scale(X: np.ndarray, sol: SVMSolution) -> dict[str, float]:
    """When SMO stopped at its cap: the largest K(xᵢ, xᵢ) over the points, as they are and standardized
    (``kernel_max``, ``kernel_max_standardized``; only its message uses them); nothing otherwise."""
    if sol.converged or sol.kernel == "linear":
        return {}
    params = dict(sol.kernel_params)

    def largest(A: np.ndarray) -> float:  # the Gram matrix's diagonal, a row at a time
        return max(float(abs(kernel_matrix(A[i:i + 1], A[i:i + 1], sol.kernel, **params)[0, 0]))
                   for i in range(len(A)))

    return {"kernel_max": largest(X), "kernel_max_standardized": largest(standardize(X)[0])}


def sgd_summary(run, exact: SVMSolution) -> str:
    """Where hinge SGD ended against the exact optimum: J, J* and the gap."""
    gap = float(run.objective[-1] - exact.objective)
    return (f"After {run.n_steps:,} steps: J = {num(float(run.objective[-1]))}, the exact optimum J* = "
            f"{num(exact.objective)}, gap {num(gap)} ({100 * gap / exact.objective:.3g}% of J*). "
            "With the decaying step 1/(λ(t + t₀)) the gap keeps shrinking, slowly for large C (small λ); a constant "
            "η stalls at a noise floor.")


def sgd_step_text(run, jstar: float, s: int) -> str:
    """What hinge SGD's step ``s`` did, in the seeds' notation (HTML): the Python reference of the SGD chart's words.

    E.g. "<b>Step 3</b>: x₇, y = +1, y·(w·x+b) = 0.4 < 1 → hinge active:<br>w ← (1 − ηλ)·w + η·y·x = (…), b ← b + η·y
    = …<br>η = …, λ = 1/(N·C) = … · J = …, gap to the exact J* = …: <b>…</b>". Whether the hinge was active is
    the core's decision (``run.active``); y·(w·x+b) is summed in the core's order.

    Parameters
    ----------
    run : core.svm.HingeRun
    jstar : float
        The exact optimum J* for the run's C.
    s : int
        The step, 0..S.
    """
    X, y = run.X, run.y
    w, b = run.W[s], float(run.B[s])
    if s:
        i = int(run.order[s - 1])
        m = float(y[i] * activation(X[i:i + 1], run.W[s - 1], float(run.B[s - 1]))[0])  # y·(w·x + b) before the step
        head = f"<b>Step {s:,}</b>: x{sub(i + 1)}, y = {'+1' if y[i] > 0 else '−1'}, y·(w·x+b) = {num(m)}"
        if run.active[s - 1]:
            head += (f" < 1 → hinge active:<br>w ← (1 − ηλ)·w + η·y·x = ({num(w[0])}, {num(w[1])}), "
                     f"b ← b + η·y = {num(b)}")
        else:
            head += f" ≥ 1 → only the shrink:<br>w ← (1 − ηλ)·w = ({num(w[0])}, {num(w[1])}), b stays {num(b)}"
        head += f"<br>η = {num(float(run.etas[s - 1]))}, λ = 1/(N·C) = {num(run.lam)}"
    else:
        head = f"<b>Step 0</b>: w = 0, b = 0; λ = 1/(N·C) = {num(run.lam)}"
    return head + (f" · J = {num(run.objective[s])}, gap to the exact J* = {num(jstar)}: "
                   f"<b>{num(run.objective[s] - jstar)}</b>")


def sgd_state(run, s: int) -> str:
    """Hinge SGD's state after step ``s`` in one plain line: "Step 7 of 2000: w = …, b = …; misclassified: …;
    hinge active (margin < 1) for 10 of 40 points" (y·(w·x+b) ≤ 0 and < 1 as the core sums them)."""
    w, b = run.W[s], float(run.B[s])
    margins = run.y * activation(run.X, w, b)  # yᵢ(w·xᵢ + b) after the step
    return state_line(s, run.n_steps, w, b, np.flatnonzero(margins <= 0), len(run.y),
                      extra=f"hinge active (margin < 1) for {int((margins < 1).sum()):,} of {len(run.y):,} points")


