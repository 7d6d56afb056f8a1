"""Scene records as data: the wire format, and a Perceptron scene holds exactly the core's run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.scene import (
    SCENE_VERSION,
    PerceptronRun,
    PerceptronScene,
    SceneRun,
    View,
    bits_as_subsets,
    pack,
    perceptron_scene,
    rule_mistakes,
    subsets_as_bits,
    unpack,
    with_view,
)


def runs():
    X, y = make_dataset("blobs", 50, 2, noise=1.5)
    G = np.random.default_rng(0).integers(-2, 3, size=(30, 2)).astype(float)  # ties and duplicates
    g = np.where(np.arange(30) % 3 == 0, 1, -1)
    return [run_perceptron(X, y, variant="minibatch", batch_size=4, seed=1, max_steps=80),
            run_perceptron(X, y, variant="batch", max_steps=20),
            run_perceptron(G, g, variant="cyclic", max_steps=200),
            run_perceptron(G, g, variant="random", update_on="negative", w0=(0.5, 0.0), max_steps=200),
            run_perceptron(G, g, variant="batch", reduction="sum", fit_intercept=False, b0=1.0, max_steps=30)]


@pytest.mark.parametrize("i", range(5))
def test_the_record_round_trips_and_holds_the_run(i):
    traj = runs()[i]
    whole = perceptron_scene(traj, view=View(height=680, scale=1.3, mode="updates", start=4))
    back_whole = PerceptronScene.from_bytes(whole.to_bytes())
    scene, back = whole.runs[0], back_whole.runs[0]
    for name in PerceptronRun.ARRAYS:
        assert np.array_equal(getattr(back, name), getattr(scene, name)), name
        assert getattr(back, name).dtype == getattr(scene, name).dtype, name
    assert back.run == scene.run and back_whole.box == whole.box and back_whole.view == whole.view
    assert np.array_equal(back_whole.X, traj.problem.X) and np.array_equal(back_whole.y, traj.problem.y)
    assert np.array_equal(back.update_steps, traj.update_steps) and np.array_equal(back.W, traj.W)
    assert np.array_equal(back.B, traj.B) and back.run["n_steps"] == traj.n_steps
    K = traj.n_updates
    # M of every state: the rule the renderer evaluates, with the exceptions the record carries, is the core's
    core = traj.state_mistakes(np.arange(K + 1))
    rule = rule_mistakes(traj.problem.X, traj.problem.y, traj.W, traj.B, traj.problem.update_on)
    for k in range(K + 1):
        fixed = rule[k].copy()
        fixed[back.m_idx[back.m_ptr[k]:back.m_ptr[k + 1]]] ^= True
        assert np.array_equal(fixed, core[k]), k
    assert np.array_equal(back.errors, core.sum(axis=1))
    # the points updated on, which the renderer reads as M ∩ examined at the state before: the core's own
    for j, s in enumerate(traj.update_steps.tolist()):
        ex = traj.examined(s)
        assert np.array_equal(ex[core[j][ex]], traj.updated(s)) and traj.updated(s).size > 0


def test_the_rule_agrees_with_the_core_so_no_exception_is_sent():
    for traj in runs():
        assert perceptron_scene(traj).runs[0].m_idx.size == 0


def test_a_changed_order_of_summation_would_travel_as_exceptions():
    traj = runs()[2]
    scene = perceptron_scene(traj)
    X, y = traj.problem.X, traj.problem.y
    other = (y * ((X @ traj.W[3]) + traj.B[3])) <= 0  # BLAS's sum: the same here on whole numbers
    assert np.array_equal(other, rule_mistakes(X, y, traj.W[3:4], traj.B[3:4], "nonpositive")[0])
    assert scene.runs[0].m_ptr.size == traj.n_updates + 2


def test_a_new_view_changes_only_the_header():
    blob = perceptron_scene(runs()[0]).to_bytes()
    other = with_view(blob, View(height=560, scale=1.3, mode="updates", start=7))
    assert other.endswith(blob[len(blob) - 64:]) and len(other) - len(blob) < 64
    assert PerceptronScene.from_bytes(other).view == View(560, 1.3, "updates", 7)


def test_bad_records_are_named():
    with pytest.raises(ValueError, match="does not start with DBLS"):
        unpack(b"PNG...")
    header, arrays = unpack(perceptron_scene(runs()[2]).to_bytes())
    with pytest.raises(ValueError, match=f"scene version {SCENE_VERSION + 1}"):
        unpack(pack({**header, "version": SCENE_VERSION + 1}, arrays))
    with pytest.raises(ValueError, match="dtype float32"):
        pack({}, {"a": np.zeros(3, dtype=np.float32)})
    with pytest.raises(ValueError, match="not a Perceptron scene"):
        PerceptronScene.from_bytes(pack({**header, "kind": "svm"}, arrays))


def test_the_arrays_start_on_8_byte_boundaries():
    blob = perceptron_scene(runs()[0]).to_bytes()
    h = int.from_bytes(blob[4:8], "little")
    header = json.loads(blob[8:8 + h])
    assert (8 + h) % 8 == 0 and all(spec["offset"] % 8 == 0 for spec in header["arrays"].values())


def test_one_run_per_tau_with_the_examined_points_sent_once():
    X, y = make_dataset("blobs", 60, 1, noise=1.5)
    taus = [0.1, 1.0, 10.0]
    for variant in ("random", "minibatch", "cyclic"):
        trajs = [run_perceptron(X, y, variant=variant, batch_size=6, tau=t, seed=4, max_steps=90) for t in taus]
        scene = perceptron_scene(trajs)
        assert scene.taus == taus
        back = PerceptronScene.from_bytes(scene.to_bytes())
        for traj, r in zip(trajs, back.runs, strict=True):
            assert np.array_equal(r.W, traj.W) and np.array_equal(r.update_steps, traj.update_steps)
            if traj.order is not None:  # (B = 6 of 60 > N/16: a mini-batch's subsets travel as bit sets)
                assert r.run["order_bits"] == (variant == "minibatch")
                got = bits_as_subsets(r.order, len(y), 6) if r.run["order_bits"] else r.order
                assert np.array_equal(got, traj.order)
        header = json.loads(scene.to_bytes()[8:8 + int.from_bytes(scene.to_bytes()[4:8], "little")])
        sent = [name for name in header["arrays"] if name.startswith("order.")]
        assert sent == ["order.0"]  # the same seed examines the same points whatever τ: sent once
    with pytest.raises(ValueError, match="same points"):
        perceptron_scene([run_perceptron(X, y), run_perceptron(X + 1, y)])


@pytest.mark.parametrize("variant, kw", [("cyclic", {}), ("random", {"seed": 3, "update_on": "negative"}),
                                         ("minibatch", {"batch_size": 5, "seed": 1}),
                                         ("batch", {"reduction": "sum", "fit_intercept": False})])
def test_the_csv_and_the_table_read_from_the_record_are_the_run_s(variant, kw):
    """The page writes its CSV and its table from the record it sends (SceneRun.of_tau): exactly the core run's."""
    from datasets.csvio import trajectory_csv
    from viz.perceptron import step_table
    from viz.scene import SceneRun

    X, y = make_dataset("xor", 60, 4)
    X = np.round(X * 4) / 4  # ties on the boundary
    trajs = [run_perceptron(X, y, variant=variant, tau=tau, max_steps=150, **kw) for tau in (0.5, 2.0)]
    blob = perceptron_scene(trajs).to_bytes()
    for traj in trajs:
        back = SceneRun.of_tau(blob, traj.tau)
        assert trajectory_csv(back) == trajectory_csv(traj)
        assert step_table(back) == step_table(traj)
        states = np.arange(traj.n_updates + 1)
        assert np.array_equal(back.state_mistakes(states), traj.state_mistakes(states))
    with pytest.raises(ValueError, match="no run with τ = 1"):
        SceneRun.of_tau(blob, 1.0)


