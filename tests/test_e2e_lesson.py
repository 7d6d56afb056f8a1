"""The lesson under the chart in Chromium: the formulas typeset with the step's numbers, and the proof drawn.

The renderer runs as in the offline HTML export (KaTeX inside the file, typesetting MathML). At random steps of
random runs on every page that has a formula, the numbers the formula writes must be the core's: w and b after
the step, the examined point's y·(w·x + b) before it, the set M an update sums over, the dual's f(xᵢ) and αᵢ, the
SVM's objective and ξ, the losses at the chosen weight. The proof of the mistake bound draws the core's
⟨w̃*, w̃_k⟩ and ‖w̃_k‖ against k and writes both of its inequalities for the step's k.
"""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Page
from test_e2e_scene import mount, renderer  # noqa: F401  (the page holding the renderer)
from test_viz_dual import ties_and_duplicates

from core.bounds import mistake_bound, novikoff_terms
from core.dual import run_dual
from core.losses import hinge, perceptron, zero_one
from core.perceptron import run_perceptron
from core.snapshot import activation
from core.svm import svm_grid
from datasets import make_dataset
from viz.common import num
from viz.scene import View, dual_scene, loss_scene, perceptron_scene, svm_scene, with_view


def tn(v: float) -> str:
    """A number as the formulas write it: viz.common.num with an ASCII minus (KaTeX's minus sign), an exponent as a
    power of ten."""
    s = num(v).replace("−", "-")
    if "e" not in s:
        return s
    mantissa, exp = s.split("e")
    return f"{mantissa}\\times 10^{{{int(exp)}}}"


def tv(v) -> str:
    return "(" + ",\\ ".join(tn(x) for x in v) + ")"


def tset(idx, limit: int = 8) -> str:
    idx = [int(i) for i in idx]
    if not idx:
        return "\\varnothing"
    more = len(idx) > limit
    s = ",\\ ".join(str(i + 1) for i in idx[:limit])
    dots = ",\\ \\dots" if more else ""
    return f"\\{{{s}{dots}\\}}" + (f"\\ ({len(idx)}\\text{{ points}})" if more else "")


def formula_at(page: Page, step: int) -> list[str]:
    """Show ``step`` and read the formula's rows: the TeX each row typeset (checked typeset, as MathML offline)."""
    return page.evaluate("""(step) => {
        const v = window.__dblView, box = document.querySelector('#scene .dbls-math');
        if (!box.open) box.open = true;
        v.show(v.m.stopOf ? v.m.stopOf(step) : step);
        const rows = Array.from(box.querySelectorAll('.dbls-math-tex'));
        if (rows.some((r) => !r.querySelector('math'))) throw new Error('a row of the formula is not typeset');
        return rows.map((r) => r.dataset.tex);
    }""", step)


def steps_of(traj, k: int, rng) -> list[int]:
    S = traj.n_steps
    return sorted({0, 1, S, *traj.update_steps[:3].tolist(), *rng.integers(0, S + 1, size=k).tolist()})


