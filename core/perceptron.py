"""The primal perceptron as the seeds write it, in four variants.

All variants share one notation: activation a = w·x + b, label y ∈ {−1, +1},
functional margin y·a, step size τ, and the mistake rule y·a ≤ 0
("nonpositive", Rosenblatt's PerceptronTrain) or y·a < 0 ("negative").

- ``cyclic``: PerceptronTrain. Points in order, epoch after epoch; on a
  mistake w ← w + τ·y·x, b ← b + τ·y.
- ``random``: one uniformly chosen point per step, same update.
- ``minibatch``: a random B-subset I without replacement (its indices in increasing order: a set); with
  M = mistakes in I, w ← w + τ/B Σ_{i∈M} yᵢxᵢ, b ← b + τ/B Σ_{i∈M} yᵢ
  (``reduction="sum"`` drops the 1/B).
- ``batch``: a gradient step on the perceptron loss over all N points:
  w ← w + τ/N Σ_{i∈M} yᵢxᵢ (``reduction="mean"``, the mean loss) or
  w ← w + τ Σ_{i∈M} yᵢxᵢ (``reduction="sum"``).

:func:`run_perceptron` computes a whole run into a compact
:class:`Trajectory` (the state is stored only after each update, so a run of
S steps with K updates costs O(S + K·d) memory); :func:`perceptron` is the
generator of :class:`~core.snapshot.Snapshot` objects over it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from core.formulas import perceptron_loss, perceptron_update
from core.snapshot import UPDATE_RULES, Problem, RunSteps, Snapshot, activation, readonly
from core.validate import check_choice, check_real, is_int, validate_data

VARIANTS = ("cyclic", "random", "minibatch", "batch")
REDUCTIONS = ("mean", "sum")
MAX_STEPS_LIMIT = 5_000_000
WORK_LIMIT = 5_000_000  # max_steps × B for minibatch and batch: bounds time and the stored subsets
TAU_LIMIT = 1e6
_EMPTY = readonly(np.zeros(0, dtype=np.int64))


# ----------------------------------------------------------------------------
# validation at the boundary
# ----------------------------------------------------------------------------


# ----------------------------------------------------------------------------
# the trajectory
# ----------------------------------------------------------------------------


def epoch_of(variant: str, step: int, batch_size: int, n: int) -> int:
    """Passes over the data begun by ``step``: ⌈s·B/N⌉ (⌈s/N⌉ online, s for batch).

    Read by a run (:meth:`Trajectory.epoch`) and by its scene record read back (``viz.scene.SceneRun``).
    """
    if variant == "batch":
        return int(step)
    return -(-int(step) * batch_size // n)


def examined_at(variant: str, step: int, n: int, order) -> np.ndarray:
    """The indices examined at ``step``, shape (k,) (empty at step 0): point (s − 1) mod N (cyclic), every point
    (batch), else ``order[s − 1]`` (random: one index; mini-batch: B), ``order`` of shape (S,) or (S, B)."""
    if step == 0:
        return _EMPTY
    if variant == "cyclic":
        return readonly(np.array([(step - 1) % n], dtype=np.int64))
    if variant == "batch":
        return readonly(np.arange(n, dtype=np.int64))
    return readonly(np.atleast_1d(order[step - 1]).astype(np.int64))


@dataclass(frozen=True, eq=False)
class Trajectory(RunSteps):
    """A whole perceptron run, stored compactly; indexing gives snapshots.

    Attributes
    ----------
    problem : Problem
        The data and the mistake rule.
    variant, reduction : str
        The variant and, for minibatch/batch, whether the step is τ/B Σ or τ Σ.
    tau : float
        Step size τ.
    batch_size : int
        B (1 for online variants, N for batch).
    n_steps : int
        S, the index of the last step (the run has S + 1 snapshots).
    update_steps : ndarray of shape (K,)
        The steps after which the state changed, increasing.
    W : ndarray of shape (K + 1, d)
        W[k] is w after the k-th update (W[0] = w₀).
    B : ndarray of shape (K + 1,)
        B[k] is b after the k-th update (B[0] = b₀).
    order : ndarray of shape (S,) or (S, B), or None
        The points examined at steps 1..S for the random and minibatch
        variants (a minibatch's row in increasing index order: I is a set);
        None where it follows from the step (cyclic, batch).
    converged : bool
        Whether the last state misclassifies no point under the rule.
    max_steps : int
        The step cap the run was given.
    step_cap : int
        The steps the run could take: ``max_steps``, or fewer where the work cap stops it first
        (minibatch and batch examine B points per step, at most 5,000,000 in a run).
    """

    problem: Problem
    variant: str
    reduction: str
    tau: float
    batch_size: int
    n_steps: int
    update_steps: np.ndarray
    W: np.ndarray
    B: np.ndarray
    order: np.ndarray | None
    converged: bool
    max_steps: int
    step_cap: int

    @property
    def stopped_by_work_cap(self) -> bool:
        """The run ended at the work cap, before ``max_steps`` and without converging."""
        return not self.converged and self.n_steps == self.step_cap < self.max_steps

    def _states_at(self, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(w, b) after k updates, shapes (len(k), d) and (len(k),); :meth:`states` maps steps to k."""
        return self.W[k], self.B[k]

    def _state_margins(self, states: np.ndarray):
        """Yield (slice, margins) over chunks of stored states; margins has shape (chunk, n).

        The chunks bound the (chunk, n) matrix of yᵢ(w·xᵢ + b) to about 2,000,000 numbers.
        """
        p = self.problem
        chunk = max(1, 2_000_000 // p.n)
        for a in range(0, states.size, chunk):
            k = states[a:a + chunk]
            yield slice(a, a + chunk), p.y * activation(p.X, self.W[k], self.B[k])

    def state_mistakes(self, states) -> np.ndarray:
        """Mistake masks M of the given stored states (indices into W, B).

        Parameters
        ----------
        states : array_like of shape (k,)
            Indices 0..K of stored states.

        Returns
        -------
        ndarray of shape (k, n), bool
            Row j is M at state ``states[j]`` under the active rule.
        """
        states = np.asarray(states, dtype=np.int64).reshape(-1)
        out = np.empty((states.size, self.problem.n), dtype=bool)
        for rows, m in self._state_margins(states):
            out[rows] = self.problem.mistakes(m)
        return out

    def stats_at(self, steps) -> tuple[np.ndarray, np.ndarray]:
        """|M| and the mean perceptron loss after each of ``steps``.

        Computed once per distinct stored state among the steps.

        Parameters
        ----------
        steps : array_like of shape (k,)

        Returns
        -------
        errors : ndarray of shape (k,), int64
        loss : ndarray of shape (k,), float64
            (1/N) Σᵢ max(0, −yᵢ(w·xᵢ + b)).
        """
        states, inverse = np.unique(self.state_index(np.asarray(steps).reshape(-1)), return_inverse=True)
        err = np.empty(states.size, dtype=np.int64)
        loss = np.empty(states.size)
        for rows, m in self._state_margins(states):
            err[rows] = self.problem.mistakes(m).sum(axis=1)
            loss[rows] = perceptron_loss(m)
        return err[inverse], loss[inverse]

    def curves(self) -> tuple[np.ndarray, np.ndarray]:
        """|M| and the mean perceptron loss after every step 0..S, shapes (S + 1,) and (S + 1,)."""
        return self.stats_at(np.arange(len(self)))

    def epoch(self, step: int) -> int:
        """Passes over the data begun by ``step``: ⌈s·B/N⌉ (⌈s/N⌉ online, s for batch)."""
        return epoch_of(self.variant, step, self.batch_size, self.problem.n)

    def examined(self, step: int) -> np.ndarray:
        """Indices examined at ``step``, shape (k,) (empty at step 0)."""
        return examined_at(self.variant, step, self.problem.n, self.order)

    def updated(self, step: int) -> np.ndarray:
        """Indices whose yᵢxᵢ entered the update at ``step`` (M ∩ examined at the old state)."""
        pos = self.update_position(step)
        if pos is None:
            return _EMPTY
        ex = self.examined(step)
        # M ∩ I judged at the state before the step, w_{k} with k = pos updates so far
        m = self.problem.y[ex] * activation(self.problem.X[ex], self.W[pos], self.B[pos])
        return readonly(ex[self.problem.mistakes(m)])

    def __getitem__(self, step: int) -> Snapshot:
        step = self.checked_step(step)
        k = int(self.state_index(step))
        return Snapshot(
            step=step,
            w=readonly(self.W[k]),
            b=float(self.B[k]),
            examined=self.examined(step),
            updated=self.updated(step),
            converged=bool(self.converged and step == self.n_steps),
            epoch=self.epoch(step),
            problem=self.problem,
        )


# ----------------------------------------------------------------------------
# engines
# ----------------------------------------------------------------------------


def _online(problem: Problem, w, b, tau, max_steps, cyclic, rng):
    """Online perceptron (cyclic or random order).

    Between two mistakes w and b do not change, so where mistakes are rare the
    margins of the next L examined points are computed in one vectorised call
    and the first mistake is found with argmax (L doubles after a clean block);
    where they are dense and d = 2, a plain scalar loop over Python floats is
    cheaper per step. Convergence is decided without an O(N) check after every
    update: in cyclic order a clean pass of N examinations at one (w, b) proves
    it; in random order a full check runs once a state has survived min(N, 256)
    examinations.

    Returns
    -------
    tuple
        (n_steps, update_steps, W, B, order, converged).
    """
    X, n = problem.X, problem.n
    yf = problem.y.astype(np.float64)
    strict = problem.update_on == "negative"
    fit_b = problem.fit_intercept
    order = None if cyclic else np.empty(max_steps, dtype=np.int64)
    filled = 0  # order[:filled] is drawn
    steps, Ws, Bs = [], [w], [b]
    st = {"s": 0, "last": 0, "checked": False}
    patience = min(n, 256)
    ar = np.arange(1 << 16)

    def scalar_block(idx, w, b):
        """Examine the points idx one by one, updating as we go; return (w, b, converged)."""
        xb, yb = X[idx].tolist(), yf[idx].tolist()
        w0, w1, bb = float(w[0]), float(w[1]), float(b)
        s, last, checked = st["s"], st["last"], st["checked"]
        conv = False
        for (xi0, xi1), yi in zip(xb, yb, strict=True):
            s += 1
            m = yi * (w0 * xi0 + w1 * xi1 + bb)  # y·(w·x + b)
            if m < 0 or (m == 0 and not strict):
                if cyclic and s - 1 - last >= n:  # a clean pass preceded this point
                    conv = True
                    break
                # perceptron_update written out on Python floats, the fast path where mistakes are dense
                # (test_every_update_is_the_formula holds it equal, bit for bit)
                w0 += tau * yi * xi0
                w1 += tau * yi * xi1
                if fit_b:
                    bb += tau * yi
                steps.append(s)
                Ws.append((w0, w1))
                Bs.append(bb)
                last, checked = s, False
            elif not cyclic and not checked and s - last >= patience:
                checked = True
                if problem.separates(np.array([w0, w1]), bb):
                    conv = True
                    break
        if cyclic and not conv and s - last >= n:
            conv = True
        st.update(s=s, last=last, checked=checked)
        return np.array([w0, w1]), bb, conv

    converged = problem.separates(w, b)
    L, dense = 64, 0
    while st["s"] < max_steps and not converged:
        s = st["s"]
        L = min(L, max_steps - s)
        if not cyclic:
            while filled < min(s + max(L, 512), max_steps):  # fixed blocks: the stream depends on the seed only
                k = min(4096, max_steps - filled)
                order[filled:filled + k] = rng.integers(0, n, size=k)
                filled += k
        if dense >= 3 and X.shape[1] == 2:
            k0 = len(steps)
            L = min(512, max_steps - s)
            idx = (s + ar[:L]) % n if cyclic else order[s:s + L]  # examined at s+1..s+L
            w, b, converged = scalar_block(idx, w, b)
            if len(steps) - k0 < 16:  # mistakes became rare: back to vectorised blocks
                dense, L = 0, 64
            continue
        idx = (s + ar[:L]) % n if cyclic else order[s:s + L]  # examined at s+1..s+L
        m = yf[idx] * activation(X[idx], w, b)  # y·(w·x + b) for the block
        bad = m < 0 if strict else m <= 0
        j = int(bad.argmax()) if bad.any() else -1
        if j < 0:
            st["s"] = s = s + L
            L, dense = min(2 * L, ar.size), 0
            if cyclic and s - st["last"] >= n:  # a clean pass of N points at one (w, b)
                converged = True
            elif not cyclic and not st["checked"] and s - st["last"] >= patience:
                st["checked"] = True
                converged = problem.separates(w, b)
            continue
        if cyclic and s + j - st["last"] >= n:
            converged = True
            break
        s += j + 1
        i = idx[j]
        w, b = perceptron_update(w, b, tau, yf[i:i + 1], X[i:i + 1], fit_b)  # w ← w + τ·y·x, b ← b + τ·y
        steps.append(s)
        Ws.append(w)
        Bs.append(b)
        st.update(s=s, last=s, checked=False)
        dense = dense + 1 if j < 16 else 0
        L = max(8, L // 4)
    s, last = st["s"], st["last"]
    if not converged:  # the cap may fall before the proof (a clean pass, or the patience check)
        converged = problem.separates(w, b)
    if converged:
        s = last  # the run ends at the first state that misclassifies nothing
    if order is not None:
        order = order[:s].copy()
    return s, steps, Ws, Bs, order, converged


def _batched(problem: Problem, w, b, tau, max_steps, batch_size, minibatch, reduction, rng):
    """Minibatch or full-batch perceptron, one vectorised step per loop turn.

    A state is checked against all N points only when a step finds no mistake
    in its batch (or at the end): on data with mistakes in most batches that
    saves an O(N) check per step, and a converged state is still found, one
    step late at most, and the run then ends at the update that reached it.
    """
    X, n = problem.X, problem.n
    yf = problem.y.astype(np.float64)
    fit_b = problem.fit_intercept
    # τ/B Σ (mean) or τ Σ (sum); B = N for the full batch
    scale = tau / batch_size if reduction == "mean" else tau
    order = np.empty((max_steps, batch_size), dtype=np.int32) if minibatch else None
    steps, Ws, Bs = [], [w], [b]
    converged, checked = problem.separates(w, b), True
    s = last = 0
    while s < max_steps and not converged:
        if minibatch:
            idx = np.sort(rng.choice(n, size=batch_size, replace=False))  # I, |I| = B, a set: in index order
            order[s] = idx
            M = idx[problem.mistakes(yf[idx] * activation(X[idx], w, b))]  # M ∩ I
        else:
            M = np.flatnonzero(problem.mistakes(problem.margins(w, b)))  # M
        s += 1
        if M.size == 0:
            if not checked:  # the batch is clean: is the whole data? (for the full batch, it is)
                checked = True
                converged = not minibatch or problem.separates(w, b)
            continue
        w, b = perceptron_update(w, b, scale, yf[M], X[M], fit_b)  # w ← w + τ/B Σ_{i∈M} yᵢxᵢ, b ← b + τ/B Σ_{i∈M} yᵢ
        steps.append(s)
        Ws.append(w)
        Bs.append(b)
        last, checked = s, False
    if not converged and not checked:  # the cap fell before the last state was checked
        converged = problem.separates(w, b)
    if converged:
        s = last  # the run ends at the first state that misclassifies nothing
    if order is not None:
        order = order[:s].copy()
    return s, steps, Ws, Bs, order, converged


def max_steps_allowed(variant: str, n: int, batch_size: int = 1) -> int:
    """The steps a run may take before its work cap stops it: 5,000,000, and for minibatch
    and batch at most 5,000,000 point examinations (steps × B, B = N for batch)."""
    per_step = {"minibatch": batch_size, "batch": n}.get(variant, 1)
    return MAX_STEPS_LIMIT if per_step <= 1 else max(1, min(MAX_STEPS_LIMIT, WORK_LIMIT // per_step))


def run_perceptron(
    X,
    y,
    *,
    variant: str = "cyclic",
    tau: float = 1.0,
    batch_size: int = 1,
    w0=None,
    b0: float = 0.0,
    update_on: str = "nonpositive",
    fit_intercept: bool = True,
    max_steps: int = 10_000,
    seed: int | np.random.Generator = 0,
    reduction: str = "mean",
) -> Trajectory:
    """Run a perceptron variant to convergence or ``max_steps`` and keep the whole run.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Points.
    y : array_like of shape (n,)
        Labels in {−1, +1}.
    variant : {"cyclic", "random", "minibatch", "batch"}
        See the module docstring.
    tau : float
        Step size τ > 0 (at most 1e6).
    batch_size : int
        B for ``minibatch``, 1 <= B <= N; ignored by the other variants.
    w0 : array_like of shape (d,), optional
        Initial weights (default zeros).
    b0 : float
        Initial bias (held fixed when ``fit_intercept`` is False).
    update_on : {"nonpositive", "negative"}
        Mistake rule y·a <= 0 or y·a < 0. With "negative", w₀ = 0, b₀ = 0
        misclassifies nothing and never moves.
    fit_intercept : bool
        Learn b (True) or keep b = b₀.
    max_steps : int
        Cap on the number of steps, 0 <= max_steps <= 5,000,000. Minibatch and batch runs
        also stop at the work cap, 5,000,000 point examinations (steps × B, B = N for batch),
        and say so (``stopped_by_work_cap``); a run that converges first is not affected.
    seed : int or numpy.random.Generator
        Source of the random order (random, minibatch).
    reduction : {"mean", "sum"}
        Minibatch and batch step: τ/B Σ (gradient of the mean loss) or τ Σ.

    Returns
    -------
    Trajectory
        Stops at the first state that misclassifies no point (``converged``),
        after ``max_steps`` steps, or at the work cap (``step_cap``), whichever comes first.
    """
    Xa, ya = validate_data(X, y)
    n, d = Xa.shape
    check_choice("variant", variant, VARIANTS)
    check_choice("update_on", update_on, UPDATE_RULES)
    check_choice("reduction", reduction, REDUCTIONS)
    tau = check_real("tau", tau, low=0.0, high=TAU_LIMIT, strict_low=True)
    b0 = check_real("b0", b0, low=-TAU_LIMIT, high=TAU_LIMIT)
    if not is_int(max_steps) or not 0 <= max_steps <= MAX_STEPS_LIMIT:
        raise ValueError(f"max_steps must be an integer between 0 and {MAX_STEPS_LIMIT:,}, got {max_steps!r}")
    if variant == "minibatch":
        if not is_int(batch_size) or not 1 <= batch_size <= n:
            raise ValueError(f"batch_size must be an integer between 1 and N = {n}, got {batch_size!r}")
        B = int(batch_size)
    else:
        B = n if variant == "batch" else 1
    cap = min(int(max_steps), max_steps_allowed(variant, n, B))  # the work cap stops a run, never refuses it
    if w0 is None:
        w = np.zeros(d)
    else:
        try:
            w = np.array(w0, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ValueError(f"w0 must be {d} finite numbers, got {w0!r}") from None
        if w.shape != (d,) or not np.isfinite(w).all() or np.abs(w).max() > TAU_LIMIT:
            raise ValueError(f"w0 must be {d} finite numbers of size <= 1e6, got {np.asarray(w0).tolist()}")
    if isinstance(seed, np.random.Generator):
        rng = seed
    elif is_int(seed) and seed >= 0:
        rng = np.random.default_rng(int(seed))
    else:
        raise ValueError(f"seed must be a non-negative integer or a numpy Generator, got {seed!r}")

    problem = Problem(X=Xa, y=ya, update_on=update_on, fit_intercept=bool(fit_intercept))
    if variant in ("cyclic", "random"):
        out = _online(problem, w, b0, tau, cap, variant == "cyclic", rng)
    else:
        out = _batched(problem, w, b0, tau, cap, B, variant == "minibatch", reduction, rng)
    s, steps, Ws, Bs, order, converged = out
    return Trajectory(
        problem=problem,
        variant=variant,
        reduction=reduction,
        tau=tau,
        batch_size=B,
        n_steps=int(s),
        update_steps=readonly(np.asarray(steps, dtype=np.int64)),
        W=readonly(np.array(Ws, dtype=np.float64).reshape(len(Ws), d)),
        B=readonly(np.array(Bs, dtype=np.float64)),
        order=None if order is None else readonly(order),
        converged=bool(converged),
        max_steps=int(max_steps),
        step_cap=cap,
    )


def perceptron(X, y, **kwargs) -> Iterator[Snapshot]:
    """Yield the perceptron's snapshots, step 0 (the initial state) first.

    Takes the parameters of :func:`run_perceptron`. Each later snapshot is the
    state after examining one point (cyclic, random) or one batch. The
    parameters are validated when called, before the first snapshot.
    """
    return iter(run_perceptron(X, y, **kwargs))
