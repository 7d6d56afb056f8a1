"""A primal–dual interior-point solver for the margin problems (the SVM and the mistake bound's γ).

    min ½ zᵀ diag(reg) z + C Σ ξᵢ   subject to   A z + ξ ≥ 1,  ξ ≥ 0        (C finite)
    min ½ zᵀ diag(reg) z            subject to   A z ≥ 1                   (C = ∞)

with rows aᵢ = yᵢ·x̃ᵢ. Every Newton step reduces, by eliminating the N slack
and multiplier blocks (all diagonal), to one m × m system (m = d or d + 1):
O(N·m²) per iteration and a few dozen iterations (Mehrotra's
predictor–corrector). No N × N matrix is formed.
"""

from __future__ import annotations

import math

import numpy as np

MAX_ITER = 100
TOL = 1e-10


def _newton(A, reg, soft: bool, state, r_s, r_m):
    """One Newton direction: the reduced m × m system for Δz, then back-substitution for the diagonal blocks.

    ``state`` is (s, α, ξ, μ, r_d, r_p, r_x); r_s and r_m are the right-hand
    sides of the complementarity rows α∘s and μ∘ξ.
    """
    s, alpha, xi, mu, r_d, r_p, r_x = state
    n = A.shape[0]
    if soft:
        dinv = xi / mu + s / alpha
        rhs_a = -r_p + (r_m + xi * r_x) / mu - r_s / alpha
    else:
        dinv = s / alpha
        rhs_a = -r_p - r_s / alpha
    W = 1.0 / dinv
    K = np.diag(reg) + (A.T * W) @ A  # diag(reg) + Aᵀ W A
    if not np.isfinite(K).all():
        raise np.linalg.LinAlgError("the Newton system is not finite")
    rhs = -r_d + A.T @ (W * rhs_a)
    try:
        dz = np.linalg.solve(K, rhs)
    except np.linalg.LinAlgError:  # nearly singular near the end: the least-squares step still helps
        dz = np.linalg.lstsq(K, rhs, rcond=None)[0]
    da = (rhs_a - A @ dz) * W
    ds = -(r_s + s * da) / alpha
    if soft:
        dxi = (-r_m - xi * r_x + xi * da) / mu
        dmu = r_x - da
    else:
        dxi = dmu = np.zeros(n)
    return dz, da, ds, dxi, dmu


