"""The compare figure as data: each panel follows its own run, the shorter run holds, the text names M."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from state_text import named_points

from core.perceptron import run_perceptron
from core.svm import fit_svm, hinge_sgd
from datasets import make_dataset
from viz.common import start_at_step
from viz.compare import (
    FRAME_TRACES,
    PANEL_TRACES,
    T_EXAM,
    T_LINE,
    T_NEG,
    T_OLD,
    T_POS,
    T_REG_NEG,
    T_REG_POS,
    T_RING,
    compare_figure,
    compare_steps,
)


def frame(fig: dict, step: int) -> dict:
    return next(f for f in fig["frames"] if f["name"] == f"s{step}")


def panel(fig: dict, step: int, side: int) -> dict[int, dict]:
    """Panel-local trace index (T_*) -> the frame's update of that trace, for side 0 (left) or 1 (right)."""
    fr = frame(fig, step)
    off = side * PANEL_TRACES
    return {t - off: d for t, d in zip(fr["traces"], fr["data"], strict=True) if off <= t < off + PANEL_TRACES}


def state_texts(fig: dict, step: int) -> tuple[str, str]:
    """The two state lines a frame writes, found through the annotations' names."""
    names = [a.get("name") for a in fig["layout"]["annotations"]]
    lay = frame(fig, step)["layout"]
    return (lay[f"annotations[{names.index('state_left')}].text"],
            lay[f"annotations[{names.index('state_right')}].text"])


def state_of(run, step: int) -> tuple[np.ndarray, float]:
    """(w, b) of a run after ``step``, read from its own snapshot (not from the figure's code path)."""
    snap = run[min(step, run.n_steps)]
    return np.asarray(snap.w, dtype=float), float(snap.b)


def ringed(d: dict, n: int) -> list[int]:
    """The points a ring-trace update shows ringed: its selectedpoints, or their complement when the styles swap."""
    sel = set(d["selectedpoints"])
    if d["selected"]["marker"]["opacity"] == 1 and d["unselected"]["marker"]["opacity"] == 0:
        return sorted(sel)
    assert d["selected"]["marker"]["opacity"] == 0 and d["unselected"]["marker"]["opacity"] == 1
    assert len(sel) < n / 2  # the swap is there to list fewer points
    return sorted(set(range(n)) - sel)


def check_segment_on_line(d: dict, w: np.ndarray, b: float) -> None:
    """The boundary trace is a 2-point segment whose ends satisfy w·x + b ≈ 0 (up to the 3-decimal rounding)."""
    pts = np.array([d["x"], d["y"]], dtype=float).T
    assert pts.shape == (2, 2)
    assert np.linalg.norm(pts[0] - pts[1]) > 1.0  # a real segment across the view, not a point
    resid = pts @ w + b  # w·x + b at each end
    assert np.all(np.abs(resid) <= 6e-4 * np.abs(w).sum() + 1e-9), resid


@pytest.fixture(scope="module")
def orders():
    """Cyclic against random order on small separable data; the runs end at different steps."""
    X, y = make_dataset("separable", 30, 4, margin=0.1)
    cyc = run_perceptron(X, y, variant="cyclic", max_steps=5000)
    rnd = run_perceptron(X, y, variant="random", max_steps=5000, seed=3)
    assert cyc.converged and rnd.converged
    assert cyc.n_steps != rnd.n_steps and min(cyc.n_steps, rnd.n_steps) >= 10  # a real "shorter run"
    fig = compare_figure(cyc, rnd, titles=("cyclic, τ = 1", "random, τ = 1"), max_frames=10_000)
    return X, y, cyc, rnd, fig


def test_every_frame_draws_each_runs_own_boundary(orders):
    X, y, cyc, rnd, fig = orders
    steps = fig["layout"]["meta"]["frame_steps"]
    assert steps == list(range(max(cyc.n_steps, rnd.n_steps) + 1))  # under the cap: every step is a frame
    for k in steps:
        for side, run in enumerate((cyc, rnd)):
            w, b = state_of(run, k)
            if not w.any():
                assert panel(fig, k, side)[T_LINE]["x"] == [None]  # w = 0: no line
                continue
            check_segment_on_line(panel(fig, k, side)[T_LINE], w, b)


