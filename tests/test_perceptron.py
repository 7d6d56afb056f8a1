"""Tests for ``core.perceptron``: the four primal perceptron variants.

The heart of the file is :func:`naive_reference`, a plain Python loop written
straight from the seeds' notation (a = w·x + b, mistake when y·a <= 0 or < 0,
w ← w + τ·y·x, b ← b + τ·y, stop at the first state with no mistake). Every
snapshot of the compact, block-scanning implementation is compared with it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.formulas import perceptron_update
from core.perceptron import WORK_LIMIT, perceptron, run_perceptron
from core.snapshot import Snapshot
from viz.perceptron import run_summary

VARIANTS = ("cyclic", "random", "minibatch", "batch")
ONLINE = ("cyclic", "random")
RULES = ("nonpositive", "negative")
FAST = settings(max_examples=25, deadline=None)


# ----------------------------------------------------------------------------
# the naive reference
# ----------------------------------------------------------------------------


def naive_reference(X, y, *, variant, tau, w0, b0, update_on, fit_intercept, max_steps, order=None, reduction="mean"):
    """The perceptron exactly as the seeds write it, one Python loop, no tricks.

    ``order`` gives the point (random) or subset I (minibatch) examined at step
    s as ``order[s - 1]``; cyclic uses (s − 1) mod N and batch all points.
    Returns one dict per state: step, w, b, examined, updated, converged,
    errors, loss, mistakes (mask).
    """
    X = [[float(v) for v in row] for row in np.asarray(X, dtype=float)]
    y = [int(v) for v in y]
    n, d = len(X), len(X[0])
    w = [float(v) for v in w0]
    b = float(b0)

    def margin(i, w, b):  # y·(w·x + b)
        a = 0.0
        for j in range(d):
            a = a + w[j] * X[i][j]
        return y[i] * (a + b)

    def mistake(m):
        return m < 0 if update_on == "negative" else m <= 0

    def record(step, examined, updated):
        ms = [margin(i, w, b) for i in range(n)]
        bad = [mistake(m) for m in ms]
        return {
            "step": step,
            "w": list(w),
            "b": b,
            "examined": list(examined),
            "updated": list(updated),
            "errors": sum(bad),
            "mistakes": bad,
            "loss": sum(max(0.0, -m) for m in ms) / n,
            "converged": not any(bad),
        }

    states = [record(0, [], [])]
    s = 0
    while not states[-1]["converged"] and s < max_steps:
        s += 1
        if variant == "cyclic":
            examined = [(s - 1) % n]
        elif variant == "random":
            examined = [int(order[s - 1])]
        elif variant == "minibatch":
            examined = [int(i) for i in order[s - 1]]
        else:
            examined = list(range(n))
        M = [i for i in examined if mistake(margin(i, w, b))]  # judged at the state before the step
        if variant in ONLINE:
            for i in M:  # at most one point
                w = [w[j] + tau * y[i] * X[i][j] for j in range(d)]
                if fit_intercept:
                    b = b + tau * y[i]
        elif M:
            scale = tau / len(examined) if reduction == "mean" else tau  # τ/B Σ or τ Σ
            sx = [sum(y[i] * X[i][j] for i in M) for j in range(d)]
            w = [w[j] + scale * sx[j] for j in range(d)]
            if fit_intercept:
                b = b + scale * sum(y[i] for i in M)
        states.append(record(s, examined, M))
    return states


def assert_matches_reference(traj, ref, *, epoch_of, label=""):
    """Compare every snapshot with the reference states (stacked, so one numpy call per field)."""
    snaps = list(traj)
    assert len(snaps) == len(ref), f"{label}: {len(snaps) - 1} steps, reference {len(ref) - 1}"
    assert traj.n_steps == len(ref) - 1
    assert traj.converged == ref[-1]["converged"], label
    assert all(isinstance(s, Snapshot) for s in snaps)
    assert [s.step for s in snaps] == [r["step"] for r in ref], label
    np.testing.assert_allclose(
        np.array([s.w for s in snaps]), np.array([r["w"] for r in ref]), rtol=1e-12, atol=1e-12, err_msg=label
    )
    np.testing.assert_allclose([s.b for s in snaps], [r["b"] for r in ref], rtol=1e-12, atol=1e-12, err_msg=label)
    for field in ("examined", "updated"):
        got = [getattr(s, field).tolist() for s in snaps]
        want = [r[field] for r in ref]
        bad = [k for k in range(len(ref)) if got[k] != want[k]]
        assert not bad, f"{label}: {field} at step {bad[0]}: got {got[bad[0]]}, expected {want[bad[0]]}"
    for s in snaps:
        assert s.examined.dtype.kind == s.updated.dtype.kind == "i"
    assert [s.converged for s in snaps] == [r["converged"] and r is ref[-1] for r in ref], label
    assert [s.errors for s in snaps] == [r["errors"] for r in ref], label
    np.testing.assert_array_equal(
        np.array([s.misclassified for s in snaps]), np.array([r["mistakes"] for r in ref]), err_msg=label
    )
    np.testing.assert_allclose([s.loss for s in snaps], [r["loss"] for r in ref], rtol=1e-10, atol=1e-12, err_msg=label)
    assert [s.epoch for s in snaps] == [epoch_of(r["step"]) for r in ref], label
    # the vectorised per-trajectory views agree with the reference too
    errors, loss = traj.curves()
    assert errors.shape == loss.shape == (len(ref),)
    np.testing.assert_array_equal(errors, [r["errors"] for r in ref], err_msg=label)
    np.testing.assert_allclose(loss, [r["loss"] for r in ref], rtol=1e-10, atol=1e-12, err_msg=label)
    masks = traj.state_mistakes(traj.state_index(np.arange(len(ref))))
    np.testing.assert_array_equal(masks, np.array([r["mistakes"] for r in ref]), err_msg=label)
    W, B = traj.states()
    np.testing.assert_allclose(W, np.array([r["w"] for r in ref]), rtol=1e-12, atol=1e-12, err_msg=label)
    np.testing.assert_allclose(B, [r["b"] for r in ref], rtol=1e-12, atol=1e-12, err_msg=label)


def epoch_fn(variant, n, batch_size):
    if variant == "batch":
        return lambda s: s
    B = batch_size if variant == "minibatch" else 1
    return lambda s: math.ceil(s * B / n)


# ----------------------------------------------------------------------------
# small fixed datasets
# ----------------------------------------------------------------------------


def _datasets():
    """name -> (X, y, exact). ``exact``: coordinates and every τ used on it keep arithmetic exact."""
    rng = np.random.default_rng(20240601)
    out = {}

    # separable in 2-D with a margin
    X = rng.uniform(-2, 2, size=(60, 2))
    m = X @ np.array([0.8, -0.6]) + 0.3
    keep = np.abs(m) >= 0.2
    out["separable"] = (X[keep][:12], np.where(m[keep][:12] > 0, 1, -1), False)

    # noisy: a linear rule with three labels flipped (not separable)
    X = rng.normal(size=(11, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    y[[1, 4, 7]] *= -1
    out["noisy"] = (X, y, False)

    # points at the origin (y·a = y·b exactly, a tie whenever b = 0) among generic points
    X = np.vstack([np.zeros((2, 2)), rng.normal(size=(7, 2))])
    y = np.array([1, -1, 1, 1, -1, 1, -1, -1, 1])
    out["origin"] = (X, y, False)

    # exact ties: integer grid, the origin, a duplicated point with both labels, and
    # points on the initial boundary 0.5·x₁ − 0.25·x₂ + 0.75 = 0 of the non-zero start
    X = np.array([[0, 0], [1, 2], [1, 2], [-1.5, 0], [0, 3], [2, -1], [-1, -1], [3, 1]], dtype=float)
    y = np.array([1, 1, -1, 1, -1, 1, -1, 1])
    out["ties"] = (X, y, True)

    # separable through the origin with one +1 point at the origin
    X = np.array([[0, 0], [2, 1], [1, 2], [-1, -2], [-2, -1], [1, 0], [0, -1], [-1, 0]], dtype=float)
    y = np.array([1, 1, 1, -1, -1, 1, -1, -1])
    out["origin_separable"] = (X, y, True)

    # the textbook example
    out["textbook"] = (np.array([[3, 3], [4, 3], [1, 1]], dtype=float), np.array([1, 1, -1]), True)

    # 3-D, nearly separable
    X = rng.normal(size=(10, 3))
    y = np.where(X @ np.array([1.0, -2.0, 0.5]) - 0.2 > 0, 1, -1)
    y[3] *= -1
    out["3d"] = (X, y, False)

    # 1-D, separable with a threshold
    X = np.array([[-2.0], [-0.5], [0.7], [1.5], [3.0], [-1.25]])
    out["1d"] = (X, np.array([-1, -1, 1, 1, 1, -1]), True)

    # one point; two points
    out["single"] = (np.array([[1.0, -2.0]]), np.array([-1]), True)
    out["pair"] = (np.array([[1.0, 1.0], [2.0, 2.0]]), np.array([1, -1]), True)
    return out


DATA = _datasets()


def _inits(d):
    # dyadic values keep the exact datasets exact
    return [(np.zeros(d), 0.0), (np.array([0.5, -0.25, 0.125][:d]), 0.75)]


def _taus(exact):
    return (1.0, 2.5) if exact else (0.1, 1.0, 2.5)


def _batch_sizes(n, exact):
    sizes = (1, 2, n) if exact else (1, 3, n)
    return sorted({min(b, n) for b in sizes})


# ----------------------------------------------------------------------------
# 1. every snapshot against the naive reference
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("update_on", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_matches_naive_reference(variant, update_on, fit_intercept):
    runs = converged_after_updates = 0
    cap = 120 if variant in ONLINE else 70
    for name, (X, y, exact) in DATA.items():
        n, d = X.shape
        reductions = ("mean",) if variant in ONLINE else ("mean", "sum")
        sizes = _batch_sizes(n, exact) if variant == "minibatch" else [1]
        for tau in _taus(exact):
            for w0, b0 in _inits(d):
                for reduction in reductions:
                    for B in sizes:
                        common = dict(
                            variant=variant,
                            tau=tau,
                            w0=w0,
                            b0=b0,
                            update_on=update_on,
                            fit_intercept=fit_intercept,
                            max_steps=cap,
                            reduction=reduction,
                        )
                        kw = dict(common, batch_size=B, seed=runs)
                        traj = run_perceptron(X, y, **kw)
                        if variant in ("random", "minibatch"):
                            order = np.asarray(traj.order)
                            assert order.shape == ((traj.n_steps,) if variant == "random" else (traj.n_steps, B))
                            assert ((order >= 0) & (order < n)).all()
                            if variant == "minibatch":  # I is drawn without replacement
                                assert all(len(set(row)) == B for row in order.tolist())
                        else:
                            assert traj.order is None
                        ref = naive_reference(X, y, order=traj.order, **common)
                        label = f"{name} {kw}"
                        assert_matches_reference(traj, ref, epoch_of=epoch_fn(variant, n, B), label=label)
                        runs += 1
                        converged_after_updates += traj.converged and traj.n_updates > 0
    assert runs >= 40
    assert converged_after_updates >= 5  # the stopping rule is exercised, not just the cap


@pytest.mark.parametrize("variant", VARIANTS)
def test_truncated_runs_are_prefixes_of_the_full_run(variant):
    """Every smaller max_steps gives the same states, cut short; converged only when the cap allows it."""
    for name, (X, y, _) in DATA.items():
        n, d = X.shape
        B = min(2, n)
        full = run_perceptron(X, y, variant=variant, batch_size=B, max_steps=60, seed=3)
        for cap in range(0, full.n_steps + 1):
            part = run_perceptron(X, y, variant=variant, batch_size=B, max_steps=cap, seed=3)
            if variant in ("random", "minibatch"):
                # the random stream is an implementation detail: compare with the reference on the run's own order
                ref = naive_reference(
                    X,
                    y,
                    variant=variant,
                    tau=1.0,
                    w0=np.zeros(d),
                    b0=0.0,
                    update_on="nonpositive",
                    fit_intercept=True,
                    max_steps=cap,
                    order=part.order,
                )
                assert_matches_reference(part, ref, epoch_of=epoch_fn(variant, n, B), label=f"{name} cap {cap}")
                continue
            assert part.n_steps == cap, name
            assert part.converged == (full.converged and cap == full.n_steps), f"{name} cap {cap}"
            np.testing.assert_array_equal(part.update_steps, full.update_steps[full.update_steps <= cap])
            Wp, Bp = part.states()
            Wf, Bf = full.states(np.arange(cap + 1))
            np.testing.assert_array_equal(Wp, Wf)
            np.testing.assert_array_equal(Bp, Bf)


@pytest.mark.parametrize("variant", ["random", "minibatch"])
def test_random_order_reference_with_generator_seed(variant):
    X, y, _ = DATA["noisy"]
    traj = run_perceptron(X, y, variant=variant, batch_size=4, tau=0.5, max_steps=200, seed=np.random.default_rng(7))
    ref = naive_reference(
        X,
        y,
        variant=variant,
        tau=0.5,
        w0=np.zeros(2),
        b0=0.0,
        update_on="nonpositive",
        fit_intercept=True,
        max_steps=200,
        order=traj.order,
    )
    assert_matches_reference(traj, ref, epoch_of=epoch_fn(variant, len(y), 4))


def test_online_variants_ignore_reduction_and_batch_size():
    X, y, _ = DATA["noisy"]
    for variant in ONLINE:
        a = run_perceptron(X, y, variant=variant, reduction="mean", batch_size=1, max_steps=50)
        b = run_perceptron(X, y, variant=variant, reduction="sum", batch_size=5, max_steps=50)
        np.testing.assert_array_equal(a.W, b.W)
        np.testing.assert_array_equal(a.update_steps, b.update_steps)
        assert a.batch_size == b.batch_size == 1


def test_batch_mean_is_sum_scaled_by_one_over_n():
    X, y, _ = DATA["noisy"]
    n = len(y)
    mean = run_perceptron(X, y, variant="batch", reduction="mean", tau=1.0, max_steps=30)
    summ = run_perceptron(X, y, variant="batch", reduction="sum", tau=1.0 / n, max_steps=30)
    np.testing.assert_allclose(mean.W, summ.W, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(mean.B, summ.B, rtol=1e-12, atol=1e-14)
    assert mean.batch_size == n


def test_generator_yields_the_same_snapshots_as_the_trajectory():
    X, y, _ = DATA["noisy"]
    kw = dict(variant="random", tau=0.5, max_steps=40, seed=11)
    traj = run_perceptron(X, y, **kw)
    gen = perceptron(X, y, **kw)
    snaps = list(gen)
    assert len(snaps) == len(traj) == traj.n_steps + 1 == 41
    for a, b in zip(snaps, traj, strict=True):
        assert a.step == b.step
        np.testing.assert_array_equal(a.w, b.w)
        assert a.b == b.b
        np.testing.assert_array_equal(a.examined, b.examined)
        np.testing.assert_array_equal(a.updated, b.updated)
    assert traj[-1].step == traj.n_steps
    with pytest.raises(IndexError):
        traj[traj.n_steps + 1]
    W, B = traj.states()
    assert W.shape == (41, 2) and B.shape == (41,)
    np.testing.assert_array_equal(W[17], traj[17].w)


def test_input_arrays_are_copied():
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    y = np.array([1, 1, -1])
    traj = run_perceptron(X, y, variant="cyclic")
    X[:] = 0.0
    y[:] = 1
    assert traj.problem.X[0, 0] == 3.0
    assert traj[-1].errors == 0
    np.testing.assert_array_equal(traj[-1].w, [1.0, 1.0])


# ----------------------------------------------------------------------------
# 2. the textbook worked example
# ----------------------------------------------------------------------------

TEXTBOOK_X = [(3, 3), (4, 3), (1, 1)]
TEXTBOOK_Y = [1, 1, -1]


def test_textbook_worked_example():
    snaps = list(perceptron(TEXTBOOK_X, TEXTBOOK_Y, variant="cyclic", tau=1.0))
    assert [s.step for s in snaps] == list(range(16))
    updated_steps = [s.step for s in snaps if s.updated.size]
    assert updated_steps == [1, 3, 6, 9, 10, 12, 15]
    for s in snaps[1:]:
        assert s.examined.tolist() == [(s.step - 1) % 3]
        if s.updated.size:
            assert s.updated.tolist() == s.examined.tolist()
    np.testing.assert_array_equal(snaps[9].w, [0.0, 0.0])
    assert snaps[9].b == -2.0
    np.testing.assert_array_equal(snaps[1].w, [3.0, 3.0])
    assert snaps[1].b == 1.0
    last = snaps[-1]
    np.testing.assert_array_equal(last.w, [1.0, 1.0])
    assert last.b == -3.0
    assert last.converged and last.step == 15 and last.epoch == 5
    assert last.errors == 0 and last.loss == 0.0
    assert not any(s.converged for s in snaps[:-1])
    assert all(s.errors > 0 for s in snaps[:-1])
    traj = run_perceptron(TEXTBOOK_X, TEXTBOOK_Y, variant="cyclic")
    assert traj.n_updates == 7
    np.testing.assert_array_equal(traj.update_steps, [1, 3, 6, 9, 10, 12, 15])
    # a cap exactly at the converging update still reports convergence; one step earlier does not
    at15 = run_perceptron(TEXTBOOK_X, TEXTBOOK_Y, variant="cyclic", max_steps=15)
    assert at15.n_steps == 15 and at15.converged and at15[-1].converged
    at14 = run_perceptron(TEXTBOOK_X, TEXTBOOK_Y, variant="cyclic", max_steps=14)
    assert at14.n_steps == 14 and not at14.converged and at14[-1].errors == 1


# ----------------------------------------------------------------------------
# 3. the "negative" rule from zero never moves
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_negative_rule_from_zero_converges_at_step_zero(variant):
    for name, (X, y, _) in DATA.items():
        snaps = list(perceptron(X, y, variant=variant, update_on="negative", batch_size=1, max_steps=100))
        assert len(snaps) == 1, name
        s0 = snaps[0]
        assert s0.step == 0 and s0.converged and s0.errors == 0
        assert s0.updated.size == 0 and s0.examined.size == 0
        np.testing.assert_array_equal(s0.margins, np.zeros(len(y)))
        # the same start under "nonpositive" is all mistakes
        first = run_perceptron(X, y, variant=variant, batch_size=1, max_steps=1)
        assert first[0].errors == len(y) and not first[0].converged


# ----------------------------------------------------------------------------
# the cap falls exactly on the converging update
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_cap_at_the_converging_step(variant):
    """A final state that misclassifies nothing has converged=True, whatever the cap.

    Regression: _online skipped the final check when the update at step == max_steps reached a separating
    state (textbook data, cyclic, max_steps=15 gave converged=False with 0 errors).
    """
    for name, (X, y, _) in DATA.items():
        full = run_perceptron(X, y, variant=variant, batch_size=min(2, len(y)), max_steps=5000, seed=5)
        if not full.converged or full.n_steps == 0:
            continue
        cut = run_perceptron(X, y, variant=variant, batch_size=min(2, len(y)), max_steps=full.n_steps, seed=5)
        assert cut[-1].errors == 0, name
        assert cut.n_steps == full.n_steps, name
        assert cut.converged and cut[-1].converged, f"{name}: final state has 0 errors but converged=False"


# ----------------------------------------------------------------------------
# 4. hypothesis properties
# ----------------------------------------------------------------------------


@st.composite
def separable_data(draw, max_n=20):
    """(X, y, u, c): points with |u·x + c| >= 0.1 for a random unit u and offset c, y = sign(u·x + c)."""
    n = draw(st.integers(1, max_n))
    theta = draw(st.floats(0.0, 2 * math.pi))
    c = draw(st.floats(-0.5, 0.5))
    seed = draw(st.integers(0, 2**32 - 1))
    u = np.array([math.cos(theta), math.sin(theta)])
    X = np.random.default_rng(seed).uniform(-2, 2, size=(8 * n + 64, 2))
    m = X @ u + c
    keep = np.abs(m) >= 0.1
    X, m = X[keep][:n], m[keep][:n]
    assert len(X) == n
    return X, np.where(m > 0, 1, -1), u, c


@st.composite
def any_data(draw, max_n=15, max_d=3):
    n = draw(st.integers(1, max_n))
    d = draw(st.integers(1, max_d))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), draw(st.sampled_from([0, 1, 6])))  # rounding makes ties likely
    y = rng.choice([-1, 1], size=n)
    return X, y


@FAST
@given(
    data=separable_data(),
    variant=st.sampled_from(VARIANTS),
    tau=st.sampled_from([0.1, 1.0, 2.5]),
    reduction=st.sampled_from(["mean", "sum"]),
    bsize=st.integers(1, 20),
    seed=st.integers(0, 1000),
)
def test_separable_data_converges_strictly(data, variant, tau, reduction, bsize, seed):
    X, y, _, _ = data
    B = {"minibatch": min(bsize, len(y)), "batch": len(y)}.get(variant, 1)
    traj = run_perceptron(
        X, y, variant=variant, tau=tau, reduction=reduction, batch_size=min(bsize, len(y)),
        max_steps=min(500_000, WORK_LIMIT // B), seed=seed,
    )
    assert traj.converged
    last = traj[-1]
    assert last.converged and last.errors == 0
    assert (last.margins > 0).all()
    assert traj.n_steps == 0 or traj[traj.n_steps - 1].errors > 0


@FAST
@given(
    data=any_data(),
    tau=st.sampled_from([0.1, 1.0, 2.5]),
    fit_intercept=st.booleans(),
    rule=st.sampled_from(RULES),
    variant=st.sampled_from(ONLINE),
    w0seed=st.integers(0, 100),
    b0=st.sampled_from([0.0, 0.5, -1.25]),
)
def test_online_update_raises_margin_by_tau_norm_sq(data, tau, fit_intercept, rule, variant, w0seed, b0):
    X, y = data
    w0 = np.random.default_rng(w0seed).normal(size=X.shape[1])
    traj = run_perceptron(
        X,
        y,
        variant=variant,
        tau=tau,
        fit_intercept=fit_intercept,
        update_on=rule,
        w0=w0,
        b0=b0,
        max_steps=300,
        seed=w0seed,
    )
    for k, s in enumerate(traj.update_steps.tolist()):
        i = (s - 1) % len(y) if variant == "cyclic" else int(traj.order[s - 1])
        before = y[i] * (X[i] @ traj.W[k] + traj.B[k])
        after = y[i] * (X[i] @ traj.W[k + 1] + traj.B[k + 1])
        assert (before < 0) if rule == "negative" else (before <= 0)
        gain = tau * (X[i] @ X[i] + (1.0 if fit_intercept else 0.0))
        assert after - before == pytest.approx(gain, rel=1e-9, abs=1e-9)
        if not fit_intercept:
            assert traj.B[k + 1] == b0
        assert traj[s].updated.tolist() == [i]


@FAST
@given(
    data=any_data(),
    variant=st.sampled_from(VARIANTS),
    max_steps=st.integers(0, 60),
    rule=st.sampled_from(RULES),
    bsize=st.integers(1, 15),
    seed=st.integers(0, 2**32 - 1),
)
def test_steps_never_exceed_max_steps(data, variant, max_steps, rule, bsize, seed):
    X, y = data
    traj = run_perceptron(
        X,
        y,
        variant=variant,
        max_steps=max_steps,
        update_on=rule,
        seed=seed,
        batch_size=min(bsize, len(y)),
        w0=np.ones(X.shape[1]),
        b0=-0.5,
    )
    snaps = list(
        perceptron(
            X,
            y,
            variant=variant,
            max_steps=max_steps,
            update_on=rule,
            seed=seed,
            batch_size=min(bsize, len(y)),
            w0=np.ones(X.shape[1]),
            b0=-0.5,
        )
    )
    assert traj.n_steps <= max_steps
    assert len(snaps) == traj.n_steps + 1 <= max_steps + 1
    assert traj.n_updates <= traj.n_steps
    assert (np.diff(traj.update_steps) > 0).all()
    assert traj.W.shape == (traj.n_updates + 1, X.shape[1])
    if not traj.converged:
        assert traj.n_steps == max_steps  # stopped only by the cap
    assert traj.converged == (snaps[-1].errors == 0)
    assert all(s.errors > 0 for s in snaps[:-1])  # stops at the *first* clean state
    assert not any(s.converged for s in snaps[:-1])


@FAST
@given(data=any_data(), variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32 - 2), bsize=st.integers(1, 15))
def test_same_seed_same_trajectory(data, variant, seed, bsize):
    X, y = data
    kw = dict(variant=variant, max_steps=80, batch_size=min(bsize, len(y)), b0=0.25)
    a = run_perceptron(X, y, seed=seed, **kw)
    b = run_perceptron(X, y, seed=seed, **kw)
    g = run_perceptron(X, y, seed=np.random.default_rng(seed), **kw)
    for other in (b, g):
        assert other.n_steps == a.n_steps and other.converged == a.converged
        np.testing.assert_array_equal(other.update_steps, a.update_steps)
        np.testing.assert_array_equal(other.W, a.W)
        np.testing.assert_array_equal(other.B, a.B)
        if a.order is None:
            assert other.order is None
        else:
            np.testing.assert_array_equal(other.order, a.order)


@FAST
@given(seed=st.integers(0, 2**32 - 2), variant=st.sampled_from(["random", "minibatch"]))
def test_different_seeds_give_different_orders(seed, variant):
    # a point with both labels: never converges, so the run uses all max_steps
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(size=(18, 2)), [[1.0, 1.0], [1.0, 1.0]]])
    y = np.r_[rng.choice([-1, 1], size=18), 1, -1]
    kw = dict(variant=variant, batch_size=3, max_steps=40)
    a = run_perceptron(X, y, seed=seed, **kw)
    b = run_perceptron(X, y, seed=seed + 1, **kw)
    assert a.n_steps == b.n_steps == 40
    assert not np.array_equal(a.order, b.order)  # equal with probability 20^-40


def test_different_seeds_usually_give_different_trajectories():
    X, y, _ = DATA["noisy"]
    for variant in ("random", "minibatch"):
        runs = [run_perceptron(X, y, variant=variant, batch_size=3, max_steps=60, seed=s) for s in range(8)]
        distinct = {(r.update_steps.tobytes(), r.W.tobytes()) for r in runs}
        assert len(distinct) >= 6, variant


@FAST
@given(data=separable_data(max_n=25))
def test_mistake_bound(data):
    X, y, u, c = data
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=2_000_000)
    assert traj.converged
    Xa = np.hstack([X, np.ones((len(X), 1))])
    R = np.linalg.norm(Xa, axis=1).max()
    gamma = (y * (X @ u + c)).min() / math.hypot(1.0, c)  # ‖(u, c)‖ with ‖u‖ = 1
    assert gamma > 0
    assert traj.n_updates <= (R / gamma) ** 2


# ----------------------------------------------------------------------------
# 5. read-only arrays
# ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_arrays_are_read_only(variant):
    X, y, _ = DATA["noisy"]
    traj = run_perceptron(X, y, variant=variant, batch_size=3, max_steps=20)
    snap = next(s for s in traj if s.updated.size)
    for arr in (snap.w, snap.examined, snap.updated, traj.W, traj.B, traj.update_steps, traj.problem.X, traj.problem.y):
        with pytest.raises(ValueError):
            arr[0] = 1
    with pytest.raises(ValueError):
        traj.W[0, 0] = 1.0
    if traj.order is not None:
        with pytest.raises(ValueError):
            traj.order[0] = 0
    w_before = snap.w.copy()
    with pytest.raises(AttributeError):  # frozen dataclass
        snap.w = np.zeros(2)
    np.testing.assert_array_equal(snap.w, w_before)
    s0 = traj[0]
    with pytest.raises(ValueError):
        s0.w[0] = 1.0


# ----------------------------------------------------------------------------
# 6. validation
# ----------------------------------------------------------------------------

_X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
_Y = [1, -1, 1]

BAD = [
    (dict(tau=-1), _X, _Y, r"tau must be > 0, got -1"),
    (dict(tau=0), _X, _Y, r"tau must be > 0"),
    (dict(tau=float("inf")), _X, _Y, r"tau must be finite"),
    (dict(tau=True), _X, _Y, r"tau must be a real number"),
    (dict(), _X, [0, 1, 1], r"labels must be -1 or \+1"),
    (dict(), _X, [2, -1, 1], r"labels must be -1 or \+1"),
    (dict(), _X, [1, -1], r"y must have shape"),
    (dict(), [[0.0, float("nan")], [1.0, 0.0], [2.0, 2.0]], _Y, r"X must"),
    (dict(), [[0.0, float("inf")], [1.0, 0.0], [2.0, 2.0]], _Y, r"X must"),
    (dict(), [0.0, 1.0, 2.0], _Y, r"X must"),
    (dict(), [["a", "b"], ["c", "d"], ["e", "f"]], _Y, r"X must"),
    (dict(), np.zeros((0, 2)), [], r"X must"),
    (dict(variant="minibatch", batch_size=0), _X, _Y, r"batch_size must be .* between 1 and"),
    (dict(variant="minibatch", batch_size=4), _X, _Y, r"batch_size must be .* between 1 and"),
    (dict(variant="minibatch", batch_size=1.5), _X, _Y, r"batch_size must be .* between 1 and"),
    (dict(variant="sgd"), _X, _Y, r"variant must be one of"),
    (dict(update_on="zero"), _X, _Y, r"update_on must be one of"),
    (dict(reduction="max"), _X, _Y, r"reduction must be one of"),
    (dict(max_steps=-1), _X, _Y, r"max_steps must be an integer between 0 and"),
    (dict(max_steps=2.5), _X, _Y, r"max_steps must be an integer"),
    (dict(max_steps=10**9), _X, _Y, r"max_steps must be an integer between 0 and"),
    (dict(w0=[1.0, 2.0, 3.0]), _X, _Y, r"w0 must be 2 finite numbers"),
    (dict(w0=[1.0, float("nan")]), _X, _Y, r"w0 must be 2 finite numbers"),
    (dict(b0=float("nan")), _X, _Y, r"b0 must be finite"),
    (dict(seed=-1), _X, _Y, r"seed must be a non-negative integer"),
    (dict(seed=1.5), _X, _Y, r"seed must be a non-negative integer"),
]


@pytest.mark.parametrize(("kwargs", "X", "y", "match"), BAD)
def test_validation_messages(kwargs, X, y, match):
    with pytest.raises(ValueError, match=match):
        run_perceptron(X, y, **kwargs)
    with pytest.raises(ValueError, match=match):
        perceptron(X, y, **kwargs)  # raised at the call, before any next()


def test_valid_edge_parameters_are_accepted():
    assert run_perceptron(_X, _Y, variant="minibatch", batch_size=3, max_steps=0).n_steps == 0
    assert run_perceptron(_X, _Y, variant="minibatch", batch_size=1, max_steps=5).batch_size == 1
    assert run_perceptron(_X, _Y, tau=1e6, w0=(0.0, 0.0), seed=0).converged
    assert run_perceptron(np.array([[1.0, 1.0]]), np.array([1.0])).converged


# ----------------------------------------------------------------------------
# 7. the large-N path (block scanning and the dense scalar loop)
# ----------------------------------------------------------------------------


def reference_online_large(X, y, *, order, tau, max_steps, fit_intercept=True):
    """Online perceptron, one Python step per point; the full check after each update uses numpy."""
    n, d = X.shape
    Xl, yl = X.tolist(), y.tolist()
    w, b = [0.0] * d, 0.0
    steps, Ws, Bs = [], [list(w)], [b]

    def clean(w, b):
        return bool((y * (X @ np.array(w) + b) > 0).all())

    if clean(w, b):
        return 0, steps, Ws, Bs, True
    for s in range(1, max_steps + 1):
        i = (s - 1) % n if order is None else int(order[s - 1])
        a = 0.0
        for j in range(d):
            a = a + w[j] * Xl[i][j]
        if yl[i] * (a + b) <= 0:
            w = [w[j] + tau * yl[i] * Xl[i][j] for j in range(d)]
            if fit_intercept:
                b = b + tau * yl[i]
            steps.append(s)
            Ws.append(list(w))
            Bs.append(b)
            if clean(w, b):
                return s, steps, Ws, Bs, True
    return max_steps, steps, Ws, Bs, False


def _large(kind, N=20_000):
    rng = np.random.default_rng({"separable": 1, "noisy": 2, "labels": 3, "noisy3d": 4}[kind])
    if kind == "separable":  # mistakes become rare: block scanning
        X = rng.uniform(-1, 1, size=(3 * N, 2))
        m = X @ np.array([0.6, 0.8]) + 0.1
        keep = np.abs(m) >= 0.005
        return X[keep][:N], np.where(m[keep][:N] > 0, 1, -1)
    if kind == "noisy":
        X = rng.normal(size=(N, 2))
        return X, np.where(X[:, 0] + 0.3 * X[:, 1] + 0.3 * rng.normal(size=N) > 0, 1, -1)
    if kind == "labels":  # random labels: mistakes are dense, the scalar loop runs
        return rng.normal(size=(N, 2)), rng.choice([-1, 1], size=N)
    X = rng.normal(size=(N, 3))
    return X, np.where(X @ np.array([1.0, -1.0, 0.5]) + 0.5 * rng.normal(size=N) > 0, 1, -1)


@pytest.mark.parametrize("variant", ONLINE)
@pytest.mark.parametrize(
    ("kind", "epochs"), [("separable", 1), ("separable", 5), ("noisy", 1), ("labels", 1), ("noisy3d", 1)]
)
def test_large_n_matches_reference(kind, epochs, variant):
    X, y = _large(kind)
    N = len(y)
    tau = 0.5
    traj = run_perceptron(X, y, variant=variant, tau=tau, max_steps=epochs * N, seed=9)
    s, steps, Ws, Bs, conv = reference_online_large(X, y, order=traj.order, tau=tau, max_steps=epochs * N)
    assert traj.n_steps == s
    assert traj.converged == conv
    np.testing.assert_array_equal(traj.update_steps, steps)
    np.testing.assert_allclose(traj.W, np.array(Ws), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(traj.B, Bs, rtol=1e-12, atol=1e-12)
    if kind == "separable" and epochs == 5:
        assert conv and 0 < s < epochs * N  # the clean-pass / survival check found convergence
    if kind == "labels":
        assert traj.n_updates > N // 4  # dense mistakes
    # spot-check a few snapshots against the compact arrays
    for step in (0, 1, s // 3, s):
        snap = traj[step]
        k = int(np.searchsorted(steps, step, side="right"))
        np.testing.assert_allclose(snap.w, Ws[k], rtol=1e-12, atol=1e-12)
        assert snap.converged == (conv and step == s)


def test_ties_are_judged_alike_on_every_path():
    """A point exactly on the boundary: the run must not depend on max_steps, and a step that changed w
    names the point that caused it (one summation order for y·(w·x + b) everywhere)."""
    X, y, kw = [[0.7, 0.6], [-1.0, -2.0]], [1, 1], {"w0": (-0.4, 0.8), "b0": -0.2}
    short, long = run_perceptron(X, y, max_steps=1, **kw), run_perceptron(X, y, max_steps=2, **kw)
    assert short.update_steps.tolist() == long.update_steps.tolist()[:1]
    for traj in (short, long):
        for s in traj.update_steps:
            assert traj[int(s)].updated.size > 0


def test_the_work_cap_stops_a_run_and_never_refuses_one_that_converges_first():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(2000, 2)), np.where(rng.random(2000) < 0.5, -1, 1)  # random labels: never separable
    for kw, cap in (({"variant": "batch"}, WORK_LIMIT // 2000), ({"variant": "minibatch", "batch_size": 1600}, WORK_LIMIT // 1600)):
        traj = run_perceptron(X, y, max_steps=100_000, **kw)
        assert traj.n_steps == traj.step_cap == cap and traj.max_steps == 100_000
        assert traj.stopped_by_work_cap and not traj.converged
        kind, text = run_summary(traj, False)
        assert f"Stopped at the work cap after {cap:,} steps" in text and "before max steps (100,000)" in text
        assert "raise max steps" not in run_summary(traj, True)[1]  # the advice is what can help
        short = run_perceptron(X, y, max_steps=cap - 1, **kw)  # max steps first: not the work cap
        assert short.n_steps == cap - 1 and not short.stopped_by_work_cap
        assert run_summary(short, False)[1].startswith(f"No convergence after {cap - 1:,} steps")
    # the case: 200,000 × 60 = 12,000,000 point examinations asked for; it converges in a few steps
    Xs, ys = rng.normal(size=(60, 2)), np.ones(60, dtype=int)
    Xs[:, 0] += np.where(np.arange(60) < 30, 3.0, -3.0)
    ys[30:] = -1
    traj = run_perceptron(Xs, ys, variant="batch", tau=0.5, max_steps=200_000)
    assert traj.converged and traj.n_steps < 100 and not traj.stopped_by_work_cap
    assert sum(1 for _ in perceptron(Xs, ys, variant="batch", tau=0.5, max_steps=200_000)) == traj.n_steps + 1


def test_bad_values_are_refused_with_a_message():
    with pytest.raises(ValueError, match="X values must be at most 1,000,000 in size"):
        run_perceptron([[1e303, 1e303], [-1.0, -1.0]], [1, -1])
    with pytest.raises(ValueError, match="dtype bool"):
        run_perceptron([[1.0, 1.0], [-1.0, -1.0]], [True, False])
    with pytest.raises(ValueError, match="as numbers"):
        run_perceptron([[1.0, 1.0], [-1.0, -1.0]], ["1", "-1"])


@pytest.mark.parametrize("variant", ["cyclic", "random", "minibatch", "batch"])
@pytest.mark.parametrize("kind", ["labels", "noisy"])
def test_every_update_is_the_formula(variant, kind):
    """Each stored update, on every path (the scalar loop where mistakes are dense, the vectorised blocks, the batch
    step), is core.formulas.perceptron_update of the state before on the points updated, bit for bit."""
    X, y = _large(kind, N=3000)
    for fit, tau, reduction in ((True, 0.7, "mean"), (False, 1.3, "sum")):
        traj = run_perceptron(X, y, variant=variant, tau=tau, batch_size=40, max_steps=6000, seed=4,
                              fit_intercept=fit, reduction=reduction)
        B = {"minibatch": 40, "batch": len(y)}.get(variant, 1)
        scale = tau / B if reduction == "mean" and B > 1 else tau
        yf = y.astype(float)
        assert traj.n_updates > 50
        for k, step in enumerate(traj.update_steps.tolist(), start=1):
            M = traj.updated(step)
            w, b = perceptron_update(traj.W[k - 1], float(traj.B[k - 1]), scale, yf[M], X[M], fit)
            assert np.array_equal(w, traj.W[k]) and b == traj.B[k], (variant, kind, k)
