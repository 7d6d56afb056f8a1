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
import numbers
from dataclasses import dataclass

import numpy as np

from core.bounds import is_separable
from core.dual import _int_power, kernel_matrix, kernel_params
from core.formulas import slacks, soft_margin_objective
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
    w : ndarray of shape (d,) or None
        For the linear kernel; None for the others (w lives in feature space).
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
        Interior-point (linear) or SMO (kernels) iterations used.
    decision : ndarray of shape (n,)
        f(xᵢ) = w·xᵢ + b (or Σ αⱼyⱼK(xⱼ, xᵢ) + b) at the training points.
    kernel : str
    kernel_params : tuple of (str, float)
    converged : bool
        False when SMO stopped at its iteration cap (20,000) before its gap of 1e-3/max(1, C): approximate.
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
    decision: np.ndarray
    kernel: str = "linear"
    kernel_params: tuple = ()
    converged: bool = True


def _smo(col, diag: np.ndarray, y: np.ndarray, C: float, eps: float = 1e-3, max_iter: int = 20_000):
    """SMO on the dual with libsvm's second-order working-set selection (Fan, Chen and Lin 2005).

    min ½ αᵀQα − Σ αᵢ  s.t.  Σ αᵢyᵢ = 0,  0 ≤ αᵢ ≤ C,  with Qᵢⱼ = yᵢyⱼKᵢⱼ.
    Each iteration picks i with the largest −yᵢ∇ᵢ in I_up and j in I_low
    maximising the second-order decrease b²/a, solves the two-variable
    problem exactly (clipped to the box) and updates v = −y∘∇ (∇ = Qα − 1).
    Kernel columns are asked for only when a point enters a working pair.
    Stops when max_{I_up} v − min_{I_low} v < eps (libsvm's criterion), or
    after ``max_iter`` iterations (then the solution is approximate: see the
    returned gap).

    Parameters
    ----------
    col : callable
        col(i) -> ndarray of shape (n,), the kernel column K(xᵢ, ·) (cached by the caller).
    diag : ndarray of shape (n,)
        K(xᵢ, xᵢ).
    y : ndarray of shape (n,)
        Labels ±1 as floats.
    C : float
    eps : float
    max_iter : int

    Returns
    -------
    alpha : ndarray of shape (n,)
    b : float
    iterations : int
    gap : float
        The final max_{I_up} v − min_{I_low} v (below eps when converged).
    """
    n = y.size
    alpha = np.zeros(n)
    v = y.copy()  # v = −y∘∇; at α = 0, ∇ = −1
    pos = y > 0
    # I_up (yᵢαᵢ can grow) and I_low (it can shrink) as penalties 0 / −∞ added to v, kept up to date at i and j
    pen_up = np.where(pos, 0.0, -np.inf)
    pen_low = np.where(pos, -np.inf, 0.0)
    tau = 1e-12
    inv_a: dict[int, np.ndarray] = {}  # 1/aᵢₜ for each i picked so far (the same few i come back again and again)
    it, gap = 0, math.inf
    while it < max_iter:
        it += 1
        vu = v + pen_up
        i = int(vu.argmax())
        gmax = vu[i]
        vl = v - pen_low  # v on I_low, +∞ off it
        gap = gmax - float(vl.min())
        if gap < eps:
            break
        Ki = col(i)
        ia = inv_a.get(i)
        if ia is None:
            ia = inv_a[i] = 1.0 / np.maximum(diag[i] + diag - 2.0 * Ki, tau)  # aᵢₜ = Kᵢᵢ + Kₜₜ − 2Kᵢₜ
        # second order: among t in I_low with v_t < gmax, maximise (gmax − v_t)² / aᵢₜ (off I_low, or with
        # v_t ≥ gmax, t scores 0; some t in I_low scores more, as the gap is at least eps)
        bb = np.minimum(vl - gmax, 0.0)
        j = int((bb * bb * ia).argmax())
        Kj = col(j)
        yi, yj = y[i], y[j]
        aij = 1.0 / ia[j]
        ai_old, aj_old = alpha[i], alpha[j]
        gi, gj = -yi * v[i], -yj * v[j]  # ∇ᵢ, ∇ⱼ
        # the two-variable step along yᵢαᵢ + yⱼαⱼ = const, clipped to the box (libsvm's cases)
        if yi != yj:
            delta = (-gi - gj) / aij
            diff = ai_old - aj_old
            ai, aj = ai_old + delta, aj_old + delta
            if diff > 0:
                if aj < 0:
                    aj, ai = 0.0, diff
            elif ai < 0:
                ai, aj = 0.0, -diff
            if diff > 0:
                if ai > C:
                    ai, aj = C, C - diff
            elif aj > C:
                aj, ai = C, C + diff
        else:
            delta = (gi - gj) / aij
            total = ai_old + aj_old
            ai, aj = ai_old - delta, aj_old + delta
            if total > C:
                if ai > C:
                    ai, aj = C, total - C
            elif aj < 0:
                aj, ai = 0.0, total
            if total > C:
                if aj > C:
                    aj, ai = C, total - C
            elif ai < 0:
                ai, aj = 0.0, total
        alpha[i], alpha[j] = ai, aj
        # ∇ += Q_i Δαᵢ + Q_j Δαⱼ, Q_t = y_t·y·K_t, so v = −y∘∇ loses yᵢΔαᵢKᵢ + yⱼΔαⱼKⱼ
        v -= (yi * (ai - ai_old)) * Ki + (yj * (aj - aj_old)) * Kj
        for t in (i, j):
            at = alpha[t]
            up = at < C if pos[t] else at > 0
            low = at > 0 if pos[t] else at < C
            pen_up[t] = 0.0 if up else -np.inf
            pen_low[t] = 0.0 if low else -np.inf
    # b from the free vectors (0 < α < C): yᵢ f(xᵢ) = 1 there; else the middle of the feasible interval
    free = (alpha > 0) & (alpha < C)
    if free.any():
        b = float(v[free].mean())
    else:
        b = float(((v + pen_up).max() + (v - pen_low).min()) / 2)
    return alpha, b, it, float(gap)