def test_a_mini_batch_s_subsets_travel_as_bit_sets_where_that_is_smaller():
    """B > N/16: each step's I as N bits, not B indices; read back (core order: increasing) exactly; B ≤ N/16 stays
    indices. A row that does not hold B points is refused."""
    X, y = make_dataset("blobs", 2000, 1)
    for B, bits in ((500, True), (125, False), (126, True)):
        traj = run_perceptron(X, y, variant="minibatch", batch_size=B, max_steps=50, seed=2)
        assert all((np.diff(row) > 0).all() for row in traj.order)  # the core keeps I in index order
        rec = PerceptronScene.from_bytes(perceptron_scene(traj).to_bytes()).runs[0]
        assert rec.run["order_bits"] is bits
        assert rec.order.nbytes == (traj.n_steps * 250 if bits else traj.n_steps * B * 2)
        back = SceneRun.of_tau(perceptron_scene(traj).to_bytes(), traj.tau)
        assert np.array_equal(back.order, traj.order)
        assert all(np.array_equal(back.examined(s), traj.examined(s)) for s in range(traj.n_steps + 1))
    packed = subsets_as_bits(np.array([[0, 3, 9], [1, 2, 10]]), 11)
    assert packed.tolist() == [[0b1001, 0b10], [0b110, 0b100]]
    with pytest.raises(ValueError, match="B = 2 of the 11 points"):
        bits_as_subsets(packed, 11, 2)
    padded = packed.copy()
    padded[0, 1] = 0b1000  # row 0 holds points 0, 3 and 11, and there are 11 points (0 … 10): 11 is past the last
    with pytest.raises(ValueError, match="B = 3 of the 11 points"):
        bits_as_subsets(padded[:1], 11, 3)
    assert bits_as_subsets(packed[:1], 11, 3).tolist() == [[0, 3, 9]]


