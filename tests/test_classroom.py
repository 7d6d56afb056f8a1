"""Classroom features without a browser: presentation mode's link, projector scaling, exports, the quiz, compare."""

from __future__ import annotations

import html as htmlmod
import json

import numpy as np
import pytest
from apptest_helpers import figure, figures, run_meta, scene, still_figure  # noqa: F401
from streamlit.testing.v1 import AppTest
from test_views import page_from_url

from core.perceptron import run_perceptron
from core.svm import C_GRID, hinge_sgd
from datasets import make_dataset
from datasets.csvio import paired_runs_csv
from glue.options import TAUS
from glue.present import DEFAULT_HIDE, HIDE, PRESENT, hide_spelling, parse_hide
from glue.quiz import QUIZ, SCORE, point_pick
from viz.common import num, projector
from viz.export import standalone_html
from viz.quiz import grade, question
from viz.scene import SceneRun, perceptron_scene


def _figure() -> dict:
    return still_figure()


def _run(name="separable", n=40, **kw):
    X, y = make_dataset(name, n, 0)
    return run_perceptron(X, y, max_steps=kw.pop("max_steps", 300), **kw)


# ---------------------------------------------------------------- presentation mode


def test_hide_is_read_from_any_spelling_and_unknown_parts_are_named():
    assert parse_hide("Sidebar, tables,foo") == (["sidebar", "tables"], ["foo"])
    assert parse_hide("none") == ([], [])
    assert parse_hide("") == ([], [])
    assert hide_spelling(["tables", "sidebar"]) == "sidebar,tables"  # one order, so a link reads the same
    assert hide_spelling([]) == "none"


def test_a_presentation_link_turns_it_on_with_its_parts_and_keeps_them_in_the_url():
    at = page_from_url({"present": "1", "hide": "settings,notes"})
    assert at.session_state[PRESENT] is True
    assert at.session_state[HIDE] == ["settings", "notes"]
    assert at.query_params["present"] == "true" and at.query_params["hide"] == "settings,notes"
    assert run_meta(at)["scale"] > 1  # the chart for a projector (the renderer scales type, markers and lines)
    css = " ".join(h.proto.body for h in at.get("html"))
    assert "st-key-dbl_settings" in css and "st-key-dbl_notes" in css and "stSidebar" not in css
    at.switch_page("app_pages/svm.py").run()  # the next page keeps both
    assert not at.exception
    assert at.query_params["hide"] == "settings,notes" and at.query_params["present"] == "true"


@pytest.mark.parametrize(("given", "used", "named"), [("sidebar,everything", ["sidebar"], "everything"),
                                                      ("", DEFAULT_HIDE, "hide=''"),
                                                      ("<b>x</b>", DEFAULT_HIDE, "<b>x</b>")])
def test_a_bad_hide_list_is_named_above_the_page(given, used, named):
    at = page_from_url({"present": "true", "hide": given})
    said = " ".join(w.value for w in at.main.warning)  # above the page: the sidebar may be hidden
    assert "Ignored URL parameters" in said and named in said.replace("\\", "")
    assert "<b>" not in said  # a link's text is escaped, never markup
    assert at.session_state[HIDE] == used


@pytest.mark.parametrize("hide", ["sidebar,tables", "sidebar,title"])
def test_presentation_mode_writes_the_dataset_on_the_title_s_line_unless_the_title_is_hidden(hide):
    at = page_from_url({"present": "true", "hide": hide, "ds": "moons"}, "app_pages/svm.py")
    label = "Moons: n = 60, noise σ = 0.1, seed 0"  # (the sidebar's defaults)
    heads = [m.value for m in at.main.markdown if m.value.startswith("# ")]
    lines = [m.value for m in at.main.markdown if m.value.startswith("**Moons")]
    if "title" in hide:  # (hidden: the title as the normal page has it, and the label over the chart)
        assert not heads and at.title[0].value == "SVM: margin and slack" and len(lines) == 1
    else:  # one line: the title, then the label in smaller type (a slide's chart gains the label's line)
        assert len(heads) == 1 and not at.title and not lines, (heads, lines)
        title, _, rest = heads[0][2:].partition("<span class='dbl-label'>")
        assert title == "SVM: margin and slack" and htmlmod.unescape(rest.removesuffix("</span>")) == label


