"""Tests for ``core.dual``: the dual (kernel) perceptron, the Gram matrix, the kernels.

:func:`naive_dual` is the algorithm as the seeds write it, one Python loop:
f(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ) + b summed afresh at every check from kernel values
computed with ``math``, αᵢ ← αᵢ + η and b ← b + η·yᵢ on y·f <= 0, stop at the
first state that misclassifies nothing. The compact implementation (which
keeps f current and scans in blocks) is compared with it snapshot by snapshot.
"""

from __future__ import annotations

import dataclasses
import math
import tracemalloc

import numpy as np
import pytest
from oracles import dual_perceptron

from core.bounds import is_separable
from core.dual import N_LIMIT, decision_function, gram, kernel_matrix, max_steps_allowed, primal_agreement, run_dual
from core.perceptron import run_perceptron
from core.snapshot import DualSnapshot
from datasets import make_dataset
from viz.dual import dual_summary

KERNELS = [("linear", {}), ("poly", {"degree": 2, "coef0": 1.0}), ("poly", {"degree": 3, "coef0": 0.0}),
           ("rbf", {"gamma": 0.5}), ("rbf", {"gamma": 3.0})]


def k_direct(a, z, kernel, p) -> float:
    """K(a, z) from its definition, with Python floats."""
    if kernel == "linear":
        return sum(u * v for u, v in zip(a, z, strict=True))
    if kernel == "poly":
        return (sum(u * v for u, v in zip(a, z, strict=True)) + p.get("coef0", 1.0)) ** p.get("degree", 2)
    return math.exp(-p.get("gamma", 1.0) * sum((u - v) ** 2 for u, v in zip(a, z, strict=True)))


def naive_dual(X, y, *, eta, kernel, params, max_steps, order=None):
    """One dict per state: step, alpha, b, examined, updated, errors."""
    X = np.asarray(X, dtype=float).tolist()
    y = [int(v) for v in y]
    n = len(X)
    alpha, b = [0.0] * n, 0.0

    def f(i):  # f(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ) + b, summed afresh
        return sum(alpha[j] * y[j] * k_direct(X[j], X[i], kernel, params) for j in range(n) if alpha[j]) + b

    def errors():
        return sum(y[i] * f(i) <= 0 for i in range(n))

    out = [{"step": 0, "alpha": list(alpha), "b": b, "examined": [], "updated": [], "errors": errors()}]
    if out[0]["errors"] == 0:
        return out
    for s in range(1, max_steps + 1):
        i = (s - 1) % n if order is None else int(order[s - 1])
        upd = []
        if y[i] * f(i) <= 0:
            alpha[i] += eta  # αᵢ ← αᵢ + η
            b += eta * y[i]  # b ← b + η·yᵢ
            upd = [i]
        out.append({"step": s, "alpha": list(alpha), "b": b, "examined": [i], "updated": upd, "errors": errors()})
        if upd and out[-1]["errors"] == 0:
            break
    return out


