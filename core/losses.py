"""The 0-1, perceptron and hinge losses: values and subgradients over weights, and whole surfaces of them.

For a weight w (d,) and bias b, point i has the functional margin mᵢ = yᵢ(w·xᵢ + b), and the mean losses are

    0-1          (1/N) Σ [mᵢ ≤ 0]                       (a point on the boundary counts as an error, as in M)
    perceptron   (1/N) Σ max(0, −mᵢ)
    hinge        (1/N) Σ max(0, 1 − mᵢ) + λ/2 ‖w‖²

:func:`zero_one`, :func:`perceptron` and :func:`hinge` take ``W`` of shape (..., d) and ``b`` broadcastable
to (...), and return shape (...); they work through the points in blocks, so memory stays near
(block of weights) × N. :func:`surface` gives a whole grid of a loss over a 2-D slice of weight space
exactly and fast, without a grid × N array: along one grid axis every mᵢ is linear, so each loss is
piecewise linear there with one breakpoint per point, and a row is a cumulative sum over the breakpoints.
"""

from __future__ import annotations

import math

import numpy as np

from core.formulas import hinge_loss, l2_penalty, perceptron_loss
from core.validate import check_real, validate_data

LOSSES = ("zero_one", "perceptron", "hinge")
FIX_ROUNDS = 64  # checks of the 0-1 runs' ends against the direct margin (one is enough on ordinary grids)
BLOCK = 1 << 18  # margins computed at once in the direct functions: (weights in a block) × N ≤ this


def _prepare(W, b, X, y) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple]:
    """Validated data, W as (K, d), b as (K,), and the leading shape to give back."""
    Xa, ya = validate_data(X, y)
    W = np.asarray(W, dtype=np.float64)
    if W.ndim < 1 or W.shape[-1] != Xa.shape[1]:
        raise ValueError(f"W must have shape (..., d) with d = {Xa.shape[1]} (the data's), got {W.shape}")
    lead = W.shape[:-1]
    try:
        B = np.broadcast_to(np.asarray(b, dtype=np.float64), lead)
    except ValueError:
        raise ValueError(f"b must broadcast to W's leading shape {lead}, got shape {np.shape(b)}") from None
    if not (np.isfinite(W).all() and np.isfinite(B).all()):
        raise ValueError("W and b must be finite")
    return W.reshape(-1, Xa.shape[1]), B.reshape(-1), Xa, ya.astype(np.float64), lead