def test_regions_and_rings_follow_the_state(orders):
    X, y, cyc, rnd, fig = orders
    swapped = set()
    for k in (0, 1, 7, min(cyc.n_steps, rnd.n_steps) - 1, max(cyc.n_steps, rnd.n_steps)):
        for side, run in enumerate((cyc, rnd)):
            w, b = state_of(run, k)
            d = panel(fig, k, side)
            mask = y * (X @ w + b) <= 0  # M
            assert ringed(d[T_RING], len(y)) == np.flatnonzero(mask).tolist()
            swapped.add(d[T_RING]["selected"]["marker"]["opacity"] == 0)
            if w.any():  # each region polygon lies on its side of the line (vertices up to rounding)
                for t, sign in ((T_REG_POS, 1), (T_REG_NEG, -1)):
                    vx = np.array([d[t]["x"], d[t]["y"]], dtype=float).T
                    assert len(vx) >= 3
                    assert np.all(sign * (vx @ w + b) >= -0.01 * np.abs(w).sum())
    assert swapped == {True, False}  # at w = 0 every point is in M: the complement form was checked too


def test_examined_point_and_previous_boundary(orders):
    X, y, cyc, rnd, fig = orders
    for side, run in enumerate((cyc, rnd)):
        upd = set(run.update_steps.tolist())
        for k in range(1, run.n_steps + 1):
            d = panel(fig, k, side)
            i = int(run[k].examined[0])
            assert (d[T_EXAM]["x"], d[T_EXAM]["y"]) == ([round(X[i, 0], 3)], [round(X[i, 1], 3)])
            if k in upd:
                wp, bp = state_of(run, k - 1)
                if wp.any():
                    check_segment_on_line(d[T_OLD], wp, bp)
            else:
                assert d[T_OLD]["x"] == [None]
        assert panel(fig, 0, side)[T_EXAM]["x"] == [None]  # step 0 examines nothing


