"""The Perceptron page in a real Chromium: step, back, scrub, play, and a rebuild on τ."""

from __future__ import annotations

from e2e_helpers import (
    CHART,
    assert_no_exception,
    chart_meta,
    open_page,
    trace_xy,
)
from playwright.sync_api import Page, expect

LINE = "boundary w·x + b = 0"


def annotation(page: Page) -> str:
    return page.evaluate(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text")


def active_step(page: Page) -> str:
    """The label of the slider's current step (the step number shown)."""
    return page.evaluate(
        f"() => {{ const s = document.querySelector({CHART!r})._fullLayout.sliders[0];"
        " return s.steps[s.active].label; }"
    )


def click_menu(page: Page, text: str) -> None:
    page.locator(".updatemenu-button", has_text=text).first.click()


def open_perceptron(page: Page, base: str) -> None:
    open_page(page, base, 'Perceptron', 'perceptron')


def test_textbook_step_back_and_play_to_convergence(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    meta = chart_meta(page)
    assert meta["n_updates"] == 7 and meta["converged"]
    assert annotation(page).startswith("<b>Step 0</b>")
    x0, _ = trace_xy(page, LINE)
    assert [v for v in x0 if v is not None] == []  # w = 0: no boundary yet

    click_menu(page, "Next")
    page.wait_for_function(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Step 1')")
    assert "x₁ = (3, 3), y = +1 misclassified" in annotation(page)
    x1, y1 = trace_xy(page, LINE)
    assert len([v for v in x1 if v is not None]) == 2  # the line appeared in the DOM
    for _ in range(8):
        click_menu(page, "Next")
    page.wait_for_function(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Step 9')")
    text = annotation(page).replace("<br>", " ")
    assert "w ← (1, 1) + 1·(−1)·(1, 1) = (0, 0), b ← −1 + 1·(−1) = −2" in text
    click_menu(page, "Back")
    page.wait_for_function(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Step 8')")
    assert active_step(page) == "8"

    click_menu(page, "Fast")  # play from step 8 to the end, in the browser
    page.wait_for_function(
        f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Converged')",
        timeout=15_000,
    )
    assert active_step(page) == "15"
    xe, ye = trace_xy(page, LINE)
    assert xe != x1  # the boundary moved
    assert_no_exception(page)


def test_scrub_slider_jumps_to_a_step(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    rail = page.locator(f"{CHART} .slider-rail-touch-rect").first
    rail.scroll_into_view_if_needed()
    box = rail.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 3, box["y"] + box["height"] / 2)  # the right end: the last step
    page.wait_for_function(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Step 15')")
    rings = page.evaluate(
        f"() => document.querySelector({CHART!r})._fullData.find(t => t.name.startsWith('M:')).selectedpoints"
    )
    assert list(rings) == []  # converged: M is empty


def test_changing_tau_rebuilds_the_figure(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    assert chart_meta(page)["tau"] == 1.0
    slider = page.get_by_test_id("stSlider").filter(has_text="Step size").get_by_role("slider")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta && g.layout.meta.tau === 0.5; }}"
    )
    assert "tau=0.5" in page.url  # the view is in the URL
    assert_no_exception(page)


def test_xor_never_converges(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="XOR").first.click()
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta && !g.layout.meta.converged; }}"
    )
    expect(page.get_by_text("No convergence after 1,000 steps")).to_be_visible()
    expect(page.get_by_text("not linearly separable").first).to_be_visible()
    click_menu(page, "Next")
    page.wait_for_function(f"() => document.querySelector({CHART!r})._fullLayout.annotations[0].text.includes('Step')")
    assert_no_exception(page)
