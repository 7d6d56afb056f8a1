"""The Dual / Gram page in a real Chromium: step, watch α and the lit row follow, switch to RBF, share a link.

The chart is the scene renderer's (viz/js/dual.js): stepping sends nothing to the server."""

from __future__ import annotations

from e2e_helpers import (
    assert_no_exception,
    chart_control,
    chart_meta,
    open_page,
    scene_button,
    scene_drawn,
    scene_state,
    wait_for_rerun,
    wait_for_scene,
    wait_for_step,
)
from playwright.sync_api import Page


def open_dual(page: Page, base: str) -> None:
    open_page(page, base, 'dual')
    wait_for_scene(page)


def test_step_moves_the_alpha_bars_and_the_lit_row(fresh_page: Page, app_server: str) -> None:
    page = fresh_page  # (it listens to the page's events)
    sent = []  # what the browser sends the server (listened to before the page opens its websocket)
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    open_dual(page, app_server)
    wait_for_rerun(page)
    page.wait_for_timeout(500)
    assert sent  # the listener hears the page (its rerun requests)
    before = len(sent)
    meta = chart_meta(page)
    assert meta["view"] == "dual" and meta["kernel"] == "linear" and meta["n_points"] == 3
    d = scene_drawn(page)
    assert d["alpha"] == [0, 0, 0] and d["row"] is None  # step 0 examines nothing
    scene_button(page, "next")
    wait_for_step(page, 1)
    d = scene_drawn(page)
    assert d["alpha"] == [1, 0, 0] and d["row"] == [0.5, 1.5]  # x₁ was misclassified: α₁ ← 0 + 1; row 1 of G is lit
    assert page.locator(".dbls .dbls-row").count() == 1
    scene_button(page, "next")
    scene_button(page, "next")
    wait_for_step(page, 3)
    d = scene_drawn(page)
    assert d["alpha"] == [1, 0, 1] and d["row"] == [2.5, 3.5]
    text = scene_state(page)["text"].replace("<br>", " ")
    assert "x₃ misclassified</b>: α₃ ← 0 + 1 = 1" in text
    assert "‖Δw‖∞ = 0" in text  # w from α equals the primal w
    page.wait_for_timeout(300)
    assert len(sent) == before  # stepping happens in the browser: nothing sent to the server
    assert_no_exception(page)


def test_rbf_boundary_is_not_a_straight_line(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/dual?ds=circles")
    wait_for_rerun(page)
    wait_for_scene(page)
    assert chart_meta(page)["kernel"] == "linear"
    page.get_by_test_id("stSelectbox").filter(has_text="Kernel").click()
    page.get_by_role("option", name="RBF").first.click()
    page.wait_for_function("() => { const g = document.querySelector('.dbls .dbls-plot');"
                           " return g && g.layout && g.layout.meta && g.layout.meta.kernel === 'rbf'; }")
    assert "kernel=RBF" in page.url
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('.dbls .dbls-text').textContent.includes('Converged')")
    assert chart_meta(page)["n_points"] == 60
    segs = scene_drawn(page)["line"]
    pts = [p for seg in segs for p in seg]
    assert len(segs) >= 5
    (ax, ay), (bx, by) = pts[0], pts[len(pts) // 2]
    x0, x1, y0, y1 = page.evaluate("() => { const l = document.querySelector('.dbls .dbls-plot')._fullLayout;"
                                   " return [...l.xaxis.range, ...l.yaxis.range]; }")
    off = [abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) for x, y in pts]
    assert max(off) > 0.02 * ((x1 - x0) ** 2)  # points far off the line through two others: a curve
    assert_no_exception(page)


def test_a_hand_written_link_is_kept_and_reopens_the_same_view(page: Page, app_server: str) -> None:
    """Friendly spellings (kernel=rbf, gamma=30) are rewritten as the controls write them, so the address bar
    still holds the view; that address, opened in a fresh browser context, shows the same run at the same step."""
    page.goto(app_server.rstrip("/") + "/dual?ds=xor&kernel=rbf&gamma=30&eta=0.5&order=random&step=4")
    wait_for_rerun(page)
    wait_for_scene(page)
    meta = chart_meta(page)
    assert meta["kernel"] == "rbf" and meta["kernel_params"] == {"gamma": 30.0} and meta["eta"] == 0.5
    assert meta["variant"] == "random" and scene_state(page)["step"] == 4
    url = page.url
    for part in ("/dual?", "ds=XOR", "kernel=RBF", "gamma=30.0", "eta=0.5", "order=random"):
        assert part in url, url
    fresh = page.context.new_page()  # another tab: a session of its own, nothing of the first one's but the link
    try:
        fresh.goto(url)
        wait_for_rerun(fresh)
        wait_for_scene(fresh)
        again = chart_meta(fresh)
        for key in ("kernel", "kernel_params", "eta", "variant", "n_points", "n_steps", "n_updates"):
            assert again[key] == meta[key], key
        assert scene_state(fresh)["text"] == scene_state(page)["text"]  # the link keeps step=4
        assert_no_exception(fresh)
    finally:
        fresh.close()


def test_eta_moves_the_chart_in_the_browser_on_every_kernel(page: Page, app_server: str) -> None:
    """Step η: the chart shows the new η's α and b at the step it stood on, from the record it already holds."""
    for query in ("ds=separable&kernel=rbf&gamma=1.0&eta=1.0", "ds=separable&eta=1.0"):
        page.goto(f"{app_server}/dual?{query}")
        wait_for_scene(page)
        wait_for_rerun(page)
        for _ in range(3):
            scene_button(page, "next")
        wait_for_step(page, 3)
        ready = page.evaluate("() => document.querySelector('.dbls').dataset.ready")
        alpha = scene_drawn(page)["alpha"]
        slider = chart_control(page, "Step η")
        slider.focus()
        page.keyboard.press("ArrowRight")  # 1.0 → 2.0
        page.wait_for_function("() => dbl(document.querySelector('.dbls')).view.m.eta === 2")
        wait_for_rerun(page)
        assert page.evaluate("() => document.querySelector('.dbls').dataset.ready") == ready  # no new record
        assert scene_state(page)["step"] == 3
        assert scene_drawn(page)["alpha"] == [2 * a for a in alpha] and any(alpha)  # α = η·c
        assert chart_meta(page)["eta"] == 2
        assert_no_exception(page)
