"""The quiz's chart in Chromium: the page's own record shown as a question (``View.quiz``, ``viz/js/quiz.js``).

Open, it must draw the state after step k with exactly the points step k + 1 examines lit and nothing that gives the
answer away (no ring of M, no words of step k + 1); answered, step k + 1 as the step-through chart draws it, the points
updated on (the core's) ringed and a wrong pick crossed. A quiz the record cannot hold is named.
"""

from __future__ import annotations

import html

import numpy as np
import pytest
from oracles import describe_step, point_set
from playwright.sync_api import Page
from test_e2e_scene import mount, points, renderer  # noqa: F401  (the page holding the renderer)

from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.common import boundary_segment, sub, view_box
from viz.scene import View, perceptron_scene, with_view


def asked(page: Page) -> dict:
    return page.evaluate("""() => {
        const v = window.__dblView, d = v.drawn();
        return {step: v.step, text: document.querySelector('#scene .dbls-text').innerHTML,
                state: document.querySelector('#scene .dbls-state').textContent,
                legend: [...document.querySelectorAll('#scene .dbls-legend button')].map((b) => b.dataset.part),
                controls: document.querySelectorAll('#scene .dbls-controls, #scene .dbls-strip').length,
                ring: d.ring, exam: d.exam, line: d.line, old: d.old, updatedOn: d.updatedOn, wrong: d.wrong,
                rings_drawn: Number(document.querySelector('#scene canvas.dbls-rings').dataset.rings)};
    }""")


def clip_of(X):
    box = view_box(X)
    span = box[1] - box[0]
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    return (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)


def test_a_question_hides_the_answer_and_the_answer_draws_the_step(renderer):  # noqa: F811
    rng = np.random.default_rng(5)
    X = rng.integers(-3, 4, size=(30, 2)).astype(float)  # ties on the boundary
    y = np.where(X[:, 0] - X[:, 1] > 0, 1, -1)
    y[[3, 8]] = -y[[3, 8]]
    for kw in ({"variant": "cyclic"}, {"variant": "minibatch", "batch_size": 5, "seed": 2},
               {"variant": "random", "seed": 1, "update_on": "negative", "w0": (0.5, -1.0)}):
        traj = run_perceptron(X, y, max_steps=60, **kw)
        blob = perceptron_scene([traj, run_perceptron(X, y, max_steps=60, tau=2.0, **kw)]).to_bytes()
        clip = clip_of(X)
        assert traj.n_updates > 2
        for k in sorted({0, int(traj.update_steps[1]) - 1, *rng.integers(0, traj.n_steps, 3).tolist()}):
            mount(renderer, with_view(blob, View(tau=traj.tau, quiz={"step": k, "answered": False, "pick": None})))
            got = asked(renderer)
            ex = traj.examined(k + 1)
            assert got["step"] == k and got["text"] == "" and got["controls"] == 0
            assert got["ring"]["x"] == [] and got["rings_drawn"] == 0 and "ring" not in got["legend"]  # M not shown
            assert points(got["exam"]) == {tuple(v) for v in X[ex].tolist()}
            (w,), (b,) = traj.states([k])
            assert (got["line"]["x"], got["line"]["y"]) == tuple(boundary_segment(clip, w, float(b)))
            assert "misclassified" not in got["state"]
            assert got["state"].endswith(f"; step {k + 1} examines {point_set(ex)}")
            # answered with a point the step does not update on
            upd = traj.updated(k + 1)
            pick = int(next(i for i in range(len(y)) if i not in upd))
            mount(renderer, with_view(blob, View(tau=traj.tau, quiz={"step": k, "answered": True, "pick": pick})))
            got = asked(renderer)
            snap = traj[k + 1]
            assert got["step"] == k + 1
            assert html.unescape(got["text"]) == describe_step(traj, k + 1, None)
            assert points(got["ring"]) == {tuple(v) for v in X[snap.misclassified].tolist()}
            assert (got["line"]["x"], got["line"]["y"]) == tuple(boundary_segment(clip, snap.w, snap.b))
            assert points(got["updatedOn"]) == {tuple(v) for v in X[upd].tolist()}
            assert points(got["wrong"]) == {tuple(X[pick].tolist())} and "wrong" in got["legend"]
            if upd.size:  # a right pick is not crossed
                mount(renderer, with_view(blob, View(tau=traj.tau, quiz={"step": k, "answered": True,
                                                                           "pick": int(upd[0])})))
                assert asked(renderer)["wrong"]["x"] == []


