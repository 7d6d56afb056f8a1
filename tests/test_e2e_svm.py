"""The SVM page in a real Chromium: moving C changes the margin drawn; the hard margin on XOR explains itself."""

from __future__ import annotations

from e2e_helpers import CHART, assert_no_exception, chart_meta, trace_xy, wait_for_chart, wait_for_rerun
from playwright.sync_api import Page, expect


def test_moving_c_changes_the_margin_width(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=blobs")
    wait_for_rerun(page)
    wait_for_chart(page)
    before = chart_meta(page)
    assert before["view"] == "svm" and before["C"] == 1.0
    xs0, _ = trace_xy(page, "margin f(x) = ±1")
    slider = page.get_by_test_id("stSlider").filter(has_text="Penalty C").get_by_role("slider")
    slider.focus()
    for _ in range(4):  # four steps of 10^¼: C from 1 to 10
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta && g.layout.meta.C === 10; }}"
    )
    after = chart_meta(page)
    assert after["width"] < before["width"]
    xs1, _ = trace_xy(page, "margin f(x) = ±1")
    assert xs1 != xs0  # the margin lines drawn moved
    assert "C=10" in page.url
    assert_no_exception(page)


def test_hard_margin_on_xor_shows_the_message(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=xor")
    wait_for_rerun(page)
    wait_for_chart(page)
    page.get_by_test_id("stCheckbox").filter(has_text="Hard margin").click()
    expect(page.get_by_text("needs linearly separable data")).to_be_visible()
    assert_no_exception(page)
