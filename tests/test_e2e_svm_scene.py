"""The SVM renderer in Chromium: what it draws at each C is the solver's solution at that C.

The renderer (``viz/js/svm.js`` over the modules they import) runs as in the offline HTML export. For every kernel,
at several C of the grid (and the hard margin), the points' categories and the support vectors must be exactly
the solver's, the status and the state line exactly the Python references' (:func:`oracles.svm_status`,
:func:`oracles.svm_state`), the ξ labels the largest ξ, and the curves drawn must lie where f = 0 and f = ±1,
each slack segment ending on its point's own margin line.
"""

from __future__ import annotations

import html

import numpy as np
import pytest
from oracles import svm_state, svm_status
from playwright.sync_api import Page
from test_e2e_scene import mount, renderer  # noqa: F401  (the page holding the renderer)
from test_viz_svm import label_order

from core.dual import decision_function
from core.svm import C_GRID, fit_svm, path_of, svm_grid
from datasets import make_dataset
from viz.common import num, sub, view_box
from viz.scene import View, svm_scene, with_view
from viz.svm import MAX_SLACK_LABELS, categories, margin_tol


def drawn_at(page: Page, k: int) -> dict:
    return page.evaluate("""(k) => {
        const v = window.__dblView;
        v.show(k);
        return {...v.drawn(), i: v.i, text: document.querySelector('#scene .dbls-text').innerHTML,
                state_shown: document.querySelector('#scene .dbls-state').textContent,
                live: document.querySelector('#scene .dbls-live').textContent,
                at: document.querySelector('#scene .dbls-at').textContent,
                labels_drawn: document.querySelectorAll('#scene .dbls-xi').length,
                label_boxes: [...document.querySelectorAll('#scene .dbls-xi')].map((t) => {
                    const r = t.getBBox(); return [r.x, r.y, r.x + r.width, r.y + r.height]; }),
                marks_drawn: document.querySelectorAll('#scene .dbls-mark').length,
                meta: document.querySelector('#scene .dbls-plot').layout.meta};
    }""", k)


def f_of(sol, X, y, P):
    """f at the points P, from the solution itself."""
    P = np.asarray(P, dtype=float).reshape(-1, 2)
    if sol.kernel == "linear":
        return P @ sol.w + sol.b
    return decision_function(X, y, sol.alpha, sol.b, P, sol.kernel, **dict(sol.kernel_params))