def test_the_memo_names_the_record_s_settings_but_the_variant_and_b_and_round_trips():
    """The Perceptron page's record carries its memo (glue.builds.perceptron_page): one key for every variant, B and
    τ of the same points and settings, another as soon as another setting or a point differs; the renderer reads it
    back."""
    from glue.builds import perceptron_page, settings_key
    from glue.options import VARIANT_LABELS

    X, y = make_dataset("xor", 40, 3)
    params = (("variant", "cyclic"), ("batch_size", 1), ("w0", (0.0, 0.0)), ("b0", 0.0), ("update_on", "nonpositive"),
              ("fit_intercept", True), ("max_steps", 50), ("seed", 0), ("reduction", "mean"))
    blob = perceptron_page(X, y, params, (0.5, 1.0), "Step size τ", labels=("Variant", "Batch size B"),
                           ahead=("random", "batch"))[0]
    memo = PerceptronScene.from_bytes(blob).memo
    free = ("variant", "batch_size")
    assert memo == {"key": settings_key(X, y, params, free), "follow": "Variant", "batch": "Batch size B",
                    "options": {text: v for v, text in VARIANT_LABELS.items()}, "ahead": ["random", "batch"]}
    other = (("variant", "minibatch"), ("batch_size", 7), *params[2:])
    assert settings_key(X, y, other, free) == memo["key"]  # (the renderer keeps records by variant and B)
    assert settings_key(X, y, other) != settings_key(X, y, params)  # the inputs of the runs themselves differ
    assert PerceptronScene.from_bytes(perceptron_page(X, y, params, (1.0,), "Step size τ")[0]).memo is None
    other_values = {"w0": (0.0, 0.5), "b0": -1.0, "update_on": "negative", "fit_intercept": False, "max_steps": 51,
                    "seed": 1, "reduction": "sum"}
    for name, value in other_values.items():  # every other setting is in the key
        changed = tuple((k, value if k == name else v) for k, v in params)
        assert changed != params and settings_key(X, y, changed, free) != memo["key"], name
    moved = X.copy()
    moved[0, 0] += 1e-12
    assert settings_key(moved, y, params, free) != memo["key"]


