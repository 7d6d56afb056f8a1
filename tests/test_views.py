"""The pages with Streamlit's AppTest: widgets in, figure and status out, no browser."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from apptest_helpers import (
    chart_control,  # noqa: F401
    chart_shown,
    decoded,
    figure,
    figures,
    loss_data,
    run_meta,
    scene,
    scene_run,
    scenes,
    scenes_bytes,
)
from streamlit.testing.v1 import AppTest

from core.svm import C_GRID, fit_svm, hinge_sgd
from datasets import make_dataset
from glue.dataset import DATASET_KEY, Dataset
from glue.options import TAUS
from viz.scene import LossScene, SgdScene, View, with_view
from viz.svm import sgd_summary

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def perceptron_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/perceptron.py").run()
    assert not at.exception, at.exception
    return at


def page_from_url(params: dict[str, str], page: str | None = "app_pages/perceptron.py") -> AppTest:
    """Open the app as a link with these query parameters would (then the page, if given)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    if page:
        at.switch_page(page)
    at.run()
    assert not at.exception
    return at


def test_home_page_runs():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert at.title[0].value == "Decision Boundary Lab"
    assert at.sidebar.selectbox(key="ds").value == "textbook"


def test_textbook_converges_and_figure_has_every_step():
    at = perceptron_page()
    assert at.success[0].value.startswith("Converged after 7 updates in 5 epochs (15 steps)")
    meta = run_meta(at)
    assert meta["n_updates"] == 7 and meta["n_steps"] == 15 and meta["converged"]
    assert meta["mode"] == "all" and scene_run(at).update_steps.tolist() == [1, 3, 6, 9, 10, 12, 15]  # every step, no cap
    assert not at.dataframe  # the step table is drawn only when its expander is opened
    at.session_state["steps_table_open"] = True
    at.run()
    df = at.dataframe[0].value
    assert list(df["step"]) == list(range(16)) and df["|M|"].iloc[-1] == 0


def test_xor_does_not_converge():
    at = perceptron_page()
    at.sidebar.selectbox(key="ds").set_value("xor").run()
    assert not at.exception
    assert "No convergence after 1,000 steps" in at.warning[0].value
    assert "not linearly separable" in at.warning[0].value
    meta = run_meta(at)
    assert meta["n_points"] == at.session_state[DATASET_KEY].n and not meta["converged"]
    assert meta["n_steps"] == 1000  # every step reaches the browser: no frame cap, no thinning
    assert not any("frame cap" in i.value for i in at.info)


def test_changing_tau_and_variant_rebuilds_the_figure():
    at = perceptron_page()
    at.sidebar.selectbox(key="ds").set_value("separable").run()
    before, blob = run_meta(at), at.get("bidi_component")[-1].proto.bytes
    chart_control(at, "tau", 0.1).run()
    after = run_meta(at)
    assert before["tau"] == 1.0 and after["tau"] == 0.1 and before["taus"] == after["taus"]
    assert [e for e in at.get("bidi_component") if e.proto.bytes == blob]  # τ moved: the same scene, every τ in it
    chart_control(at, "variant", "minibatch").run()
    assert not at.exception
    meta = run_meta(at)
    assert meta["variant"] == "minibatch"
    assert "τ/B Σ" in at.caption[0].value


def test_negative_rule_from_zero_is_a_lesson_not_a_bug():
    at = perceptron_page()
    at.radio(key="rule").set_value("negative").run()
    assert not at.exception
    assert "without a single update" in at.info[0].value
    assert run_meta(at)["n_steps"] == 0


def test_dataset_survives_page_switch():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.sidebar.selectbox(key="ds").set_value("moons").run()
    ds = at.session_state[DATASET_KEY]
    at.switch_page("app_pages/perceptron.py").run()
    assert at.session_state[DATASET_KEY] is ds or at.session_state[DATASET_KEY].name == "moons"
    assert run_meta(at)["n_points"] == ds.n


def test_bad_data_shows_an_error_and_keeps_the_last_good_run():
    at = perceptron_page()
    good = scene(at)
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    at.session_state[DATASET_KEY] = Dataset("textbook", 3, 0, (), X, np.array([1, 0, -1]))
    chart_control(at, "tau", 0.5).run()  # any rerun with the bad data
    assert not at.exception
    assert "labels must be -1 or +1, got values [0.0]" in at.error[0].value
    kept = scene(at)  # the last good scene, every τ in it
    assert np.array_equal(kept.X, good.X) and [r.run for r in kept.runs] == [r.run for r in good.runs]