def _margins_in_blocks(Wf, Bf, X, y):
    """Yield (rows, M) with M[k, i] = yᵢ(w_k·xᵢ + b_k) for blocks of weight rows (never all K × N at once)."""
    step = max(1, BLOCK // max(1, X.shape[0]))
    for lo in range(0, Wf.shape[0], step):
        rows = slice(lo, lo + step)
        Wr = Wf[rows]
        S = Wr[:, 0, None] * X[:, 0]
        for k in range(1, X.shape[1]):  # w·x summed left to right, as the surfaces' exact 0-1 check does
            S = S + Wr[:, k, None] * X[:, k]
        yield rows, y * (S + Bf[rows, None])


def zero_one(W, b, X, y) -> np.ndarray:
    """Mean 0-1 loss (1/N) Σ [yᵢ(w·xᵢ + b) ≤ 0] for every w in W.

    Parameters
    ----------
    W : array_like of shape (..., d)
    b : array_like broadcastable to (...)
    X : array_like of shape (n, d)
    y : array_like of shape (n,), labels ±1

    Returns
    -------
    ndarray of shape (...)
    """
    Wf, Bf, X, y, lead = _prepare(W, b, X, y)
    out = np.empty(Wf.shape[0])
    for rows, M in _margins_in_blocks(Wf, Bf, X, y):
        out[rows] = (M <= 0).mean(axis=1)
    return out.reshape(lead)


def perceptron(W, b, X, y) -> np.ndarray:
    """Mean perceptron loss (1/N) Σ max(0, −yᵢ(w·xᵢ + b)) for every w in W (shapes as :func:`zero_one`)."""
    Wf, Bf, X, y, lead = _prepare(W, b, X, y)
    out = np.empty(Wf.shape[0])
    for rows, M in _margins_in_blocks(Wf, Bf, X, y):
        out[rows] = perceptron_loss(M)
    return out.reshape(lead)


def hinge(W, b, X, y, lam: float = 0.0) -> np.ndarray:
    """Mean hinge loss (1/N) Σ max(0, 1 − yᵢ(w·xᵢ + b)) + λ/2 ‖w‖² for every w in W (shapes as :func:`zero_one`)."""
    lam = check_real("lam", lam, low=0.0, high=1e6)
    Wf, Bf, X, y, lead = _prepare(W, b, X, y)
    out = np.empty(Wf.shape[0])
    for rows, M in _margins_in_blocks(Wf, Bf, X, y):
        out[rows] = hinge_loss(M)
    out += l2_penalty((Wf * Wf).sum(axis=1), lam)
    return out.reshape(lead)


def _subgradient(W, b, X, y, active):
    """(1/N) Σ over the points with active(mᵢ) of −yᵢ(xᵢ, 1): the w part (..., d) and the b part (...)."""
    Wf, Bf, X, y, lead = _prepare(W, b, X, y)
    gw = np.empty_like(Wf)
    gb = np.empty(Wf.shape[0])
    n = X.shape[0]
    for rows, M in _margins_in_blocks(Wf, Bf, X, y):
        A = active(M) * y  # yᵢ on the active points, 0 elsewhere
        gw[rows] = -(A @ X) / n
        gb[rows] = -A.sum(axis=1) / n
    return gw.reshape(*lead, X.shape[1]), gb.reshape(lead)


def perceptron_subgradient(W, b, X, y) -> tuple[np.ndarray, np.ndarray]:
    """A subgradient of the mean perceptron loss: −(1/N) Σ_{i∈M} yᵢ(xᵢ, 1), M = {i : yᵢ(w·xᵢ + b) ≤ 0}.

    At the kink mᵢ = 0 the point counts (the seeds' rule "update when y·a ≤ 0"), so at w = 0, b = 0 the
    subgradient is not 0 and a step moves; −τ times it is the batch perceptron's update with the mean.

    Returns
    -------
    gw : ndarray of shape (..., d)
    gb : ndarray of shape (...)
    """
    return _subgradient(W, b, X, y, lambda M: M <= 0)


def hinge_subgradient(W, b, X, y, lam: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A subgradient of the mean hinge loss: λw − (1/N) Σ_{mᵢ<1} yᵢxᵢ for w, −(1/N) Σ_{mᵢ<1} yᵢ for b.

    At the kink mᵢ = 1 the point does not count (Pegasos' rule, as in :func:`core.svm.hinge_sgd`).

    Returns
    -------
    gw : ndarray of shape (..., d)
    gb : ndarray of shape (...)
    """
    lam = check_real("lam", lam, low=0.0, high=1e6)
    gw, gb = _subgradient(W, b, X, y, lambda M: M < 1)
    return gw + lam * np.asarray(W, dtype=np.float64), gb


SLICES = ("w", "theta")


def surface(loss: str, X, y, us, vs, *, slice: str = "w", b: float = 0.0, r: float = 1.0,
            lam: float = 0.0, block: int = 32) -> np.ndarray:
    """A loss over a grid of a 2-D slice of weight space, exact, in O(|us|·(N + |vs|)) time.

    Slices (2-D data):
        ``"w"``      w = (us[j], vs[g]) at the fixed bias b;
        ``"theta"``  w = r(cos us[j], sin us[j]) (the direction θ at a fixed ‖w‖ = r) and b = vs[g].

    Along vs, point i's margin is mᵢ = cᵢ + sᵢ·v with cᵢ, sᵢ fixed for a column, so the set of grid v where
    it counts (mᵢ ≤ 0 for 0-1, mᵢ < 0 perceptron, mᵢ < 1 hinge) is a run of consecutive grid indices
    from one end: found by ``searchsorted`` on its breakpoint, then accumulated as a difference array
    (a +1 at the run's start, −1 past its end, and likewise cᵢ and sᵢ), so a cumulative sum gives each
    cell's count and the sums of cᵢ and sᵢ over the points that count there. For the 0-1 loss each run's
    end is then checked against the margin computed directly, yᵢ·((w₁x₁ + w₂x₂) + b), and moved where
    rounding put it on the other side (a step, repeated while anything moves, at most FIX_ROUNDS times): the
    0-1 surface equals the direct count exactly unless a breakpoint's rounding spans more than FIX_ROUNDS
    grid steps. The perceptron and hinge losses are exactly 0 where no point counts.

    Parameters
    ----------
    loss : {"zero_one", "perceptron", "hinge"}
    X : array_like of shape (n, 2)
    y : array_like of shape (n,)
    us : array_like of shape (p,)
        w₁ values ("w") or angles θ in radians ("theta").
    vs : array_like of shape (q,)
        w₂ values ("w") or biases b ("theta"), increasing.
    slice : {"w", "theta"}
    b : float
        The bias of the "w" slice.
    r : float
        ‖w‖ on the "theta" slice.
    lam : float
        λ of the hinge loss's λ/2 ‖w‖².
    block : int
        Columns done at once: memory is about block × (N + q) numbers.

    Returns
    -------
    ndarray of shape (q, p)
        The mean loss at (us[j], vs[g]) in row g, column j.
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {', '.join(LOSSES)}, got {loss!r}")
    if slice not in SLICES:
        raise ValueError(f"slice must be 'w' or 'theta', got {slice!r}")
    Xa, ya = validate_data(X, y)
    if Xa.shape[1] != 2:
        raise ValueError(f"surfaces are drawn over 2-D weights: the data must have d = 2, got {Xa.shape[1]}")
    b = check_real("b", b, low=-1e6, high=1e6)
    r = check_real("r", r, low=1e-9, high=1e6)
    lam = check_real("lam", lam, low=0.0, high=1e6)
    us = np.asarray(us, dtype=np.float64).ravel()
    vs = np.asarray(vs, dtype=np.float64).ravel()
    if not (us.size and vs.size and np.isfinite(us).all() and np.isfinite(vs).all()):
        raise ValueError("the grid values must be finite and not empty")
    if max(np.abs(us).max(), np.abs(vs).max()) > 1e6:
        raise ValueError("the grid values must lie within ±1e6")
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < 1:
        raise ValueError(f"block must be a whole number ≥ 1, got {block!r}")
    block = int(block)
    if vs.size > 1 and not (np.diff(vs) > 0).all():
        raise ValueError("vs must be increasing")
    n, q = len(ya), vs.size
    yf = ya.astype(np.float64)
    x1, x2 = Xa[:, 0], Xa[:, 1]
    level = {"zero_one": 0.0, "perceptron": 0.0, "hinge": 1.0}[loss]
    out = np.empty((q, us.size))
    for lo in range(0, us.size, block):
        u = us[lo:lo + block]
        k = u.size
        if slice == "w":
            P = u[:, None] * x1  # w₁x₁: the margin is yᵢ((P + v·x₂) + b)
            c = yf * (P + b)
            s = np.broadcast_to(yf * x2, (k, n))
        else:
            w1, w2 = r * np.cos(u), r * np.sin(u)
            P = w1[:, None] * x1 + w2[:, None] * x2  # w·x: the margin is yᵢ(P + v)
            c = yf * P
            s = np.broadcast_to(yf, (k, n))
        start, stop = _runs(c, s, vs, level, strict=loss != "zero_one")
        if loss == "zero_one":
            start, stop = _exact_runs(start, stop, s, vs, P, x2, yf, b, slice)
        # difference arrays over the q + 1 cut positions of each column, then cumulative sums
        if loss == "zero_one":
            val = _run_sums(start, stop, None, q)
        else:
            # Σ over the points that count of (level − cᵢ − sᵢ·v) = Σ(level − cᵢ) − v·Σsᵢ; where no point
            # counts the loss is exactly 0 (the cumulative sums leave rounding there), and never below 0
            val = _run_sums(start, stop, level - c, q) - _run_sums(start, stop, s, q) * vs[None, :]
            val = np.where(_run_sums(start, stop, None, q) > 0, np.maximum(val, 0.0), 0.0)
        col = val.T / n
        if loss == "hinge":
            col = col + 0.5 * lam * (u[None, :] ** 2 + vs[:, None] ** 2 if slice == "w" else r * r)
        out[:, lo:lo + k] = col
    return out


def _run_sums(start: np.ndarray, stop: np.ndarray, weights, q: int) -> np.ndarray:
    """Σ of the weights (or the count) of the runs covering each grid index: shape (k, q).

    A difference array per column, +weight at each run's start and −weight at its stop, then a cumulative
    sum along the column.
    """
    k, n = start.shape
    base = np.arange(k)[:, None] * (q + 1)
    wts = None if weights is None else np.broadcast_to(weights, (k, n)).ravel()
    d = np.bincount((base + start).ravel(), wts, k * (q + 1)) - np.bincount((base + stop).ravel(), wts, k * (q + 1))
    return np.cumsum(d.reshape(k, q + 1), axis=1)[:, :q]


def _count_below(vs: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How many grid values are < t and ≤ t, for every t: by arithmetic on an even grid, else a binary search.

    On an even grid (a linspace) the fractional index (t − v₀)/h gives both counts without a search; its
    rounding can be off by one only where t is within rounding of a grid value, where a continuous loss's
    term is 0 either way and the 0-1 runs are checked against the direct margin afterwards.
    """
    q = vs.size
    if q > 1:
        h = (vs[-1] - vs[0]) / (q - 1)
        if np.allclose(np.diff(vs), h, rtol=1e-9, atol=0.0):
            pos = np.clip((t - vs[0]) / h, -1.0, q + 1.0)
            below = np.clip(np.ceil(pos), 0, q).astype(np.int64)
            upto = np.clip(np.floor(pos) + 1, 0, q).astype(np.int64)
            return below, upto
    below = np.searchsorted(vs, t, side="left")
    upto = np.searchsorted(vs, t, side="right")
    return below, upto


def _runs(c, s, vs, level: float, strict: bool) -> tuple[np.ndarray, np.ndarray]:
    """Where each point counts along the increasing grid vs: indices start ≤ g < stop, shape (k, n) each.

    Point i counts where cᵢ + sᵢv < level (strict) or ≤ level: for sᵢ > 0 that is v below the breakpoint
    t = (level − cᵢ)/sᵢ (a run from the start), for sᵢ < 0 v above it (a run to the end), and for sᵢ = 0
    everywhere or nowhere.
    """
    q = vs.size
    up, down = s > 0, s < 0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(up | down, (level - c) / s, 0.0)  # the breakpoint, where cᵢ + sᵢv = level
    below, upto = _count_below(vs, t)  # grid values v < t, and v ≤ t
    # s > 0: the run is the v < t (strict) or v ≤ t; s < 0: it starts at the first v > t, or v ≥ t
    k_up = below if strict else upto
    k_down = upto if strict else below
    flat = ~(up | down)
    always = flat & ((c < level) if strict else (c <= level))
    start = np.where(down, k_down, 0)
    stop = np.where(up, k_up, np.where(down, q, np.where(always, q, 0)))
    return start, stop


def _exact_runs(start, stop, s, vs, P, x2, y, b: float, slice: str):
    """Move each 0-1 run's inner end by one where the margin computed directly disagrees (rounding at ties).

    The direct margin yᵢ·((w₁x₁ + w₂x₂) + b) is monotone in v along the column (rounding is monotone), so the
    points that err are still a run, and the breakpoint's rounding can put its end a grid step or so off.
    """
    q = vs.size
    up, down = s > 0, s < 0

    def errs(start, stop):
        """Whether the point errs just inside its run's inner end, and just outside it."""
        inner = np.clip(np.where(up, stop - 1, start), 0, q - 1)
        outer = np.clip(np.where(up, stop, start - 1), 0, q - 1)
        v_in, v_out = vs[inner], vs[outer]
        if slice == "w":
            return y * ((P + v_in * x2) + b) <= 0, y * ((P + v_out * x2) + b) <= 0
        return y * (P + v_in) <= 0, y * (P + v_out) <= 0

    err_in, err_out = errs(start, stop)
    # s > 0, run [0, stop): stop − 1 must err and stop must not; s < 0, run [start, q): start must err,
    # start − 1 must not. Rounding moves an end by a step or so; on a grid finer than the breakpoint's
    # rounding it can be more, so the check repeats while anything moves (bounded)
    for _ in range(FIX_ROUNDS):
        new_stop = np.where(up & (stop > 0) & ~err_in, stop - 1, np.where(up & (stop < q) & err_out, stop + 1, stop))
        new_start = np.where(down & (start < q) & ~err_in, start + 1,
                             np.where(down & (start > 0) & err_out, start - 1, start))
        if np.array_equal(new_stop, stop) and np.array_equal(new_start, start):
            break
        start, stop = new_start, new_stop
        err_in, err_out = errs(start, stop)
    return start, stop


def grid_half_width(X, y, holding=None) -> float:
    """The (w₁, w₂) grid's half-width: 3/mean ‖x‖ (a weight of that size moves margins by a few units), or
    wide enough to hold the weights ``holding`` (an optimiser's path, shape (k, 2)), at most 10 times that.
    """
    Xa, _ = validate_data(X, y)
    default = 3.0 / (float(np.sqrt((Xa**2).sum(axis=1)).mean()) or 1.0)
    if holding is None or not np.size(holding):
        return default
    return float(min(max(default, 1.1 * float(np.abs(np.asarray(holding, dtype=float)).max())), 10 * default))


def grid_around(X, y, *, size: int = 200, scale: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A symmetric (w₁, w₂) grid for the "w" slice, ``size`` values a side.

    Its half-width is ``scale``, or :func:`grid_half_width`'s default.

    Returns
    -------
    us, vs : ndarray of shape (size,) each
    """
    if scale is None:
        scale = grid_half_width(X, y)
    size = int(check_real("size", size, low=2, high=2000))
    g = np.linspace(-scale, scale, size)
    return g, g.copy()


def theta_grid(size: int = 200) -> np.ndarray:
    """Angles θ in [−π, π) for the "theta" slice."""
    return np.linspace(-math.pi, math.pi, int(size), endpoint=False)
