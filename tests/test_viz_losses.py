"""The loss-surface figures as data: point lines, the cone, bands at their levels, the trajectory, clicks."""

from __future__ import annotations

import numpy as np
import pytest
from state_text import named_points

from core.losses import grid_around, hinge, perceptron_subgradient, surface, theta_grid
from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.losses import (
    cone_polygon,
    data_figure,
    default_bs,
    lines_in_box,
    theta_figure,
    weight_figure,
)


def trace(fig, name):
    return next(t for t in fig["data"] if t.get("name") == name)


def pts(t):
    return np.array([(a, b) for a, b in zip(t["x"], t["y"], strict=True) if a is not None and b is not None])


@pytest.fixture(scope="module")
def scene():
    X, y = make_dataset("blobs", 40, 0)
    us, vs = grid_around(X, y, size=41)
    bs = default_bs(us, X, m=5)
    panels = {nm: np.stack([surface(nm, X, y, us, vs, b=float(b), lam=0.1) for b in bs])
              for nm in ("hinge", "perceptron", "zero_one")}
    run = run_perceptron(X, y, variant="random", seed=1, max_steps=200)
    return X, y, us, vs, bs, panels, (run.W, run.B, "perceptron")


def test_lines_in_box_lie_on_their_lines_and_in_the_box():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(50, 2))
    A[0] = [0.0, 1.0]  # parallel to an axis
    c = rng.normal(size=50)
    box = (-1.0, 2.0, -1.5, 1.0)
    xs, ys = lines_in_box(A, c, box)
    for k in range(0, len(xs), 3):
        for j in (k, k + 1):
            assert box[0] - 1e-4 <= xs[j] <= box[1] + 1e-4 and box[2] - 1e-4 <= ys[j] <= box[3] + 1e-4
        # both ends on the same line aᵢ·w + cᵢ = 0, for some i
        e = np.abs(A @ np.array([xs[k], ys[k]]) + c) + np.abs(A @ np.array([xs[k + 1], ys[k + 1]]) + c)
        assert e.min() < 1e-3


def test_cone_is_the_weights_that_classify_every_point():
    X, y = make_dataset("separable", 30, 2)
    box = (-3.0, 3.0, -3.0, 3.0)
    for b in (0.0, 0.3):
        poly = np.array(cone_polygon(X, y, b, box))
        assert poly.size
        margins = y[None, :] * (poly @ X.T + b)
        assert margins.min() > -1e-9  # every vertex classifies every point (up to the boundary)
        centre = poly.mean(axis=0)  # convex: its centre is strictly inside
        assert (y * (X @ centre + b) > 0).all()
    Xx, yx = make_dataset("xor", 40, 0)
    assert cone_polygon(Xx, yx, 0.0, box) == []  # no line separates XOR


def test_weight_figure_frames(scene):
    X, y, us, vs, bs, panels, traj = scene
    fig = weight_figure(X, y, {"hinge": panels["hinge"]}, us, vs, bs, start=2, lam=0.1, trajectory=traj)
    meta = fig["layout"]["meta"]
    assert meta["slice"] == "w" and meta["b"] == bs[2] and fig["layout"]["sliders"][0]["active"] == 2
    assert [f["layout"]["meta"]["b"] for f in fig["frames"]] == pytest.approx(list(bs))
    assert not fig["layout"]["sliders"][0]["steps"][0]["args"][1]["frame"]["redraw"]  # traces only
    for f, bv in enumerate(bs):
        frame = fig["frames"][f]
        named = {}
        for t, d in zip(frame["traces"], frame["data"], strict=True):
            named.setdefault(fig["data"][t].get("name"), d)  # the drawn trace, not its legend stand-in (after it)
        # each point's line is where xᵢ·w + b = 0 (yᵢ does not move it)
        P = pts(named["points' lines yᵢ(w·xᵢ + b) = 0"])
        assert np.abs(P @ X.T + bv).min(axis=1).max() < 1e-3
        # the clickable weights carry this b and the hinge loss there, exactly as computed directly
        click = trace(fig, "click to choose w")
        cd = np.array(named["click to choose w"]["customdata"])
        W = np.column_stack([click["x"], click["y"]])
        assert np.allclose(cd[:, 0], bv)
        np.testing.assert_allclose(cd[:, 1], hinge(W, bv, X, y, lam=0.1), atol=1e-4)
        # the trajectory: the run's weights, split by whether their b is this slice's
        on = named[f"{traj[2]}, b as here"]
        assert on["x"] == pytest.approx(np.round(traj[0][:, 0], 4).tolist())


def test_bands_are_drawn_at_their_levels(scene):
    X, y, us, vs, bs, panels, _ = scene
    fig = weight_figure(X, y, {"perceptron": panels["perceptron"]}, us, vs, bs, start=1)
    bands = [t for t in fig["data"] if t.get("fill") == "toself" and t.get("mode") == "none" and len(t["x"]) > 4]
    assert len(bands) >= 5
    zmax = float(np.percentile(panels["perceptron"], 99))
    # a vertex inside the grid (not on the padded ring) has the loss of its band's level, by interpolation
    for k, t in enumerate(bands[:4], start=1):
        level = zmax * k / 10
        P = pts(t)
        inner = P[(P[:, 0] > us[0]) & (P[:, 0] < us[-1]) & (P[:, 1] > vs[0]) & (P[:, 1] < vs[-1])]
        if inner.size:
            from core.losses import perceptron
            vals = perceptron(inner, bs[1], X, y)
            assert np.abs(vals - level).max() < 0.15 * zmax  # linear interpolation of a piecewise-linear loss


