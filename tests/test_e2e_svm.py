"""The SVM page in a real Chromium: C moves in the browser, on the chart's own slider, with no new record sent, and goes
into the link once it rests; where C cannot move in the browser, the chart's Penalty C control sets it; the hard margin
on XOR explains itself."""

from __future__ import annotations

from e2e_helpers import assert_no_exception, chart_control, wait_for_rerun
from playwright.sync_api import Page, expect

from glue.svm_run import PATH_KERNEL_MAX_N

ROOT = ".st-key-svm_chart .dbls"


def shown(page: Page) -> dict:
    """What the chart shows: its C, the margin width and the support vectors (the plot's meta), the status."""
    page.wait_for_function(f"() => {{ const r = document.querySelector({ROOT!r}); return r && r.dataset.ready; }}")
    return page.evaluate(f"""() => {{ const r = document.querySelector({ROOT!r}), v = dbl(r).view;
        return {{c: r.dataset.c, ...JSON.parse(JSON.stringify(v.plot.layout.meta)),
                 status: r.querySelector('.dbls-text').textContent, margins: v.drawn().lines['1']}}; }}""")


def count_messages(page: Page) -> list:
    """The messages the page sends the server from now on (a rerun, a widget's value)."""
    sent: list = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    return sent


def test_c_moves_on_the_chart_in_the_browser(fresh_page: Page, app_server: str) -> None:
    page = fresh_page  # (it listens to the page's events)
    sent = count_messages(page)
    page.goto(app_server.rstrip("/") + "/svm?ds=blobs")
    wait_for_rerun(page)
    before = shown(page)
    assert before["live"] and before["C"] == 1.0 and before["c"] == "1"
    url0 = page.url
    page.wait_for_timeout(300)
    n0 = len(sent)
    rng = page.locator(f"{ROOT} .dbls-range")
    rng.scroll_into_view_if_needed()
    rng.focus()
    page.keyboard.press("End")  # the chart's own slider: C = 1000
    page.wait_for_function(f"() => document.querySelector({ROOT!r}).dataset.c === '1000'")
    hard = shown(page)
    assert hard["width"] < before["width"] and hard["margins"] != before["margins"]
    assert hard["status"].startswith("C = 1000: margin width") and hard["status"] != before["status"]
    page.get_by_role("button", name="◀ Smaller C").click()
    page.wait_for_function(f"() => document.querySelector({ROOT!r}).dataset.c === '562.3'")
    page.keyboard.press("Home")
    page.wait_for_function(f"() => document.querySelector({ROOT!r}).dataset.c === '0.001'")
    soft = shown(page)
    assert soft["width"] > before["width"] > hard["width"] and soft["support"] > before["support"]
    # all of it in the browser; once C rests, the chart tells the page: the link takes it, in one rerun per rest (not
    # one per C passed), and no new record comes back
    page.wait_for_function("() => window.location.search.includes('C=0.001')", timeout=10_000)
    wait_for_rerun(page)
    assert url0 != page.url and 1 <= len(sent) - n0 <= 3
    assert shown(page)["c"] == "0.001"
    rng.focus()
    page.keyboard.press("End")
    for _ in range(4):  # four steps of 10^¼ down: C = 100, the sweep's start
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => window.location.search.includes('C=100&') || window.location.search.endsWith('C=100')",
                           timeout=10_000)
    wait_for_rerun(page)
    page.evaluate(f"() => {{ window.__record = document.querySelector({ROOT!r}).dataset.ready; }}")
    n1 = len(sent)
    page.get_by_role("button", name="Sweep C ▶").click()  # five values of C in the browser, then one message
    page.wait_for_function(f"() => document.querySelector({ROOT!r}).dataset.c === '1000'", timeout=20_000)
    page.wait_for_function("() => window.location.search.includes('C=1000')", timeout=10_000)
    wait_for_rerun(page)
    page.wait_for_timeout(800)
    assert len(sent) - n1 == 1 and "C=1000" in page.url
    assert page.evaluate(f"() => document.querySelector({ROOT!r}).dataset.ready === window.__record")
    assert_no_exception(page)


def test_where_c_is_not_live_the_charts_penalty_c_control_sets_it(page: Page, app_server: str) -> None:
    """An RBF kernel on more points than its C path is solved for: the record holds one C, the chart draws a Penalty C
    control above it, and a move asks the server for that C's solution (the link takes it)."""
    page.goto(app_server.rstrip("/") + "/svm?ds=blobs&n_blobs=500&kernel=RBF")
    wait_for_rerun(page)
    before = shown(page)
    assert 500 > PATH_KERNEL_MAX_N and not before["live"] and before["C"] == 1.0
    slider = chart_control(page, "Penalty C")
    assert slider.get_attribute("aria-valuetext") == "1"
    slider.focus()
    for _ in range(4):  # four steps of 10^¼: C from 1 to 10
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => dbl(document.querySelector({ROOT!r})).view.plot.layout.meta.C === 10",
                           timeout=30_000)
    wait_for_rerun(page)
    assert "C=10" in page.url and shown(page)["support"] != before["support"]
    assert slider.get_attribute("aria-valuetext") == "10"
    assert_no_exception(page)


def test_hard_margin_on_xor_shows_the_message(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=xor")
    wait_for_rerun(page)
    shown(page)
    page.get_by_test_id("stCheckbox").filter(has_text="Hard margin").click()
    expect(page.get_by_text("needs linearly separable data")).to_be_visible()
    assert shown(page)["live"]  # the last good chart stays
    assert_no_exception(page)


def test_hovering_a_point_says_where_it_lies(page: Page, app_server: str) -> None:
    page.goto(app_server.rstrip("/") + "/svm?ds=textbook")
    wait_for_rerun(page)
    shown(page)
    box = page.evaluate(f"""() => {{ const v = dbl(document.querySelector({ROOT!r})).view, fl = v.plot._fullLayout;
        const r = v.plot.getBoundingClientRect();
        return [r.left + fl.xaxis._offset + fl.xaxis.l2p(v.m.X[0]), r.top + fl.yaxis._offset + fl.yaxis.l2p(v.m.X[1])]; }}""")
    page.mouse.move(box[0], box[1])
    tip = page.locator(f"{ROOT} .dbls-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("x₁ = (3, 3), y = +1")
    expect(tip).to_contain_text("y·f(x) = ")


def test_a_chart_move_while_the_page_takes_the_last_is_kept(page: Page, app_server: str) -> None:
    """The chart reports its C once at rest; a move made while the page is taking it is not undone by the page's
    rerun, and is itself reported: the chart and the link end at the last C the chart showed."""
    page.goto(app_server.rstrip("/") + "/svm?ds=blobs")
    wait_for_rerun(page)
    shown(page)
    rng = page.locator(f"{ROOT} .dbls-range")
    rng.scroll_into_view_if_needed()
    rng.focus()
    page.keyboard.press("End")  # C = 1000 on the chart: reported 0.6 s later
    page.wait_for_timeout(640)
    page.keyboard.press("Home")  # C = 0.001, while the page takes 1000
    page.wait_for_function(f"() => document.querySelector({ROOT!r}).dataset.c === '0.001'")
    page.wait_for_function("() => window.location.search.includes('C=0.001')", timeout=10_000)
    wait_for_rerun(page)
    page.wait_for_timeout(900)
    assert shown(page)["c"] == "0.001" and "C=0.001" in page.url
    assert_no_exception(page)
