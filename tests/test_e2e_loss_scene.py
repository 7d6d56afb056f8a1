"""The Loss surface renderer in Chromium: what it draws at each b is what core and the Python references say.

The renderer (``viz/js/loss.js`` over the modules it imports) runs as in the offline HTML export. At every b of the slider:
each loss it samples on the grid equals ``core.losses.surface`` (to rounding: it sums the points in another
order), the band levels are the record's, the cone is :func:`oracles.cone_polygon`'s, each point's line lies on
xᵢ·w + b = 0, the path's states are split by whether their b is the slice's, the lit point's line moves with b,
and the chosen weight's arrow points along the core's subgradient. A record it cannot draw is named.
"""

from __future__ import annotations

import numpy as np
import pytest
from e2e_helpers import exported_figure
from oracles import cone_polygon, data_state, lines_in_box
from playwright.sync_api import Page
from test_e2e_scene import mount, refused, renderer  # noqa: F401  (the page holding the renderer)

from core.losses import grid_around, hinge_subgradient, perceptron_subgradient, surface
from core.perceptron import run_perceptron
from core.svm import hinge_sgd
from datasets import make_dataset
from viz.common import view_box
from viz.losses import default_bs, losses_at, misclassified
from viz.scene import View, loss_data_scene, loss_scene, pack, unpack, with_view


def drawn_at(page: Page, j: int) -> dict:
    return page.evaluate("""(j) => {
        const v = window.__dblView;
        v.show(j);
        return {...v.drawn(), i: v.i, at: document.querySelector('#scene .dbls-at').textContent,
                state: document.querySelector('#scene .dbls-state').textContent,
                zs: v.plots.slice(0, v.m.run.names.length).map((gd) => gd.data[0].z.flat()),
                arrows: document.querySelectorAll('#scene .dbls-grad').length};
    }""", j)


def setup(name="blobs", n=40, names=("hinge", "perceptron", "zero_one"), side=21, **kw):
    X, y = make_dataset(name, n, 0)
    us, vs = grid_around(X, y, size=side)
    bs = default_bs(us, X, m=5)
    return X, y, list(names), us, vs, bs


@pytest.mark.parametrize("name", ["blobs", "separable"])
def test_every_b_draws_the_core_losses_and_the_cone(renderer, name):  # noqa: F811
    X, y, names, us, vs, bs = setup(name)
    run = run_perceptron(X, y, variant="random", seed=1, max_steps=200)
    path = (run.W[::4], run.B[::4], "perceptron")
    mount(renderer, loss_scene(X, y, names, us, vs, bs, lams=(0.1,), paths=[path], lit=3).to_bytes())
    box = (us[0], us[-1], vs[0], vs[-1])
    span = bs[-1] - bs[0]
    for j, b in enumerate(bs.tolist()):
        got = drawn_at(renderer, j)
        assert got["i"] == j and got["b"] == b
        for p, nm in enumerate(names):
            ref = surface(nm, X, y, us, vs, b=b, lam=0.1)  # rows over w₂, columns over w₁
            np.testing.assert_allclose(np.array(got["Z"][nm]).reshape(len(vs), len(us)), ref, rtol=0, atol=1e-12)
            assert got["zs"][p] == got["Z"][nm]  # the bands drawn are of this surface
        ref_cone = cone_polygon(X, y, b, box)
        assert (len(got["cone"]) == 0) == (len(ref_cone) == 0)
        if ref_cone:
            np.testing.assert_allclose(np.array(got["cone"]), np.array(ref_cone), atol=1e-12)
        for ln in got["lines"]:  # each drawn line is some point's xᵢ·w + b = 0, inside the grid's box
            P = np.column_stack([ln["x"], ln["y"]])
            assert np.abs(P @ X.T + b).min(axis=1).max() < 1e-9
            assert (P[:, 0] >= box[0] - 1e-9).all() and (P[:, 0] <= box[1] + 1e-9).all()
        on = np.abs(path[1] - b) <= 0.02 * span
        assert [x for x in got["pathOn"]["x"] if x is not None] == path[0][on, 0].tolist()
        assert got["pathOff"]["x"] == path[0][~on, 0].tolist()
        lit = np.column_stack([got["lit"]["x"], got["lit"]["y"]])
        assert bool(lit.size) == bool(lines_in_box(X[3:4], np.array([b]), box)[0])  # x₄'s line, where it crosses the box
        assert not lit.size or np.abs(lit @ X[3] + b).max() < 1e-9
        assert got["state"].startswith("b = ") and f"{int(on.sum()):,} of {len(path[1]):,} states" in got["state"]


