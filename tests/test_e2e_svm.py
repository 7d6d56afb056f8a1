"""The SVM page in a real Chromium: moving C changes the margin drawn; the hard margin on XOR explains itself."""

from __future__ import annotations

from e2e_helpers import CHART, assert_no_exception, wait_for_rerun
from playwright.sync_api import Page, expect

# the SVM data chart among the page's three (the objective bar and the C path come after it)
SVM_GD = f"Array.from(document.querySelectorAll({CHART!r})).find(g => g.layout && g.layout.meta && g.layout.meta.view === 'svm')"


def svm_meta(page: Page) -> dict:
    page.wait_for_function(f"() => !!({SVM_GD})")
    return page.evaluate(f"() => JSON.parse(JSON.stringify(({SVM_GD}).layout.meta))")


def margin_x(page: Page) -> list:
    return page.evaluate(f"() => Array.from(({SVM_GD})._fullData.find(t => t.name === 'margin f(x) = ±1').x)")


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
