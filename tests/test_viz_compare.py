"""The Compare page's scene record (viz.scene.compare_scene) and its words (viz.compare).

The record must hold both runs' core states bit for bit, and the rings and mistakes the renderer replays from
it (the rule in its order plus the exceptions) must be the core's, ties included; the state lines are the
Python references the renderer's words are tested against (tests/test_e2e_compare_scene.py).
"""

from __future__ import annotations

import numpy as np
import pytest
from oracles import compare_state
from state_text import named_points

from core.perceptron import run_perceptron
from core.snapshot import activation
from core.svm import fit_svm, hinge_sgd
from datasets import make_dataset
from viz.compare import run_label, run_summary
from viz.scene import CompareScene, HingeRunRecord, PerceptronRun, View, compare_scene, rule_margins, run_record


def tied(seed: int, n: int = 40):
    """Whole-number points on a small grid: many ties and duplicates, two of them with both labels."""
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(n, 2)).astype(float)
    X[5] = X[6]
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[5], y[6] = 1, -1
    return X, y


def replay(rec, k: int, ptr: str, idx: str, rule) -> np.ndarray:
    """A mask of state k as the renderer makes it: the rule on the sent (w, b), then the exceptions flipped."""
    m = rule(rec.W[k], rec.B[k])
    lo, hi = getattr(rec, ptr)[k], getattr(rec, ptr)[k + 1]
    m[getattr(rec, idx)[lo:hi]] ^= True
    return m


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_record_holds_both_runs_as_the_core_ran_them(seed):
    X, y = tied(seed)
    left = run_perceptron(X, y, variant="random", seed=seed, max_steps=300)
    right = hinge_sgd(X, y, C=[0.1, 1.0, 10.0][seed], max_steps=400, seed=seed)
    scene = CompareScene.from_bytes(compare_scene(left, right, reference=fit_svm(X, y, C=right.C)).to_bytes())
    assert np.array_equal(scene.X, X) and np.array_equal(scene.y, y)
    p, h = scene.runs
    assert isinstance(p, PerceptronRun) and isinstance(h, HingeRunRecord)
    # the perceptron's record is the Perceptron page's, kind added
    ref = run_record(left)
    for name in PerceptronRun.ARRAYS:
        assert np.array_equal(getattr(p, name), getattr(ref, name)), name
    assert p.run == {**ref.run, "kind": "perceptron", "order_of": 0}
    # hinge SGD: every state, its draws and its active steps
    assert np.array_equal(h.W, right.W) and np.array_equal(h.B, right.B)
    assert np.array_equal(h.order, right.order) and np.array_equal(h.active, right.active)
    assert h.run == {"kind": "hinge", "n_steps": right.n_steps, "C": right.C, "lam": right.lam,
                     "schedule": "pegasos", "order_of": 1}
    # the rings (y·a < 1) and the mistakes (y·a ≤ 0) replayed are the core's at every state, ties included
    def rule(w, b):
        return rule_margins(X, y, w[None], np.array([b]))[0]

    for k in range(right.n_steps + 1):
        core = y * activation(X, right.W[k], right.B[k])
        assert np.array_equal(replay(h, k, "m_ptr", "m_idx", lambda w, b: rule(w, b) < 1.0), core < 1.0), k
        assert np.array_equal(replay(h, k, "e_ptr", "e_idx", lambda w, b: rule(w, b) <= 0.0), core <= 0.0), k
    sol = fit_svm(X, y, C=right.C)
    assert scene.reference == [{"w": sol.w.tolist(), "b": sol.b, "C": right.C}]


def test_titles_say_each_run_and_how_it_ended():
    X, y = make_dataset("separable", 40, 0)
    a, b = run_perceptron(X, y, tau=0.1), run_perceptron(X, y, variant="minibatch", batch_size=16, tau=1.0)
    scene = compare_scene(a, b, view=View(height=700, start=3))
    assert scene.titles == (f"{run_label(a)}\n{run_summary(a)}", f"{run_label(b)}\n{run_summary(b)}")
    assert run_label(a) == "cyclic, τ = 0.1" and run_label(b) == "mini-batch B = 16, τ = 1"
    assert run_summary(a).startswith("converged at step ")
    assert scene.view.start == 3 and scene.reference is None
    back = CompareScene.from_bytes(scene.to_bytes())
    assert back.titles == scene.titles and back.view == scene.view and back.box == scene.box


def test_runs_that_examine_the_same_points_share_one_order():
    X, y = make_dataset("blobs", 60, 1)
    a, b = run_perceptron(X, y, variant="random", tau=0.1, seed=4), run_perceptron(X, y, variant="random", tau=1.0, seed=4)
    scene = compare_scene(a, b)
    assert a.n_steps == b.n_steps and [r.run["order_of"] for r in scene.runs] == [0, 0]
    back = CompareScene.from_bytes(scene.to_bytes())
    assert np.array_equal(back.runs[1].order, b.order)