def test_the_bands_and_their_levels(renderer):  # noqa: F811
    X, y, names, us, vs, bs = setup(names=("perceptron", "zero_one"))
    sc = loss_scene(X, y, names, us, vs, bs)
    mount(renderer, sc.to_bytes())
    got = drawn_at(renderer, 2)
    for p, nm in enumerate(names):
        first, step = sc.run["levels"][nm][0]
        assert got["contours"][p]["start"] == first and got["contours"][p]["size"] == step
        assert got["contours"][p]["coloring"] == "fill"
    # the colour bar framed: its lowest band is white, as the page is, and its 0 seemed to float under the bar
    bars = renderer.evaluate("() => window.__dblView.plots.slice(0, 2).map((gd) => gd._fullData[0].colorbar.outlinewidth)")
    assert all(w >= 1 for w in bars), bars


def test_the_chosen_weight_and_its_subgradient(renderer):  # noqa: F811
    X, y, names, us, vs, bs = setup()
    w, b = np.array([0.8, 0.4]), float(bs[2])
    mount(renderer, loss_scene(X, y, names, us, vs, bs, chosen=(w, b)).to_bytes())
    got = drawn_at(renderer, 2)
    assert got["arrows"] == 2  # hinge and perceptron; the 0-1 loss's subgradient is 0: no arrow
    d = renderer.evaluate("""() => {
        const gd = window.__dblView.plots[1], fl = gd._fullLayout, l = document.querySelectorAll('#scene .dbls-grad')[1];
        const x = (px) => fl.xaxis.p2l(px - fl.xaxis._offset), y = (py) => fl.yaxis.p2l(py - fl.yaxis._offset);
        return [x(+l.getAttribute('x2')) - x(+l.getAttribute('x1')), y(+l.getAttribute('y2')) - y(+l.getAttribute('y1'))];
    }""")
    g = perceptron_subgradient(w, b, X, y)[0]
    assert np.dot(d, g) / (np.linalg.norm(d) * np.linalg.norm(g)) > 0.999  # along the core's subgradient


def test_a_broken_record_is_named_and_the_last_chart_stays(renderer):  # noqa: F811
    X, y, names, us, vs, bs = setup(names=("hinge",))
    good = loss_scene(X, y, names, us, vs, bs).to_bytes()
    mount(renderer, good)
    header, arrays = unpack(good)
    run = header["run"]
    broken = [
        ({**header, "run": {**run, "names": ["squared"]}}, arrays),
        ({**header, "run": {**run, "tops": {"hinge": [0]}}}, arrays),
        ({**header, "run": {**run, "tops": {"hinge": [1.0, 2.0]}}}, arrays),  # a top for a λ it does not have
        ({**header, "run": {**run, "lams": [-1.0]}}, arrays),
        (header, {**arrays, "us": arrays["us"][::-1].copy()}),
        (header, {**arrays, "X": np.where(np.arange(arrays["X"].size).reshape(arrays["X"].shape) == 3, np.nan, arrays["X"])}),
        ({**header, "run": {**run, "lit": 99}}, arrays),
        (header, {**arrays, "vs": arrays["vs"][:-1]}),
        (header, {**arrays, "drawn": np.full_like(arrays["drawn"], 999)}),
        (header, {k: v for k, v in arrays.items() if k != "bs"}),
    ]
    for h, a in broken:
        refused(renderer, pack(h, a), h)
        assert renderer.locator("#scene .dbls-state").text_content().startswith("b = ")  # the last chart stays
    mount(renderer, good)
    assert renderer.locator("#scene .dbls-error").count() == 0


