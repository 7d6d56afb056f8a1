"""The scene renderer in Chromium: what it draws at step k is the core's state at step k.

The renderer (``viz/js``, bundled: viz.renderer.bundle) runs here as it runs in the offline HTML export (the same module,
plotly.js inside the file, no server). For random runs of every variant, with ties and duplicate points,
at random steps, it must draw M's rings exactly on the core's M, the boundary through the core's (w, b),
the examined points the core examined, and write the arithmetic and the state line exactly as the
Python references (:func:`oracles.describe_step`, :func:`oracles.state_line_of`) do.
A record it cannot draw shows a message, never a blank or stale chart.
"""

from __future__ import annotations

import base64
import html
import re

import numpy as np
import pytest
from e2e_helpers import with_state_of
from oracles import describe_step, state_line_of
from playwright.sync_api import Page

from core.bounds import mistake_bound
from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.common import boundary_segment, num, view_box
from viz.export import scene_html
from viz.perceptron import bound_applies
from viz.scene import SCENE_VERSION, View, pack, perceptron_scene, unpack, with_view


@pytest.fixture(scope="module")
def renderer(browser, tmp_path_factory) -> Page:
    """One page holding plotly.js and the renderer (an exported file), into which each test mounts scenes."""
    X, y = make_dataset("textbook", 3, 0)
    path = tmp_path_factory.mktemp("scene") / "scene.html"
    path.write_text(scene_html(perceptron_scene(run_perceptron(X, y)).to_bytes(), "renderer"), encoding="utf-8")
    page = with_state_of(browser.new_page(viewport={"width": 1200, "height": 900}))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function("() => window.__dbl && document.querySelector('#scene').dataset.ready")
    page.errors = errors
    yield page
    page.close()


def mount(page: Page, blob: bytes) -> None:
    """Draw ``blob`` in the page's chart and wait until it is drawn (or has said why not)."""
    page.evaluate("""async (b64) => {
        const raw = atob(b64), bytes = new Uint8Array(raw.length);
        for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
        const view = await window.__dbl.mountScene(document.getElementById('scene'), bytes, {standalone: true});
        if (view) window.__dblView = view;  // (as the offline file's own script keeps it)
    }""", base64.b64encode(blob).decode())
    assert not page.errors, page.errors


def refused(page: Page, blob: bytes, label=None) -> None:
    """Mount a record the renderer cannot draw: the chart names it (``label`` says which case failed)."""
    mount(page, blob)
    msg = page.locator("#scene .dbls-error")
    assert msg.is_visible() and msg.text_content().startswith("This chart cannot be drawn:"), label


def drawn_at(page: Page, step: int) -> dict:
    """Show ``step`` (by its stop) and read what the renderer drew and wrote."""
    return page.evaluate("""(step) => {
        const v = window.__dblView, m = v.m;
        v.show(m.stopOf(step));
        const d = v.drawn();
        return {step: v.step, text: document.querySelector('#scene .dbls-text').innerHTML,
                state: document.querySelector('#scene .dbls-state').textContent,
                live: document.querySelector('#scene .dbls-live').textContent,
                ring: d.ring, exam: d.exam, old: d.old, line: d.line, upd: d.upd,
                rings_drawn: Number(document.querySelector('#scene canvas.dbls-rings').dataset.rings)};
    }""", step)


def points(trace: dict) -> set[tuple[float, float]]:
    return {(x, y) for x, y in zip(trace["x"], trace["y"], strict=True) if x is not None}


def check_run(page: Page, traj, steps, bound=None) -> None:
    """At each of ``steps``, the drawing equals the core's state."""
    mount(page, perceptron_scene(traj, bound).to_bytes())
    p = traj.problem
    box = view_box(p.X)
    span = box[1] - box[0]
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    clip = (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)
    shown = bound if bound is not None and bound_applies(traj, bound)[0] else None
    for step in steps:
        got = drawn_at(page, int(step))
        assert got["step"] == step
        snap = traj[int(step)]
        # M's rings: exactly the core's misclassified points (ties included), by their coordinates
        assert points(got["ring"]) == {tuple(x) for x in p.X[snap.misclassified].tolist()}, step
        assert got["rings_drawn"] == int(snap.misclassified.sum()), step  # one circle drawn per point of M
        # the boundary w·x + b = 0 of the core's state, end points as viz.common.boundary_segment puts them
        assert (got["line"]["x"], got["line"]["y"]) == tuple(boundary_segment(clip, snap.w, snap.b)), step
        # the points examined (none drawn for batch, which examines all)
        ex = [] if traj.variant == "batch" else p.X[snap.examined].tolist()
        assert points(got["exam"]) == {tuple(x) for x in ex}, step
        # on an update, the boundary before and the update arrow from the old tip of w to the new one
        updated = snap.updated.size > 0
        if updated:
            (wp,), (bp,) = traj.states([step - 1])
            before = boundary_segment(clip, wp, float(bp))
            assert (got["old"]["x"], got["old"]["y"]) == tuple(before)
        else:
            assert got["old"]["x"] == []
        assert bool(got["upd"]["x"]) == updated
        # the words: exactly the Python references'
        assert html.unescape(got["text"]) == describe_step(traj, int(step), shown), step  # the DOM writes > as &gt;
        assert got["state"] == state_line_of(traj, int(step)), step
        assert got["live"] == f"Step {step:,} of {traj.n_steps:,}: {state_line_of(traj, int(step))}"


SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def random_steps(traj, k: int, rng) -> list[int]:
    S = traj.n_steps
    picks = {0, S, *traj.update_steps[:3].tolist(), *rng.integers(0, S + 1, size=k).tolist()}
    return sorted(picks)


def test_the_textbook_run_drawn_step_by_step(renderer):
    X, y = make_dataset("textbook", 3, 0)
    traj = run_perceptron(X, y)
    check_run(renderer, traj, range(traj.n_steps + 1), mistake_bound(X, y))
    got = drawn_at(renderer, 9)
    assert "y·(w·x+b) = −1·((1, 1)·(1, 1) − 1) = −1 ≤ 0" in got["text"].replace("<br>", " ")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_runs_with_ties_and_duplicates_every_variant(renderer, seed):
    rng = np.random.default_rng(seed)
    # whole-number points on a small grid: many ties (y·a = 0 exactly) and duplicates, some with both labels
    X = rng.integers(-3, 4, size=(40, 2)).astype(float)
    X[5] = X[6]
    y = np.where(rng.random(40) < 0.5, 1, -1)
    y[5], y[6] = 1, -1
    runs = [
        run_perceptron(X, y, variant="cyclic", max_steps=300),
        run_perceptron(X, y, variant="random", seed=seed, update_on="negative", w0=(1.0, -0.5), b0=0.5, max_steps=200),
        run_perceptron(X, y, variant="minibatch", batch_size=7, tau=0.5, seed=seed, max_steps=120),
        run_perceptron(X, y, variant="batch", reduction="sum", fit_intercept=False, b0=-2.0, max_steps=60),
        run_perceptron(X * 0.0625, y, variant="cyclic", tau=0.1, max_steps=150),  # decimal ties in the text
    ]
    for traj in runs:
        check_run(renderer, traj, random_steps(traj, 12, rng))


def test_a_separable_run_with_the_bound_and_a_large_one(renderer):
    rng = np.random.default_rng(7)
    X, y = make_dataset("separable", 60, 3)
    traj = run_perceptron(X, y, variant="random", seed=3, max_steps=2000)
    check_run(renderer, traj, random_steps(traj, 10, rng), mistake_bound(X, y))
    X, y = make_dataset("xor", 2000, 0)
    big = run_perceptron(X, y, max_steps=1000)
    check_run(renderer, big, random_steps(big, 6, rng))


def test_numbers_are_written_as_python_writes_them(renderer):
    rng = np.random.default_rng(0)
    values = [0.0625, -0.0625, 0.1875, 2.5, 0.125, 1e-13, 1e5, 123456.5, 112500.0, -99999.9996, 0.00012345,
              0.000999, 0.0009996, 1 / 3, -2 / 3, 0.0005, 0.0015, 1e21 / 7, 5e-7, -0.0]
    values += (rng.standard_normal(300) * 10.0 ** rng.integers(-6, 7, 300)).tolist()
    values += (rng.integers(-4000, 4000, 200) / 16).tolist()  # binary fractions: exact ties
    got = renderer.evaluate("(vs) => vs.map((v) => window.__dbl.num(v))", values)
    assert got == [num(v) for v in values]


def test_update_steps_mode_visits_the_updates_and_the_ends(renderer):
    X, y = make_dataset("textbook", 3, 0)
    traj = run_perceptron(X, y)
    scene = perceptron_scene(traj)
    mount(renderer, with_view(scene.to_bytes(), View(mode="updates", start=9)))
    stops = renderer.evaluate("() => { const v = window.__dblView; const s = []; "
                              "for (let i = 0; i < v.m.nStops; i++) s.push(v.m.stepAt(i)); return [v.step, s]; }")
    assert stops == [9, [0, *traj.update_steps.tolist()]]  # the last update is the last step here
    renderer.evaluate("() => window.__dblView.key('ArrowRight')")
    assert renderer.evaluate("() => window.__dblView.step") == 10


