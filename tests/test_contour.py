"""Tests for ``viz.contour.zero_loops``: loops around {F > 0}, oriented, closed, exact for linear F; and
``zero_loops_many``: many fields at once, each exactly as alone."""

from __future__ import annotations

import math

import numpy as np
import pytest

from viz.contour import loops_xy, signed_area, zero_loops, zero_loops_many

XS = np.linspace(-2, 2, 41)
YS = np.linspace(-2, 2, 41)
GX, GY = np.meshgrid(XS, YS)


def winding(loops, p) -> int:
    """Winding number of the loops around point p (crossing rule)."""
    w = 0
    for lp in loops:
        for (x0, y0), (x1, y1) in zip(lp[:-1], lp[1:], strict=True):
            if y0 <= p[1] < y1 and (x1 - x0) * (p[1] - y0) - (p[0] - x0) * (y1 - y0) > 0:
                w += 1
            elif y1 <= p[1] < y0 and (x1 - x0) * (p[1] - y0) - (p[0] - x0) * (y1 - y0) < 0:
                w -= 1
    return w


FUNCTIONS = {
    "annulus": lambda x, y: (np.hypot(x, y) - 0.8) * (1.6 - np.hypot(x, y)),
    "line": lambda x, y: x + 0.5 * y - 0.33,
    "saddle": lambda x, y: x * y + 0.01,
    "bumps": lambda x, y: np.exp(-4 * ((x - 1) ** 2 + y**2)) + np.exp(-4 * ((x + 1) ** 2 + y**2)) - 0.5,
    "holes": lambda x, y: np.cos(3 * x) * np.cos(3 * y) + 0.2,
}


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_loops_enclose_exactly_the_positive_region(name):
    f = FUNCTIONS[name]
    loops = zero_loops(f(GX, GY), XS, YS)
    assert loops
    for lp in loops:
        assert (lp[0] == lp[-1]).all()  # closed
    rng = np.random.default_rng(0)
    P = rng.uniform(-2, 2, size=(400, 2))
    v = f(P[:, 0], P[:, 1])
    far = np.abs(v) > 0.15 * np.abs(f(GX, GY)).max()  # away from the boundary, where the grid is exact enough
    for p, val in zip(P[far], v[far], strict=True):
        assert winding(loops, p) == (1 if val > 0 else 0), (p, val)


def test_annulus_outer_anticlockwise_inner_clockwise():
    loops = zero_loops(FUNCTIONS["annulus"](GX, GY), XS, YS)
    areas = sorted((signed_area(lp) for lp in loops), key=abs)
    assert len(areas) == 2
    assert areas[0] == pytest.approx(-math.pi * 0.8**2, rel=0.02)
    assert areas[1] == pytest.approx(math.pi * 1.6**2, rel=0.02)


def test_linear_function_gives_the_exact_line_with_two_border_points():
    F = GX + 0.5 * GY - 0.33
    (lp,) = zero_loops(F, XS, YS)
    ring = lp[:-1]  # the last vertex repeats the first
    inside = ring[(np.abs(ring[:, 0]) <= 2 + 1e-12) & (np.abs(ring[:, 1]) <= 2 + 1e-12)]
    on_line = np.abs(inside[:, 0] + 0.5 * inside[:, 1] - 0.33) < 1e-9
    assert on_line.sum() == 2  # the straight boundary is reduced to its two end points on the border
    ends = inside[on_line]
    assert np.isclose(np.abs(ends), 2).any(axis=1).all()  # both on the grid's border


def test_uniform_signs():
    assert zero_loops(-np.ones((5, 5)), XS[:5], YS[:5]) == []
    (lp,) = zero_loops(np.ones((5, 5)), XS[:5], YS[:5])
    assert signed_area(lp) > 0
    assert lp[:, 0].min() < XS[0] and lp[:, 0].max() > XS[4]  # runs outside the grid, on the padded ring


def test_crossings_lie_on_the_zero_set():
    """Interior vertices are linear interpolations: on a bilinear-exact function, f(vertex) = 0."""
    F = 2 * GX - GY + 0.1
    for lp in zero_loops(F, XS, YS):
        inner = lp[(np.abs(lp[:, 0]) < 2) & (np.abs(lp[:, 1]) < 2)]
        np.testing.assert_allclose(2 * inner[:, 0] - inner[:, 1] + 0.1, 0, atol=1e-12)