def test_lambda_follows_the_pages_control_in_the_browser(renderer):  # noqa: F811
    X, y, names, us, vs, bs = setup(names=("hinge", "perceptron"))
    lams = (0.0, 0.1, 1.0)
    w, b = np.array([0.8, 0.4]), float(bs[1])
    runs = {lv: hinge_sgd(X, y, C=1.0 / (len(y) * max(lv, 1e-3)), max_steps=40, seed=1) for lv in lams}
    paths = [(runs[lv].W[::4], runs[lv].B[::4], f"hinge SGD (λ = {lv:g})") for lv in lams]
    # a link's λ opens the chart there when the page has no control (the offline file)
    mount(renderer, loss_scene(X, y, names, us, vs, bs, lams=lams, paths=paths, chosen=(w, b), follow="λ of the test",
                               view=View(lam=1.0)).to_bytes())
    assert renderer.evaluate("() => window.__dblView.m.lam") == 1.0
    # the chart's own λ control (viz/js/tune.js; the exported file stands in for it)
    lam = "(v) => window.__dbl.setControl('λ of the test', v)"
    for lv in (1.0, 0.1, 0.0):
        renderer.evaluate(lam, str(lv))
        renderer.wait_for_function("(v) => window.__dblView.m.lam === v", arg=lv)
        got = drawn_at(renderer, 1)
        ref = surface("hinge", X, y, us, vs, b=float(bs[1]), lam=lv)
        np.testing.assert_allclose(np.array(got["Z"]["hinge"]).reshape(len(vs), len(us)), ref, rtol=0, atol=1e-12)
        assert got["zs"][0] == got["Z"]["hinge"]  # the bands drawn are this λ's
        assert renderer.evaluate("() => window.__dblView.plots[0].data[0].zmax") == loss_scene(
            X, y, names, us, vs, bs, lams=lams).run["tops"]["hinge"][lams.index(lv)]
        np.testing.assert_allclose(np.array(got["Z"]["perceptron"]).reshape(len(vs), len(us)),
                                   surface("perceptron", X, y, us, vs, b=float(bs[1])), rtol=0, atol=1e-12)
        # this λ's path (its states split by b) and its name in the legend, and the hinge's subgradient there
        W, B, name = paths[lams.index(lv)]
        on = np.abs(B - float(bs[1])) <= 0.02 * (bs[-1] - bs[0])
        assert got["pathOff"]["x"] == W[~on, 0].tolist()
        assert name in renderer.inner_text("#scene .dbls-legend")
        assert renderer.evaluate("() => window.__dblView.m.grad('hinge')") == hinge_subgradient(w, b, X, y, lam=lv)[0].tolist()
    renderer.evaluate(lam, None)


def test_the_image_export_draws_every_panel(renderer):  # noqa: F811
    X, y, names, us, vs, bs = setup()
    mount(renderer, loss_scene(X, y, names, us, vs, bs, chosen=(np.array([0.5, 0.5]), float(bs[2]))).to_bytes())
    drawn_at(renderer, 2)
    fig = exported_figure(renderer)
    assert fig["error"] is None, fig["error"]
    assert [n for n in fig["names"] if n in ("hinge loss", "perceptron loss", "0-1 loss")] == [
        "hinge loss", "perceptron loss", "0-1 loss"]  # a contour per panel
    notes = " ".join(fig["notes"])
    assert all(t in notes for t in ("hinge loss", "perceptron loss", "0-1 loss")) and "b = " in notes
    # the state's two lines as two lines of the image (plotly.js writes a newline as a space), the chosen weight's
    # own; with none chosen, no "click one" in a still image
    assert any("<br>chosen w = (0.5, 0.5)" in t for t in fig["notes"])
    # and wrapped to the image's width (plotly.js wraps nothing): no line wider than the figure, as drawn, one loss's
    X, y, one, us, vs, bs = setup(names=("hinge",))
    small = View(height=360)  # (a small panel: the image as narrow as a projector's column makes it)
    mount(renderer, with_view(loss_scene(X, y, one, us, vs, bs, chosen=(np.array([0.5, 0.5]), float(bs[2]))).to_bytes(), small))
    drawn_at(renderer, 2)
    widths = renderer.evaluate("""async () => {
        const fig = window.__dblView.figure(), div = document.createElement('div');
        document.body.appendChild(div);
        await window.Plotly.newPlot(div, fig.data, fig.layout);
        const note = [...div.querySelectorAll('.annotation-text')].find((t) => t.textContent.includes('chosen w'));
        const out = [note.getBoundingClientRect().right - div.getBoundingClientRect().left, fig.layout.width];
        div.remove();
        return out; }""")
    assert widths[0] <= widths[1], widths
    X, y, names, us, vs, bs = setup()
    mount(renderer, loss_scene(X, y, names, us, vs, bs).to_bytes())
    drawn_at(renderer, 2)
    fig = exported_figure(renderer)
    assert fig["error"] is None and "b = " in " ".join(fig["notes"]) and "click" not in " ".join(fig["notes"])