@pytest.mark.parametrize("params, said", [({"tau": "-1"}, "Ignored URL parameters"),
                                          ({"variant": "nonsense"}, "Ignored URL parameters"),
                                          ({"max_steps": "1e99"}, "Ignored URL parameters"),
                                          ({"variant": "mini-batch", "B": "0"}, "B = 0 is not a batch size here")])
def test_hand_edited_url_never_breaks_the_page(params, said):
    at = page_from_url(params)
    assert scene_run(at).run["n_steps"] > 0
    assert any(said in w.value for w in at.warning)


def test_url_reproduces_the_view():
    at = page_from_url({"tau": "0.5", "ds": "XOR", "rule": "y·a < 0"})
    meta = run_meta(at)
    assert meta["tau"] == 0.5
    assert at.session_state[DATASET_KEY].name == "xor"
    assert at.radio(key="rule").value == "negative"


def test_empty_dataset_shows_an_empty_plane_to_click_not_a_traceback():
    at = perceptron_page()
    at.session_state[DATASET_KEY] = Dataset("textbook", 3, 0, (), np.zeros((0, 2)), np.zeros(0))
    chart_control(at, "tau", 0.5).run()
    assert not at.exception
    assert "Cannot run the perceptron: there are no points yet" in at.info[0].value
    fig = figure(at)  # the points alone (none), on the chart the clicks go to
    assert [len(t["x"]) for t in fig["data"]] == [0, 0]


def test_fixed_nonzero_bias_is_shown_and_no_separability_claim():
    at = perceptron_page()
    at.toggle(key="bias").set_value(False)
    at.number_input(key="b0").set_value(-2.0)
    at.number_input(key="max_steps").set_value(3).run()
    assert not at.exception
    assert "b₀ = −2 fixed" in at.caption[0].value
    status = (at.info or at.warning or at.success)[0].value
    assert "not linearly separable" not in status
    sc = scene_run(at)  # what the renderer writes from it at step 1: tests/test_e2e_scene.py
    assert sc.B.tolist()[0] == -2.0 and not sc.run["fit_intercept"] and sc.run["n_steps"] == 3


def test_invalid_url_parameters_are_named():
    at = page_from_url({"tau": "abc", "ds": "nonsense", "max_steps": "-5"})
    text = " ".join(w.value for w in at.warning)
    assert "tau='abc'" in text and "ds='nonsense'" in text and "max_steps='-5'" in text
    assert run_meta(at)["tau"] == 1.0  # the default was used
    chart_control(at, "tau", 0.5).run()  # reported once, not on every rerun
    assert not any("Ignored URL" in w.value for w in at.warning)


def test_the_work_cap_stops_a_batch_run_and_the_page_says_so():
    """Batch on 2,000 XOR points examines 2,000 points a step: the run stops at 2,500 steps (5,000,000 examinations)
    and the status says so; max steps is not lowered beforehand, so a run that converges first is never cut."""
    at = perceptron_page()
    at.sidebar.selectbox(key="ds").set_value("xor").run()
    at.sidebar.select_slider(key="n_xor").set_value(2000).run()
    chart_control(at, "variant", "batch")
    at.number_input(key="max_steps").set_value(100_000).run()
    assert not at.exception and not at.error
    assert not any("lowered" in i.value for i in at.info)
    assert any("Stopped at the work cap after 2,500 steps" in w.value and "before max steps (100,000)" in w.value
               for w in at.warning)
    assert run_meta(at)["n_steps"] == 2500


def test_friendly_url_spellings_are_read():
    at = page_from_url({"ds": "xor", "n_xor": "60.0", "tau": "2", "bias": "0", "variant": "minibatch",
                        "frames": "updates", "rule": "negative", "max_steps": "2e3"})
    assert not any("Ignored URL" in w.value for w in at.warning)
    meta = run_meta(at)
    ds = at.session_state[DATASET_KEY]
    assert (ds.name, ds.n) == ("xor", 60)
    assert meta["tau"] == 2.0 and meta["variant"] == "minibatch"
    assert at.toggle(key="bias").value is False and at.radio(key="frames").value == "updates"
    assert at.radio(key="rule").value == "negative" and at.number_input(key="max_steps").value == 2000


