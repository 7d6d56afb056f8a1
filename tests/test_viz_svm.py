"""The SVM page's scene record (the solver's decisions for every C, as it decided them), the C path, the words'
Python references and the hinge-SGD figure. What the renderer draws from the record is tested in Chromium
(tests/test_e2e_svm_scene.py)."""

from __future__ import annotations

import numpy as np
import pytest
from oracles import c_path, svm_state, svm_status
from state_text import named_points

from core.svm import C_GRID, fit_svm, path_of, svm_grid
from datasets import make_dataset
from viz.common import num, sub, view_box
from viz.scene import SvmScene, svm_scene, unpack
from viz.svm import MAX_SLACK_LABELS, ON_MARGIN, categories, margin_tol


def label_order(sol) -> list[int]:
    """The violators by decreasing ξ, ties by index: the order the chart's ξ labels take."""
    viol = np.flatnonzero(sol.slack > ON_MARGIN)
    return viol[np.argsort(-sol.slack[viol], kind="stable")].tolist()


@pytest.mark.parametrize("name,kernel,params", [("blobs", "linear", {}), ("outlier", "linear", {}), ("xor", "linear", {}),
                                                ("circles", "rbf", {"gamma": 1.0}),
                                                ("moons", "poly", {"degree": 3, "coef0": 1.0})])
def test_the_scene_holds_every_solution_as_the_solver_decided_it(name, kernel, params):
    X, y = make_dataset(name, 60, 0)
    sols = svm_grid(X, y, kernel=kernel, **params)
    path = path_of(sols)
    blob = svm_scene(X, y, sols, path=path, perceptron=(np.array([1.0, 0.5]), 0.2), follow="C").to_bytes()
    sc = SvmScene.from_bytes(blob)
    assert sc.Cs.tolist() == list(C_GRID) and sc.follow == "C" and sc.view.start is None
    assert (sc.X == X).all() and (sc.y == y).all() and sc.box == view_box(X)
    box = view_box(X)
    for k, s in enumerate(sols):
        cats = categories(y, s.decision, margin_tol(s, box))
        assert ((sc.flags[k] & 3) == cats).all()
        assert ((cats == 3) == (y * s.decision <= 0)).all()  # misclassified: M, y·f ≤ 0
        assert ((sc.flags[k] >> 2 & 1) == s.support).all()
        assert ((sc.flags[k] >> 3 & 1) == (s.slack > ON_MARGIN)).all()
        lab = sc.lab_idx[sc.lab_ptr[k]:sc.lab_ptr[k + 1]].tolist()
        order = label_order(s)
        # each class's largest ξ, merged largest first: the chart's labels are the first that have a segment
        assert lab == [i for i in order if i in set(lab)]
        for c in (1, -1):
            assert [i for i in lab if y[i] == c] == [i for i in order if y[i] == c][:MAX_SLACK_LABELS]
        assert lab[:MAX_SLACK_LABELS] == order[:MAX_SLACK_LABELS]
        assert sc.lab_xi[sc.lab_ptr[k]:sc.lab_ptr[k + 1]].tolist() == s.slack[lab].tolist()
        assert sc.B[k] == s.b and sc.margin[k] == s.margin and sc.objective[k] == s.objective
        assert sc.slack_sum[k] == float(s.slack.sum()) and sc.iterations[k] == s.iterations
        assert bool(sc.converged[k]) == s.converged
        if kernel == "linear":
            assert sc.W[k].tolist() == s.w.tolist() and sc.coef.size == 0
        else:
            assert sc.coef[k].tolist() == (s.alpha * y).tolist() and sc.W.size == 0
    assert {key: getattr(sc, f"path_{key}").tolist() for key in ("C", "width", "support", "slack")} == path
    assert sc.run == {"kernel": kernel, "kernel_params": params, "perceptron": [1.0, 0.5, 0.2]}
    assert len(blob) < (28_000 if kernel != "linear" else 16_000)  # 60 points, 25 solutions (a kernel: αᵢyᵢ too)


def test_the_hard_margin_is_one_solution_beside_the_grids_path():
    X, y = make_dataset("blobs", 40, 0)
    hard = fit_svm(X, y, C=float("inf"))
    path = path_of(svm_grid(X, y))
    sc = SvmScene.from_bytes(svm_scene(X, y, hard, path=path).to_bytes())
    assert sc.Cs.tolist() == [float("inf")] and sc.path_C.tolist() == list(C_GRID) and sc.follow is None
    assert sc.run["perceptron"] is None
    assert not (sc.flags[0] >> 3).any()  # no slack at all
    with pytest.raises(ValueError, match="not an SVM scene"):
        SvmScene.from_bytes(svm_scene(X, y, hard).to_bytes().replace(b'"kind":"svm"', b'"kind":"dual"'))
    with pytest.raises(ValueError, match="2-D"):
        svm_scene(np.c_[X, X[:, :1]], y, hard)