def test_a_quiz_the_record_cannot_hold_is_named(renderer):  # noqa: F811
    X, y = make_dataset("textbook", 3, 0)
    blob = perceptron_scene(run_perceptron(X, y)).to_bytes()
    for quiz, words in [({"step": 15, "answered": False, "pick": None}, "asks about step 15"),
                        ({"step": -1, "answered": False, "pick": None}, "asks about step -1"),
                        ({"step": 2, "answered": True, "pick": 3}, "pick is not a point of the 3")]:
        mount(renderer, with_view(blob, View(quiz=quiz)))
        msg = renderer.locator("#scene .dbls-error")
        assert msg.is_visible() and words in msg.text_content()
    mount(renderer, blob)  # the step-through chart again
    assert renderer.locator("#scene .dbls-error").count() == 0 and renderer.locator("#scene .dbls-controls").count() == 1


def test_a_quiz_on_a_run_with_its_bound_leaves_the_bound_out_of_the_legend(renderer):  # noqa: F811
    from core.bounds import mistake_bound

    X, y = make_dataset("textbook", 3, 0)
    blob = perceptron_scene(run_perceptron(X, y), mistake_bound(X, y)).to_bytes()
    for answered in (False, True):
        mount(renderer, with_view(blob, View(quiz={"step": 0, "answered": answered, "pick": 0 if answered else None})))
        assert renderer.locator("#scene .dbls-error").count() == 0
        legend = asked(renderer)["legend"]
        assert "R" not in legend and "gamma" not in legend and "exam" in legend


NAMES_AND_RINGS = """() => {
    const v = window.__dblView, fl = v.plot._fullLayout, o = v.over.getBoundingClientRect();  // (the layer's own pixels)
    const px = (x) => o.left + fl.xaxis._offset + fl.xaxis.l2p(x), py = (y) => o.top + fl.yaxis._offset + fl.yaxis.l2p(y);
    const names = [...document.querySelectorAll('#scene .dbls-name')].map((t) => {
        const r = t.getBoundingClientRect(); return {text: t.textContent, box: [r.left, r.top, r.right, r.bottom]}; });
    const m = v.m, open = !v.q.answered;  // open: the yellow disc of the point examined; answered: the green rings
    const r = open ? v.examSize / 2 : v.examSize / 2 + 3 * v.k, ringed = open ? m.examined(v.q.step + 1) : v.g.updated;
    const kids = [...v.over.children], firstName = kids.findIndex((e) => e.classList.contains('dbls-name'));
    return {names, rings: ringed.map((i) => [i, px(m.X[2 * i]), py(m.X[2 * i + 1])]), r, stroke: (open ? 3 : 4) * v.k,
            namesAfterRings: firstName > kids.findIndex((e) => e.tagName === 'path')};
}"""


