"""The dual figure as data: halos follow α, the lit row follows the step, the boundary is f(x) = 0."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
from state_text import merged_layout, named_points

from core.dual import decision_function, run_dual
from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.dual import (
    STATE_TRACES,
    STEP_TRACES,
    T_BAR_CUR,
    T_BARS,
    T_EXAM,
    T_GRAM,
    T_HALO,
    T_LINE,
    T_OLD,
    T_RING,
    T_ROW,
    cost_lines,
    describe_dual_step,
    dual_figure,
    dual_summary,
    dual_table,
    frame_cap,
    gram_display,
)


def size_of(fig: dict) -> int:
    """Characters of the figure as Streamlit sends it (plotly's compact JSON)."""
    return len(json.dumps(fig, separators=(",", ":")))


def frames_by_name(fig) -> dict:
    return {f["name"]: f for f in fig["frames"]}


def state_data(fig, step: int) -> dict[int, dict]:
    """Trace index -> data at a step, the state frame's data under the step frame's (as Plotly applies them)."""
    fr = frames_by_name(fig)
    sf = fr[f"s{step}"]
    out = dict(zip(STATE_TRACES, fr[sf["baseframe"]]["data"], strict=True))
    out.update(zip(STEP_TRACES, sf["data"], strict=True))
    return out


def loop_points(d: dict) -> np.ndarray:
    xs, ys = d.get("x", []), d.get("y", [])
    pts = [(x, y) for x, y in zip(xs, ys, strict=False) if x is not None and y is not None]
    return np.array(pts).reshape(-1, 2)


def halo_sizes(d: dict) -> np.ndarray:
    """The halo trace's marker sizes, sent as bytes (Plotly's typed-array JSON)."""
    size = d["marker"]["size"]
    assert size["dtype"] == "u1"
    return np.frombuffer(base64.b64decode(size["bdata"]), dtype=np.uint8).astype(float)


def bar_heights(d: dict, n: int) -> np.ndarray:
    """α per point from the bar trace's frame data (every bar, or only the nonzero ones with their x)."""
    out = np.zeros(n)
    x = np.asarray(d["x"], dtype=int) if "x" in d else np.arange(1, n + 1)
    out[x - 1] = d["y"]
    return out


@pytest.fixture(scope="module")
def textbook():
    X, y = make_dataset("textbook", 3, 0)
    traj = run_dual(X, y)
    return traj, dual_figure(traj, primal=run_perceptron(X, y))


@pytest.fixture(scope="module")
def circles_rbf():
    X, y = make_dataset("circles", 80, 0)
    traj = run_dual(X, y, kernel="rbf", gamma=2.0, max_steps=400)
    return traj, dual_figure(traj)


def test_textbook_update_written_out(textbook):
    traj, fig = textbook
    text = frames_by_name(fig)["s15"]["layout"]["annotations[0].text"]
    assert "x₃ misclassified</b>: α₃ ← 4 + 1 = 5, b ← −2 + 1·(−1) = −3" in text
    # f(x₃) written term by term from G's row: α₁y₁G₁₃ + α₃y₃G₃₃ + b = 2·(+1)·6 + 4·(−1)·2 + (−2) = 2
    assert "2·(+1)·6 + 4·(−1)·2 + (−2) = 2" in text
    assert "y·f = −2 ≤ 0" in text and "Converged" in text
    assert text == describe_dual_step(traj, 15, primal=run_perceptron(traj.problem.X, traj.problem.y))
    no_update = frames_by_name(fig)["s2"]["layout"]["annotations[0].text"]
    assert "correct, no update" in no_update
    # the examined point is labelled on the chart: its new α on an update, a tick when it was correct
    tag = frames_by_name(fig)["s15"]["layout"]
    assert tag["annotations[1].text"] == "x₃: α₃ = 5" and tag["annotations[1].visible"]
    assert (tag["annotations[1].x"], tag["annotations[1].y"]) == (1.0, 1.0)  # at x₃ = (1, 1)
    assert frames_by_name(fig)["s2"]["layout"]["annotations[1].text"] == "x₂ ✓"
    assert frames_by_name(fig)["s0"]["layout"]["annotations[1].visible"] is False


def test_linear_kernel_shows_the_primal_w_and_a_zero_difference(textbook):
    traj, fig = textbook
    for f in fig["frames"]:
        if f["name"].startswith("s"):
            text = f["layout"]["annotations[0].text"]
            step = int(f["name"][1:])
            w = traj.weights([step])[0]
            assert f"w = Σαᵢyᵢxᵢ = ({w[0]:g}, {w[1]:g})".replace("-", "−") in text
            assert "primal (τ = η): w = " in text and "‖Δw‖∞ = 0, |Δb| = 0" in text


def test_halo_sizes_follow_alpha(circles_rbf):
    traj, fig = circles_rbf
    for step in fig["layout"]["meta"]["frame_steps"]:
        d = state_data(fig, step)
        size = halo_sizes(d[T_HALO])
        alpha = traj[step].alpha
        assert ((size > 0) == (alpha > 0)).all()
        order = np.argsort(alpha[alpha > 0], kind="stable")
        assert (np.diff(size[alpha > 0][order]) >= 0).all()  # bigger α, bigger halo
        np.testing.assert_allclose(bar_heights(d[T_BARS], traj.problem.n), alpha, atol=1e-9)  # bars are α
        if "x" in d[T_BARS]:  # only the bars with α > 0: each carries its own point's class colour
            idx = np.asarray(d[T_BARS]["x"], dtype=int) - 1
            assert d[T_BARS]["marker"]["color"] == np.where(traj.problem.y[idx] > 0, 1, -1).tolist()
        assert d[T_RING]["selectedpoints"] == np.flatnonzero(traj[step].misclassified).tolist()


def test_lit_row_and_bar_marker_follow_the_step(circles_rbf):
    traj, fig = circles_rbf
    steps = fig["layout"]["meta"]["frame_steps"]
    rows = set()
    for step in steps[1:60]:
        d = state_data(fig, step)
        i = int(traj.examined(step)[0])
        lo, hi = min(d[T_ROW]["y"]), max(d[T_ROW]["y"])
        assert lo < i + 1 < hi and hi - lo == 1  # exactly row i + 1 (points are numbered from 1)
        assert d[T_BAR_CUR]["x"] == [i + 1]
        assert d[T_EXAM]["x"] == [pytest.approx(traj.problem.X[i, 0], abs=1e-3)]
        rows.add(i)
    assert len(rows) > 10
    assert "x" not in state_data(fig, 0)[T_ROW] or state_data(fig, 0)[T_ROW]["x"] == [None]


def test_boundary_is_the_zero_set_of_f(circles_rbf):
    traj, fig = circles_rbf
    p = traj.problem
    x0, x1 = fig["layout"]["xaxis"]["range"]
    y0, y1 = fig["layout"]["yaxis"]["range"]
    checked = 0
    for step in fig["layout"]["meta"]["frame_steps"][::25]:
        pts = loop_points(state_data(fig, step)[T_LINE])
        inner = pts[(pts[:, 0] > x0) & (pts[:, 0] < x1) & (pts[:, 1] > y0) & (pts[:, 1] < y1)]
        if not inner.size:
            continue
        snap = traj[step]
        f = decision_function(p.X, p.y, snap.alpha, snap.b, inner, "rbf", gamma=2.0)
        scale = np.abs(decision_function(p.X, p.y, snap.alpha, snap.b, p.X, "rbf", gamma=2.0)).max()
        assert np.abs(f).max() < 0.05 * scale  # on the curve, up to the grid's interpolation
        checked += 1
    assert checked >= 3


def test_linear_boundary_is_straight_and_rbf_boundary_is_not(textbook, circles_rbf):
    def straight(fig, step):
        pts = loop_points(state_data(fig, step)[T_LINE])
        x0, x1 = fig["layout"]["xaxis"]["range"]
        y0, y1 = fig["layout"]["yaxis"]["range"]
        eps = 1e-6 * (x1 - x0)
        inner = pts[(pts[:, 0] >= x0 - eps) & (pts[:, 0] <= x1 + eps) & (pts[:, 1] >= y0 - eps) & (pts[:, 1] <= y1 + eps)]
        inner = np.unique(inner, axis=0)
        d = inner - inner[0]
        return len(inner) >= 2 and np.abs(d[:, 0] * d[-1, 1] - d[:, 1] * d[-1, 0]).max() < 1e-6 * (x1 - x0) ** 2

    _, lin = textbook
    assert straight(lin, 15)
    traj, rbf = circles_rbf
    assert not straight(rbf, traj.n_steps)


def test_old_boundary_only_on_update_steps(circles_rbf):
    traj, fig = circles_rbf
    for step in fig["layout"]["meta"]["frame_steps"][1:80]:
        d = state_data(fig, step)[T_OLD]
        # the dashed curve is the boundary of the state before an update (every step is a frame here)
        if traj.updated(step).size:
            before = frames_by_name(fig)[f"m{int(traj.state_index(step)) - 1}"]["data"][STATE_TRACES.index(T_LINE)]
            assert (loop_points(d) == loop_points(before)).all() and len(loop_points(d)) == len(loop_points(before))
        else:
            assert len(loop_points(d)) == 0


def test_gram_heatmap_and_block_means():
    X, y = make_dataset("blobs", 30, 0)
    traj = run_dual(X, y, kernel="poly", degree=2, max_steps=50)
    fig = dual_figure(traj)
    z = fig["data"][T_GRAM]["z"]
    Z = np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.float32).reshape(30, 30)
    np.testing.assert_allclose(Z, traj.problem.G, rtol=1e-6)
    G = np.arange(25.0).reshape(5, 5)
    Zb, k = gram_display(G, side=2)
    assert k == 3 and Zb.shape == (2, 2)
    assert Zb[0, 0] == G[:3, :3].mean() and Zb[1, 1] == G[3:, 3:].mean()
    assert gram_display(G, side=5)[1] == 1