def test_a_large_record_stays_small():
    X, y = make_dataset("blobs", 2000, 0)
    blob = svm_scene(X, y, svm_grid(X, y)).to_bytes()
    header, arrays = unpack(blob)
    assert arrays["flags"].dtype == np.uint8 and arrays["lab_idx"].dtype == np.uint16
    assert len(blob) < 100_000  # every C of the grid at N = 2,000 (the points alone are 34 KB)


def test_c_path_width_shrinks_and_slack_falls_as_c_grows():
    X, y = make_dataset("blobs", 80, 2, noise=1.0)
    path = c_path(X, y)
    assert path["C"] == list(C_GRID)
    w, s = np.array(path["width"]), np.array(path["slack"])
    assert (np.diff(w) <= 1e-6 * w[:-1]).all()  # ‖w‖ never decreases as C grows
    assert (np.diff(s) <= 1e-6 * max(1.0, s.max())).all()  # nor does Σξ increase
    sols = svm_grid(X, y)
    assert path_of(sols) == path


def test_the_sgd_record_holds_the_run_and_its_words_follow_each_step():
    from oracles import sgd_step_text

    from core.svm import hinge_sgd
    from viz.scene import SgdScene, sgd_scene

    X, y = make_dataset("blobs", 40, 0)
    run = hinge_sgd(X, y, C=1.0, max_steps=500, seed=1)
    exact = fit_svm(X, y, C=1.0)
    sc = SgdScene.from_bytes(sgd_scene(run, exact).to_bytes())
    (rec,) = sc.runs
    assert np.array_equal(rec.W, run.W) and np.array_equal(rec.B, run.B)
    assert np.array_equal(rec.order, run.order) and np.array_equal(rec.active, run.active)
    assert np.array_equal(sc.objectives[0], run.objective) and np.array_equal(rec.etas, run.etas)
    assert sc.exact == {"w": exact.w.tolist(), "b": exact.b, "objective": exact.objective}
    assert rec.run["C"] == 1.0 and rec.run["n_steps"] == 500  # every step travels: no frame cap
    assert rec.run["eta"] is None and sc.follow is None and not sc.partial  # (Pegasos: η = 1/(λt), no constant η)
    for s in (1, 2, 3, 50, 500):
        text = sgd_step_text(run, exact.objective, s)
        i = int(run.order[s - 1])
        assert text.startswith(f"<b>Step {s}</b>: x{sub(i + 1)}, y = ") and "gap to the exact J*" in text
        assert ("hinge active" in text) == bool(run.active[s - 1])  # the core's decision, not a float's
        assert text.endswith(f"<b>{num(run.objective[s] - exact.objective)}</b>")
    assert sgd_step_text(run, exact.objective, 0).startswith("<b>Step 0</b>: w = 0, b = 0; λ = 1/(N·C) = ")
    with pytest.raises(ValueError, match="C = 1"):
        sgd_scene(run, fit_svm(X, y, C=10.0))
    with pytest.raises(ValueError, match="needs a run"):
        sgd_scene([], exact)


def test_the_sgd_record_of_every_eta_holds_each_run_once_and_their_order_once():
    from core.svm import hinge_sgd
    from viz.scene import SgdScene, sgd_scene

    X, y = make_dataset("blobs", 60, 2)
    etas = (0.01, 0.1, 1.0)
    runs = [hinge_sgd(X, y, C=0.5, schedule="constant", eta=e, max_steps=300, seed=4) for e in etas]
    exact = fit_svm(X, y, C=0.5)
    blob = sgd_scene(runs, exact, follow="Constant η").to_bytes()
    sc = SgdScene.from_bytes(blob)
    assert [r.run["eta"] for r in sc.runs] == list(etas) and sc.follow == "Constant η"
    for r, rec, J in zip(runs, sc.runs, sc.objectives, strict=True):
        assert np.array_equal(rec.W, r.W) and np.array_equal(rec.B, r.B) and np.array_equal(J, r.objective)
        assert np.array_equal(rec.order, r.order) and np.array_equal(rec.etas, r.etas)
    assert [r.run["order_of"] for r in sc.runs] == [0, 0, 0]  # the same seed draws the same points: sent once
    _, arrays = unpack(blob)
    assert "order.0" in arrays and "order.1" not in arrays
    one = sgd_scene(runs[1], exact, partial=True, follow="Constant η")
    assert one.partial and len(one.runs) == 1 and one.runs[0].run["eta"] == 0.1
    assert len(one.to_bytes()) < len(blob) / 2
    other = hinge_sgd(X[:50], y[:50], C=0.5, schedule="constant", eta=0.1, max_steps=30, seed=4)
    with pytest.raises(ValueError, match="same points"):
        sgd_scene([runs[0], other], exact)
    pegasos = hinge_sgd(X, y, C=0.5, max_steps=300, seed=4)
    for mixed in ([runs[0], pegasos], [runs[0], runs[0]]):  # a family is of constant η's, each its own
        with pytest.raises(ValueError, match="an η of its own"):
            sgd_scene(mixed, exact)


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
        assert mpart == f"no point misclassified (0 of {n:,})"
    elif mis.size <= 5:
        assert named_points(mpart) == mis.tolist() and mpart.endswith(f"({mis.size:,} of {n:,})")
    else:
        assert mpart.startswith(f"{mis.size:,} of {n:,} misclassified: ") and named_points(mpart) == mis[:5].tolist()
    sv_part, xi_part = line2.split("; ")
    sv = np.flatnonzero(sol.support)
    assert sv_part.startswith("support vectors: ") and sv_part.endswith(f"({sv.size:,} of {n:,})")
    assert named_points(sv_part) == sv[:5].tolist()
    viol = np.flatnonzero(np.maximum(0, 1 - m) > 1e-3)  # ξᵢ > 0 (above the solver's residue)
    if viol.size == 0:
        assert xi_part == "ξ = 0 at every point"
    else:
        assert named_points(xi_part) == viol[:5].tolist() and xi_part.endswith(f"({viol.size:,} of {n:,})")