def check_perceptron(page: Page, traj, steps) -> None:
    """At each step, the formula writes the core's numbers."""
    mount(page, perceptron_scene(traj).to_bytes())
    p, tau = traj.problem, traj.tau
    le, gt = ("<", "\\ge") if p.update_on == "negative" else ("\\le", ">")
    for step in steps:
        rows = formula_at(page, int(step))
        tex = " ".join(rows)
        snap = traj[int(step)]
        k = int(traj.state_index(step))
        assert rows[0].startswith("\\text{if } y_{i}" if traj.variant in ("cyclic", "random") else "M = \\{i \\in"), step
        if step == 0:
            assert f"\\mathbf{{w}}_0 = {tv(snap.w)}" in tex and f"|M| = {int(snap.misclassified.sum())}" in tex
            continue
        upd = snap.updated
        (wp,), (bp,) = traj.states([step - 1])
        if traj.variant in ("cyclic", "random"):
            i = int(snap.examined[0])
            a = float(p.y[i] * activation(p.X[i:i + 1], wp, bp)[0])  # y·(w·x + b) before the step, as the core sums it
            assert f"y_{{{i + 1}}}(\\mathbf{{w}}_{{{k - (upd.size > 0)}}}\\cdot \\mathbf{{x}}_{{{i + 1}}}" in tex, step
            assert f"= {tn(a)} {le if upd.size else gt} 0" in tex, step
            if upd.size:
                assert f"\\mathbf{{w}}_{{{k}}} = {tv(wp)} + {tn(tau)}\\cdot({'+1' if p.y[i] > 0 else '-1'})\\cdot {tv(p.X[i])} = {tv(snap.w)}" in rows
                if p.fit_intercept:
                    assert f"b_{{{k}}} = {tn(bp)} + {tn(tau)}\\cdot" in tex and tex.count(f"= {tn(snap.b)}") >= 1
                # why it helps: y(w̃_k·x̃) = y(w̃_{k−1}·x̃) + τ‖x̃‖², the three numbers the core's
                a_new = float(p.y[i] * activation(p.X[i:i + 1], snap.w, snap.b)[0])
                sq = float(p.X[i] @ p.X[i]) + (1.0 if p.fit_intercept else 0.0)
                assert rows[-1] == f"{tn(a_new)} = {tn(a)} + {tn(tau)}\\cdot {tn(sq)}", step
                assert a_new == pytest.approx(a + tau * sq, rel=1e-9, abs=1e-9)
            else:
                assert "\\text{no update}" in tex
        else:
            assert f"M = {tset(upd)}" in tex, step
            if traj.variant == "minibatch":
                assert f"I = {tset(snap.examined)}\\ (B = {traj.batch_size})" in tex, step
            if upd.size:
                g = (p.y[upd][:, None] * p.X[upd]).sum(axis=0)
                assert f"y_i \\mathbf{{x}}_i = {tv(g)}" in tex and f"= {tv(snap.w)}" in tex, step
            else:
                assert "\\text{no update}" in tex


@pytest.mark.parametrize("variant", ["cyclic", "random", "minibatch", "batch"])
def test_the_perceptron_formula_writes_the_core_s_numbers(renderer, variant):  # noqa: F811
    rng = np.random.default_rng({"cyclic": 0, "random": 1, "minibatch": 2, "batch": 3}[variant])
    X, y = ties_and_duplicates(4, 30)  # exact ties y·a = 0 and repeated points
    for kw in ({"tau": 0.5}, {"tau": 2.0, "update_on": "negative", "w0": (1.0, -0.5), "b0": 0.5},
               {"tau": 1.0, "fit_intercept": False}, {"tau": 0.3, "reduction": "sum"}):
        traj = run_perceptron(X, y, variant=variant, batch_size=7, max_steps=300, seed=3, **kw)
        check_perceptron(renderer, traj, steps_of(traj, 8, rng))


def test_the_textbook_formula_reads_as_a_student_writes_it(renderer):  # noqa: F811
    X, y = make_dataset("textbook", 3, 0)
    check_perceptron(renderer, run_perceptron(X, y), range(16))
    rows = formula_at(renderer, 1)
    assert rows[2] == "y_{1}(\\mathbf{w}_{0}\\cdot \\mathbf{x}_{1} + b_{0}) = (+1)\\,\\big((0,\\ 0)\\cdot (3,\\ 3) + 0\\big)"
    assert rows[3] == "= 0 \\le 0 \\;\\Rightarrow\\; \\text{update on } \\mathbf{x}_{1}"
    assert rows[4:] == ["\\mathbf{w}_{1} = (0,\\ 0) + 1\\cdot(+1)\\cdot (3,\\ 3) = (3,\\ 3)", "b_{1} = 0 + 1\\cdot(+1) = 1",
                        "y_{1}(\\tilde{\\mathbf{w}}_{1}\\cdot \\tilde{\\mathbf{x}}_{1}) = y_{1}(\\tilde{\\mathbf{w}}_{0}\\cdot "
                        "\\tilde{\\mathbf{x}}_{1}) + \\tau\\,\\|\\tilde{\\mathbf{x}}_{1}\\|^2", "19 = 0 + 1\\cdot 19"]
    # folded away, it is not typeset on every step; unfolded again, it shows the step shown
    renderer.evaluate("() => { document.querySelector('#scene .dbls-math').open = false; window.__dblView.show(5); }")
    assert "Step 1" in renderer.locator("#scene .dbls-math-body").text_content()
    assert formula_at(renderer, 5)[2].startswith("y_{2}(\\mathbf{w}_{2}\\cdot \\mathbf{x}_{2} + b_{2}) = (+1)")


