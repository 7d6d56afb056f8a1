"""Smoke test: the app's root page opens in a real Chromium without an exception."""

from __future__ import annotations

from e2e_helpers import assert_no_exception, goto_page, wait_for_chart, wait_for_rerun
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

APP_NAME = "Decision Boundary Lab"

# document.title, then every heading and the sidebar/logo text, as one string.
_TITLE_AND_HEADINGS = """() => [document.title,
    ...Array.from(document.querySelectorAll('h1, h2, h3, [data-testid=stSidebarHeader], [data-testid=stLogo]'),
                  (e) => e.innerText || e.getAttribute('alt') || '')].join('\\n')"""


def test_root_page_loads(page: Page, app_server: str) -> None:
    page.goto(app_server)
    wait_for_rerun(page)
    assert_no_exception(page)
    # The title and headings are written during the run; give them a moment after the first paint.
    try:
        page.wait_for_function(f"() => ({_TITLE_AND_HEADINGS})().includes({APP_NAME!r})", timeout=10_000)
    except PlaywrightTimeoutError:
        pass
    shown = page.evaluate(_TITLE_AND_HEADINGS)
    assert APP_NAME in shown, f"{APP_NAME!r} is neither in the page title nor in a heading: {shown!r}"


def test_plotly_js_is_fetched_alongside_the_renderer_not_after_it(browser, app_server: str) -> None:
    """A new tab: the first chart element asks for plotly.js and the renderer at once (glue.scene_chart.PRELOAD), so
    plotly.js, the longest load, starts before the renderer has arrived rather than once the renderer runs."""
    ctx = browser.new_context()  # (nothing cached)
    try:
        page = ctx.new_page()
        page.goto(app_server.rstrip("/") + "/perceptron?ds=xor")
        page.wait_for_selector(".dbls[data-ready]", state="attached", timeout=60_000)
        got = page.evaluate("""() => { const at = (re) => performance.getEntriesByType('resource').find((e) => re.test(e.name));
            const plotly = at(/plotly\\.min\\.js/), renderer = at(/dbl-[0-9a-f]+\\/main\\.js/);
            return [plotly.startTime, renderer.responseEnd, plotly.initiatorType]; }""")
        assert got[0] <= got[1] and got[2] == "link", got
        assert_no_exception(page)
    finally:
        ctx.close()


def test_a_fresh_server_s_first_request_for_a_page_runs_the_app_around_it(page: Page) -> None:
    """A server whose very first request is /perceptron (a link opened before anyone saw the home page) shows the page
    inside the app: the shared dataset sidebar and the navigation drawn by app.py, the Perceptron's chart. (With a
    ``pages/`` folder Streamlit runs the page's script alone: tests/test_layout.py.)"""
    from conftest import streamlit_server

    with streamlit_server() as fresh:
        page.goto(fresh + "/perceptron?ds=xor")
        page.wait_for_selector(".dbls[data-ready]", state="attached", timeout=60_000)
        wait_for_rerun(page)
        assert_no_exception(page)
        sidebar = page.get_by_test_id("stSidebar")
        assert sidebar.get_by_text("Dataset", exact=False).count() >= 1
        assert page.get_by_test_id("stSidebarNav").get_by_text("Dual / Gram").count() == 1
        assert page.locator("h1, h2, h3").filter(has_text="Perceptron").count() >= 1


SIDEBAR_PAGES = [("Perceptron", "perceptron", "Perceptron"), ("Dual / Gram", "dual", "Dual perceptron"),
                 ("SVM margin", "svm", "SVM"), ("Loss surface", "losses", "Loss"), ("Compare", "compare", "Compare"),
                 ("Home", "", APP_NAME)]


def test_each_sidebar_link_opens_its_page_with_its_chart(page: Page, app_server: str) -> None:
    """The navigation drawn by app.py: each link, clicked in turn in one session, opens its page at its address, with
    its heading and (but the home page) its chart; the dataset chosen stays."""
    page.goto(app_server.rstrip("/") + "/?ds=xor")
    page.wait_for_function("() => location.search.includes('ds=XOR')")  # (the link's spelling tidied: a second run)
    wait_for_rerun(page)
    for link, path, heading in SIDEBAR_PAGES:
        goto_page(page, app_server, link)
        assert page.url.split("?")[0].rstrip("/") == (app_server.rstrip("/") + "/" + path).rstrip("/"), (link, page.url)
        page.locator("h1").filter(has_text=heading).first.wait_for()
        if path:
            wait_for_chart(page)
            page.wait_for_function("() => /[?&]ds=xor(&|$)/i.test(location.search)")  # (the list writes it after its rerun)
        assert_no_exception(page)