def test_url_checks_wait_for_the_page_that_owns_the_parameter():
    at = page_from_url({"tau": "0.3", "foo": "1"}, page=None)  # Home: τ is not drawn (and 0.3 is no choice)
    home = " ".join(w.value for w in at.warning)
    assert "foo='1' (not a setting of this app)" in home and "tau" not in home
    assert "foo" not in at.query_params and "tau" in at.query_params  # named and out of the address; τ waits
    at.switch_page("app_pages/perceptron.py").run()
    assert "tau='0.3' (using '1.0': tau is one of 0.01, 0.02, 0.05, …, 10.0)" in " ".join(w.value for w in at.warning)


@pytest.mark.parametrize("cmp", ["order", "tau", "batch", "svm"])
def test_compare_s_own_keys_are_the_controls_each_comparison_draws(cmp):
    """glue.options.OWN_KEYS names each comparison's own controls (a bad value for one not shown is named at once):
    it must be what the page draws for that comparison."""
    from glue.options import COMPARE_LABELS, OWN_KEYS
    from glue.shared import BOUND_THIS_RUN

    at = page_from_url({"ds": "XOR", "n_xor": "40", "cmp": COMPARE_LABELS[cmp]}, page="app_pages/compare.py")
    drawn = set(at.session_state[BOUND_THIS_RUN])
    own = {k for keys in OWN_KEYS.values() for k in keys}
    assert drawn & own == set(OWN_KEYS[cmp])


def test_a_bound_widget_keeps_its_default_over_reruns():
    """A widget bound to the link leaves the address when its value equals its default: the default must be the same
    on every run, or a setting chosen equal to another run's default (height 560, bias off) would drop out of a
    copied link."""
    at = perceptron_page()
    defaults = lambda: (at.select_slider(key="height").proto.default, at.toggle(key="bias").proto.default)  # noqa: E731
    first = defaults()
    at.select_slider(key="height").set_value(560).run()
    at.toggle(key="bias").set_value(False).run()
    assert defaults() == first


@pytest.mark.parametrize("typed, used", [(99_999, 60), (0, 1), (-3, 1)])
def test_a_batch_size_outside_one_to_n_is_named_and_the_nearest_runs(typed, used):
    """B is from 1 to N: a value typed outside (or in a link) is named above the chart, and the run uses the nearest B
    (Streamlit's bounded box only marked it with a small "!" and kept the last B while showing the new one)."""
    at = page_from_url({"ds": "XOR", "n_xor": "60", "variant": "mini-batch", "B": "20"})
    assert scene_run(at).run["batch_size"] == 20
    chart_control(at, "B", typed).run()
    assert not at.exception
    said = " ".join(w.value for w in at.warning)
    assert f"B = {typed:,} is not a batch size here" in said and f"uses B = {used}" in said
    assert scene_run(at).run["batch_size"] == used


@pytest.mark.parametrize("raw", ["abc", "-5", "2.5", "1e99"])
def test_a_link_step_that_is_no_step_is_named_above_the_page_and_leaves_the_address(raw):
    """Named with the link's other problems (written above the page, where the chart's own reruns do not take it
    away), taken out of the address bar; the chart opens at step 0."""
    at = page_from_url({"step": raw})
    said = " ".join(w.value for w in at.warning)
    assert f"step='{raw}' (a step is a whole number" in said and "opens at step 0" in said
    assert "step" not in at.query_params
    assert scene(at).view.start is None


def test_a_link_step_past_the_run_is_named_and_the_chart_opens_at_its_end():
    at = page_from_url({"ds": "XOR", "step": "5000"})
    said = " ".join(i.value for i in at.info)
    assert "The link asked for step 5,000; the run has 1,000 steps, so the chart opens at step 1,000." in said


def test_compare_names_a_bad_value_of_a_comparison_it_does_not_show():
    """Compare draws τ left and right only when it compares τ with τ: a bad value for them (or B's) in a link that
    compares orders is named at once and leaves the address bar; a good one stays for when they are shown."""
    at = page_from_url({"tau_a": "abc", "B_a": "0", "tau_b": "2.0"}, page="app_pages/compare.py")
    said = " ".join(w.value for w in at.warning)
    assert "tau_a='abc' (not a value of that setting)" in said and "B_a='0' (not a value of that setting)" in said
    assert "tau_b" not in said
    assert "tau_a" not in at.query_params and "B_a" not in at.query_params and at.query_params["tau_b"] == "2.0"