def test_the_proof_of_the_mistake_bound_is_the_core_s(renderer):  # noqa: F811
    for seed in range(3):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(40, 2))
        fit = seed != 1
        y = np.where(X[:, 0] - 0.5 * X[:, 1] > (0.1 if fit else 0.0), 1, -1)  # separable (through 0 without b)
        bound = mistake_bound(X, y, fit_intercept=fit)
        variant = ("cyclic", "random", "minibatch")[seed]  # mini-batch with B = 1: single-point updates too
        traj = run_perceptron(X, y, tau=0.7, fit_intercept=fit, variant=variant, batch_size=1, max_steps=20_000, seed=seed)
        assert traj.converged
        inner, norm2 = novikoff_terms(traj.W, traj.B, bound)
        mount(renderer, perceptron_scene(traj, bound).to_bytes())
        got = renderer.evaluate("""async () => {
            const box = document.querySelector('#scene .dbls-proof');
            box.open = true;
            const v = window.__dblView;
            v.show(v.m.stopOf(v.m.S));
            await new Promise((r) => setTimeout(r, 300));
            const gd = box.querySelector('.dbls-proof-plot');
            return {hidden: box.hidden, data: gd.data.map((t) => ({name: t.name, x: Array.from(t.x), y: Array.from(t.y)})),
                    k: Number(gd.dataset.k), tex: Array.from(box.querySelectorAll('.dbls-math-tex')).map((r) => r.dataset.tex)};
        }""")
        K = traj.n_updates
        assert not got["hidden"] and got["k"] == K
        lower, dots, norms, upper = got["data"]
        assert dots["x"] == list(range(K + 1)) and dots["y"] == inner.tolist()  # the core's numbers, bit for bit
        assert norms["y"] == np.sqrt(norm2).tolist()
        tau, g, R = traj.tau, bound.gamma, bound.R
        assert lower["y"] == pytest.approx([x * tau * g for x in lower["x"]])
        assert upper["y"] == pytest.approx([np.sqrt(x) * tau * R for x in upper["x"]])
        assert f"= {tn(inner[K])} \\;\\ge\\; k\\tau\\gamma = {K}\\cdot {tn(tau)}\\cdot {tn(g)} = {tn(K * tau * g)}" in got["tex"][0]
        assert f"= {tn(norm2[K])} \\;\\le\\; k\\tau^2R^2 = {K}\\cdot" in got["tex"][1]
        assert got["tex"][3] == (f"{tn(K * tau * g)} \\le {tn(inner[K])} \\le {tn(np.sqrt(norm2[K]))} \\le "
                                 f"{tn(np.sqrt(K) * tau * R)}")  # the squeeze with this k's numbers
        assert got["tex"][4].endswith(f"k \\le (R/\\gamma)^2 = {tn(bound.bound)}")
    # where the bound does not apply (mini-batch, a start away from zero), the panel says why
    for traj, why in ((run_perceptron(X, y, variant="minibatch", batch_size=5), "mini-batch and batch steps add up"),
                      (run_perceptron(X, y, variant="batch"), "mini-batch and batch steps add up"),
                      (run_perceptron(X, y, w0=(1.0, 0.0)), "it assumes the start w = 0, b = 0")):
        mount(renderer, perceptron_scene(traj, bound).to_bytes())
        got = renderer.evaluate(NOT_APPLIED)
        assert not got["hidden"] and got["plot"], why
        assert got["text"].startswith("The mistake bound (R/γ)² does not apply to this run:") and why in got["text"]
    mount(renderer, perceptron_scene(traj).to_bytes())  # no bound measured: the run's kind still says why
    assert why in renderer.evaluate(NOT_APPLIED)["text"]