def test_a_label_on_the_title_s_line_is_shown_as_text():
    """A file's name (or a link's) on a slide's title line: no markup of its own takes effect."""
    def script():
        import streamlit as st

        from glue.present import page_title
        from glue.shared import PRESENT
        st.session_state[PRESENT] = True
        page_title("T", "<b>x</b> *y* [a](b) $z$.csv")

    at = AppTest.from_function(script).run()
    body = at.markdown[0].value
    rest = body.partition("<span class='dbl-label'>")[2].removesuffix("</span>")
    assert not set("<>*[]()$") & set(rest), rest  # every mark an entity
    assert htmlmod.unescape(rest) == "<b>x</b> *y* [a](b) $z$.csv"


def test_the_default_hide_list_stays_out_of_the_url():
    at2 = page_from_url({})
    assert at2.session_state[HIDE] == DEFAULT_HIDE and "hide" not in at2.query_params
    assert not at2.get("html") or all("stSidebar" not in h.proto.body for h in at2.get("html"))  # off: no CSS


def test_projector_scales_type_markers_and_lines_but_not_data():
    f = _figure()
    g = projector(f, 1.5)
    assert g["layout"]["font"]["size"] == pytest.approx(1.5 * f["layout"]["font"]["size"])
    assert g["layout"]["annotations"][0]["font"]["size"] == pytest.approx(1.5 * f["layout"]["annotations"][0]["font"]["size"])
    pts = next(i for i, t in enumerate(f["data"]) if t.get("name") == "y = +1")
    assert g["data"][pts]["marker"]["size"] == pytest.approx(1.5 * f["data"][pts]["marker"]["size"])
    assert g["data"][pts]["x"] == f["data"][pts]["x"]
    line = next(i for i, t in enumerate(f["data"]) if t.get("name", "").startswith("boundary"))
    assert g["data"][line]["line"]["width"] == pytest.approx(1.5 * f["data"][line]["line"]["width"])
    assert json.dumps(f) != json.dumps(g) and f == _figure()  # the original is unchanged
    svm = projector({"data": [], "layout": {"annotations": [{"text": "a", "ay": -36, "ax": 2, "yshift": 4},
                                                            {"text": "b", "ax": 1.5, "axref": "x"}]}}, 1.5)
    assert svm["layout"]["annotations"][0] == {"text": "a", "ay": -54, "ax": 3, "yshift": 6}
    assert svm["layout"]["annotations"][1]["ax"] == 1.5  # in data units: kept
    with pytest.raises(ValueError, match="k must be between 1 and 3"):
        projector(f, 0.5)


# ---------------------------------------------------------------- exports


def test_the_html_export_holds_plotly_its_frames_and_an_escaped_title():
    f = _figure()
    page = standalone_html(f, "Perceptron: <script>x</script>")
    assert page.startswith("<!DOCTYPE html>") or page.lower().startswith("<!doctype html>")
    assert "<script>x</script>" not in page and htmlmod.escape("<script>x</script>") in page
    assert "Plotly.addFrames" in page or "addFrames" in page
    assert "https://cdn" not in page.split("</script>", 1)[0][:5000]  # plotly.js is inline, not fetched
    assert len(page) > 3_000_000  # plotly.js itself


# ---------------------------------------------------------------- the quiz


@pytest.mark.parametrize("kw", [{"variant": "cyclic"}, {"variant": "random"}, {"variant": "minibatch", "batch_size": 8},
                                {"variant": "batch", "tau": 0.1}, {"variant": "cyclic", "update_on": "negative",
                                                                   "w0": (0.5, -0.5)},
                                {"variant": "cyclic", "fit_intercept": False}])