# ----------------------------------------------------------------------------
# Dual / Gram
# ----------------------------------------------------------------------------

DUAL = "app_pages/dual.py"


def dual_page(**params) -> AppTest:
    return page_from_url(params, page=DUAL)


def test_dual_textbook_linear_agrees_with_the_primal():
    at = dual_page()
    assert at.title[0].value.startswith("Dual perceptron")
    meta = run_meta(at)
    assert meta["view"] == "dual" and meta["kernel"] == "linear" and meta["n_updates"] == 7 and meta["converged"]
    texts = [s.value for s in at.success]
    assert any(t.startswith("Converged after 7 updates") for t in texts)
    assert any("Primal and dual agree" in t and "equals its w exactly" in t for t in texts)
    # the cost panel: G's N(N+1)/2 = 6 distinct entries; without G, one evaluation per point with α > 0 per check
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["With G"] == "6"
    assert int(metrics["Without G"].replace(",", "")) > 6
    assert not at.dataframe  # the step table is drawn only when its expander is opened
    at.session_state["steps_table_open"] = True
    at.run()
    df = at.dataframe[0].value
    assert list(df["step"]) == list(range(16)) and df["|M|"].iloc[-1] == 0


def test_dual_rbf_separates_circles_the_linear_kernel_cannot():
    at = dual_page(ds="circles", kernel="rbf", gamma="1")
    meta = run_meta(at)
    assert meta["kernel"] == "rbf" and meta["kernel_params"] == {"gamma": 1.0} and meta["converged"]
    assert not any("Primal" in s.value for s in at.success)  # no primal w for a kernel
    at.selectbox(key="kernel").set_value("linear").run()
    assert not at.exception
    assert "not separable linearly" in at.warning[0].value
    assert not run_meta(at)["converged"]


def test_dual_poly_parameters_and_eta_reach_the_run():
    at = dual_page(ds="xor", kernel="polynomial", degree="2", coef0="1", eta="0.5", order="random")
    assert not any("Ignored URL" in w.value for w in at.warning)
    meta = run_meta(at)
    assert meta["kernel"] == "poly" and meta["kernel_params"] == {"degree": 2, "coef0": 1.0}
    assert meta["eta"] == 0.5 and meta["variant"] == "random"
    at.select_slider(key="degree").set_value(3).run()
    assert run_meta(at)["kernel_params"]["degree"] == 3


@pytest.mark.parametrize("params", [{"gamma": "-1", "kernel": "rbf"}, {"kernel": "sigmoid"}, {"degree": "0", "kernel": "poly"},
                                    {"eta": "0"}, {"order": "minibatch"}])
def test_dual_hand_edited_url_never_breaks_the_page(params):
    at = dual_page(**params)
    assert chart_shown(at)
    assert any("Ignored URL parameters" in w.value for w in at.warning)


def test_dual_bad_data_keeps_the_last_good_run():
    at = dual_page()
    good = run_meta(at)
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    at.session_state[DATASET_KEY] = Dataset("textbook", 3, 0, (), X, np.array([1, 0, -1]))
    at.radio(key="order").set_value("random").run()
    assert not at.exception
    assert "Cannot run the dual perceptron: labels must be -1 or +1" in at.error[0].value
    assert run_meta(at) == good


def test_dual_largest_dataset_and_longest_run_the_page_offers():
    """2,000 points (the sidebar's most) and 100,000 steps (the widget's most) fit the core's O(N)-per-update cap."""
    at = dual_page(ds="blobs", n_blobs="2000", max_steps="100000", kernel="rbf")
    assert not at.exception and not at.error
    assert not any("is capped at" in i.value for i in at.info)
    meta = run_meta(at)
    assert meta["n_points"] == 2000 and meta["n_steps"] == 100_000  # every step reaches the browser: no frame cap
    assert len(scene(at).to_bytes()) < 2_000_000


def test_mistake_bound_beside_the_count():
    at = perceptron_page()  # textbook, cyclic, from zero: 7 updates
    info = " ".join(i.value for i in at.info)
    assert "**Mistake bound**" in info and "This run made 7" in info
    bound = scene(at).bound  # the renderer writes "updates so far k ≤ (R/γ)² = 117" and draws R and γ from it
    assert round(bound["bound"]) == 117 and bound["R"] > 0 and bound["gamma"] > 0
    chart_control(at, "variant", "batch").run()
    assert any("does not apply to this run: it counts single-point updates" in c.value for c in at.caption)
    assert scene(at).bound is None and "mini-batch and batch steps add up" in scene(at).bound_note  # the proof's words
    chart_control(at, "variant", "cyclic")
    at.sidebar.selectbox(key="ds").set_value("xor").run()
    assert any("not linearly separable, so γ = 0" in c.value for c in at.caption)


