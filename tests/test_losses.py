"""The losses and their surfaces against naive loops and brute force (ties and duplicate points included)."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from oracles import zero_one_subgradient

from core.losses import (
    grid_around,
    hinge,
    hinge_subgradient,
    perceptron,
    perceptron_subgradient,
    surface,
    theta_grid,
    zero_one,
)
from core.perceptron import run_perceptron


def naive(X, y, w, b, lam=0.0):
    """The three mean losses and the perceptron / hinge subgradients of one (w, b), point by point."""
    n = len(y)
    z = p = h = 0.0
    gp, gh = np.zeros(len(w) + 1), np.zeros(len(w) + 1)
    for xi, yi in zip(X, y, strict=True):
        m = yi * (sum(wk * xk for wk, xk in zip(w, xi, strict=True)) + b)
        z += m <= 0
        p += max(0.0, -m)
        h += max(0.0, 1.0 - m)
        if m <= 0:
            gp -= yi * np.r_[xi, 1.0]
        if m < 1:
            gh -= yi * np.r_[xi, 1.0]
    gh = gh / n + np.r_[lam * np.asarray(w), 0.0]
    return z / n, p / n, h / n + 0.5 * lam * float(np.dot(w, w)), gp / n, gh


def data(seed, n=None, ties=True):
    rng = np.random.default_rng(seed)
    n = n or int(rng.integers(2, 70))
    X = rng.normal(size=(n, 2))
    if ties:
        X = np.round(X * 2) / 2  # many exact ties on a grid of weights
        X[: n // 4] = X[0]  # duplicate points
        X[n // 4: n // 3, 1] = 0.0  # points with x₂ = 0: flat along w₂
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = [1, -1]
    return X, y


@pytest.mark.parametrize("seed", range(8))
def test_losses_and_subgradients_match_a_naive_loop(seed):
    X, y = data(seed)
    rng = np.random.default_rng(100 + seed)
    W = np.round(rng.normal(size=(3, 4, 2)) * 2) / 2
    W[0, 0] = 0.0  # w = 0, b = 0: every point is on the boundary
    B = np.round(rng.normal(size=(3, 4)) * 2) / 2
    B[0, 0] = 0.0
    Z, P, H = zero_one(W, B, X, y), perceptron(W, B, X, y), hinge(W, B, X, y, lam=0.3)
    gpw, gpb = perceptron_subgradient(W, B, X, y)
    ghw, ghb = hinge_subgradient(W, B, X, y, lam=0.3)
    assert Z.shape == P.shape == H.shape == (3, 4) and gpw.shape == (3, 4, 2) and gpb.shape == (3, 4)
    for i in range(3):
        for j in range(4):
            z, p, h, gp, gh = naive(X, y, W[i, j], B[i, j], lam=0.3)
            assert Z[i, j] == z
            assert P[i, j] == pytest.approx(p, abs=1e-12) and H[i, j] == pytest.approx(h, abs=1e-12)
            np.testing.assert_allclose(np.r_[gpw[i, j], gpb[i, j]], gp, atol=1e-12)
            np.testing.assert_allclose(np.r_[ghw[i, j], ghb[i, j]], gh, atol=1e-12)
    # at w = 0, b = 0 every point counts for the perceptron: its subgradient is −mean(yx), not 0
    np.testing.assert_allclose(gpw[0, 0], -(y[:, None] * X).mean(axis=0))
    gz, gzb = zero_one_subgradient(W, B, X, y)
    assert not gz.any() and not gzb.any()


def test_minus_tau_times_the_subgradient_is_the_batch_perceptron_step():
    X, y = data(3, n=30, ties=False)
    run = run_perceptron(X, y, variant="batch", tau=0.5, reduction="mean", max_steps=5)
    for k in range(run.n_steps):
        gw, gb = perceptron_subgradient(run.W[k], run.B[k], X, y)
        np.testing.assert_allclose(run.W[k + 1], run.W[k] - 0.5 * gw, atol=1e-12)
        assert run.B[k + 1] == pytest.approx(run.B[k] - 0.5 * gb, abs=1e-12)


def brute(loss, X, y, us, vs, sl, b, r, lam):
    """The surface by broadcasting every grid weight against every point (grid × N: small grids only)."""
    if sl == "w":
        W1, W2 = np.meshgrid(us, vs)
        B = b
    else:
        T, B = np.meshgrid(us, vs)
        W1, W2 = r * np.cos(T), r * np.sin(T)
        B = B[..., None]
    M = y * ((W1[..., None] * X[:, 0] + W2[..., None] * X[:, 1]) + B)
    if loss == "zero_one":
        return (M <= 0).mean(-1)
    if loss == "perceptron":
        return np.maximum(0, -M).mean(-1)
    return np.maximum(0, 1 - M).mean(-1) + 0.5 * lam * ((W1**2 + W2**2) if sl == "w" else r * r)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("sl", ["w", "theta"])
@pytest.mark.parametrize("loss", ["zero_one", "perceptron", "hinge"])
def test_surfaces_are_exact(seed, sl, loss):
    X, y = data(seed)
    rng = np.random.default_rng(seed)
    # an even grid through the tie points, and an uneven one
    grids = [(np.linspace(-2, 2, 41), np.linspace(-2, 2, 33)),
             (np.sort(rng.uniform(-3, 3, 25)), np.sort(rng.uniform(-3, 3, 19)))]
    for us, vs in grids:
        if sl == "theta":
            us = theta_grid(36)
        for b in (0.0, 0.5, -1.0):
            S = surface(loss, X, y, us, vs, slice=sl, b=b, r=1.5, lam=0.2, block=7)
            R = brute(loss, X, y, us, vs, sl, b, 1.5, 0.2)
            if loss == "zero_one":
                assert np.array_equal(S, R)  # exact counts, ties included
            else:
                np.testing.assert_allclose(S, R, rtol=0, atol=1e-12)


def test_surface_agrees_with_the_direct_functions():
    X, y = data(7, n=200)
    us, vs = grid_around(X, y, size=30)
    W = np.stack(np.meshgrid(us, vs), axis=-1)
    assert np.array_equal(surface("zero_one", X, y, us, vs, b=0.25), zero_one(W, 0.25, X, y))
    np.testing.assert_allclose(surface("hinge", X, y, us, vs, b=0.25, lam=0.1), hinge(W, 0.25, X, y, lam=0.1),
                               atol=1e-12)


def test_surface_memory_grows_with_grid_plus_n_not_grid_times_n():
    rng = np.random.default_rng(0)
    n = 2000
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    us, vs = grid_around(X, y, size=200)
    tracemalloc.start()
    surface("zero_one", X, y, us, vs)
    surface("hinge", X, y, us, vs, lam=0.1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    grid_times_n = 200 * 200 * n * 8  # 640 MB as float64
    assert peak < 40e6 and peak < grid_times_n / 15  # a few column blocks of N, not the grid × N tensor


@pytest.mark.parametrize("bad,match", [
    ({"loss": "squared"}, "loss must be one of"),
    ({"slice": "b"}, "slice must be"),
    ({"vs": [1.0, 0.0]}, "vs must be increasing"),
    ({"b": math.inf}, "b"),
    ({"us": []}, "not empty"),
])
def test_surface_rejects_bad_input(bad, match):
    X, y = data(0, n=10)
    kw = {"loss": "hinge", "X": X, "y": y, "us": [0.0, 1.0], "vs": [0.0, 1.0]} | bad
    with pytest.raises(ValueError, match=match):
        surface(**kw)


def test_direct_losses_reject_mismatched_shapes():
    X, y = data(0, n=10)
    with pytest.raises(ValueError, match="W must have shape"):
        hinge(np.zeros((4, 3)), 0.0, X, y)
    with pytest.raises(ValueError, match="b must broadcast"):
        hinge(np.zeros((4, 2)), np.zeros(3), X, y)


def test_perceptron_and_hinge_are_exactly_zero_where_no_point_counts():
    X, y = data(11, n=80, ties=False)
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)  # separable: a cone of weights with zero loss
    us, vs = grid_around(X, y, size=120)
    for loss in ("perceptron", "hinge"):
        S = surface(loss, X, y, us, vs, b=0.1)
        R = brute(loss, X, y, us, vs, "w", 0.1, 1.0, 0.0)
        assert (S >= 0).all()
        assert np.array_equal(S == 0, R == 0)  # zero exactly where the direct sum is, not a rounding residue


def test_surface_validates_its_block_and_grid():
    X, y = data(0, n=10)
    for block in (0, -3, 2.5, True):
        with pytest.raises(ValueError, match="block"):
            surface("hinge", X, y, [0.0, 1.0], [0.0, 1.0], block=block)
    with pytest.raises(ValueError, match="within"):
        surface("hinge", X, y, [0.0, 1e303], [0.0, 1.0])


def test_zero_one_is_exact_on_a_grid_finer_than_the_breakpoints_rounding():
    X = np.array([[5e5, 1e-6], [-5e5, -1e-6], [1.0, 1.0]])
    y = np.array([1, -1, 1])
    b = -(5e5 + 3 * np.spacing(5e5))
    us = np.array([1.0])
    vs = np.sort(1.0 + np.arange(-40, 41) * np.spacing(1.0) * 4)
    S = surface("zero_one", X, y, us, vs, b=b)
    assert np.array_equal(S, brute("zero_one", X, y, us, vs, "w", b, 1.0, 0.0))
