"""The step-through figure tested as data: what each frame draws must match the run."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from state_text import merged_layout, named_points

from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.common import PrebuiltFigure, boundary_segment, clip_halfplane, num, vec, view_box
from viz.perceptron import (
    STATE_TRACES,
    STEP_TRACES,
    T_EXAM,
    T_LINE,
    T_OLD,
    T_RING,
    T_UPD,
    T_W,
    choose_frames,
    describe_step,
    perceptron_figure,
    run_summary,
    step_table,
)

TEXTBOOK = (np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]]), np.array([1, 1, -1]))


def frame_state(fig: dict, name: str) -> dict[int, dict]:
    """Trace index -> the data a frame shows, its base (state) frame merged under it."""
    frames = {f["name"]: f for f in fig["frames"]}
    step = frames[name]
    merged = {}
    base = frames[step["baseframe"]]
    for t, d in zip(base["traces"], base["data"], strict=True):
        merged[t] = d
    for t, d in zip(step["traces"], step["data"], strict=True):
        merged[t] = d
    return merged


def drawn(d: dict) -> list[tuple[float, float]]:
    """The points a trace update really draws (gap points dropped)."""
    xs, ys = d.get("x", []), d.get("y", [])
    return [(x, y) for x, y in zip(xs, ys, strict=False) if x is not None and y is not None]


@pytest.fixture(scope="module")
def blobs_run():
    X, y = make_dataset("blobs", 120, seed=3, noise=0.7)
    return run_perceptron(X, y, variant="cyclic", max_steps=400)


def test_every_frame_draws_its_state(blobs_run):
    traj = blobs_run
    fig = perceptron_figure(traj)
    X = traj.problem.X
    for step in fig["layout"]["meta"]["frame_steps"]:
        snap = traj[step]
        d = frame_state(fig, f"s{step}")
        # the boundary's endpoints satisfy w·x + b = 0 (up to the 2-decimal rounding)
        pts = drawn(d[T_LINE])
        assert len(pts) == (2 if np.any(snap.w) else 0)
        for x in pts:
            assert abs(snap.w @ np.array(x) + snap.b) <= 0.006 * (np.abs(snap.w).sum() + 1e-9) + 1e-9
        # M ringed = the snapshot's misclassified mask
        assert d[T_RING]["selectedpoints"] == np.flatnonzero(snap.misclassified).tolist()
        # the examined point is marked
        ex = drawn(d[T_EXAM])
        if step:
            np.testing.assert_allclose(ex, X[snap.examined], atol=1e-3)
        # the update arrow exists exactly on update steps
        assert bool(drawn(d[T_UPD])) == bool(snap.updated.size)
        had_line = step > 0 and bool(np.any(traj[step - 1].w))
        assert bool(drawn(d[T_OLD])) == (bool(snap.updated.size) and had_line)


def test_w_arrow_and_update_arrow_are_tip_to_tail(blobs_run):
    traj = blobs_run
    fig = perceptron_figure(traj)
    s = fig["layout"]["meta"]["vector_scale"]
    step = int(traj.update_steps[3])
    d = frame_state(fig, f"s{step}")
    (px, py), (tx, ty) = drawn(d[T_W])
    np.testing.assert_allclose([(tx - px) / s, (ty - py) / s], traj[step].w, rtol=1e-2, atol=1e-2)
    (ux0, uy0), (ux1, uy1) = drawn(d[T_UPD])
    assert (ux1, uy1) == pytest.approx((tx, ty), abs=1e-3)  # the update ends at the new tip of w
    i = int(traj[step].examined[0])
    x, y = traj.problem.X[i], traj.problem.y[i]
    np.testing.assert_allclose([(ux1 - ux0) / s, (uy1 - uy0) / s], traj.tau * y * x, rtol=1e-2, atol=1e-2)


def test_textbook_arithmetic_is_written_out():
    traj = run_perceptron(*TEXTBOOK)
    txt = describe_step(traj, 9).replace("<br>", " ")
    assert "x₃ = (1, 1), y = −1 misclassified" in txt
    assert "y·(w·x+b) = −1·((1, 1)·(1, 1) − 1) = −1 ≤ 0" in txt
    assert "w ← (1, 1) + 1·(−1)·(1, 1) = (0, 0), b ← −1 + 1·(−1) = −2" in txt
    assert "correct" in describe_step(traj, 2) and "no update" in describe_step(traj, 2)
    assert "Converged" in describe_step(traj, 15)
    fig = perceptron_figure(traj)
    frames = {f["name"]: f for f in fig["frames"]}
    assert frames["s9"]["layout"]["annotations[0].text"] == describe_step(traj, 9)


def test_negative_rule_and_no_bias_texts():
    traj = run_perceptron(*TEXTBOOK, update_on="negative")
    assert traj.n_steps == 0
    assert "nothing will move" in describe_step(traj, 0)
    kind, text = run_summary(traj, True)
    assert kind == "info" and "y·a < 0" in text
    X = np.array([[1.0, 2.0], [-1.0, -1.5]])
    nb = run_perceptron(X, [1, -1], fit_intercept=False, tau=0.5)
    txt = describe_step(nb, 1)
    assert "y·(w·x)" in txt and "b stays 0" in txt


def test_minibatch_and_batch_texts():
    X, y = make_dataset("blobs", 40, seed=1)
    mb = run_perceptron(X, y, variant="minibatch", batch_size=5, max_steps=50)
    s = int(mb.update_steps[0])
    txt = describe_step(mb, s)
    assert "(B = 5)" in txt and "τ/B" in txt and "M∩I" in txt
    bt = run_perceptron(X, y, variant="batch", max_steps=5, reduction="sum")
    txt = describe_step(bt, 1)
    assert "all 40 points" in txt and "w ← w + τ·Σ<sub>i∈M</sub> yᵢxᵢ" in txt


def test_back_next_point_at_neighbouring_frames():
    traj = run_perceptron(*TEXTBOOK)
    fig = perceptron_figure(traj)
    steps = [f for f in fig["frames"] if f["name"].startswith("s")]
    for j, f in enumerate(steps):
        back, nxt = f["layout"]["updatemenus[1].buttons"]
        assert back["args"][0] == [steps[max(j - 1, 0)]["name"]]
        assert nxt["args"][0] == [steps[min(j + 1, len(steps) - 1)]["name"]]
        assert back["label"].endswith("Back") and nxt["label"].startswith("Next")
    slider = fig["layout"]["sliders"][0]["steps"]
    assert [st["args"][0][0] for st in slider] == [f["name"] for f in steps]


def test_frames_carry_only_changing_traces():
    traj = run_perceptron(*TEXTBOOK)
    fig = perceptron_figure(traj)
    for f in fig["frames"]:
        assert f["traces"] in (STATE_TRACES, STEP_TRACES)
        for d in f["data"]:
            assert set(d) <= {"x", "y", "selectedpoints"}
    # one state frame per distinct (w, b) shown
    assert sum(f["name"].startswith("m") for f in fig["frames"]) == traj.n_updates + 1


def test_thinning_keeps_first_and_last_and_says_so():
    X, y = make_dataset("xor", 60, seed=0)
    traj = run_perceptron(X, y, max_steps=1234)
    steps, note = choose_frames(traj, 100)
    assert steps.size == 100 and steps[0] == 0 and steps[-1] == 1234
    assert "500-frame cap" not in note and "100-frame cap" in note and "the first and the last" in note
    steps_u, note_u = choose_frames(traj, 10_000, mode="updates")
    assert note_u == "" and set(traj.update_steps) <= set(steps_u.tolist())
    fig = perceptron_figure(traj, max_frames=100)
    assert fig["layout"]["meta"]["thinned"] == note
    assert len(fig["layout"]["sliders"][0]["steps"]) == 100


def test_size_of_500_frames_over_2000_points():
    """500 frames × 2,000 points: the JSON the browser receives stays small."""
    X, y = make_dataset("blobs", 2000, seed=1)
    traj = run_perceptron(X, y, max_steps=499)
    fig = perceptron_figure(traj)
    assert len(fig["layout"]["sliders"][0]["steps"]) == 500
    size = len(pio.to_json(fig, validate=False).encode())
    assert size <= 500_000, f"{size:,} bytes"  # the budget: 0.5 MB


def test_prebuilt_figure_passes_the_dict_through():
    traj = run_perceptron(*TEXTBOOK)
    fig = perceptron_figure(traj)
    pf = PrebuiltFigure(fig)
    assert pf.to_dict() is fig
    spec = json.loads(pio.to_json(pf.to_dict(), validate=False))
    assert len(spec["frames"]) == len(fig["frames"])


def test_run_summary_kinds():
    X, y = make_dataset("xor", 40, seed=0)
    traj = run_perceptron(X, y, max_steps=1000)
    kind, text = run_summary(traj, False)
    assert kind == "warning"
    assert text.startswith("No convergence after 1,000 steps") and "not linearly separable" in text
    kind, text = run_summary(run_perceptron(*TEXTBOOK), True)
    assert kind == "success" and text.startswith("Converged after 7 updates in 5 epochs (15 steps)")
    kind, text = run_summary(run_perceptron(*TEXTBOOK, max_steps=4), True)
    assert kind == "info" and "raise max steps" in text


def test_step_table_rows_match_snapshots():
    traj = run_perceptron(*TEXTBOOK)
    tab = step_table(traj)
    assert tab["step"] == list(range(16))
    for s in (0, 1, 9, 15):
        snap = traj[s]
        assert tab["w"][s] == vec(snap.w) and tab["b"][s] == num(snap.b)
        assert tab["|M|"][s] == snap.errors
    assert tab["updated"][1] == "x₁" and tab["updated"][2] == ""
    assert len(step_table(traj, max_rows=5)["step"]) == 5


def test_number_formatting():
    assert num(1.0) == "1" and num(-2.5) == "−2.5" and num(1 / 3) == "0.333" and num(-0.0) == "0"
    assert vec([1, -1]) == "(1, −1)"


finite = st.floats(-5, 5, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(w1=finite, w2=finite, b=finite, sign=st.sampled_from([1.0, -1.0]))
def test_halfplane_clip_and_segment(w1, w2, b, sign):
    box = (-1.0, 2.0, -1.5, 1.5)
    w = np.array([w1, w2])
    poly = clip_halfplane(box, w, b, sign)
    for x, y in poly:
        assert sign * (w @ [x, y] + b) >= -1e-9
        assert box[0] - 1e-9 <= x <= box[1] + 1e-9 and box[2] - 1e-9 <= y <= box[3] + 1e-9
    xs, ys = boundary_segment(box, w, b)
    for x, y in zip(xs, ys, strict=True):
        assert abs(w @ [x, y] + b) <= 1e-9 * (1 + abs(b) + np.abs(w).sum() * 3)


def test_view_box_contains_data_and_nearby_origin():
    X = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    x0, x1, y0, y1 = view_box(X)
    assert x0 < 0 < x1 and y0 < 0 < y1  # the origin is near the data: in view, so w is drawn from it
    far = X + 100
    x0, x1, y0, y1 = view_box(far)
    assert x0 > 0 and (x0 <= far[:, 0].min() and far[:, 0].max() <= x1)


def test_summary_without_bias_names_the_origin():
    X, y = TEXTBOOK
    traj = run_perceptron(X, y, fit_intercept=False, max_steps=50)
    kind, text = run_summary(traj, False)
    assert kind == "warning" and "through the origin" in text


def test_mistake_bound_drawn_and_written():
    import math

    from core.bounds import mistake_bound
    from viz.perceptron import bound_applies, bound_line, describe_step

    X, y = make_dataset("separable", 40, 2)
    traj = run_perceptron(X, y)
    mb = mistake_bound(X, y)
    fig = perceptron_figure(traj, bound=mb)
    traces = {t.get("name", ""): t for t in fig["data"]}
    circle = next(t for n, t in traces.items() if n.startswith("R = "))
    band = next(t for n, t in traces.items() if n.startswith("γ = "))
    assert circle["visible"] == "legendonly" and band["visible"] == "legendonly"
    r = np.hypot(np.array(circle["x"]), np.array(circle["y"]))
    assert np.allclose(r, math.sqrt(mb.R**2 - 1), atol=2e-3)  # ‖x‖ = r ⇔ ‖(x, 1)‖ = R
    assert np.hypot(X[:, 0], X[:, 1]).max() <= r.max() + 2e-3
    pts = np.array([(a, b) for a, b in zip(band["x"], band["y"], strict=True) if a is not None])
    vals = pts @ mb.w + mb.b
    assert np.allclose(np.abs(vals), mb.gamma, atol=5e-3)  # the two band edges w·x + b = ±γ
    assert (y * (X @ mb.w + mb.b)).min() == pytest.approx(mb.gamma, rel=1e-6)  # every point outside the band
    last = describe_step(traj, traj.n_steps, bound=mb)
    assert f"updates so far {traj.n_updates} ≤ (R/γ)²" in last
    kind, text = bound_line(traj, mb)
    assert kind == "info" and traj.n_updates <= mb.bound
    # a start away from zero: the bound is not claimed, and nothing is drawn
    other = run_perceptron(X, y, w0=(1.0, 0.0))
    assert bound_applies(other, mb) == (False, "it assumes the start w = 0, b = 0")
    assert not any(t.get("name", "").startswith("R = ") for t in perceptron_figure(other, bound=mb)["data"])


def mistakes_part(text: str) -> str:
    """The part of a state line about the misclassified points."""
    return next(p for p in text.split("; ") if "misclassified" in p)


def check_state_line(text: str, k: int, w, b: float, X, y) -> None:
    """The line states the k updates so far, the run's w and b, and names exactly M = {i : yᵢ(w·xᵢ + b) ≤ 0}."""
    mis = np.flatnonzero(y * (X @ np.asarray(w) + b) <= 0)  # M, computed here from (w, b)
    head = "Before any update" if k == 0 else f"After {k} update{'s' * (k != 1)}"
    assert text.startswith(f"{head}: w = {vec(w)}, b = {num(b)}; ")
    part = mistakes_part(text)
    limit = 6 if len(y) <= 100 else 3
    if mis.size == 0:
        assert part == f"no point misclassified (0 of {len(y)})"
    elif mis.size <= limit:
        assert named_points(part) == mis.tolist() and part.endswith(f"({mis.size} of {len(y)})")
    else:  # the count, and the first ones by name
        assert part.startswith(f"{mis.size} of {len(y)} misclassified: ") and part.endswith(", …")
        assert named_points(part) == mis[:limit].tolist()


