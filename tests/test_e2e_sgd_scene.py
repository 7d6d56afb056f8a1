"""The hinge-SGD renderer in Chromium: what it draws at step s is the core's run at step s.

The renderer (``viz/js/sgd.js`` over compare.js and the modules they import) runs as in the offline HTML export. At
random steps of runs with ties and duplicate points: the rings are exactly the points with y·(w·x+b) < 1 as the
core sums it, the drawn point the core's, the boundary and both margin lines the core's (w, b), J the core's
objective, and the words exactly the Python references' (:func:`oracles.sgd_step_text`, :func:`oracles.sgd_state`).
A record it cannot draw is named, and the last chart stays.
"""

from __future__ import annotations

import html

import numpy as np
import pytest
from e2e_helpers import exported_figure
from oracles import sgd_state, sgd_step_text
from playwright.sync_api import Page
from test_e2e_compare_scene import set_control
from test_e2e_scene import mount, points, refused, renderer  # noqa: F401  (the page holding the renderer)
from test_viz_compare import tied

from core.snapshot import activation
from core.svm import fit_svm, hinge_sgd
from datasets import make_dataset
from viz.common import boundary_segment, view_box
from viz.scene import View, pack, sgd_scene, unpack, with_view


def drawn_at(page: Page, s: int) -> dict:
    return page.evaluate("""(s) => {
        const v = window.__dblView;
        v.show(s);
        return {...v.drawn(), text: document.querySelector('#scene .dbls-text').innerHTML,
                state: document.querySelector('#scene .dbls-state').textContent,
                live: document.querySelector('#scene .dbls-live').textContent,
                at: document.querySelector('#scene .dbls-at').textContent,
                J: Array.from(document.querySelector('#scene .dbls-strip-plot').data[0].y),
                meta: document.querySelector('#scene .dbls-plot').layout.meta};
    }""", s)


def check_sgd(page: Page, run, exact, steps, blob: bytes | None = None, mounted: bool = False) -> None:
    """Mount ``blob`` (else the run's own record; nothing where ``mounted``) and check what is drawn at ``steps``
    against ``run``."""
    if not mounted:
        mount(page, blob or sgd_scene(run, exact).to_bytes())
    page.wait_for_function("(J) => { const y = document.querySelector('#scene .dbls-strip-plot').data[0].y;"
                           " return y.length === J.length && y.every((v, i) => v === J[i]); }",
                           arg=run.objective.tolist())  # (the strip of a run a control shows follows a frame later)
    X, y = run.X, run.y
    box = view_box(X)
    span = box[1] - box[0]
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    clip = (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)
    for s in steps:
        got = drawn_at(page, int(s))
        w, b = run.W[s], float(run.B[s])
        ring = y * activation(X, w, b) < 1.0
        assert points(got["ring"]) == {tuple(x) for x in X[ring].tolist()}, s
        ex = [] if s == 0 else [X[int(run.order[s - 1])].tolist()]
        assert points(got["exam"]) == {tuple(x) for x in ex}, s
        assert (got["line"]["x"], got["line"]["y"]) == tuple(boundary_segment(clip, w, b)), s
        for m, off in zip(got["margins"], (1, -1), strict=True):  # w·x + b = +1, then −1
            assert (m["x"], m["y"]) == tuple(boundary_segment(clip, w, b - off)), s
        assert html.unescape(got["text"]) == sgd_step_text(run, exact.objective, int(s)), s
        assert got["state"] == got["live"] == sgd_state(run, int(s)), s
        assert got["at"] == f"Step {s:,} of {run.n_steps:,}"
    assert got["J"] == run.objective.tolist()
    assert got["meta"]["view"] == "hinge_sgd" and got["meta"]["J_star"] == exact.objective


@pytest.mark.parametrize("seed", [0, 1])
def test_random_steps_of_runs_with_ties_and_duplicates(renderer, seed):  # noqa: F811
    X, y = tied(seed)
    rng = np.random.default_rng(seed)
    run = hinge_sgd(X, y, C=[0.5, 5.0][seed], max_steps=300, seed=seed, **({"schedule": "constant", "eta": 0.1} if seed else {}))
    check_sgd(renderer, run, fit_svm(X, y, C=run.C), sorted({0, 1, 300, *rng.integers(0, 301, size=12).tolist()}))