WS_FIRST = 32  # rows per class in the first working set
WS_ROUNDS = 12  # rounds before the whole problem is solved at once
WS_ITER = 30  # interior-point iterations allowed on a working set


def _working_set_qp(A: np.ndarray, reg: np.ndarray, C: float, tol: float):
    """:func:`core.qp.margin_qp` on all rows, solved on a working set of the rows that can be support vectors.

    Only rows with αᵢ > 0 shape the solution, and they lie at or inside the margin. Solve on a few rows S
    nearest the other class (by a least-squares separator), then check every row outside S: if each has yᵢf(xᵢ) ≥ 1, then αᵢ = 0, ξᵢ = 0
    there satisfies all of the KKT conditions (feasible, complementary) and the solution on S is the
    solution on all rows, exactly. Otherwise add the violators and solve again. When the violators are
    many (noisy data, small C: most rows are support vectors) the whole problem is solved at once.

    Parameters
    ----------
    A : ndarray of shape (n, m)
        Rows yᵢ·(x'ᵢ, 1), the last column yᵢ.
    reg, C, tol
        As for :func:`core.qp.margin_qp`.

    Returns
    -------
    z, alpha, s, iterations
        As for :func:`core.qp.margin_qp` (iterations summed over the rounds).
    """
    n = A.shape[0]
    if n <= 8 * WS_FIRST:
        return margin_qp(A, reg, C, tol)
    yy = A[:, -1]
    # a first separator from least squares, A z₀ ≈ 1 (Fisher's discriminant): rows with small A z₀ lie nearest
    # the other class
    z0 = np.linalg.lstsq(A, np.ones(n), rcond=None)[0]
    p = A @ z0
    if int((p <= 0).sum()) > n // 8:  # z₀ misclassifies many rows: many support vectors, solve all at once
        return margin_qp(A, reg, C, tol)
    first = []
    for cls in (1.0, -1.0):
        rows = np.flatnonzero(yy == cls)
        k = min(WS_FIRST, rows.size)
        first.append(rows[np.argpartition(p[rows], k - 1)[:k]])
    S = np.concatenate(first)
    iters = 0
    for _ in range(WS_ROUNDS):
        try:
            z, a_S, s_S, it = margin_qp(A[S], reg, C, tol, max_iter=WS_ITER)
        except ValueError:
            break  # a hard subproblem: the whole one is no harder
        iters += it
        m = A @ z  # yᵢ f(xᵢ) on every row
        inside = np.zeros(n, dtype=bool)
        inside[S] = True
        viol = np.flatnonzero(~inside & (m < 1.0 - 1e-9))
        if not viol.size:  # KKT holds on every row: the solution on S is the solution
            alpha = np.zeros(n)
            alpha[S] = a_S
            s = np.maximum(m - 1.0, 0.0)  # the rows outside S: αᵢ = 0, slack of yᵢf ≥ 1
            s[S] = s_S
            return z, alpha, s, iters
        if S.size + viol.size > n // 3:
            break  # most rows will be support vectors: one solve on all of them is cheaper
        S = np.concatenate([S, viol])  # all of them: few rounds, each a solve of a few dozen iterations
    z, alpha, s, it = margin_qp(A, reg, C, tol)
    return z, alpha, s, iters + it