@pytest.mark.parametrize("steps", [100, 1000, 1300, 20_000])
def test_fast_crosses_a_long_run_in_about_thirty_seconds(renderer, steps):
    """Fast ▶▶ steps every 120 ms on a short run; on a longer one a step a frame (33 ms), then several steps a frame,
    so that no run takes more than about 30 s (at 120 ms a step, 1,000 steps took two minutes), and it ends at the
    run's last step."""
    X, y = make_dataset("xor", 40, 0)
    traj = run_perceptron(X, y, max_steps=steps)
    assert traj.n_steps == steps
    mount(renderer, perceptron_scene(traj).to_bytes())
    ms, stride = renderer.evaluate("() => window.__dblView.fastPace()")
    assert 33 <= ms <= 120 and stride >= 1
    assert steps * ms / stride / 1000 <= 30.5 and (steps <= 250 or ms <= 120)  # the whole run within 30 s
    assert (stride > 1) == (steps > 30_000 / 33)
    renderer.evaluate(f"() => {{ const v = window.__dblView; v.show({steps - 3 * stride}); "
                      "document.querySelector('#scene button[data-go=fast]').click(); }")
    renderer.wait_for_function(f"() => window.__dblView.step === {steps} && !window.__dblView.timer", timeout=5000)


def test_every_tau_in_one_scene_switches_in_the_browser(renderer):
    X, y = make_dataset("separable", 40, 1)
    taus = [0.1, 1.0, 5.0]
    trajs = [run_perceptron(X, y, variant="random", seed=2, tau=t, w0=(0.5, -1.0), max_steps=200) for t in taus]
    mount(renderer, with_view(perceptron_scene(trajs).to_bytes(), View(tau=1.0, start=12)))
    pick = renderer.locator("#scene .dbls-tau select")
    assert pick.is_visible() and pick.input_value() == "1"  # no control of a page to follow: its own choice
    for j, traj in enumerate(trajs):
        pick.select_option(str(j))
        got = drawn_at(renderer, 12)
        assert renderer.evaluate("() => window.__dblView.m.run.tau") == taus[j]
        assert html.unescape(got["text"]) == describe_step(traj, 12)
        assert points(got["ring"]) == {tuple(x) for x in X[traj[12].misclassified].tolist()}


def test_a_record_the_renderer_cannot_draw_is_named_and_the_last_chart_stays(renderer):
    X, y = make_dataset("textbook", 3, 0)
    good = perceptron_scene(run_perceptron(X, y)).to_bytes()
    mount(renderer, good)
    header, arrays = unpack(good)
    header["version"] = 99
    bad = [b"not a scene at all", pack({**header}, arrays)]
    header["version"] = SCENE_VERSION
    arrays = {**arrays, "W.0": arrays["W.0"][:-1]}  # states that do not match the updates
    bad.append(pack(header, arrays))
    for blob in bad:
        refused(renderer, blob)
        assert renderer.locator("#scene .dbls-plot .scatterlayer .trace").count() >= 2  # the last chart stays, dimmed
    mount(renderer, good)  # a good record again: drawn, the message gone
    assert renderer.locator("#scene .dbls-error").count() == 0
    assert renderer.evaluate("() => window.__dblView.m.S") == 15


def test_ten_thousand_points_are_drawn_with_webgl_and_the_rings_on_the_core_M(renderer):
    """The Perceptron page takes 10,000 points: plotly.js draws them with WebGL, the rings stay the core's M."""
    rng = np.random.default_rng(11)
    X, y = make_dataset("xor", 10_000, 2)
    big = run_perceptron(X, y, max_steps=300)
    check_run(renderer, big, random_steps(big, 4, rng))
    assert renderer.evaluate("() => document.querySelector('#scene .dbls-plot').data.slice(0, 2).map((t) => t.type)") \
        == ["scattergl", "scattergl"]
    X, y = make_dataset("xor", 2000, 2)
    mount(renderer, perceptron_scene(run_perceptron(X, y, max_steps=10)).to_bytes())
    assert renderer.evaluate("() => document.querySelector('#scene .dbls-plot').data[0].type") == "scatter"