def test_loops_xy_separates_loops_with_gaps():
    loops = zero_loops(FUNCTIONS["bumps"](GX, GY), XS, YS)
    assert len(loops) == 2
    x, y = loops_xy(loops, 2)
    assert x.count(None) == 1 and y.count(None) == 1
    assert len(x) == sum(len(lp) for lp in loops) + 1


@pytest.mark.parametrize("m", [1, 2, 7, 100, 1000])
def test_cycles_of_a_permutation(m):
    from viz.contour import _cycles

    perm = np.random.default_rng(m).permutation(m)
    cycles = _cycles(perm)
    assert sorted(np.concatenate(cycles).tolist()) == list(range(m))
    for c in cycles:
        assert c[0] == c.min()  # from its smallest element
        assert all(perm[c[i]] == c[(i + 1) % len(c)] for i in range(len(c)))  # in the permutation's order


@pytest.mark.parametrize("tol", [0.0, 0.02, 0.2])
def test_whole_number_fields_with_zeros_at_nodes(tol):
    """F exactly 0 at grid nodes puts several crossings on one point; the loops must still bound {F > 0}."""
    rng = np.random.default_rng(1)
    xs = ys = np.arange(8.0)
    wrong = 0
    for _ in range(75):
        F = rng.integers(-1, 2, size=(8, 8)).astype(float)
        loops = zero_loops(F, xs, ys, tol)
        for r in range(8):
            for c in range(8):
                if F[r, c] != 0:  # a node with a sign: inside exactly when positive
                    wrong += winding(loops, (xs[c] + 1e-7, ys[r] + 1.3e-7)) != (1 if F[r, c] > 0 else 0)
    assert wrong == 0


def mixed_fields(seed: int = 0) -> np.ndarray:
    """Fields of every kind on one 41 × 41 grid: smooth, saddles, rough, whole numbers (zeros at nodes), all one sign."""
    rng = np.random.default_rng(seed)
    fields = [f(GX, GY) for f in FUNCTIONS.values()]
    fields += [np.round(rng.normal(size=GX.shape)), -np.ones_like(GX), np.ones_like(GX), GX * GY,
               np.maximum(0, GX + GY) - 0.5]
    fields += [rng.normal(size=GX.shape).cumsum(0).cumsum(1) for _ in range(8)]  # rough: many loops, many passes
    return np.stack(fields)


def same_loops(a: list, b: list) -> bool:
    return len(a) == len(b) and all(p.shape == q.shape and np.array_equal(p, q) for p, q in zip(a, b, strict=True))


@pytest.mark.parametrize("tol", [0.0, 0.01, 0.1])
def test_many_fields_traced_together_as_each_alone(tol):
    """Bit for bit: the same loops, vertices and order as zero_loops on each field, in any company."""
    Fs = mixed_fields()
    together = zero_loops_many(Fs, XS, YS, tol)
    backwards = zero_loops_many(Fs[::-1], XS, YS, tol)[::-1]
    assert len(together) == len(Fs)
    for F, a, b in zip(Fs, together, backwards, strict=True):
        alone = zero_loops(F, XS, YS, tol)
        assert same_loops(alone, a) and same_loops(alone, b)
    assert together[len(FUNCTIONS) + 1] == []  # the all-negative field has no loop


def test_many_fields_with_no_loop_at_all():
    assert zero_loops_many(-np.ones((3, 5, 5)), XS[:5], YS[:5]) == [[], [], []]


@pytest.mark.parametrize("m", [1, 2, 7, 100, 1000])
def test_cycle_order_with_a_bound_on_the_cycles(m):
    from viz.contour import _cycle_order

    # cycles of at most 5 elements: blocks of 5 permuted among themselves
    rng = np.random.default_rng(m)
    perm = np.concatenate([s + rng.permutation(min(5, m - s)) for s in range(0, m, 5)])
    order, cuts = _cycle_order(perm)
    bounded = _cycle_order(perm, 5)
    assert np.array_equal(order, bounded[0]) and np.array_equal(cuts, bounded[1])