def fit_svm(X, y, *, C: float = 1.0, kernel: str = "linear", tol: float = TOL, **params) -> SVMSolution:
    """The soft-margin (C finite) or hard-margin (C = math.inf) SVM.

    The linear kernel is solved exactly by the interior-point method; the
    polynomial and RBF kernels by SMO on kernel columns computed as needed (libsvm's stopping
    rule, gap < 1e-3/max(1, C): libsvm's default tolerance up to C = 1, tighter above, where C Σξ would
    multiply the slack the tolerance leaves; at most 20,000 iterations, after
    which ``converged`` is False), with w = None: f(x) = Σ αᵢyᵢK(xᵢ, x) + b is evaluated
    by :func:`core.dual.decision_function`.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels in {−1, +1}, both present.
    C : float
        1e-6 ≤ C ≤ 1e6, or math.inf for the hard margin. w and b are exact
        throughout; the αᵢ of the free support vectors are accurate while C·σ²
        stays below about 1e8 (σ the spread of the data), beyond which they are
        lost in the scale of the αᵢ at the bound C.
    kernel : {"linear", "poly", "rbf"}
        The hard margin (C = math.inf) is offered for the linear kernel only.
    tol : float
        Residual and complementarity tolerance of the interior-point method.
    **params
        degree, coef0 (poly), gamma (rbf); see :func:`core.dual.kernel_params`.

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
    kp = kernel_params(kernel, **params)
    if not isinstance(C, numbers.Real) or isinstance(C, bool) or math.isnan(C):
        raise ValueError(f"C must be a positive number or math.inf, got {C!r}")
    hard = C == math.inf
    if not hard:
        C = check_real("C", C, low=C_MIN, high=C_MAX)
    if (ya > 0).all() or (ya < 0).all():
        raise ValueError("the SVM needs points of both classes")
    if kernel != "linear":
        if hard:
            raise ValueError("the hard margin (C = ∞) is offered for the linear kernel; use a finite C with a kernel")
        return _fit_kernel(Xa, ya, C, kernel, kp)
    if hard and not is_separable(Xa, ya, fit_intercept=True):
        raise ValueError("the hard margin (C = ∞) needs linearly separable data, and these are not: "
                         "some point would have to be on the wrong side; use a finite C")
    n, d = Xa.shape
    # solve on x' = (x − x̄)/σ: b is free, so centring changes only b; and with w' = σw the problem is
    # ½‖w'‖² + σ²C Σξ, so C' = σ²C and α = α'/σ². The interior point then works at one scale for all data.
    mean = Xa.mean(axis=0)
    sigma = float(np.abs(Xa - mean).max()) or 1.0
    A = ya[:, None] * np.column_stack([(Xa - mean) / sigma, np.ones(n)])  # rows yᵢ(x'ᵢ, 1)
    reg = np.r_[np.ones(d), 0.0]  # ½‖w‖²: b is not regularised
    z, alpha, s_rows, iters = _working_set_qp(A, reg, C * sigma**2 if not hard else C, tol)
    w = z[:d] / sigma
    b = float(z[d] - w @ mean)
    # complementarity (αᵢ/max α)·sᵢ → 0: the larger of the two says whether row i is active (a support vector)
    support = alpha / max(float(alpha.max()), 1e-300) > s_rows
    alpha = alpha / sigma**2
    f = Xa @ w + b
    slack = np.zeros(n) if hard else slacks(ya * f)  # ξᵢ = max(0, 1 − yᵢ(w·xᵢ + b))
    nw = float(np.linalg.norm(w))
    return SVMSolution(
        alpha=readonly(np.where(support, alpha, 0.0)),  # the interior point leaves ~t/s on the others
        w=readonly(w),
        b=b,
        support=readonly(support),
        slack=readonly(slack),
        margin=1.0 / nw if nw > 0 else math.inf,
        objective=float(soft_margin_objective(nw**2, C, slack)),  # ½‖w‖² + C Σξᵢ (ξ = 0 for the hard margin)
        C=C,
        iterations=iters,
        decision=readonly(f),
    )


def _fit_kernel(X: np.ndarray, y: np.ndarray, C: float, kernel: str, kp: tuple) -> SVMSolution:
    """The soft-margin kernel SVM by SMO, asking for kernel columns only as points enter a working pair."""
    params = dict(kp)
    cache: dict[int, np.ndarray] = {}

    def col(i: int) -> np.ndarray:
        c = cache.get(i)
        if c is None:
            c = cache[i] = kernel_matrix(X[i:i + 1], X, kernel, **params)[0]  # K(xᵢ, ·), as the Gram matrix has it
        return c

    if kernel == "rbf":
        diag = np.ones(len(y))  # K(x, x) = exp(0)
    else:  # (x·x + c)^d, summed in the order the Gram matrix uses
        sq = X[:, 0] * X[:, 0]
        for k in range(1, X.shape[1]):
            sq = sq + X[:, k] * X[:, k]
        diag = _int_power(sq + params["coef0"], params["degree"])
    yf = y.astype(np.float64)
    eps = 1e-3 / max(1.0, C)  # the slack a tolerance leaves is multiplied by C in the objective
    alpha, b, iters, gap = _smo(col, diag, yf, C, eps=eps)
    S = np.flatnonzero(alpha > 0)  # every support vector was in a working pair: its column is cached
    c = alpha[S] * yf[S]  # αᵢyᵢ
    KS = np.array([col(int(i)) for i in S]).reshape(S.size, len(y))
    f = c @ KS + b  # f(xⱼ) = Σ αᵢyᵢK(xᵢ, xⱼ) + b
    slack = slacks(yf * f)
    wsq = max(float(c @ KS[:, S] @ c), 0.0)  # ‖w‖² = Σᵢⱼ αᵢαⱼyᵢyⱼKᵢⱼ in feature space
    return SVMSolution(
        alpha=readonly(alpha),
        w=None,
        b=b,
        support=readonly(alpha > 0),
        slack=readonly(slack),
        margin=1.0 / math.sqrt(wsq) if wsq > 0 else math.inf,
        objective=float(soft_margin_objective(wsq, C, slack)),
        C=C,
        iterations=iters,
        decision=readonly(f),
        kernel=kernel,
        kernel_params=kp,
        converged=gap < eps,
    )


C_GRID = tuple(float(f"{10 ** (k / 4):.4g}") for k in range(-12, 13))  # 10⁻³ … 10³, four per decade


def svm_grid(X, y, Cs=C_GRID, kernel: str = "linear", **params) -> list[SVMSolution]:
    """The exact SVM for each C of a grid (the frames of the page's live C slider).

    Parameters
    ----------
    X, y
        As for :func:`fit_svm`.
    Cs : sequence of float
        Increasing, finite values of C.

    Returns
    -------
    list of SVMSolution, one per C
    """
    return [fit_svm(X, y, C=C, kernel=kernel, **params) for C in Cs]


def path_of(sols) -> dict[str, list]:
    """Margin width 2/‖w‖, number of support vectors and Σξ of each solution, against its C.

    Parameters
    ----------
    sols : sequence of SVMSolution

    Returns
    -------
    dict
        ``C``, ``width``, ``support``, ``slack``: lists of equal length.
    """
    return {"C": [float(s.C) for s in sols], "width": [2 * s.margin for s in sols],
            "support": [int(s.support.sum()) for s in sols], "slack": [float(s.slack.sum()) for s in sols]}


SCHEDULES = ("pegasos", "constant")


@dataclass(frozen=True, eq=False)
class HingeSnapshot:
    """One step of hinge-loss SGD.

    Attributes
    ----------
    step : int
    w : ndarray of shape (d,)
    b : float
    examined : ndarray of shape (1,)
        The point of this step (empty at step 0).
    updated : ndarray of shape (m,)
        The point when its hinge was active (yᵢ(w·xᵢ + b) < 1 before the step), else empty.
    eta : float
        The step size ηₜ used (0 at step 0).
    objective : float
        ½‖w‖² + C Σ max(0, 1 − yᵢ(w·xᵢ + b)) after the step.
    """

    step: int
    w: np.ndarray
    b: float
    examined: np.ndarray
    updated: np.ndarray
    eta: float
    objective: float


@dataclass(frozen=True, eq=False)
class HingeRun:
    """A whole hinge-SGD run: (w, b) after every step, the points drawn, the active hinges, the objective.

    Attributes
    ----------
    X, y : the data
    C, lam : float
        The penalty and λ = 1/(N·C): the SGD minimises λ/2‖w‖² + (1/N) Σ hinge = J/(N·C).
    schedule : {"pegasos", "constant"}
    W : ndarray of shape (S + 1, d)
    B : ndarray of shape (S + 1,)
    order : ndarray of shape (S,)
    active : ndarray of shape (S,), bool
        Whether step s had yᵢ(w·xᵢ + b) < 1 (the hinge's subgradient −yᵢxᵢ entered).
    etas : ndarray of shape (S,)
    objective : ndarray of shape (S + 1,)
        J = ½‖w‖² + C Σ max(0, 1 − yᵢ(w·xᵢ + b)) after each step.
    """

    X: np.ndarray
    y: np.ndarray
    C: float
    lam: float
    schedule: str
    W: np.ndarray
    B: np.ndarray
    order: np.ndarray
    active: np.ndarray
    etas: np.ndarray
    objective: np.ndarray

    @property
    def n_steps(self) -> int:
        return int(self.order.size)

    def __len__(self) -> int:
        return self.n_steps + 1

    def __getitem__(self, step: int) -> HingeSnapshot:
        step = int(step) + (len(self) if int(step) < 0 else 0)
        if not 0 <= step <= self.n_steps:
            raise IndexError(f"step must be between 0 and {self.n_steps}, got {step}")
        ex = np.array([], dtype=np.int64) if step == 0 else self.order[step - 1:step].astype(np.int64)
        up = ex if step and self.active[step - 1] else np.array([], dtype=np.int64)
        return HingeSnapshot(step, readonly(self.W[step]), float(self.B[step]), readonly(ex), readonly(up),
                             float(self.etas[step - 1]) if step else 0.0, float(self.objective[step]))

    def __iter__(self):
        for s in range(len(self)):
            yield self[s]


def svm_objective(X, y, W, B, C: float) -> np.ndarray:
    """J(w, b) = ½‖w‖² + C Σᵢ max(0, 1 − yᵢ(w·xᵢ + b)) for each row of W, in chunks of about 2,000,000 numbers.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
    W : ndarray of shape (k, d)
    B : ndarray of shape (k,)

    Returns
    -------
    ndarray of shape (k,)
    """
    W = np.atleast_2d(W)
    out = np.empty(W.shape[0])
    step = max(1, 2_000_000 // max(len(y), 1))
    for a in range(0, W.shape[0], step):
        m = y * (W[a:a + step] @ X.T + np.asarray(B)[a:a + step, None])  # yᵢ(w·xᵢ + b)
        out[a:a + step] = soft_margin_objective((W[a:a + step] ** 2).sum(axis=1), C, slacks(m))
    return out


def constant_eta_fits(eta: float, n: int, C: float) -> bool:
    """Whether a constant step η keeps hinge SGD's shrink factor 1 − ηλ positive on n points at penalty C.

    Parameters
    ----------
    eta : float
    n : int
        N, the number of points.
    C : float

    Returns
    -------
    bool
    """
    # ηλ < 1 with λ = 1/(N·C): w ← (1 − ηλ)·w + η·y·x must not turn w around
    return eta / (n * C) < 1.0


def hinge_sgd(X, y, *, C: float = 1.0, schedule: str = "pegasos", eta: float = 0.1, max_steps: int = 2000,
              seed: int = 0) -> HingeRun:
    """Stochastic subgradient descent on the hinge loss, one random point per step (the seeds' SGD).

    It minimises λ/2‖w‖² + (1/N) Σ max(0, 1 − yᵢ(w·xᵢ + b)) with λ = 1/(N·C),
    whose minimiser is the soft-margin SVM's for that C. At step t, for the
    drawn point xᵢ: if yᵢ(w·xᵢ + b) < 1 (the hinge is active; at exactly 1 the
    subgradient 0 is taken), w ← (1 − ηₜλ)w + ηₜyᵢxᵢ and b ← b + ηₜyᵢ; otherwise
    w ← (1 − ηₜλ)w. ηₜ = 1/(λ(t + t₀)) with t₀ = 1/λ (Pegasos' 1/(λt), offset
    so that the first steps are about 1 rather than N·C: the bias is not
    shrunk and would otherwise jump far), or a constant η < 1/λ.

    Parameters
    ----------
    X, y
        The data (labels ±1).
    C : float
        1e-6 ≤ C ≤ 1e6.
    schedule : {"pegasos", "constant"}
    eta : float
        The constant step (schedule "constant"), 1e-6 ≤ η ≤ 10.
    max_steps : int
        1 ≤ max_steps ≤ 200,000.
    seed : int

    Returns
    -------
    HingeRun
    """
    Xa, ya = validate_data(X, y)
    C = check_real("C", C, low=C_MIN, high=C_MAX)
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(repr(s) for s in SCHEDULES)}, got {schedule!r}")
    eta = check_real("eta", eta, low=1e-6, high=10.0)
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or not 1 <= max_steps <= 200_000:
        raise ValueError(f"max_steps must be an integer between 1 and 200,000, got {max_steps!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    n, d = Xa.shape
    lam = 1.0 / (n * C)
    t0 = 1.0 / lam  # offset: η₁ = 1/(λ(1 + t₀)) ≈ 1, not N·C (the unshrunk bias would jump by ±N·C)
    if schedule == "constant" and not constant_eta_fits(eta, n, C):
        raise ValueError(f"a constant η must stay below 1/λ = N·C = {1 / lam:.4g} (here η = {eta:g}), or the "
                         "shrink factor 1 − ηλ turns w around; lower η or raise C")
    rng = np.random.default_rng(seed)
    order = rng.integers(0, n, size=max_steps)
    W = np.zeros((max_steps + 1, d))
    B = np.zeros(max_steps + 1)
    active = np.zeros(max_steps, dtype=bool)
    etas = np.empty(max_steps)
    w, b = np.zeros(d), 0.0
    yf = ya.astype(np.float64)
    for t in range(1, max_steps + 1):
        i = int(order[t - 1])
        et = 1.0 / (lam * (t + t0)) if schedule == "pegasos" else eta
        m = yf[i] * (float(Xa[i] @ w) + b)  # yᵢ(w·xᵢ + b) before the step
        w = (1.0 - et * lam) * w  # the regulariser's shrink, λ/2‖w‖² → −ηλw
        if m < 1.0:  # the hinge is active: its subgradient is −yᵢxᵢ (and −yᵢ for b)
            w = w + et * yf[i] * Xa[i]
            b = b + et * yf[i]
            active[t - 1] = True
        W[t], B[t], etas[t - 1] = w, b, et
    return HingeRun(
        X=Xa, y=ya, C=C, lam=lam, schedule=schedule, W=readonly(W), B=readonly(B), order=readonly(order),
        active=readonly(active), etas=readonly(etas), objective=readonly(svm_objective(Xa, yf, W, B, C)),
    )
