"""Seeded 2D toy data sets for the Decision Boundary Lab.

Every generator has the same shape::

    make_NAME(n, *, <parameters>, seed=0) -> (X, y)

* ``X`` is a C-contiguous float64 array of shape ``(n, 2)``;
* ``y`` is a C-contiguous int64 array of shape ``(n,)`` with values in
  ``{-1, +1}``, and both classes are always present;
* all randomness comes from ``np.random.default_rng(seed)``, so the same
  arguments always give the same data;
* points lie roughly inside the box ``[-3, 3]^2`` (the textbook example is
  the exception: it is fixed, at (3, 3), (4, 3) and (1, 1)).

Arguments are checked at the boundary and bad ones raise ``ValueError`` with
a message naming the parameter, the value given and what is allowed.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "N_MAX",
    "N_MIN",
    "make_blobs",
    "make_circles",
    "make_moons",
    "make_outlier",
    "make_separable",
    "make_textbook",
    "make_xor",
]

#: Smallest and largest number of points a generator accepts.
N_MIN = 2
N_MAX = 100_000

# make_separable draws candidate points uniformly in a disc of this radius.
_DISC_RADIUS = 2.5
# ... and the hidden line's offset c uniformly in [-_MAX_OFFSET, _MAX_OFFSET].
_MAX_OFFSET = 0.5
# Bound on the rejection-sampling rounds (each round draws a batch of points).
_MAX_ROUNDS = 200


# ---------------------------------------------------------------------------
# argument validation
# ---------------------------------------------------------------------------


def _integer_value(x) -> int | None:
    """``x`` as a Python int if it is an integer (or integral float), else None.

    Bools, non-integral floats, NaN, infinities and non-numbers give None.
    """
    if isinstance(x, bool | np.bool_):
        return None
    if isinstance(x, numbers.Integral):
        return int(x)
    f = _finite_value(x)
    return int(f) if f is not None and f.is_integer() else None


def _finite_value(x) -> float | None:
    """``x`` as a finite Python float if it is a real number, else None."""
    if isinstance(x, bool | np.bool_) or not isinstance(x, numbers.Real):
        return None
    f = float(x)
    return f if math.isfinite(f) else None


def _check_n(n, lo: int = N_MIN, hi: int = N_MAX) -> int:
    """Return ``n`` as a Python int in ``[lo, hi]``, or raise ``ValueError``.

    Bools, non-integral floats, NaN and infinities are rejected; an integral
    float such as ``40.0`` is accepted.
    """
    value = _integer_value(n)
    if value is None or not lo <= value <= hi:
        raise ValueError(f"n must be an integer between {lo} and {hi}, got {n!r}")
    return value


def _check_seed(seed) -> int:
    """Return ``seed`` as a non-negative Python int, or raise ``ValueError``."""
    value = _integer_value(seed)
    if value is None or value < 0 or isinstance(seed, float):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return value


def _as_real(name: str, value) -> float:
    """Return ``value`` as a finite float, or raise ``ValueError``."""
    f = _finite_value(value)
    if f is None:
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return f


def _check_noise(noise) -> float:
    """Noise is a standard deviation: finite and ``>= 0``."""
    f = _as_real("noise", noise)
    if f < 0:
        raise ValueError(f"noise must be >= 0, got {noise!r}")
    return f


def _check_margin(margin) -> float:
    """The geometric margin must satisfy ``0 < margin <= 1``."""
    f = _as_real("margin", margin)
    if not 0 < f <= 1:
        raise ValueError(f"margin must be > 0 and <= 1, got {margin!r}")
    return f


def _check_factor(factor) -> float:
    """The inner/outer radius ratio must satisfy ``0 < factor < 1``."""
    f = _as_real("factor", factor)
    if not 0 < f < 1:
        raise ValueError(f"factor must be > 0 and < 1, got {factor!r}")
    return f


def _finish(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(X, y)`` as C-contiguous float64 / int64 arrays."""
    return (
        np.ascontiguousarray(X, dtype=np.float64),
        np.ascontiguousarray(y, dtype=np.int64),
    )


