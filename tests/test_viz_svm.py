"""The SVM figures as data: margin lines at f = ±1, slack segments to each violator's own margin line, the C path."""

from __future__ import annotations

import numpy as np
import pytest
from state_text import named_points

from core.svm import C_GRID, c_path, fit_svm, path_of, svm_grid
from datasets import make_dataset
from viz.common import num
from viz.svm import CATEGORIES, categories, margin_tol, svm_figure


def trace(fig, prefix):
    """The drawn trace named so (its legend stand-in comes after it)."""
    return next(t for t in fig["data"] if t.get("name", "").startswith(prefix))


def text_of(fig, needle):
    """The text of the text trace that contains ``needle``."""
    return next(t["text"][0] for t in fig["data"] if t.get("mode") == "text" and needle in (t["text"] or [""])[0])


def points_of(t):
    return np.array([(a, b) for a, b in zip(t["x"], t["y"], strict=True) if a is not None])


@pytest.mark.parametrize("name,C", [("blobs", 1.0), ("outlier", 10.0), ("xor", 0.1)])
def test_linear_margin_slack_and_categories(name, C):
    X, y = make_dataset(name, 60, 0)
    sol = fit_svm(X, y, C=C)
    fig = svm_figure(X, y, sol, perceptron=(np.array([1.0, 0.5]), 0.2))
    f = lambda P: P @ sol.w + sol.b  # noqa: E731
    margin = points_of(trace(fig, "margin"))
    assert np.allclose(np.abs(f(margin)), 1.0, atol=1e-6)  # both margin lines, f = ±1
    assert np.allclose(f(points_of(trace(fig, "boundary"))), 0.0, atol=1e-6)
    # each slack segment runs from a violator to its own margin line f(x) = yᵢ, and its length·‖w‖ is ξᵢ
    seg = trace(fig, "slack")
    xs, ys = seg["x"], seg["y"]
    viol = np.flatnonzero(sol.slack > 1e-3)
    assert len(xs) == 3 * viol.size
    for k in range(viol.size):
        p, q = np.array([xs[3 * k], ys[3 * k]]), np.array([xs[3 * k + 1], ys[3 * k + 1]])
        # drawn to 4 decimals (far below a pixel): the ends are within 1e-4 of the exact ones
        i = int(np.argmin(np.abs(X - p).max(axis=1)))
        assert np.abs(X[i] - p).max() <= 5.1e-5
        tol = 2e-4 * np.abs(sol.w).sum()
        assert f(q) == pytest.approx(y[i], abs=tol)
        assert np.linalg.norm(q - p) * np.linalg.norm(sol.w) == pytest.approx(sol.slack[i], abs=2 * tol)
    # the points are split by where they lie, every one exactly once
    box = (*fig["layout"]["xaxis"]["range"], *fig["layout"]["yaxis"]["range"])
    cats = categories(y, sol.decision, margin_tol(sol, box))
    meta = fig["layout"]["meta"]
    assert sum(meta["categories"].values()) == len(y)
    for k, cat in enumerate(CATEGORIES):
        named = [t for t in fig["data"] if t.get("name", "").startswith(cat)]
        parts = [t for t in named if not t["showlegend"]]
        drawn = sum(sum(v is not None for v in t["x"]) for t in parts)  # an empty trace holds one gap point
        assert len(parts) == 2 and drawn == int((cats == k).sum())
        # one legend entry per category, a stand-in outside the view, listed even when the category is empty
        (proxy,) = [t for t in named if t["showlegend"]]
        assert min(proxy["x"]) > fig["layout"]["xaxis"]["range"][1]
        for t in parts:  # one class per trace: the symbol family says which
            assert t["marker"]["symbol"] in CATEGORIES[cat]
    assert meta["support"] == int(sol.support.sum()) == len(trace(fig, "support vectors")["x"])
    assert meta["width"] == pytest.approx(2 / np.linalg.norm(sol.w))
    assert f"width 2/‖w‖ = {num(meta['width'])}" in text_of(fig, "width 2/‖w‖")
    status = text_of(fig, "points:")
    assert f"C = {num(C)}" in status and f"{meta['support']} support vectors" in status
    assert trace(fig, "perceptron")["x"]  # the overlay is drawn