# ----------------------------------------------------------------------------
# SVM margin and slack
# ----------------------------------------------------------------------------


def test_svm_page_c_moves_the_margin():
    at = page_from_url({"ds": "blobs"}, page="app_pages/svm.py")
    meta = run_meta(at)
    assert meta["view"] == "svm" and meta["C"] == 1.0
    wide = meta["width"]
    blob = scenes_bytes(at)
    chart_control(at, "C", 100.0).run()
    assert not at.exception
    narrow = run_meta(at)["width"]
    assert narrow < wide  # a larger C buys fewer violations with a narrower margin
    # every C of the grid is in the scene, which the chart follows to the C chosen above: the same bytes travel
    s = scene(at)
    assert s.Cs.tolist() == list(C_GRID) and s.follow == "Penalty C (log scale)" and s.view.start is None
    assert scenes_bytes(at) == blob


def test_svm_kernel_on_many_points_is_one_solution_with_a_note():
    at = page_from_url({"ds": "moons", "n_moons": "500", "kernel": "rbf"}, page="app_pages/svm.py")
    assert not at.exception
    meta = run_meta(at)
    assert meta["kernel"] == "rbf" and not meta["live"] and meta["follow"] is None
    assert any("C moves live on the chart for the linear kernel" in c.value for c in at.caption)


def test_svm_hard_margin_on_xor_says_why():
    at = page_from_url({"ds": "xor"}, page="app_pages/svm.py")
    at.toggle(key="hard").set_value(True).run()
    assert not at.exception
    assert "needs linearly separable data" in at.error[0].value
    assert run_meta(at)["live"]  # the last good (soft-margin) view stays


def test_svm_kernel_and_url():
    at = page_from_url({"ds": "circles", "kernel": "rbf", "C": "10", "gamma": "3"}, page="app_pages/svm.py")
    assert not any("Ignored URL" in w.value for w in at.warning)
    meta = run_meta(at)
    assert meta["kernel"] == "rbf" and meta["C"] == 10.0


def test_svm_sgd_tab_runs():
    at = page_from_url({"ds": "blobs", "sgd_steps": "500"}, page="app_pages/svm.py")
    assert at.session_state["svm_tab"] == "Exact SVM"
    assert not [s for s in scenes(at) if isinstance(s, SgdScene)]  # the closed tab did not run
    at.session_state["svm_tab"] = "Hinge-loss SGD"
    at.run()
    sgd = scene(at)  # the SGD tab's record: every step of the run, the exact SVM beside it
    assert isinstance(sgd, SgdScene) and len(sgd.objectives[0]) == 501
    assert [r.run["n_steps"] for r in sgd.runs] == [500]
    assert not at.get("plotly_chart")
    assert any("the exact optimum J*" in i.value for i in at.info)


@pytest.mark.parametrize("query, family", [
    ({"sgd_steps": "1000", "sgd_eta": "0.5", "schedule": "constant η"}, True),  # ten runs of 1,000 steps: every η
    ({"sgd_steps": "5000", "sgd_eta": "0.5", "schedule": "constant η", "n_blobs": "2000"}, False),  # past the budget
    ({"sgd_steps": "1000"}, False)])  # Pegasos' decaying η (the default): one run, no η to follow
