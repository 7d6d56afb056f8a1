"""Immutable per-step snapshots yielded by every algorithm.

A snapshot stores only O(d) numbers of its own (w, b, the indices examined and
updated); everything that depends on all N points (the misclassified set M, the
loss, the error count) is computed on access from the shared, read-only
:class:`Problem`, so a long trajectory never stores an N-vector per step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.formulas import perceptron_loss

UPDATE_RULES = ("nonpositive", "negative")


def readonly(a: np.ndarray) -> np.ndarray:
    """Return ``a`` with its write flag cleared (a view when ``a`` is shared)."""
    a = np.asarray(a)
    if a.flags.writeable:
        a = a.view()
        a.flags.writeable = False
    return a


def activation(X: np.ndarray, w, b) -> np.ndarray:
    """a = w·x + b, summed in one fixed order: ((x₁w₁ + x₂w₂) + …) + b.

    Every code path (vectorised blocks, the scalar loop, a single point, the
    whole data) computes margins with this order, so a point exactly on the
    boundary (a tie, y·a = 0) is judged the same everywhere; a BLAS matmul
    rounds differently with the number of rows.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    w : ndarray of shape (d,) or (k, d)
    b : float or ndarray of shape (k,)

    Returns
    -------
    ndarray of shape (n,), or (k, n) for k weight vectors
    """
    w = np.asarray(w, dtype=np.float64)
    if w.ndim == 1:
        a = X[:, 0] * w[0]
        for j in range(1, X.shape[1]):
            a = a + X[:, j] * w[j]
        return a + b
    a = w[:, 0, None] * X[None, :, 0]
    for j in range(1, X.shape[1]):
        a = a + w[:, j, None] * X[None, :, j]
    return a + np.asarray(b, dtype=np.float64)[:, None]


class RunSteps:
    """What every stored run shares: steps 0..S, of which the K in ``update_steps`` changed the state.

    A mixin for the trajectory dataclasses (they define ``n_steps``,
    ``update_steps`` and ``__getitem__``).
    """

    n_steps: int
    update_steps: np.ndarray

    def __len__(self) -> int:
        return self.n_steps + 1

    @property
    def n_updates(self) -> int:
        """K, the number of steps that changed the state."""
        return int(self.update_steps.size)

    def state_index(self, steps) -> np.ndarray:
        """How many updates happened up to and including each step, shape like ``steps``."""
        return np.searchsorted(self.update_steps, np.asarray(steps), side="right")

    def states(self, steps=None) -> tuple[np.ndarray, np.ndarray]:
        """The state after each of ``steps`` (default: every step 0..S): the trajectory's own (w or α, b).

        Returns
        -------
        first : ndarray of shape (k, d) for w, or (k, n) for α
        b : ndarray of shape (k,)
        """
        steps = np.arange(len(self)) if steps is None else np.asarray(steps)
        return self._states_at(self.state_index(steps))

    def update_position(self, step: int) -> int | None:
        """k such that the k-th update (0-based) happened at ``step``, or None if the step changed nothing."""
        pos = int(np.searchsorted(self.update_steps, step))
        if step == 0 or pos >= self.n_updates or self.update_steps[pos] != step:
            return None
        return pos

    def checked_step(self, step) -> int:
        """``step`` as an index 0..S (negative counts from the end), or IndexError."""
        step = int(step)
        if step < 0:
            step += len(self)
        if not 0 <= step <= self.n_steps:
            raise IndexError(f"step must be between 0 and {self.n_steps}, got {step}")
        return step

    def __iter__(self):
        for s in range(len(self)):
            yield self[s]


@dataclass(frozen=True, eq=False)
class Problem:
    """The data and the conventions shared by every snapshot of one run.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Points, float64, read-only.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64, read-only.
    update_on : {"nonpositive", "negative"}
        A point is a mistake when y·(w·x + b) <= 0 ("nonpositive") or < 0
        ("negative").
    fit_intercept : bool
        Whether b is learned (True) or held at b0 (False).
    """

    X: np.ndarray
    y: np.ndarray
    update_on: str = "nonpositive"
    fit_intercept: bool = True

    @property
    def n(self) -> int:
        """Number of points N."""
        return int(self.X.shape[0])

    def margins(self, w: np.ndarray, b: float) -> np.ndarray:
        """Functional margins yᵢ(w·xᵢ + b) of every point.

        Parameters
        ----------
        w : ndarray of shape (d,)
        b : float

        Returns
        -------
        ndarray of shape (n,)
        """
        return self.y * activation(self.X, w, b)

    def separates(self, w: np.ndarray, b: float) -> bool:
        """Whether (w, b) makes no mistake on any point under the rule (M = ∅)."""
        return not self.mistakes(self.margins(w, b)).any()

    def mistakes(self, m: np.ndarray) -> np.ndarray:
        """Mistake mask from functional margins m: m <= 0 or m < 0 by the rule."""
        return m < 0 if self.update_on == "negative" else m <= 0


@dataclass(frozen=True, eq=False)
class Snapshot:
    """The state of a perceptron after one step.

    Step 0 is the initial state; step s > 0 is the state after examining one
    point (online variants) or one (mini-)batch.

    Attributes
    ----------
    step : int
        Step index s, 0 for the initial state.
    w : ndarray of shape (d,)
        Weights after this step, read-only.
    b : float
        Bias after this step.
    examined : ndarray of shape (k,)
        Indices looked at in this step (empty at step 0), read-only.
    updated : ndarray of shape (m,)
        Indices whose yᵢxᵢ entered the update (the mistakes M ∩ examined,
        judged at the state before the step); empty when nothing changed.
    converged : bool
        True when no point is a mistake under the active rule at (w, b).
    epoch : int
        Number of passes over the data begun so far (step s of an online run
        with N points is in epoch ceil(s / N)); 0 at step 0.
    problem : Problem
        Shared data and conventions (not stored per step).
    """

    step: int
    w: np.ndarray
    b: float
    examined: np.ndarray
    updated: np.ndarray
    converged: bool
    epoch: int
    problem: Problem = field(repr=False)

    @property
    def margins(self) -> np.ndarray:
        """Functional margins yᵢ(w·xᵢ + b) at this state, shape (n,)."""
        return self.problem.margins(self.w, self.b)

    @property
    def misclassified(self) -> np.ndarray:
        """Mask of the set M of mistakes under the active rule, shape (n,), bool."""
        return self.problem.mistakes(self.margins)

    @property
    def errors(self) -> int:
        """|M|: how many points are mistakes under the active rule."""
        return int(np.count_nonzero(self.misclassified))

    @property
    def loss(self) -> float:
        """Mean perceptron loss (1/N) Σᵢ max(0, −yᵢ(w·xᵢ + b))."""
        return float(perceptron_loss(self.margins))


@dataclass(frozen=True, eq=False)
class DualProblem:
    """The data, the kernel and its Gram matrix, shared by every snapshot of one dual run.

    Parameters
    ----------
    X : ndarray of shape (n, d)
        Points, float64, read-only.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64, read-only.
    G : ndarray of shape (n, n)
        Gram matrix Gᵢⱼ = K(xᵢ, xⱼ), symmetric, read-only.
    kernel : str
        "linear", "poly" or "rbf".
    kernel_params : tuple of (str, float)
        The kernel's parameters, e.g. (("degree", 2), ("coef0", 1.0)).
    """

    X: np.ndarray
    y: np.ndarray
    G: np.ndarray
    kernel: str = "linear"
    kernel_params: tuple = ()

    @property
    def n(self) -> int:
        """Number of points N."""
        return int(self.X.shape[0])

    def decision(self, alpha: np.ndarray, b) -> np.ndarray:
        """f(xⱼ) = Σᵢ αᵢ yᵢ Gᵢⱼ + b at every point, for one α or a stack of them.

        Parameters
        ----------
        alpha : ndarray of shape (n,) or (k, n)
        b : float or ndarray of shape (k,)

        Returns
        -------
        ndarray of shape (n,) or (k, n)
        """
        c = np.asarray(alpha, dtype=np.float64) * self.y  # αᵢyᵢ
        f = c @ self.G
        return f + (np.asarray(b, dtype=np.float64)[:, None] if f.ndim == 2 else b)


@dataclass(frozen=True, eq=False)
class DualSnapshot:
    """The state of a dual (kernel) perceptron after one step.

    Attributes
    ----------
    step : int
        Step index s, 0 for the initial state α = 0, b = 0.
    alpha : ndarray of shape (n,)
        αᵢ after this step (η times the number of updates on xᵢ), read-only.
    b : float
        Bias after this step.
    f : ndarray of shape (n,)
        f(xⱼ) = Σᵢ αᵢyᵢK(xᵢ, xⱼ) + b at every point after this step, as the
        run summed it (so ties are judged as the run judged them), read-only.
    examined : ndarray of shape (k,)
        The point looked at in this step (empty at step 0), read-only.
    updated : ndarray of shape (m,)
        The point whose αᵢ grew in this step (empty when nothing changed).
    converged : bool
        True when y·f(x) > 0 at every point.
    epoch : int
        Passes over the data begun so far, ⌈s/N⌉.
    problem : DualProblem
        Shared data, kernel and Gram matrix (not stored per step).
    """

    step: int
    alpha: np.ndarray
    b: float
    f: np.ndarray
    examined: np.ndarray
    updated: np.ndarray
    converged: bool
    epoch: int
    problem: DualProblem = field(repr=False)

    @property
    def decision(self) -> np.ndarray:
        """f(xⱼ) = Σᵢ αᵢyᵢK(xᵢ, xⱼ) + b at every point, shape (n,) (the field ``f``)."""
        return self.f

    @property
    def margins(self) -> np.ndarray:
        """Functional margins yⱼ·f(xⱼ), shape (n,)."""
        return self.problem.y * self.decision

    @property
    def misclassified(self) -> np.ndarray:
        """Mask of the mistakes y·f(x) <= 0, shape (n,), bool."""
        return self.margins <= 0

    @property
    def errors(self) -> int:
        """How many points are mistakes (y·f(x) <= 0)."""
        return int(np.count_nonzero(self.misclassified))

    @property
    def support(self) -> np.ndarray:
        """Mask of the points with αᵢ > 0 (the ones f sums over), shape (n,), bool."""
        return self.alpha > 0

    @property
    def w(self) -> np.ndarray:
        """w = Σᵢ αᵢyᵢxᵢ, shape (d,); only the linear kernel has it in the input space.

        Raises
        ------
        ValueError
            For the polynomial and RBF kernels, whose w lives in feature space.
        """
        if self.problem.kernel != "linear":
            raise ValueError(f"w = Σ αᵢyᵢφ(xᵢ) lives in the {self.problem.kernel} kernel's feature space; "
                             "only the linear kernel has w in the plane")
        return (np.asarray(self.alpha) * self.problem.y) @ self.problem.X