def test_two_thousand_points_every_step_reachable(renderer):  # noqa: F811
    X, y = make_dataset("xor", 2000, 0)
    run = hinge_sgd(X, y, C=1.0, max_steps=2000)
    check_sgd(renderer, run, fit_svm(X, y, C=1.0), [0, 999, 1000, 1999, 2000])


def test_a_broken_record_is_named_and_the_last_chart_stays(renderer):  # noqa: F811
    X, y = make_dataset("separable", 40, 0)
    good = sgd_scene(hinge_sgd(X, y, C=1.0, max_steps=50), fit_svm(X, y, C=1.0)).to_bytes()
    mount(renderer, good)
    header, arrays = unpack(good)
    broken = [
        (header, {**arrays, "objective.0": arrays["objective.0"][:-1]}),
        (header, {k: v for k, v in arrays.items() if k != "etas.0"}),  # the run without its η
        ({**header, "exact": {"w": [1.0, "a"], "b": 0.0, "objective": 1.0}}, arrays),
        ({**header, "runs": [{**header["runs"][0], "kind": "perceptron"}]}, arrays),
        (header, {**arrays, "m_ptr.0": arrays["m_ptr.0"][:-1]}),
    ]
    for h, a in broken:
        refused(renderer, pack(h, a), h)
        assert renderer.locator("#scene .dbls-state").text_content().startswith("Step ")  # the last chart stays
    mount(renderer, good)
    assert renderer.locator("#scene .dbls-error").count() == 0


def test_a_new_c_on_the_same_points_draws_its_own_exact_svm(renderer):  # noqa: F811
    X, y = make_dataset("outlier", 40, 0)
    box = view_box(X)
    span = box[1] - box[0]
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    clip = (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)
    for C in (0.5, 5.0):  # the points stay: only the exact SVM's traces and the run change
        exact = fit_svm(X, y, C=C)
        mount(renderer, sgd_scene(hinge_sgd(X, y, C=C, max_steps=100), exact).to_bytes())
        line = renderer.evaluate("() => { const t = window.__dblView.plot.data[2]; return [Array.from(t.x), Array.from(t.y)]; }")
        assert tuple(line) == tuple(boundary_segment(clip, exact.w, exact.b)), C


def test_the_image_export_holds_the_step_its_margins_and_j(renderer):  # noqa: F811
    X, y = make_dataset("outlier", 40, 0)
    run, exact = hinge_sgd(X, y, C=1.0, max_steps=80), fit_svm(X, y, C=1.0)
    mount(renderer, sgd_scene(run, exact).to_bytes())
    drawn_at(renderer, 7)
    fig = exported_figure(renderer)
    assert fig["error"] is None, fig["error"]
    assert {"SGD margin w·x + b = ±1", "J = ½‖w‖² + C Σξ", "exact margin f = ±1"} <= set(fig["names"])
    assert None not in fig["names"]  # no unnamed traces (the Perceptron view's w and update arrows are not drawn)
    assert "Step 7" in " ".join(fig["notes"])


