"""The user's points in the pages (AppTest): the link's points and step, Clear and Undo, the table's checks."""

from __future__ import annotations

import numpy as np
import pytest
from apptest_helpers import chart_control, chart_shown, figure, run_meta, scene
from test_views import page_from_url

from datasets import make_dataset
from datasets.points import encode_points
from glue.dataset import DATASET_KEY
from glue.userdata import CUSTOM, CUSTOM_KEY, UserPoints, _check_rows

XU = np.array([[0.5, 1.25], [-1.0, 2.0], [2.0, -0.75], [1.5, 1.5]])
YU = np.array([1, -1, -1, 1])


def test_a_link_with_points_opens_exactly_those_points_on_every_page():
    code = encode_points(XU, YU)
    for page in ("app_pages/perceptron.py", "app_pages/dual.py", "app_pages/svm.py", "app_pages/losses.py"):
        at = page_from_url({"ds": "Your points", "pts": code, "tau": "0.5"}, page)
        ds = at.session_state[DATASET_KEY]
        assert ds.name == CUSTOM and np.array_equal(ds.X, XU) and np.array_equal(ds.y, YU)
        assert at.sidebar.selectbox(key="ds").value == CUSTOM
        assert not at.warning
    assert run_meta(page_from_url({"ds": "Your points", "pts": code}))["n_points"] == 4


@pytest.mark.parametrize("pts", ["garbage", "3.2h.AAAA", "501.2h.AAAA", ""])
def test_a_bad_points_parameter_is_named_and_the_page_still_runs(pts):
    at = page_from_url({"ds": "Your points", "pts": pts})
    assert any("The link's points (pts) were not used" in w.value for w in at.sidebar.warning)
    ds = at.session_state[DATASET_KEY]
    assert ds.name == CUSTOM and len(ds.y) == 3  # the default (textbook) points to edit
    assert chart_shown(at)


def test_points_set_in_the_session_go_into_the_url_and_survive_a_page_switch():
    at = page_from_url({}, "app_pages/perceptron.py")
    at.session_state[CUSTOM_KEY] = UserPoints(XU, YU, "drawn by hand", 1)
    at.session_state["ds"] = CUSTOM
    at.run()
    assert at.query_params["pts"] == encode_points(XU, YU)
    at.switch_page("app_pages/svm.py").run()
    assert not at.exception
    assert np.array_equal(at.session_state[DATASET_KEY].X, XU)
    assert at.query_params["pts"] == encode_points(XU, YU)
    # back to a generator: the points leave the URL but stay in the session for later
    at.sidebar.selectbox(key="ds").set_value("xor").run()
    assert "pts" not in at.query_params
    assert at.session_state[DATASET_KEY].name == "xor"
    at.sidebar.selectbox(key="ds").set_value(CUSTOM).run()
    assert np.array_equal(at.session_state[DATASET_KEY].X, XU)


def test_too_many_points_for_a_link_say_so():
    X, y = make_dataset("blobs", 600, 0)
    at = page_from_url({}, "app_pages/perceptron.py")
    at.session_state[CUSTOM_KEY] = UserPoints(X, y, "imported from big.csv", 1)
    at.session_state["ds"] = CUSTOM
    at.run()
    assert "pts" not in at.query_params
    assert any("too many for a link" in i.value for i in at.sidebar.info)


def test_clear_shows_an_empty_plane_and_undo_brings_the_points_back():
    at = page_from_url({"ds": "XOR"}, "app_pages/perceptron.py")
    before = at.session_state[DATASET_KEY]
    at.sidebar.button(key="clear_points").click().run()
    assert not at.exception
    ds = at.session_state[DATASET_KEY]
    assert ds.name == CUSTOM and len(ds.y) == 0
    assert "there are no points yet" in at.info[0].value
    assert [len(t["x"]) for t in figure(at)["data"]] == [0, 0]
    at.sidebar.button(key="undo_points").click().run()
    ds = at.session_state[DATASET_KEY]
    assert ds.name == CUSTOM and np.array_equal(ds.X, before.X) and np.array_equal(ds.y, before.y)
    assert "from XOR" in ds.label


def test_one_class_stops_the_svm_with_a_message_and_the_points_shown():
    code = encode_points(XU[:2], np.array([1, 1]))
    at = page_from_url({"ds": "Your points", "pts": code}, "app_pages/svm.py")
    assert "every point is in class +1; the SVM needs both classes" in at.info[0].value
    assert [len(t["x"]) for t in figure(at)["data"]] == [2, 0]


def test_a_link_step_opens_the_chart_there_once():
    at = page_from_url({"step": "5"})
    assert run_meta(at)["start"] == 5  # the renderer opens there (its text at step 5: tests/test_e2e_scene.py)
    chart_control(at, "tau", 0.5).run()  # used once: a new run opens where the browser stood
    assert run_meta(at)["start"] is None