def test_the_image_export_draws_the_subgradient_as_the_screen_does(renderer):  # noqa: F811
    """The exported image's arrow from the chosen w is the screen's: along each loss's core subgradient, none where
    it is 0, and gone with the legend's "chosen" entry hidden."""
    X, y, names, us, vs, bs = setup()
    w, b = np.array([0.8, 0.4]), float(bs[2])
    mount(renderer, loss_scene(X, y, names, us, vs, bs, chosen=(w, b)).to_bytes())
    drawn_at(renderer, 2)
    read = """() => window.__dblView.figure().data.filter((t) => t.name === 'subgradient')
                   .map((t) => ({axis: t.xaxis, x: t.x, y: t.y, visible: t.visible}))"""
    arrows = renderer.evaluate(read)
    assert [a["axis"] for a in arrows] == ["x", "x2"]  # hinge and perceptron; the 0-1 loss's subgradient is 0
    for a, g in zip(arrows, (hinge_subgradient(w, b, X, y)[0], perceptron_subgradient(w, b, X, y)[0]), strict=True):
        assert (a["x"][0], a["y"][0]) == (w[0], w[1]) and a["visible"]
        d = np.array([a["x"][1] - a["x"][0], a["y"][1] - a["y"][0]])
        assert np.dot(d, g) / (np.linalg.norm(d) * np.linalg.norm(g)) > 0.999  # along the core's subgradient
    fig = exported_figure(renderer)
    assert fig["error"] is None and fig["names"].count("subgradient") == 2
    renderer.evaluate("() => { window.__dblView.hidden.add('chosen'); }")
    try:
        assert not any(a["visible"] for a in renderer.evaluate(read))
    finally:  # (the renderer keeps what the legend hides over the next records: the next test's too)
        renderer.evaluate("() => { window.__dblView.hidden.delete('chosen'); }")