def test_the_points_names_stand_clear_of_the_rings(renderer):  # noqa: F811
    """Every point is named (x₁, x₂, …), written over the rings (white-haloed), and neither the ring of a point updated
    on nor the yellow disc of the point a question examines crosses that point's own name."""
    X, y = make_dataset("blobs", 40, 3)
    traj = run_perceptron(X, y, max_steps=200)
    blob = perceptron_scene([traj]).to_bytes()
    crossings = []
    for k, answered in ((int(s) - 1, a) for s in traj.update_steps[:4] for a in (False, True)):
        mount(renderer, with_view(blob, View(tau=traj.tau, quiz={"step": k, "answered": answered, "pick": None})))
        got = renderer.evaluate(NAMES_AND_RINGS)
        assert sorted(n["text"] for n in got["names"]) == sorted(f"x{sub(i + 1)}" for i in range(len(y)))
        assert got["rings"] and got["namesAfterRings"]  # the step's ring is drawn, and every name over it
        inner, outer = got["r"] - got["stroke"] / 2, got["r"] + got["stroke"] / 2
        for i, cx, cy in got["rings"]:
            x0, y0, x1, y1 = next(n["box"] for n in got["names"] if n["text"] == f"x{sub(i + 1)}")
            near = np.hypot(max(x0 - cx, 0, cx - x1), max(y0 - cy, 0, cy - y1))
            far = max(np.hypot(x - cx, yy - cy) for x in (x0, x1) for yy in (y0, y1))
            if near <= outer and far >= inner:  # the name's box meets its ring's stroke
                crossings.append((k, i))
    assert not crossings


@pytest.mark.parametrize("scale", [1.0, 1.3])
def test_the_points_names_lie_over_no_other_name(renderer, scale):  # noqa: F811
    """Forty points, as a class draws them, on the quiz's chart (and in presentation mode's 1.3×): each name takes a
    corner of its point where it lies over no other name (the names of crowded points lay over each other)."""
    X, y = make_dataset("blobs", 40, 0)
    traj = run_perceptron(X, y, max_steps=200)
    mount(renderer, with_view(perceptron_scene([traj]).to_bytes(),
                              View(height=560, scale=scale, tau=traj.tau, quiz={"step": 0, "answered": False, "pick": None})))
    boxes = [n["box"] for n in renderer.evaluate(NAMES_AND_RINGS)["names"]]
    assert len(boxes) == len(y)
    shrink = 2  # (px: the halo's edge)
    over = [(a, b) for j, a in enumerate(boxes) for b in boxes[j + 1:]
            if a[0] + shrink < b[2] and b[0] + shrink < a[2] and a[1] + shrink < b[3] and b[1] + shrink < a[3]]
    assert not over, over


def test_a_click_within_the_lit_disc_picks_the_point_asked_about(renderer):  # noqa: F811
    """Points overlap (40 XOR points do): a click within the lit disc of the point step k + 1 examines answers with
    that point, even where another point lies nearer the pointer (plotly.js names the nearest); a click outside the
    disc answers with the point plotly.js names."""
    X = np.array([[0.0, 0.0], [0.12, 0.0], [2.0, 1.5], [-2.0, -1.5], [1.5, -2.0], [-1.5, 2.0]])
    y = np.array([1, -1, 1, -1, 1, -1])
    traj = run_perceptron(X, y, max_steps=20)  # cyclic: step 1 examines x₁
    assert traj.examined(1).tolist() == [0]
    mount(renderer, with_view(perceptron_scene(traj).to_bytes(), View(quiz={"step": 0, "answered": False, "pick": None})))
    sent = renderer.evaluate("""(t) => {
        const root = document.getElementById('scene'), v = window.__dblView, fl = v.plot._fullLayout;
        const r = v.plot.getBoundingClientRect(), out = [];
        dbl(root).send = (name, value) => { out.push(value.i); };
        const at = (i) => [r.left + fl.xaxis._offset + fl.xaxis.l2p(v.m.X[2 * i]), r.top + fl.yaxis._offset + fl.yaxis.l2p(v.m.X[2 * i + 1])];
        const [ax, ay] = at(0), [bx, by] = at(1), d = Math.hypot(bx - ax, by - ay), reach = v.examSize / 2;
        const click = (x, y, named) => v.pick({points: [{customdata: named + 1}], event: {clientX: x, clientY: y}});
        const f = Math.min(0.9 * reach / d, 0.9);  // within x₁'s disc, past halfway to x₂ where the disc reaches
        click(ax + f * (bx - ax), ay + f * (by - ay), 1);
        click(bx + (reach + 6) * (bx - ax) / d, by, 1);  // beyond the disc, on x₂'s far side
        dbl(root).send = undefined;
        return {out, f, d, reach};
    }""", None)
    assert sent["f"] > 0.5, sent  # (the click stood nearer x₂ than x₁)
    assert sent["out"] == [0, 1]


