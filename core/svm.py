"""The maximum-margin separator: soft- and hard-margin linear SVM by a primal–dual interior-point method.

The seeds write the soft-margin SVM as

    min ½‖w‖² + C Σᵢ ξᵢ  subject to  yᵢ(w·xᵢ + b) ≥ 1 − ξᵢ,  ξᵢ ≥ 0,

with slack ξᵢ = max(0, 1 − yᵢ(w·xᵢ + b)) at the optimum; C = ∞ is the hard
margin (no slack). Its dual variables αᵢ (0 ≤ αᵢ ≤ C, Σ αᵢyᵢ = 0) give
w = Σ αᵢyᵢxᵢ, and the support vectors are the points with αᵢ > 0.

The solver works on this primal directly. With z = (w, b) and the rows
aᵢ = yᵢ(xᵢ, 1), every Newton step of the interior-point method reduces, by
eliminating the N slack and multiplier blocks (all diagonal), to one
(d + 1) × (d + 1) linear system: O(N·d²) work per iteration and a few dozen
iterations whatever C is (Mehrotra's predictor–corrector). No N × N matrix is
ever formed. No Streamlit and no Plotly here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.bounds import is_separable
from core.qp import TOL, margin_qp
from core.snapshot import readonly
from core.validate import check_real, validate_data

C_MIN, C_MAX = 1e-6, 1e6


@dataclass(frozen=True, eq=False)
class SVMSolution:
    """The optimum of the soft- (or hard-) margin linear SVM.

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        Dual variables, 0 ≤ αᵢ ≤ C, with w = Σ αᵢyᵢxᵢ and Σ αᵢyᵢ = 0.
    w : ndarray of shape (d,)
    b : float
    support : ndarray of shape (n,), bool
        The support vectors: αᵢ > 0 (up to the solver's tolerance).
    slack : ndarray of shape (n,)
        ξᵢ = max(0, 1 − yᵢ(w·xᵢ + b)).
    margin : float
        γ = 1/‖w‖, the distance from the boundary to each margin line w·x + b = ±1.
    objective : float
        ½‖w‖² + C Σ ξᵢ (½‖w‖² for the hard margin).
    C : float
        math.inf for the hard margin.
    iterations : int
        Interior-point iterations used.
    """

    alpha: np.ndarray
    w: np.ndarray
    b: float
    support: np.ndarray
    slack: np.ndarray
    margin: float
    objective: float
    C: float
    iterations: int


def fit_svm(X, y, *, C: float = 1.0, kernel: str = "linear", tol: float = TOL) -> SVMSolution:
    """The soft-margin (C finite) or hard-margin (C = math.inf) linear SVM, exactly.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels in {−1, +1}, both present.
    C : float
        1e-6 ≤ C ≤ 1e6, or math.inf for the hard margin.
    kernel : {"linear"}
        Only the linear kernel for now.
    tol : float
        Residual and complementarity tolerance of the interior-point method.

    Returns
    -------
    SVMSolution

    Raises
    ------
    ValueError
        On bad input, and for C = math.inf when the data are not linearly
        separable ("the hard margin needs linearly separable data").
    """
    Xa, ya = validate_data(X, y)
    if kernel != "linear":
        raise ValueError(f"kernel must be 'linear' (the kernel SVM is not built yet), got {kernel!r}")
    if not (isinstance(C, int | float) and not isinstance(C, bool)) or (math.isnan(C)):
        raise ValueError(f"C must be a positive number or math.inf, got {C!r}")
    hard = C == math.inf
    if not hard:
        C = check_real("C", C, low=C_MIN, high=C_MAX)
    if (ya > 0).all() or (ya < 0).all():
        raise ValueError("the SVM needs points of both classes")
    if hard and not is_separable(Xa, ya, fit_intercept=True):
        raise ValueError("the hard margin (C = ∞) needs linearly separable data, and these are not: "
                         "some point would have to be on the wrong side; use a finite C")
    n, d = Xa.shape
    A = ya[:, None] * np.column_stack([Xa, np.ones(n)])  # rows yᵢ(xᵢ, 1)
    reg = np.r_[np.ones(d), 0.0]  # ½‖w‖²: b is not regularised
    z, alpha, iters = margin_qp(A, reg, C, tol)
    w, b = z[:d], float(z[d])
    f = Xa @ w + b
    slack = np.maximum(0.0, 1.0 - ya * f)  # ξᵢ = max(0, 1 − yᵢ(w·xᵢ + b))
    if hard:
        slack = np.zeros(n)
    nw = float(np.linalg.norm(w))
    cap = C if not hard else max(1.0, float(alpha.max()))
    return SVMSolution(
        alpha=readonly(np.where(alpha > 1e-6 * cap, alpha, 0.0)),  # the interior point leaves ~t/s on the others
        w=readonly(w),
        b=b,
        support=readonly(alpha > 1e-6 * cap),
        slack=readonly(slack),
        margin=1.0 / nw if nw > 0 else math.inf,
        objective=0.5 * nw**2 + (0.0 if hard else C * float(slack.sum())),
        C=C,
        iterations=iters,
    )