def test_a_weight_picked_ahead_of_the_page_stays_over_records_made_before_it(renderer):  # noqa: F811
    """A pick is drawn at once (a star on the surface; its boundary on the data chart) until a record the page made
    after it (View.seen at or past the pick's time) arrives: a record made before it, arriving late, is drawn with
    the pick still over it."""
    X, y, names, us, vs, bs = setup(names=("hinge",))
    w, b = [float(us[15]), float(vs[6])], float(bs[2])
    old_chosen = (np.array([float(us[3]), float(vs[12])]), float(bs[2]))
    surface_record = loss_scene(X, y, names, us, vs, bs, chosen=old_chosen).to_bytes()
    picked = "() => document.querySelectorAll('#scene .dbls-picked').length"
    mount(renderer, with_view(surface_record, View(seen=100.0)))
    renderer.evaluate("([w, b]) => window.__dblView.preview({w, b, at: 200})", [w, b])
    assert renderer.evaluate(picked) == 1
    mount(renderer, with_view(surface_record, View(seen=150.0)))  # made before the pick
    assert renderer.evaluate(picked) == 1 and renderer.evaluate("() => window.__dblView.pending.w") == pytest.approx(w, abs=1e-6)
    mount(renderer, with_view(loss_scene(X, y, names, us, vs, bs, chosen=(np.array(w), b)).to_bytes(), View(seen=200.0)))
    assert renderer.evaluate(picked) == 0 and renderer.evaluate("() => document.querySelectorAll('#scene .dbls-chosen').length") == 1

    # the data chart: the pick's boundary and M (by the rule, as the core sums it) drawn at once, and again over a
    # record made before it; the record made after it draws the core's M, the same
    data = lambda seen, chosen: with_view(loss_data_scene(X, y, names, chosen=chosen).to_bytes(), View(seen=seen))  # noqa: E731
    state = """() => { const r = document.getElementById('scene'), g = r.querySelector('.js-plotly-plot');
        return {lines: r.querySelectorAll('.dbls-over line').length, rings: Number(r.querySelector('.dbls-rings').dataset.rings),
                pending: Boolean(g.layout.meta.pending), chosen: g.layout.meta.chosen, mis: g.layout.meta.mis,
                busy: r.getAttribute('aria-busy'), state: r.querySelector('.dbls-state').textContent}; }"""
    mount(renderer, data(100.0, old_chosen))
    renderer.evaluate("([w, b]) => window.__dblView.previewPick({w, b, at: 200})", [w, b])
    ahead = renderer.evaluate(state)
    mis = misclassified(X, y, np.array(w), b).tolist()
    assert 0 < len(mis) < len(y)
    assert ahead == {"lines": 1, "rings": len(mis), "pending": True, "chosen": [*w, b], "mis": mis, "busy": "true",
                     "state": data_state(X, y, np.array(w), b, losses_at(names, np.array(w), b, X, y, 0.0)).replace("<br>", "\n")}
    mount(renderer, data(150.0, old_chosen))  # made before the pick: drawn, and the pick over it again
    assert renderer.evaluate(state) == ahead
    mount(renderer, data(200.0, (np.array(w), b)))  # made after it: the record's weight, M from the core
    assert renderer.evaluate(state) == {**ahead, "pending": False, "busy": None}


@pytest.mark.parametrize("w,b", [((1.0, 0.5), 0.2), ((0.3, -1.2), 0.5), ((-1.0, 0.0), 0.0)])
def test_the_data_chart_draws_the_chosen_boundary_its_sides_and_m(renderer, w, b):  # noqa: F811
    """The data chart (viz/js/lossdata.js) draws the record's weight: its boundary on w·x + b = 0, the side w·x + b > 0
    shaded blue and the other orange, a ring on each point of M, and writes data_state's words."""
    X, y, names, *_ = setup()
    w = np.array(w)
    mount(renderer, loss_data_scene(X, y, names, (0.0, 1.0), chosen=(w, b), lit=2).to_bytes())
    got = renderer.evaluate("""() => { const v = window.__dblView, r = document.getElementById('scene');
        return {meta: v.plot.layout.meta, g: {pos: v.g.regPos, neg: v.g.regNeg}, rings: Number(r.querySelector('.dbls-rings').dataset.rings),
                state: r.querySelector('.dbls-state').textContent, legend: r.querySelector('.dbls-legend').textContent,
                polys: r.querySelectorAll('.dbls-under path').length}; }""")
    mis = misclassified(X, y, w, b).tolist()
    assert got["meta"]["mis"] == mis and got["rings"] == len(mis) and got["polys"] == 2
    tips = renderer.evaluate("(n) => Array.from({length: n}, (_, i) => window.__dblView.tipFor(i))", len(y))
    assert [t.endswith("in M: y·(w·x + b) ≤ 0 at the weight chosen") for t in tips] == [i in mis for i in range(len(y))]
    for x, yy in zip(got["meta"]["boundary_x"], got["meta"]["boundary_y"], strict=True):
        assert abs(w[0] * x + w[1] * yy + b) < 1e-9 * max(1.0, abs(x) + abs(yy))
        x0, x1, y0, y1 = view_box(X)
        assert not (x0 <= x <= x1 and y0 <= yy <= y1)  # its ends past the view's edges (clipped to the record's clip)
    for side, sign in (("pos", 1), ("neg", -1)):  # each side's polygon lies where sign·(w·x + b) ≥ 0
        xs, ys = got["g"][side]
        assert len(xs) >= 3 and all(sign * (w[0] * a + w[1] * c + b) >= -1e-9 for a, c in zip(xs, ys, strict=True))
    assert got["state"] == data_state(X, y, w, b, losses_at(names, w, b, X, y, 0.0)).replace("<br>", "\n")
    assert "M: misclassified" in got["legend"] and "x₃ lit" in got["legend"]
    # the legend hides the sides and M
    renderer.evaluate("() => { window.__dblView.toggle('sides'); window.__dblView.toggle('ring'); }")
    hidden = renderer.evaluate("() => [document.querySelectorAll('#scene .dbls-under path').length, "
                               "Number(document.querySelector('#scene .dbls-rings').dataset.rings)]")
    renderer.evaluate("() => { window.__dblView.toggle('sides'); window.__dblView.toggle('ring'); }")
    assert hidden == [0, 0]
    # no weight chosen: no line, no ring, no state, the instruction above
    mount(renderer, loss_data_scene(X, y, names).to_bytes())
    none = renderer.evaluate("""() => { const r = document.getElementById('scene');
        return [r.querySelectorAll('.dbls-over line').length, Number(r.querySelector('.dbls-rings').dataset.rings),
                r.querySelector('.dbls-state').textContent, r.querySelector('.dbls-ld-title').textContent]; }""")
    assert none[:3] == [0, 0, ""] and none[3].startswith("Click a weight on the surface")