def margin_qp(A: np.ndarray, reg: np.ndarray, C: float, tol: float = TOL) -> tuple[np.ndarray, np.ndarray,
                                                                                np.ndarray, int]:
    """min ½ zᵀ diag(reg) z + C Σ ξ  s.t.  A z + ξ ≥ 1, ξ ≥ 0 (C finite) or A z ≥ 1 (C = ∞).

    Mehrotra predictor–corrector on the primal–dual KKT system. With slacks
    s = A z + ξ − 1 ≥ 0 and multipliers α ≥ 0 (for A z + ξ ≥ 1) and μ ≥ 0 (for
    ξ ≥ 0), the conditions are reg∘z = Aᵀα, α + μ = C, α∘s = 0, μ∘ξ = 0.
    Eliminating Δα, Δs, Δξ, Δμ (diagonal blocks) leaves
    (diag(reg) + Aᵀ W A) Δz = r with W = 1/(ξ/μ + s/α).

    Parameters
    ----------
    A : ndarray of shape (n, m)
        Rows yᵢ·x̃ᵢ.
    reg : ndarray of shape (m,)
        1 for a regularised coordinate of z, 0 for a free one (the bias).
    C : float
        Penalty, or math.inf for no slack.

    Returns
    -------
    z : ndarray of shape (m,)
    alpha : ndarray of shape (n,)
        The multipliers of A z + ξ ≥ 1.
    s : ndarray of shape (n,)
        The slacks A z + ξ − 1; by complementarity αᵢsᵢ → 0, so of αᵢ and sᵢ the
        larger tells whether row i is active (a support vector).
    iterations : int

    The complementarity αᵢsᵢ is judged relative to the objective's scale (the
    largest αᵢ), so data whose margins are tiny (α ~ 1/gap²) converge too.

    Raises
    ------
    ValueError
        When the method does not converge within MAX_ITER iterations.
    """
    n, m = A.shape
    soft = math.isfinite(C)
    z = np.zeros(m)
    xi = np.ones(n) if soft else np.zeros(n)
    s = np.ones(n)
    alpha = np.full(n, C / 2 if soft else 1.0)
    mu = C - alpha if soft else np.zeros(n)
    scale = max(1.0, float(np.abs(A).max()))

    def step_to_boundary(v, dv):
        neg = dv < 0
        return float(np.min(-v[neg] / dv[neg])) if neg.any() else np.inf

    best = None
    for it in range(1, MAX_ITER + 1):
        r_d = reg * z - A.T @ alpha  # stationarity in z
        r_p = A @ z + xi - 1.0 - s  # primal feasibility
        r_x = (C - alpha - mu) if soft else np.zeros(n)  # stationarity in ξ
        gap = alpha @ s + (mu @ xi if soft else 0.0)
        t = gap / (2 * n if soft else n)
        amax = max(1.0, float(np.abs(alpha).max()))
        comp = max(float((alpha * s).max()), float((mu * xi).max()) if soft else 0.0)  # the worst αᵢsᵢ, μᵢξᵢ
        err = max(np.abs(r_p).max() / scale, np.abs(r_d).max() / (scale * amax),
                  np.abs(r_x).max() / max(C, 1.0) if soft else 0.0, comp / amax)
        if best is None or err < best[0]:
            best = (err, z, alpha, s, it)
        if err < tol:
            return z, alpha, s, it

        # predictor (affine scaling)
        state = (s, alpha, xi, mu, r_d, r_p, r_x)
        try:
            with np.errstate(all="ignore"):
                dz, da, ds, dxi, dmu = _newton(A, reg, soft, state, alpha * s, mu * xi if soft else np.zeros(n))
        except np.linalg.LinAlgError:
            break  # the iterates reached the limits of floating point: keep the best one if it is good
        a_p = min(1.0, step_to_boundary(s, ds), step_to_boundary(xi, dxi) if soft else np.inf)
        a_d = min(1.0, step_to_boundary(alpha, da), step_to_boundary(mu, dmu) if soft else np.inf)
        gap_aff = (alpha + a_d * da) @ (s + a_p * ds) + ((mu + a_d * dmu) @ (xi + a_p * dxi) if soft else 0.0)
        sigma = (gap_aff / gap) ** 3 if gap > 0 else 0.0
        # corrector: centring σt and the second-order term Δα∘Δs
        r_s = alpha * s + da * ds - sigma * t
        r_m = (mu * xi + dmu * dxi - sigma * t) if soft else np.zeros(n)
        try:
            with np.errstate(all="ignore"):
                dz, da, ds, dxi, dmu = _newton(A, reg, soft, state, r_s, r_m)
        except np.linalg.LinAlgError:
            break
        a_p = min(1.0, 0.995 * step_to_boundary(s, ds), 0.995 * step_to_boundary(xi, dxi) if soft else np.inf)
        a_d = min(1.0, 0.995 * step_to_boundary(alpha, da), 0.995 * step_to_boundary(mu, dmu) if soft else np.inf)
        a_p = a_d = min(a_p, a_d)  # one step for both: z and α are coupled through reg∘z = Aᵀα
        z = z + a_p * dz
        s = s + a_p * ds
        alpha = alpha + a_d * da
        if soft:
            xi = xi + a_p * dxi
            mu = mu + a_d * dmu
    if best is not None and best[0] < 1e-7:  # converged as far as floating point allows
        return best[1], best[2], best[3], best[4]
    raise ValueError(f"the interior-point method did not converge in {MAX_ITER} iterations")