def test_the_quiz_grades_against_the_run_itself(kw):
    traj = _run("xor", 30, **kw)  # not separable: every variant runs all its steps
    checked = 0
    for k in range(min(traj.n_steps, 40)):
        ex, text = question(traj, k)
        assert np.array_equal(ex, traj.examined(k + 1)) and f"Step {k + 1}" in text
        upd = traj.updated(k + 1)
        (w,), (b,) = traj.states([k])
        m = traj.problem.y * (traj.problem.X @ w + b)  # y(w·x + b) before step k + 1
        rule = (lambda v: v < 0) if kw.get("update_on") == "negative" else (lambda v: v <= 0)
        assert set(upd.tolist()) == {int(i) for i in ex if rule(m[i])}  # the update uses the examined mistakes
        right_none, why_none = grade(traj, k, None)
        assert right_none == (upd.size == 0) and why_none.startswith("No update is " + ("right" if right_none else
                                                                                            "wrong"))
        for i in ex[:3].tolist():
            right_i, why = grade(traj, k, i)
            assert right_i == (i in upd)
            sign = ("<" if kw.get("update_on") == "negative" else "≤") if i in upd else \
                ("≥" if kw.get("update_on") == "negative" else ">")
            assert f"= {num(m[i])} {sign} 0" in why, why  # the margin written out with its comparison
        outside = np.setdiff1d(np.arange(traj.problem.n), ex)
        if outside.size:
            assert grade(traj, k, int(outside[0]))[0] is False  # a point the step does not examine is never right
        checked += 1
    assert checked > 5


def test_paired_runs_csv_has_one_row_per_step_and_holds_the_shorter_run():
    X, y = make_dataset("separable", 40, 0)
    a = run_perceptron(X, y, variant="cyclic", max_steps=1000)
    b = hinge_sgd(X, y, C=1.0, max_steps=60, seed=0)
    rows = paired_runs_csv(a, b).splitlines()
    S = max(a.n_steps, b.n_steps)
    assert rows[0] == "step,left_w1,left_w2,left_b,right_w1,right_w2,right_b" and len(rows) == S + 2
    table = np.array([[float(v) for v in r.split(",")] for r in rows[1:]])
    assert np.array_equal(table[:, 0], np.arange(S + 1))
    Wa, Ba = a.states(np.minimum(np.arange(S + 1), a.n_steps))
    assert np.array_equal(table[:, 1:3], Wa) and np.array_equal(table[:, 3], Ba)  # every step, exactly
    hold = np.minimum(np.arange(S + 1), b.n_steps)
    assert np.array_equal(table[:, 4:6], b.W[hold]) and np.array_equal(table[:, 6], b.B[hold])


def test_the_quiz_reads_the_record_as_the_run_and_takes_only_a_point_index():
    """The questions and verdicts read the page's record (SceneRun): word for word the core run's; a click's message
    is a point index or nothing."""
    for kw in ({"variant": "cyclic"}, {"variant": "minibatch", "batch_size": 8}, {"variant": "random", "update_on": "negative"}):
        traj = _run("xor", 30, **kw)
        back = SceneRun.of_tau(perceptron_scene(traj).to_bytes(), traj.tau)
        for k in range(min(traj.n_steps, 25)):
            assert question(back, k)[1] == question(traj, k)[1]
            for choice in (None, *traj.examined(k + 1)[:2].tolist(), (int(traj.examined(k + 1)[0]) + 1) % 30):
                assert grade(back, k, choice) == grade(traj, k, choice), (kw, k, choice)
    assert point_pick({"i": 4, "at": 1}, 5) == 4
    for junk in (None, 4, "4", {"i": 5}, {"i": -1}, {"i": 2.0}, {"i": True}, {"i": "2"}, {}, [4], {"w": [1, 2]}):
        assert point_pick(junk, 5) is None, junk