def test_kernel_margin_curves_lie_on_f_plus_minus_one():
    from core.dual import decision_function

    X, y = make_dataset("circles", 80, 0)
    sol = fit_svm(X, y, C=1.0, kernel="rbf", gamma=1.0)
    fig = svm_figure(X, y, sol)
    x0, x1 = fig["layout"]["xaxis"]["range"]
    y0, y1 = fig["layout"]["yaxis"]["range"]
    for prefix, level in (("boundary", [0.0]), ("margin", [-1.0, 1.0])):
        P = points_of(trace(fig, prefix))
        P = P[(P[:, 0] > x0) & (P[:, 0] < x1) & (P[:, 1] > y0) & (P[:, 1] < y1)]
        f = decision_function(X, y, sol.alpha, sol.b, P, "rbf", gamma=1.0)
        gap = np.min(np.abs(f[:, None] - np.array(level)[None]), axis=1)
        assert np.abs(gap).max() < 0.05


def test_objective_bar_shows_the_two_terms():
    X, y = make_dataset("blobs", 50, 1)
    sol = fit_svm(X, y, C=2.0)
    fig = svm_figure(X, y, sol)
    reg_bar, slack_bar = (t for t in fig["data"] if t["type"] == "bar")
    reg, slack = reg_bar["customdata"][0], slack_bar["customdata"][0]
    # each bar from its own definition: ½‖w‖² from w, C Σξ from the slacks recomputed from the data
    assert reg == pytest.approx(0.5 * sol.w @ sol.w)
    assert slack == pytest.approx(2.0 * np.maximum(0, 1 - y * (X @ sol.w + sol.b)).sum(), rel=1e-9)
    # drawn as shares of J that stack to 1, J written above
    assert reg_bar["y"][0] + slack_bar["y"][0] == pytest.approx(1.0)
    assert f"<b>{num(reg + slack)}</b>" in text_of(fig, "J = ½‖w‖² + C Σξ")


def test_c_path_width_shrinks_and_slack_falls_as_c_grows():
    X, y = make_dataset("blobs", 80, 2, noise=1.0)
    path = c_path(X, y)
    assert path["C"] == list(C_GRID)
    w, s = np.array(path["width"]), np.array(path["slack"])
    assert (np.diff(w) <= 1e-6 * w[:-1]).all()  # ‖w‖ never decreases as C grows
    assert (np.diff(s) <= 1e-6 * max(1.0, s.max())).all()  # nor does Σξ increase
    sols = svm_grid(X, y)
    assert path_of(sols) == path
    fig = svm_figure(X, y, sols, start=C_GRID.index(1.0), path=path)
    for key, axis in (("width", "x3"), ("support", "x4"), ("slack", "x5")):
        curve, mark = (t for t in fig["data"] if t.get("xaxis") == axis)
        assert curve["y"] == path[key]
        assert mark["x"] == [1.0] and mark["y"] == [path[key][C_GRID.index(1.0)]]  # the current C marked
    hard = svm_figure(X, y, fit_svm(X, y, C=3.0), path=path)  # a C off the grid: no mark
    assert all(t["x"] == [] for t in hard["data"] if t.get("xaxis") == "x3" and t["mode"] == "markers")


