"""The Perceptron page's words tested as data: the arithmetic, the state line, the status, the bound, the table.

What the browser renderer draws from the scene is held equal to these in Chromium (tests/test_e2e_scene.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import describe_step, state_line_of
from state_text import named_points

from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.common import boundary_segment, clip_halfplane, num, vec, view_box
from viz.perceptron import choose_frames, run_summary, step_table
from viz.scene import perceptron_scene

TEXTBOOK = (np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]]), np.array([1, 1, -1]))


@pytest.fixture(scope="module")
def blobs_run():
    X, y = make_dataset("blobs", 120, seed=3, noise=0.7)
    return run_perceptron(X, y, variant="cyclic", max_steps=400)


def test_textbook_arithmetic_is_written_out():
    traj = run_perceptron(*TEXTBOOK)
    txt = describe_step(traj, 9).replace("<br>", " ")
    assert "x₃ = (1, 1), y = −1 misclassified" in txt
    assert "y·(w·x+b) = −1·((1, 1)·(1, 1) − 1) = −1 ≤ 0" in txt
    assert "w ← (1, 1) + 1·(−1)·(1, 1) = (0, 0), b ← −1 + 1·(−1) = −2" in txt
    assert "correct" in describe_step(traj, 2) and "no update" in describe_step(traj, 2)
    assert "Converged" in describe_step(traj, 15)


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


def test_thinning_keeps_first_and_last_and_says_so():
    X, y = make_dataset("xor", 60, seed=0)
    traj = run_perceptron(X, y, max_steps=1234)
    steps, note = choose_frames(traj, 100)
    assert steps.size == 100 and steps[0] == 0 and steps[-1] == 1234
    assert "500-frame cap" not in note and "100-frame cap" in note and "the first and the last" in note
    steps_u, note_u = choose_frames(traj, 10_000, mode="updates")
    assert note_u == "" and set(traj.update_steps) <= set(steps_u.tolist())


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

    from oracles import describe_step

    from core.bounds import mistake_bound
    from viz.perceptron import bound_applies, bound_line

    X, y = make_dataset("separable", 40, 2)
    traj = run_perceptron(X, y)
    mb = mistake_bound(X, y)
    sent = perceptron_scene(traj, mb).bound  # the renderer draws R's circle and the γ band from these
    assert sent["R"] == mb.R and sent["gamma"] == mb.gamma and sent["w"] == mb.w.tolist() and sent["b"] == mb.b
    assert math.sqrt(mb.R**2 - 1) >= np.hypot(X[:, 0], X[:, 1]).max() - 1e-9  # ‖x‖ ≤ r ⇔ ‖(x, 1)‖ ≤ R
    assert (y * (X @ mb.w + mb.b)).min() == pytest.approx(mb.gamma, rel=1e-6)  # every point outside the band
    last = describe_step(traj, traj.n_steps, bound=mb)
    assert f"updates so far {traj.n_updates} ≤ (R/γ)²" in last
    kind, text = bound_line(traj, mb)
    assert kind == "info" and traj.n_updates <= mb.bound
    # a start away from zero: the bound is not claimed, and nothing is drawn
    other = run_perceptron(X, y, w0=(1.0, 0.0))
    assert bound_applies(other, mb) == (False, "it assumes the start w = 0, b = 0")
    assert perceptron_scene(other, mb).bound is None


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
        assert part == f"no point misclassified (0 of {len(y):,})"
    elif mis.size <= limit:
        assert named_points(part) == mis.tolist() and part.endswith(f"({mis.size:,} of {len(y):,})")
    else:  # the count, and the first ones by name
        assert part.startswith(f"{mis.size:,} of {len(y):,} misclassified: ") and part.endswith(", …")
        assert named_points(part) == mis[:limit].tolist()


def test_state_line_names_the_misclassified_points_of_each_step():
    sizes = set()
    for name, noise, variant in (("blobs", 1.0, "random"), ("blobs", 0.6, "cyclic")):
        X, y = make_dataset(name, 40, seed=1, noise=noise)
        traj = run_perceptron(X, y, variant=variant, seed=2, max_steps=300)
        for step in range(traj.n_steps + 1):
            (w,), (b,) = traj.states([step])
            check_state_line(state_line_of(traj, step), int(traj.state_index(step)), w, float(b), X, y)
            sizes.add(min(int((y * (X @ w + b) <= 0).sum()), 7))
    # frames with no mistake, with every mistake named, and with the list cut short were all checked
    assert 0 in sizes and 7 in sizes and sizes & {1, 2, 3, 4, 5, 6}


def test_state_line_on_the_textbook_run():
    X, y = TEXTBOOK
    traj = run_perceptron(X, y, variant="cyclic")
    assert state_line_of(traj, 0) == "Before any update: w = (0, 0), b = 0; misclassified: x₁, x₂, x₃ (3 of 3)"
    assert state_line_of(traj, 3) == "After 2 updates: w = (2, 2), b = 0; misclassified: x₃ (1 of 3)"
    assert state_line_of(traj, 4) == state_line_of(traj, 3)  # the same on every step between two updates
    last = state_line_of(traj, 15)
    check_state_line(last, traj.n_updates, traj.W[-1], float(traj.B[-1]), X, y)
    assert last.endswith("no point misclassified (0 of 3)")


def test_state_line_on_many_points_names_three_and_counts_the_rest():
    X, y = make_dataset("blobs", 300, seed=4, noise=1.2)
    traj = run_perceptron(X, y, variant="random", seed=1, max_steps=200)
    for step in (0, 1, 57, 200):
        (w,), (b,) = traj.states([step])
        check_state_line(state_line_of(traj, step), int(traj.state_index(step)), w, float(b), X, y)


def test_counts_in_the_words_are_grouped_by_thousands():
    """Every count a page writes carries thousands separators (as the step label does: "Step 1,234 of 12,000"), so a
    state line and the label above it agree."""
    from viz.common import mistakes_text, state_line

    line = state_line(1234, 12000, np.array([1.0, 0.0]), 0.0, np.arange(1500), 10000)
    assert line.startswith("Step 1,234 of 12,000: ") and "1,500 of 10,000 misclassified" in line
    assert mistakes_text([], 10000) == "no point misclassified (0 of 10,000)"
    assert mistakes_text([3, 7], 2000).endswith("(2 of 2,000)")


def test_a_small_step_is_written_with_the_decimals_that_show_it():
    """τ = 0.01 over 200 points moves w past its third decimal: the update is written with as many decimals as set the
    state before and after apart (at most 6), where with three it read (0.008, 0.008) → (0.008, 0.008)."""
    from oracles import apart

    X, y = make_dataset("blobs", 200, 0)
    traj = run_perceptron(X, y, variant="batch", tau=0.01, max_steps=6)
    s = int(traj.update_steps[2])
    (wp,), (bp,) = traj.states([s - 1])
    (w,), (b,) = traj.states([s])
    d = apart([*wp, bp], [*w, b])
    assert d == 5 and vec(wp) == vec(w)  # (three decimals wrote no change)
    line = describe_step(traj, s, None).split("<br>")[-1]
    assert f"= {vec(wp, d)} + 0.01/200·" in line and f") = {vec(w, d)}, b ← {num(bp, d)} + " in line
    assert vec(wp, d) != vec(w, d)
    assert apart([1.0, 2.0], [1.0, 2.0]) == 3 and apart([0.5], [0.25]) == 3 and apart([0.008], [0.0079]) == 4
    assert apart([1.0], [1.0000001]) == 6  # (the most: written alike even so)
