"""The dual (kernel) perceptron, its Gram matrix and the kernels.

The seeds write the perceptron's weights as a combination of the points it
got wrong: w = Σᵢ αᵢyᵢxᵢ. On a mistake at xᵢ (yᵢ·f(xᵢ) <= 0) the dual update
is αᵢ ← αᵢ + η, b ← b + η·yᵢ, and the prediction is
f(x) = Σᵢ αᵢyᵢK(xᵢ, x) + b. With the linear kernel K(x, z) = x·z this is the
primal perceptron with τ = η, step for step; with a polynomial or RBF kernel
the boundary f(x) = 0 is a curve.

A precomputed Gram matrix Gᵢⱼ = K(xᵢ, xⱼ) turns each check into a lookup
sum over G's row instead of N kernel evaluations. This module goes one step
further and keeps f at every point current: an update on xᵢ adds
η·yᵢ·(Gᵢⱼ + 1) to each f(xⱼ), O(N) per update and O(1) per check.

:func:`run_dual` keeps a whole run compactly (which point each update hit);
iterating over it yields :class:`~core.snapshot.DualSnapshot` objects.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.bounds import is_separable
from core.formulas import dual_alpha
from core.snapshot import DualProblem, DualSnapshot, RunSteps, readonly
from core.validate import check_choice, check_real, is_int, validate_data

KERNELS = ("linear", "poly", "rbf")
VARIANTS = ("cyclic", "random")
N_LIMIT = 5000  # the Gram matrix has N² entries: 200 MB at N = 5,000
MAX_STEPS_LIMIT = 1_000_000
WORK_LIMIT = 200_000_000  # max_steps × N: each update costs O(N)
ETA_LIMIT = 1e6
ETA_MIN = 1e-6
DEGREE_LIMIT = 10
COEF0_LIMIT = 1e3
GAMMA_LIMIT = 1e6
_EMPTY = readonly(np.zeros(0, dtype=np.int64))
_CHUNK = 2_000_000  # numbers per block when a kernel matrix is built in pieces
CHECKPOINT = 256  # g is saved every this many updates, so any state is at most 255 row additions away


def kernel_params(kernel: str, **params) -> tuple[tuple[str, float], ...]:
    """Validate a kernel's parameters and return them in a fixed order.

    Parameters
    ----------
    kernel : {"linear", "poly", "rbf"}
        K(x, z) = x·z; (x·z + coef0)^degree; exp(−γ‖x − z‖²).
    **params
        ``degree`` (integer 1..10, default 2) and ``coef0`` (0..1000, default 1)
        for "poly"; ``gamma`` (0 < γ <= 1e6, default 1) for "rbf". Parameters
        of another kernel are ignored, so a page can pass all of them.

    Returns
    -------
    tuple of (str, float or int)
        E.g. (("degree", 2), ("coef0", 1.0)); empty for "linear".
    """
    check_choice("kernel", kernel, KERNELS)
    unknown = set(params) - {"degree", "coef0", "gamma"}
    if unknown:
        raise ValueError(f"unknown kernel parameter(s) {', '.join(sorted(unknown))}; "
                         "the kernels take degree, coef0 (poly) and gamma (rbf)")
    if kernel == "poly":
        degree = params.get("degree", 2)
        if isinstance(degree, float) and degree.is_integer():
            degree = int(degree)
        if not is_int(degree) or not 1 <= degree <= DEGREE_LIMIT:
            raise ValueError(f"degree must be an integer between 1 and {DEGREE_LIMIT}, got {degree!r}")
        coef0 = check_real("coef0", params.get("coef0", 1.0), low=0.0, high=COEF0_LIMIT)
        return (("degree", int(degree)), ("coef0", coef0))
    if kernel == "rbf":
        gamma = check_real("gamma", params.get("gamma", 1.0), low=0.0, high=GAMMA_LIMIT, strict_low=True)
        return (("gamma", gamma),)
    return ()


def _dot(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """[aᵢ·bⱼ] summed in a fixed order over the d coordinates (so G is exactly symmetric)."""
    out = A[:, 0, None] * B[None, :, 0]
    for j in range(1, A.shape[1]):
        out = out + A[:, j, None] * B[None, :, j]
    return out


def _int_power(A: np.ndarray, d: int) -> np.ndarray:
    """A**d for a whole number d >= 1 by repeated squaring (several times faster than a float power)."""
    out, base = None, A
    while d:
        if d & 1:
            out = base.copy() if out is None else out * base
        d >>= 1
        if d:
            base = base * base
    return out


def kernel_matrix(A, B, kernel: str = "linear", **params) -> np.ndarray:
    """The matrix [K(aᵢ, bⱼ)] of a kernel between two point sets.

    Parameters
    ----------
    A : ndarray of shape (m, d)
    B : ndarray of shape (n, d)
    kernel, **params
        See :func:`kernel_params`.

    Returns
    -------
    ndarray of shape (m, n)

    Raises
    ------
    ValueError
        On an unknown kernel or parameter, or when the polynomial kernel
        overflows (its values pass 1e300).
    """
    p = dict(kernel_params(kernel, **params))
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    if kernel == "rbf":
        sq = (A[:, 0, None] - B[None, :, 0]) ** 2  # ‖a − b‖² coordinate by coordinate
        for j in range(1, A.shape[1]):
            sq = sq + (A[:, j, None] - B[None, :, j]) ** 2
        return np.exp(-p["gamma"] * sq)  # K = exp(−γ‖a − b‖²)
    K = _dot(A, B)  # K = a·b
    if kernel == "poly":
        with np.errstate(over="ignore", invalid="ignore"):
            K = _int_power(K + p["coef0"], p["degree"])  # K = (a·b + coef0)^degree
        if K.size and not (np.isfinite(K).all() and np.abs(K).max() <= 1e300):
            raise ValueError(f"the polynomial kernel overflows: (x·z + {p['coef0']:g})^{p['degree']} passes 1e300 "
                             "on these points; lower the degree or rescale the data")
    return K


def gram(X, kernel: str = "linear", **params) -> np.ndarray:
    """The Gram matrix Gᵢⱼ = K(xᵢ, xⱼ).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Finite points, n <= 5,000.
    kernel, **params
        See :func:`kernel_params`.

    Returns
    -------
    ndarray of shape (n, n)
        Symmetric (exactly: each entry is computed in the same order as its mirror), read-only.
    """
    Xa = np.asarray(X, dtype=np.float64)
    if Xa.ndim != 2:
        raise ValueError(f"X must be a 2-D array of shape (n, d), got shape {Xa.shape}")
    if Xa.shape[0] > N_LIMIT:
        raise ValueError(f"the Gram matrix has N² entries: N must be at most {N_LIMIT:,}, got {Xa.shape[0]:,}")
    return readonly(kernel_matrix(Xa, Xa, kernel, **params))


def decision_function(X, y, alpha, b, points, kernel: str = "linear", **params) -> np.ndarray:
    """f(p) = Σᵢ αᵢyᵢK(xᵢ, p) + b at arbitrary points, for one α or a stack of them.

    Only the points with some αᵢ ≠ 0 enter the kernel matrix, and the points are
    taken in blocks, so memory stays about 2,000,000 numbers however many
    points are asked for; the linear kernel forms w = Σ αᵢyᵢxᵢ instead.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
    alpha : ndarray of shape (n,) or (k, n)
    b : float or ndarray of shape (k,)
    points : ndarray of shape (m, d)
    kernel, **params
        See :func:`kernel_params`.

    Returns
    -------
    ndarray of shape (m,) or (k, m)
    """
    X = np.asarray(X, dtype=np.float64)
    P = np.asarray(points, dtype=np.float64)
    A = np.atleast_2d(np.asarray(alpha, dtype=np.float64))
    bb = np.broadcast_to(np.asarray(b, dtype=np.float64), (A.shape[0],))
    C = A * np.asarray(y, dtype=np.float64)  # αᵢyᵢ, shape (k, n)
    if kernel == "linear":
        kernel_params(kernel, **params)
        W = C @ X  # w = Σ αᵢyᵢxᵢ, shape (k, d)
        f = _dot(W, P) + bb[:, None]  # f(p) = w·p + b
    else:
        S = np.flatnonzero((C != 0).any(axis=0))  # the points f sums over
        f = np.empty((A.shape[0], P.shape[0]))
        step = max(1, _CHUNK // max(S.size, 1))
        for a in range(0, P.shape[0], step):
            K = kernel_matrix(X[S], P[a:a + step], kernel, **params)  # (|S|, block)
            f[:, a:a + step] = C[:, S] @ K + bb[:, None]
    return f if np.ndim(alpha) == 2 else f[0]


# ----------------------------------------------------------------------------
# the trajectory
# ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class DualTrajectory(RunSteps):
    """A whole dual perceptron run, stored compactly; indexing gives snapshots.

    Attributes
    ----------
    problem : DualProblem
        The data, the kernel and the Gram matrix.
    variant : {"cyclic", "random"}
    eta : float
        η, the amount αᵢ grows by on a mistake at xᵢ.
    n_steps : int
        S, the index of the last step.
    update_steps : ndarray of shape (K,)
        The steps that made an update, increasing.
    update_points : ndarray of shape (K,)
        The point each update was on.
    B : ndarray of shape (K + 1,)
        b after each update (B[0] = 0).
    checkpoints : ndarray of shape (⌊K / 256⌋ + 1, n)
        h(xⱼ) = Σᵢ cᵢyᵢGᵢⱼ at every point after 0, 256, 512, … updates, as the run summed it.
    order : ndarray of shape (S,) or None
        The points examined at steps 1..S (random order); None for cyclic.
    converged : bool
        Whether the last state has y·f(x) > 0 at every point.
    max_steps : int
        The step cap the run was given.
    step_cap : int
        The steps the run could take: ``max_steps``, or fewer where the work cap (steps × N at most
        200,000,000: each update costs O(N)) stops it first.
    """

    problem: DualProblem
    variant: str
    eta: float
    n_steps: int
    update_steps: np.ndarray
    update_points: np.ndarray
    B: np.ndarray
    checkpoints: np.ndarray
    order: np.ndarray | None
    converged: bool
    max_steps: int
    step_cap: int

    @property
    def stopped_by_work_cap(self) -> bool:
        """The run ended at the work cap, before ``max_steps`` and without converging."""
        return not self.converged and self.n_steps == self.step_cap < self.max_steps

    def scores(self, states) -> np.ndarray:
        """g = f/η at every point after each of the given numbers of updates, exactly as the run computed it.

        g = h + β with h(xⱼ) = Σᵢ cᵢyᵢGᵢⱼ summed update by update, in the
        run's order, from the nearest checkpoint, and β = Σ cᵢyᵢ a whole number:
        the same floating-point sums the run judged its mistakes by, so a point
        exactly on the boundary (a tie) is judged alike by the run, the
        snapshots, the figure and the text.

        Parameters
        ----------
        states : array_like of shape (k,)
            Update counts 0..K.

        Returns
        -------
        ndarray of shape (k, n)
        """
        states = np.asarray(states, dtype=np.int64).reshape(-1)
        p = self.problem
        yf = p.y.astype(np.float64)
        out = np.empty((states.size, p.n))
        beta = np.concatenate([[0], np.cumsum(p.y[self.update_points])])  # β after each update
        h, at = None, -1
        for j in np.argsort(states, kind="stable"):  # increasing states: walk forward, restart at checkpoints
            k = int(states[j])
            base = k // CHECKPOINT * CHECKPOINT
            if h is None or at < base or at > k:
                h, at = self.checkpoints[k // CHECKPOINT], base
            for u in range(at, k):  # at most 255 row additions past a checkpoint
                h = _add_update(h, p.G, yf, int(self.update_points[u]))
            at = k
            out[j] = h + int(beta[k])
        return out

    def decisions(self, steps) -> np.ndarray:
        """f(xⱼ) = η·g(xⱼ) at every point after each of ``steps``, shape (k, n)."""
        k = self.state_index(np.asarray(steps).reshape(-1))
        states, inverse = np.unique(k, return_inverse=True)
        return self.eta * self.scores(states)[inverse.reshape(-1)]

    def alphas(self, states) -> np.ndarray:
        """α after each of the given numbers of updates.

        Parameters
        ----------
        states : array_like of shape (k,)
            Update counts 0..K (e.g. from :meth:`state_index`).

        Returns
        -------
        ndarray of shape (k, n)
            αᵢ = η · (updates on xᵢ among the first ``states[j]``).
        """
        states = np.asarray(states, dtype=np.int64).reshape(-1)
        n = self.problem.n
        out = np.empty((states.size, n))
        order = np.argsort(states, kind="stable")
        counts = np.zeros(n, dtype=np.int64)
        done = 0
        for j in order:  # walk the updates once, in increasing state order
            k = int(states[j])
            np.add.at(counts, self.update_points[done:k], 1)
            done = k
            out[j] = dual_alpha(counts, self.eta)  # αᵢ ← αᵢ + η per update on xᵢ: αᵢ = η·cᵢ
        return out

    def _states_at(self, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(α, b) after k updates, shapes (len(k), n) and (len(k),); :meth:`states` maps steps to k."""
        return self.alphas(k), self.B[k]

    def weights(self, steps) -> np.ndarray:
        """w = Σᵢ αᵢyᵢxᵢ after each of ``steps`` (linear kernel only), shape (k, d)."""
        if self.problem.kernel != "linear":
            raise ValueError("w = Σ αᵢyᵢφ(xᵢ) is in the plane only for the linear kernel")
        A, _ = self.states(steps)
        return (A * self.problem.y) @ self.problem.X

    def epoch(self, step: int) -> int:
        """Passes over the data begun by ``step``: ⌈s/N⌉."""
        return -(-int(step) // self.problem.n)

    def examined(self, step: int) -> np.ndarray:
        """The point examined at ``step``, shape (1,) (empty at step 0)."""
        if step == 0:
            return _EMPTY
        i = (step - 1) % self.problem.n if self.order is None else int(self.order[step - 1])
        return readonly(np.array([i], dtype=np.int64))

    def updated(self, step: int) -> np.ndarray:
        """The point whose α grew at ``step``, shape (1,), or empty."""
        pos = self.update_position(step)
        if pos is None:
            return _EMPTY
        return readonly(self.update_points[pos:pos + 1].astype(np.int64))

    def mistakes(self, steps) -> np.ndarray:
        """Masks of the mistakes y·f(x) <= 0 after each of ``steps``, shape (k, n), bool (judged as the run did)."""
        k = self.state_index(np.asarray(steps).reshape(-1))
        states, inverse = np.unique(k, return_inverse=True)
        return (self.problem.y * self.scores(states) <= 0)[inverse.reshape(-1)]

    def kernel_evaluations(self) -> dict[str, int]:
        """What the run cost in kernel evaluations, with and without the Gram matrix.

        Without G, checking xᵢ at a step computes f(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ) + b
        afresh: one evaluation per point with αⱼ > 0 at that moment. With G,
        its N(N+1)/2 distinct entries (G is symmetric) are computed once and
        every check only reads them.

        Returns
        -------
        dict
            ``without_gram`` (Σ over steps of |{j : αⱼ > 0}| before the step),
            ``with_gram`` (N(N+1)/2), ``saved`` (their difference, negative when a
            short run did not pay for G), ``checks`` (S, plus the N checks of the
            final pass that proves convergence, when the run converged).
        """
        n, S = self.problem.n, self.n_steps
        seen = np.zeros(n, dtype=bool)
        nnz = np.zeros(self.n_updates + 1, dtype=np.int64)  # |{j : αⱼ > 0}| after k updates
        for k, i in enumerate(self.update_points.tolist(), start=1):
            nnz[k] = nnz[k - 1] + (not seen[i])
            seen[i] = True
        # the step s is examined at the state after the updates made before s
        before = self.state_index(np.arange(1, S + 1) - 1)
        without = int(nnz[before].sum())
        checks = S
        if self.converged:  # the run proved convergence by checking every point once more at the last state
            without += n * int(nnz[-1])
            checks += n
        once = n * (n + 1) // 2  # the distinct entries of the symmetric G
        return {"without_gram": without, "with_gram": once, "saved": without - once, "checks": checks}

    def __getitem__(self, step: int) -> DualSnapshot:
        step = self.checked_step(step)
        k = int(self.state_index(step))
        return DualSnapshot(
            step=step,
            alpha=readonly(self.alphas([k])[0]),
            b=float(self.B[k]),
            f=readonly(self.eta * self.scores([k])[0]),
            examined=self.examined(step),
            updated=self.updated(step),
            converged=bool(self.converged and step == self.n_steps),
            epoch=self.epoch(step),
            problem=self.problem,
        )


# ----------------------------------------------------------------------------
# the engine
# ----------------------------------------------------------------------------


def _add_update(h: np.ndarray, G: np.ndarray, y: np.ndarray, i: int) -> np.ndarray:
    """h after an update on xᵢ: every h(xⱼ) grows by yᵢGᵢⱼ. The one expression all code paths use."""
    return h + y[i] * G[i]


def _run(G: np.ndarray, y: np.ndarray, max_steps: int, cyclic: bool, rng):
    """Dual perceptron on a Gram matrix; see :func:`run_dual`.

    With cᵢ the number of updates on xᵢ (αᵢ = η·cᵢ, b = η·Σ cᵢyᵢ), the engine
    keeps h(xⱼ) = Σᵢ cᵢyᵢGᵢⱼ current at every point and the whole number
    β = Σ cᵢyᵢ; then f = η·g with g = h + β, so the mistakes y·f <= 0 do not
    depend on η (and β, kept exactly, cancels without rounding). Between two updates the next L
    examined points are checked in one vectorised lookup (L doubles after a
    clean block). Convergence: in cyclic order a clean pass of N examinations
    at one state proves it; in random order a full check runs once a state
    has survived min(N, 256) examinations. g is saved every CHECKPOINT updates.

    Parameters
    ----------
    G : ndarray of shape (n, n)
    y : ndarray of shape (n,)
        Labels ±1 as floats.
    max_steps : int
    cyclic : bool
    rng : numpy.random.Generator
        Draws the random order (unused when cyclic).

    Returns
    -------
    tuple
        (n_steps, update_steps, update_points, checkpoints of h (m, n), order, converged).
    """
    n = y.size
    h = np.zeros(n)  # h(xⱼ) = Σᵢ cᵢyᵢGᵢⱼ: zero at α = 0
    beta = 0  # β = Σ cᵢyᵢ, so b = η·β
    steps, points, saved = [], [], [h]
    order = None if cyclic else np.empty(max_steps, dtype=np.int64)
    filled = 0
    s = last = 0
    checked = False
    patience = min(n, 256)
    ar = np.arange(1 << 16)
    L = 64
    converged = False
    while s < max_steps:
        L = min(L, max_steps - s)
        if not cyclic:
            while filled < min(s + max(L, 512), max_steps):  # the same stream as the primal's for one seed
                k = min(4096, max_steps - filled)
                order[filled:filled + k] = rng.integers(0, n, size=k)
                filled += k
        idx = (s + ar[:L]) % n if cyclic else order[s:s + L]  # examined at s+1..s+L
        bad = y[idx] * (h[idx] + beta) <= 0  # mistake: y·f(x) <= 0, f = η·(h + β)
        if not bad.any():
            s += L
            L = min(2 * L, ar.size)
            if cyclic and s - last >= n:  # a clean pass of N points at one state
                converged = True
                break
            if not cyclic and not checked and s - last >= patience:
                checked = True
                if (y * (h + beta) > 0).all():
                    converged = True
                    break
            continue
        j = int(bad.argmax())
        if cyclic and s + j - last >= n:
            converged = True
            break
        s += j + 1
        i = int(idx[j])
        h = _add_update(h, G, y, i)  # αᵢ ← αᵢ + η: every h(xⱼ) grows by yᵢGᵢⱼ
        beta += int(y[i])  # b ← b + η·yᵢ
        steps.append(s)
        points.append(i)
        if len(points) % CHECKPOINT == 0:
            saved.append(h)
        last, checked = s, False
        L = max(8, L // 4)
    if not converged:
        converged = bool((y * (h + beta) > 0).all())
    if converged:
        s = last  # the run ends at the first state that misclassifies nothing
    if order is not None:
        order = order[:s].copy()
    return s, steps, points, np.array(saved), order, converged


def max_steps_allowed(n: int) -> int:
    """The steps a dual run on N points may take before its work cap stops it: 1,000,000, and steps × N <= 200,000,000."""
    return max(1, min(MAX_STEPS_LIMIT, WORK_LIMIT // max(int(n), 1)))


def run_dual(
    X,
    y,
    *,
    eta: float = 1.0,
    kernel: str = "linear",
    variant: str = "cyclic",
    max_steps: int = 10_000,
    seed: int | np.random.Generator = 0,
    G=None,
    **params,
) -> DualTrajectory:
    """Run the dual perceptron to convergence or ``max_steps`` and keep the whole run.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points, n <= 5,000.
    y : array_like of shape (n,)
        Labels in {−1, +1}.
    eta : float
        η, 1e-6 <= η <= 1e6. Starting from α = 0, b = 0, η only scales α, b
        and f = η·g, and the mistakes are decided on g: every η makes the same ones.
    kernel : {"linear", "poly", "rbf"}
    variant : {"cyclic", "random"}
        The points in order epoch after epoch, or one uniformly chosen point
        per step (the same order as the primal perceptron's for one seed).
    max_steps : int
        0 <= max_steps <= 1,000,000. A run also stops at the work cap, steps × N = 200,000,000,
        and says so (``stopped_by_work_cap``); a run that converges first is not affected.
    seed : int or numpy.random.Generator
        Source of the random order.
    G : array_like of shape (n, n), optional
        The Gram matrix of X for this kernel, if already computed (e.g. cached).
    **params
        The kernel's parameters (see :func:`kernel_params`).

    Returns
    -------
    DualTrajectory
        Stops at the first state with y·f(x) > 0 at every point (``converged``)
        or after ``max_steps`` steps (data not separable in the kernel's
        feature space never converge).
    """
    Xa, ya = validate_data(X, y)
    n = Xa.shape[0]
    check_choice("variant", variant, VARIANTS)
    eta = check_real("eta", eta, low=ETA_MIN, high=ETA_LIMIT)
    kp = kernel_params(kernel, **params)
    if n > N_LIMIT:
        raise ValueError(f"the dual perceptron keeps the N×N Gram matrix: N must be at most {N_LIMIT:,}, got {n:,}")
    if not is_int(max_steps) or not 0 <= max_steps <= MAX_STEPS_LIMIT:
        raise ValueError(f"max_steps must be an integer between 0 and {MAX_STEPS_LIMIT:,}, got {max_steps!r}")
    cap = min(int(max_steps), max_steps_allowed(n))  # the work cap stops a run, never refuses it
    if G is None:
        Ga = gram(Xa, kernel, **dict(kp))
    else:
        Ga = np.asarray(G, dtype=np.float64)
        if Ga.shape != (n, n) or not np.isfinite(Ga).all():
            raise ValueError(f"G must be the finite ({n}, {n}) Gram matrix of X, got shape {Ga.shape}")
        Ga = readonly(Ga)
    if isinstance(seed, np.random.Generator):
        rng = seed
    elif is_int(seed) and seed >= 0:
        rng = np.random.default_rng(int(seed))
    else:
        raise ValueError(f"seed must be a non-negative integer or a numpy Generator, got {seed!r}")
    s, steps, points, saved, order, converged = _run(Ga, ya.astype(np.float64), cap, variant == "cyclic", rng)
    points = np.asarray(points, dtype=np.int64)
    counts_b = np.concatenate([[0], np.cumsum(ya[points])])  # Σ cᵢyᵢ after each update
    return DualTrajectory(
        problem=DualProblem(X=Xa, y=ya, G=Ga, kernel=kernel, kernel_params=kp),
        variant=variant,
        eta=eta,
        n_steps=int(s),
        update_steps=readonly(np.asarray(steps, dtype=np.int64)),
        update_points=readonly(points),
        B=readonly(eta * counts_b.astype(np.float64)),  # b = η·Σ cᵢyᵢ
        checkpoints=readonly(saved),
        order=None if order is None else readonly(order),
        converged=bool(converged),
        max_steps=int(max_steps),
        step_cap=cap,
    )


@dataclass(frozen=True)
class Agreement:
    """How a linear-kernel dual run compares with the primal perceptron (τ = η) on the same order.

    Attributes
    ----------
    same_mistakes : bool
        Both updated at the same steps on the same points.
    diverged_at : int or None
        The first step where they differ (None when they agree throughout).
    max_w_diff, max_b_diff : float
        max over the compared steps (those before any divergence) of
        ‖w_dual − w_primal‖∞ and |b_dual − b_primal|, w_dual recovered from α as Σ αᵢyᵢxᵢ.
    steps_compared : int
    """

    same_mistakes: bool
    diverged_at: int | None
    max_w_diff: float
    max_b_diff: float
    steps_compared: int


def primal_agreement(dual, primal, steps=None) -> Agreement:
    """Compare a linear-kernel dual run with a primal run (see :class:`Agreement`).

    Parameters
    ----------
    dual : DualTrajectory
        Linear kernel.
    primal : core.perceptron.Trajectory
        Same data, τ = η, same variant and seed, started at w = 0, b = 0 with the rule y·a <= 0.
    steps : array_like of shape (k,), optional
        Steps at which w and b are compared (default every step up to the
        shorter run, at most 2,000 of them evenly spaced).
    """
    if dual.problem.kernel != "linear":
        raise ValueError("only the linear kernel has a primal w to compare with")
    S = min(dual.n_steps, primal.n_steps)
    K = min(dual.n_updates, primal.n_updates)
    ds, ps = dual.update_steps[:K], primal.update_steps[:K]
    dp = dual.update_points[:K]
    n = dual.problem.n
    pp = (ps - 1) % n if primal.order is None else primal.order[ps - 1]  # online: the examined point is updated
    differ = np.flatnonzero((ds != ps) | (dp != pp))
    diverged = None
    if differ.size:
        diverged = int(min(ds[differ[0]], ps[differ[0]]))
    elif dual.n_updates != primal.n_updates:
        # one run went on updating: a divergence if the other had converged, or had run that far
        more, fewer = (dual, primal) if dual.n_updates > primal.n_updates else (primal, dual)
        nxt = int(more.update_steps[K])
        if fewer.converged or nxt <= fewer.n_steps:
            diverged = nxt
    elif dual.converged != primal.converged and dual.n_steps == primal.n_steps:
        diverged = S  # the same updates, but one judged the last state converged and the other did not (a tie)
    if diverged is not None:
        S = min(S, diverged - 1)  # compare w and b only where the runs still agree
    if steps is None:
        steps = np.unique(np.linspace(0, S, min(S + 1, 2000)).round().astype(np.int64))
    steps = np.asarray(steps, dtype=np.int64)
    steps = steps[(steps >= 0) & (steps <= S)]
    Wd = dual.weights(steps)
    Bd = dual.B[dual.state_index(steps)]
    Wp, Bp = primal.states(steps)
    return Agreement(
        same_mistakes=diverged is None,
        diverged_at=diverged,
        max_w_diff=float(np.abs(Wd - Wp).max()) if steps.size else 0.0,
        max_b_diff=float(np.abs(Bd - Bp).max()) if steps.size else 0.0,
        steps_compared=int(steps.size),
    )


def separable_in_feature_space(X, y, kernel: str = "linear", **params) -> bool | None:
    """Whether some f(x) = Σ αᵢyᵢK(xᵢ, x) + b separates the data, where that is known.

    - Two copies of one point with both labels: no kernel separates them (False).
    - Linear kernel, and the polynomial kernel of degree 1 (x·z + c, a linear
      kernel with a constant feature): exactly, by :func:`core.bounds.is_separable`.
    - RBF kernel on distinct points: G is positive definite, so α with
      f(xᵢ) = yᵢ exists (True); but when two points of opposite labels are so
      close that K(xᵢ, xⱼ) rounds to 1 the sums cannot tell them apart (False),
      and within 1e-9 of 1 the question is left open (None).
    - Polynomial kernel of degree >= 2: not decided here (None).
    """
    Xa, ya = validate_data(X, y)
    kp = dict(kernel_params(kernel, **params))
    _, first, inverse = np.unique(Xa, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    if (ya != ya[first][inverse]).any():
        return False  # one point carries both labels
    if kernel == "linear" or (kernel == "poly" and kp["degree"] == 1):
        return bool(is_separable(Xa, ya, fit_intercept=True))
    if kernel == "rbf":
        # distinct points have a positive definite G, unless two with opposite labels are so close that
        # K(xᵢ, xⱼ) rounds to 1: then φ(xᵢ) = φ(xⱼ) as far as the sums can tell
        pos, neg = Xa[ya > 0], Xa[ya < 0]
        if pos.size and neg.size:
            d2 = min(float(((pos[:, None, :] - neg[None, a:a + 256, :]) ** 2).sum(-1).min())
                     for a in range(0, len(neg), 256))
            if math.exp(-kp["gamma"] * d2) == 1.0:
                return False
            if 1.0 - math.exp(-kp["gamma"] * d2) < 1e-9:
                return None  # separable in exact arithmetic, hopelessly ill-conditioned in floating point
        return True
    return None
