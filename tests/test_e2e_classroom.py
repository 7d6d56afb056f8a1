"""The classroom features in a real Chromium: presentation mode and its link, exports, the keyboard, the quiz."""

from __future__ import annotations

import io

import pytest
from e2e_helpers import (
    assert_no_exception,
    chart_control,
    scene_button,
    settled_value,
    wait_for_chart,
    wait_for_rerun,
    wait_for_scene,
    wait_for_step,
    with_state_of,
)
from PIL import Image
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from core.perceptron import run_perceptron
from datasets import make_dataset

GD = "document.querySelector('.st-key-perceptron_chart .js-plotly-plot')"


def _open(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_rerun(page)
    wait_for_chart(page)


def _settle(page: Page) -> None:
    page.wait_for_timeout(300)  # the rerun an action starts may not have begun yet
    wait_for_rerun(page)


def _slider_step(page: Page) -> int:
    """The step the Perceptron chart shows (the scene renderer writes it on its root)."""
    return page.evaluate("() => Number(document.querySelector('.st-key-perceptron_chart .dbls').dataset.step)")


def _steps(page: Page) -> list[str]:
    """The step each chart drawn on the page shows."""
    return page.evaluate("() => [...document.querySelectorAll('.dbls[data-ready]')].map((r) => r.dataset.step)")


def _press_until(page: Page, key: str, js: str) -> None:
    """Press ``key`` until ``js`` holds (a press can land while the chart is still being drawn: then once more)."""
    for attempt in range(3):
        page.keyboard.press(key)
        try:
            page.wait_for_function(f"() => {js}", timeout=5_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                raise


def test_presentation_mode_hides_the_chosen_parts_and_survives_the_link(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?present=true&hide=sidebar,settings")
    assert_no_exception(page)
    expect(page.get_by_test_id("stSidebar")).to_be_hidden()  # (once the page's style is in: a moment after its chart)
    assert not page.get_by_text("Step size τ").is_visible()  # the page settings
    assert page.get_by_text("Every step as a table").is_visible()  # tables were not chosen: still shown
    big = page.evaluate(f"() => {GD}._fullLayout.font.size")
    assert big > 16, f"the chart's font should be enlarged, is {big}"
    shared = page.url
    assert "present=true" in shared and "hide=sidebar%2Csettings" in shared.replace(",", "%2C")

    p2 = page.context.new_page()  # a student opening the shared link: a session of its own, nothing but the link
    try:
        _open(p2, shared)
        expect(p2.get_by_test_id("stSidebar")).to_be_hidden()
        assert not p2.get_by_text("Step size τ").is_visible()
        assert p2.evaluate(f"() => {GD}._fullLayout.font.size") == big
    finally:
        p2.close()

    page.get_by_role("button", name="Leave presentation mode").click()
    _settle(page)
    assert page.get_by_test_id("stSidebar").is_visible()
    assert page.get_by_text("Step size τ").is_visible()
    wait_for_chart(page)
    assert page.evaluate(f"() => {GD}._fullLayout.font.size") == 16


def test_the_switch_in_the_sidebar_writes_the_link(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron")
    assert page.get_by_text("Every step as a table").is_visible()
    page.get_by_test_id("stSidebar").get_by_text("Presentation mode").click()
    _settle(page)
    assert "present=true" in page.url
    assert not page.get_by_test_id("stSidebar").is_visible()  # the default hides the sidebar and the tables
    assert not page.get_by_text("Every step as a table").is_visible()


@pytest.mark.parametrize("path", ["perceptron?ds=textbook", "dual?ds=XOR&n_xor=40", "compare?ds=XOR&n_xor=40",
                                  "svm?ds=XOR&n_xor=40"])
def test_presentation_mode_turned_on_and_off_keeps_the_step_shown(page: Page, app_server: str, path: str) -> None:
    """The page draws its chart in a new element when presentation mode moves it: the new one opens at the step the
    old one stood at (the SVM's: its C), not at step 0, even when the page was not told of it yet (the SVM chart
    tells its C once it has rested 0.6 s: the switch is turned at once)."""
    _open(page, f"{app_server}/{path}")
    wait_for_scene(page)
    s0 = int(_steps(page)[0])
    for i in (1, 2, 3):
        scene_button(page, "next")
        wait_for_step(page, s0 + i)
    for turn in (page.get_by_test_id("stSidebar").get_by_text("Presentation mode"),
                 page.get_by_role("button", name="Leave presentation mode")):
        page.evaluate("() => { for (const r of document.querySelectorAll('.dbls')) r.__dblOld = true; }")
        turn.click()
        _settle(page)
        # a chart drawn anew, in a new element (not the old one kept), and it alone on the page
        page.wait_for_function("() => { const rs = [...document.querySelectorAll('.dbls[data-ready]')]; "
                               "return rs.length === 1 && !rs[0].__dblOld; }")
        page.wait_for_timeout(300)  # (a chart drawn at step 0 would show it by now)
        assert _steps(page) == [str(s0 + 3)]
    assert "present=true" not in page.url
    assert_no_exception(page)


def test_presentation_mode_turned_on_or_off_shows_the_chart(page: Page, app_server: str) -> None:
    """The page keeps its scroll when presentation mode moves the chart (to the top, and back under the settings): the
    lecturer who scrolled to the chart and turned the mode on sees the chart, not the settings that now stand there;
    and off, the chart again. A page left and come back to opens at its top, as it did."""
    page.set_viewport_size({"width": 1024, "height": 768})
    _open(page, f"{app_server}/perceptron?ds=XOR&n_xor=40")
    wait_for_scene(page)
    page.evaluate("() => document.querySelector('.st-key-perceptron_chart .dbls').scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)
    top = "() => { const r = [...document.querySelectorAll('.dbls[data-ready]')].filter((e) => !e.__dblOld); " \
          "return r.length === 1 ? r[0].getBoundingClientRect().top : null; }"
    assert page.evaluate(top) < 100  # scrolled down to the chart
    for turn in (page.get_by_test_id("stSidebar").get_by_text("Presentation mode"),
                 page.get_by_role("button", name="Leave presentation mode")):
        page.evaluate("() => { for (const r of document.querySelectorAll('.dbls')) r.__dblOld = true; }")
        turn.click()
        _settle(page)
        page.wait_for_function(f"() => ({top})() !== null")
        page.wait_for_timeout(300)
        at = page.evaluate(top)
        assert 0 <= at < 768 / 2, at  # the new chart in the window's upper half
    # another page and back: the chart drawn anew, at the same scale, is not scrolled to (the page opens at its top)
    page.get_by_test_id("stSidebar").get_by_text("Dual / Gram").click()
    _settle(page)
    page.wait_for_selector(".st-key-dual_chart .dbls[data-ready]")  # (Dual's own chart, not the one it replaces)
    page.evaluate("() => { for (const r of document.querySelectorAll('.dbls')) r.__dblOld = true; }")
    page.get_by_test_id("stSidebar").get_by_text("Perceptron", exact=True).click()
    _settle(page)
    page.wait_for_selector(".st-key-perceptron_chart .dbls[data-ready]")
    page.wait_for_function(f"() => ({top})() !== null")
    page.wait_for_timeout(300)
    assert page.evaluate(top) > 768 / 2  # under the title and the settings, as the page opens


def test_the_keyboard_steps_the_chart_and_the_svg_is_named_after_the_step(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?ds=textbook")
    assert _slider_step(page) == 0
    page.get_by_role("button", name="PNG", exact=True).wait_for()  # the tools (and their keys) are in place
    page.get_by_role("heading", name="Perceptron").first.click()  # focus the page, not a field
    step = "document.querySelector('.st-key-perceptron_chart .dbls').dataset.step"
    for i in (1, 2, 3):
        _press_until(page, "ArrowRight", f"{step} === '{i}'")
    assert _slider_step(page) == 3
    _press_until(page, "ArrowLeft", f"{step} === '2'")
    _press_until(page, "ArrowRight", f"{step} === '3'")
    # the screen-reader line says the step shown
    expect(page.locator(".dbls-live")).to_contain_text("Step 3 of 15: After 2 updates: w = (")
    with page.expect_download() as dl:
        page.get_by_role("button", name="SVG", exact=True).click()
    svg = dl.value
    assert svg.suggested_filename == "perceptron-cyclic-tau1-3pts-step3.svg"
    text = open(svg.path(), encoding="utf-8").read()
    assert text.lstrip().startswith("<svg") and "Step 3" in text and "After 2 updates" in text
    with page.expect_download() as dl:
        page.get_by_role("button", name="PNG", exact=True).click()
    assert dl.value.suggested_filename == "perceptron-cyclic-tau1-3pts-step3.png"
    assert open(dl.value.path(), "rb").read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_gif_has_one_frame_per_step_shown(page: Page, app_server: str) -> None:
    _open(page, f"{app_server}/perceptron?ds=textbook")
    with page.expect_download(timeout=60_000) as dl:
        page.get_by_role("button", name="Animation (GIF)").click()
    img = Image.open(io.BytesIO(open(dl.value.path(), "rb").read()))
    X, y = make_dataset("textbook", 3, 0)
    steps = run_perceptron(X, y, max_steps=1000).n_steps
    assert img.format == "GIF" and img.n_frames == steps + 1  # every step of a short run, step 0 included


def test_the_html_export_opens_offline_and_plays(page: Page, app_server: str, browser: Browser, tmp_path) -> None:
    _open(page, f"{app_server}/perceptron?ds=separable")
    with page.expect_download(timeout=60_000) as dl:
        page.get_by_role("button", name="Animation (HTML, plays offline)").click()
    path = tmp_path / "run.html"
    dl.value.save_as(path)
    offline = with_state_of(browser.new_context(offline=True))
    try:
        p2 = offline.new_page()
        asked: list[str] = []
        p2.on("request", lambda r: asked.append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None)
        p2.goto(path.as_uri())
        p2.wait_for_selector(".dbls[data-ready] .js-plotly-plot", state="attached")  # the app's own renderer
        step = "Number(document.querySelector('.dbls').dataset.step)"
        assert p2.evaluate(f"() => {step}") == 0
        p2.locator(".dbls button[data-go=fast]").click()
        p2.wait_for_function(f"() => {step} >= 3", timeout=15_000)
        p2.keyboard.press("Home")
        p2.wait_for_function(f"() => {step} === 0")
        assert asked == [], f"the page asked the network for {asked}"
    finally:
        offline.close()


def _click_point(page: Page, key: str, x: float, y: float) -> None:
    loc = page.locator(f".st-key-{key} .js-plotly-plot .main-svg").first
    loc.scroll_into_view_if_needed()
    sx, sy = page.evaluate(f"""([x, y]) => {{
        const gd = document.querySelector('.st-key-{key} .js-plotly-plot'), fl = gd._fullLayout;
        const r = gd.querySelector('.main-svg').getBoundingClientRect();
        return [r.left + fl.xaxis._offset + fl.xaxis.d2p(x), r.top + fl.yaxis._offset + fl.yaxis.d2p(y)]; }}""",
                           [x, y])
    page.mouse.click(sx, sy)


def test_the_quiz_scores_a_right_and_a_wrong_answer(page: Page, app_server: str) -> None:
    X, y = make_dataset("textbook", 3, 0)
    traj = run_perceptron(X, y, max_steps=1000)
    _open(page, f"{app_server}/perceptron?ds=textbook&quiz=true")
    assert page.get_by_text("Score: 0 of 0 right").is_visible()
    page.wait_for_selector(".st-key-quiz_chart .dbls[data-ready][data-step='0']", state="attached")  # the record drawn
    # question 1: what step 1 updates on, clicked on the chart
    upd = traj.updated(1)
    right = int(upd[0]) if upd.size else None
    if right is None:
        page.get_by_role("button", name="No update").click()
    else:
        _click_point(page, "quiz_chart", *X[right])
    _settle(page)
    page.get_by_text("Score: 1 of 1 right").wait_for()
    assert page.get_by_test_id("stAlertContentSuccess").first.is_visible()
    page.get_by_role("button", name="Next question").click()
    _settle(page)
    page.wait_for_selector(".st-key-quiz_chart .dbls[data-ready][data-step='1']", state="attached")
    # question 2: the opposite of what step 2 does
    if traj.updated(2).size:
        page.get_by_role("button", name="No update").click()
    else:
        _click_point(page, "quiz_chart", *X[int(traj.examined(2)[0])])
    _settle(page)
    page.get_by_text("Score: 1 of 2 right").wait_for()
    assert "Not quite" in page.get_by_test_id("stAlertContentError").first.inner_text() or \
        "No update is wrong" in page.get_by_test_id("stAlertContentError").first.inner_text()
    assert_no_exception(page)


def test_compare_steps_both_runs_with_one_slider(fresh_page: Page, app_server: str) -> None:
    page = fresh_page  # (it listens to the page's events)
    sent = []  # what the browser sends the server (listened to before the page opens its websocket)
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f)))
    _open(page, f"{app_server}/compare?ds=separable&cmp=order")
    assert_no_exception(page)
    root = ".st-key-compare_chart .dbls"
    page.wait_for_function(f"() => document.querySelector('{root}')?.dataset.ready")
    states = f"() => [...document.querySelectorAll('{root} .dbls-cmp-state')].map(e => e.textContent)"
    assert all(s.startswith("Step 0 of") for s in page.evaluate(states))
    page.wait_for_timeout(500)
    assert sent  # the listener hears the page
    before = len(sent)
    nxt = page.locator(f"{root} [data-go=next]")
    for _ in range(3):
        nxt.click()
    page.wait_for_function(f"() => document.querySelector('{root}').dataset.step === '3'")
    left, right = page.evaluate(states)
    assert left.startswith("Step 3 of") and right.startswith("Step 3 of"), (left, right)
    live = page.locator(f"{root} .dbls-live")
    expect(live).to_contain_text("Step 3 of")  # both panels' lines, for a screen reader
    assert live.text_content().count("Step 3 of") == 3  # the common step, then each panel's
    page.get_by_role("button", name="PNG", exact=True).wait_for()
    page.get_by_role("heading", name="Compare two runs").click()
    # the last step: the shorter run holds its last state and says so
    _press_until(page, "End", f"document.querySelector('{root}').dataset.step === document.querySelector('{root} .dbls-range').max")
    left, right = page.evaluate(states)
    s_left, s_right = page.evaluate(f"() => [...document.querySelectorAll('{root} .dbls-plot')].map(gd => gd.layout.meta.n_steps)")
    assert s_left != s_right  # cyclic and random order on these points end at different steps
    assert (left if s_left < s_right else right).startswith(f"finished at step {min(s_left, s_right)}")
    page.wait_for_timeout(300)
    assert len(sent) == before  # stepping, End included, sent nothing to the server


def test_compare_follows_tau_right_in_the_browser_and_its_csv_holds_the_runs_shown(page: Page, app_server: str) -> None:
    """τ right moves the right panel with no new record; the page's CSV then holds the two runs the panels show."""
    from core.perceptron import run_perceptron as run
    from datasets.csvio import paired_runs_csv

    _open(page, f"{app_server}/compare?ds=separable&cmp=tau&tau_a=0.1&tau_b=1.0")
    root = ".st-key-compare_chart .dbls"
    page.wait_for_function(f"() => document.querySelector('{root}')?.dataset.ready")
    ready = page.evaluate(f"() => document.querySelector('{root}').dataset.ready")
    slider = chart_control(page, "τ right")
    slider.focus()
    page.keyboard.press("ArrowRight")  # 1.0 → 2.0
    page.wait_for_function(f"() => dbl(document.querySelector('{root}')).view.m.panels[1].run.tau === 2")
    _settle(page)
    assert page.evaluate(f"() => document.querySelector('{root}').dataset.ready") == ready  # the same record
    assert page.evaluate(f"() => dbl(document.querySelector('{root}')).view.m.panels[0].run.tau") == 0.1
    with page.expect_download(timeout=60_000) as dl:
        page.get_by_role("button", name="Both runs (CSV)").click()
    X, y = make_dataset("separable", 40, 0)
    runs = [run(X, y, variant="cyclic", tau=t, seed=0, max_steps=1000) for t in (0.1, 2.0)]
    assert open(dl.value.path(), encoding="utf-8").read() == paired_runs_csv(*runs)
    assert_no_exception(page)


def test_a_chart_redrawn_after_the_page_scrolled_keeps_its_presentation_size(page: Page, app_server: str) -> None:
    """Streamlit scrolls its main column in a box of its own: a control below the chart scrolls it, and the chart
    drawn again after that control's rerun must be sized from the page's top, not from where the box stands."""
    page.set_viewport_size({"width": 1280, "height": 720})
    _open(page, f"{app_server}/compare?ds=XOR&n_xor=300&cmp=order&cmp_steps=5000&present=true")
    root = ".st-key-compare_chart .dbls"
    page.wait_for_function(f"() => document.querySelector('{root}')?.dataset.ready")
    size = f"() => dbl(document.querySelector('{root}')).view.sz.H"
    _settle(page)
    before = settled_value(page, size)  # (the chart fits itself to what it drew under the panels once drawn)
    ready = page.evaluate(f"() => document.querySelector('{root}').dataset.ready")
    slider = chart_control(page, "Step size τ (both)")
    slider.focus()  # scrolls the page down to it
    page.keyboard.press("ArrowLeft")  # past the family's budget: a new record, drawn again
    page.wait_for_function(f"(r) => document.querySelector('{root}').dataset.ready !== r", arg=ready)
    _settle(page)
    assert settled_value(page, size) == before


SHIFT = """(px) => {  // a block of px above everything on the page (0: none), as a spinner or a message would stand there
    const main = document.querySelector('[data-testid=stMainBlockContainer]');
    let el = document.getElementById('dbl-test-above');
    if (!el) { el = document.createElement('div'); el.id = 'dbl-test-above'; main.insertBefore(el, main.firstChild); }
    el.style.height = px + 'px';
}"""


@pytest.mark.parametrize(("path", "root", "size"), [
    ("compare?ds=XOR&n_xor=300", ".st-key-compare_chart .dbls", "v.sz.H"),
    ("perceptron?ds=XOR&n_xor=300", ".st-key-perceptron_chart .dbls", "v.sz.mainH"),
    ("svm?ds=XOR&n_xor=300", ".st-key-svm_chart .dbls", "v.sz.main"),
    ("dual?ds=XOR&n_xor=100", ".st-key-dual_chart .dbls", "v.sz.main"),
    ("losses?ds=XOR&n_xor=300", ".st-key-loss_chart .dbls", "v.sz.H"),
])
def test_a_presentation_chart_fits_again_when_what_stands_above_it_changes_height(
        page: Page, app_server: str, path: str, root: str, size: str) -> None:
    """Presentation mode sizes the chart to the window below its top. What stands above it may change height once it
    is drawn (a spinner or the last run's message going, a font loading): the chart then fits the room it has now,
    smaller while the block above stands and back to its size once it goes, with the page not rerun."""
    page.set_viewport_size({"width": 1280, "height": 720})
    _open(page, f"{app_server}/{path}&present=true")
    page.wait_for_function(f"() => document.querySelector('{root}')?.dataset.ready")
    _settle(page)
    read = f"() => {{ const v = dbl(document.querySelector('{root}')).view; return {size}; }}"
    before = settled_value(page, read)
    page.evaluate(SHIFT, 80)
    shrunk = settled_value(page, read)
    assert shrunk < before - 40, (before, shrunk)
    page.evaluate(SHIFT, 0)
    assert abs(settled_value(page, read) - before) <= 2  # (the views take a change of 2 px or less for none)


READIES = """() => {  // each record the charts draw, as it is drawn: whether it was partial, and its runs
    window.__readies = [];
    new MutationObserver((records) => {
        for (const r of records) {
            const v = dbl(r.target).view;
            if (r.attributeName === "data-ready" && r.target.dataset.ready && v)
                window.__readies.push({partial: Boolean(v.m.h.partial), runs: v.m.h.runs.length});
        }
    }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"]});
}"""


def _step_then_move(page: Page, root: str, label: str) -> str:
    """Once the page has settled: Next ▶ on the chart at ``root``, then the page's slider ``label`` one notch up with
    the page's messages to the server held (``HOLD_SENDS``: ``window.__dblRelease()`` sends them). Returns the record
    the chart had drawn."""
    from test_e2e_perceptron import HOLD_SENDS

    _settle(page)
    ready = page.evaluate(f"() => document.querySelector('{root}').dataset.ready")
    page.locator(f"{root} [data-go=next]").click()
    page.wait_for_function(f"() => document.querySelector('{root}').dataset.step === '1'")
    page.evaluate(HOLD_SENDS)
    slider = chart_control(page, label)
    slider.focus()
    page.keyboard.press("ArrowRight")
    return ready


SGD_ONLY = "const v = r.target.closest('.st-key-sgd_chart') && dbl(r.target).view"  # (READIES: the SGD chart's alone)


def test_the_sgd_tab_follows_eta_in_the_browser_after_the_run_of_the_eta_shown(fresh_page: Page, app_server: str) -> None:
    """The SVM page's hinge-SGD tab, constant η: the chart first draws the run of the η shown (a partial record), then
    asks for every η's and takes them in place with no action of the user. η then moves the run in the browser, at
    the same step, with the server not told; the server's rerun sends no new record, and the summary follows."""
    page = fresh_page  # (it listens to the page's events)
    from urllib.parse import quote

    from core.svm import fit_svm, hinge_sgd
    from glue.options import TAUS
    from viz.svm import sgd_summary

    page.add_init_script(f"({READIES.replace('const v = dbl(r.target).view', SGD_ONLY)})()")
    _open(page, f"{app_server}/svm?ds=separable&data_seed=33&schedule={quote('constant η')}&sgd_steps=1000"
                f"&sgd_eta=0.5")
    page.get_by_role("tab", name="Hinge-loss SGD").click()
    root = ".st-key-sgd_chart .dbls"
    view = f"dbl(document.querySelector('{root}')).view"
    page.wait_for_function(f"() => {view} && !{view}.m.h.partial && {view}.m.h.runs.length === {len(TAUS)}",
                           timeout=60_000)
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__readies") == [{"partial": True, "runs": 1},  # drawn once each
                                                       {"partial": False, "runs": len(TAUS)}]
    assert page.evaluate(f"() => {view}.m.run.eta") == 0.5
    ready = _step_then_move(page, root, "Constant η")  # 0.5 → 1
    page.wait_for_function(f"() => {view}.m.run.eta === 1", timeout=5_000)  # drawn with the server not told
    X, y = make_dataset("separable", 40, 33)
    run = hinge_sgd(X, y, C=1.0, schedule="constant", eta=1.0, max_steps=1000, seed=0)
    assert page.evaluate(f"() => {view}.step") == 1
    assert page.evaluate(f"() => Array.from({view}.m.p.B)") == run.B.tolist()
    page.wait_for_function("() => window.__dblHeld() >= 1")  # the move reported once at rest (viz/js/tune.js)
    assert page.evaluate("() => window.__dblRelease()") >= 1  # the move was still to be sent
    _settle(page)
    assert page.evaluate(f"() => document.querySelector('{root}').dataset.ready") == ready  # no new record
    assert "sgd_eta=1.0" in page.url
    expect(page.get_by_text(sgd_summary(run, fit_svm(X, y, C=1.0))[:60])).to_be_visible()
    assert_no_exception(page)


def test_compare_follows_c_in_the_browser_after_the_runs_of_the_c_shown(fresh_page: Page, app_server: str) -> None:
    """Perceptron against hinge SGD: the chart first draws the runs of the C shown (a partial record), then asks for
    every C's and takes them in place with no action of the user. C then moves the right panel and its exact SVM in
    the browser, with the server not told; the server's rerun sends no new record; the CSV holds the runs shown."""
    page = fresh_page  # (it listens to the page's events)

    from core.svm import C_GRID, fit_svm, hinge_sgd
    from datasets.csvio import paired_runs_csv

    page.add_init_script(f"({READIES})()")
    _open(page, f"{app_server}/compare?ds=separable&data_seed=31&cmp=svm&C=1.0")  # points no other test has run
    root = ".st-key-compare_chart .dbls"
    view = f"dbl(document.querySelector('{root}')).view"
    page.wait_for_function(f"() => {view} && !{view}.m.h.partial && {view}.m.h.runs.length === {1 + len(C_GRID)}")
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__readies") == [{"partial": True, "runs": 2},  # drawn once each
                                                       {"partial": False, "runs": 1 + len(C_GRID)}]
    ready = _step_then_move(page, root, "SVM penalty C")  # 1 → 1.778
    C = C_GRID[C_GRID.index(1.0) + 1]
    page.wait_for_function(f"(c) => {view}.m.panels[1].run.C === c", arg=C)  # drawn with the server not told
    assert page.evaluate(f"() => {view}.step") == 1
    X, y = make_dataset("separable", 40, 31)
    sol = fit_svm(X, y, C=C)
    assert page.evaluate(f"() => {view}.m.refs[1]") == {"w": sol.w.tolist(), "b": sol.b, "C": C}
    assert f"exact SVM (C = {C:g})" in page.locator(f"{root} .dbls-legend").text_content()
    page.wait_for_function("() => window.__dblHeld() >= 1")  # the move reported once at rest (viz/js/tune.js)
    assert page.evaluate("() => window.__dblRelease()") >= 1  # the move was still to be sent
    _settle(page)
    assert page.evaluate(f"() => document.querySelector('{root}').dataset.ready") == ready  # no new record
    assert "C=1.778" in page.url
    with page.expect_download(timeout=60_000) as dl:
        page.get_by_role("button", name="Both runs (CSV)").click()
    runs = (run_perceptron(X, y, variant="random", seed=0, max_steps=1000), hinge_sgd(X, y, C=C, seed=0, max_steps=1000))
    assert open(dl.value.path(), encoding="utf-8").read() == paired_runs_csv(*runs)
    assert_no_exception(page)
