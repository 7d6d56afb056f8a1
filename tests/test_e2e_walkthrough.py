"""What a walkthrough found (issue 38, item 10): the keyboard's way to the stepping controls, focus at the run's ends,
and the PNG export's loss axis, in a real Chromium."""

from __future__ import annotations

from e2e_helpers import SCENE, assert_no_exception, wait_for_rerun
from playwright.sync_api import Page


def _open(page: Page, url: str, width: int = 1024, height: int = 768) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    wait_for_rerun(page)
    page.wait_for_selector(SCENE, state="attached")
    page.wait_for_timeout(400)
    assert_no_exception(page)


def test_the_legend_is_one_tab_stop_and_its_arrows_move_along_it(page: Page, app_server: str) -> None:
    """The ten legend entries were ten Tab stops before Back and Next (44 stops from the page's top to Next at
    1024×768): one stop now, ← → moving along the entries (and not the chart's step)."""
    _open(page, app_server.rstrip("/") + "/perceptron?ds=xor")
    stops = page.evaluate("() => [...document.querySelectorAll('.dbls-legend button')].map(b => b.tabIndex)")
    assert len(stops) >= 8 and stops.count(0) == 1 and all(t in (0, -1) for t in stops), stops
    page.locator(".dbls-legend button[tabindex='0']").focus()
    page.keyboard.press("Tab")
    go = page.evaluate("() => document.activeElement.dataset.go || document.activeElement.className")
    assert go in ("back", "next"), go  # from the legend straight to the controls (Back is disabled at step 0)
    page.locator(".dbls-legend button[tabindex='0']").focus()
    step = page.evaluate("() => document.querySelector('.dbls').dataset.step")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => [...document.querySelectorAll('.dbls-legend button')].indexOf(document.activeElement)") == 1
    assert page.evaluate("() => document.querySelector('.dbls').dataset.step") == step
    page.keyboard.press("Enter")  # (an entry pressed is written anew: the focus stays on it)
    assert page.evaluate("() => [...document.querySelectorAll('.dbls-legend button')].indexOf(document.activeElement)") == 1


def test_next_disabled_at_the_last_step_hands_the_focus_to_back(page: Page, app_server: str) -> None:
    """Next pressed to the last step was disabled with the focus on it, and the focus fell to the page's body."""
    _open(page, app_server.rstrip("/") + "/perceptron")
    page.locator(f"{SCENE} [data-go=next]").focus()
    last = page.evaluate("() => dbl(document.querySelector('.dbls')).view.m.nStops - 1")
    for _ in range(last):
        page.keyboard.press("Enter")
    page.wait_for_timeout(200)
    assert page.evaluate("() => document.querySelector('[data-go=next]').disabled")
    assert page.evaluate("() => document.activeElement.dataset.go") == "back"


def test_the_png_export_keeps_the_loss_axis_whole(page: Page, app_server: str) -> None:
    """The Perceptron's export (the data panel over the strip) had a right margin of 10 px: the strip's loss axis, its
    ticks and its title, ran past the image's right edge."""
    _open(page, app_server.rstrip("/") + "/perceptron?ds=xor&step=30")
    got = page.evaluate("""async () => {
        const v = dbl(document.querySelector('.dbls')).view, fig = v.figure(), div = document.createElement('div');
        div.style.cssText = 'position: absolute; left: 0; top: 0';
        document.body.appendChild(div);
        await window.Plotly.newPlot(div, fig.data, fig.layout, {staticPlot: true});
        const left = div.getBoundingClientRect().left, right = left + fig.layout.width;
        const parts = [...div.querySelectorAll('.y3tick text, .g-y3title text')].map(e => e.getBoundingClientRect().right);
        div.remove();
        return {right, parts};
    }""")
    assert len(got["parts"]) >= 3 and max(got["parts"]) <= got["right"] + 0.5, got


def test_on_a_phone_the_formula_rows_are_whole(page: Page, app_server: str) -> None:
    """At 390×844 step 30's row of numbers took 497 px of a 356 px column: cut at the right edge (scrolled)."""
    _open(page, app_server.rstrip("/") + "/perceptron?ds=xor&step=30", 390, 844)
    page.evaluate("() => { document.querySelector('.dbls details.dbls-math').open = true; }")
    page.wait_for_function("() => document.querySelector('.dbls .dbls-math-tex .katex')")
    page.wait_for_timeout(300)
    rows = page.evaluate("() => [...document.querySelectorAll('.dbls .dbls-math-tex')].map(e => [e.scrollWidth, e.clientWidth])")
    assert rows and all(need <= w + 1 for need, w in rows), rows