def test_all_three_panels_and_the_chosen_weight(scene):
    X, y, us, vs, bs, panels, traj = scene
    w, b = np.array([0.8, 0.4]), float(bs[2])
    fig = weight_figure(X, y, panels, us, vs, bs, start=2, trajectory=traj, chosen=(w, b), lit=3)
    assert fig["layout"]["meta"]["losses"] == ["hinge", "perceptron", "zero_one"]
    arrows = [t for t in fig["data"] if (t.get("name") or "").startswith("subgradient")]
    stars = [t for t in fig["data"] if t.get("name") == "the chosen w"]
    assert len(arrows) == 3 and len(stars) == 3 and all(t["x"] == [w[0]] for t in stars)
    assert all(a["x"][0] == w[0] for a in arrows[:2])
    # the perceptron panel's arrow points along its subgradient
    g = perceptron_subgradient(w, b, X, y)[0]
    a = arrows[1]
    d = np.array([a["x"][1] - a["x"][0], a["y"][1] - a["y"][0]])
    assert d @ g == pytest.approx(np.linalg.norm(d) * np.linalg.norm(g))
    assert arrows[2]["x"] == [None] and arrows[2]["name"] == "subgradient 0 at the chosen w"  # 0-1: no arrow
    data = data_figure(X, y, chosen=(w, b), lit=3)
    xs, ys = data["layout"]["meta"]["boundary_x"], data["layout"]["meta"]["boundary_y"]
    assert abs(w[0] * xs[0] + w[1] * ys[0] + b) < 1e-9


def test_theta_figure_band_is_where_every_point_is_correct():
    X, y = make_dataset("separable", 30, 1)
    thetas = theta_grid(90)
    bs = np.linspace(-3, 3, 61)
    Z = surface("zero_one", X, y, thetas, bs, slice="theta", r=1.0)
    fig = theta_figure(X, y, {"zero_one": Z}, thetas, bs, r=1.0)
    band = pts(trace(fig, "every point correct"))
    assert band.size
    # inside the band (its mean at one θ) the 0-1 loss is 0
    th = np.radians(band[:, 0])
    w = np.column_stack([np.cos(th), np.sin(th)])
    mid = (band[: len(band) // 2, 1] + band[len(band) // 2:][::-1, 1]) / 2
    m = y[None, :] * (w[: len(band) // 2] @ X.T + mid[:, None])
    assert (m > -1e-6).all()


def test_cone_with_a_point_at_the_origin():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]])
    box = (-2.0, 2.0, -2.0, 2.0)
    # at b = 0 the origin's margin is 0 for every w: no weight classifies it
    assert cone_polygon(X, np.array([1, 1, -1]), 0.0, box) == []
    # at b > 0 a +1 point at the origin is always correct: the cone is the other points'
    poly = np.array(cone_polygon(X, np.array([1, 1, -1]), 0.5, box))
    assert poly.size and (poly @ X[1:].T * np.array([1, -1]) + 0.5 * np.array([1, -1]) >= -1e-9).all()


def test_zero_one_levels_fall_between_its_values():
    X, y = make_dataset("blobs", 10, 0)
    us, vs = grid_around(X, y, size=31)
    fig = weight_figure(X, y, {"zero_one": surface("zero_one", X, y, us, vs)[None]}, us, vs, np.array([0.0]))
    levels = np.array(fig["layout"]["meta"]["levels"]["zero_one"])
    # halfway between counts: none equals k/N, and 0 and 1 mistakes (and 1 and 2, …) are told apart
    assert np.allclose(levels * 10 % 1, 0.5)
    assert levels[0] == pytest.approx(0.05) and np.all(np.diff(levels) > 0)


@pytest.mark.parametrize("w,b", [((1.0, 0.5), 0.2), ((0.3, -1.2), 0.5), ((-1.0, 0.0), 0.0), ((2.0, 1.0), 0.0)])
def test_data_chart_states_the_chosen_w_and_its_mistakes(scene, w, b):
    from viz.common import num, vec
    from viz.losses import NAMES, losses_at

    X, y = scene[:2]
    w = np.array(w)
    names = ("hinge", "perceptron", "zero_one")
    losses = losses_at(names, w, b, X, y, 0.1)
    fig = data_figure(X, y, chosen=(w, b), losses=losses)
    (ann,) = fig["layout"]["annotations"]
    assert ann["name"] == "state" and ann["font"]["size"] >= 15
    lines = ann["text"].split("<br>")
    assert lines[0] == f"w = {vec(w)}, b = {num(b)}"
    mis = np.flatnonzero(y * (X @ w + b) <= 0)  # M at the chosen (w, b), computed here
    if mis.size == 0:
        assert lines[1] == "no point misclassified (0 of 40)"
    elif mis.size <= 3:
        assert named_points(lines[1]) == mis.tolist() and lines[1].endswith(f"({mis.size} of 40)")
    else:  # the count, then the first names on their own line
        assert lines[1] == f"{mis.size} of 40 misclassified:" and named_points(lines[2]) == mis[:3].tolist()
    assert lines[-1] == "loss: " + ", ".join(f"{NAMES[k].removesuffix(' loss')} {num(v)}" for k, v in losses.items())
    assert losses["zero_one"] == pytest.approx(mis.size / 40)  # the 0-1 loss counts the same M
    # one loss: named in full
    one = data_figure(X, y, chosen=(w, b), losses={"hinge": losses["hinge"]})
    assert one["layout"]["annotations"][0]["text"].endswith(f"<br>hinge loss {num(losses['hinge'])}")
    # the legend hangs under the line's rows
    assert fig["layout"]["legend"]["y"] < 0 and fig["layout"]["margin"]["b"] > 22 * len(lines)


def test_data_chart_without_a_chosen_w_has_no_state_line(scene):
    X, y = scene[:2]
    assert data_figure(X, y)["layout"]["annotations"] == []