NOT_APPLIED = """() => {
    const box = document.querySelector('#scene .dbls-proof');
    box.open = true;
    window.__dblView.show(1);
    return {hidden: box.hidden, plot: box.querySelector('.dbls-proof-plot').hidden,
            text: box.querySelector('.dbls-proof-text').textContent};
}"""


def test_the_dual_formula_writes_the_core_s_numbers(renderer):  # noqa: F811
    rng = np.random.default_rng(7)
    X, y = ties_and_duplicates(2, 24)
    for kernel, params in [("linear", {}), ("poly", {"degree": 2, "coef0": 1.0}), ("rbf", {"gamma": 0.8})]:
        traj = run_dual(X, y, kernel=kernel, variant="random", eta=0.5, max_steps=200, seed=1, **params)
        mount(renderer, dual_scene(traj).to_bytes())
        for step in steps_of(traj, 6, rng):
            tex = " ".join(formula_at(renderer, step))
            (alpha,), (b,) = traj.states([step])
            if step == 0:
                assert "\\alpha = 0,\\ b = 0" in tex
                continue
            i = int(traj.examined(step)[0])
            f = float(traj.decisions([step - 1])[0][i])  # f(xᵢ), the value the run judged xᵢ by
            assert f"y_{{{i + 1}}} f(\\mathbf{{x}}_{{{i + 1}}}) = {tn(p := y[i] * f)}" in tex, step
            if traj.updated(step).size:
                assert p <= 0 and f"\\alpha_{{{i + 1}}} \\leftarrow" in tex and f"= {tn(alpha[i])} b \\leftarrow" in tex
                assert f"= {tn(b)}" in tex
            else:
                assert "\\text{no update}" in tex
            if kernel == "linear":
                assert f"= {tv(traj.weights([step])[0])}" in tex