def test_svm_sgd_tab_sends_every_eta_after_the_one_shown(query, family):
    at = page_from_url({"ds": "blobs", "n_blobs": "60", "data_seed": "31", **query}, page="app_pages/svm.py")
    at.session_state["svm_tab"] = "Hinge-loss SGD"
    at.run()
    assert not at.exception and not at.error
    sc = scene(at)
    shown = float(query.get("sgd_eta", "0.1"))
    assert sc.partial == family and len(sc.runs) == 1 and not figures(at)  # first the run of the η shown alone
    assert "_svm_sgd_good" not in at.session_state if family else "_svm_sgd_good" in at.session_state
    if family:
        assert sc.runs[0].run["eta"] == shown and sc.follow == "Constant η"
        at.run()  # the page's next run with the same settings (the chart's "more" causes it) makes every η
        sc = scene(at)
        assert not sc.partial and [r.run["eta"] for r in sc.runs] == TAUS and sc.follow == "Constant η"
        assert {r.run["C"] for r in sc.runs} == {1.0} and {r.run["n_steps"] for r in sc.runs} == {1000}
        assert [r.run["order_of"] for r in sc.runs] == [0] * len(TAUS)  # one seed: the points drawn travel once
        blob = scenes_bytes(at)[0]
        chart_control(at, "sgd_eta", 2.0).run()  # η moves: the same bytes (the chart follows in the browser)
        assert scenes_bytes(at) == [blob] and not at.exception
        X, y = make_dataset("blobs", 60, 31)
        run = hinge_sgd(X, y, C=1.0, schedule="constant", eta=2.0, max_steps=1000, seed=0)
        assert sgd_summary(run, fit_svm(X, y, C=1.0)) in [i.value for i in at.info]  # the summary of the η shown
        assert "_svm_sgd_good" in at.session_state
    else:
        assert not sc.partial and sc.runs[0].run["eta"] == (shown if "schedule" in query else None)
        assert sc.follow == ("Constant η" if "schedule" in query else None)  # (moved, η dims it until its run arrives)


def test_a_link_opens_the_svm_page_s_sgd_tab_and_a_bad_tab_is_named():
    at = page_from_url({"ds": "blobs", "svm_tab": "Hinge-loss SGD", "sgd_steps": "200"}, page="app_pages/svm.py")
    assert at.session_state["svm_tab"] == "Hinge-loss SGD" and isinstance(scene(at), SgdScene)
    bad = page_from_url({"ds": "blobs", "svm_tab": "nonsense"}, page="app_pages/svm.py")
    assert bad.session_state["svm_tab"] == "Exact SVM" and not [s for s in scenes(bad) if isinstance(s, SgdScene)]
    assert any("svm_tab='nonsense' (using 'Exact SVM'" in w.value for w in bad.warning)


def test_svm_sgd_tab_runs_only_the_etas_the_core_takes_and_names_one_it_does_not():
    """η must stay below N·C (core.svm.constant_eta_fits): at N = 40 and C = 0.1 the family holds the η's below 4, and
    an η of 5 is named with the last good record kept (the chart dims: no run of that η is in it)."""
    at = page_from_url({"ds": "blobs", "n_blobs": "40", "data_seed": "35", "C": "0.1", "schedule": "constant η",
                        "sgd_steps": "200", "sgd_eta": "2.0"}, page="app_pages/svm.py")
    at.session_state["svm_tab"] = "Hinge-loss SGD"
    at.run()
    assert scene(at).partial and not at.error
    at.run()  # the chart's "more"
    sc = scene(at)
    assert not sc.partial and [r.run["eta"] for r in sc.runs] == [e for e in TAUS if e < 40 * 0.1] and not at.error
    blob = scenes_bytes(at)[0]
    chart_control(at, "sgd_eta", 5.0).run()
    assert not at.exception
    assert "constant η must stay below 1/λ = N·C = 4" in at.error[0].value and "last good run" in at.error[0].value
    kept = scene(at)  # the last good record stays, its view naming the refused η (the chart then does not wait)
    assert kept.view.eta == 5.0 and with_view(scenes_bytes(at)[0], View()) == with_view(blob, View())
    assert not [i for i in at.info if i.value.startswith("After ")]  # and no run's summary: none is of η = 5
    chart_control(at, "sgd_eta", 1.0).run()
    assert not at.error and scenes_bytes(at) == [blob]
    assert [i for i in at.info if i.value.startswith("After 200 steps")]


# ----------------------------------------------------------------------------
# Loss surface
# ----------------------------------------------------------------------------


def charts(at: AppTest) -> dict:
    """The page's still figures by their meta.view."""
    return {spec["layout"].get("meta", {}).get("view"): spec for spec in figures(at)}