def test_the_quiz_page_keeps_the_score_and_moves_on():
    at = page_from_url({"ds": "textbook", "quiz": "true"})
    assert any("Score: 0 of 0 right" in m.value for m in at.markdown)
    X, y = make_dataset("textbook", 3, 0)
    traj = run_perceptron(X, y, max_steps=1000)
    at.button(key="quiz_none").click().run()  # step 1 from w = 0 updates (y·a = 0 ≤ 0): "No update" is wrong
    assert traj.updated(1).size and at.session_state[SCORE] == [0, 1]
    assert at.error and "No update is wrong" in at.error[0].value
    at.button(key="quiz_next").click().run()
    assert at.session_state[QUIZ]["k"] == 1 and at.session_state[QUIZ]["answer"] is None
    at.button(key="quiz_none").click().run()  # step 2: x₂ = (4, 3) is on its side at w = (3, 3), b = 1
    assert not traj.updated(2).size and at.session_state[SCORE] == [1, 2]
    assert at.success and "No update is right" in at.success[0].value
    at.button(key="quiz_reset").click().run()
    assert at.session_state[SCORE] == [0, 0]


# ---------------------------------------------------------------- compare


@pytest.mark.parametrize("what", ["order", "tau", "batch", "svm"])
def test_every_comparison_runs_on_the_same_points(what):
    seed = 23 if what == "svm" else 0
    at = page_from_url({"ds": "separable", "cmp": what, "data_seed": str(seed)}, "app_pages/compare.py")
    assert not at.error and not at.exception
    sc = scene(at)  # one record: the points once and both runs' states
    X, y = make_dataset("separable", 40, seed)
    assert np.array_equal(sc.X, X) and np.array_equal(sc.y, y)
    kinds = [r.run["kind"] for r in sc.runs]
    if what == "svm":  # first the runs of the C shown (a partial record), then a hinge run for every C of the control
        assert kinds == ["perceptron", "hinge"] and sc.partial and sc.runs[1].run["C"] == 1.0
        assert [d["C"] for d in sc.reference] == [1.0]
        assert "_compare_last_good" not in at.session_state  # a partial record is never the last good run
        at.run()  # the page's next run with the same settings (the chart's "more" causes it) makes every C
        sc = scene(at)
        assert not sc.partial and [r.run["kind"] for r in sc.runs] == ["perceptron"] + ["hinge"] * len(C_GRID)
        assert sc.sides[1]["follow"] == "SVM penalty C" and sc.sides[1]["key"] == "C"
        assert [sc.runs[j].run["C"] for j in sc.sides[1]["runs"]] == list(C_GRID)
        assert sorted(d["C"] for d in sc.reference) == list(C_GRID)
        assert at.session_state["_compare_last_good"][4] == tuple(  # the family: the last good run
            ("hinge", (("C", c), ("max_steps", 1000), ("seed", 0))) for c in C_GRID)
        at.run()  # the family is made: this session is sent it at once from now on
        assert not scene(at).partial
        other = page_from_url({"ds": "separable", "cmp": what, "data_seed": str(seed)}, "app_pages/compare.py")
        assert scene(other).partial  # another session: the runs shown first, then the family
        other.run()
        assert not scene(other).partial and len(scene(other).runs) == 1 + len(C_GRID)
    else:  # every value of the page's τ (or B) controls run once: each side follows its control in the browser
        n = {"order": 2 * len(TAUS), "tau": len(TAUS), "batch": 7}[what]  # B ∈ 1, 2, …, 32 and 64 → N = 40
        assert kinds == ["perceptron"] * n
        follow = {"order": ("Step size τ (both)",) * 2, "tau": ("τ left", "τ right"), "batch": ("B left", "B right")}[what]
        assert tuple(side["follow"] for side in sc.sides) == follow
        key = "batch_size" if what == "batch" else "tau"
        values = sorted(sc.runs[j].run[key] for j in sc.sides[1]["runs"])
        assert values == ([1, 2, 4, 8, 16, 32, 40] if what == "batch" else TAUS)
    assert (sc.reference is not None) == (what == "svm")
    assert not figures(at) and not at.get("plotly_chart")  # no figure travels: the comparison is one record