def _class_sizes(n: int) -> tuple[int, int]:
    """Split ``n`` points into ``(n_pos, n_neg)``; the -1 class gets the odd one."""
    n_pos = n // 2
    return n_pos, n - n_pos


# ---------------------------------------------------------------------------
# generators
# ---------------------------------------------------------------------------


def _hidden_line(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """Draw the hidden line ``u . x + c = 0`` of :func:`make_separable`.

    These are the first draws from ``rng``, so ``_hidden_line(
    np.random.default_rng(seed))`` recovers the line behind
    ``make_separable(..., seed=seed)`` (used by the tests).

    Returns
    -------
    u : ndarray of shape (2,)
        Unit normal, angle uniform in ``[0, 2 pi)``.
    c : float
        Offset, uniform in ``[-0.5, 0.5]``.
    """
    angle = rng.uniform(0.0, 2.0 * np.pi)
    u = np.array([np.cos(angle), np.sin(angle)])  # ||u|| = 1
    c = float(rng.uniform(-_MAX_OFFSET, _MAX_OFFSET))
    return u, c


def make_separable(n, *, margin=0.3, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Linearly separable data with geometric margin exactly ``margin``.

    A hidden line ``u . x + c = 0`` is drawn (``u`` a random unit normal,
    ``c`` uniform in ``[-0.5, 0.5]``).  Points are drawn uniformly in the
    disc of radius 2.5 and kept only if ``|u . x + c| >= margin``; their
    label is ``sign(u . x + c)``.  Finally the closest point of each class is
    moved perpendicularly onto its margin line, so that

    ``min_i y_i (u . x_i + c) == margin``

    for the hidden line, with one point of each class attaining it.  The
    maximum-margin separator of the data therefore has margin ``>= margin``.
    All points stay inside the disc of radius ``sqrt(1.5**2 + 2.5**2) < 3``.

    Parameters
    ----------
    n : int
        Number of points, between 2 and 100000.  The +1 class gets
        ``n // 2`` points, the -1 class the rest.
    margin : float, default=0.3
        Geometric margin of the hidden separator, ``0 < margin <= 1``.
    seed : int, default=0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64.

    Raises
    ------
    ValueError
        If an argument is out of range, or if rejection sampling could not
        fill both classes within its bounded number of rounds.
    """
    n = _check_n(n)
    margin = _check_margin(margin)
    rng = np.random.default_rng(_check_seed(seed))

    u, c = _hidden_line(rng)

    n_pos, n_neg = _class_sizes(n)
    batch = max(4 * n, 64)
    pos: list[np.ndarray] = []
    neg: list[np.ndarray] = []
    have_pos = have_neg = 0
    for _ in range(_MAX_ROUNDS):  # bounded rejection-sampling loop
        # uniform in the disc: radius R*sqrt(U), angle uniform
        r = _DISC_RADIUS * np.sqrt(rng.uniform(size=batch))
        t = rng.uniform(0.0, 2.0 * np.pi, size=batch)
        cand = np.column_stack([r * np.cos(t), r * np.sin(t)])
        s = cand @ u + c  # signed distance to the hidden line (||u|| = 1)
        pos.append(cand[s >= margin])
        neg.append(cand[s <= -margin])
        have_pos += len(pos[-1])
        have_neg += len(neg[-1])
        if have_pos >= n_pos and have_neg >= n_neg:
            break
    else:
        raise ValueError(
            f"make_separable could not draw {n_pos} (+1) and {n_neg} (-1) points "
            f"with margin {margin} in {_MAX_ROUNDS} rounds; "
            f"got {have_pos} and {have_neg}"
        )

    X = np.concatenate([np.concatenate(pos)[:n_pos], np.concatenate(neg)[:n_neg]])
    y = np.concatenate([np.ones(n_pos), -np.ones(n_neg)]).astype(np.int64)
    order = rng.permutation(n)
    X, y = X[order], y[order]

    # Move the closest point of each class onto its margin line:
    # x <- x - (y (u . x + c) - margin) * y * u  gives  y (u . x + c) = margin.
    functional = y * (X @ u + c)
    for label in (1, -1):
        idx = np.flatnonzero(y == label)
        i = idx[np.argmin(functional[idx])]
        X[i] -= (functional[i] - margin) * label * u
    return _finish(X, y)


def make_blobs(n, *, noise=0.6, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two Gaussian blobs that overlap when ``noise`` is large.

    Class +1 is ``N((0.8, 0.8), noise^2 I)``, class -1 is
    ``N((-0.8, -0.8), noise^2 I)``; the classes are balanced (+1 gets
    ``n // 2`` points).  Separable only by luck when ``noise`` is not small.

    Parameters
    ----------
    n : int
        Number of points, between 2 and 100000.
    noise : float, default=0.6
        Standard deviation of each blob, ``>= 0``.
    seed : int, default=0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64.
    """
    n = _check_n(n)
    noise = _check_noise(noise)
    rng = np.random.default_rng(_check_seed(seed))

    n_pos, n_neg = _class_sizes(n)
    y = np.concatenate([np.ones(n_pos), -np.ones(n_neg)]).astype(np.int64)
    y = y[rng.permutation(n)]
    centres = 0.8 * y[:, None] * np.array([1.0, 1.0])  # +-(0.8, 0.8)
    X = centres + noise * rng.standard_normal((n, 2))
    return _finish(X, y)


def make_xor(n, *, noise=0.25, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Four Gaussian clusters at (+-1, +-1) labelled like XOR.

    A point from the cluster centred at ``(a, b)`` gets label
    ``sign(a * b)``: +1 for (1, 1) and (-1, -1), -1 for (1, -1) and (-1, 1).
    No line separates the classes.  Points are dealt to the clusters in turn
    (so they are balanced and both classes appear for ``n >= 2``), then
    shuffled.

    Parameters
    ----------
    n : int
        Number of points, between 2 and 100000.
    noise : float, default=0.25
        Standard deviation of each cluster, ``>= 0``.
    seed : int, default=0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64.
    """
    n = _check_n(n)
    noise = _check_noise(noise)
    rng = np.random.default_rng(_check_seed(seed))

    # alternating labels +1, -1, +1, -1 so that n >= 2 has both classes
    corners = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, -1.0], [-1.0, 1.0]])
    which = rng.permutation(np.arange(n) % 4)
    centres = corners[which]
    y = np.sign(centres[:, 0] * centres[:, 1]).astype(np.int64)
    X = centres + noise * rng.standard_normal((n, 2))
    return _finish(X, y)


def make_circles(n, *, noise=0.1, factor=0.5, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two concentric noisy rings: +1 inside, -1 outside.

    The outer ring has radius 2 and the inner ring radius ``2 * factor``;
    angles are uniform, and Gaussian noise of standard deviation ``noise``
    is added to each coordinate.  The +1 (inner) class gets ``n // 2``
    points.  No line separates the classes.

    Parameters
    ----------
    n : int
        Number of points, between 2 and 100000.
    noise : float, default=0.1
        Standard deviation of the noise added to each coordinate, ``>= 0``.
    factor : float, default=0.5
        Ratio of inner to outer radius, ``0 < factor < 1``.
    seed : int, default=0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64.
    """
    n = _check_n(n)
    noise = _check_noise(noise)
    factor = _check_factor(factor)
    rng = np.random.default_rng(_check_seed(seed))

    n_pos, n_neg = _class_sizes(n)
    y = np.concatenate([np.ones(n_pos), -np.ones(n_neg)]).astype(np.int64)
    y = y[rng.permutation(n)]
    radius = np.where(y == 1, 2.0 * factor, 2.0)
    theta = rng.uniform(0.0, 2.0 * np.pi, size=n)
    # x = r (cos t, sin t) + noise
    X = radius[:, None] * np.column_stack([np.cos(theta), np.sin(theta)])
    X += noise * rng.standard_normal((n, 2))
    return _finish(X, y)


def make_moons(n, *, noise=0.1, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaving half-moons: +1 upper, -1 lower.

    With ``t`` uniform in ``[0, pi]`` the upper moon is ``(cos t, sin t)``
    and the lower moon ``(1 - cos t, 0.5 - sin t)`` (the classic shape,
    x in [-1, 2], y in [-0.5, 1]).  Both are centred by subtracting
    ``(0.5, 0.25)`` and scaled by 1.3 into roughly ``[-2, 2] x [-1, 1]``;
    then Gaussian noise of standard deviation ``noise`` is added to each
    coordinate.  The +1 class gets ``n // 2`` points.  Separable only when
    ``noise`` is very small.

    Parameters
    ----------
    n : int
        Number of points, between 2 and 100000.
    noise : float, default=0.1
        Standard deviation of the noise added to each coordinate, ``>= 0``.
    seed : int, default=0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64.
    """
    n = _check_n(n)
    noise = _check_noise(noise)
    rng = np.random.default_rng(_check_seed(seed))

    n_pos, n_neg = _class_sizes(n)
    y = np.concatenate([np.ones(n_pos), -np.ones(n_neg)]).astype(np.int64)
    y = y[rng.permutation(n)]
    t = rng.uniform(0.0, np.pi, size=n)
    upper = np.column_stack([np.cos(t), np.sin(t)])
    lower = np.column_stack([1.0 - np.cos(t), 0.5 - np.sin(t)])
    X = np.where((y == 1)[:, None], upper, lower)
    X = 1.3 * (X - np.array([0.5, 0.25]))
    X += noise * rng.standard_normal((n, 2))
    return _finish(X, y)


def make_outlier(n, *, margin=0.3, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """Separable data plus one mislabelled +1 point deep in the -1 class.

    The first ``n - 1`` rows are exactly ``make_separable(n - 1,
    margin=margin, seed=seed)``.  The last row is the outlier, labelled +1,
    and placed as follows: take ``b``, the -1 point nearest the centroid of
    the -1 class, and ``a``, the +1 point nearest ``b``; the outlier is

    ``o = b + 0.5 (b - a) / ||b - a||``,

    i.e. a step of 0.5 beyond ``b``, directly away from the +1 class, so
    deeper inside the -1 region than ``b`` (``b`` is typically near the
    middle of the -1 cloud).  Since ``b`` then lies strictly between the
    two +1 points ``a`` and ``o``, no line can separate the classes.

    Parameters
    ----------
    n : int
        Number of points, between 3 and 100000 (the separable part needs 2).
    margin : float, default=0.3
        Margin of the separable part, ``0 < margin <= 1``.
    seed : int, default=0
        Seed for ``np.random.default_rng``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64; ``X[-1]`` is the outlier.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64; ``y[-1] == 1``.
    """
    n = _check_n(n, lo=N_MIN + 1)
    X, y = make_separable(n - 1, margin=margin, seed=seed)

    neg = X[y == -1]
    b = neg[np.argmin(np.sum((neg - neg.mean(axis=0)) ** 2, axis=1))]
    pos = X[y == 1]
    a = pos[np.argmin(np.sum((pos - b) ** 2, axis=1))]
    # step 0.5 from b, directly away from a: b lies strictly between a and o
    outlier = b + 0.5 * (b - a) / np.linalg.norm(b - a)
    return _finish(np.vstack([X, outlier]), np.append(y, 1))


def make_textbook(n=3, *, seed=0) -> tuple[np.ndarray, np.ndarray]:
    """The classic three-point example, always the same.

    ``x1 = (3, 3)`` with label +1, ``x2 = (4, 3)`` with label +1 and
    ``x3 = (1, 1)`` with label -1, in that order.  (Lies outside the usual
    ``[-3, 3]^2`` box.)

    Parameters
    ----------
    n : int, default=3
        Must be exactly 3; accepted so that every generator has one shape.
    seed : int, default=0
        Accepted and ignored (the data are fixed), but still validated.

    Returns
    -------
    X : ndarray of shape (3, 2)
        ``[[3, 3], [4, 3], [1, 1]]``, float64.
    y : ndarray of shape (3,)
        ``[1, 1, -1]``, int64.
    """
    try:
        _check_n(n, lo=3, hi=3)
    except ValueError:
        raise ValueError(f"n must be exactly 3 for the textbook example, got {n!r}") from None
    _check_seed(seed)
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    y = np.array([1, 1, -1])
    return _finish(X, y)
