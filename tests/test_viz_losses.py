"""The Loss surface page as data: its scene record, the point lines, the cone, the levels, the still figures."""

from __future__ import annotations

import numpy as np
import pytest
from oracles import cone_polygon, lines_in_box
from state_text import named_points

from core.losses import grid_around, hinge, hinge_subgradient, perceptron_subgradient, surface, theta_grid
from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.losses import FORMULAS, NAMES, band_levels, default_bs, theta_figure
from viz.scene import LossDataScene, LossScene, View, loss_data_scene, loss_scene


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


def test_the_record_holds_what_defines_the_slices(scene):
    X, y, us, vs, bs, panels, traj = scene
    w, b = np.array([0.8, 0.4]), float(bs[2])
    names, lams = ["hinge", "perceptron", "zero_one"], (0.0, 0.1, 1.0)
    other = (traj[0][:2], traj[1][:2], "another path")
    sc = LossScene.from_bytes(loss_scene(X, y, names, us, vs, bs, lams=lams, paths=[traj, traj, other], lit=3,
                                         chosen=(w, b), view=View(height=600, start=2, lam=0.1), follow="λ").to_bytes())
    assert np.array_equal(sc.X, X) and np.array_equal(sc.y, y) and np.array_equal(sc.us, us) and np.array_equal(sc.bs, bs)
    r = sc.run
    assert r["names"] == names and r["lams"] == list(lams) and r["lit"] == 3 and sc.follow == "λ"
    assert r["titles"] == {nm: NAMES[nm] for nm in names} and r["formulas"] == {nm: FORMULAS[nm] for nm in names}
    assert sc.view.start == 2 and sc.view.lam == 0.1 and len(sc.drawn) == min(len(y), 100)  # 300 lines, 3 panels
    # each path once: the first two λ share one, the third has its own
    assert r["path_of"] == [0, 0, 1] and r["path_labels"] == ["perceptron", "another path"]
    assert sc.path_ptr.tolist() == [0, len(traj[1]), len(traj[1]) + len(other[1])]
    assert np.array_equal(sc.path_W[:len(traj[1])], traj[0]) and np.array_equal(sc.path_B[len(traj[1]):], other[1])
    # the chosen weight and each loss's subgradient there, from core, for each λ
    assert r["chosen"]["w"] == w.tolist() and r["chosen"]["b"] == b
    assert r["chosen"]["grads"]["perceptron"] == [perceptron_subgradient(w, b, X, y)[0].tolist()] * 3
    assert r["chosen"]["grads"]["hinge"] == [hinge_subgradient(w, b, X, y, lam=lv)[0].tolist() for lv in lams]
    assert r["chosen"]["grads"]["zero_one"] == [[0.0, 0.0]] * 3  # its gradient is 0 wherever it exists
    # the colour scale of each λ: the 99th percentile of the loss on a 21×21 sample of the slices (1 for 0-1)
    U, V = np.meshgrid(us[np.unique(np.linspace(0, len(us) - 1, 21).round().astype(int))],
                       vs[np.unique(np.linspace(0, len(vs) - 1, 21).round().astype(int))])
    W = np.stack([U.ravel(), V.ravel()], axis=1)
    for k, lv in enumerate(lams):
        ref = np.percentile(np.concatenate([hinge(W, float(bv), X, y, lam=lv) for bv in bs]), 99)
        assert r["tops"]["hinge"][k] == pytest.approx(ref, rel=1e-12)
        assert r["levels"]["hinge"][k] == list(band_levels("hinge", r["tops"]["hinge"][k], len(y)))
    assert r["tops"]["hinge"][0] < r["tops"]["hinge"][2]  # λ/2‖w‖² raises the hinge's top
    assert r["tops"]["zero_one"] == [1.0] * 3 and len(set(r["tops"]["perceptron"])) == 1  # no λ in them
    # a page's cached colour scales (glue.builds.loss_tops) make the same record
    from glue.builds import loss_tops

    pre = loss_tops(X, y, tuple(names), lams, (us, vs, bs))
    assert loss_scene(X, y, names, us, vs, bs, lams=lams, tops=pre).to_bytes() == loss_scene(
        X, y, names, us, vs, bs, lams=lams).to_bytes()
    with pytest.raises(ValueError, match="one colour-scale top per λ"):
        loss_scene(X, y, names, us, vs, bs, lams=lams, tops={nm: pre[nm][:1] for nm in names})
    # no surface travels: the record is the points and a few numbers
    assert len(loss_scene(X, y, names, us, vs, bs).to_bytes()) < 4_000
    with pytest.raises(ValueError, match="one path per λ"):
        loss_scene(X, y, names, us, vs, bs, lams=lams, paths=[traj])
    with pytest.raises(ValueError, match="≥ 0"):
        loss_scene(X, y, names, us, vs, bs, lams=(-1.0,))


