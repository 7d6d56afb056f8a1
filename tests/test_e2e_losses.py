"""The loss-surface page in a real Chromium: clicking a weight draws its boundary; b moves in the browser."""

from __future__ import annotations

import pytest
from e2e_helpers import CHART, assert_no_exception, chart_control, settled_value, wait_for_rerun
from playwright.sync_api import Page, expect

ROOT = ".st-key-loss_chart .dbls"
VIEW = f"dbl(document.querySelector({ROOT!r})).view"
DATA = f"Array.from(document.querySelectorAll({CHART!r})).find(g => g.layout && g.layout.meta && g.layout.meta.view === 'loss_data')"


def open_loss(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_rerun(page)
    page.wait_for_function(f"() => {{ const r = document.querySelector({ROOT!r}); return r && r.dataset.ready && dbl(r).view && !!({DATA}); }}")


def screen_point(page: Page, w1: float, w2: float) -> tuple[float, float]:
    """Where the weight (w₁, w₂) of the first panel is on the screen."""
    page.locator(f"{ROOT} .dbls-plot .nsewdrag").first.scroll_into_view_if_needed()
    where = f"""() => {{
        const g = {VIEW}.plots[0]; const xa = g._fullLayout.xaxis, ya = g._fullLayout.yaxis;
        const r = g.querySelector('.nsewdrag').getBoundingClientRect();
        return [r.left + xa.l2p({w1!r}), r.top + ya.l2p({w2!r})]; }}"""
    return tuple(settled_value(page, where))  # (where it stands once the page's layout has settled: a click lands there)


def test_clicking_a_weight_draws_its_boundary(page: Page, app_server: str) -> None:
    open_loss(page, app_server.rstrip("/") + "/losses?ds=textbook&loss=perceptron")
    assert page.evaluate(f"() => ({DATA}).layout.meta.chosen") is None
    b = page.evaluate(f"() => {VIEW}.m.bs[{VIEW}.i]")
    # the grid node nearest to (0.5, −0.5): a click there chooses exactly that weight
    target = page.evaluate(f"""() => {{ const m = {VIEW}.m, near = (g, v) => g.reduce((a, x) => Math.abs(x - v) < Math.abs(a - v) ? x : a);
        return [near(Array.from(m.us), 0.5), near(Array.from(m.vs), -0.5)]; }}""")
    page.mouse.click(*screen_point(page, *target))
    page.wait_for_function(f"() => {{ const g = {DATA}; return !!g && !!g.layout.meta.chosen && !g.layout.meta.pending; }}",
                           timeout=30_000)  # the page's figure (the one drawn at once: the next test)
    w1, w2, cb = page.evaluate(f"() => ({DATA}).layout.meta.chosen")
    assert abs(w1 - target[0]) < 1e-6 and abs(w2 - target[1]) < 1e-6 and abs(cb - b) < 1e-6
    # the boundary drawn is w·x + b = 0 for that weight
    xs = page.evaluate(f"() => ({DATA}).layout.meta.boundary_x")
    ys = page.evaluate(f"() => ({DATA}).layout.meta.boundary_y")
    for x, y in zip(xs, ys, strict=True):
        if x is not None:
            assert abs(w1 * x + w2 * y + cb) < 1e-6 * max(1.0, abs(x) + abs(y))
    # and the surface marks it, with its subgradient's arrow from it
    page.wait_for_function(f"() => {{ const v = {VIEW}; return v && v.m.run.chosen; }}")
    assert page.evaluate(f"() => {VIEW}.m.run.chosen.w") == [w1, w2]
    assert page.locator(f"{ROOT} .dbls-chosen").count() == 1 and page.locator(f"{ROOT} .dbls-grad").count() == 1
    # a screen reader hears the data chart's state line: the chosen w, its mistakes and its loss
    said = page.locator(".st-key-loss_data .dbls-live")
    expect(said).to_contain_text("w = (")
    assert "perceptron loss" in said.text_content()
    assert_no_exception(page)


def _pick(page: Page, near: tuple[float, float]) -> tuple[dict, dict, list[float]]:
    """Click the grid node nearest ``near`` on the first panel; return what the charts show while the weight is drawn
    in the browser alone (read in the same frame as ``meta.pending`` is seen), then once the page's figure has
    replaced it, and the node."""
    target = page.evaluate(f"""([u, v]) => {{ const m = {VIEW}.m, near = (g, t) => g.reduce((a, x) => Math.abs(x - t) < Math.abs(a - t) ? x : a);
        return [near(Array.from(m.us), u), near(Array.from(m.vs), v)]; }}""", list(near))
    x, y = screen_point(page, *target)
    page.mouse.move(x, y)
    page.mouse.click(x, y)
    read = f"""const r = g.closest('.dbls'); return {{meta: g.layout.meta, state: r.querySelector('.dbls-state').textContent,
        lines: r.querySelectorAll('.dbls-over line').length, rings: Number(r.querySelector('.dbls-rings').dataset.rings),
        busy: r.getAttribute('aria-busy'), picked: document.querySelectorAll({ROOT!r} + ' .dbls-picked').length}};"""
    drawn = page.wait_for_function(f"() => {{ const g = {DATA}; if (!g || g.layout.meta.pending !== true) return null; {read} }}",
                                   polling="raf").json_value()
    made = page.wait_for_function(f"() => {{ const g = {DATA}; if (!g || !g.layout.meta.chosen || g.layout.meta.pending) return null; {read} }}",
                                  timeout=30_000).json_value()
    return drawn, made, target


def test_a_clicked_weight_is_drawn_at_once_then_by_the_page_from_the_core(page: Page, app_server: str) -> None:
    """The click draws the weight's boundary, M's rings and the surface's losses there in the browser (meta.pending),
    before the page's rerun; the page's record, made from the core, then replaces it and agrees with it: the same M,
    the same words."""
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=all")
    for near in [(0.7, 0.4), (-0.5, 0.9), (-0.1, -0.8)]:
        drawn, made, target = _pick(page, near)
        assert drawn["lines"] == 1 and drawn["picked"] == 3  # its boundary over the data, a star on each surface
        assert drawn["busy"] == "true" and drawn["meta"]["chosen"][:2] == pytest.approx(target, abs=1e-6)
        assert made["lines"] == 1 and made["busy"] is None  # the page's record draws it now
        assert drawn["meta"]["mis"] == made["meta"]["mis"]  # M by the rule in the browser = M from the core
        assert drawn["rings"] == made["rings"] == len(made["meta"]["mis"]) > 0
        for a, b in zip(drawn["meta"]["chosen"], made["meta"]["chosen"], strict=True):
            assert abs(a - b) < 1e-6  # (the page keeps 6 decimals)
        for key in ("boundary_x", "boundary_y"):
            for a, b in zip(drawn["meta"][key], made["meta"][key], strict=True):
                assert abs(a - b) < 1e-5 * max(1.0, abs(b))
        # the same w, b, M and losses, as the page writes them (both at w to 6 decimals; the browser's sums in the
        # core's order, the page's from the core)
        assert drawn["state"] == made["state"] and made["state"].startswith("w = (")
        page.wait_for_function(f"() => document.querySelectorAll({ROOT!r} + ' .dbls-chosen').length === 3")
        assert page.locator(f"{ROOT} .dbls-picked").count() == 0
        wait_for_rerun(page)
    assert_no_exception(page)


@pytest.mark.parametrize(("size", "loss"), [((1024, 768), "hinge"), ((1280, 720), "all")])
def test_a_click_on_a_projector_keeps_the_surface_size_and_the_data_chart_readable(page: Page, app_server: str, size,
                                                                                   loss: str) -> None:
    """Presentation mode: the first click adds no row to the surface's legend (its entry is named, in the same words,
    before) nor a line to its state (the chosen weight has a line of its own, which says there is none before), so
    the surfaces keep their size under the pointer; the data chart's plot keeps its size too (room for the longest
    state is kept under it), and its state and legend stand under its x₁ title, within the window."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_loss(page, app_server.rstrip("/") + f"/losses?ds=XOR&n_xor=300&loss={loss}&present=true&lit=3")
    wait_for_rerun(page)
    panel = f"() => [{VIEW}.sz.W, {VIEW}.sz.H, ({DATA})._fullLayout.width, ({DATA})._fullLayout.height]"
    before = settled_value(page, panel)  # (the presentation fits the charts to the window once drawn)
    _pick(page, (0.41, -0.31))  # (a weight of many digits: the longest state)
    wait_for_rerun(page)
    assert settled_value(page, panel) == before
    title, legend, state = page.evaluate(f"""() => {{ const g = {DATA}, r = g.closest('.dbls');
        return [g.querySelector('.g-xtitle').getBoundingClientRect().bottom,
                r.querySelector('.dbls-legend').getBoundingClientRect(), r.querySelector('.dbls-state').getBoundingClientRect()]; }}""")
    assert title <= legend["top"] + 0.5 and legend["bottom"] <= state["top"] + 0.5, (title, legend, state)
    assert page.evaluate("() => document.querySelector('.st-key-loss_data .dbls-state').textContent").count("\n") >= 2
    if loss == "hinge":  # beside the surface: the whole data chart in the window
        assert state["bottom"] <= size[1], state
    assert_no_exception(page)


def test_the_keyboard_chooses_a_weight(page: Page, app_server: str) -> None:
    """Tab to a surface: a ring on the grid node nearest 0; the arrows move it a node at a time (Shift: five), leaving b
    alone, and it is said; Enter chooses its weight, as a click does; Escape takes the ring away."""
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge")
    wait_for_rerun(page)
    start = page.evaluate(f"""() => {{ const m = {VIEW}.m, near = (g) => g.reduce((a, x, j) => Math.abs(x) < Math.abs(g[a]) ? j : a, 0);
        return [near(Array.from(m.us)), near(Array.from(m.vs)), m.us.length, m.vs.length, {VIEW}.i]; }}""")
    panel = page.locator(f"{ROOT} .js-plotly-plot").first
    panel.focus()
    assert page.locator(f"{ROOT} .dbls-ring").count() == 1
    for key in ["ArrowRight"] * 3 + ["ArrowUp"] * 2 + ["Shift+ArrowRight"]:
        page.keyboard.press(key)
    iu, iv = min(start[0] + 8, start[2] - 1), min(start[1] + 2, start[3] - 1)
    assert page.evaluate(f"() => {VIEW}.ring") == [iu, iv] and page.evaluate(f"() => {VIEW}.i") == start[4]  # b stays
    target = page.evaluate(f"([a, b]) => [{VIEW}.m.us[a], {VIEW}.m.vs[b]]", [iu, iv])
    said = page.evaluate(f"() => document.querySelector({ROOT!r} + ' .dbls-live').textContent")
    assert said.startswith("w = (") and "hinge" in said and said.endswith("Enter chooses it.")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => {{ const g = {DATA}; return !!g && !!g.layout.meta.chosen && !g.layout.meta.pending; }}",
                           timeout=30_000)
    w1, w2, _ = page.evaluate(f"() => ({DATA}).layout.meta.chosen")
    assert abs(w1 - target[0]) < 1e-6 and abs(w2 - target[1]) < 1e-6
    page.wait_for_function(f"() => {{ const v = {VIEW}; return v && v.m.run.chosen; }}")
    # the page's record drawn (a new view), with the panel still focused: the ring stands where it stood, and moves on
    assert page.evaluate(f"() => {VIEW}.ring") == [iu, iv] and page.locator(f"{ROOT} .dbls-ring").count() == 1
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(f"() => {VIEW}.ring") == [iu - 1, iv]
    page.keyboard.press("Escape")
    assert page.locator(f"{ROOT} .dbls-ring").count() == 0
    page.keyboard.press("ArrowRight")  # no ring: ← → move b again, as the page says
    page.wait_for_function(f"(i) => {VIEW}.i === i + 1", arg=start[4])
    assert page.locator(f"{ROOT} .dbls-ring").count() == 0
    assert_no_exception(page)


def test_after_a_click_on_a_weight_the_arrows_still_move_b(page: Page, app_server: str) -> None:
    """A click focuses the surface (it is in the Tab order) but shows no ring: ← → then move b, as the page's words
    say; ↑ shows the ring at the weight clicked."""
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge")
    wait_for_rerun(page)
    _, made, target = _pick(page, (0.5, 0.5))
    wait_for_rerun(page)
    i = page.evaluate(f"() => {VIEW}.i")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"(i) => {VIEW}.i === i - 1", arg=i)
    assert page.locator(f"{ROOT} .dbls-ring").count() == 0
    page.keyboard.press("Enter")  # with no ring: shows it, chooses nothing
    assert page.locator(f"{ROOT} .dbls-ring").count() == 1 and page.locator(f"{ROOT} .dbls-picked").count() == 0
    assert not page.evaluate(f"() => Boolean(({DATA}).layout.meta.pending)")
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowUp")
    ring = page.evaluate(f"() => [{VIEW}.m.us[{VIEW}.ring[0]], {VIEW}.m.vs[{VIEW}.ring[1]]]")
    assert ring == pytest.approx(target, abs=1e-6) and page.evaluate(f"() => {VIEW}.i") == i - 1
    assert_no_exception(page)


def test_a_click_after_the_3d_view_picks_once(page: Page, app_server: str) -> None:
    """The surface's element drew a still figure (the 3-D view) before the contours: a click then picks its weight once
    and the page stays responsive."""
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge&view=surface")
    ready = page.evaluate(f"() => document.querySelector({ROOT!r}).dataset.ready")
    page.get_by_test_id("stRadio").filter(has_text="View").get_by_text("filled contours").click()
    page.wait_for_function(f"(r) => {{ const e = document.querySelector({ROOT!r}), v = {VIEW}; "
                           "return e.dataset.ready && e.dataset.ready !== r && v && v.m && v.m.us; }", arg=ready,
                           timeout=30_000)  # (the contours drawn: their record, not the 3-D view's)
    wait_for_rerun(page)
    drawn, made, target = _pick(page, (0.5, 0.5))
    assert drawn["lines"] == made["lines"] == 1 and drawn["meta"]["pending"] and not made["meta"]["pending"]
    assert abs(made["meta"]["chosen"][0] - target[0]) < 1e-6
    assert_no_exception(page)


def test_the_b_slider_moves_the_surface_in_the_browser(fresh_page: Page, app_server: str) -> None:
    page = fresh_page  # (it listens to the page's events)
    sent = []  # what the browser sends the server (listened to before the page opens its websocket)
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge")
    page.wait_for_timeout(500)
    assert sent
    before = len(sent)
    b0 = page.evaluate(f"() => {VIEW}.m.bs[{VIEW}.i]")
    lines = f"() => document.querySelector('{ROOT} .dbls-loss-lines').getAttribute('d')"
    z = f"() => {VIEW}.plots[0].data[0].z[40][40]"
    lines0, z0 = page.evaluate(lines), page.evaluate(z)
    page.locator(f"{ROOT} .dbls-range").focus()
    page.keyboard.press("End")
    page.wait_for_function(f"(b) => {VIEW}.m.bs[{VIEW}.i] !== b", arg=b0)
    bs = page.evaluate(f"() => Array.from({VIEW}.m.bs)")
    assert page.evaluate(f"() => {VIEW}.plots[0].layout.meta.b") == max(bs)
    assert page.evaluate(lines) != lines0 and page.evaluate(z) != z0  # the lines and the bands moved with b
    page.wait_for_timeout(300)
    assert len(sent) == before  # no message to the server: b lives in the browser
    # a click after b moved chooses w at the b now shown
    page.mouse.click(*screen_point(page, 0.5, 0.5))
    page.wait_for_function(f"() => {{ const g = {DATA}; return !!g && !!g.layout.meta.chosen; }}", timeout=30_000)
    assert page.evaluate(f"() => ({DATA}).layout.meta.chosen")[2] == max(bs)
    assert_no_exception(page)


def largest_lambda(page: Page) -> None:
    """Move the page's λ control to its largest value, λ = 1 (the End key on its slider)."""
    chart_control(page, "λ of the hinge").focus()
    page.keyboard.press("End")


def test_lambda_moves_the_hinge_in_the_browser(page: Page, app_server: str) -> None:
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge&lam=0.0")
    ready = page.evaluate(f"() => document.querySelector({ROOT!r}).dataset.ready")
    z = f"() => {VIEW}.plots[0].data[0].z[5][5]"
    z0 = page.evaluate(z)
    largest_lambda(page)
    page.wait_for_function(f"() => {VIEW}.m.lam === 1")
    assert page.evaluate(z) > z0  # λ/2‖w‖² added at a weight away from 0
    wait_for_rerun(page)
    page.wait_for_timeout(300)
    assert page.evaluate(f"() => document.querySelector({ROOT!r}).dataset.ready") == ready  # the same record
    assert_no_exception(page)


def test_the_data_chart_writes_the_losses_at_the_lambda_shown(page: Page, app_server: str) -> None:
    """The data chart's record holds the chosen weight's losses for every λ: moving λ rewrites them in the browser
    (the same record: no new one is drawn), as the surface follows λ."""
    open_loss(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge&lam=0.0")
    wait_for_rerun(page)
    _, made, _ = _pick(page, (0.6, 0.5))
    wait_for_rerun(page)
    data = ".st-key-loss_data .dbls"
    ready = page.evaluate(f"() => document.querySelector({data!r}).dataset.ready")
    hinge = f"() => Number(document.querySelector({data!r} + ' .dbls-state').textContent.match(/hinge loss (\\S+)/)[1])"
    h0 = page.evaluate(hinge)
    largest_lambda(page)
    page.wait_for_function(f"() => ({DATA}).layout.meta.lam === 1")
    w1, w2, _ = made["meta"]["chosen"]
    assert page.evaluate(hinge) == pytest.approx(h0 + 0.5 * (w1 * w1 + w2 * w2), abs=2e-3)  # + λ/2‖w‖² (3 digits)
    wait_for_rerun(page)
    page.wait_for_timeout(300)
    assert page.evaluate(f"() => document.querySelector({data!r}).dataset.ready") == ready  # the same record
    assert page.evaluate(f"() => ({DATA}).layout.meta.lam") == 1
    assert_no_exception(page)