def test_the_svm_formula_writes_the_solver_s_objective_and_xi(renderer):  # noqa: F811
    X, y = make_dataset("blobs", 40, 3)
    sols = svm_grid(X, y)
    mount(renderer, svm_scene(X, y, sols).to_bytes())
    for k in (0, len(sols) // 2, len(sols) - 2):
        s = sols[k]
        tex = " ".join(formula_at(renderer, k))
        xi = np.maximum(0.0, 1 - y * (X @ s.w + s.b))
        reg = 0.5 / s.margin**2  # ½‖w‖² as the record sends it (the margin 1/‖w‖)
        assert f"= {tn(reg)} + {tn(s.C)}\\cdot" in tex and reg == pytest.approx(0.5 * float(s.w @ s.w)), k
        assert tex.count(f"= {tn(s.objective)}") >= 1 and f"= {tv(s.w)},\\quad b = {tn(s.b)}" in tex, k
        assert f"2/\\|\\mathbf{{w}}\\| = {tn(2 * s.margin)}" in tex, k
        if xi.max() > 1e-9:  # the largest ξ, as the chart labels it
            i = int(np.argmax(xi))
            assert f"\\xi_{{{i + 1}}} = \\max" in tex and tex.endswith(f"= {tn(xi[i])}"), k
        # the point under the pointer: its own ξ
        j = 5
        renderer.evaluate("(j) => window.__dblView.hover({points: [{pointIndex: j}]})", j)
        last = renderer.evaluate("() => Array.from(document.querySelectorAll('#scene .dbls-math-tex')).slice(-2)"
                                 ".map((r) => r.dataset.tex).join(' ')")
        assert last.startswith(f"\\xi_{{{j + 1}}}") and last.endswith(f"= {tn(xi[j])}"), k
        renderer.evaluate("() => window.__dblView.hover(null)")


def test_the_loss_formulas_write_each_loss_at_the_chosen_weight(renderer):  # noqa: F811
    X, y = make_dataset("blobs", 30, 1)
    us = vs = np.linspace(-3, 3, 41)
    bs = np.linspace(-2, 2, 9)
    w, b = np.array([0.75, -0.5]), float(bs[3])
    names = ("zero_one", "perceptron", "hinge")
    mount(renderer, loss_scene(X, y, names, us, vs, bs, lams=(0.1,), chosen=(w, b)).to_bytes())
    tex = " ".join(formula_at(renderer, 0))
    W = w[None, :]
    z = zero_one(W, b, X, y)[0]
    assert f"L_{{0\\text{{-}}1}} = {round(z * len(y))}/{len(y)} = {tn(z)}" in tex
    assert f"L_{{\\text{{perc}}}} = {tn(perceptron(W, b, X, y)[0])}" in tex
    assert tex.endswith(f"= {tn(hinge(W, b, X, y, lam=0.1)[0])}")
    # a row a loss (three do not run off the panel's side), and a weight just picked written at once, before the page's
    # record: the losses there
    rows = renderer.evaluate("() => Array.from(document.querySelectorAll('#scene .dbls-math-tex')).map((r) => r.dataset.tex)")
    assert len(rows) == 1 + 3 + 1 + 3  # m_i, each loss's definition, the weight, each loss there
    for row, head in zip(rows[-3:], ("L_{0\\text{-}1} = ", "L_{\\text{perc}} = ", "L_{\\text{hinge}} = "), strict=True):
        assert row.startswith(head) and "\\frac{1}{N}" not in row, row
    renderer.evaluate(f"() => window.__dblView.preview({{w: [{us[30]}, {vs[12]}], b: {bs[3]}, at: 1}})")
    tex = " ".join(renderer.evaluate("() => Array.from(document.querySelectorAll('#scene .dbls-math-tex')).map((r) => r.dataset.tex)"))
    W = np.array([[us[30], vs[12]]])
    assert f"L_{{\\text{{perc}}}} = {tn(perceptron(W, b, X, y)[0])}" in tex
    assert tex.endswith(f"= {tn(hinge(W, b, X, y, lam=0.1)[0])}")
    # a record made after that pick (View.seen: the pick's time, 1), with no weight chosen
    mount(renderer, with_view(loss_scene(X, y, names, us, vs, bs).to_bytes(), View(seen=1.0)))
    assert "Click a weight" in renderer.locator("#scene .dbls-math-body").inner_text()


# ----- in the app: Streamlit's own KaTeX, served by the app, typesets the formula, which follows the step and τ

def test_the_app_typesets_the_formula_with_streamlit_s_katex_and_it_follows_the_step(page: Page, app_server: str) -> None:
    from e2e_helpers import SCENE, assert_no_exception, chart_control, open_page, scene_button, wait_for_step

    open_page(page, app_server, "perceptron")
    page.wait_for_selector(f"{SCENE} .dbls-math-tex .katex-html", timeout=30_000)  # KaTeX's HTML, not the raw TeX
    tex = lambda: page.evaluate(  # noqa: E731
        f"() => Array.from(document.querySelectorAll('{SCENE} .dbls-math-tex')).map((r) => r.dataset.tex)")
    assert tex()[-1].startswith("\\mathbf{w}_0 = (0,\\ 0)")
    # a subscript is set smaller than its base (the module's classes get Streamlit's rules: static/katex.css)
    sizes = page.evaluate(f"""() => {{
        const tex = document.querySelector('{SCENE} .dbls-math-tex .katex-html'), sub = tex.querySelector('.msupsub .katex-sizing');
        return [parseFloat(getComputedStyle(tex).fontSize), parseFloat(getComputedStyle(sub).fontSize)];
    }}""")
    assert sizes[1] < 0.8 * sizes[0], sizes
    scene_button(page, "next")
    wait_for_step(page, 1)
    assert tex()[4:6] == ["\\mathbf{w}_{1} = (0,\\ 0) + 1\\cdot(+1)\\cdot (3,\\ 3) = (3,\\ 3)", "b_{1} = 0 + 1\\cdot(+1) = 1"]
    # the proof, unfolded: its plot is drawn, and the page's τ moves it (τ scales both sides)
    page.locator(f"{SCENE} .dbls-proof summary").click()
    page.wait_for_function(f"() => document.querySelector('{SCENE} .dbls-proof-plot')._fullLayout")
    assert page.evaluate(f"() => document.querySelector('{SCENE} .dbls-proof-plot').dataset.k") == "1"
    slider = chart_control(page, "Step size")
    slider.focus()
    page.keyboard.press("ArrowRight")  # τ = 2: the same updates, every number doubled
    page.wait_for_function(f"() => document.querySelector('{SCENE} .dbls-math-tex[data-tex*=\"(6,\\\\\\\\ 6)\"]')")
    assert page.locator(f"{SCENE} .dbls-proof").get_attribute("open") is not None  # the folds are kept
    assert_no_exception(page)


def margins_at(page: Page, step: int) -> dict:
    """Unfold the losses-against-the-margin plot, show ``step`` and read the z drawn on each loss's curve."""
    return page.evaluate("""async (step) => {
        const v = window.__dblView, box = document.querySelector('#scene .dbls-margins');
        box.open = true;
        v.show(v.m.stopOf ? v.m.stopOf(step) : step);
        const gd = box.querySelector('.dbls-margins-plot');
        await new Promise((r) => setTimeout(r, 50));
        return {hidden: box.hidden, curves: gd.data.slice(0, 3).map((t) => t.name),
                points: gd.data.slice(3).map((t) => ({x: Array.from(t.x), y: Array.from(t.y)})),
                text: box.querySelector('.dbls-margins-text').textContent};
    }""", step)


def test_the_losses_against_the_margin_mark_every_point_s_core_margin(renderer):  # noqa: F811
    rng = np.random.default_rng(11)
    X, y = ties_and_duplicates(6, 30)
    traj = run_perceptron(X, y, variant="random", tau=0.5, max_steps=200, seed=2)
    mount(renderer, perceptron_scene(traj).to_bytes())
    for step in steps_of(traj, 5, rng):
        got = margins_at(renderer, step)
        (w,), (b,) = traj.states([step])
        z = y * activation(X, w, b)  # yᵢ(w·xᵢ + b) as the core sums it
        assert not got["hidden"] and got["curves"] == ["0-1: [z ≤ 0]", "perceptron: max(0, −z)", "hinge: max(0, 1 − z)"]
        zero_one_pts, perceptron_pts, hinge_pts = got["points"]
        assert zero_one_pts["x"] == z.tolist(), step  # bit for bit
        assert zero_one_pts["y"] == (z <= 0).astype(float).tolist()
        assert perceptron_pts["y"] == np.maximum(0, -z).tolist() and hinge_pts["y"] == np.maximum(0, 1 - z).tolist()
        assert f"Here {int((z <= 0).sum())} of 30 point" in got["text"]
        assert int((z <= 0).sum()) == int(traj[step].misclassified.sum())  # the 0-1 loss counts M (rule y·a ≤ 0)
    X, y = make_dataset("blobs", 40, 3)
    sols = svm_grid(X, y)
    mount(renderer, svm_scene(X, y, sols).to_bytes())
    for k in (0, len(sols) // 2):
        z = np.array(margins_at(renderer, k)["points"][2]["x"])
        assert np.allclose(z, y * (X @ sols[k].w + sols[k].b), rtol=1e-12, atol=1e-12), k


def test_compare_writes_each_side_s_formula_with_its_run_s_numbers(renderer):  # noqa: F811
    from core.svm import hinge_sgd
    from viz.scene import compare_scene

    X, y = ties_and_duplicates(8, 26)
    left = run_perceptron(X, y, variant="minibatch", batch_size=5, tau=0.5, max_steps=80, seed=1)
    right = hinge_sgd(X, y, C=1.0, max_steps=60, seed=1)
    mount(renderer, compare_scene(left, right).to_bytes())
    for t in (0, 1, 7, 40, 79):
        cols = renderer.evaluate("""(t) => {
            const v = window.__dblView, box = document.querySelector('#scene .dbls-math');
            box.open = true;
            v.show(t);
            return Array.from(box.querySelectorAll('.dbls-math-cols > div')).map((c) =>
                Array.from(c.querySelectorAll('.dbls-math-tex')).map((r) => r.dataset.tex).join(' '));
        }""", t)
        s = min(t, left.n_steps)
        assert f"= {tv(left[s].w)}" in cols[0] or s == 0 or not left[s].updated.size, t
        if s and left[s].updated.size:
            assert f"M = {tset(left[s].updated)}" in cols[0]
        r = min(t, right.n_steps)
        if r:  # the hinge side: its step's η (from the run's record), then w and b
            assert f"\\eta = {tn(right.etas[r - 1])}" in cols[1] and f"= {tv(right.W[r])}" in cols[1], t
            assert cols[1].endswith(f"= {tn(right.B[r])}"), t
    kept = renderer.evaluate("""() => {  // a step typesets again only the rows it changes: the rule's rows stay
        const v = window.__dblView, rows = () => Array.from(document.querySelectorAll('#scene .dbls-math-cols .dbls-math-row'));
        v.show(20);
        const before = rows(), texs = before.map((r) => r.querySelector('.dbls-math-tex')?.dataset.tex);
        v.show(21);
        const after = rows();
        return after.map((r, i) => [r === before[i], r.querySelector('.dbls-math-tex')?.dataset.tex === texs[i]]);
    }""")
    assert all(same == unchanged for same, unchanged in kept) and any(s for s, _ in kept) and not all(s for s, _ in kept)


def test_the_sgd_tab_writes_each_step_with_the_run_s_numbers(renderer):  # noqa: F811
    from core.svm import fit_svm, hinge_sgd
    from viz.scene import sgd_scene

    X, y = make_dataset("blobs", 40, 2)
    run = hinge_sgd(X, y, C=1.0, max_steps=120, seed=3)
    mount(renderer, sgd_scene(run, fit_svm(X, y, C=1.0)).to_bytes())
    rng = np.random.default_rng(1)
    for s in sorted({0, 1, 120, *rng.integers(1, 121, size=6).tolist()}):
        tex = " ".join(formula_at(renderer, s))
        assert f"\\lambda = \\frac{{1}}{{N C}} = {tn(run.lam)}" in tex
        if s == 0:
            continue
        i = int(run.order[s - 1])
        m = float(y[i] * activation(X[i:i + 1], run.W[s - 1], run.B[s - 1])[0])
        rel = "<" if run.active[s - 1] else "\\ge"
        assert f"y_{{{i + 1}}}(\\mathbf{{w}}\\cdot \\mathbf{{x}}_{{{i + 1}}} + b) = {tn(m)} {rel} 1" in tex, s
        assert bool(run.active[s - 1]) == (m < 1)
        assert f"\\eta = {tn(run.etas[s - 1])}" in tex and f"= {tv(run.W[s])}" in tex and f"= {tn(run.B[s])}" in tex, s


def test_a_tiny_lambda_is_written_as_a_power_of_ten(renderer):  # noqa: F811
    """λ = 1/(NC) at a large C is small enough for an exponent: typeset as 4.45 × 10⁻⁵, not as "4.45e − 05" (KaTeX
    would set the e as a variable and the minus as a subtraction)."""
    from core.svm import fit_svm, hinge_sgd
    from viz.scene import sgd_scene

    X, y = make_dataset("blobs", 40, 2)
    run = hinge_sgd(X, y, C=1000.0, max_steps=20, seed=3)
    mount(renderer, sgd_scene(run, fit_svm(X, y, C=1000.0)).to_bytes())
    tex = " ".join(formula_at(renderer, 3))
    assert "e" in num(run.lam) and f"\\lambda = \\frac{{1}}{{N C}} = {tn(run.lam)}" in tex
    assert "\\times 10^{-5}" in tn(run.lam) and "e-" not in tex


def test_the_offline_file_carries_streamlit_s_katex():
    from viz.export import _katex_inline, katex_css, katex_module

    rules = katex_css()  # Streamlit's rules for the classes the module names katex-…
    assert ".katex .katex-sizing.reset-size6.size3{" in rules.replace(" {", "{") and ".katex .sizing" not in rules

    assert katex_module() is not None and katex_module().name.startswith("katex.")
    inline = _katex_inline()
    assert inline.rstrip().endswith(";") and "window.katex=" in inline[-200:] and "export{" not in inline[-200:]
