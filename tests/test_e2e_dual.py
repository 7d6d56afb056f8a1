"""The Dual / Gram page in a real Chromium: step, watch α and the lit row follow, switch to RBF."""

from __future__ import annotations

from e2e_helpers import (
    CHART,
    assert_no_exception,
    chart_meta,
    open_page,
    trace_xy,
    wait_for_chart,
    wait_for_rerun,
)
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

BARS = "αᵢ"
ROW = "row of the examined point"
LINE = "boundary f(x) = 0 (f > 0 shaded)"


def annotation(page: Page) -> str:
    return page.evaluate(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text")


def wait_for_step(page: Page, step: int) -> None:
    page.wait_for_function(
        f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.startsWith('<b>Step {step}</b>')"
    )


def alphas(page: Page, n: int) -> list[float]:
    """α per point from the bar trace as drawn (it carries every bar, or only the bars with α > 0)."""
    xs, ys = trace_xy(page, BARS)
    out = [0.0] * n
    for x, y in zip(xs, ys, strict=True):
        out[int(x) - 1] = y
    return out


def open_dual(page: Page, base: str) -> None:
    open_page(page, base, 'Dual / Gram', 'dual')


def next_step(page: Page) -> None:
    page.locator(".updatemenu-button", has_text="Next").first.click()


def test_step_moves_the_alpha_bars_and_the_lit_row(page: Page, app_server: str) -> None:
    open_dual(page, app_server)
    meta = chart_meta(page)
    assert meta["view"] == "dual" and meta["kernel"] == "linear" and meta["n_points"] == 3
    assert alphas(page, 3) == [0, 0, 0]
    assert trace_xy(page, ROW)[1] in ([], [None])  # step 0 examines nothing

    next_step(page)
    wait_for_step(page, 1)
    assert alphas(page, 3) == [1, 0, 0]  # x₁ was misclassified: α₁ ← 0 + 1
    _, row = trace_xy(page, ROW)
    assert min(row) < 1 < max(row)  # row 1 of G is lit
    next_step(page)
    next_step(page)
    wait_for_step(page, 3)
    assert alphas(page, 3) == [1, 0, 1]
    _, row = trace_xy(page, ROW)
    assert min(row) < 3 < max(row)
    text = annotation(page).replace("<br>", " ")
    assert "x₃ misclassified</b>: α₃ ← 0 + 1 = 1" in text
    assert "‖Δw‖∞ = 0" in text  # w from α equals the primal w
    assert_no_exception(page)


def test_rbf_boundary_is_not_a_straight_line(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/dual?ds=circles")
    wait_for_rerun(page)
    wait_for_chart(page)
    assert chart_meta(page)["kernel"] == "linear"
    page.get_by_test_id("stSelectbox").filter(has_text="Kernel").click()
    page.get_by_role("option", name="RBF").first.click()
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta && g.layout.meta.kernel === 'rbf'; }}"
    )
    assert "kernel=RBF" in page.url
    # go to the last step (the End key of the page's chart tools) and read the boundary drawn there; the
    # key is pressed again if a redraw of the chart (the link's rerun) took the first one away
    converged = f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Converged')"
    for attempt in range(3):
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("End")
        try:
            page.wait_for_function(converged, timeout=10_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    assert chart_meta(page)["n_points"] == 60
    xs, ys = trace_xy(page, LINE)
    x0, x1, y0, y1 = page.evaluate(
        f"() => {{ const l = document.querySelector({CHART!r})._fullLayout;"
        " return [...l.xaxis.range, ...l.yaxis.range]; }"
    )
    pts = [(x, y) for x, y in zip(xs, ys, strict=True)
           if x is not None and y is not None and x0 <= x <= x1 and y0 <= y <= y1]
    assert len(pts) >= 5
    (ax, ay), (bx, by) = pts[0], pts[len(pts) // 2]
    off = [abs((bx - ax) * (y - ay) - (by - ay) * (x - ax)) for x, y in pts]
    assert max(off) > 0.02 * ((x1 - x0) ** 2)  # points far off the line through two others: a curve
    assert_no_exception(page)


def test_a_hand_written_link_is_kept_and_reopens_the_same_view(page: Page, app_server: str, browser) -> None:
    """Friendly spellings (kernel=rbf, gamma=30) are rewritten as the controls write them, so the address bar
    still holds the view; that address, opened in a fresh browser context, shows the same run."""
    page.goto(app_server.rstrip("/") + "/dual?ds=xor&kernel=rbf&gamma=30&eta=0.5&order=random")
    wait_for_rerun(page)
    wait_for_chart(page)
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta && g.layout.meta.kernel === 'rbf'; }}"
    )
    meta = chart_meta(page)
    assert meta["kernel_params"] == {"gamma": 30.0} and meta["eta"] == 0.5 and meta["variant"] == "random"
    url = page.url
    for part in ("/dual?", "ds=XOR", "kernel=RBF", "gamma=30.0", "eta=0.5", "order=random"):
        assert part in url, url
    other = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        fresh = other.new_page()
        fresh.goto(url)
        wait_for_rerun(fresh)
        wait_for_chart(fresh)
        again = chart_meta(fresh)
        for key in ("kernel", "kernel_params", "eta", "variant", "n_points", "n_steps", "n_updates", "frame_steps"):
            assert again[key] == meta[key], key
        assert_no_exception(fresh)
    finally:
        other.close()