def test_a_family_of_eta_follows_the_eta_control_and_a_partial_record_waits(renderer):  # noqa: F811
    """The SGD tab's record of every constant η (one C): the chart shows the run of the η the page's control shows
    and follows it in the browser, at the same step, with no new record; a partial record (the η shown alone) never
    draws another η's run under the control: it is dimmed and busy until the server's arrives."""
    X, y = tied(4)
    etas = (0.05, 0.5, 2.0)
    family = [hinge_sgd(X, y, C=2.0, schedule="constant", eta=e, max_steps=150, seed=5) for e in etas]
    exact = fit_svm(X, y, C=2.0)
    blob = sgd_scene(family, exact, follow="Constant η").to_bytes()

    def dimmed() -> bool:
        return renderer.evaluate("() => { const r = document.querySelector('#scene');"
                                 " return r.classList.contains('dbls-waiting') && r.getAttribute('aria-busy') === 'true'; }")

    def ready() -> str:
        return renderer.evaluate("() => document.querySelector('#scene').dataset.ready")

    set_control(renderer, "Constant η", "0.5")
    try:
        check_sgd(renderer, family[1], exact, [0, 1, 77, 150], blob)
        drawn_at(renderer, 60)
        before = ready()
        set_control(renderer, "Constant η", "2")
        assert renderer.evaluate("() => window.__dblView.step") == 60 and ready() == before  # no new record
        assert renderer.locator("#scene .dbls-tau").is_hidden()  # the page's control picks η, not the chart
        check_sgd(renderer, family[2], exact, [60, 3, 150], mounted=True)
        set_control(renderer, "Constant η", "0.05")
        check_sgd(renderer, family[0], exact, [0, 99], mounted=True)
        assert drawn_at(renderer, 5)["meta"]["eta"] == 0.05 and not dimmed()

        set_control(renderer, "Constant η", "0.5")  # the partial record: η = 0.5 alone
        mount(renderer, sgd_scene(family[1], exact, follow="Constant η", partial=True).to_bytes())
        check_sgd(renderer, family[1], exact, [0, 40], mounted=True)
        assert not dimmed()
        set_control(renderer, "Constant η", "2")
        assert dimmed()
        check_sgd(renderer, family[1], exact, [40], mounted=True)  # still η = 0.5's run: never another η's under it
        set_control(renderer, "Constant η", "0.5")
        assert not dimmed()
        set_control(renderer, "Constant η", "2")
        mount(renderer, blob)  # every η arrived: η = 2's run, at the same step
        assert not dimmed() and renderer.evaluate("() => window.__dblView.step") == 40
        check_sgd(renderer, family[2], exact, [40, 150], mounted=True)
    finally:
        set_control(renderer, "Constant η", None)
    # no control (the offline file): the view's η, and a choice of η in the chart's controls, named η
    renderer.evaluate("() => { dbl(document.querySelector('#scene')).view = null; }")
    mount(renderer, with_view(blob, View(eta=2.0)))
    check_sgd(renderer, family[2], exact, [0, 30], mounted=True)
    pick = renderer.locator("#scene .dbls-tau")
    assert pick.is_visible() and pick.text_content().startswith("η")
    sel = renderer.locator("#scene .dbls-tau select")
    assert sel.get_attribute("aria-label") == "Step size η of the run shown"
    assert sel.locator("option").all_text_contents() == ["0.05", "0.5", "2"]
    sel.select_option("0")
    check_sgd(renderer, family[0], exact, [30, 150], mounted=True)


def test_a_family_with_a_bad_run_is_named_when_it_arrives(renderer):  # noqa: F811
    """Every run of a family is checked when the record is drawn, not when η first comes to it."""
    X, y = tied(5)
    family = [hinge_sgd(X, y, C=1.0, schedule="constant", eta=e, max_steps=40, seed=1) for e in (0.1, 1.0)]
    header, arrays = unpack(sgd_scene(family, fit_svm(X, y, C=1.0), follow="Constant η").to_bytes())
    runs = [header["runs"][0], {**header["runs"][1], "eta": "1"}]
    refused(renderer, pack({**header, "runs": runs}, arrays), "η as text")
    assert "η are not numbers" in renderer.locator("#scene .dbls-error").text_content()
    refused(renderer, pack(header, {k: v for k, v in arrays.items() if k != "objective.1"}), "run 1 without its J")
    refused(renderer, pack(header, {**arrays, "m_ptr.1": arrays["m_ptr.1"][:-1]}), "run 1's rings cut")


def test_an_eta_the_record_does_not_hold_dims_the_chart_and_shows_no_other_run(renderer):  # noqa: F811
    """An η of the control that no run of the record has (the core does not take it for these N and C: the page names
    it and keeps its last good record) is not replaced by the nearest η's run: the chart dims until one comes back."""
    X, y = tied(7)
    family = [hinge_sgd(X, y, C=0.1, schedule="constant", eta=e, max_steps=60, seed=2) for e in (0.1, 0.5)]
    exact = fit_svm(X, y, C=0.1)
    set_control(renderer, "Constant η", "0.5")
    try:
        check_sgd(renderer, family[1], exact, [0, 30], sgd_scene(family, exact, follow="Constant η").to_bytes())
        set_control(renderer, "Constant η", "10")
        assert renderer.evaluate("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        check_sgd(renderer, family[1], exact, [30], mounted=True)
        # the page's answer: its last good record, its view naming η = 10 (refused: no run of it is coming), so the
        # chart shows the run it showed, neither dimmed nor busy
        check_sgd(renderer, family[1], exact, [30], with_view(sgd_scene(family, exact, follow="Constant η").to_bytes(),
                                                              View(eta=10.0)))
        assert not renderer.evaluate("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        assert renderer.evaluate("() => document.querySelector('#scene').getAttribute('aria-busy')") == "false"
        set_control(renderer, "Constant η", "0.1")
        assert not renderer.evaluate("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        check_sgd(renderer, family[0], exact, [30, 60], mounted=True)
    finally:
        set_control(renderer, "Constant η", None)