def test_sgd_figure_frames_follow_the_run():
    from core.svm import hinge_sgd
    from viz.svm import sgd_figure

    X, y = make_dataset("blobs", 40, 0)
    run = hinge_sgd(X, y, C=1.0, max_steps=500, seed=1)
    exact = fit_svm(X, y, C=1.0)
    fig = sgd_figure(run, exact, max_frames=100)
    steps = fig["layout"]["meta"]["frame_steps"]
    assert steps[0] == 0 and steps[-1] == 500 and len(steps) <= 100
    frames = {f["name"]: f for f in fig["frames"]}
    for s in steps[1:10]:
        fr = frames[f"s{s}"]
        line = np.array([(a, b) for a, b in zip(fr["data"][0]["x"], fr["data"][0]["y"], strict=True)])
        assert np.allclose(line @ run.W[s] + run.B[s], 0, atol=1e-6)  # the SGD boundary at that step
        i = int(run.order[s - 1])
        assert fr["data"][2]["x"] == [float(X[i, 0])]
        text = fr["layout"]["annotations[0].text"]
        assert f"<b>Step {s}</b>" in text and "gap to the exact J*" in text
        assert ("hinge active" in text) == bool(run.active[s - 1])
    assert fig["layout"]["meta"]["J_star"] == pytest.approx(exact.objective)


