"""The loss-surface page in a real Chromium: clicking a weight draws its boundary; b moves in the browser."""

from __future__ import annotations

from e2e_helpers import CHART, assert_no_exception, wait_for_rerun
from playwright.sync_api import Page

SURF = f"Array.from(document.querySelectorAll({CHART!r})).find(g => g.layout && g.layout.meta && g.layout.meta.view === 'loss_surface')"
DATA = f"Array.from(document.querySelectorAll({CHART!r})).find(g => g.layout && g.layout.meta && g.layout.meta.view === 'loss_data')"


def screen_point(page: Page, w1: float, w2: float) -> tuple[float, float]:
    """Where the weight (w₁, w₂) of the first panel is on the screen."""
    page.locator(f"{CHART} .nsewdrag").first.scroll_into_view_if_needed()
    return tuple(page.evaluate(f"""([a, b]) => {{
        const g = {SURF}; const xa = g._fullLayout.xaxis, ya = g._fullLayout.yaxis;
        const r = g.querySelector('.nsewdrag').getBoundingClientRect();
        return [r.left + xa.l2p(a), r.top + ya.l2p(b)]; }}""", [w1, w2]))


def test_clicking_a_weight_draws_its_boundary(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/losses?ds=textbook&loss=perceptron")
    wait_for_rerun(page)
    page.wait_for_function(f"() => !!({SURF}) && !!({DATA})")
    assert page.evaluate(f"() => ({DATA}).layout.meta.chosen") is None
    b = page.evaluate(f"() => ({SURF}).layout.meta.b")
    # the clickable grid's nearest weight to (0.5, −0.5): the page draws exactly that one
    target = page.evaluate(f"""() => {{ const t = ({SURF}).data.find(t => t.name === 'click to choose w');
        let best = 0, d = Infinity;
        t.x.forEach((x, i) => {{ const e = (x - 0.5) ** 2 + (t.y[i] + 0.5) ** 2; if (e < d) {{ d = e; best = i; }} }});
        return [t.x[best], t.y[best]]; }}""")
    page.mouse.click(*screen_point(page, *target))
    page.wait_for_function(f"() => {{ const g = {DATA}; return !!g && !!g.layout.meta.chosen; }}", timeout=30_000)
    w1, w2, cb = page.evaluate(f"() => ({DATA}).layout.meta.chosen")
    assert abs(w1 - target[0]) < 1e-6 and abs(w2 - target[1]) < 1e-6 and abs(cb - b) < 1e-6
    # the boundary drawn is w·x + b = 0 for that weight
    xs = page.evaluate(f"() => ({DATA}).layout.meta.boundary_x")
    ys = page.evaluate(f"() => ({DATA}).layout.meta.boundary_y")
    for x, y in zip(xs, ys, strict=True):
        if x is not None:
            assert abs(w1 * x + w2 * y + cb) < 1e-6 * max(1.0, abs(x) + abs(y))
    # and the surface marks it, with its subgradient
    arrow = page.evaluate(f"() => ({SURF}).data.find(t => (t.name || '').startsWith('subgradient')).x")
    assert abs(arrow[0] - w1) < 1e-9
    assert_no_exception(page)


def test_the_b_slider_moves_the_surface_in_the_browser(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge")
    wait_for_rerun(page)
    page.wait_for_function(f"() => !!({SURF})")
    url0 = page.url
    b0 = page.evaluate(f"() => ({SURF}).layout.meta.b")
    lines = f"() => Array.from(({SURF})._fullData.find(t => t.name === \"points' lines yᵢ(w·xᵢ + b) = 0\").x).slice(0, 6)"
    lines0 = page.evaluate(lines)
    rail = page.locator(".slider-rail-rect").first
    rail.scroll_into_view_if_needed()
    box = rail.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
    page.wait_for_function(f"(b) => ({SURF}).layout.meta.b !== b", arg=b0)
    meta = page.evaluate(f"() => ({SURF}).layout.meta")
    assert meta["b"] == max(meta["bs"])
    assert page.evaluate(lines) != lines0  # the lines moved with b
    assert page.url == url0  # no rerun: the slider lives in the chart
    # a click after the slider moved chooses w at the b now shown
    page.mouse.click(*screen_point(page, 0.5, 0.5))
    page.wait_for_function(f"() => {{ const g = {DATA}; return !!g && !!g.layout.meta.chosen; }}", timeout=30_000)
    assert page.evaluate(f"() => ({DATA}).layout.meta.chosen")[2] == meta["b"]
    assert_no_exception(page)
