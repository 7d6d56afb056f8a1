"""The SVM page's words: the exact SVM's and the hinge-SGD tab's.

The exact SVM's chart is drawn in the browser from a scene record (:func:`viz.scene.svm_scene`,
``viz/js/svm.js``): here are what that record sends as the solver decided it (each point's category at
:func:`margin_tol`, :data:`ON_MARGIN`, :data:`MAX_SLACK_LABELS`). The hinge-SGD tab is drawn from its own record
(:func:`viz.scene.sgd_scene`, ``viz/js/sgd.js``). The Python references of the words the renderers write
(``svm_state``, ``svm_status``, ``sgd_step_text``, ``sgd_state``) are in tests/oracles.py. No Streamlit.
"""

from __future__ import annotations

import numpy as np

from core.dual import kernel_matrix
from core.svm import SVMSolution
from datasets.points import standardize
from viz.common import (
    num,
)

ON_MARGIN = 1e-3  # |y·f − 1| below this counts as on the margin line
MAX_SLACK_LABELS = 12  # the largest ξ are written; more would bury the points


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