def test_shorter_run_holds_its_last_state(orders):
    X, y, cyc, rnd, fig = orders
    short, side = (cyc, 0) if cyc.n_steps < rnd.n_steps else (rnd, 1)
    S, T = short.n_steps, max(cyc.n_steps, rnd.n_steps)
    end = panel(fig, S, side)
    for k in (S + 1, (S + T) // 2, T):
        d = panel(fig, k, side)
        for t in (T_REG_POS, T_REG_NEG, T_RING, T_LINE):
            assert d[t] == end[t]
        assert d[T_EXAM]["x"] == [None] and d[T_OLD]["x"] == [None]  # a finished run examines nothing
        text = state_texts(fig, k)[side]
        assert f"finished at step {S}" in text and f"Step {S} of {S}" in text
    assert "finished" not in state_texts(fig, S)[side]
    assert "finished" not in state_texts(fig, T)[1 - side]


def test_state_lines_name_the_misclassified_points(orders):
    X, y, cyc, rnd, fig = orders
    seen_many = seen_few = False
    for k in range(max(cyc.n_steps, rnd.n_steps) + 1):
        for side, run in enumerate((cyc, rnd)):
            w, b = state_of(run, k)
            mis = np.flatnonzero(y * (X @ w + b) <= 0).tolist()  # M, the run's own mask
            text = state_texts(fig, k)[side]
            assert f"Step {min(k, run.n_steps)} of {run.n_steps}" in text
            if not mis:
                assert "no point misclassified" in text and not named_points(text)
                continue
            assert f"{len(mis)} of {len(y)}" in text
            listed = named_points(text)
            assert listed and listed == mis[:len(listed)]  # the right points, in order
            assert len(listed) == len(mis) or "…" in text  # all of them, or it says it cut the list
            seen_many |= len(listed) < len(mis)
            seen_few |= len(listed) == len(mis)
    assert seen_many and seen_few  # both forms of the line were checked


def test_layout_meta_annotations_and_buttons(orders):
    X, y, cyc, rnd, fig = orders
    lay = fig["layout"]
    meta = lay["meta"]
    assert meta["view"] == "compare"
    assert meta["n_steps"] == [cyc.n_steps, rnd.n_steps]
    assert meta["titles"] == ["cyclic, τ = 1", "random, τ = 1"] and meta["thinned"] == ""
    assert [a["name"] for a in lay["annotations"]] == ["title_left", "title_right", "state_left", "state_right"]
    assert all(a["font"]["size"] >= 15 for a in lay["annotations"]) and lay["font"]["size"] >= 16
    assert "cyclic, τ = 1" in lay["annotations"][0]["text"] and "converged at step" in lay["annotations"][0]["text"]
    # two equal square views with the same ranges
    for ax in ("xaxis", "yaxis"):
        assert lay[ax]["range"] == lay[ax + "2"]["range"]
    assert lay["yaxis"]["scaleanchor"] == "x" and lay["yaxis2"]["scaleanchor"] == "x2"
    assert {t["xaxis"] for t in fig["data"][:PANEL_TRACES]} == {"x"}
    assert {t["xaxis"] for t in fig["data"][PANEL_TRACES:2 * PANEL_TRACES]} == {"x2"}
    # frames touch only the changing traces, never the points
    for fr in fig["frames"]:
        assert sorted(fr["traces"]) == sorted(FRAME_TRACES + [t + PANEL_TRACES for t in FRAME_TRACES])
        assert not {T_POS, T_NEG, T_POS + PANEL_TRACES, T_NEG + PANEL_TRACES} & set(fr["traces"])
    # Back/Next at a frame point at its neighbours; the slider has one stop per frame
    names = [f["name"] for f in fig["frames"]]
    for f, fr in enumerate(fig["frames"]):
        back, nxt = fr["layout"]["updatemenus[1].buttons"]
        assert back["args"][0] == [names[max(f - 1, 0)]] and nxt["args"][0] == [names[min(f + 1, len(names) - 1)]]
    assert [s["args"][0][0] for s in lay["sliders"][0]["steps"]] == names
    # the base figure is frame 0, and a link's step opens at that frame's texts
    base = fig["data"]
    for t, d in zip(fig["frames"][0]["traces"], fig["frames"][0]["data"], strict=True):
        assert all(base[t][key] == v for key, v in d.items())
    opened, at = start_at_step(fig, 9)
    assert at == 9
    assert [opened["layout"]["annotations"][i]["text"] for i in (2, 3)] == list(state_texts(fig, 9))


def test_perceptron_against_hinge_sgd_with_the_exact_svm():
    X, y = make_dataset("blobs", 60, 2)
    per = run_perceptron(X, y, variant="random", max_steps=400, seed=0)
    sgd = hinge_sgd(X, y, C=1.0, max_steps=600, seed=0)
    sol = fit_svm(X, y, C=1.0)
    fig = compare_figure(per, sgd, reference=sol, max_frames=120)
    assert fig["layout"]["meta"]["kinds"] == ["perceptron", "hinge"]
    assert fig["layout"]["meta"]["n_steps"] == [per.n_steps, 600]
    ref = [t for t in fig["data"] if t["name"].startswith("exact SVM")]
    assert len(ref) == 1 and ref[0]["xaxis"] == "x2" and ref[0]["line"]["dash"] != "solid"
    check_segment_on_line(ref[0], np.asarray(sol.w), float(sol.b))
    assert fig["data"].index(ref[0]) >= 2 * PANEL_TRACES  # after both panels: frames' indices unchanged
    for k in fig["layout"]["meta"]["frame_steps"][1::17]:
        w, b = sgd.W[k], float(sgd.B[k])
        d = panel(fig, k, 1)
        check_segment_on_line(d[T_LINE], w, b)
        # rings on the hinge panel: the active hinges, margin < 1 (not M)
        assert ringed(d[T_RING], len(y)) == np.flatnonzero(y * (X @ w + b) < 1).tolist()
        i = int(sgd.order[k - 1])
        assert d[T_EXAM]["x"] == [round(X[i, 0], 3)]
        assert (d[T_OLD]["x"] != [None]) == bool(sgd.active[k - 1])
        assert f"margin < 1 (ringed): {int((y * (X @ w + b) < 1).sum())} of 60" in state_texts(fig, k)[1]
    with pytest.raises(ValueError, match="C = 10.*C = 1"):
        compare_figure(per, sgd, reference=fit_svm(X, y, C=10.0))
    ring_names = {t["name"] for t in fig["data"] if t.get("marker", {}).get("symbol") == "circle-open"}
    assert any("y·(w·x+b) ≤ 0" in n for n in ring_names) and any("< 1" in n for n in ring_names)


def test_different_data_and_bad_arguments_raise():
    X, y = make_dataset("separable", 30, 4)
    a = run_perceptron(X, y, variant="cyclic", max_steps=100)
    X2 = X.copy()
    X2[5] += 0.5
    with pytest.raises(ValueError, match="same data.*1 of them differ"):
        compare_figure(a, run_perceptron(X2, y, variant="cyclic", max_steps=100))
    with pytest.raises(ValueError, match="same data"):
        compare_figure(a, run_perceptron(X, -y, variant="cyclic", max_steps=100))
    Xs, ys = make_dataset("separable", 20, 4)
    with pytest.raises(ValueError, match="30 points.*20"):
        compare_figure(a, hinge_sgd(Xs, ys, max_steps=10))
    with pytest.raises(ValueError, match="neither run is a HingeRun"):
        compare_figure(a, a, reference=((1.0, 0.0), 0.0))
    with pytest.raises(ValueError, match="max_frames"):
        compare_figure(a, a, max_frames=2)
    with pytest.raises(TypeError, match="Trajectory or a core.svm.HingeRun"):
        compare_figure(a, (X, y))


def test_thinning_keeps_the_ends_and_the_shorter_runs_end():
    X, y = make_dataset("xor", 40, 1)  # not separable: the runs go to max_steps
    a = run_perceptron(X, y, variant="random", max_steps=1000, seed=0)
    b = run_perceptron(X, y, variant="cyclic", max_steps=437)
    fig = compare_figure(a, b, max_frames=50)
    steps = fig["layout"]["meta"]["frame_steps"]
    assert len(steps) == 50 and steps[0] == 0 and steps[-1] == 1000 and 437 in steps
    assert steps == sorted(set(steps))
    assert max(np.diff(steps)) <= 2 * 1000 / 49  # evenly spread
    assert [f["name"] for f in fig["frames"]] == [f"s{s}" for s in steps]
    assert "50-frame cap" in fig["layout"]["meta"]["thinned"]
    # a thinned frame still shows its own step (the examined point of that very step)
    k = next(s for s in steps if s not in (0, 437, 1000))
    i = int(a[k].examined[0])
    assert panel(fig, k, 0)[T_EXAM]["x"] == [round(X[i, 0], 3)]
    few, note = compare_steps(5, 7, 300)
    assert few.tolist() == list(range(8)) and note == ""


def test_json_plain_types_and_size_for_300_frames_of_200_points():
    X, y = make_dataset("blobs", 200, 5)
    a = run_perceptron(X, y, variant="random", max_steps=3000, seed=1)
    b = run_perceptron(X, y, variant="minibatch", batch_size=16, max_steps=3000, seed=1)
    assert max(a.n_steps, b.n_steps) >= 1000  # far past the cap: thinned to 300
    fig = compare_figure(a, b, max_frames=300)
    assert len(fig["frames"]) == 300
    # no default=: NumPy values would fail here; no NaN either (not JSON)
    text = json.dumps(fig, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    size = len(text.encode())
    print(f"\ncompare figure, 300 frames × 200 points: {size / 1e6:.2f} MB")
    assert size < 2_000_000
    assert json.loads(text)["layout"]["meta"]["frame_steps"][-1] == max(a.n_steps, b.n_steps)


def test_state_lines_fit_a_narrow_panel():
    """Every line of every state text stays short (the panels are ~370 px wide), whatever the names and numbers."""
    X, y = make_dataset("xor", 300, 2)
    a = run_perceptron(X, y, variant="random", max_steps=4000, seed=2)
    b = hinge_sgd(X, y, C=3.0, max_steps=1500, seed=2)
    fig = compare_figure(a, b, max_frames=80)
    lengths = []
    for fr in fig["frames"]:
        for key, txt in fr["layout"].items():
            if key.startswith("annotations"):
                lengths += [len(re.sub(r"<[^>]+>", "", line)) for line in txt.split("<br>")]
    assert max(lengths) <= 46
    assert any(n > 30 for n in lengths)  # there was something long to break