def check_svm(page: Page, X, y, sols, ks, path=None) -> None:
    mount(page, svm_scene(X, y, sols, path=path).to_bytes())
    box = view_box(X)
    for k in ks:
        s = sols[k]
        got = drawn_at(page, k)
        assert got["i"] == k and got["C"] == (s.C if np.isfinite(s.C) else None) or not np.isfinite(s.C)
        assert got["cat"] == categories(y, s.decision, margin_tol(s, box)).tolist(), k
        assert got["sv"] == np.flatnonzero(s.support).tolist()
        assert html.unescape(got["text"]) == svm_status(s, X, y), k
        state = svm_state(s, y)
        assert got["state"] == got["state_shown"] == state.replace("<br>", "\n")
        assert got["live"] == state.replace("<br>", "; ")
        assert got["at"] == (f"C = {s.C:g}" if np.isfinite(s.C) else "Hard margin (C = ∞)")
        assert got["meta"]["C"] == (s.C if np.isfinite(s.C) else None)
        # the curves: f = 0 and f = ±1 (exact for a line; up to the grid's interpolation for a kernel)
        scale = np.abs(f_of(s, X, y, X)).max() + 1
        tol = 1e-9 * scale if s.kernel == "linear" else 0.03 * scale
        for level in ("-1", "0", "1"):
            segs = np.array(got["lines"][level], dtype=float).reshape(-1, 2)
            if segs.size:
                assert np.abs(f_of(s, X, y, segs) - float(level)).max() <= tol, (k, level)
        # slack: each segment from a violator to its own margin line f(x) = yᵢ; with a line, every violator, and
        # the segment's length·‖w‖ is ξᵢ
        viol = np.flatnonzero(s.slack > 1e-3)
        starts = [i for i, _ in got["slack"]]
        assert set(starts) <= set(viol.tolist())
        for i, foot in got["slack"]:
            assert f_of(s, X, y, foot)[0] == pytest.approx(y[i], abs=tol if s.kernel == "linear" else 0.06 * scale)
            if s.kernel == "linear":
                assert np.linalg.norm(np.array(foot) - X[i]) * np.linalg.norm(s.w) == pytest.approx(s.slack[i], abs=1e-9)
        if s.kernel == "linear" and np.any(s.w):
            assert sorted(starts) == viol.tolist()
            top = label_order(s)[:MAX_SLACK_LABELS]
            assert got["labels"] == [f"ξ{sub(i + 1)}={num(s.slack[i], 2)}" for i in top]
        # written: the largest ξ first, then each label that lies over none written before (none lies over another)
        assert got["labels_drawn"] == len(got["shownLabels"]) <= len(got["labels"]) <= MAX_SLACK_LABELS
        assert got["shownLabels"][:1] == got["labels"][:1] and set(got["shownLabels"]) <= set(got["labels"])
        boxes = got["label_boxes"]
        assert not [(a, b) for j, a in enumerate(boxes) for b in boxes[j + 1:]
                    if a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5]
        # the width arrow: from a point of the boundary in view (the middle unless its label covers points there),
        # 1/‖w‖ each way along w
        if s.kernel == "linear" and np.isfinite(s.margin) and got["arrow"]:
            a = got["arrow"]
            mid = np.array(a["mid"])
            assert box[0] - 1e-9 <= mid[0] <= box[1] + 1e-9 and box[2] - 1e-9 <= mid[1] <= box[3] + 1e-9
            assert f_of(s, X, y, mid)[0] == pytest.approx(0, abs=1e-9 * scale)
            for end in ("tip", "tail"):
                v = np.array(a[end]) - mid
                assert np.linalg.norm(v) == pytest.approx(s.margin)
                assert abs(v @ s.w) == pytest.approx(np.linalg.norm(v) * np.linalg.norm(s.w))
            assert a["text"] == f"width 2/‖w‖ = {num(2 * s.margin)}"
        # the objective's bar: ½‖w‖² and C Σξ (from w and the slacks), J the solver's
        J = got["J"]
        if s.kernel == "linear" and np.isfinite(s.C):
            assert J["reg"] == pytest.approx(0.5 * s.w @ s.w)
            assert J["slack"] == pytest.approx(s.C * np.maximum(0, 1 - y * (X @ s.w + s.b)).sum(), rel=1e-6, abs=1e-9)
        assert J["total"] == s.objective
        on_path = path is not None and s.C in path["C"]
        assert got["mark"] == (path["C"].index(s.C) if on_path else -1)
        assert got["marks_drawn"] == (3 if on_path else 0)


@pytest.mark.parametrize("name,n,kernel,params", [
    ("blobs", 60, "linear", {}), ("outlier", 40, "linear", {}), ("xor", 80, "linear", {}),
    ("circles", 80, "rbf", {"gamma": 1.0}), ("moons", 60, "poly", {"degree": 3, "coef0": 1.0}),
])
def test_every_c_draws_the_solvers_solution(renderer: Page, name, n, kernel, params):  # noqa: F811
    X, y = make_dataset(name, n, 0)
    sols = svm_grid(X, y, kernel=kernel, **params)
    check_svm(renderer, X, y, sols, [0, 3, 12, 20, 24], path_of(sols))


def test_ties_and_duplicate_points(renderer: Page):  # noqa: F811
    rng = np.random.default_rng(5)
    X = rng.integers(-3, 4, size=(40, 2)).astype(float)
    X[20:30] = X[:10]  # duplicates, some with the other label
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    y[25:28] *= -1
    sols = svm_grid(X, y)
    check_svm(renderer, X, y, sols, [0, 6, 12, 24], path_of(sols))


def test_the_hard_margin_and_one_c(renderer: Page):  # noqa: F811
    X, y = make_dataset("blobs", 40, 0)
    path = path_of(svm_grid(X, y))
    check_svm(renderer, X, y, [fit_svm(X, y, C=float("inf"))], [0], path)
    # one solution: nothing to move, no C in a copied link
    assert renderer.evaluate("() => [window.__dblView.cLabel, document.querySelector('#scene').classList.contains('dbls-one')]") == [None, True]
    check_svm(renderer, X, y, [fit_svm(X, y, C=3.0)], [0], path)  # a C off the grid: not marked