@pytest.mark.parametrize("C", [1e-3, 0.1, 1.0])
def test_kernel_slack_feet_lie_on_their_margin_line(C):
    from core.dual import decision_function

    X, y = make_dataset("circles", 80, 0)
    sol = fit_svm(X, y, C=C, kernel="rbf", gamma=1.0)
    fig = svm_figure(X, y, sol)
    seg = trace(fig, "slack")
    x0, x1 = fig["layout"]["xaxis"]["range"]
    y0, y1 = fig["layout"]["yaxis"]["range"]
    for k in range(len(seg["x"]) // 3):
        p = np.array([seg["x"][3 * k], seg["y"][3 * k]])
        q = np.array([seg["x"][3 * k + 1], seg["y"][3 * k + 1]])
        assert x0 <= q[0] <= x1 and y0 <= q[1] <= y1  # never on the padded ring outside the view
        i = int(np.argmin(np.abs(X - p).max(axis=1)))
        assert np.abs(X[i] - p).max() <= 5.1e-5
        f = decision_function(X, y, sol.alpha, sol.b, q[None], "rbf", gamma=1.0)[0]
        assert f == pytest.approx(y[i], abs=0.05)


def test_width_arrow_is_in_view():
    rng = np.random.default_rng(3)
    for _ in range(6):
        X = rng.normal(size=(40, 2)) * [3, 0.5] + [2, -1]
        y = np.where(X @ rng.normal(size=2) + rng.normal() > 0, 1, -1)
        if len(set(y)) < 2:
            continue
        fig = svm_figure(X, y, fit_svm(X, y, C=1.0))
        x0, x1 = fig["layout"]["xaxis"]["range"]
        y0, y1 = fig["layout"]["yaxis"]["range"]
        arrow = trace(fig, "width 2/‖w‖")
        # two segments out from the middle of the boundary in view, each 1/‖w‖ long, along w
        cx, cy = arrow["x"][0], arrow["y"][0]
        assert x0 <= cx <= x1 and y0 <= cy <= y1
        sol = fit_svm(X, y, C=1.0)
        for end in (1, 4):
            v = np.array([arrow["x"][end] - cx, arrow["y"][end] - cy])
            assert np.linalg.norm(v) == pytest.approx(sol.margin)
            assert abs(v @ sol.w) == pytest.approx(np.linalg.norm(v) * np.linalg.norm(sol.w))


@pytest.mark.parametrize("name,kernel,params", [("blobs", "linear", {}), ("moons", "rbf", {"gamma": 1.0})])
def test_each_c_frame_draws_what_a_fresh_figure_at_that_c_draws(name, kernel, params):
    # moving the slider to C_k must show exactly the figure the page would build for C_k
    X, y = make_dataset(name, 60, 0)
    sols = svm_grid(X, y, kernel=kernel, **params)
    path = path_of(sols)
    fig = svm_figure(X, y, sols, start=3, path=path)
    frames = fig["frames"]
    assert [f["name"] for f in frames] == [f"C{k}" for k in range(len(C_GRID))]
    slider = fig["layout"]["sliders"][0]
    assert slider["active"] == 3 and [s["label"] for s in slider["steps"]] == [f"{c:g}" for c in C_GRID]
    assert [s["args"][0] for s in slider["steps"]] == [[f["name"]] for f in frames]
    assert not slider["steps"][0]["args"][1]["frame"]["redraw"]  # only the traces change, no full redraw
    for k in (0, 3, 12, 24):
        fresh = svm_figure(X, y, sols, start=k, path=path)
        frame = frames[k]
        assert set(frame["layout"]) == {"meta"}  # the layout is never touched but for the meta
        assert frame["layout"]["meta"] == fresh["layout"]["meta"]
        assert frame["layout"]["meta"]["C"] == C_GRID[k]
        for t, d in zip(frame["traces"], frame["data"], strict=True):
            for key, value in d.items():
                assert fresh["data"][t][key] == value, (k, t, key)
        # and the traces no frame touches are the same in both
        for t in set(range(len(fig["data"]))) - set(frame["traces"]):
            assert fresh["data"][t] == fig["data"][t]
    # the width falls as C grows, on the frames as on the path
    widths = [f["layout"]["meta"]["width"] for f in frames]
    assert widths == pytest.approx(path["width"])


def test_one_solution_has_no_slider():
    X, y = make_dataset("blobs", 30, 0)
    fig = svm_figure(X, y, fit_svm(X, y, C=1.0))
    assert "frames" not in fig and "sliders" not in fig["layout"] and not fig["layout"]["meta"]["live"]
    with pytest.raises(ValueError, match="start must index"):
        svm_figure(X, y, fit_svm(X, y, C=1.0), start=1)


def check_svm_state(text: str, sol, X, y) -> None:
    """The state line of one C: C, w, b, 2/‖w‖; exactly the points with y(w·x + b) ≤ 0; the support vectors; ξ > 0.

    M and ξ = max(0, 1 − y(w·x + b)) are computed here from the solution's w and b.
    """
    from viz.common import vec

    n = len(y)
    line1, line2 = text.split("<br>")
    m = y * (X @ sol.w + sol.b)
    assert line1.startswith(f"C = {sol.C:g}: w = {vec(sol.w)}, b = {num(sol.b)}, margin 2/‖w‖ = "
                            f"{num(2 / np.linalg.norm(sol.w))}; ")
    mis = np.flatnonzero(m <= 0)
    mpart = line1.split("; ")[1]
    if mis.size == 0:
        assert mpart == f"no point misclassified (0 of {n})"
    elif mis.size <= 5:
        assert named_points(mpart) == mis.tolist() and mpart.endswith(f"({mis.size} of {n})")
    else:
        assert mpart.startswith(f"{mis.size} of {n} misclassified: ") and named_points(mpart) == mis[:5].tolist()
    sv_part, xi_part = line2.split("; ")
    sv = np.flatnonzero(sol.support)
    assert sv_part.startswith("support vectors: ") and sv_part.endswith(f"({sv.size} of {n})")
    assert named_points(sv_part) == sv[:5].tolist()
    viol = np.flatnonzero(np.maximum(0, 1 - m) > 1e-3)  # ξᵢ > 0 (above the solver's residue)
    if viol.size == 0:
        assert xi_part == "ξ = 0 at every point"
    else:
        assert named_points(xi_part) == viol[:5].tolist() and xi_part.endswith(f"({viol.size} of {n})")


def test_state_line_follows_c_and_names_the_mistakes():
    X, y = make_dataset("outlier", 60, 0)
    sols = svm_grid(X, y)
    fig = svm_figure(X, y, sols, start=3, path=path_of(sols))
    t = next(i for i, tr in enumerate(fig["data"]) if tr.get("name") == "state")
    state = fig["data"][t]
    assert state["mode"] == "text" and state["textfont"]["size"] >= 15 and state["yaxis"] == "y7"
    check_svm_state(state["text"][0], sols[3], X, y)  # the base figure is at its start C
    seen = set()
    for k in (0, 3, 9, 12, 18, 24):
        frame = fig["frames"][k]
        assert t in frame["traces"]  # the slider rewrites it, with no redraw
        text = frame["data"][frame["traces"].index(t)]["text"][0]
        check_svm_state(text, sols[k], X, y)
        seen.add(text)
    assert len(seen) == 6
    # its band is under the data panel (whose x title sits between them), the legend under the plot
    lay = fig["layout"]
    assert lay["yaxis7"]["domain"][1] < lay["yaxis"]["domain"][0] and lay["legend"]["y"] < 0


def test_state_line_with_a_kernel_and_a_hard_margin():
    X, y = make_dataset("moons", 40, 0)
    sol = fit_svm(X, y, C=1.0, kernel="rbf", gamma=1.0)
    text = trace(svm_figure(X, y, sol), "state")["text"][0]
    assert text.startswith(f"C = 1: RBF kernel, b = {num(sol.b)}, margin 2/‖w‖ = ") and "w = (" not in text
    mis = np.flatnonzero(y * sol.decision <= 0)
    mpart = text.split("<br>")[0].split("; ")[1]
    assert named_points(mpart) == mis[:5].tolist() and f"{mis.size} of 40" in mpart
    X, y = make_dataset("blobs", 30, 0)
    hard = fit_svm(X, y, C=float("inf"))
    text = trace(svm_figure(X, y, hard), "state")["text"][0]
    assert text.startswith("Hard margin (C = ∞): w = ") and "no point misclassified (0 of 30)" in text
    assert text.endswith("ξ = 0 at every point")


def test_the_sgd_state_line_names_the_mistakes_and_the_active_hinges_of_each_frame():
    from core.svm import hinge_sgd
    from viz.common import vec
    from viz.svm import sgd_figure

    X, y = make_dataset("blobs", 30, 2)
    run = hinge_sgd(X, y, C=1.0, max_steps=300, seed=1)
    fig = sgd_figure(run, fit_svm(X, y, C=1.0), max_frames=60)
    state = fig["layout"]["annotations"][1]
    assert state["name"] == "state"
    for fr in fig["frames"][::7]:
        s = int(fr["name"][1:])
        text = fr["layout"]["annotations[1].text"]
        w, b = run.W[s], float(run.B[s])
        m = y * (X @ w + b)  # yᵢ(w·xᵢ + b), computed here
        assert text.startswith(f"Step {s} of {run.n_steps}: w = {vec(w)}, b = {num(b)}; ")
        mis = np.flatnonzero(m <= 0)
        if mis.size:
            named = named_points(text.split("; ")[1])
            assert named and named == mis[:len(named)].tolist() and f"{mis.size} of {len(y)}" in text
        else:
            assert "no point misclassified" in text
        assert text.endswith(f"margin < 1 (hinge active) for {int((m < 1).sum())}")


def test_an_smo_stopped_at_its_cap_on_raw_features_says_standardize():
    from pathlib import Path

    from core.svm import fit_svm
    from datasets.csvio import CsvChoice, choose, read_table
    from datasets.points import standardize
    from viz.svm import svm_figure

    t = read_table((Path(__file__).with_name("data") / "iris_species.csv").read_bytes())
    d = choose(t, CsvChoice(0, 1, 4, "virginica", "versicolor"))  # the issue's case: raw iris, poly d = 2, C = 100
    words = {}
    for name, X in (("raw", d.X), ("standardized", standardize(d.X)[0])):
        sol = fit_svm(X, d.y, C=100.0, kernel="poly", degree=2, coef0=1.0)
        assert not sol.converged
        status = [t for t in svm_figure(X, d.y, [sol])["data"] if "SMO stopped" in str(t.get("text"))]
        words[name] = status[0]["text"][0]
    assert "K(x, x) = 6060.623" in words["raw"] and "Standardize x₁ and x₂" in words["raw"]
    assert "Standardize" not in words["standardized"] and "a smaller C or γ" in words["standardized"]
