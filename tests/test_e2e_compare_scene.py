"""The Compare renderer in Chromium: what each panel draws at common step t is its run's core state at that step.

The renderer (``viz/js/compare.js`` over the modules they import) runs as in the offline HTML export. For random
runs with ties and duplicate points, perceptron against perceptron and perceptron against hinge SGD, at
random steps: each panel's rings are exactly the core's M (or the active hinges, y·(w·x+b) < 1), its boundary
the core's (w, b), the examined points the core's (none once a run has ended), the previous boundary drawn
exactly on the steps that moved it by a data term, and the state lines exactly the Python reference's
(:func:`oracles.compare_state`). A record it cannot draw is named, and the last chart stays.
"""

from __future__ import annotations

import numpy as np
import pytest
from e2e_helpers import exported_figure
from oracles import compare_state
from playwright.sync_api import Page
from test_e2e_scene import mount, points, refused, renderer  # noqa: F401  (the page holding the renderer)
from test_viz_compare import shifted_activation, tied

from core.perceptron import run_perceptron
from core.snapshot import activation
from core.svm import HingeRun, fit_svm, hinge_sgd
from datasets import make_dataset
from viz.common import boundary_segment, num, view_box
from viz.scene import View, compare_scene, pack, unpack, with_view


def drawn_at(page: Page, t: int) -> dict:
    return page.evaluate("""(t) => {
        const v = window.__dblView;
        v.show(t);
        return {step: v.step, panels: v.drawn(),
                states: [...document.querySelectorAll('#scene .dbls-cmp-state')].map((e) => e.textContent),
                titles: [...document.querySelectorAll('#scene .dbls-cmp-title')].map((e) => e.textContent),
                live: document.querySelector('#scene .dbls-live').textContent,
                at: document.querySelector('#scene .dbls-at').textContent,
                rings: [...document.querySelectorAll('#scene canvas.dbls-rings')].map((c) => Number(c.dataset.rings))};
    }""", t)


def state_of(run, s: int):
    """(w, b, the ringed mask, the examined points, whether step s moved the boundary by a data term)."""
    if isinstance(run, HingeRun):
        X, y = run.X, run.y
        w, b = run.W[s], float(run.B[s])
        ring = y * activation(X, w, b) < 1.0
        ex = [int(run.order[s - 1])] if s else []
        return w, b, ring, ex, bool(s and run.active[s - 1])
    snap = run[s]
    ex = [] if run.variant == "batch" else snap.examined.tolist()
    return snap.w, snap.b, snap.misclassified, ex, snap.updated.size > 0


def check_pair(page: Page, left, right, steps, reference=None, mounted: bool = False) -> None:
    """At each of ``steps``, each panel draws its run's core state (``mounted``: the scene holding them is drawn)."""
    if not mounted:
        mount(page, compare_scene(left, right, reference=reference).to_bytes())
    X = left.X if isinstance(left, HingeRun) else left.problem.X
    box = view_box(X)
    span = box[1] - box[0]
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    clip = (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)
    T = max(left.n_steps, right.n_steps)
    for t in steps:
        got = drawn_at(page, int(t))
        assert got["step"] == t and got["at"] == f"Step {t:,} of {T:,}"
        for j, run in enumerate((left, right)):
            s = min(int(t), run.n_steps)
            w, b, ring, ex, moved = state_of(run, s)
            live = s == t
            p = got["panels"][j]
            assert p["s"] == s
            assert points(p["ring"]) == {tuple(x) for x in X[ring].tolist()}, (j, t)
            assert got["rings"][j] == int(ring.sum()), (j, t)
            assert (p["line"]["x"], p["line"]["y"]) == tuple(boundary_segment(clip, w, b)), (j, t)
            assert points(p["exam"]) == ({tuple(x) for x in X[ex].tolist()} if live else set()), (j, t)
            if live and moved:
                wp, bp = state_of(run, s - 1)[:2]
                assert (p["old"]["x"], p["old"]["y"]) == tuple(boundary_segment(clip, wp, float(bp))), (j, t)
            else:
                assert p["old"]["x"] == [], (j, t)
            assert got["states"][j] == compare_state(run, int(t)), (j, t)
        words = [compare_state(r, int(t)).replace("\n", "; ") for r in (left, right)]
        assert got["live"] == (f"Step {t:,} of {T:,}. Left, {got['titles'][0].split(chr(10))[0]}: {words[0]}. "
                               f"Right, {got['titles'][1].split(chr(10))[0]}: {words[1]}.")


