"""Linear separability of 2-D data, decided exactly, and Novikoff's mistake bound (R/γ)².

With an intercept, two finite point sets are strictly separable by a line
w·x + b = 0 exactly when their convex hulls are disjoint; for convex polygons
in the plane that holds exactly when some edge normal (or, for a flat hull,
edge direction) of either hull separates their projections (the separating
axis theorem). Without an intercept the line passes through the origin, and a
w with yᵢ(w·xᵢ) > 0 for all i exists exactly when the vectors zᵢ = yᵢxᵢ are
non-zero and fit in an open half-plane, i.e. their directions leave an angular
gap larger than π.

:func:`mistake_bound` measures R and the max-margin γ (by the interior-point
solver of :mod:`core.qp`) in the perceptron's own space x̃ = (x, 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.qp import margin_qp
from core.validate import validate_data


def convex_hull(P: np.ndarray) -> np.ndarray:
    """Vertices of the convex hull, counter-clockwise (Andrew's monotone chain).

    Parameters
    ----------
    P : ndarray of shape (n, 2)

    Returns
    -------
    ndarray of shape (h, 2)
        h = 1 for a single point, 2 for collinear points.
    """
    P = np.unique(np.asarray(P, dtype=np.float64), axis=0)  # sorted by x, then y
    if len(P) <= 2:
        return P
    pts = P.tolist()

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    hull = lower[:-1] + upper[:-1]
    return np.array(hull if len(hull) >= 2 else lower[:1])


def _axes(H: np.ndarray) -> np.ndarray:
    """Candidate separating directions of a hull: edge normals and edge directions, shape (k, 2)."""
    if len(H) < 2:
        return np.zeros((0, 2))
    E = np.roll(H, -1, axis=0) - H
    E = E[np.any(E != 0, axis=1)]
    return np.concatenate([np.stack([-E[:, 1], E[:, 0]], axis=1), E])


def is_separable(X, y, *, fit_intercept: bool = True) -> bool:
    """Whether some line classifies every point strictly correctly.

    Parameters
    ----------
    X : array_like of shape (n, 2)
    y : array_like of shape (n,)
        Labels in {−1, +1}.
    fit_intercept : bool
        Lines w·x + b = 0 (True) or lines through the origin w·x = 0 (False).

    Returns
    -------
    bool
        True when there are (w, b) with yᵢ(w·xᵢ + b) > 0 for every i.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"is_separable decides 2-D data, got X of shape {X.shape}")
    # the answer does not change under scaling (nor, with an intercept, translation):
    # bring the data to unit size so that the tolerances below are relative
    size = float(np.abs(X).max()) if X.size else 0.0
    if fit_intercept:
        X = X - X.mean(axis=0)
    scale = float(np.abs(X).max()) if X.size else 0.0
    if scale > 0:
        X = X / scale
    # gaps smaller than the rounding of the original coordinates are not gaps
    tol = 1e-12 + 64 * np.finfo(float).eps * (size / scale if scale > 0 else 1.0)
    if not fit_intercept:
        Z = X * y[:, None]  # zᵢ = yᵢxᵢ must lie in one open half-plane
        if np.any(np.all(Z == 0, axis=1)):
            return False
        ang = np.sort(np.arctan2(Z[:, 1], Z[:, 0]))
        gaps = np.diff(np.concatenate([ang, ang[:1] + 2 * np.pi]))
        return bool(gaps.max() > np.pi + 1e-12)
    A, B = X[y == 1], X[y == -1]
    if len(A) == 0 or len(B) == 0:
        return True
    HA, HB = convex_hull(A), convex_hull(B)
    axes = np.concatenate([_axes(HA), _axes(HB)])
    if len(axes) == 0:  # two single points
        return not np.array_equal(HA[0], HB[0])
    axes = axes / np.linalg.norm(axes, axis=1, keepdims=True)  # unit directions
    pa, pb = HA @ axes.T, HB @ axes.T  # projections, shape (h, k)
    gap = np.maximum(pb.min(axis=0) - pa.max(axis=0), pa.min(axis=0) - pb.max(axis=0))
    return bool(np.any(gap > tol))


def separable_by_run(X, y, *, fit_intercept: bool = True, b0: float = 0.0) -> bool | None:
    """Whether the lines a perceptron run can reach separate the data.

    With a learned bias these are all lines w·x + b = 0; without one and
    b₀ = 0, the lines through the origin. With b fixed at b₀ ≠ 0 the question
    is another one, left undecided (None).
    """
    if not fit_intercept and b0 != 0:
        return None
    return is_separable(X, y, fit_intercept=fit_intercept)