def test_loss_page_default_and_its_views():
    at = page_from_url({"ds": "blobs"}, page="app_pages/losses.py")
    surf, data = scene(at), loss_data(at)  # the (w₁, w₂) slices travel as a record, not as frames; the data chart too
    assert isinstance(surf, LossScene) and surf.run["names"] == ["hinge"] and len(surf.bs) == 17
    assert surf.view.start == 8 and data.run["chosen"] is None and charts(at) == {}
    assert any("hinge loss." in m.value for m in at.markdown)  # the text beside the loss
    at = page_from_url({"ds": "blobs", "loss": "all", "slice": "theta"}, page="app_pages/losses.py")
    meta = charts(at)["loss_surface"]["layout"]["meta"]
    assert meta["slice"] == "theta" and meta["losses"] == ["hinge", "perceptron", "zero_one"] and not scenes(at)
    at = page_from_url({"ds": "xor", "loss": "zero_one", "view": "surface"}, page="app_pages/losses.py")
    assert charts(at)["loss_surface_3d"]["layout"]["meta"]["loss"] == "zero_one"
    at = page_from_url({"ds": "blobs", "loss": "all"}, page="app_pages/losses.py")
    assert scene(at).run["names"] == ["hinge", "perceptron", "zero_one"] and len(scene(at).us) == 61


@pytest.mark.parametrize("path", ["perceptron", "hinge_sgd"])
def test_loss_page_lambda_moves_in_the_browser_the_record_is_the_same(path):
    at = page_from_url({"ds": "blobs", "loss": "hinge", "path": path}, page="app_pages/losses.py")
    sent = [scenes_bytes(at)]
    for lam in (0.1, 1.0):  # (what the chart's λ reports once moved)
        sent.append(scenes_bytes(chart_control(at, "lam", lam).run()))
    assert not at.exception and at.query_params["lam"] == "1.0"
    assert sent[0] == sent[1] == sent[2]  # every λ is in it: moving λ sends nothing new, the chart follows
    sc = decoded(sent[0][0])
    assert sc.follow == "λ of the hinge's λ/2‖w‖²" and sc.run["lams"] == [0.0, 0.001, 0.01, 0.1, 1.0]
    assert sc.run["path_of"] == ([0, 0, 1, 2, 3] if path == "hinge_sgd" else [0] * 5)  # SGD's depends on λ (0: as 10⁻³)


def test_loss_page_exports_are_named_after_the_view():
    def tools(at):
        return next(json.loads(e.proto.json) for e in at.get("bidi_component")
                    if e.proto.component_name.endswith("dbl_chart_tools") and json.loads(e.proto.json)["chart"] == "loss_chart")

    got = tools(page_from_url({"ds": "blobs"}, page="app_pages/losses.py"))
    assert got["name"] == "loss-hinge-w-map-40pts" and got["slider_name"] == "b"  # the keys move b
    got = tools(page_from_url({"ds": "blobs", "slice": "theta"}, page="app_pages/losses.py"))
    assert got["name"] == "loss-hinge-theta-map-40pts" and got["slider_name"] == ""  # a still figure: nothing to move


def test_loss_page_chosen_weight_draws_its_boundary():
    at = page_from_url({"ds": "textbook", "loss": "perceptron"}, page="app_pages/losses.py")
    ds = at.session_state[DATASET_KEY]
    b = float(scene(at).bs[2])
    at.session_state["_loss_chosen"] = ((0.5, -0.25), b, ds.label)  # what a click on the surface stores
    at.run()
    assert not at.exception
    assert loss_data(at).run["chosen"] == {"w": [0.5, -0.25], "b": b}
    sc = scene(at)
    assert sc.view.start == 2  # the chart stays at the b the weight was clicked at
    assert sc.run["chosen"]["w"] == [0.5, -0.25] and sc.run["chosen"]["b"] == b and "perceptron" in sc.run["chosen"]["grads"]
    # a weight off the grid (or at a b not on the slider) is not drawn
    at.session_state["_loss_chosen"] = ((1e308, 0.0), b, ds.label)
    at.run()
    assert not at.exception and loss_data(at).run["chosen"] is None and scene(at).run["chosen"] is None
    at.session_state["_loss_chosen"] = ((0.5, -0.25), b + 1e-3, ds.label)
    at.run()
    assert scene(at).run["chosen"] is None
    # a choice made on other data is not drawn on these
    at.session_state["_loss_chosen"] = ((0.5, -0.25), 0.0, "another dataset")
    at.run()
    assert loss_data(at).run["chosen"] is None and scene(at).run["chosen"] is None