def test_keys_sweep_and_the_view_start(renderer: Page):  # noqa: F811
    X, y = make_dataset("blobs", 50, 1)
    sols = svm_grid(X, y)
    blob = svm_scene(X, y, sols, path=path_of(sols)).to_bytes()
    mount(renderer, with_view(blob, View(start=C_GRID.index(10.0))))
    assert renderer.evaluate("() => window.__dblView.cLabel") == "10"  # the link's (the export's) C
    assert renderer.evaluate("() => [window.__dblView.key('End'), window.__dblView.i]") == [True, 24]
    assert renderer.evaluate("() => [window.__dblView.key('Home'), window.__dblView.key('ArrowRight'), window.__dblView.cLabel]") == [True, True, "0.001778"]
    renderer.evaluate("() => window.__dblView.play(120)")
    renderer.wait_for_function("() => window.__dblView.i === 24 && !window.__dblView.timer", timeout=20_000)
    # the PNG/SVG figure holds the panels and the words
    fig = renderer.evaluate("() => { const f = window.__dblView.figure(); return {names: f.data.map(t => t.name || ''), "
                            "texts: f.layout.annotations.map(a => a.text), axes: Object.keys(f.layout).filter(k => k.startsWith('xaxis'))}; }")
    assert "support vectors" in fig["names"] and "boundary f(x) = 0" in fig["names"]
    assert fig["texts"][0] == svm_status(sols[24], X, y)
    assert svm_state(sols[24], y) in fig["texts"][1]
    assert set(fig["axes"]) == {"xaxis", "xaxis2", "xaxis3", "xaxis4", "xaxis5"}


def test_a_broken_record_is_named_and_the_chart_stays(renderer: Page):  # noqa: F811
    X, y = make_dataset("blobs", 30, 0)
    sols = svm_grid(X, y)
    good = svm_scene(X, y, sols).to_bytes()
    mount(renderer, good)
    bad = good.replace(b'"kernel":"linear"', b'"kernel":"sigmoi"', 1)
    mount(renderer, bad)
    msg = renderer.evaluate("() => document.querySelector('#scene .dbls-error').textContent")
    assert "kernel sigmoi" in msg
    assert renderer.evaluate("() => document.querySelector('#scene').classList.contains('dbls-failed') && !!document.querySelector('#scene .dbls-plot')._fullLayout")
    mount(renderer, good)
    assert renderer.evaluate("() => !document.querySelector('#scene .dbls-error')")


def test_ten_thousand_points_each_painted_in_its_class_colour(renderer):  # noqa: F811
    """The linear SVM page takes 10,000 points: every C of the grid, categories and support vectors exact; each point
    is painted (a stamp per kind) in its class's colour where it lies."""
    X, y = make_dataset("blobs", 10_000, 0)
    sols = svm_grid(X, y, C_GRID)
    check_svm(renderer, X, y, sols, [0, 12, len(sols) - 1])
    renderer.evaluate("() => { const v = window.__dblView; for (const p of ['sv', 'slack', 'line', 'margin']) "
                      "if (!v.hidden.has(p)) v.toggle(p); v.show(12); }")
    colours = renderer.evaluate("""() => {
        const v = window.__dblView, m = v.m, fl = v.plot._fullLayout, dpr = window.devicePixelRatio || 1;
        const ctx = document.querySelector('#scene canvas.dbls-canvas-over').getContext('2d');
        const out = [];
        const at = (i) => [fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]), fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1])];
        for (let i = 0; i < m.N && out.length < 60; i += 3) {
            if (v.g.cat[i] !== 0) continue;  // a filled marker (outside the margin): its centre is its colour
            const [x, y] = at(i);
            let alone = true;  // no other marker reaches its centre
            for (let j = 0; j < m.N && alone; j++) { const [u, w] = at(j); alone = j === i || Math.hypot(u - x, w - y) > v.size; }
            if (alone) out.push([m.y[i], Array.from(ctx.getImageData(Math.round(x * dpr - 0.5), Math.round(y * dpr - 0.5), 1, 1).data)]);
        }
        return out;
    }""")
    rgb = {1: [0, 114, 178], -1: [213, 94, 0]}  # viz.common.POS_COLOUR, NEG_COLOUR
    assert len(colours) > 20
    assert all(px == [*rgb[cls], 255] for cls, px in colours), colours  # a lone point: its class's colour
    renderer.evaluate("() => { const v = window.__dblView; for (const p of ['sv', 'slack', 'line', 'margin']) v.toggle(p); }")


