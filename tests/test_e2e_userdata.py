"""The user's own points in a real Chromium: a click adds a point where it lands, CSV in, the link out."""

from __future__ import annotations

import re

import pytest
from e2e_helpers import APP_IDLE, assert_no_exception, chart_meta, wait_for_chart, wait_for_rerun
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

CHARTS = {"perceptron": "perceptron_chart", "dual": "dual_chart", "svm": "svm_chart", "losses": "loss_data"}
ADDED = re.compile(r"added x\S* = \((-?[\d.]+), (-?[\d.]+)\), y = ([+-]1)")


def _settle(page: Page) -> None:
    page.wait_for_timeout(300)  # the rerun a click starts may not have begun yet
    wait_for_rerun(page)


def _open(page: Page, url: str) -> None:
    """Open ``url`` and wait for its run and its chart."""
    page.goto(url)
    wait_for_rerun(page)
    wait_for_chart(page)


def _gd(key: str) -> str:
    return f"document.querySelector('.st-key-{key} .js-plotly-plot')"


def _screen(page: Page, key: str, x: float, y: float) -> tuple[float, float, list, list]:
    """Where data point (x, y) of the chart's data panel is on the screen, and the axes' ranges."""
    for attempt in range(5):  # a rerun may replace the chart while it is scrolled to: take the new one
        try:
            page.locator(f".st-key-{key} .js-plotly-plot .main-svg").first.scroll_into_view_if_needed()
            break
        except PlaywrightError:
            if attempt == 4:
                raise
            page.wait_for_timeout(200)
    return tuple(page.evaluate(f"""([x, y]) => {{
        const gd = {_gd(key)}, fl = gd._fullLayout, r = gd.querySelector('.main-svg').getBoundingClientRect();
        return [r.left + fl.xaxis._offset + fl.xaxis.d2p(x), r.top + fl.yaxis._offset + fl.yaxis.d2p(y),
                fl.xaxis.range, fl.yaxis.range]; }}""", [x, y]))


def _sidebar_alerts(page: Page) -> str:
    return " | ".join(page.locator("[data-testid=stSidebar] [data-testid=stAlert]").all_inner_texts())


def _editing_on(page: Page) -> None:
    page.get_by_text("Click the chart to add or remove points").click()
    _settle(page)


@pytest.mark.parametrize("page_name", list(CHARTS))
def test_a_click_adds_a_point_where_it_lands_and_a_click_on_it_removes_it(page: Page, app_server: str,
                                                                           page_name: str) -> None:
    key = CHARTS[page_name]
    page.goto(f"{app_server}/{page_name}?ds=textbook")
    wait_for_rerun(page)
    page.wait_for_function(f"() => !!({_gd(key)}) && !!({_gd(key)})._fullLayout")
    _editing_on(page)
    page.get_by_test_id("stSidebar").get_by_text("−1", exact=True).click()  # class of the new point
    _settle(page)
    target = (2.37, 1.61)
    px, py, xr, yr = _screen(page, key, *target)
    page.mouse.click(px, py)
    page.wait_for_function("() => document.body.innerText.includes('Clicked: added')", timeout=30_000)
    _settle(page)
    assert_no_exception(page)
    m = ADDED.search(_sidebar_alerts(page))
    assert m, _sidebar_alerts(page)
    x, y, label = float(m[1]), float(m[2]), m[3]
    assert abs(x - target[0]) <= 0.01 * (xr[1] - xr[0]) and abs(y - target[1]) <= 0.01 * (yr[1] - yr[0])
    assert label == "-1"
    assert "Your points: n = 4" in page.inner_text("body")
    assert "pts=4." in page.url and "ds=Your+points" in page.url
    # a click on the new point removes it
    page.wait_for_function(f"() => !!({_gd(key)}) && !!({_gd(key)})._fullLayout")
    px, py, _, _ = _screen(page, key, x, y)
    page.mouse.click(px, py)
    page.wait_for_function("() => document.body.innerText.includes('Clicked: removed x₄')", timeout=30_000)
    _settle(page)
    assert "Your points: n = 3" in page.inner_text("body")
    assert "(3 points now)" in _sidebar_alerts(page)