def test_a_data_chart_record_it_cannot_draw_is_named(renderer):  # noqa: F811
    X, y, names, *_ = setup()
    good = loss_data_scene(X, y, names, chosen=(np.array([1.0, 0.5]), 0.2)).to_bytes()
    h, a = unpack(good)
    cases = [({**h, "run": {**h["run"], "clip": [0, 1, "a", 3]}}, a),
             ({**h, "run": {**h["run"], "losses": None}}, a),
             (h, {**a, "mis": np.array([len(y)], dtype=np.uint16)}),
             ({**h, "run": {**h["run"], "chosen": None, "losses": None}}, a),  # M with no weight
             ({**h, "run": {**h["run"], "names": ["squared"]}}, a)]
    for hh, aa in cases:
        refused(renderer, pack(hh, aa), hh["run"])
    mount(renderer, good)
    assert renderer.locator("#scene .dbls-error").count() == 0


def test_new_points_open_the_surface_at_its_start_b(renderer):  # noqa: F811
    """The surface's "step" is its b: new points (another dataset, a point clicked in) open it at the b the page starts
    it at, not at the smallest b; the same points keep the b shown."""
    X, y, names, us, vs, bs = setup(names=("hinge",))
    shown = "() => window.__dblView.i"
    mount(renderer, with_view(loss_scene(X, y, names, us, vs, bs).to_bytes(), View(start=2)))
    renderer.evaluate("() => window.__dblView.show(4)")
    mount(renderer, with_view(loss_scene(X, y, names, us, vs, bs, chosen=((0.5, 0.5), float(bs[4]))).to_bytes(), View(start=2)))
    assert renderer.evaluate(shown) == 4  # the same points: the b kept
    X2 = X.copy()
    X2[0] += 0.25  # a point moved
    mount(renderer, with_view(loss_scene(X2, y, names, us, vs, bs).to_bytes(), View(start=2)))
    assert renderer.evaluate(shown) == 2


def test_the_data_chart_says_a_boundary_outside_its_view(renderer):  # noqa: F811
    """A weight whose boundary does not cross the data's view: the panel says so, and which side the view is on (the
    second tester saw a plot all blue and no line)."""
    X, y, names, *_ = setup()
    note = "() => { const t = document.querySelector('#scene .dbls-offview'); return t ? t.textContent : null; }"
    mount(renderer, loss_data_scene(X, y, names, chosen=(np.array([1.0, 1.0]), 100.0)).to_bytes())
    assert renderer.evaluate(note) == "the boundary w·x + b = 0 is outside the view: w·x + b > 0 all over it"
    mount(renderer, loss_data_scene(X, y, names, chosen=(np.array([1.0, 1.0]), 0.0)).to_bytes())
    assert renderer.evaluate(note) is None