def test_frames_mode_updates_and_base_figure(circles_rbf):
    traj, _ = circles_rbf
    fig = dual_figure(traj, mode="updates")
    steps = fig["layout"]["meta"]["frame_steps"]
    assert steps == sorted({0, *traj.update_steps.tolist(), traj.n_steps})
    base = fig["data"]
    first = state_data(fig, 0)
    assert (halo_sizes(base[T_HALO]) == halo_sizes(first[T_HALO])).all()
    assert base[T_HALO]["marker"]["colorscale"]  # the base keeps its style where frames only set sizes
    assert fig["layout"]["annotations"][0]["text"].startswith("<b>Step 0</b>")


def test_figure_size_budget_for_a_kernel_run_on_500_points():
    """200 steps of a kernel boundary on N = 500 points: at most 2 MB of JSON (the issue's budget)."""
    X, y = make_dataset("circles", 500, 0)
    for kernel, params in [("rbf", {"gamma": 3.0}), ("poly", {"degree": 3, "coef0": 1.0})]:
        traj = run_dual(X, y, kernel=kernel, max_steps=200, **params)
        assert size_of(dual_figure(traj)) <= 2_000_000, kernel
    # worst cases: a bump around every point (γ = 30 on noisy XOR), every frame an update, as many frames as allowed
    for n in (500, 2000):
        X, y = make_dataset("xor", n, 0, noise=0.6)
        traj = run_dual(X, y, kernel="rbf", gamma=30.0, max_steps=10_000)
        fig = dual_figure(traj, mode="updates", max_frames=500)
        assert len(fig["layout"]["meta"]["frame_steps"]) <= frame_cap(n) < 500
        assert f"the cap is {frame_cap(n):,} frames here" in fig["layout"]["meta"]["thinned"]
        assert size_of(fig) <= 2_000_000, (n, size_of(fig))