def test_quick_clicks_each_add_one_point(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?ds=textbook")
    _editing_on(page)
    spots = [_screen(page, "perceptron_chart", x, 0.25)[:2] for x in (0.0, 1.0, 2.0, 3.5)]
    for px, py in spots:  # faster than the reruns they start
        page.mouse.click(px, py)
        page.wait_for_timeout(60)
    page.wait_for_function("() => document.body.innerText.includes('Your points: n = 7')", timeout=30_000)
    page.wait_for_timeout(1500)
    _settle(page)
    assert "Your points: n = 7" in page.inner_text("body")
    assert chart_meta(page)["n_points"] == 7


def test_a_drag_on_the_chart_adds_no_point(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?ds=textbook")
    _editing_on(page)
    px, py, _, _ = _screen(page, "perceptron_chart", 2.0, 2.0)
    page.mouse.move(px, py)
    page.mouse.down()
    page.mouse.move(px + 40, py + 30, steps=5)
    page.mouse.up()
    page.wait_for_timeout(1500)
    wait_for_rerun(page)
    assert "Clicked" not in _sidebar_alerts(page)
    assert chart_meta(page)["n_points"] == 3 and "pts=" not in page.url


def _upload(page: Page, name: str, text: str) -> None:
    page.get_by_text("CSV: import, export").click()
    page.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(
        files=[{"name": name, "mimeType": "text/csv", "buffer": text.encode()}])
    _settle(page)


def test_a_bad_csv_is_named_and_the_chart_keeps_its_points(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?ds=XOR&n_xor=40")
    _upload(page, "bad.csv", "x1,x2,y\n1,2,1\n3,abc,0\n")
    page.wait_for_function("() => document.body.innerText.includes('was not loaded')", timeout=30_000)
    text = _sidebar_alerts(page)
    assert "bad.csv was not loaded" in text and "line 3" in text and "'abc'" in text and "not a number" in text
    assert_no_exception(page)
    assert chart_meta(page)["n_points"] == 40
    assert "XOR: n = 40" in page.inner_text("body")


def test_a_good_csv_with_labels_0_and_1_loads(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron")
    _upload(page, "exercise <b>3</b>.csv", "a;b;label\r\n0;0;0\r\n1;1;1\r\n2;0.5;0\r\n3;2;1\r\n")
    page.wait_for_function("() => document.body.innerText.includes('Loaded 4 points')", timeout=30_000)
    text = _sidebar_alerts(page)
    assert "“0” → −1" in text and "“1” → +1" in text and "x₁ = a, x₂ = b" in text
    assert "exercise <b>3</b>.csv" in text  # the file's name shown as text, not as markup
    page.wait_for_function("() => { const g = document.querySelector('.st-key-perceptron_chart .js-plotly-plot');"
                           " return g && g.layout.meta.n_points === 4; }", timeout=30_000)
    assert_no_exception(page)


def test_a_copied_link_opens_the_same_view_in_another_tab(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?ds=Blobs&n_blobs=20&tau=0.5")
    _editing_on(page)
    px, py, _, _ = _screen(page, "perceptron_chart", 0.5, 0.5)
    page.mouse.click(px, py)
    page.wait_for_function("() => document.body.innerText.includes('Clicked:')", timeout=30_000)
    _settle(page)
    wait_for_chart(page)
    for _ in range(3):  # step 3 in the browser
        page.locator(".st-key-perceptron_chart .dbls button[data-go=next]").click()
        page.wait_for_timeout(150)
    page.get_by_role("button", name="Copy link to this view").click()
    field = page.get_by_label("Link to this view")
    page.wait_for_function("() => !!document.querySelector('input.dbl-link')?.value "
                           "|| [...document.querySelectorAll('*')].some(e => e.shadowRoot?.querySelector('input.dbl-link')?.value)")
    link = field.input_value()
    assert "step=3" in link and "pts=" in link and "tau=0.5" in link
    before = page.evaluate("""() => { const g = document.querySelector('.st-key-perceptron_chart .js-plotly-plot');
        return {n: g.layout.meta.n_points, data: g._fullData.filter(t => t.name.startsWith('y =')).map(
            t => [Array.from(t.x), Array.from(t.y)])}; }""")

    fresh = page.context.new_page()  # another tab: a session of its own, nothing of the first one's but the link
    try:
        fresh.goto(link)
        fresh.wait_for_selector(APP_IDLE, state="attached", timeout=30_000)
        fresh.wait_for_function("() => { const g = document.querySelector('.st-key-perceptron_chart .js-plotly-plot');"
                                " return !!(g && g._fullLayout && dbl(g).view); }", timeout=30_000)
        after = fresh.evaluate("""() => { const g = document.querySelector('.st-key-perceptron_chart .js-plotly-plot');
            return {n: g.layout.meta.n_points, tau: g.layout.meta.tau,
                    active: Number(document.querySelector('.st-key-perceptron_chart .dbls').dataset.step),
                    data: g._fullData.filter(t => t.name.startsWith('y =')).map(t => [Array.from(t.x), Array.from(t.y)])}; }""")
        assert after["n"] == before["n"] == 21
        assert after["data"] == before["data"]
        assert after["tau"] == 0.5 and after["active"] == 3
        assert "Your points: n = 21" in fresh.inner_text("body")
    finally:
        fresh.close()


def test_two_sessions_drawing_at_once_never_see_each_others_points(fresh_page: Page, app_server: str) -> None:
    """Two tabs, two Streamlit sessions (a session is its tab's connection, whichever browser it is in)."""
    from urllib.parse import parse_qs, urlparse

    from datasets.points import decode_points

    pages = [fresh_page, fresh_page.context.new_page()]
    try:
        for p in pages:
            _open(p, f"{app_server}/perceptron?ds=textbook")
            _editing_on(p)
        spots = {0: [(0.5, 2.5), (3.5, 0.5)], 1: [(2.0, 0.0), (1.0, 3.5)]}
        for k in range(2):  # interleaved: A, B, A, B
            for who, p in enumerate(pages):
                px, py, _, _ = _screen(p, "perceptron_chart", *spots[who][k])
                p.mouse.click(px, py)
                p.wait_for_timeout(100)
        for who, p in enumerate(pages):
            p.wait_for_function("() => document.body.innerText.includes('Your points: n = 5')", timeout=30_000)
            _settle(p)
            X, _ = decode_points(parse_qs(urlparse(p.url).query)["pts"][0])
            added = {tuple(np_round(x)) for x in X[3:]}
            assert added == {tuple(np_round(s)) for s in spots[who]}, (who, added)
            assert "Your points: n = 5" in p.inner_text("body")
    finally:
        pages[1].close()


def np_round(x) -> tuple[float, float]:
    """A point to the nearest 0.1 (a click lands within a pixel of its target)."""
    return (round(float(x[0]), 1), round(float(x[1]), 1))
