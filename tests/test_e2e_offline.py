"""No request leaves the machine: every page, opened and used in a real Chromium, asks only the app's own host.

A lecture hall may have no internet. plotly.js, the fonts and KaTeX come from the app itself; Streamlit's
``:material/…:`` icons would be fetched from fonts.gstatic.com, so the app uses none.
"""

from __future__ import annotations

from urllib.parse import urlparse

from e2e_helpers import SCENE, assert_no_exception, scene_button, wait_for_chart, wait_for_rerun, wait_for_step
from playwright.sync_api import Browser

LOCAL = ("data:", "blob:", "about:", "chrome-extension:")
# every page, and the modes that draw more: the quiz, presentation mode, the loss page's 3D view
VIEWS = ["/", "/perceptron", "/perceptron?quiz=true", "/perceptron?present=true", "/dual?kernel=rbf", "/svm",
         "/losses", "/losses?view=surface", "/compare"]


def test_no_page_asks_another_host(browser: Browser, app_server: str) -> None:
    ours = urlparse(app_server).netloc
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))  # every frame and worker of the context
    page = context.new_page()
    try:
        for view in VIEWS:
            page.goto(app_server + view)
            wait_for_rerun(page)
            if view != "/":
                wait_for_chart(page)
            if view == "/perceptron":  # step in the browser, open the settings and the table
                page.wait_for_selector(SCENE, state="attached")
                scene_button(page, "next")
                wait_for_step(page, 1)
                page.get_by_text("More settings: bias, start").click()
                page.get_by_text("CSV: import, export").click()
            page.wait_for_timeout(1500)  # icons and fonts load after the first paint
            assert_no_exception(page)
    finally:
        context.close()
    assert any(urlparse(u).netloc == ours for u in asked)  # the recording works: it saw the app's own requests
    elsewhere = sorted({u for u in asked if not u.startswith(LOCAL) and urlparse(u).netloc != ours})
    assert not elsewhere, "requests to other hosts:\n" + "\n".join(elsewhere[:20])
