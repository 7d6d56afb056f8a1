"""core.bounds.is_separable against a linear-programming reference."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from core.bounds import convex_hull, is_separable
from datasets import REGISTRY, make_dataset


def lp_separable(X: np.ndarray, y: np.ndarray, fit_intercept: bool = True) -> bool:
    """Strictly separable iff some (w, b) has yᵢ(w·xᵢ + b) >= 1 for all i (an LP feasibility problem)."""
    Z = np.hstack([X, np.ones((len(y), 1))]) if fit_intercept else X
    A = -(y[:, None] * Z)
    res = linprog(np.zeros(Z.shape[1]), A_ub=A, b_ub=-np.ones(len(y)), bounds=[(None, None)] * Z.shape[1],
                  method="highs")
    return res.status == 0


@pytest.mark.parametrize("name", list(REGISTRY))
def test_registry_datasets(name):
    spec = REGISTRY[name]
    X, y = make_dataset(name, spec.default_n if spec.fixed_n else 80, 2)
    assert is_separable(X, y) == lp_separable(X, y)
    if spec.separable is not None:
        assert is_separable(X, y) == spec.separable


small = st.integers(-3, 3).map(float)  # a coarse grid: collinear points, duplicates and touching hulls are common


@settings(max_examples=300, deadline=None)
@given(pts=st.lists(st.tuples(small, small, st.sampled_from([-1, 1])), min_size=1, max_size=9),
       fit_intercept=st.booleans())
def test_matches_lp_on_degenerate_grids(pts, fit_intercept):
    X = np.array([(a, b) for a, b, _ in pts])
    y = np.array([c for _, _, c in pts])
    assert is_separable(X, y, fit_intercept=fit_intercept) == lp_separable(X, y, fit_intercept)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 40), shift=st.floats(-1, 3))
def test_matches_lp_on_random_clouds(seed, n, shift):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, -1, 1)
    X[y == 1] += shift
    assert is_separable(X, y) == lp_separable(X, y)


def test_hull_is_counter_clockwise_and_minimal():
    P = np.array([[0, 0], [2, 0], [2, 2], [0, 2], [1, 1], [1, 0]], dtype=float)
    H = convex_hull(P)
    assert len(H) == 4
    area = 0.5 * np.sum(H[:, 0] * np.roll(H[:, 1], -1) - np.roll(H[:, 0], -1) * H[:, 1])
    assert area == pytest.approx(4.0)


def test_rejects_non_2d():
    with pytest.raises(ValueError, match="2-D data"):
        is_separable(np.zeros((3, 3)), np.array([1, -1, 1]))


@pytest.mark.parametrize("scale", [1e-13, 1e-6, 1.0, 1e6])
def test_scale_does_not_change_the_answer(scale):
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]) * scale
    assert not is_separable(X, np.array([1, -1, -1, 1]))  # XOR
    assert is_separable(X, np.array([1, -1, 1, -1]))  # split by x₁
    assert is_separable(X + 5 * scale, np.array([1, 1, -1, -1]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(2, 60), tau=st.sampled_from([0.1, 0.5, 1.0, 3.0]),
       fit=st.booleans(), cyclic=st.booleans())
def test_the_proof_s_two_inequalities_and_the_squeeze_hold_at_every_update(seed, n, tau, fit, cyclic):
    """On random separable sets: ⟨w̃*, w̃_k⟩ ≥ kτγ, ‖w̃_k‖² ≤ kτ²R², kτγ ≤ ⟨w̃*, w̃_k⟩ ≤ ‖w̃_k‖ ≤ √k·τR, and so
    the updates K ≤ (R/γ)² (up to rounding: relative 1e-9)."""
    from core.bounds import mistake_bound, novikoff_terms
    from core.perceptron import run_perceptron

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * rng.uniform(0.5, 3)
    normal = rng.normal(size=2)
    off = rng.uniform(-0.5, 0.5) if fit else 0.0
    y = np.where(X @ normal + off >= 0, 1, -1)
    bound = mistake_bound(X, y, fit_intercept=fit)
    if not bound.separable:  # a point on the line: skip this draw
        return
    traj = run_perceptron(X, y, tau=tau, fit_intercept=fit, variant="cyclic" if cyclic else "random",
                          max_steps=200_000, seed=seed)
    inner, norm2 = novikoff_terms(traj.W, traj.B, bound)
    k = np.arange(traj.n_updates + 1)
    slack = 1e-9 * (1 + k * tau * bound.R)
    assert inner.shape == norm2.shape == (traj.n_updates + 1,)
    assert (inner >= k * tau * bound.gamma - slack).all()
    assert (norm2 <= k * tau**2 * bound.R**2 + slack * (1 + k * tau * bound.R)).all()
    assert (inner <= np.sqrt(norm2) + slack).all()  # Cauchy–Schwarz, ‖w̃*‖ = 1
    assert (np.sqrt(norm2) <= np.sqrt(k) * tau * bound.R + slack).all()
    assert traj.n_updates <= bound.bound * (1 + 1e-9)