def some_steps(T: int, rng, k: int = 12) -> list[int]:
    return sorted({0, 1, T, *rng.integers(0, T + 1, size=k).tolist()})


@pytest.mark.parametrize("seed", [0, 1])
def test_perceptron_against_hinge_sgd_with_ties_and_duplicates(renderer, seed):  # noqa: F811
    X, y = tied(seed)
    rng = np.random.default_rng(seed)
    left = run_perceptron(X, y, variant="random", seed=seed, max_steps=150)
    right = hinge_sgd(X, y, C=1.0, max_steps=200, seed=seed)
    check_pair(renderer, left, right, some_steps(200, rng), reference=fit_svm(X, y, C=1.0))
    # the exact SVM is drawn on the hinge panel only (over it, with the step: a new C draws no points again), where its
    # w·x + b = 0 lies
    sol = fit_svm(X, y, C=1.0)
    box = view_box(X)
    span, cx, cy = box[1] - box[0], (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    panels = drawn_at(renderer, 5)["panels"]
    assert panels[0]["ref"] is None
    assert (panels[1]["ref"]["x"], panels[1]["ref"]["y"]) == tuple(
        boundary_segment((cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span), sol.w, sol.b))
    strokes = renderer.evaluate("() => [...document.querySelectorAll('#scene svg.dbls-over')].map((g) =>"
                                " [...g.querySelectorAll('[stroke]')].map((e) => e.getAttribute('stroke').toUpperCase()))")
    assert ["#CC79A7" in s for s in strokes] == [False, bool(panels[1]["ref"]["x"])]  # (seed 1: w* ≈ 0, no line)
    assert seed or panels[1]["ref"]["x"]
    assert renderer.evaluate("() => window.__dblView.plots.map((gd) => gd.data.length)") == [2, 2]  # the points


@pytest.mark.parametrize("kw", [{"variant": "cyclic"}, {"variant": "minibatch", "batch_size": 8},
                                {"variant": "batch", "tau": 0.5}, {"variant": "random", "update_on": "negative"}])
def test_perceptron_against_perceptron_every_variant(renderer, kw):  # noqa: F811
    X, y = tied(3)
    rng = np.random.default_rng(3)
    left = run_perceptron(X, y, max_steps=90, **kw)
    right = run_perceptron(X, y, variant="random", tau=0.1, max_steps=60, seed=1)
    check_pair(renderer, left, right, some_steps(max(left.n_steps, right.n_steps), rng))


def test_the_shorter_run_holds_and_says_so(renderer):  # noqa: F811
    X, y = make_dataset("outlier", 40, 0)  # no line separates them: each run goes to its max steps
    left = run_perceptron(X, y, max_steps=100)
    right = run_perceptron(X, y, variant="random", tau=0.1, max_steps=400)
    assert left.n_steps < right.n_steps
    check_pair(renderer, left, right, [left.n_steps, left.n_steps + 1, right.n_steps])
    got = drawn_at(renderer, right.n_steps)
    assert got["states"][0].startswith(f"finished at step {left.n_steps} (holds its last state)\n")


def test_two_thousand_points(renderer):  # noqa: F811
    X, y = make_dataset("xor", 2000, 0)
    left, right = run_perceptron(X, y, variant="random"), hinge_sgd(X, y, C=1.0, max_steps=1000)
    check_pair(renderer, left, right, [0, 1, 333, 999, 1000])


def test_a_broken_record_is_named_and_the_last_chart_stays(renderer):  # noqa: F811
    X, y = make_dataset("separable", 40, 0)
    good = compare_scene(run_perceptron(X, y), hinge_sgd(X, y, C=1.0, max_steps=50)).to_bytes()
    mount(renderer, good)
    header, arrays = unpack(good)
    broken = [
        ({**header, "runs": header["runs"][:1]}, arrays),
        ({**header, "runs": [header["runs"][0], {**header["runs"][1], "kind": "svm"}]}, arrays),
        (header, {**arrays, "W.1": arrays["W.1"][:-2]}),
        (header, {**arrays, "order.1": np.full_like(arrays["order.1"], 999)}),
        ({**header, "reference": [{"w": [1.0], "b": 0.0, "C": 1.0}]}, arrays),
        ({**header, "reference": {"w": [1.0, 0.0], "b": 0.0, "C": 1.0}}, arrays),  # (one, not a list)
        ({**header, "titles": ["one"]}, arrays),
    ]
    for h, a in broken:
        refused(renderer, pack({k: v for k, v in h.items() if k != "arrays"}, a), h)
        # the last good chart is still there, dimmed
        assert renderer.locator("#scene .dbls-cmp-state").first.text_content().split("\n")[-1].startswith("Step ")
    mount(renderer, good)
    assert renderer.locator("#scene .dbls-error").count() == 0


def test_the_renderer_rings_what_the_core_decided_where_it_differs_from_the_rule(renderer, monkeypatch):  # noqa: F811
    import viz.scene

    X, y = make_dataset("blobs", 30, 0)
    run = hinge_sgd(X, y, C=1.0, max_steps=60, seed=2)
    patched = shifted_activation(activation)
    monkeypatch.setattr(viz.scene, "activation", patched)  # the record's exceptions: points 0 and 1
    mount(renderer, compare_scene(run_perceptron(X, y, max_steps=20), run).to_bytes())
    for t in (0, 5, 30, 60):
        got = drawn_at(renderer, t)
        core = y * patched(X, run.W[t:t + 1], run.B[t:t + 1])[0]
        assert points(got["panels"][1]["ring"]) == {tuple(x) for x in X[core < 1.0].tolist()}, t
        named = got["states"][1]
        assert f"margin < 1 (in squares): {int((core < 1.0).sum())} of 30" in named, t


def test_the_image_export_draws_both_panels_with_their_words(renderer):  # noqa: F811
    X, y = make_dataset("outlier", 40, 0)
    left, right = run_perceptron(X, y, max_steps=60), hinge_sgd(X, y, C=1.0, max_steps=60)
    mount(renderer, compare_scene(left, right, reference=fit_svm(X, y, C=1.0)).to_bytes())
    drawn_at(renderer, 12)
    fig = exported_figure(renderer)
    assert fig["error"] is None, fig["error"]
    assert "exact SVM (C = 1): w*·x + b* = 0" in fig["names"] and "boundary w·x + b = 0" in fig["names"]
    notes = " ".join(fig["notes"])
    assert "random order" not in notes and "cyclic, τ = 1" in notes and "hinge SGD (SVM), C = 1" in notes
    assert compare_state(left, 12).split("\n")[-1].split(":")[0] in notes  # "Step 12 of 60"


def set_control(page: Page, label: str, value: str | None) -> None:
    """A chart's own control labelled ``label`` shows ``value`` (viz/js/tune.js; the exported file draws none, and
    stands in for one with this); None: no such control."""
    page.evaluate("([label, value]) => window.__dbl.setControl(label, value)", [label, value])
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def test_each_side_follows_its_own_control_in_the_browser(renderer):  # noqa: F811
    """τ left and τ right pick from one family of runs (sent once): moving one redraws its panel at the same step,
    with no new record."""
    X, y = tied(2)
    rng = np.random.default_rng(2)
    taus = (0.1, 0.5, 2.0)
    family = [run_perceptron(X, y, variant="random", seed=1, tau=t, max_steps=120) for t in taus]
    blob = compare_scene(family, family, follow=("τ left", "τ right")).to_bytes()
    assert len(unpack(blob)[0]["runs"]) == 3  # a run on both sides travels once
    set_control(renderer, "τ left", "0.5")
    set_control(renderer, "τ right", "2.0")
    try:
        mount(renderer, blob)
        check_pair(renderer, family[1], family[2], some_steps(120, rng, 4), mounted=True)
        drawn_at(renderer, 37)
        ready = renderer.evaluate("() => document.querySelector('#scene').dataset.ready")
        set_control(renderer, "τ right", "0.1")  # the right panel follows, the left stays
        assert renderer.evaluate("() => window.__dblView.step") == 37
        assert renderer.evaluate("() => document.querySelector('#scene').dataset.ready") == ready  # no new record
        check_pair(renderer, family[1], family[0], some_steps(120, rng, 4), mounted=True)
        set_control(renderer, "τ left", "2.0")
        check_pair(renderer, family[2], family[0], [0, 5, 120], mounted=True)
    finally:
        set_control(renderer, "τ left", None)
        set_control(renderer, "τ right", None)
    # no control and nothing shown before (the offline file): the view's pair, else each side's first run
    renderer.evaluate("() => { dbl(document.querySelector('#scene')).view = null; }")
    mount(renderer, with_view(blob, View(pair=(2.0, 0.5))))
    check_pair(renderer, family[2], family[1], [0, 60], mounted=True)
    renderer.evaluate("() => { dbl(document.querySelector('#scene')).view = null; }")
    mount(renderer, compare_scene(family[:2], family[1:], follow=("τ left", "τ right")).to_bytes())
    check_pair(renderer, family[0], family[1], [0, 60], mounted=True)


def test_a_family_of_batch_sizes_follows_b(renderer):  # noqa: F811
    X, y = tied(3)
    family = [run_perceptron(X, y, variant="minibatch", batch_size=b, seed=4, max_steps=60) for b in (1, 4, 16)]
    set_control(renderer, "B left", "16")
    set_control(renderer, "B right", "1")
    try:
        mount(renderer, compare_scene(family, family, follow=("B left", "B right"), key="batch_size").to_bytes())
        check_pair(renderer, family[2], family[0], [0, 1, 30, 60], mounted=True)
        set_control(renderer, "B right", "4")
        check_pair(renderer, family[2], family[1], [0, 1, 30, 60], mounted=True)
    finally:
        set_control(renderer, "B left", None)
        set_control(renderer, "B right", None)


def test_one_run_on_both_sides_is_sent_once_and_drawn_twice(renderer):  # noqa: F811
    X, y = tied(1)
    run = run_perceptron(X, y, variant="cyclic", tau=0.5, max_steps=80)
    blob = compare_scene(run, run).to_bytes()
    assert len(unpack(blob)[0]["runs"]) == 1
    check_pair(renderer, run, run, [0, 1, 40, 80], mounted=False)


def test_a_family_of_c_follows_c_with_its_exact_svm_and_a_partial_record_waits(renderer):  # noqa: F811
    """Perceptron against hinge SGD with a run for every C of the control (the Compare page's record): the right panel
    and its dashed exact SVM follow C in the browser, at the same step, with no new record. A partial record (the C
    shown alone) never draws another C's run under the control: it is dimmed and busy until the server's arrives."""
    X, y = tied(6)
    rng = np.random.default_rng(6)
    cs = (0.1, 1.0, 10.0)
    perc = run_perceptron(X, y, variant="random", seed=3, max_steps=90)
    family = [hinge_sgd(X, y, C=c, max_steps=120, seed=3) for c in cs]
    sols = [fit_svm(X, y, C=c) for c in cs]
    box = view_box(X)
    span, cx, cy = box[1] - box[0], (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    clip = (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)

    def exact_drawn(sol) -> None:
        got = drawn_at(renderer, renderer.evaluate("() => window.__dblView.step"))
        assert got["panels"][0]["ref"] is None  # the perceptron's panel has no exact SVM
        ref = got["panels"][1]["ref"]
        assert (ref["x"], ref["y"]) == tuple(boundary_segment(clip, sol.w, sol.b))
        legend = renderer.locator("#scene .dbls-legend").text_content()
        assert f"exact SVM (C = {sol.C:g})" in legend

    def dimmed() -> bool:
        return renderer.evaluate("() => { const r = document.querySelector('#scene');"
                                 " return r.classList.contains('dbls-waiting') && r.getAttribute('aria-busy') === 'true'; }")

    set_control(renderer, "SVM penalty C", "1")
    try:
        mount(renderer, compare_scene(perc, family, reference=sols, follow=(None, "SVM penalty C"), key="C").to_bytes())
        check_pair(renderer, perc, family[1], some_steps(120, rng, 4), mounted=True)
        exact_drawn(sols[1])
        drawn_at(renderer, 50)
        ready = renderer.evaluate("() => document.querySelector('#scene').dataset.ready")
        set_control(renderer, "SVM penalty C", "10")
        assert renderer.evaluate("() => window.__dblView.step") == 50
        assert renderer.evaluate("() => document.querySelector('#scene').dataset.ready") == ready  # no new record
        check_pair(renderer, perc, family[2], some_steps(120, rng, 4), mounted=True)
        exact_drawn(sols[2])
        set_control(renderer, "SVM penalty C", "0.1")
        check_pair(renderer, perc, family[0], [0, 7, 120], mounted=True)
        exact_drawn(sols[0])
        assert not dimmed()

        # the partial record: C = 1 alone; C moved away dims it and shows no other run, back to 1 undims it
        set_control(renderer, "SVM penalty C", "1")
        mount(renderer, compare_scene(perc, family[1], reference=sols[1], follow=(None, "SVM penalty C"), key="C",
                                      partial=True).to_bytes())
        check_pair(renderer, perc, family[1], [0, 60], mounted=True)
        assert not dimmed()
        set_control(renderer, "SVM penalty C", "10")
        assert dimmed()
        check_pair(renderer, perc, family[1], [60], mounted=True)  # still C = 1's run: never another C's under it
        set_control(renderer, "SVM penalty C", "1")
        assert not dimmed()
        set_control(renderer, "SVM penalty C", "10")
        mount(renderer, compare_scene(perc, family, reference=sols, follow=(None, "SVM penalty C"), key="C").to_bytes())
        assert not dimmed()  # the whole family arrived: C = 10's run, at the same step
        assert renderer.evaluate("() => window.__dblView.step") == 60
        check_pair(renderer, perc, family[2], [60, 120], mounted=True)
    finally:
        set_control(renderer, "SVM penalty C", None)


def test_the_hinge_panel_s_rings_are_square_and_m_s_round(renderer):  # noqa: F811
    """Perceptron against hinge SGD: M's rings (left) and the margin < 1 rings (right) look alike but mean different
    things: the hinge panel's are square, on the screen (painted: ink at a square's corner, none at a circle's), in its
    legend and in the exported image."""
    X = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0], [4.0, 4.0], [2.0, 8.0], [8.0, 2.0]])  # far apart
    y = np.array([1, -1, -1, 1, 1, -1])  # (no line separates them: rings on both sides)
    left = run_perceptron(X, y, variant="random", seed=0, max_steps=150)
    right = hinge_sgd(X, y, C=1.0, max_steps=200, seed=0)
    mount(renderer, compare_scene(left, right).to_bytes())
    got = renderer.evaluate("""() => {
        const v = window.__dblView; v.show(12);
        const dpr = window.devicePixelRatio || 1, out = [];
        v.g.forEach((p, j) => {
            const fl = v.plots[j]._fullLayout, ctx = v.canvases[j].getContext('2d'), r = v.ring[0] / 2;
            const xs = p.ring[0], ys = p.ring[1];
            const at = (x, y) => [fl.xaxis._offset + fl.xaxis.l2p(x), fl.yaxis._offset + fl.yaxis.l2p(y)];
            for (let i = 0; i < xs.length; i++) {
                const [cx, cy] = at(xs[i], ys[i]);
                let alone = true;
                for (let q = 0; q < v.m.N && alone; q++) {
                    const [u, w] = at(v.m.X[2 * q], v.m.X[2 * q + 1]);
                    alone = (u === cx && w === cy) || Math.hypot(u - cx, w - cy) > 2.5 * r;
                }
                if (!alone) continue;
                const ink = (x, y) => ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data[3];
                out.push([j, ink(cx + 0.9 * r, cy + 0.9 * r), ink(cx + r, cy)]);
            }
        });
        return {corners: out, legend: [...document.querySelectorAll('#scene .dbls-legend button')].map((b) =>
                    [b.dataset.part, b.querySelector('svg').innerHTML.includes('<rect')]),
                symbols: v.figure().data.filter((t) => t.name === 'ring' || t.name === 'hinge' ||
                    (t.marker && /open$/.test(t.marker.symbol || ''))).map((t) => t.marker.symbol)}; }""")
    left_corners = [c for c in got["corners"] if c[0] == 0]
    right_corners = [c for c in got["corners"] if c[0] == 1]
    assert left_corners and right_corners, (got["corners"], renderer.evaluate("() => window.__dblView.g.map((p) => p.ring[0].length)"))
    assert all(c[1] == 0 and c[2] > 0 for c in left_corners)  # round: ink on the circle, none at the corner
    assert all(c[1] > 0 for c in right_corners)  # square: ink at its corner
    assert dict(got["legend"])["hinge"] and not dict(got["legend"])["ring"]
    assert "square-open" in got["symbols"] and "circle-open" in got["symbols"]