def random_data(seed, n=12, scale=2.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * scale
    y = np.where(rng.random(n) < 0.5, -1, 1)
    y[0], y[1] = 1, -1
    return X, y


# ----------------------------------------------------------------------------
# the run against the naive reference
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("kernel,params", KERNELS)
@pytest.mark.parametrize("variant", ["cyclic", "random"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_naive_reference(kernel, params, variant, seed):
    X, y = random_data(seed)
    eta = [1.0, 0.1, 2.5][seed]
    traj = run_dual(X, y, eta=eta, kernel=kernel, variant=variant, max_steps=300, seed=seed, **params)
    ref = naive_dual(X, y, eta=eta, kernel=kernel, params=params, max_steps=300, order=traj.order)
    assert len(traj) == len(ref), (len(traj), len(ref))
    for snap, r in zip(traj, ref, strict=True):
        assert snap.step == r["step"]
        np.testing.assert_allclose(snap.alpha, r["alpha"], rtol=1e-12, atol=1e-12)
        assert snap.b == pytest.approx(r["b"], abs=1e-12)
        assert snap.examined.tolist() == r["examined"]
        assert snap.updated.tolist() == r["updated"]
        assert snap.errors == r["errors"]
    assert traj.converged == (ref[-1]["errors"] == 0)


def test_random_order_is_drawn_from_the_seed():
    X, y = random_data(5, n=30)
    a = run_dual(X, y, variant="random", max_steps=50, seed=7)
    b = run_dual(X, y, variant="random", max_steps=50, seed=7)
    c = run_dual(X, y, variant="random", max_steps=50, seed=8)
    assert a.order.tolist() == b.order.tolist()
    assert a.order.tolist() != c.order.tolist()


def test_textbook_worked_example():
    """x₁ = (3, 3) +1, x₂ = (4, 3) +1, x₃ = (1, 1) −1, cyclic, η = 1: seven updates, converged at step 15."""
    X, y = make_dataset("textbook", 3, 0)
    traj = run_dual(X, y)
    assert traj.converged
    assert traj.update_steps.tolist() == [1, 3, 6, 9, 10, 12, 15]
    assert traj.update_points.tolist() == [0, 2, 2, 2, 0, 2, 2]
    last = traj[-1]
    assert last.alpha.tolist() == [2.0, 0.0, 5.0]
    assert last.b == -3.0
    # the step the issue writes out: x₃ misclassified, α₃ ← 4 + 1 = 5, b ← −2 + 1·(−1) = −3
    before = traj[14]
    assert (before.alpha[2], before.b, last.alpha[2], last.b) == (4.0, -2.0, 5.0, -3.0)
    assert last.errors == 0 and last.converged


@pytest.mark.parametrize("variant", ["cyclic", "random"])
@pytest.mark.parametrize("seed", range(6))
def test_linear_kernel_equals_the_primal_perceptron(variant, seed):
    """w = Σ αᵢyᵢxᵢ equals the primal w (τ = η) at every step, for the same order of points."""
    X, y = random_data(seed, n=40)
    eta = [1.0, 0.5, 0.1][seed % 3]
    dual = run_dual(X, y, eta=eta, variant=variant, max_steps=2000, seed=seed)
    primal = run_perceptron(X, y, tau=eta, variant=variant, max_steps=2000, seed=seed)
    assert dual.n_steps == primal.n_steps and dual.converged == primal.converged
    assert dual.update_steps.tolist() == primal.update_steps.tolist()
    steps = np.arange(len(dual))
    np.testing.assert_allclose(dual.weights(steps), primal.states(steps)[0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(dual.B[dual.state_index(steps)], primal.states(steps)[1], rtol=0, atol=1e-12)
    agree = primal_agreement(dual, primal)
    assert agree.same_mistakes and agree.diverged_at is None
    assert agree.max_w_diff < 1e-9 and agree.max_b_diff < 1e-12


def test_agreement_names_the_first_divergence():
    """A primal run from another start (w₀ ≠ 0) makes other mistakes; the comparison says where."""
    X, y = random_data(3, n=30)
    dual = run_dual(X, y, max_steps=500)
    primal = run_perceptron(X, y, max_steps=500, w0=(5.0, -5.0))
    agree = primal_agreement(dual, primal)
    assert not agree.same_mistakes
    first = next(s for s in range(1, 501) if dual.updated(s).tolist() != primal.updated(s).tolist())
    assert agree.diverged_at == first


def grid_data(seed, n=30):
    """Small whole-number points: every kernel value and sum is exact, and ties (y·f = 0) are frequent."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, 2)).astype(float)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    return X, y


@pytest.mark.parametrize("kernel,params", [("linear", {}), ("poly", {"degree": 2, "coef0": 1.0})])
@pytest.mark.parametrize("seed", range(4))
def test_ties_on_whole_numbers_match_the_reference_exactly(kernel, params, seed):
    X, y = grid_data(seed)
    traj = run_dual(X, y, kernel=kernel, max_steps=200, **params)
    ref = naive_dual(X, y, eta=1.0, kernel=kernel, params=params, max_steps=200)
    assert [s.updated.tolist() for s in traj] == [r["updated"] for r in ref]
    assert [s.errors for s in traj] == [r["errors"] for r in ref]


def decimal_data(seed, n=25):
    """Points with one decimal: kernel sums round, and a point can sit exactly on the boundary."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.uniform(-1, 1, size=(n, 2)), 1)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    return X, y


@pytest.mark.parametrize("kernel,params", [("linear", {}), ("rbf", {"gamma": 2.0}), ("poly", {"degree": 3})])
def test_every_view_of_a_run_judges_ties_as_the_run_did(kernel, params):
    """On rounded data the run, its snapshots and the step text must agree on which side of 0 each y·f is."""
    for seed in range(40):
        X, y = decimal_data(seed)
        traj = run_dual(X, y, kernel=kernel, max_steps=300, **params)
        steps = np.arange(1, len(traj))
        before = traj.decisions(steps - 1)  # f at the state each step examined
        for s, f in zip(steps.tolist(), before, strict=True):
            i = int(traj.examined(s)[0])
            assert (traj.updated(s).size > 0) == (y[i] * f[i] <= 0), (seed, s)
        if traj.converged:
            assert traj[-1].errors == 0 and not traj.mistakes([traj.n_steps]).any()
        # every η makes the same mistakes: the run decides on f/η
        other = run_dual(X, y, kernel=kernel, eta=0.1, max_steps=300, **params)
        assert other.update_points.tolist() == traj.update_points.tolist()
        assert other.update_steps.tolist() == traj.update_steps.tolist()


def test_checkpoints_give_the_same_sums_as_the_run():
    """More than 256 updates: states past a checkpoint are re-summed from it, bit for bit."""
    X, y = make_dataset("xor", 200, 0, noise=1.0)
    traj = run_dual(X, y, max_steps=3000)  # the linear kernel on XOR never converges: many updates
    assert traj.n_updates > 600 and traj.checkpoints.shape[0] == traj.n_updates // 256 + 1
    states = np.array([0, 1, 255, 256, 257, 511, 512, traj.n_updates, 300, 3])
    got = traj.scores(states)
    # the reference: one walk from zero, adding the rows in update order
    h, ref = np.zeros(200), {}
    beta = 0
    for k in range(traj.n_updates + 1):
        ref[k] = h + beta
        if k < traj.n_updates:
            i = int(traj.update_points[k])
            h = h + float(y[i]) * traj.problem.G[i]
            beta += int(y[i])
    for row, k in zip(got, states.tolist(), strict=True):
        assert (row == ref[k]).all(), k


def test_eta_only_scales_alpha_and_b():
    X, y = random_data(9, n=25)
    a = run_dual(X, y, eta=1.0, kernel="rbf", gamma=1.0, max_steps=3000)
    b = run_dual(X, y, eta=0.1, kernel="rbf", gamma=1.0, max_steps=3000)
    assert a.update_steps.tolist() == b.update_steps.tolist()
    np.testing.assert_allclose(b[-1].alpha, 0.1 * a[-1].alpha)


def test_kernel_perceptron_separates_circles_that_no_line_separates():
    X, y = make_dataset("circles", 120, 0)
    assert not is_separable(X, y)
    lin = run_dual(X, y, max_steps=5000)
    assert not lin.converged and lin.n_steps == 5000 and lin[-1].errors > 0
    for kernel, params in [("rbf", {"gamma": 1.0}), ("poly", {"degree": 2, "coef0": 1.0})]:
        traj = run_dual(X, y, kernel=kernel, max_steps=50_000, **params)
        assert traj.converged, kernel
        snap = traj[-1]
        assert snap.errors == 0 and (snap.margins > 0).all()
        # the decision function agrees with the Gram matrix at the data points
        f = decision_function(X, y, snap.alpha, snap.b, X, kernel, **params)
        np.testing.assert_allclose(f, snap.decision, rtol=1e-9, atol=1e-9)


def test_not_separable_in_feature_space_stops_at_max_steps():
    """The same point with both labels: no kernel separates it."""
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]])
    y = np.array([1, -1, 1])
    traj = run_dual(X, y, kernel="rbf", gamma=2.0, max_steps=777)
    assert not traj.converged and traj.n_steps == 777 and traj[-1].errors >= 1


def test_snapshots_and_generator():
    X, y = random_data(1)
    traj = run_dual(X, y, kernel="poly", degree=2, max_steps=100)
    snaps = list(dual_perceptron(X, y, kernel="poly", degree=2, max_steps=100))
    assert len(snaps) == len(traj)
    assert all(isinstance(s, DualSnapshot) for s in snaps)
    assert snaps[0].step == 0 and not snaps[0].alpha.any() and snaps[0].b == 0
    for s in snaps:
        assert not s.alpha.flags.writeable and not s.examined.flags.writeable
        assert s.support.tolist() == (s.alpha > 0).tolist()
    with pytest.raises(ValueError):
        s.alpha[0] = 1.0
    with pytest.raises(ValueError, match="feature space"):
        snaps[-1].w  # noqa: B018 - the property raises
    with pytest.raises(IndexError):
        traj[len(traj)]


def test_alpha_counts_updates_and_b_sums_labels():
    X, y = random_data(4, n=20)
    traj = run_dual(X, y, eta=0.5, variant="random", max_steps=400, seed=2)
    for s in (0, 1, 57, traj.n_steps):
        k = int(traj.state_index(s))
        pts = traj.update_points[:k]
        counts = np.bincount(pts, minlength=20)
        assert traj[s].alpha.tolist() == (0.5 * counts).tolist()
        assert traj[s].b == pytest.approx(0.5 * float(y[pts].sum()), abs=1e-12)


# ----------------------------------------------------------------------------
# Gram matrix, kernels, decision function
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("kernel,params", KERNELS)
def test_gram_against_direct_sums(kernel, params):
    X, _ = random_data(2, n=15)
    G = gram(X, kernel, **params)
    ref = [[k_direct(a, z, kernel, params) for z in X.tolist()] for a in X.tolist()]
    np.testing.assert_allclose(G, ref, rtol=1e-12, atol=1e-12)
    assert (G == G.T).all()  # exactly symmetric
    assert not G.flags.writeable
    if kernel == "rbf":
        assert (np.diag(G) == 1).all()
    # positive semidefinite, as every kernel's Gram matrix is
    assert np.linalg.eigvalsh(G).min() > -1e-9 * max(1.0, np.abs(G).max())


@pytest.mark.parametrize("kernel,params", KERNELS)
def test_decision_function_against_direct_sums(kernel, params):
    X, y = random_data(6, n=10)
    rng = np.random.default_rng(0)
    alpha = rng.integers(0, 3, size=(4, 10)).astype(float)
    b = rng.normal(size=4)
    P = rng.normal(size=(7, 2)) * 3
    f = decision_function(X, y, alpha, b, P, kernel, **params)
    assert f.shape == (4, 7)
    for k in range(4):
        for m in range(7):
            ref = sum(alpha[k, i] * y[i] * k_direct(X[i], P[m], kernel, params) for i in range(10)) + b[k]
            assert f[k, m] == pytest.approx(ref, rel=1e-9, abs=1e-9)
    one = decision_function(X, y, alpha[1], b[1], P, kernel, **params)
    np.testing.assert_allclose(one, f[1])


def test_decision_function_memory_grows_with_support_not_with_n():
    """2,000 points, 5 with α > 0, 200,000 grid points: a full kernel block would be 3.2 GB."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2000, 2))
    y = np.where(rng.random(2000) < 0.5, -1, 1)
    alpha = np.zeros(2000)
    alpha[[3, 50, 700, 1200, 1999]] = 1.0
    P = rng.normal(size=(200_000, 2))
    tracemalloc.start()
    f = decision_function(X, y, alpha, 0.5, P, "rbf", gamma=1.0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert f.shape == (200_000,)
    assert peak < 120e6, f"peak {peak / 1e6:.0f} MB"
    S = [3, 50, 700, 1200, 1999]
    ref = (y[S] * np.exp(-((P[:5, None, :] - X[S][None]) ** 2).sum(-1))).sum(1) + 0.5
    np.testing.assert_allclose(f[:5], ref, rtol=1e-12)


def test_kernel_evaluations_counted():
    X, y = random_data(8, n=15)
    traj = run_dual(X, y, kernel="rbf", gamma=1.0, max_steps=200)
    cost = traj.kernel_evaluations()
    # naive count: at each step, one evaluation per point with α > 0 before the step, and a converged run
    # checked every point once more at its last state (the clean pass that proved it)
    naive = sum(int((traj[s - 1].alpha > 0).sum()) for s in range(1, len(traj)))
    assert traj.converged
    naive += 15 * int((traj[-1].alpha > 0).sum())
    assert cost["without_gram"] == naive
    assert cost["with_gram"] == 15 * 16 // 2 and cost["saved"] == naive - 120  # G's distinct entries
    assert cost["checks"] == traj.n_steps + 15
    stopped = run_dual(X, y, kernel="rbf", gamma=1.0, max_steps=5).kernel_evaluations()
    assert stopped["checks"] == 5  # not converged: no proving pass


# ----------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,match", [
    ({"eta": 0}, "eta must be >= 1e-06"),
    ({"eta": -1.0}, "eta must be >= 1e-06"),
    ({"eta": float("nan")}, "eta must be finite"),
    ({"kernel": "sigmoid"}, "kernel must be one of"),
    ({"kernel": "poly", "degree": 0}, "degree must be an integer between 1 and 10"),
    ({"kernel": "poly", "degree": 1.5}, "degree must be an integer"),
    ({"kernel": "poly", "degree": 11}, "degree must be an integer between 1 and 10"),
    ({"kernel": "poly", "coef0": -1}, "coef0 must be >= 0"),
    ({"kernel": "rbf", "gamma": 0}, "gamma must be > 0"),
    ({"kernel": "rbf", "gamma": -2}, "gamma must be > 0"),
    ({"kernel": "rbf", "sigma": 2}, "unknown kernel parameter"),
    ({"variant": "minibatch"}, "variant must be one of"),
    ({"max_steps": -1}, "max_steps must be an integer"),
    ({"max_steps": 2.5}, "max_steps must be an integer"),
    ({"seed": -3}, "seed must be a non-negative integer"),
    ({"G": np.eye(2)}, r"G must be the finite \(3, 3\) Gram matrix"),
])
def test_validation_messages(kwargs, match):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    y = np.array([1, -1, 1])
    with pytest.raises(ValueError, match=match):
        run_dual(X, y, **kwargs)


def test_limits_are_refused_with_a_message():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_LIMIT + 1, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match="N must be at most 5,000"):
        run_dual(X, y, max_steps=1)
    with pytest.raises(ValueError, match="N must be at most"):
        gram(X)
    X, y = X[:2000], y[:2000]
    assert max_steps_allowed(2000) == 100_000  # the work cap stops a run there (test_the_work_cap_stops_a_dual_run…)
    with pytest.raises(ValueError, match="max_steps must be an integer between 0 and 1,000,000"):
        run_dual(X, y, max_steps=1_000_001)
    big = np.array([[1e40, 1e40], [-1e40, 1e40]])  # beyond what validate_data lets through
    with pytest.raises(ValueError, match="polynomial kernel overflows"):
        kernel_matrix(big, big, "poly", degree=10, coef0=1.0)
    with pytest.raises(ValueError, match="labels must be -1 or \\+1"):
        run_dual([[0.0, 0.0], [1.0, 1.0]], [0, 1])


def test_cached_gram_gives_the_same_run():
    X, y = random_data(11, n=30)
    G = gram(X, "rbf", gamma=2.0)
    a = run_dual(X, y, kernel="rbf", gamma=2.0, G=G, max_steps=500)
    b = run_dual(X, y, kernel="rbf", gamma=2.0, max_steps=500)
    assert a.update_steps.tolist() == b.update_steps.tolist()
    assert a.update_points.tolist() == b.update_points.tolist()


def test_separable_in_feature_space():
    from core.dual import separable_in_feature_space as sep

    X, y = make_dataset("circles", 100, 0)
    assert sep(X, y) is False and sep(X, y, "poly", degree=1) is False
    assert sep(X, y, "rbf", gamma=1.0) is True and sep(X, y, "poly", degree=2) is None
    Xs, ys = make_dataset("separable", 50, 0)
    assert sep(Xs, ys) is True
    same = [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]
    assert sep(same, [1, -1, 1], "rbf") is False and sep(same, [1, -1, 1], "poly", degree=3) is False
    # distinct in the plane, the same point as far as K's rounding can tell: exp(−γ·1e−18) == 1
    assert sep([[0.0, 0.0], [1e-9, 0.0], [1.0, 1.0]], [1, -1, 1], "rbf") is False
    assert sep([[0.0, 0.0], [1e-5, 0.0], [1.0, 1.0]], [1, -1, 1], "rbf") is None  # K within 1e-9 of 1


def test_agreement_when_only_one_run_converges():
    """The same first mistakes, then the primal goes on updating after the dual stopped (or the other way)."""
    X, y = make_dataset("textbook", 3, 0)
    dual = run_dual(X, y)  # converges at step 15 with 7 updates
    primal = run_perceptron(X, y, max_steps=15)
    assert primal_agreement(dual, primal).same_mistakes
    # a primal that starts elsewhere: different updates, and the comparison stops before they part
    other = run_perceptron(X, y, max_steps=100, w0=(0.0, 1.0))
    a = primal_agreement(dual, other)
    assert not a.same_mistakes and a.diverged_at is not None
    assert a.steps_compared == a.diverged_at  # steps 0 .. diverged_at − 1
    # a dual run cut short by max steps: within it they agree, and it says nothing past its end
    short = run_dual(X, y, max_steps=8)
    assert not short.converged and primal_agreement(short, run_perceptron(X, y, max_steps=100)).same_mistakes
    # the dual converged while the primal went on updating (as a tie rounded the other way would make it):
    # they parted at the primal's next update, and w is compared only before it
    primal = run_perceptron(X, y, max_steps=100)
    more = dataclasses.replace(
        primal, n_steps=30, converged=False, update_steps=np.append(primal.update_steps, 21),
        W=np.vstack([primal.W, primal.W[-1] + X[2]]), B=np.append(primal.B, primal.B[-1] - 1))
    a = primal_agreement(dual, more)
    assert not a.same_mistakes and a.diverged_at == 21


def test_zero_steps_is_the_initial_state():
    X, y = random_data(3)
    traj = run_dual(X, y, max_steps=0)
    assert traj.n_steps == 0 and not traj.converged and len(list(traj)) == 1
    assert traj[0].errors == len(y)  # f = 0: every y·f = 0 counts as a mistake


def test_the_work_cap_stops_a_dual_run_and_says_so():
    """steps × N is capped (each update costs O(N)): a run reaching it ends there; one converging first is never refused."""
    rng = np.random.default_rng(3)
    n = 2500
    X, y = rng.normal(size=(n, 2)), np.where(rng.random(n) < 0.5, -1, 1)  # random labels: never separable
    cap = max_steps_allowed(n)
    traj = run_dual(X, y, max_steps=cap + 10)
    assert cap == 80_000 and traj.n_steps == traj.step_cap == cap and traj.stopped_by_work_cap
    assert "Stopped at the work cap after 80,000 steps" in dual_summary(traj, False)[1]
    for separable in (True, None):  # the advice is what can help: never "raise max steps" once the work cap stopped it
        text = dual_summary(traj, separable)[1]
        assert "raise max steps" not in text and "use fewer points" in text, separable
    assert not run_dual(X, y, max_steps=cap).stopped_by_work_cap  # max steps came first
    Xs = np.array([[2.0, 1.0], [3.0, -1.0], [-2.0, 0.5], [-3.0, -0.5]])
    ys = np.array([1, 1, -1, -1])
    ok = run_dual(Xs, ys, max_steps=1_000_000)
    assert ok.converged and not ok.stopped_by_work_cap
