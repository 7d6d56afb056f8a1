"""The Dual / Gram renderer in Chromium: what it draws at step k is the core's dual run at step k.

The renderer (``viz/js/dual.js`` over the modules they import) runs as in the offline HTML export. For random runs of
every kernel and both orders, with ties and duplicate points, at random steps, the rings must be exactly the
core's mistakes y·f(x) ≤ 0, α the core's α, the lit row and the examined point the core's, and the arithmetic and
the state line exactly the Python references' (:func:`oracles.describe_dual_step`, :func:`oracles.dual_state`).
"""

from __future__ import annotations

import html

import numpy as np
import pytest
from oracles import describe_dual_step
from playwright.sync_api import Page
from test_e2e_scene import mount, refused, renderer  # noqa: F401  (the page holding the renderer)
from test_viz_dual import state_line, ties_and_duplicates

from core.dual import decision_function, run_dual
from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.common import num
from viz.scene import View, dual_scene, with_view


def drawn_at(page: Page, step: int) -> dict:
    return page.evaluate("""(step) => {
        const v = window.__dblView, m = v.m;
        v.show(m.stopOf(step));
        const d = v.drawn();
        return {...d, text: document.querySelector('#scene .dbls-text').innerHTML,
                state: document.querySelector('#scene .dbls-state').textContent,
                live: document.querySelector('#scene .dbls-live').textContent,
                rings_drawn: (document.querySelector('#scene .dbls-rings')?.getAttribute('d') || '').split('M').length - 1,
                row_drawn: !!document.querySelector('#scene .dbls-row'),
                meta: document.querySelector('#scene .dbls-plot')._fullLayout.meta};
    }""", step)


