"""The SVM page in a real Chromium: moving C (on the chart, or the control above it) changes the margin drawn;
the hard margin on XOR explains itself."""

from __future__ import annotations

from e2e_helpers import CHART, assert_no_exception, wait_for_rerun
from playwright.sync_api import Page, expect

# the SVM chart (found by its meta, whatever else the page draws)
SVM_GD = f"Array.from(document.querySelectorAll({CHART!r})).find(g => g.layout && g.layout.meta && g.layout.meta.view === 'svm')"


def svm_meta(page: Page) -> dict:
    page.wait_for_function(f"() => !!({SVM_GD})")
    return page.evaluate(f"() => JSON.parse(JSON.stringify(({SVM_GD}).layout.meta))")


def margin_x(page: Page) -> list:
    return page.evaluate(f"() => Array.from(({SVM_GD})._fullData.find(t => t.name === 'margin f(x) = ±1').x)")


def markers_drawn(page: Page) -> list[int]:
    """Markers the data panel's traces hold, and marker paths on screen there (stale ones would make them differ)."""
    return page.evaluate(f"""() => {{ const g = {SVM_GD};
        const want = g.data.filter(t => (!t.xaxis || t.xaxis === 'x') && (t.mode || '').includes('markers'))
            .reduce((a, t) => a + Array.from(t.x).filter(v => v !== null && Math.abs(v) < 1e6).length, 0);
        return [want, g.querySelectorAll('.subplot.xy .scatterlayer path.point').length]; }}""")


def status_text(page: Page) -> str:
    return page.evaluate(f"() => ({SVM_GD})._fullData.find(t => t.mode === 'text' && t.xaxis === 'x6').text[0]")


def test_dragging_c_on_the_chart_redraws_in_the_browser(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=blobs")
    wait_for_rerun(page)
    before = svm_meta(page)
    assert before["live"] and before["C"] == 1.0
    xs0, status0, url0 = margin_x(page), status_text(page), page.url
    # press the rail at its far right (C = 1000), then drag the grip back to its far left (C = 0.001)
    page.locator(".slider-rail-rect").first.scroll_into_view_if_needed()
    rail = page.locator(".slider-rail-rect").first.bounding_box()
    y = rail["y"] + rail["height"] / 2
    page.mouse.click(rail["x"] + rail["width"] - 4, y)
    page.wait_for_function(f"() => ({SVM_GD}).layout.meta.C === 1000")
    hard = svm_meta(page)
    assert hard["width"] < before["width"] and margin_x(page) != xs0
    assert status_text(page).startswith("C = 1000: margin width") and status_text(page) != status0
    grip = page.locator(".slider-grip-rect").first.bounding_box()
    page.mouse.move(grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2)
    page.mouse.down()
    page.mouse.move(rail["x"] + rail["width"] / 2, y, steps=5)
    page.mouse.move(rail["x"] + 2, y, steps=5)
    page.mouse.up()
    page.wait_for_function(f"() => ({SVM_GD}).layout.meta.C === 0.001")
    soft = svm_meta(page)
    assert soft["width"] > before["width"] > hard["width"]
    assert soft["support"] > before["support"]  # a tiny C: nearly every point inside the margin
    # no category's old points are left on screen (at C = 0.001 the "outside" ones are all gone)
    want, drawn = markers_drawn(page)
    assert want == drawn
    # all of it in the browser: the server's C, the URL and the chart's data are where they were
    assert page.url == url0
    slider = page.get_by_test_id("stSlider").filter(has_text="Penalty C")
    expect(slider).to_contain_text("1")
    assert_no_exception(page)


def test_moving_c_changes_the_margin_width(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=blobs")
    wait_for_rerun(page)
    before = svm_meta(page)
    assert before["view"] == "svm" and before["C"] == 1.0
    xs0 = margin_x(page)
    slider = page.get_by_test_id("stSlider").filter(has_text="Penalty C").get_by_role("slider")
    slider.focus()
    for _ in range(4):  # four steps of 10^¼: C from 1 to 10
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
    page.wait_for_function(f"() => {{ const g = {SVM_GD}; return !!g && g.layout.meta.C === 10; }}")
    after = svm_meta(page)
    assert after["width"] < before["width"]
    xs1 = margin_x(page)
    assert xs1 != xs0  # the margin lines drawn moved
    assert "C=10" in page.url
    assert_no_exception(page)


def test_hard_margin_on_xor_shows_the_message(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=xor")
    wait_for_rerun(page)
    svm_meta(page)
    page.get_by_test_id("stCheckbox").filter(has_text="Hard margin").click()
    expect(page.get_by_text("needs linearly separable data")).to_be_visible()
    assert_no_exception(page)
