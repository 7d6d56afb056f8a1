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