WIDTH_LABEL_COVERS = """(k) => {
    const v = window.__dblView;
    v.show(k);
    const g = v.g, m = v.m, t = document.querySelector('#scene .dbls-width-text');
    if (!t || !g.arrows) return null;
    const r = t.getBoundingClientRect(), pr = v.plot.getBoundingClientRect(), fl = v.plot._fullLayout;
    let inside = 0;
    for (let i = 0; i < m.N; i++) {
        const x = pr.left + fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]), y = pr.top + fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1]);
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) inside++;
    }
    return {inside, covers: g.arrowCovers, chosen: g.arrows.indexOf(g.arrow), n: g.arrows.length};
}"""


def test_the_width_label_stands_where_it_covers_no_point(renderer: Page) -> None:  # noqa: F811
    """The "width 2/‖w‖" arrow starts at the boundary's middle unless its label would cover points there (a support
    vector lies where the arrow ends); then at another point of the boundary. The label as drawn (its box in the
    page) covers no point's centre wherever such a place exists, and the middle is left on some of these C."""
    moved = 0
    for name, n, seed in [("blobs", 60, 1), ("separable", 100, 0), ("moons", 200, 1)]:
        X, y = make_dataset(name, n, seed)
        sols = svm_grid(X, y)
        mount(renderer, svm_scene(X, y, sols).to_bytes())
        for k in range(0, len(sols), 4):
            got = renderer.evaluate(WIDTH_LABEL_COVERS, k)
            if got is None:
                continue
            assert 0 <= got["chosen"] < got["n"]
            if got["covers"] == 0:
                assert got["inside"] == 0, (name, k)
            moved += got["chosen"] > 0
    assert moved  # the middle was covered at least once, and the label moved


def test_the_c_path_rows_tick_zero_and_their_largest_value(renderer: Page):  # noqa: F811
    """Each row of the C path (width, support vectors, Σξ) is labelled 0 and its largest value, as the path holds it,
    however short the row (plotly.js would place one tick alone), and named in its top right corner."""
    tops = [_c_path_rows(renderer, *make_dataset(name, n, 0)) for name, n in (("blobs", 40), ("xor", 300))]
    assert tops[0] < 1000 <= tops[1]  # (the XOR's widest margin is labelled in whole units)


def _c_path_rows(page: Page, X, y) -> float:
    """Check the C path's rows for the points (X, y); return the widest margin on the path."""
    from viz.common import num

    sols = svm_grid(X, y)
    path = path_of(sols)
    mount(page, svm_scene(X, y, sols, path=path).to_bytes())
    got = page.evaluate("""() => { const l = window.__dblView.sideEl.layout;
        return [2, 3, 4].map((r) => ({ticks: l[`yaxis${r}`].ticktext, vals: l[`yaxis${r}`].tickvals, top: l[`yaxis${r}`].range[1]}))
          .concat([l.annotations.map((a) => [a.text, a.yanchor])]); }""")
    rows, names = got[:3], got[3]
    for row, key in zip(rows, ("width", "support", "slack"), strict=True):
        top = max(float(v) for v in path[key] if np.isfinite(v))
        label = f"{int(np.floor(top + 0.5)):,}" if top >= 1000 else num(top)  # (whole units from 1,000 on)
        assert row["vals"] == [0, top] and row["ticks"] == ["0", label] and row["top"] > top, key
    assert names == [["width", "top"], ["# SVs", "top"], ["Σξ", "top"]]
    return max(float(v) for v in path["width"] if np.isfinite(v))