def test_state_line_names_the_misclassified_points_of_each_frame():
    sizes = set()
    for name, noise, variant in (("blobs", 1.0, "random"), ("blobs", 0.6, "cyclic")):
        X, y = make_dataset(name, 40, seed=1, noise=noise)
        traj = run_perceptron(X, y, variant=variant, seed=2, max_steps=300)
        fig = perceptron_figure(traj)
        for step in fig["layout"]["meta"]["frame_steps"]:
            (w,), (b,) = traj.states([step])
            text = merged_layout(fig, f"s{step}")["annotations[1].text"]
            check_state_line(text, int(traj.state_index(step)), w, float(b), X, y)
            sizes.add(min(int((y * (X @ w + b) <= 0).sum()), 7))
    # frames with no mistake, with every mistake named, and with the list cut short were all checked
    assert 0 in sizes and 7 in sizes and sizes & {1, 2, 3, 4, 5, 6}


def test_state_line_on_the_textbook_run_and_in_the_base_figure():
    from viz.common import start_at

    X, y = TEXTBOOK
    traj = run_perceptron(X, y, variant="cyclic")
    fig = perceptron_figure(traj)
    ann = fig["layout"]["annotations"]
    assert len(ann) == 2 and ann[1]["name"] == "state" and ann[1]["font"]["size"] >= 15
    # the base figure shows step 0; opening it at a step (start_at) writes that step's state into index 1
    assert ann[1]["text"] == "Before any update: w = (0, 0), b = 0; misclassified: x₁, x₂, x₃ (3 of 3)"
    at = start_at(fig, "s3")["layout"]["annotations"]
    assert at[1]["text"] == "After 2 updates: w = (2, 2), b = 0; misclassified: x₃ (1 of 3)"
    assert at[0]["text"].startswith("<b>Step 3</b>")  # the arithmetic stays at index 0
    last = start_at(fig, "s15")["layout"]["annotations"][1]["text"]
    check_state_line(last, traj.n_updates, traj.W[-1], float(traj.B[-1]), X, y)
    assert last.endswith("no point misclassified (0 of 3)")
    # sent once per state: on the state frames, never on a step frame
    for f in fig["frames"]:
        assert ("annotations[1].text" in f.get("layout", {})) == f["name"].startswith("m")
    # the line sits under the data panel's x₁ title and above the buttons
    assert ann[1]["y"] == fig["layout"]["yaxis"]["domain"][0] and ann[1]["yshift"] < 0
    assert ann[1]["y"] > fig["layout"]["updatemenus"][1]["y"]


def test_state_line_on_many_points_names_three_and_counts_the_rest():
    X, y = make_dataset("blobs", 300, seed=4, noise=1.2)
    traj = run_perceptron(X, y, variant="random", seed=1, max_steps=200)
    fig = perceptron_figure(traj)
    for step in (0, 1, 57, 200):
        (w,), (b,) = traj.states([step])
        check_state_line(merged_layout(fig, f"s{step}")["annotations[1].text"], int(traj.state_index(step)), w,
                         float(b), X, y)