@pytest.mark.parametrize("step, words", [("999", "the chart opens at step 15"), ("abc", "Ignored URL parameters: step='abc'")])
def test_a_step_past_the_run_or_not_a_number_is_named(step, words):
    at = page_from_url({"step": step})
    assert any(words in m.value for m in [*at.info, *at.warning])
    assert not at.exception


def test_the_table_rows_are_checked_and_named():
    X, y = _check_rows([[1, 2.5, 1], [0, "-3", "-1"]])
    assert X.tolist() == [[1.0, 2.5], [0.0, -3.0]] and y.tolist() == [1, -1]
    for rows, words in [([[1, None, 1]], "row 1: x₂ is missing"), ([[1, 2, 1], ["a", 2, 1]], "row 2: x₁ = 'a'"),
                        ([[1, float("inf"), 1]], "not finite"), ([[1, 2, 0]], "y must be")]:
        with pytest.raises(ValueError, match=words):
            _check_rows(rows)


def test_points_a_page_cannot_take_are_drawn_as_they_are_not_the_last_good_run():
    X, y = make_dataset("blobs", 2500, 0)
    for page, query in [("app_pages/dual.py", {}), ("app_pages/svm.py", {"kernel": "rbf"}), ("app_pages/losses.py", {}),
                        ("app_pages/compare.py", {})]:
        words = "at most 2,000 points (the Perceptron page and the SVM page's linear kernel take up to 10,000)"
        at = page_from_url({"ds": "Blobs", **query}, page)  # a good run first
        at.session_state[CUSTOM_KEY] = UserPoints(X, y, "imported from big.csv", 1)
        at.session_state["ds"] = CUSTOM
        at.run()
        assert not at.exception
        err = " ".join(e.value for e in at.error)
        assert "on these points" in err and words in err
        fig = figure(at)  # the clicks go to a chart of exactly these points
        assert sum(len(t["x"]) for t in fig["data"]) == 2500


@pytest.mark.parametrize("page, query", [("app_pages/perceptron.py", {}), ("app_pages/svm.py", {"kernel": "linear"})])
def test_the_perceptron_and_the_linear_svm_take_up_to_10000_points(page, query):
    X, y = make_dataset("xor", 10_000, 0)
    at = page_from_url({"ds": "Blobs", **query}, page)
    at.session_state[CUSTOM_KEY] = UserPoints(X, y, "imported from big.csv", 1)
    at.session_state["ds"] = CUSTOM
    at.run()
    assert not at.exception and not at.error
    assert len(scene(at).y) == 10_000


def test_a_link_that_mixes_a_generator_and_points_says_the_points_were_not_used():
    at = page_from_url({"ds": "XOR", "pts": encode_points(XU, YU)})
    assert any("they go with ds=Your points" in w.value for w in at.sidebar.warning)
    assert at.session_state[DATASET_KEY].name == "xor"


def test_text_from_a_link_is_shown_as_text_not_as_a_link():
    at = page_from_url({"step": "[Session expired](https://evil.example)"})
    warned = " ".join(w.value for w in at.warning)
    assert "\\[Session expired\\]" in warned  # the brackets are escaped: Markdown shows them, no link is made


def test_a_generated_dataset_a_page_cannot_run_is_drawn_not_the_last_good_run():
    at = page_from_url({"ds": "Separable (margin γ)", "hard": "true"}, "app_pages/svm.py")
    assert not at.error
    at.sidebar.selectbox(key="ds").set_value("xor").run()  # no line separates XOR: the hard margin fails
    assert any("Cannot run the SVM on these points" in e.value for e in at.error)
    fig = figure(at)
    assert sum(len(t["x"]) for t in fig["data"]) == 40  # XOR's points, where clicks would edit them


def test_a_link_naming_your_points_without_any_says_so():
    at = page_from_url({"ds": "Your points"})
    assert any("carries none" in w.value for w in at.sidebar.warning)


def test_ten_thousand_points_cap_the_steps_the_record_checks():
    """The record checks M at every state against every point, for each τ: on 10,000 points, 20,000 steps at most."""
    X, y = make_dataset("xor", 10_000, 0)
    at = page_from_url({"ds": "Blobs", "max_steps": "100000"}, "app_pages/perceptron.py")
    at.session_state[CUSTOM_KEY] = UserPoints(X, y, "imported from big.csv", 1)
    at.session_state["ds"] = CUSTOM
    at.run()
    assert not at.exception and not at.error
    assert any("capped at 20,000 steps" in i.value and "lowered from 100,000" in i.value for i in at.info)
    assert run_meta(at)["n_steps"] == 20_000  # XOR never converges: the run goes to the cap
