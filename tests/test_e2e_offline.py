"""No request leaves the machine: every page, opened and used in a real Chromium, asks only the app's own host.

A lecture hall may have no internet. plotly.js (Streamlit's bundle, and static/plotly.min.js for the scene
renderer), the fonts (Source Sans, Material Symbols) and KaTeX's fonts come from the app itself. What did leave
(Streamlit 1.67): a page's ``:material/…:`` icon (``st.Page(icon=…)``) becomes the tab's icon, and Streamlit points
that at ``https://fonts.gstatic.com/s/i/short-term/release/materialsymbolsrounded/<name>/default/24px.svg``,
one request on every page. Icons in buttons and links are drawn with the bundled font, but the app uses no
``:material/…:`` icon at all, so a later Streamlit that fetches those too cannot make the app ask the internet.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlparse

from e2e_helpers import SCENE, assert_no_exception, scene_button, wait_for_chart, wait_for_rerun, wait_for_step
from playwright.sync_api import Browser

LOCAL = ("data:", "blob:", "about:", "chrome-extension:")
# every page, and the modes that draw more: the quiz, presentation mode, the loss page's 3D view
VIEWS = ["/", "/perceptron", "/perceptron?quiz=true", "/perceptron?present=true", "/dual?kernel=rbf", "/svm",
         "/losses", "/losses?view=surface", "/compare"]
ROOT = Path(__file__).resolve().parent.parent
MATERIAL = re.compile(r":material/[a-z0-9_]+:")


def test_no_page_asks_another_host(browser: Browser, app_server: str) -> None:
    ours = urlparse(app_server).netloc
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))  # every frame and worker of the context
    flying: set = set()  # the requests not yet answered (or failed)
    context.on("request", lambda request: flying.add(request))
    context.on("requestfinished", lambda request: flying.discard(request))
    context.on("requestfailed", lambda request: flying.discard(request))
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
            if view == "/perceptron?quiz=true":  # answer the first question: the verdict and the Next button
                page.get_by_role("button", name="No update").click()
                page.get_by_role("button", name="Next question").wait_for()
            quiet(page, flying)  # icons and fonts load after the first paint
            assert_no_exception(page)
    finally:
        context.close()
    assert any(urlparse(u).netloc == ours for u in asked)  # the recording works: it saw the app's own requests
    assert any(urlparse(u).path.endswith("/app/static/katex.js") for u in asked)  # the formulas' KaTeX: from the app
    elsewhere = sorted({u for u in asked if not u.startswith(LOCAL) and urlparse(u).netloc != ours})
    assert not elsewhere, "requests to other hosts:\n" + "\n".join(elsewhere[:20])


def quiet(page, flying: set, still_ms: int = 800, most_ms: int = 5000) -> None:
    """Wait until no request of ``flying`` has been in flight for ``still_ms`` (at most ``most_ms`` in all)."""
    still = waited = 0
    while still < still_ms and waited < most_ms:
        page.wait_for_timeout(100)
        waited += 100
        still = still + 100 if not flying else 0


def test_no_material_icons_in_the_source() -> None:
    """The same rule without a browser, naming the line: no ``:material/…:`` icon in app.py, glue/ or app_pages/."""
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in [ROOT / "app.py", *sorted((ROOT / "glue").glob("*.py")), *sorted((ROOT / "app_pages").glob("*.py"))]
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if MATERIAL.search(line)]
    assert not found, "Streamlit fetches a page's :material/ icon from fonts.gstatic.com:\n" + "\n".join(found)