@dataclass(frozen=True)
class MistakeBound:
    """Novikoff's bound on the perceptron's updates, from the max-margin separator.

    With an intercept the perceptron's (w, b) is the weight vector of the
    augmented points x̃ = (x, 1), so R and γ are measured there: R = maxᵢ ‖x̃ᵢ‖
    and γ = maxₓ minᵢ yᵢ w̃·x̃ᵢ over unit w̃ (b counts in the norm). The τ = 1
    perceptron started at w = 0, b = 0 with the rule y·a ≤ 0 makes at most
    (R/γ)² updates; from zero, τ only scales w, so the count is the same for
    every τ.

    Attributes
    ----------
    R : float
    gamma : float
        0 when the data are not separable.
    bound : float
        (R/γ)², math.inf when the data are not separable.
    separable : bool
    w : ndarray of shape (d,)
        The unit max-margin direction (its first d coordinates with an intercept).
    b : float
        Its bias coordinate (0 without an intercept).
    fit_intercept : bool
    """

    R: float
    gamma: float
    bound: float
    separable: bool
    w: np.ndarray
    b: float
    fit_intercept: bool


def mistake_bound(X, y, *, fit_intercept: bool = True) -> MistakeBound:
    """R, γ and (R/γ)² for the data (see :class:`MistakeBound`).

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels in {−1, +1}.
    fit_intercept : bool
        Measure in the augmented space x̃ = (x, 1) (a learned bias) or in x itself (lines through the origin).

    Returns
    -------
    MistakeBound
        With ``bound = math.inf`` and ``gamma = 0`` when no separator exists.
    """
    Xa, ya = validate_data(X, y)
    n, d = Xa.shape
    Xt = np.column_stack([Xa, np.ones(n)]) if fit_intercept else Xa  # x̃ = (x, 1)
    R = float(np.sqrt((Xt**2).sum(axis=1)).max())
    if not is_separable(Xa, ya, fit_intercept=fit_intercept):
        return MistakeBound(R, 0.0, math.inf, False, np.zeros(d), 0.0, fit_intercept)
    # the hard margin through the origin of the x̃ space: min ½‖w̃‖² s.t. yᵢ w̃·x̃ᵢ ≥ 1; then γ = 1/‖w̃‖
    wt, _, _, _ = margin_qp(ya[:, None] * Xt, np.ones(Xt.shape[1]), math.inf)
    norm = float(np.linalg.norm(wt))
    gamma = float((ya * (Xt @ wt)).min()) / norm  # = 1/‖w̃‖ at the optimum; measured, not assumed
    if not gamma > 0:
        raise ValueError("the max-margin separator could not be found to floating-point accuracy (γ ≤ 0)")
    u = wt / norm
    return MistakeBound(R, gamma, (R / gamma) ** 2, True, u[:d].copy(), float(u[d]) if fit_intercept else 0.0,
                        fit_intercept)


def novikoff_terms(W, B, bound: MistakeBound) -> tuple[np.ndarray, np.ndarray]:
    """Both sides of the proof of the mistake bound, after each update of an online run from zero.

    In the perceptron's space x̃ = (x, 1), w̃ = (w, b) (x̃ = x, w̃ = w without an intercept), an update on a
    mistake yᵢ w̃·x̃ᵢ ≤ 0 adds τ·yᵢx̃ᵢ, so with the unit max-margin w̃* (yᵢ w̃*·x̃ᵢ ≥ γ) and ‖x̃ᵢ‖ ≤ R:

        ⟨w̃*, w̃_k⟩ ≥ kτγ        and        ‖w̃_k‖² ≤ kτ²R²,

    and Cauchy–Schwarz squeezes kτγ ≤ ⟨w̃*, w̃_k⟩ ≤ ‖w̃_k‖ ≤ √k·τR, which forces k ≤ (R/γ)².

    Parameters
    ----------
    W : array_like of shape (K + 1, d)
        w after each update k = 0..K (W[0] = 0).
    B : array_like of shape (K + 1,)
        b after each update (0 throughout without an intercept).
    bound : MistakeBound
        Measured on the same points and bias setting (``separable``).

    Returns
    -------
    inner : ndarray of shape (K + 1,)
        ⟨w̃*, w̃_k⟩.
    norm2 : ndarray of shape (K + 1,)
        ‖w̃_k‖².
    """
    W, B = np.asarray(W, dtype=np.float64), np.asarray(B, dtype=np.float64)
    Wt = np.column_stack([W, B]) if bound.fit_intercept else W  # w̃ = (w, b)
    star = np.append(bound.w, bound.b) if bound.fit_intercept else np.asarray(bound.w, dtype=np.float64)
    return Wt @ star, (Wt**2).sum(axis=1)