def test_the_points_lines_are_where_x_dot_w_plus_b_is_zero():
    X, y = make_dataset("blobs", 40, 0)
    box = (-1.0, 2.0, -1.5, 1.0)
    xs, ys = lines_in_box(X, np.full(len(y), 0.3), box)
    P = np.array([(a, b) for a, b in zip(xs, ys, strict=True) if a is not None])
    assert np.abs(P @ X.T + 0.3).min(axis=1).max() < 1e-3  # yᵢ does not move a point's line


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


@pytest.mark.parametrize("n", [10, 37, 2000])
def test_zero_one_levels_fall_between_its_values(n):
    first, step = band_levels("zero_one", 1.0, n)
    levels = first + step * np.arange(9)
    # halfway between counts: none equals k/N, and 0 and 1 mistakes are told apart
    assert np.allclose((levels * n) % 1, 0.5)
    assert first * n == pytest.approx(step * n - 0.5) and step * n == max(1, round(n / 10))
    assert band_levels("hinge", 2.0, n) == (0.2, 0.2)


@pytest.mark.parametrize("w,b", [((1.0, 0.5), 0.2), ((0.3, -1.2), 0.5), ((-1.0, 0.0), 0.0), ((2.0, 1.0), 0.0)])
def test_data_chart_states_the_chosen_w_and_its_mistakes(scene, w, b):
    """The data chart's record holds M at the chosen weight and each loss there for every λ, from the core; its state
    in words (data_state, the reference of what the renderer writes) names w, b, M and the losses."""
    from oracles import data_state

    from viz.common import num, vec
    from viz.losses import NAMES, losses_at

    X, y = scene[:2]
    w = np.array(w)
    names, lams = ("hinge", "perceptron", "zero_one"), (0.0, 0.1, 1.0)
    mis = np.flatnonzero(y * (X @ w + b) <= 0)  # M at the chosen (w, b), computed here
    rec = LossDataScene.from_bytes(loss_data_scene(X, y, names, lams, chosen=(w, b)).to_bytes())
    assert rec.mis.tolist() == mis.tolist() and rec.run["chosen"] == {"w": w.tolist(), "b": b}
    for j, lam in enumerate(lams):  # (the wiring: each λ's values where the renderer reads them; losses_at's own test
        for nm, v in losses_at(names, w, b, X, y, lam).items():  # is against core.losses)
            assert rec.run["losses"][nm][j] == v
    losses = losses_at(names, w, b, X, y, 0.1)
    lines = data_state(X, y, w, b, losses).split("<br>")
    assert lines[0] == f"w = {vec(w)}, b = {num(b)}"
    if mis.size == 0:
        assert lines[1] == "no point misclassified (0 of 40)"
    elif mis.size <= 3:
        assert named_points(lines[1]) == mis.tolist() and lines[1].endswith(f"({mis.size} of 40)")
    else:  # the count, then the first names on their own line
        assert lines[1] == f"{mis.size} of 40 misclassified:" and named_points(lines[2]) == mis[:3].tolist()
    assert lines[-1] == "loss: " + ", ".join(f"{NAMES[k].removesuffix(' loss')} {num(v)}" for k, v in losses.items())
    assert losses["zero_one"] == pytest.approx(mis.size / 40)  # the 0-1 loss counts the same M
    # one loss: named in full
    assert data_state(X, y, w, b, {"hinge": losses["hinge"]}).endswith(f"<br>hinge loss {num(losses['hinge'])}")


def test_data_chart_without_a_chosen_w_holds_no_state(scene):
    X, y = scene[:2]
    rec = loss_data_scene(X, y, ("hinge",), lit=3, clickable=False)
    assert rec.run["chosen"] is None and rec.run["losses"] is None and rec.mis.size == 0
    assert rec.run["lit"] == 3 and rec.run["clickable"] is False
    assert loss_data_scene(X, y, ("hinge",), lit=40).run["lit"] is None  # (no such point: none lit)


def test_data_chart_clips_its_boundary_beyond_the_view(scene):
    """The renderer clips the chosen boundary to ``run["clip"]``: wider than the view, so the line runs past its
    edges."""
    X, y = scene[:2]
    rec = loss_data_scene(X, y, ("hinge",), chosen=((0.7, -0.4), 0.3))
    x0, x1, y0, y1 = rec.box
    c = rec.run["clip"]
    assert c[0] < x0 and c[1] > x1 and c[2] < y0 and c[3] > y1
    assert loss_data_scene(X, y, ("hinge",)).run["clip"] == c  # (the same with no weight chosen)