def test_a_weight_the_chart_reports_is_read_and_a_bad_one_ignored():
    from glue.options import weight_pick

    assert weight_pick({"w": [0.5, -0.25], "b": 0.1234567}) == ((0.5, -0.25), 0.123457)
    assert weight_pick({"w": (1, -2), "b": 0}) == ((1.0, -2.0), 0.0)
    for bad in (None, "x", {"w": [1.0]}, {"w": ["a", 1.0], "b": 0.0}, {"w": [float("nan"), 1.0], "b": 0.0}, {"b": 1.0},
                {"w": [1.0, 2.0], "b": float("inf")}, {"w": 5, "b": 0.0}, {"w": "12", "b": 0}, {"w": b"12", "b": 0},
                {"w": ["1", "2"], "b": " 4 "}, {"w": [True, False], "b": 0}, {"w": [1.0, 2.0], "b": 10**400},
                {"w": [{"a": 1}, 2.0], "b": 0.0}, [0.5, 0.5], {"w": [1.0, 2.0], "b": None}):
        assert weight_pick(bad) is None, bad


def test_a_c_the_svm_chart_reports_is_read_and_a_bad_one_ignored():
    from core.svm import C_GRID
    from glue.options import c_pick

    assert c_pick(10.0, C_GRID) == 10.0 and c_pick(1, C_GRID) == 1.0 and c_pick(0.001, C_GRID) == 0.001
    for bad in (True, False, None, "10", b"10", [10.0], {"c": 10.0}, 11.0, float("nan"), float("inf"), -1.0, 10**400):
        assert c_pick(bad, C_GRID) is None, bad


@pytest.mark.parametrize("params", [{"loss": "squared"}, {"lam": "-1"}, {"b_at": "99"}, {"lit": "abc"},
                                    {"slice": "b"}, {"radius": "0"}])
def test_loss_page_bad_url_never_breaks_it(params):
    at = page_from_url({"ds": "blobs", **params}, page="app_pages/losses.py")
    assert not at.exception and (scenes(at) or "loss_surface" in charts(at))


def test_the_perceptron_page_fetches_plotly_js_before_its_scene_is_built() -> None:
    """An empty renderer element (in the sidebar, drawn before the build) lets the browser load plotly.js meanwhile."""
    at = perceptron_page()
    comps = [e.proto for e in at.get("bidi_component") if e.proto.component_name.endswith("dbl_scene")]
    # the preload (in the sidebar) has no data; the chart has the scene
    assert sorted(str(c.WhichOneof("data")) for c in comps) == ["None", "bytes"]
    assert len(scenes(at)) == 1


def test_dual_eta_moves_in_the_browser_on_every_kernel():
    """The record holds every η (the chart follows the η control): moving η sends the same bytes. The linear kernel's
    record holds each η's w, M's exceptions and primal run; the agreement said is the η's."""
    for kernel in ("rbf", "linear"):
        at = dual_page(kernel=kernel, eta="0.5")
        before = scenes_bytes(at)
        sc = scene(at)
        assert sc.run["etas"] == TAUS and sc.follow == "Step η" and run_meta(at)["eta"] == 0.5
        assert len(sc.lines) == (len(TAUS) if kernel == "linear" else 0)
        chart_control(at, "eta", 2.0).run()
        assert not at.exception and scenes_bytes(at) == before and run_meta(at)["eta"] == 2.0
        if kernel == "linear":
            assert any("Primal and dual agree" in s.value for s in at.success)


def test_dual_linear_eta_falls_back_to_its_own_record_when_every_eta_would_not_fit():
    """Every η's w and primal run of a long linear run would cut the record short: the page sends its η alone, whole
    (η then reruns the page), and still says whether primal and dual agree."""
    at = dual_page(ds="xor", n_xor="100", max_steps="60000", eta="0.5")
    sc = scene(at)
    assert not at.exception and sc.run["etas"] is None and sc.run["eta"] == 0.5 and not sc.lines
    assert sc.run["cut_from"] is None and sc.run["n_steps"] == 60_000
    assert any("agree" in m.value for m in [*at.success, *at.warning, *at.info])


def test_a_link_step_leaves_the_address_with_the_points_it_was_used_on():
    """The address keeps a link's step while the chart shows the same points (it reopens the view there); other
    points open the chart at step 0 (the renderer), and the address no longer names the old step."""
    at = page_from_url({"ds": "XOR", "step": "12"})
    assert at.query_params["step"] == "12" and scene(at).view.start == 12
    at.radio(key="rule").set_value("negative").run()  # the same points: the step stays
    assert not at.exception and at.query_params["step"] == "12"
    at.sidebar.number_input(key="data_seed").set_value(5).run()  # new points
    assert not at.exception and "step" not in at.query_params