def test_summary_cost_and_table(circles_rbf):
    traj, _ = circles_rbf
    kind, text = dual_summary(traj, True)
    assert kind == "success" and "Converged" in text
    X, y = make_dataset("circles", 80, 0)
    lin = run_dual(X, y, max_steps=300)
    kind, text = dual_summary(lin, False)
    assert kind == "warning" and "not separable linearly" in text
    kind, text = dual_summary(lin, None)
    assert kind == "info"
    cost = cost_lines(traj)
    assert [c[0] for c in cost][:2] == ["Without G", "With G"]
    assert cost[1][1] == f"{80 * 81 // 2:,}"
    assert cost[2][0] in ("Saved by G", "G cost more, by") and not cost[2][1].startswith("-")
    table = dual_table(traj)
    assert table["step"] == list(range(traj.n_steps + 1))
    assert table["|M|"][-1] == 0 and table["updated"].count("✓") == traj.n_updates


def test_refuses_non_2d_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(10, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match="2-D"):
        dual_figure(run_dual(X, y, max_steps=10))


def test_bars_every_point_when_many_have_alpha():
    """Once more than N/4 points have α > 0 the figure sends every bar (y only); x and colours stay in the base."""
    X, y = make_dataset("xor", 40, 0, noise=0.6)
    traj = run_dual(X, y, kernel="rbf", gamma=30.0, max_steps=2000)
    assert (traj[-1].alpha > 0).sum() * 4 > 40
    fig = dual_figure(traj)
    assert fig["data"][T_BARS]["x"] == list(range(1, 41))
    assert fig["data"][T_BARS]["marker"]["color"] == np.where(y > 0, 1, -1).tolist()
    for f in fig["frames"]:
        if f["name"].startswith("m"):
            d = f["data"][STATE_TRACES.index(T_BARS)]
            assert set(d) == {"y"} and len(d["y"]) == 40