def test_a_hovered_point_s_label_keeps_the_answer_until_answered(renderer):  # noqa: F811
    """While the question is open a hovered point's label names it and its place alone (whether it is in M is the
    answer); once answered, it says that too, as the step-through chart does."""
    X, y = make_dataset("xor", 40, 0)
    traj = run_perceptron(X, y, max_steps=60)
    label = "(i) => window.__dblView.tipFor(i)"
    for answered in (False, True):
        mount(renderer, with_view(perceptron_scene([traj]).to_bytes(),
                                  View(tau=traj.tau, quiz={"step": 0, "answered": answered, "pick": None})))
        got = renderer.evaluate(label, 0)
        assert got.startswith("x₁ = (") and ("after step 1" in got) == answered, got
        assert got.endswith(": click to pick it") != answered, got


def test_the_off_view_note_keeps_off_the_point_asked_about_where_every_place_covers_points(renderer):  # noqa: F811
    """Points everywhere on the panel (no free place for the note of w = 0): the note covers some, but never the
    point the question lights (it weighs a thousand)."""
    g = np.linspace(-3.0, 3.0, 25)
    X = np.array([(a, b) for b in g[::-1] for a in g])  # row by row from the top left: x₁ stands in that corner
    y = np.where(X[:, 0] + 0.1 * X[:, 1] > 0.05, 1, -1)
    traj = run_perceptron(X, y, max_steps=5)
    renderer.set_viewport_size({"width": 460, "height": 900})  # (a panel near square: no band past the points is free)
    try:
        mount(renderer, with_view(perceptron_scene([traj]).to_bytes(),
                                  View(height=440, tau=traj.tau, quiz={"step": 0, "answered": False, "pick": None})))
        got = renderer.evaluate(NOTE_AND_LIT)
    finally:
        renderer.set_viewport_size({"width": 1200, "height": 900})
    assert got["lit"] == [0] and got["under"] and 0 not in got["under"], got


NOTE_AND_LIT = """() => {
        const v = window.__dblView, m = v.m, fl = v.plot._fullLayout, o = v.over.getBoundingClientRect();
        const t = document.querySelector('#scene .dbls-offview').getBoundingClientRect(), under = [];
        for (let i = 0; i < m.N; i++) {
          const x = o.left + fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]), y = o.top + fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1]);
          if (x > t.left && x < t.right && y > t.top && y < t.bottom) under.push(i);
        }
        return {under, lit: m.examined(1), plot: [fl.xaxis._length, fl.yaxis._length]};
    }"""


def test_an_open_question_draws_nothing_its_legend_does_not_name(renderer):  # noqa: F811
    """The question after an update draws no boundary before it nor update arrow (its legend names neither: they
    stood on the chart unnamed), and a batch question, which lights no point, has no "examined" entry."""
    X, y = make_dataset("textbook", 3, 0)
    for variant in ("cyclic", "batch"):
        traj = run_perceptron(X, y, variant=variant, max_steps=60)
        k = int(traj.update_steps[1])  # (the state after an update)
        mount(renderer, with_view(perceptron_scene([traj]).to_bytes(),
                                  View(tau=traj.tau, quiz={"step": k, "answered": False, "pick": None})))
        got = renderer.evaluate("""() => { const v = window.__dblView, d = v.drawn();
            return {old: d.old.x.length, upd: d.upd.x.length, exam: d.exam.x.length,
                    legend: [...document.querySelectorAll('#scene .dbls-legend button')].map((b) => b.dataset.part)}; }""")
        assert got["old"] == 0 and got["upd"] == 0, (variant, got)
        assert ("exam" in got["legend"]) == (variant != "batch") and bool(got["exam"]) == (variant != "batch"), (variant, got)