def test_a_compare_link_opens_at_its_step():
    at = page_from_url({"ds": "separable", "cmp": "tau", "tau_a": "0.1", "tau_b": "1", "step": "7"},
                       "app_pages/compare.py")
    sc = scene(at)
    assert [t.split("\n")[0] for t in sc.titles] == [f"cyclic, τ = {num(t)}" for t in TAUS]  # both sides pick from these
    assert sc.view.start == 7
    far = page_from_url({"ds": "separable", "cmp": "tau", "step": "99999"}, "app_pages/compare.py")
    assert scene(far).view.start == 99999  # the renderer opens at the last step, and the page says so
    assert any("asked for step 99,999; the longer run has" in i.value for i in far.info)


@pytest.mark.parametrize("query, family", [
    ({"cmp": "tau"}, True),  # ten runs of 1,000 steps: every τ sent, followed in the browser
    ({"cmp": "tau", "cmp_steps": "5000"}, False),  # past the budget: the two runs shown
    ({"cmp": "tau", "tau_a": "0.5", "tau_b": "0.5", "cmp_steps": "5000"}, False),  # one run, on both sides
    ({"cmp": "order", "cmp_steps": "1500"}, False),  # twenty runs of 1,500 steps: past it
    # 25 C's hinge runs and the perceptron's of 1,000 steps, after the C shown's
    ({"cmp": "svm", "data_seed": "21"}, True),
    ({"cmp": "svm", "cmp_steps": "1100", "data_seed": "22", "C": "0.1"}, False)])
def test_compare_sends_a_family_only_within_its_budget(query, family):
    at = page_from_url({"ds": "separable", **query}, "app_pages/compare.py")
    assert not at.error and not at.exception
    if query["cmp"] == "svm":
        assert scene(at).partial == family  # (a partial record only where the family will follow)
        at.run()
    sc = scene(at)
    assert not sc.partial
    assert (len(sc.runs) > 2) == family
    assert (sc.sides is not None and any(side["follow"] for side in sc.sides)) == family
    assert any("only the two runs shown are sent" in c.value for c in at.caption) == (not family)
    if query.get("C") == "0.1":  # the run of the C shown, and its exact SVM
        assert sc.runs[1].run["C"] == 0.1 and [d["C"] for d in sc.reference] == [0.1]
    if query.get("tau_a") == "0.5":  # the same run sent once, shown on both sides
        assert len(sc.runs) == 1 and [s["runs"] for s in sc.sides] == [[0], [0]] and sc.runs[0].run["tau"] == 0.5


@pytest.mark.parametrize("query, ahead", [
    ({"ds": "XOR", "n_xor": "200"}, ["random", "batch", "minibatch"]),  # cyclic shown: the others (mini-batch last)
    ({"ds": "XOR", "n_xor": "200", "variant": "mini-batch", "B": "20"}, ["cyclic", "random", "batch"]),
    ({"ds": "XOR", "n_xor": "3000"}, []),  # above 2,000 points nothing is made ahead
    ({"ds": "XOR", "n_xor": "200", "max_steps": "1100"}, [])])  # nor past 1,000 steps
def test_the_record_names_the_variants_the_server_makes_ahead(query, ahead):
    """The Perceptron record's memo names the variants the chart may ask to be made ahead (app_pages/perceptron.py; a
    mini-batch's at the B the page's box shows: glue.ahead.Ahead.answer)."""
    at = page_from_url(query)
    assert not at.error and not at.exception
    assert scene(at).memo["ahead"] == ahead