def test_a_hovered_point_s_label_says_what_each_panel_rings(renderer):  # noqa: F811
    """Each panel's label for a hovered point names it and says whether it is in that run's ringed set at the step
    shown, as the core judged it (M for the perceptron, an active hinge for hinge SGD), ties and duplicates included."""
    X, y = tied(0)
    left = run_perceptron(X, y, variant="random", seed=0, max_steps=150)
    right = hinge_sgd(X, y, C=1.0, max_steps=200, seed=0)
    mount(renderer, compare_scene(left, right).to_bytes())
    words = {(False, True): "in M: y·(w·x + b) ≤ 0", (False, False): "classified right: y·(w·x + b) > 0",
             (True, True): "hinge active: y·(w·x + b) < 1", (True, False): "no hinge loss: y·(w·x + b) ≥ 1"}
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    for t in (0, 9, 120, 200):
        renderer.evaluate("(t) => window.__dblView.show(t)", t)
        for j, run in enumerate((left, right)):
            s = renderer.evaluate("(j) => window.__dblView.g[j].s", j)
            ring = state_of(run, s)[2]
            got = renderer.evaluate("""([j, n]) => {
                const v = window.__dblView, tip = document.querySelectorAll('#scene .dbls-tip')[j], out = [];
                for (let i = 0; i < n; i++) { v.hoverPanel(j, {points: [{customdata: i + 1}]}); out.push(tip.hidden ? null : tip.innerText); }
                v.hoverPanel(j, null);
                return [out, tip.hidden];
            }""", [j, len(y)])
            hinge = isinstance(run, HingeRun)
            assert got[0] == [f"x{str(i + 1).translate(sub)} = ({num(X[i, 0])}, {num(X[i, 1])}), y = {'+1' if y[i] > 0 else '−1'}\n"
                              f"{words[hinge, bool(ring[i])]} after step {s}" for i in range(len(y))], (t, j)
            assert got[1]  # (the pointer gone: no label)