def test_the_width_arrow_is_clipped_to_the_plot_at_a_small_c(renderer: Page) -> None:  # noqa: F811
    """At the smallest C the margin is wider than the view, and so is the arrow across it: it is drawn within the plot
    (clipped to the plot area), never over the page around it."""
    X, y = make_dataset("outlier", 40, 0)
    sols = svm_grid(X, y)
    mount(renderer, svm_scene(X, y, sols).to_bytes())
    got = renderer.evaluate("""() => {
        const v = window.__dblView;
        v.show(0);
        const a = document.querySelector('#scene .dbls-width'), fl = v.plot._fullLayout, b = a.getBBox();
        const id = (a.getAttribute('clip-path') || '').replace(/^url\\(#(.*)\\)$/, '$1');
        const r = id && document.getElementById(id) && document.getElementById(id).querySelector('rect');
        return {arrow: [b.x, b.y, b.x + b.width, b.y + b.height],
                plot: [fl.xaxis._offset, fl.yaxis._offset, fl.xaxis._offset + fl.xaxis._length, fl.yaxis._offset + fl.yaxis._length],
                clip: r ? ['x', 'y', 'width', 'height'].map((k) => +r.getAttribute(k)) : null}; }""")
    x0, y0, x1, y1 = got["plot"]
    ax0, ay0, ax1, ay1 = got["arrow"]
    assert ax0 < x0 - 5 or ay0 < y0 - 5 or ax1 > x1 + 5 or ay1 > y1 + 5, got  # (the arrow runs past the plot here)
    assert got["clip"] == pytest.approx([x0, y0, x1 - x0, y1 - y0]), got


def test_a_kernel_s_margin_curves_are_stroked_as_long_dashed_lines(renderer: Page) -> None:  # noqa: F811
    """A kernel's f = ±1 curves come as one short segment per grid cell, each shorter than a dash: stroked apart, each
    began a dash and the curve looked solid where the legend shows it dashed. They are stroked joined into polylines:
    a few curves, not hundreds of pieces; a line's two margins are two."""
    X, y = make_dataset("circles", 80, 0)
    mount(renderer, svm_scene(X, y, svm_grid(X, y, kernel="rbf", gamma=1.0)).to_bytes())
    got = renderer.evaluate("""() => { const v = window.__dblView; v.show(12);
        return [v.g.lines[-1].length + v.g.lines[1].length, Number(document.querySelector('#scene .dbls-canvas-over').dataset.marginLines)]; }""")
    pieces, lines = got
    assert pieces > 50 and 1 <= lines <= 8, got
    gaps = renderer.evaluate("""() => window.__dblView.figure().data.find((t) => t.name === 'margin f(x) = ±1').x
        .filter((v) => v === null).length""")
    assert gaps == lines  # the exported image's trace: the same polylines, a gap after each
    X, y = make_dataset("blobs", 40, 0)
    mount(renderer, svm_scene(X, y, svm_grid(X, y)).to_bytes())
    assert renderer.evaluate("() => { window.__dblView.show(12); return Number(document.querySelector('#scene .dbls-canvas-over').dataset.marginLines); }") == 2


def test_the_xi_labels_keep_off_the_points_where_they_can(renderer: Page) -> None:  # noqa: F811
    """Each ξ label stands where it covers the fewest points (beside its point, above, below, or along its slack
    segment), within the plot: at 40 XOR points it covered points and rings along the segment alone."""
    X, y = make_dataset("xor", 40, 0)
    mount(renderer, svm_scene(X, y, svm_grid(X, y)).to_bytes())
    for k in (12, 16, 20):
        got = renderer.evaluate("""(k) => { const v = window.__dblView; v.show(k);
            const fl = v.plot._fullLayout, xa = fl.xaxis, ya = fl.yaxis, r = document.querySelector('#scene .dbls-over').getBoundingClientRect();
            const P = []; for (let i = 0; i < v.m.N; i++) P.push([xa._offset + xa.l2p(v.m.X[2 * i]), ya._offset + ya.l2p(v.m.X[2 * i + 1])]);
            const e = v.size / 2;  // (a marker's radius: a point whose disc reaches under the words)
            const under = (b) => P.filter(([x, y]) => x > b.left - r.left - e && x < b.right - r.left + e && y > b.top - r.top - e && y < b.bottom - r.top + e).length;
            const boxes = [...document.querySelectorAll('#scene .dbls-xi')].map((t) => t.getBoundingClientRect());
            return {n: boxes.length, labels: v.g.labels.length, covered: boxes.map(under),
                    inside: boxes.every((b) => b.left - r.left >= xa._offset - 1 && b.right - r.left <= xa._offset + xa._length + 1
                                               && b.top - r.top >= ya._offset - 1 && b.bottom - r.top <= ya._offset + ya._length + 1)}; }""", k)
        assert got["n"] >= min(3, got["labels"]) and got["inside"], got
        assert sum(got["covered"]) <= 1, got  # (a point under a label: at most one in the panel)