def check_dual(page: Page, traj, steps, primal=None, mounted: bool = False) -> None:
    """At each of ``steps``, the drawing and the words equal the core's run (``mounted``: its record is drawn)."""
    if not mounted:
        mount(page, dual_scene(traj, primal).to_bytes())
    p = traj.problem
    olds = 0
    for step in steps:
        got = drawn_at(page, int(step))
        assert got["step"] == step
        (alpha,), (b,) = traj.states([step])
        mis = np.flatnonzero(traj.mistakes([step])[0])
        assert got["ring"] == mis.tolist(), step  # the core's M, ties included
        assert got["rings_drawn"] == mis.size
        assert got["alpha"] == alpha.tolist(), step  # α = η·count, bit for bit
        halos = np.array(got["halos"])
        assert ((halos > 0) == (alpha > 0)).all()
        order = np.argsort(alpha[alpha > 0], kind="stable")
        assert (np.diff(halos[alpha > 0][order]) >= 0).all()  # a larger α, a larger halo
        i = int(traj.examined(step)[0]) if step else -1
        assert got["exam"] == i and got["row_drawn"] == (step > 0)
        if step:
            kb = got["meta"]["gram_block"]
            assert got["row"] == [(i // kb) * kb + 0.5, min((i // kb) * kb + kb, p.n) + 0.5]
        assert got["updated"] == (int(traj.updated(step)[0]) if traj.updated(step).size else -1)
        if got["old"]:  # the boundary before, on an update only
            assert traj.updated(step).size > 0
            olds += 1
        assert html.unescape(got["text"]) == html.unescape(describe_dual_step(traj, int(step), primal)), step
        assert got["state"] == state_line(traj, int(step)), step
        assert got["live"] == f"Step {step:,} of {traj.n_steps:,}: {state_line(traj, int(step))}"
        segs = np.array(got["line"], dtype=float).reshape(-1, 2)
        if segs.size and alpha.any():  # the boundary lies on f(x) = 0, up to the grid's interpolation
            f = decision_function(p.X, p.y, alpha, float(b), segs, p.kernel, **dict(p.kernel_params))
            scale = np.abs(decision_function(p.X, p.y, alpha, float(b), p.X, p.kernel, **dict(p.kernel_params))).max()
            assert np.abs(f).max() <= 0.05 * scale + 1e-9, step
    return olds


def picks(traj, k: int, rng) -> list[int]:
    S = traj.n_steps
    return sorted({0, 1, S, *traj.update_steps[:3].tolist(), *rng.integers(0, S + 1, size=k).tolist()})


def test_the_textbook_run_step_by_step(renderer):  # noqa: F811
    X, y = make_dataset("textbook", 3, 0)
    traj = run_dual(X, y)
    olds = check_dual(renderer, traj, range(traj.n_steps + 1), run_perceptron(X, y))
    W = traj.weights([0, *traj.update_steps.tolist()])
    assert olds == sum(W[k - 1].any() for k in range(1, traj.n_updates + 1))  # a line before every update but from w = 0
    got = drawn_at(renderer, 15)
    assert "2·(+1)·6 + 4·(−1)·2 + (−2) = 2" in got["text"] and "‖Δw‖∞ = 0, |Δb| = 0" in got["text"]
    assert got["meta"]["view"] == "dual" and got["meta"]["n_updates"] == 7


@pytest.mark.parametrize("seed", range(4))
def test_random_runs_with_ties_and_duplicates_every_kernel(renderer, seed):  # noqa: F811
    rng = np.random.default_rng(seed)
    X, y = ties_and_duplicates(seed, 30)
    order = "random" if seed % 2 else "cyclic"
    for kernel, params in [("linear", {}), ("poly", {"degree": 2, "coef0": 1.0}), ("rbf", {"gamma": 0.8})]:
        traj = run_dual(X, y, kernel=kernel, variant=order, eta=0.5, max_steps=250, seed=seed, **params)
        primal = run_perceptron(X, y, variant=order, tau=0.5, max_steps=250, seed=seed) if kernel == "linear" else None
        check_dual(renderer, traj, picks(traj, 10, rng), primal)


def test_decimal_data_and_a_large_kernel_run(renderer):  # noqa: F811
    rng = np.random.default_rng(5)
    X, y = make_dataset("circles", 80, 0)
    traj = run_dual(X, y, kernel="rbf", gamma=2.0, max_steps=400)
    check_dual(renderer, traj, picks(traj, 8, rng))
    X, y = make_dataset("xor", 2000, 0)
    big = run_dual(X, y, kernel="rbf", gamma=1.0, variant="random", max_steps=1000)
    check_dual(renderer, big, picks(big, 4, rng))


def test_updates_mode_and_a_link_step(renderer):  # noqa: F811
    X, y = make_dataset("textbook", 3, 0)
    traj = run_dual(X, y)
    mount(renderer, with_view(dual_scene(traj).to_bytes(), View(mode="updates", start=9)))
    stops = renderer.evaluate("() => { const v = window.__dblView; const s = []; "
                              "for (let i = 0; i < v.m.nStops; i++) s.push(v.m.stepAt(i)); return [v.step, s]; }")
    assert stops[1] == sorted({0, *traj.update_steps.tolist(), traj.n_steps})
    assert stops[0] == max(s for s in stops[1] if s <= 9)
    renderer.evaluate("() => window.__dblView.key('End')")
    assert renderer.evaluate("() => window.__dblView.step") == traj.n_steps


def test_a_broken_dual_record_is_named_and_the_last_chart_stays(renderer):  # noqa: F811
    from viz.scene import pack, unpack

    X, y = make_dataset("textbook", 3, 0)
    good = dual_scene(run_dual(X, y)).to_bytes()
    mount(renderer, good)
    header, arrays = unpack(good)
    bad_run = [("kernel", "sigmoid"), ("eta", 0.0), ("m_rule", "changes"), ("primal_steps", 15), ("gram_block", 0)]
    cases = [(header, {**arrays, "B": arrays["B"][:-1]}), (header, {**arrays, "update_points": arrays["update_points"] + 7}),
             (header, {**arrays, "W": arrays["W"][:0]}), (header, {**arrays, "terms": arrays["terms"][:1]}),
             (header, {**arrays, "m_ptr": arrays["m_ptr"] + 1}), (header, {**arrays, "update_steps": arrays["update_steps"][::-1]}),
             (header, {**arrays, "gram": arrays["gram"][:2]}), (header, {**arrays, "f_exam": arrays["f_exam"] * np.nan}),
             *(({**header, "run": {**header["run"], key: value}}, arrays) for key, value in bad_run)]
    for j, (head, broken) in enumerate(cases):
        refused(renderer, pack(head, broken), j)
        assert renderer.locator("#scene .dbls-error").count() == 1, j  # named once, whatever is wrong
        assert renderer.locator("#scene .dbls-plot .scatterlayer .trace").count() >= 2  # the last chart stays, dimmed
    mount(renderer, good)
    assert renderer.locator("#scene .dbls-error").count() == 0


def test_the_chart_as_an_image_holds_the_three_panels_and_the_words(renderer):  # noqa: F811
    X, y = make_dataset("circles", 60, 0)
    traj = run_dual(X, y, kernel="rbf", gamma=1.0, max_steps=200)
    mount(renderer, dual_scene(traj).to_bytes())
    svg = renderer.evaluate("""async () => {
        const v = window.__dblView;
        v.show(v.m.stopOf(30));
        const url = await Plotly.toImage(v.figure(), {format: 'svg'});
        return decodeURIComponent(url.slice(url.indexOf(',') + 1));
    }""")
    assert "Step 30" in svg and "Gram matrix" in svg and "point i" in svg  # the words, the heatmap and the bars
    assert "M: y·f(x) ≤ 0" in svg and "boundary f(x) = 0" in svg  # the legend names what is drawn


def test_a_kernel_record_for_every_eta_follows_the_eta_control(renderer):  # noqa: F811
    """One kernel run made with η = 1, sent for every η: at each η the control shows, α, b, f and every word are the
    core's run with that η, bit for bit, and moving η sends no new record."""
    from test_e2e_compare_scene import set_control

    X, y = ties_and_duplicates(5)
    rng = np.random.default_rng(5)
    etas = [0.01, 0.1, 0.5, 1.0, 2.0, 10.0]
    kw = {"kernel": "rbf", "gamma": 0.5, "variant": "random", "seed": 3, "max_steps": 150}
    blob = dual_scene(run_dual(X, y, eta=1.0, **kw), etas=etas, follow="Step η").to_bytes()
    set_control(renderer, "Step η", "0.1")
    try:
        mount(renderer, blob)
        ready = renderer.evaluate("() => document.querySelector('#scene').dataset.ready")
        for eta in (0.1, 10.0, 0.01, 2.0):
            set_control(renderer, "Step η", repr(eta))
            assert renderer.evaluate("() => window.__dblView.m.eta") == eta
            check_dual(renderer, run_dual(X, y, eta=eta, **kw), picks(run_dual(X, y, eta=1.0, **kw), 4, rng), mounted=True)
        assert renderer.evaluate("() => document.querySelector('#scene').dataset.ready") == ready  # no new record
    finally:
        set_control(renderer, "Step η", None)
    renderer.evaluate("() => { dbl(document.querySelector('#scene')).view = null; }")  # the offline file: view.tau
    mount(renderer, with_view(blob, View(tau=0.5)))
    check_dual(renderer, run_dual(X, y, eta=0.5, **kw), [0, 1, 150], mounted=True)


def test_a_linear_record_for_every_eta_draws_each_eta_s_w_and_primal_run(renderer):  # noqa: F811
    """The linear kernel's record holds each η's w, M's exceptions and primal run: at each η the control shows, the
    drawing and the words (the primal w beside the dual's) are the core's runs with that η."""
    from test_e2e_compare_scene import set_control

    X, y = ties_and_duplicates(6)
    rng = np.random.default_rng(6)
    etas = [0.1, 0.5, 1.0, 2.0]
    kw = {"variant": "random", "seed": 2, "max_steps": 120}
    lines = [(run_dual(X, y, eta=e, **kw), run_perceptron(X, y, variant="random", tau=e, seed=2, max_steps=120))
             for e in etas]
    blob = dual_scene(run_dual(X, y, eta=1.0, **kw), etas=etas, follow="Step η", lines=lines).to_bytes()
    set_control(renderer, "Step η", "0.5")
    try:
        mount(renderer, blob)
        for j in (1, 0, 3):
            set_control(renderer, "Step η", repr(etas[j]))
            traj, primal = lines[j]
            check_dual(renderer, traj, picks(traj, 4, rng), primal, mounted=True)
    finally:
        set_control(renderer, "Step η", None)


def test_a_kernel_s_boundary_before_the_update_is_drawn_as_long_dashes(renderer):  # noqa: F811
    """A kernel's boundary before the update comes as one short segment per grid cell: drawn apart, each began a dash
    and the curve looked solid. It is drawn joined into polylines, on the screen and in the exported image."""
    X, y = make_dataset("circles", 60, 0)
    traj = run_dual(X, y, kernel="rbf", gamma=1.0, max_steps=60)
    mount(renderer, dual_scene(traj).to_bytes())
    s = int(traj.update_steps[6])
    got = renderer.evaluate("""(s) => { const v = window.__dblView; v.show(v.m.stopOf(s));
        const d = document.querySelector('#scene .dbls-old').getAttribute('d');
        const t = v.figure().data.find((t) => t.name === 'before the update');
        return [v.g.old.length, (d.match(/M/g) || []).length, t.x.filter((x) => x === null).length]; }""", s)
    pieces, moves, gaps = got
    assert pieces > 30 and 1 <= moves <= 8 and gaps == moves, got


def test_the_examined_point_s_tag_stands_clear_of_the_other_points(renderer):  # noqa: F811
    """The tag naming the examined point's new α stands where it covers no other point: here not above it, where a
    point lies (it stood there, over that point, whatever lay under it)."""
    X = np.array([[0.0, 0.0], [0.0, 0.45], [-3.0, -3.0], [3.0, 3.0], [-3.0, 3.0], [3.0, -3.0]])
    y = np.array([1, 1, -1, 1, -1, -1])
    traj = run_dual(X, y, max_steps=3)
    mount(renderer, dual_scene(traj).to_bytes())
    under = renderer.evaluate("""() => {
        const v = window.__dblView, m = v.m;
        v.show(m.stopOf(1));
        const t = document.querySelector('#scene .dbls-tag rect').getBoundingClientRect(), o = v.over.getBoundingClientRect();
        const fl = v.plot._fullLayout, out = [];
        for (let i = 0; i < m.N; i++) {
          const x = o.left + fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]), y = o.top + fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1]);
          if (x > t.left - 3 && x < t.right + 3 && y > t.top - 3 && y < t.bottom + 3) out.push(i);
        }
        return [out, document.querySelector('#scene .dbls-tag text').textContent];
    }""")
    assert under == [[], "x₁: α₁ = 1"], under


def test_a_hovered_point_s_label_says_its_alpha_and_whether_it_is_in_m(renderer):  # noqa: F811
    """The label of a hovered point names it and says its αᵢ and whether y·f(x) ≤ 0 at the step shown, as the core's
    dual run has them (ties and duplicates included)."""
    X, y = ties_and_duplicates(3)
    traj = run_dual(X, y, kernel="rbf", gamma=1.0, max_steps=120)
    mount(renderer, dual_scene(traj).to_bytes())
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    for step in (0, int(traj.update_steps[1]), traj.n_steps):
        (alpha,), _ = traj.states([step])
        mis = traj.mistakes([step])[0]
        got = renderer.evaluate("""(s) => { const v = window.__dblView; v.show(v.m.stopOf(s));
            return Array.from({length: v.m.N}, (_, i) => v.tipFor(i)); }""", step)
        want = [f"x{str(i + 1).translate(sub)} = ({num(X[i, 0])}, {num(X[i, 1])}), y = {'+1' if y[i] > 0 else '−1'}<br>"
                f"α{str(i + 1).translate(sub)} = {num(alpha[i])}; "
                f"{'in M: y·f(x) ≤ 0' if mis[i] else 'classified right: y·f(x) > 0'} after step {step}" for i in range(len(y))]
        assert got == want, step