def test_different_data_and_bad_references_raise():
    X, y = make_dataset("separable", 40, 0)
    a = run_perceptron(X, y)
    with pytest.raises(ValueError, match="same data"):
        compare_scene(a, run_perceptron(X[:30], y[:30]))
    X2 = X.copy()
    X2[0, 0] += 1
    with pytest.raises(ValueError, match="1 of them differ"):
        compare_scene(a, run_perceptron(X2, y))
    with pytest.raises(TypeError, match="Trajectory or a core.svm.HingeRun"):
        compare_scene(a, "not a run")
    with pytest.raises(ValueError, match="neither run is a HingeRun"):
        compare_scene(a, run_perceptron(X, y, variant="random"), reference=fit_svm(X, y, C=1.0))
    h = hinge_sgd(X, y, C=1.0, max_steps=50)
    with pytest.raises(ValueError, match="C = 10"):
        compare_scene(a, h, reference=fit_svm(X, y, C=10.0))
    with pytest.raises(ValueError, match="finite"):
        compare_scene(a, h, reference=([np.nan, 1.0], 0.0))
    h10 = hinge_sgd(X, y, C=10.0, max_steps=50)
    with pytest.raises(ValueError, match="an exact SVM for each C"):
        compare_scene(a, [h, h10], reference=([1.0, 1.0], 0.0), follow=(None, "C"), key="C")
    with pytest.raises(ValueError, match="fitted with C = 1, but a hinge-SGD run has C = 10"):
        compare_scene(a, [h, h10], reference=[fit_svm(X, y, C=1.0)], follow=(None, "C"), key="C")
    X3 = np.c_[X, X[:, :1]]
    with pytest.raises(ValueError, match="2-D"):
        compare_scene(run_perceptron(X3, y), run_perceptron(X3, y))


def test_a_family_of_c_carries_the_exact_svm_of_each_c_and_a_partial_record_says_so():
    """The Compare page's perceptron against hinge SGD: a hinge run for every C of the control (the chart follows C in
    the browser), each C with its exact SVM; the runs of the C shown alone first, marked partial."""
    X, y = tied(4)
    cs = (0.1, 1.0, 10.0)
    perc = run_perceptron(X, y, variant="random", seed=2, max_steps=60)
    family = [hinge_sgd(X, y, C=c, max_steps=80, seed=2) for c in cs]
    sols = [fit_svm(X, y, C=c) for c in reversed(cs)]  # in any order: each hinge run finds its C's
    scene = CompareScene.from_bytes(compare_scene(perc, family, reference=sols, follow=(None, "SVM penalty C"),
                                                  key="C").to_bytes())
    assert [r.run["C"] for r in scene.runs[1:]] == list(cs)
    assert scene.sides[1] == {"runs": [1, 2, 3], "follow": "SVM penalty C", "key": "C"}
    assert {d["C"]: (d["w"], d["b"]) for d in scene.reference} == {s.C: (s.w.tolist(), s.b) for s in sols}
    assert not scene.partial
    one = CompareScene.from_bytes(compare_scene(perc, family[1], reference=sols[1], follow=(None, "SVM penalty C"),
                                                key="C", partial=True).to_bytes())
    assert one.partial and len(one.runs) == 2 and one.reference == [scene.reference[1]]


def test_state_lines_name_the_misclassified_points_and_hold_after_the_end():
    X, y = make_dataset("outlier", 40, 0)
    p = run_perceptron(X, y, max_steps=120)
    h = hinge_sgd(X, y, C=1.0, max_steps=60)
    for step in (0, 7, 60, 90, 120):
        s = min(step, p.n_steps)
        snap = p[s]
        line, k = compare_state(p, step), int(snap.misclassified.sum())
        assert f"({k} of 40)" in line or f"{k} of 40 misclassified" in line
        assert line.split("\n")[-1].startswith(f"Step {s:,} of {p.n_steps:,}: w = ")
        assert line.startswith("finished at step") == (step > p.n_steps)
        assert named_points(line.split("\n")[-1]) == np.flatnonzero(snap.misclassified)[:6].tolist()
    past = compare_state(h, 90).split("\n")
    assert past[0] == "finished at step 60 (holds its last state)"
    m = y * activation(X, h.W[60], h.B[60])
    assert past[1].startswith("Step 60 of 60: w = ")
    assert past[1].endswith(f"; margin < 1 (in squares): {int((m < 1).sum())} of 40")
    assert named_points(past[1]) == np.flatnonzero(m <= 0)[:6].tolist()
    assert "\n" not in compare_state(h, 60)