def test_lit_row_spans_the_block_when_g_is_drawn_in_blocks():
    X, y = make_dataset("blobs", 450, 0)
    traj = run_dual(X, y, kernel="rbf", max_steps=30)
    fig = dual_figure(traj)
    k = fig["layout"]["meta"]["gram_block"]
    assert k == 3
    for step in (4, 5, 6, 7):
        i = int(traj.examined(step)[0])
        rows = state_data(fig, step)[T_ROW]["y"]
        assert min(rows) == (i // k) * k + 0.5 and max(rows) == (i // k) * k + k + 0.5


def test_negative_gram_entries_are_parenthesised_and_tiny_eta_keeps_its_bars():
    X = np.array([[1.0, 0.0], [-1.0, 0.5], [0.5, 1.0]])
    y = np.array([1, 1, -1])
    traj = run_dual(X, y, eta=1e-6, max_steps=12)
    text = " ".join(describe_dual_step(traj, s) for s in range(1, len(traj)))
    assert "·(−1)" in text  # G₁₂ = −1 is written as a factor in parentheses
    fig = dual_figure(traj)
    last = state_data(fig, traj.n_steps)[T_BARS]
    np.testing.assert_allclose(bar_heights(last, 3), traj[-1].alpha, rtol=1e-5)
    assert max(bar_heights(last, 3)) > 0


def check_dual_state(text: str, traj, step: int) -> None:
    """The state line at a step: the updates so far, α's support, b (and w = Σαᵢyᵢxᵢ for the linear kernel), and
    exactly the points with y·f(x) ≤ 0, f computed here from α and b."""
    from viz.common import num, vec

    p = traj.problem
    X, y = p.X, p.y
    A, B = traj.states(np.array([step]))
    alpha, b = A[0], float(B[0])
    f = decision_function(X, y, alpha, b, X, p.kernel, **dict(p.kernel_params))
    mis = np.flatnonzero(y * f <= 0)
    S = np.flatnonzero(alpha > 0)
    k = int(traj.state_index(np.array([step]))[0])
    head, *parts = text.split("; ")
    assert head.startswith("Before any update: " if k == 0 else f"After {k} update{'s' * (k != 1)}: ")
    if p.kernel == "linear":
        w = (alpha * y) @ X  # w = Σ αᵢyᵢxᵢ
        assert head.endswith(f"w = Σαᵢyᵢxᵢ = {vec(w)}, b = {num(b)}")
        support = parts.pop(0)
    else:
        assert "w =" not in text and head.endswith(f", b = {num(b)}")
        support = head
    if S.size == 0:
        assert "α = 0" in support
    else:
        assert f"{S.size} of {p.n}" in support and named_points(support.split(": ")[-1]) == S[:4].tolist()
    (mpart,) = parts
    if mis.size == 0:
        assert mpart == f"no point misclassified (0 of {p.n})"
    elif mis.size <= 4:
        assert named_points(mpart) == mis.tolist() and mpart.endswith(f"({mis.size} of {p.n})")
    else:
        assert mpart.startswith(f"{mis.size} of {p.n} misclassified: ") and named_points(mpart) == mis[:4].tolist()


def test_state_line_names_the_mistakes_and_alpha_of_each_step(textbook, circles_rbf):
    from viz.common import start_at

    for traj, fig in (textbook, circles_rbf):
        ann = fig["layout"]["annotations"]
        assert len(ann) == 3 and ann[2]["name"] == "state" and ann[2]["font"]["size"] >= 15
        assert ann[2]["text"] == merged_layout(fig, "s0")["annotations[2].text"]  # the base figure is at step 0
        steps = fig["layout"]["meta"]["frame_steps"]
        for step in steps[:6] + steps[len(steps) // 2:len(steps) // 2 + 3] + steps[-3:]:
            check_dual_state(merged_layout(fig, f"s{step}")["annotations[2].text"], traj, step)
        # sent once per state: on the state frames only
        for f in fig["frames"]:
            assert ("annotations[2].text" in f.get("layout", {})) == f["name"].startswith("m")
    traj, fig = textbook
    assert merged_layout(fig, "s3")["annotations[2].text"] == (
        "After 2 updates: w = Σαᵢyᵢxᵢ = (2, 2), b = 0; αᵢ > 0 for x₁, x₃ (2 of 3); misclassified: x₃ (1 of 3)")
    # opening the figure at a step writes that step's state at index 2; the tag (1) and arithmetic (0) stay put
    at = start_at(fig, "s15")["layout"]["annotations"]
    assert at[2]["text"].endswith("no point misclassified (0 of 3)") and at[0]["text"].startswith("<b>Step 15</b>")
    assert at[1]["text"].startswith("x")  # the examined point's tag
    # under the panels' x titles, above the legend
    lay = fig["layout"]
    st = lay["annotations"][2]
    assert st["y"] == lay["yaxis"]["domain"][0] and st["yshift"] < 0 and st["y"] > lay["legend"]["y"]
