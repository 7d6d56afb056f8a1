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


def _residuals(A, AT, reg, z, P, D, C: float, n: int, soft: bool, scale: float):
    """The KKT residuals r_d, r_p, r_x, the products D∘P and their sum, and the scaled error to stop on."""
    s, alpha = P[:n], D[:n]
    r_d = reg * z - AT @ alpha  # stationarity in z
    r_p = A @ z - 1.0 - s  # primal feasibility of A z + ξ ≥ 1
    r_x = None
    if soft:
        r_p += P[n:]
        r_x = C - alpha - D[n:]  # stationarity in ξ
    DP = D * P
    amax = max(1.0, float(alpha.max()))
    err = max(float(np.abs(r_p).max()) / scale, float(np.abs(r_d).max()) / (scale * amax),
              float(np.abs(r_x).max()) / max(C, 1.0) if soft else 0.0, float(DP.max()) / amax)
    return err, r_d, r_p, r_x, DP, float(DP.sum())


def _direction(ctx, R):
    """One Newton direction (Δz, ΔD, ΔP) for the complementarity right-hand sides R = (r_s, r_m).

    ``ctx`` holds this iteration's A, Aᵀ, diag(reg) + Aᵀ W A, W, the part of the reduced right-hand
    side that does not depend on R, the residuals r_d and r_x, and s, α, ξ, μ (ξ, μ None without slack).
    """
    A, AT, K, W, base, r_d, r_x, s, alpha, xi, mu = ctx
    n = s.size
    with np.errstate(all="ignore"):
        r_s = R[:n]
        rhs_a = base - r_s / alpha
        if xi is not None:
            r_m = R[n:]
            rhs_a = rhs_a + r_m / mu
        rhs = AT @ (W * rhs_a) - r_d
        try:
            dz = np.linalg.solve(K, rhs)
        except np.linalg.LinAlgError:  # nearly singular near the end: the least-squares step still helps
            dz = np.linalg.lstsq(K, rhs, rcond=None)[0]
        da = (rhs_a - A @ dz) * W  # Δα, then Δs from α∘s, and Δξ, Δμ from μ∘ξ and α + μ = C
        ds = -(r_s + s * da) / alpha
        if xi is None:
            return dz, da, ds
        return dz, np.concatenate([da, r_x - da]), np.concatenate([ds, (xi * (da - r_x) - r_m) / mu])


def margin_qp(A: np.ndarray, reg: np.ndarray, C: float, tol: float = TOL,
              max_iter: int = MAX_ITER) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
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
    tol : float
        Scaled residual and complementarity at which to stop.
    max_iter : int
        Iterations allowed.

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
        When the method does not converge within ``max_iter`` iterations.
    """
    n, m = A.shape
    soft = math.isfinite(C)
    A = np.ascontiguousarray(A, dtype=float)
    AT = np.ascontiguousarray(A.T)
    z = np.zeros(m)
    # the nonnegative pairs, stacked so each step takes one pass: P = (s, ξ) and D = (α, μ), complementary
    # entry by entry (αᵢsᵢ → 0, μᵢξᵢ → 0); without slack (C = ∞) just s and α
    P = np.ones(2 * n if soft else n)
    D = np.full(P.size, C / 2) if soft else np.ones(n)
    scale = max(1.0, float(np.abs(A).max()))
    diag = np.diag(reg.astype(float))

    def step_to_boundary(v, dv):
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(np.where(dv < 0, -v / dv, np.inf).min())

    best = None
    for it in range(1, max_iter + 1):
        s, alpha = P[:n], D[:n]
        with np.errstate(over="ignore", invalid="ignore"):
            err, r_d, r_p, r_x, DP, gap = _residuals(A, AT, reg, z, P, D, C, n, soft, scale)
        if soft:
            xi, mu = P[n:], D[n:]
        t = gap / P.size
        if best is None or err < best[0]:
            best = (err, z, alpha, s, it)
        if err < tol:
            return z, alpha, s, it
        # Newton on the KKT system: eliminating the diagonal blocks leaves (diag(reg) + Aᵀ W A) Δz = r with
        # W = 1/(ξ/μ + s/α), the same matrix for the predictor and the corrector
        with np.errstate(all="ignore"):
            s_a = s / alpha
            if soft:
                xi_mu = xi / mu
                W = 1.0 / (xi_mu + s_a)
                base = -r_p + xi_mu * r_x
            else:
                W = 1.0 / s_a
                base = -r_p
            K = diag + (AT * W) @ A
        if not np.isfinite(K).all():
            break  # the iterates reached the limits of floating point: keep the best one if it is good

        ctx = (A, AT, K, W, base, r_d, r_x if soft else None, s, alpha, xi if soft else None,
               mu if soft else None)
        dz, dD, dP = _direction(ctx, DP)  # predictor (affine scaling)
        a_p = min(1.0, step_to_boundary(P, dP))
        a_d = min(1.0, step_to_boundary(D, dD))
        gap_aff = float((D + a_d * dD) @ (P + a_p * dP))
        sigma = (gap_aff / gap) ** 3 if gap > 0 else 0.0
        # corrector: centring σt and the second-order term ΔD∘ΔP
        dz, dD, dP = _direction(ctx, DP + dD * dP - sigma * t)
        step = min(1.0, 0.995 * step_to_boundary(P, dP), 0.995 * step_to_boundary(D, dD))
        if not np.isfinite(step) or not (np.isfinite(dz).all() and np.isfinite(dP).all() and np.isfinite(dD).all()):
            break
        # one step for both: z and α are coupled through reg∘z = Aᵀα
        z = z + step * dz
        P = P + step * dP
        D = D + step * dD
    if best is not None and best[0] < 1e-7:  # converged as far as floating point allows
        return best[1], best[2], best[3], best[4]
    raise ValueError(f"the interior-point method did not converge in {max_iter} iterations")