def test_a_record_of_two_thousand_points_and_a_thousand_steps_stays_small():
    X, y = make_dataset("xor", 2000, 0)
    blob = compare_scene(run_perceptron(X, y, variant="random", max_steps=1000),
                         hinge_sgd(X, y, C=1.0, max_steps=1000)).to_bytes()
    assert len(blob) < 120_000  # the points (34 KB) once; (w, b) of 1,001 hinge states 24 KB; the old figure: MBs


def shifted_activation(real):
    """``core.snapshot.activation`` with points 0 and 1 moved by ±3 along their label: a core that judges them
    otherwise than the rule the renderer evaluates, so the record must carry them as exceptions."""
    def activation(X, W, B):
        a = np.array(real(X, W, B), dtype=float)
        a[..., 0] += 3.0
        a[..., 1] -= 3.0
        return a
    return activation


def test_the_cores_exceptions_travel_and_replay_to_its_decisions(monkeypatch):
    import viz.scene

    X, y = make_dataset("blobs", 30, 0)
    run = hinge_sgd(X, y, C=1.0, max_steps=60, seed=2)
    patched = shifted_activation(activation)
    monkeypatch.setattr(viz.scene, "activation", patched)
    h = CompareScene.from_bytes(compare_scene(run_perceptron(X, y, max_steps=20), run).to_bytes()).runs[1]
    assert len(h.m_idx) > 0 and len(h.e_idx) > 0  # the core's own decisions differ from the rule somewhere

    def rule(w, b):
        return rule_margins(X, y, w[None], np.array([b]))[0]

    for k in range(run.n_steps + 1):
        core = y * patched(X, run.W[k:k + 1], run.B[k:k + 1])[0]
        assert np.array_equal(replay(h, k, "m_ptr", "m_idx", lambda w, b: rule(w, b) < 1.0), core < 1.0), k
        assert np.array_equal(replay(h, k, "e_ptr", "e_idx", lambda w, b: rule(w, b) <= 0.0), core <= 0.0), k


def test_a_family_per_side_travels_once_and_names_its_control():
    X, y = make_dataset("xor", 40, 1)
    fam = [run_perceptron(X, y, variant="cyclic", tau=t, max_steps=50) for t in (0.5, 1.0)]
    other = [run_perceptron(X, y, variant="random", tau=t, seed=2, max_steps=50) for t in (0.5, 1.0)]
    scene = CompareScene.from_bytes(compare_scene(fam, other, follow=("τ", "τ")).to_bytes())
    assert len(scene.runs) == 4 and len(scene.titles) == 4
    assert scene.sides == ({"runs": [0, 1], "follow": "τ", "key": "tau"}, {"runs": [2, 3], "follow": "τ", "key": "tau"})
    assert [r.run["tau"] for r in scene.runs] == [0.5, 1.0, 0.5, 1.0]
    assert scene.runs[3].run["order_of"] == 2  # the random runs draw the same points: one order
    shared = CompareScene.from_bytes(compare_scene(fam, fam, follow=("τ left", "τ right")).to_bytes())
    assert len(shared.runs) == 2 and shared.sides[1]["runs"] == [0, 1]
    assert CompareScene.from_bytes(compare_scene(fam[0], other[0]).to_bytes()).sides is None  # two runs: no sides
    with pytest.raises(ValueError, match="key must be 'tau', 'batch_size' or 'C'"):
        compare_scene(fam, fam, key="lam")
    with pytest.raises(ValueError, match="each side of a comparison needs a run"):
        compare_scene([], fam)
    with pytest.raises(ValueError):
        compare_scene(fam, [run_perceptron(X[:30], y[:30])])  # other points


def test_a_family_made_in_chunks_is_the_same_record(monkeypatch):
    """glue.builds.compare_page with its runs and records made in chunks (as the workers make them at once) sends the
    same bytes as made in one piece; the records made are used, not made again."""
    import viz.scene
    from glue.builds import compare_page

    X, y = tied(7)
    common = (("max_steps", 120), ("seed", 3))
    lefts = (("perceptron", (("variant", "random"), *common)),)
    rights = tuple(("hinge", (("C", c), *common)) for c in (0.1, 1.0, 10.0))
    chunks = []

    def share(fn, X_, y_, params, items):
        chunks.append(len(items))
        return [fn(X_, y_, params, items[0::2]), fn(X_, y_, params, items[1::2])]

    one = compare_page(X, y, lefts, rights, (None, "SVM penalty C"), "C")

    def again(run):
        raise AssertionError("a record made again")

    monkeypatch.setattr(viz.scene, "compare_record", again)  # (the scene's own: the chunks' are glue.builds')
    two = compare_page(X, y, lefts, rights, (None, "SVM penalty C"), "C", share=share)
    assert chunks == [4] and two[0] == one[0]
    assert [r.C for r in two[2]] == [0.1, 1.0, 10.0] and two[1][0].variant == "random"