def test_a_bundle_carries_records_made_ahead_byte_for_byte():
    """viz.scene.bundle: records made ahead travel as one (the renderer keeps them: tests/test_e2e_scene.py), each
    exactly as made; anything but scene records is refused."""
    from viz.scene import bundle

    X, y = make_dataset("xor", 30, 1)
    records = [perceptron_scene(run_perceptron(X, y, variant=v, max_steps=40)).to_bytes() for v in ("cyclic", "batch")]
    header, arrays = unpack(bundle(records))
    assert header["kind"] == "bundle" and sorted(arrays) == ["r0", "r1"]
    assert [arrays[f"r{j}"].tobytes() for j in range(2)] == records
    for bad in ([], [b"not a record"], [records[0], b"DBL"]):
        with pytest.raises(ValueError, match="one scene record or more"):
            bundle(bad)


@pytest.mark.parametrize("name, fit_intercept, b0", [("blobs", True, 0.0), ("xor", True, 0.0), ("separable", False, 0.0),
                                                     ("moons", False, 0.0), ("blobs", False, 1.5)])
def test_the_page_s_kept_bound_and_separability_equal_the_core_s(name, fit_intercept, b0):
    """glue.builds keeps the mistake bound and the separability test per data set (from the points' bytes, y as
    floats): each equals the core's on the points as the page has them (int labels), and the bound's w is read-only."""
    from core.bounds import mistake_bound, separable_by_run
    from glue.builds import _bound, _separable

    X, y = make_dataset(name, 60, seed=3)
    key = (np.ascontiguousarray(X, dtype=float).tobytes(), np.ascontiguousarray(y, dtype=float).tobytes(), len(y))
    assert _separable(*key, fit_intercept, b0) == separable_by_run(X, y, fit_intercept=fit_intercept, b0=b0)
    try:
        core = mistake_bound(X, y, fit_intercept=fit_intercept)
    except ValueError:
        with pytest.raises(ValueError):
            _bound(*key, fit_intercept)
        return
    kept = _bound(*key, fit_intercept)
    assert (kept.R, kept.gamma, kept.bound) == (core.R, core.gamma, core.bound)
    assert np.array_equal(kept.w, core.w)
    assert _bound(*key, fit_intercept) is kept  # (kept: the second call computes nothing)
    with pytest.raises(ValueError):
        kept.w[0] = 1.0


def test_a_view_may_carry_the_class_names_of_a_users_file():
    """Issue 38, 4: the names of a CSV's −1 and +1 classes travel in the view (absent by default: as before)."""
    from datasets.csvio import CsvChoice, choose, read_table

    table = read_table("a,b,species\n5.1,3.5,setosa\n7.0,3.2,versicolor\n6.0,3.0,setosa\n")
    data = choose(table, CsvChoice(x1=0, x2=1, label=2, positive="versicolor", negative="setosa"))
    traj = run_perceptron(data.X, data.y, max_steps=10)
    named = perceptron_scene(traj, view=View(axes=("x₁: a", "x₂: b"), classes=data.classes))
    back = PerceptronScene.from_bytes(named.to_bytes())
    assert back.view.classes == ("setosa", "versicolor") and back.view == named.view
    assert unpack(named.to_bytes())[0]["view"]["classes"] == ["setosa", "versicolor"]
    plain = PerceptronScene.from_bytes(perceptron_scene(traj).to_bytes())
    assert plain.view.classes is None and plain.view == View()
    assert PerceptronScene.from_bytes(with_view(named.to_bytes(), View())).view.classes is None