def test_state_line_follows_c_and_names_the_mistakes():
    X, y = make_dataset("outlier", 60, 0)
    sols = svm_grid(X, y)
    seen = set()
    for k in (0, 3, 9, 12, 18, 24):
        text = svm_state(sols[k], y)
        check_svm_state(text, sols[k], X, y)
        seen.add(text)
    assert len(seen) == 6


def test_state_line_with_a_kernel_and_a_hard_margin():
    X, y = make_dataset("moons", 40, 0)
    sol = fit_svm(X, y, C=1.0, kernel="rbf", gamma=1.0)
    text = svm_state(sol, y)
    assert text.startswith(f"C = 1: RBF kernel, b = {num(sol.b)}, margin 2/‖w‖ = ") and "w = (" not in text
    mis = np.flatnonzero(y * sol.decision <= 0)
    mpart = text.split("<br>")[0].split("; ")[1]
    assert named_points(mpart) == mis[:5].tolist() and f"{mis.size} of 40" in mpart
    X, y = make_dataset("blobs", 30, 0)
    hard = fit_svm(X, y, C=float("inf"))
    text = svm_state(hard, y)
    assert text.startswith("Hard margin (C = ∞): w = ") and "no point misclassified (0 of 30)" in text
    assert text.endswith("ξ = 0 at every point")


def test_the_sgd_state_line_names_the_mistakes_and_the_active_hinges_of_each_step():
    from oracles import sgd_state

    from core.svm import hinge_sgd
    from viz.common import vec

    X, y = make_dataset("blobs", 30, 2)
    run = hinge_sgd(X, y, C=1.0, max_steps=300, seed=1)
    for s in range(0, 301, 7):
        text = sgd_state(run, s)
        w, b = run.W[s], float(run.B[s])
        m = y * (X @ w + b)  # yᵢ(w·xᵢ + b), computed here
        assert text.startswith(f"Step {s:,} of {run.n_steps:,}: w = {vec(w)}, b = {num(b)}; ")
        mis = np.flatnonzero(m <= 0)
        if mis.size:
            named = named_points(text.split("; ")[1])
            assert named and named == mis[:len(named)].tolist() and f"{mis.size:,} of {len(y):,}" in text
        else:
            assert "no point misclassified" in text
        assert text.endswith(f"hinge active (margin < 1) for {int((m < 1).sum()):,} of {len(m):,} points")


def test_an_smo_stopped_at_its_cap_on_raw_features_says_standardize():
    from pathlib import Path

    from core.svm import fit_svm
    from datasets.csvio import CsvChoice, choose, read_table
    from datasets.points import standardize
    t = read_table((Path(__file__).with_name("data") / "iris_species.csv").read_bytes())
    d = choose(t, CsvChoice(0, 1, 4, "virginica", "versicolor"))  # the issue's case: raw iris, poly d = 2, C = 100
    words = {}
    for name, X in (("raw", d.X), ("standardized", standardize(d.X)[0])):
        sol = fit_svm(X, d.y, C=100.0, kernel="poly", degree=2, coef0=1.0)
        assert not sol.converged
        words[name] = svm_status(sol, X, d.y)
        assert "SMO stopped" in words[name]
    assert "K(x, x) = 6060.623" in words["raw"] and "Standardize x₁ and x₂" in words["raw"]
    assert "Standardize" not in words["standardized"] and "a smaller C or γ" in words["standardized"]