def ring_pixels(page: Page) -> list[list[int]]:
    """The alpha of the rings canvas on each point's ring (its right-hand edge) and at its centre."""
    return page.evaluate("""() => {
        const v = window.__dblView, m = v.m, fl = v.plot._fullLayout, cv = document.querySelector('#scene canvas.dbls-rings');
        const dpr = window.devicePixelRatio || 1, ctx = cv.getContext('2d'), r = v.ring[0] / 2;
        const at = (x, y) => ctx.getImageData(Math.round(x * dpr - 0.5), Math.round(y * dpr - 0.5), 1, 1).data[3];
        const out = [];
        for (let i = 0; i < m.N; i++) {
            const x = fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]), y = fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1]);
            out.push([at(x + r, y), at(x, y)]);
        }
        return out;
    }""")


def test_the_rings_are_painted_around_the_points_of_M_and_nowhere_else(renderer):
    X, y = make_dataset("textbook", 3, 0)
    traj = run_perceptron(X, y)
    mount(renderer, perceptron_scene(traj).to_bytes())
    for step in range(traj.n_steps + 1):
        drawn_at(renderer, step)
        M = traj[step].misclassified
        px = ring_pixels(renderer)
        assert [edge > 100 for edge, _ in px] == M.tolist(), step  # a ring's line is opaque ink
        assert all(centre == 0 for _, centre in px), step  # a ring, not a disc


def test_many_rings_are_one_layer_at_70_percent_ink(renderer):
    """Past 100 points the rings are black at 70 % opacity, as one layer: a ring is there around every point of M,
    and where rings overlap the ink is no darker."""
    X, y = make_dataset("xor", 400, 1)
    traj = run_perceptron(X, y, max_steps=40)
    mount(renderer, perceptron_scene(traj).to_bytes())
    drawn_at(renderer, 40)
    M = traj[40].misclassified
    assert M.sum() > 50
    px = ring_pixels(renderer)
    assert all(edge > 100 for (edge, _), m in zip(px, M, strict=True) if m)
    top = renderer.evaluate("""() => {
        const cv = document.querySelector('#scene canvas.dbls-rings'), d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
        let top = 0, rgb = 0;
        for (let o = 0; o < d.length; o += 4) { top = Math.max(top, d[o + 3]); if (d[o + 3]) rgb = Math.max(rgb, d[o], d[o + 1], d[o + 2]); }
        return [top, rgb];
    }""")
    assert 170 <= top[0] <= 180 and top[1] == 0  # 0.7 × 255, black


def test_a_mini_batch_s_bit_sets_draw_the_core_s_subsets(renderer):  # noqa: F811
    """B > N/16: the record sends each step's I as a bit set; the renderer lights exactly the core's I at every step,
    and a set that does not hold B points is named, the last chart kept."""
    X, y = make_dataset("blobs", 48, 2)
    traj = run_perceptron(X, y, variant="minibatch", batch_size=12, max_steps=40, seed=5)
    blob = perceptron_scene(traj).to_bytes()
    header, arrays = unpack(blob)
    assert header["runs"][0]["order_bits"] and arrays["order.0"].shape == (traj.n_steps, 6)
    mount(renderer, blob)
    got = renderer.evaluate("(S) => Array.from({length: S + 1}, (_, s) => window.__dblView.m.examined(s))", traj.n_steps)
    assert got == [traj.examined(s).tolist() for s in range(traj.n_steps + 1)]
    bad = arrays["order.0"].copy()
    bad[3, 0] ^= 1  # step 4's set gains or loses a point
    refused(renderer, pack(header, {**arrays, "order.0": bad}))
    assert "step 4's subset does not hold B = 12 of the 48 points" in renderer.locator("#scene .dbls-error").text_content()


def test_a_still_figure_is_drawn_and_a_broken_one_named(renderer):  # noqa: F811
    """A ``figure`` record (viz.scene.figure_scene) is drawn as the figure it holds; one whose figure is not JSON, or
    has no data, is named and the chart drawn before stays."""
    from viz.common import points_figure
    from viz.scene import figure_scene

    X, y = make_dataset("blobs", 30, 1)
    good = figure_scene(points_figure(X, y, note="the points"), "the points alone")
    mount(renderer, good)
    got = renderer.evaluate("""() => { const g = document.querySelector('#scene .dbls-plot');
        return {n: g.data.length, x: Array.from(g.data[0].x), label: g.getAttribute('aria-label'), title: g.layout.title.text}; }""")
    assert got["n"] == 2 and got["x"] == X[y == 1, 0].tolist() and got["label"] == "the points alone"
    header, arrays = unpack(good)
    for figure, says in ((b"{not json", "its figure is not JSON"), (b'{"layout": {}}', "no data")):
        refused(renderer, pack(header, {"figure": np.frombuffer(figure, dtype=np.uint8)}))
        assert says in renderer.locator("#scene .dbls-error").text_content()
        assert renderer.evaluate("() => document.querySelector('#scene .dbls-plot').data.length") == 2  # still there


