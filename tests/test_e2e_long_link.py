"""A link too long for Streamlit, in a real Chromium: named while the address stays so, the view it showed kept.

Streamlit drops a query string over 524,288 characters whole before the script runs (a fresh request for such an
address never reaches it: the web server answers 400 above about 128 KB). The address grows in the page instead:
here a script's ``history.replaceState``, then a bound widget, which writes itself into that address and sends it
with its rerun. The page's TOOLS component (glue/userdata.py) sees the address and reports it.
"""

from __future__ import annotations

from e2e_helpers import assert_no_exception, chart_control, wait_for_chart, wait_for_rerun
from playwright.sync_api import Page

TOO_LONG = "This link is too long ("
QUERY_CHARS = 600_000


def _too_long(page: Page) -> list[str]:
    return [t for t in page.locator("[data-testid=stAlert]").all_inner_texts() if TOO_LONG in t]


def _tau(page: Page) -> str | None:
    slider = chart_control(page, "Step size τ")
    return slider.get_attribute("aria-valuetext")


def test_a_link_grown_past_streamlits_limit_is_named_until_it_is_back_within(page: Page, app_server: str) -> None:
    page.goto(app_server + "/perceptron?ds=XOR&tau=0.5")
    wait_for_rerun(page)
    wait_for_chart(page)
    assert _tau(page) == "0.5" and not _too_long(page)

    page.evaluate("(n) => history.replaceState(null, '', location.pathname + '?x=' + 'a'.repeat(n - 2))", QUERY_CHARS)
    assert page.evaluate("() => location.search.length - 1") == QUERY_CHARS
    page.get_by_text("Standardize x₁ and x₂").click()  # (bound: its rerun carries the address, std=true added)
    page.get_by_text(TOO_LONG).first.wait_for(timeout=30_000)
    wait_for_rerun(page)

    chars = page.evaluate("() => location.search.length - 1")  # what the rerun sent
    assert chars > QUERY_CHARS
    said = _too_long(page)
    assert len(said) == 1, said
    assert f"{TOO_LONG}{chars:,} characters; Streamlit reads a link of at most 524,288)" in said[0]
    assert _tau(page) == "0.5"  # the view it showed is kept
    assert_no_exception(page)

    page.locator(".st-key-edit_points label").click()  # another rerun, the address still too long: said again, once
    page.get_by_text("Class of a new point").wait_for()  # (drawn by that rerun)
    wait_for_rerun(page)
    assert len(_too_long(page)) == 1
    assert _tau(page) == "0.5"

    page.evaluate("() => history.replaceState(null, '', location.pathname + '?ds=XOR&tau=0.5')")  # back within
    page.locator(".st-key-edit_points label").click()
    page.get_by_text("Class of a new point").wait_for(state="hidden")  # (that rerun has run)
    page.wait_for_function(f"() => ![...document.querySelectorAll('[data-testid=stAlert]')]"
                           f".some(e => e.innerText.includes({TOO_LONG!r}))", timeout=30_000)
    wait_for_rerun(page)
    assert not _too_long(page)
    assert _tau(page) == "0.5"
    assert_no_exception(page)