def test_a_partial_record_waits_for_the_rest_while_tau_shows_another(renderer):
    """A partial record (the page's τ alone, sent first: viz.scene.PerceptronScene.partial) is drawn while the page's
    τ control shows its τ; moved to another τ, the chart is dimmed and busy, never showing the wrong run; the record of
    every τ then draws the control's τ, and a partial record of a run the chart keeps in full does not replace it."""
    from glue.builds import perceptron_page

    X, y = make_dataset("xor", 60, 4)
    params = (("variant", "random"), ("batch_size", 1), ("w0", (0.0, 0.0)), ("b0", 0.0), ("update_on", "nonpositive"),
              ("fit_intercept", True), ("max_steps", 300), ("seed", 2), ("reduction", "mean"))
    label = "Step size τ"
    labels = ("Variant", "Batch size B")
    partial = perceptron_page(X, y, params, (1.0,), label, labels=labels, partial=True)[0]
    full = perceptron_page(X, y, params, (0.5, 1.0, 2.0), label, labels=labels)[0]
    tau = "(v) => window.__dbl.setControl('Step size τ', v)"  # the chart's τ control (viz/js/tune.js)
    renderer.evaluate(tau, "1.0")
    try:
        mount(renderer, partial)
        state = "() => { const r = document.querySelector('#scene'); return [r.classList.contains('dbls-waiting'), " \
                "r.getAttribute('aria-busy'), window.__dblView.m.run.tau, window.__dblView.m.h.partial]; }"
        assert renderer.evaluate(state) == [False, "false", 1.0, True]
        renderer.evaluate(tau, "0.5")
        renderer.wait_for_function("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        assert renderer.evaluate(state) == [True, "true", 1.0, True]  # τ = 1's run, dimmed: not shown as τ = 0.5's
        renderer.evaluate(tau, "1.0")
        renderer.wait_for_function("() => !document.querySelector('#scene').classList.contains('dbls-waiting')")
        renderer.evaluate(tau, "0.5")
        renderer.wait_for_function("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        mount(renderer, full)
        assert renderer.evaluate(state) == [False, "false", 0.5, False]  # every τ: the control's, at once
        mount(renderer, partial)  # the server had forgotten this run was made: the chart keeps the one of every τ
        assert renderer.evaluate(state) == [False, "false", 0.5, False]
        assert renderer.evaluate("() => window.__dblView.m.h.runs.length") == 3
    finally:
        renderer.evaluate(tau, None)


def test_variants_made_ahead_are_kept_and_drawn_when_the_variant_control_comes_to_them(renderer):
    """A bundle of records made ahead (viz.scene.bundle) draws nothing; the chart keeps those of its memo's key and
    draws one when the page's variant control comes to it, with no new record. A variant it does not hold dims the chart
    (busy) and leaves the run shown; a malformed bundle is ignored (it only held runs to keep)."""
    from glue.builds import perceptron_page
    from viz.scene import bundle

    X, y = make_dataset("xor", 60, 5)  # (points no other test's records were made on: their memo keys differ)
    settings = (("w0", (0.0, 0.0)), ("b0", 0.0), ("update_on", "nonpositive"), ("fit_intercept", True),
                ("max_steps", 300), ("seed", 2), ("reduction", "mean"))
    labels = ("Variant", "Batch size B")

    def record(variant: str, more: tuple = ()) -> bytes:
        return perceptron_page(X, y, (("variant", variant), ("batch_size", 1), *settings, *more), (0.5, 1.0),
                               "Step size τ", labels=labels, ahead=("random", "batch"))[0]

    cyclic, batch, random = record("cyclic"), record("batch"), record("random")
    elsewhere = record("random", (("b0", 1.0),))  # other settings: another memo key
    state = "() => { const r = document.querySelector('#scene'), v = dbl(r).view; return [v.m.run.variant, " \
            "r.classList.contains('dbls-waiting'), r.getAttribute('aria-busy'), r.dataset.ready]; }"
    show = "(v) => window.__dbl.setControl('Variant', v)"  # the chart's variant control (viz/js/tune.js)
    renderer.evaluate(show, "cyclic")
    try:
        mount(renderer, cyclic)
        ready = renderer.evaluate(state)[3]
        renderer.evaluate(show, "batch")  # not held: dimmed and busy, the cyclic run still shown
        renderer.wait_for_function("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        assert renderer.evaluate(state) == ["cyclic", True, "true", ready]
        renderer.evaluate(show, "cyclic")
        renderer.wait_for_function("() => !document.querySelector('#scene').classList.contains('dbls-waiting')")
        mount(renderer, bundle([elsewhere]))  # of other settings: not kept
        renderer.evaluate(show, "random")
        renderer.wait_for_function("() => document.querySelector('#scene').classList.contains('dbls-waiting')")
        assert renderer.evaluate(state)[0] == "cyclic"
        renderer.evaluate(show, "cyclic")
        renderer.wait_for_function("() => !document.querySelector('#scene').classList.contains('dbls-waiting')")
        mount(renderer, bundle([batch, random]))  # kept, nothing drawn
        assert renderer.evaluate(state) == ["cyclic", False, "false", ready]
        renderer.evaluate(show, "batch")  # drawn at once, the server not told
        renderer.wait_for_function("() => dbl(document.querySelector('#scene')).view.m.run.variant === 'batch'")
        got = renderer.evaluate(state)
        assert got[:3] == ["batch", False, "false"]
        assert renderer.evaluate("() => dbl(document.querySelector('#scene')).view.m.h.runs.map((r) => r.n_steps)") == [
            r["n_steps"] for r in unpack(batch)[0]["runs"]]
        mount(renderer, with_view(batch, View()))  # the page's record of it then: the same drawing
        assert renderer.evaluate(state)[3] == got[3]
        header, arrays = unpack(bundle([random]))
        mount(renderer, pack(header, {"r0": arrays["r0"][:40]})[:-8])  # cut short: ignored, the chart stays as it is
        assert renderer.evaluate(state)[:3] == ["batch", False, "false"]
        assert renderer.locator("#scene .dbls-error").count() == 0

    finally:
        renderer.evaluate(show, None)


def test_a_new_run_of_the_same_points_keeps_the_step_and_new_points_start_at_0(renderer):
    """Another τ on the same points opens at the step the chart stood at (to compare runs at one step); other points
    (a new dataset or seed, a point clicked in) open at step 0."""
    X, y = make_dataset("xor", 40, 0)  # (no separator: every run takes its 60 steps)
    at = "() => window.__dblView.step"
    mount(renderer, perceptron_scene(run_perceptron(X, y, tau=1.0, max_steps=60)).to_bytes())
    renderer.evaluate("() => window.__dblView.show(window.__dblView.m.stopOf(9))")
    assert renderer.evaluate(at) == 9
    mount(renderer, perceptron_scene(run_perceptron(X, y, tau=0.1, max_steps=60)).to_bytes())
    assert renderer.evaluate(at) == 9  # the same points, another τ: the step kept
    X2, y2 = make_dataset("xor", 40, 1)
    mount(renderer, perceptron_scene(run_perceptron(X2, y2, tau=0.1, max_steps=60)).to_bytes())
    assert renderer.evaluate(at) == 0  # new points: from the start
    renderer.evaluate("() => window.__dblView.show(window.__dblView.m.stopOf(5))")
    X3 = X2.copy()
    X3[0, 0] += 0.5  # one point moved
    mount(renderer, perceptron_scene(run_perceptron(X3, y2, tau=0.1, max_steps=60)).to_bytes())
    assert renderer.evaluate(at) == 0


def test_a_boundary_outside_the_view_is_said_on_the_panel(renderer):
    """Where w·x + b = 0 does not cross the view, the panel says so and on which side the view lies (a student looked
    for the line); w = 0 draws no boundary, and says that; a boundary in view, nothing."""
    X, y = make_dataset("xor", 40, 0)
    note = "() => { const t = document.querySelector('#scene .dbls-offview'); return t ? t.textContent : null; }"
    mount(renderer, perceptron_scene(run_perceptron(X, y, w0=(0.01, 0.0), b0=100.0, max_steps=5)).to_bytes())
    renderer.evaluate("() => window.__dblView.show(0)")
    assert renderer.evaluate(note) == "the boundary w·x + b = 0 is outside the view: w·x + b > 0 all over it"
    mount(renderer, perceptron_scene(run_perceptron(X, y, max_steps=5)).to_bytes())  # from w = 0, b = 0
    renderer.evaluate("() => window.__dblView.show(0)")
    assert renderer.evaluate(note) == "w = 0: no boundary, w·x + b = b = 0 everywhere"
    k = renderer.evaluate("() => { const v = window.__dblView; v.show(v.m.nStops - 1); return v.g.line[0].length; }")
    assert k == 2 and renderer.evaluate(note) is None


def test_the_off_view_note_stands_where_it_covers_no_point(renderer):
    """The note of a boundary off the view stands in the top left corner where that is free (three points), and
    where points fill every corner (XOR on a short chart), at a place that covers none of them, the examined one included."""
    where = """() => {
      const t = document.querySelector('#scene .dbls-offview').getBoundingClientRect(), v = window.__dblView;
      const fl = v.plot._fullLayout, p = v.over.getBoundingClientRect(), m = v.m, ex = m.examined(v.step + 1);
      const at = (i) => [p.left + fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]), p.top + fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1])];
      const under = [];
      for (let i = 0; i < m.N; i++) { const [x, y] = at(i); if (x > t.left && x < t.right && y > t.top && y < t.bottom) under.push(i); }
      return {under, exam: ex, left: t.left - p.left - fl.xaxis._offset, top: t.top - p.top - fl.yaxis._offset};
    }"""
    X, y = make_dataset("textbook", 3, 0)
    mount(renderer, perceptron_scene(run_perceptron(X, y, max_steps=5)).to_bytes())
    renderer.evaluate("() => window.__dblView.show(0)")
    got = renderer.evaluate(where)
    assert got["under"] == [] and 0 <= got["left"] < 12 and 0 <= got["top"] < 12, got
    X, y = make_dataset("xor", 40, 0)  # (a chart as narrow as the quiz's on a projector: x₁ under the top left)
    renderer.set_viewport_size({"width": 640, "height": 900})
    try:
        mount(renderer, with_view(perceptron_scene(run_perceptron(X, y, max_steps=5)).to_bytes(), View(height=500)))
        renderer.evaluate("() => window.__dblView.show(0)")
        got = renderer.evaluate(where)
    finally:
        renderer.set_viewport_size({"width": 1200, "height": 900})
    assert got["exam"] == [0] and got["under"] == [], got
    assert got["left"] > 12 or got["top"] > 12, got  # (the top left holds points: not there)


def test_a_hovered_point_is_named_by_the_chart_over_the_step_s_layers(renderer):
    """The pointer on a point shows the chart's own label, over the step's layers (plotly.js's lay under them and
    wrote the coordinates unrounded): the point's name, place and label as the words write them, and whether it is
    in M of the step shown, as the core judged it; off the points, none."""
    X, y = make_dataset("xor", 40, 0)
    traj = run_perceptron(X, y, max_steps=60)
    mount(renderer, perceptron_scene(traj).to_bytes())
    s = int(traj.update_steps[2])
    renderer.evaluate("(s) => window.__dblView.show(window.__dblView.m.stopOf(s))", s)
    M = traj[s].misclassified
    at = """(i) => { const v = window.__dblView, fl = v.plot._fullLayout;
      v.plot.scrollIntoView({block: "center"});
      const r = v.plot.getBoundingClientRect();
      return [r.left + fl.xaxis._offset + fl.xaxis.l2p(v.m.X[2 * i]), r.top + fl.yaxis._offset + fl.yaxis.l2p(v.m.X[2 * i + 1])]; }"""
    tip = "() => { const t = document.querySelector('#scene .dbls-tip'); return t.hidden ? null : t.innerText; }"
    d2 = ((X[:, None] - X[None]) ** 2).sum(axis=2) + np.diag(np.full(len(y), np.inf))
    alone = d2.min(axis=1)  # (the point of each kind farthest from any other: plotly.js names the nearest)
    inside, outside = (int(np.flatnonzero(part)[alone[part].argmax()]) for part in (M, ~M))
    for i in (inside, outside):
        assert alone[i] > 0.01
        renderer.mouse.move(*renderer.evaluate(at, i))
        name = f"x{str(i + 1).translate(SUBSCRIPT)} = "
        renderer.wait_for_function(f"(n) => (({tip})() || '').startsWith(n)", arg=name)
        xy = f"({num(X[i, 0])}, {num(X[i, 1])})"
        rule = "in M: y·(w·x + b) ≤ 0" if M[i] else "classified right: y·(w·x + b) > 0"
        sign = "+1" if y[i] > 0 else "−1"
        assert renderer.evaluate(tip) == f"{name}{xy}, y = {sign}\n{rule} after step {s}"
    renderer.evaluate("(s) => window.__dblView.show(window.__dblView.m.stopOf(s))", s + 1)  # a step under the pointer
    assert renderer.evaluate(tip).endswith(f"after step {s + 1}")
    renderer.mouse.move(2, 2)
    renderer.wait_for_function(f"() => ({tip})() === null")
    assert renderer.evaluate("() => !document.querySelector('#scene .hoverlayer').textContent")  # (plotly.js's: none)


def test_a_hovered_point_among_thousands_drawn_with_webgl_is_named_too(renderer):
    """Above 2,000 points plotly.js draws them with WebGL (scattergl), whose hover comes as its events too."""
    X, y = make_dataset("blobs", 2500, 0)
    traj = run_perceptron(X, y, max_steps=30)
    mount(renderer, perceptron_scene(traj).to_bytes())
    assert renderer.evaluate("() => window.__dblView.plot.data[0].type") == "scattergl"
    i = int(np.argmax(np.abs(X).sum(axis=1)))  # (the point farthest out: none other under the pointer)
    xy = renderer.evaluate("""(i) => { const v = window.__dblView, fl = v.plot._fullLayout;
      v.plot.scrollIntoView({block: "center"});
      const r = v.plot.getBoundingClientRect();
      return [r.left + fl.xaxis._offset + fl.xaxis.l2p(v.m.X[2 * i]), r.top + fl.yaxis._offset + fl.yaxis.l2p(v.m.X[2 * i + 1])]; }""", i)
    renderer.mouse.move(*xy)
    name = f"x{str(i + 1).translate(SUBSCRIPT)} = ({num(X[i, 0])}, {num(X[i, 1])})"
    renderer.wait_for_function("(n) => { const t = document.querySelector('#scene .dbls-tip'); return !t.hidden && t.innerText.startsWith(n); }",
                               arg=name)
    renderer.mouse.move(2, 2)


def test_a_small_step_is_written_as_python_writes_it(renderer):
    """The renderer writes a small step's update with the decimals that set w apart (oracles.apart), word for word
    as the Python reference does."""
    X, y = make_dataset("blobs", 200, 0)
    longer = 0
    for variant in ("batch", "cyclic"):
        traj = run_perceptron(X, y, variant=variant, tau=0.01, max_steps=40)
        mount(renderer, perceptron_scene(traj).to_bytes())
        for s in traj.update_steps[:4].tolist():
            got = renderer.evaluate("(s) => { const v = window.__dblView; v.show(v.m.stopOf(s)); return document.querySelector('#scene .dbls-text').innerHTML; }", s)
            assert html.unescape(got) == describe_step(traj, s, None), (variant, s)
            longer += bool(re.search(r"= \(−?0\.\d{5}", html.unescape(got)))
    assert longer  # (some update needed five decimals)


def test_the_off_view_note_stands_clear_of_the_w_arrow_on_a_phone(renderer):
    """On a phone-wide chart (390 px) the note of a boundary off the view stood over the w arrow (issue 38): it now
    stands where no part of the arrows of w and of the update runs under it."""
    crossed = """() => {
      const t = document.querySelector('#scene .dbls-offview').getBoundingClientRect(), v = window.__dblView;
      const fl = v.plot._fullLayout, p = v.over.getBoundingClientRect(), hits = [];
      for (const name of ["w", "wOld", "upd"]) {
        const [xs, ys] = v.g[name];
        if (xs.length !== 2) continue;
        for (let s = 0; s <= 50; s++) {
          const x = p.left + fl.xaxis._offset + fl.xaxis.l2p(xs[0] + (xs[1] - xs[0]) * s / 50);
          const y = p.top + fl.yaxis._offset + fl.yaxis.l2p(ys[0] + (ys[1] - ys[0]) * s / 50);
          if (x > t.left && x < t.right && y > t.top && y < t.bottom) hits.push([name, s]);
        }
      }
      return {hits, arrows: ["w", "upd"].filter((n) => v.g[n][0].length === 2)};
    }"""
    X, y = make_dataset("xor", 40, 0)  # (each start covered the arrows with the note at some of its first steps)
    renderer.set_viewport_size({"width": 390, "height": 844})
    try:
        seen = 0
        for w0, b0 in (((1.0, 0.5), 30.0), ((0.5, -1.0), -30.0), ((-1.0, -1.0), 20.0)):
            mount(renderer, perceptron_scene(run_perceptron(X, y, w0=w0, b0=b0, max_steps=10)).to_bytes())
            for stop in range(4):
                renderer.evaluate("(s) => window.__dblView.show(s)", stop)
                if renderer.evaluate("() => !!document.querySelector('#scene .dbls-offview')"):
                    got = renderer.evaluate(crossed)
                    assert got["arrows"] and not got["hits"], (w0, b0, stop, got)
                    seen += 1
        assert seen >= 6  # (the case is met: a boundary off the view with w drawn)
    finally:
        renderer.set_viewport_size({"width": 1400, "height": 900})
