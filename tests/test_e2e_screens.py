"""The lecture hall's screens in a real Chromium: a 1024×768 projector with the sidebar open, and presentation mode
at 1024×768 and 1280×720 (issue 16's "Fits the lecture hall's screen")."""

from __future__ import annotations

import contextlib
import re

import pytest
from e2e_helpers import SCENE, assert_no_exception, chart_control, wait_for_chart, wait_for_rerun, wait_for_words_held
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

BOX = "(sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect();" \
      " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}; }"


def _open(page: Page, url: str, width: int, height: int, scene: bool) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    wait_for_rerun(page)
    if scene:
        page.wait_for_selector(SCENE, state="attached")
        page.wait_for_timeout(400)  # the renderer's layout settles after the fonts
    else:
        wait_for_chart(page)
    assert_no_exception(page)


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
@pytest.mark.parametrize("ds", ["xor", "moons"])
def test_presentation_mode_fits_the_perceptron_chart_and_its_controls_on_the_first_screen(
        page: Page, app_server: str, size: tuple[int, int], ds: str) -> None:
    """The chart and its controls on the first screen, and the controls standing still as a student steps (the
    words beside the panel run from two lines to six: on moons at 1024×768 Next moved by up to 71 px)."""
    w, h = size
    _open(page, app_server.rstrip("/") + f"/perceptron?ds={ds}&present=true&step=7", w, h, scene=True)
    root = page.evaluate(BOX, ".dbls")
    stage = page.evaluate(BOX, ".dbls-stage")
    controls = page.evaluate(BOX, ".dbls-controls")
    text = page.evaluate(BOX, ".dbls-text")
    assert page.evaluate("() => document.querySelector('.dbls').classList.contains('dbls-side')")  # the slide layout
    assert 0 <= root["top"] and controls["bottom"] <= h, (root, controls)  # nothing to scroll for
    assert stage["width"] >= 280 and stage["height"] >= 280, stage
    assert text["left"] >= stage["right"]  # the step's words beside the panel, not over it
    assert "Step 7" in page.inner_text(".dbls-text")
    nxt = page.evaluate(BOX, ".dbls-controls [data-go=next]")
    page.locator(".dbls-range").focus()
    for key in ("Home", "ArrowRight", "ArrowRight", "ArrowRight", "End"):
        at = page.inner_text(".dbls-at")
        page.keyboard.press(key)
        expect(page.locator(".dbls-at")).not_to_have_text(at)  # (each key moves the step: from 7 to 0, 1, 2, 3, the last)
        now = page.evaluate(BOX, ".dbls-controls [data-go=next]")
        assert abs(now["top"] - nxt["top"]) <= 1 and now["bottom"] <= h, (key, nxt, now)


@pytest.mark.parametrize("size, variant", [((1024, 768), ""), ((1280, 720), ""), ((1024, 768), "&variant=mini-batch"),
                                           ((1280, 720), "&variant=mini-batch")])
def test_presentation_mode_fits_the_quiz_and_its_answer_on_the_first_screen(page: Page, app_server: str,
                                                                           size: tuple[int, int], variant: str) -> None:
    """The quiz has no step controls or strip: its panel takes that room (it was 300 px tall and 590 wide at
    1024×768), keeps its size once answered, and the answer's words (a mini-batch's a line longer; seven lines beside
    the panel at 1280×720, where the state line stood under the window), the legend and the state line stay on screen."""
    w, h = size
    _open(page, app_server.rstrip("/") + f"/perceptron?ds=xor&present=true&quiz=true{variant}", w, h, scene=True)
    asked = page.evaluate(BOX, ".dbls-plot")
    legend, state = page.evaluate(BOX, ".dbls-legend"), page.evaluate(BOX, ".dbls-state")
    assert asked["height"] >= 320, asked  # (300 before, at 1024×768)
    assert page.evaluate(BOX, ".dbls-state")["bottom"] <= h
    ready = page.evaluate("() => document.querySelector('.dbls').dataset.ready")
    page.get_by_role("button", name="No update").click()
    page.wait_for_function("(b) => document.querySelector('.dbls').dataset.ready !== b", arg=ready)
    wait_for_rerun(page)
    page.wait_for_timeout(400)
    assert "Step 1" in page.inner_text(".dbls-text")  # answered: the step's words
    answered = page.evaluate(BOX, ".dbls-plot")
    assert abs(answered["height"] - asked["height"]) <= 1 and abs(answered["width"] - asked["width"]) <= 1
    assert abs(answered["top"] - asked["top"]) <= 1  # (the words over it held from the start: it went 124–159 px down)
    if w == 1280:  # (beside the panel: the legend and the state line held where the answer puts them)
        for sel, before in ((".dbls-legend", legend), (".dbls-state", state)):
            assert abs(page.evaluate(BOX, sel)["top"] - before["top"]) <= 1, sel
    assert page.evaluate(BOX, ".dbls-state")["bottom"] <= h + 1
    assert page.evaluate("() => document.querySelector('[data-testid=stMain]').scrollTop") == 0  # (Streamlit's scroller)
    # the next questions (other steps of the run, their words of other lengths) keep the panel, the legend and the
    # state line where the first put them (the run's tallest words held: at 1280×720 they moved by up to 62 px)
    for k in (2, 3):
        for name in (f"Next question (step {k})", "No update"):
            ready = page.evaluate("() => document.querySelector('.dbls').dataset.ready")
            page.get_by_role("button", name=name).click()
            page.wait_for_function("(b) => document.querySelector('.dbls').dataset.ready !== b", arg=ready)
            wait_for_rerun(page)
            page.wait_for_timeout(400)
            now = page.evaluate(BOX, ".dbls-plot")
            assert all(abs(now[e] - asked[e]) <= 1 for e in ("top", "width", "height")), (name, asked, now)
            for sel, before in ((".dbls-legend", legend), (".dbls-state", state)):
                assert abs(page.evaluate(BOX, sel)["top"] - before["top"]) <= 1, (name, sel)


def test_at_1024_with_the_sidebar_answering_the_quiz_moves_nothing(page: Page, app_server: str) -> None:
    """The normal page: the question and its button over the chart, the verdict under it. The verdict over the chart
    pushed the chart 102 px down when a question was answered, and up again at the next question."""
    _open(page, app_server.rstrip("/") + "/perceptron?ds=xor&quiz=true", 1024, 768, scene=True)
    top = ("() => { const s = document.querySelector('[data-testid=stMain]');"
           " return Math.round(document.querySelector('.dbls-plot').getBoundingClientRect().top + s.scrollTop); }")
    asked = page.evaluate(top)
    for name in ("No update", "Next question (step 2)", "No update"):
        ready = page.evaluate("() => document.querySelector('.dbls').dataset.ready")
        page.get_by_role("button", name=name).click()
        page.wait_for_function("(b) => document.querySelector('.dbls').dataset.ready !== b", arg=ready)
        wait_for_rerun(page)
        page.wait_for_timeout(300)
        assert page.evaluate(top) == asked, name
        if name == "No update":  # the verdict, under the chart
            alert = page.locator("[data-testid=stAlert]").filter(has_text="No update is").first
            assert alert.bounding_box()["y"] > page.evaluate(BOX, ".dbls-plot")["bottom"]
    assert_no_exception(page)


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_presentation_mode_never_stands_a_legend_taller_than_its_surface_beside_it(page: Page, app_server: str,
                                                                                     size: tuple[int, int]) -> None:
    """A long legend (a lit point's line too) and a short window: a legend beside the surface that is the taller would
    push the b controls out of the window, so it then goes under the surface; either way the controls stay on the
    screen."""
    w, h = size
    _open(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge&lit=3&present=true", w, h, scene=True)
    wait_for_rerun(page)
    page.wait_for_timeout(500)
    legend = page.evaluate(BOX, ".st-key-loss_chart .dbls-legend")
    if page.evaluate("() => dbl(document.querySelector('.st-key-loss_chart .dbls')).view.sz.side"):
        assert legend["bottom"] <= page.evaluate(BOX, ".st-key-loss_chart .dbls-loss")["bottom"] + 0.5
    else:
        assert legend["top"] >= page.evaluate(BOX, ".st-key-loss_chart .dbls-plot")["bottom"]
    assert page.evaluate(BOX, ".st-key-loss_chart .dbls-controls")["bottom"] <= h


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_presentation_mode_fits_the_loss_chart_on_the_first_screen(page: Page, app_server: str,
                                                                    size: tuple[int, int]) -> None:
    w, h = size
    _open(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=all&present=true", w, h, scene=True)
    plots = page.evaluate("() => [...document.querySelectorAll('.st-key-loss_chart .dbls-plot')].map(e => {"
                          " const r = e.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom]; })")
    assert len(plots) == 3 and all(abs(p[2] - plots[0][2]) < 1 for p in plots)  # three panels side by side
    assert all(p[1] <= q[0] for p, q in zip(plots, plots[1:], strict=False))
    assert min(p[3] - p[2] for p in plots) >= 200
    assert page.evaluate(BOX, ".st-key-loss_chart .dbls-controls")["bottom"] <= h  # b's controls on the first screen


@pytest.mark.parametrize(("size", "query"), [((1024, 768), "ds=xor&kernel=rbf&step=5"), ((1024, 768), "ds=blobs&step=1"),
                                             ((1280, 720), "ds=xor&kernel=rbf&step=5"), ((1280, 720), "ds=blobs&step=1"),
                                             ((1920, 1080), "ds=blobs&step=1")])
def test_presentation_mode_fits_the_dual_chart_and_its_controls_on_the_first_screen(
        page: Page, app_server: str, size: tuple[int, int], query: str) -> None:
    """Every step of the run, its longest words included (the last step's seven lines, blobs at 1280×720), stands
    with the controls on the first screen, and the controls stay where they are as a student steps. Under 800 px of
    height (or 1100 of width) the slide is the data panel beside the words, the Gram matrix and the legend under
    them; on a large screen three columns (the data, the Gram matrix, the words over the legend)."""
    w, h = size
    _open(page, app_server.rstrip("/") + f"/dual?{query}&present=true", w, h, scene=True)
    root = page.evaluate(BOX, ".dbls")
    data, gram, text, legend = (page.evaluate(BOX, sel) for sel in (".dbls-data", ".dbls-gram", ".dbls-text", ".dbls-legend"))
    controls, bars = page.evaluate(BOX, ".dbls-controls"), page.evaluate(BOX, ".dbls-strip")
    assert page.evaluate("() => document.querySelector('.dbls').classList.contains('dbls-dside')")  # the slide layout
    assert 0 <= root["top"] and controls["bottom"] <= h, (root, controls)  # nothing to scroll for
    if h < 800:  # the data panel beside the words; the Gram matrix under them, beside the legend
        assert data["width"] >= 0.45 * h and data["height"] >= 0.45 * h, data  # (at 275 px in three columns at 1024×768)
        assert data["right"] <= min(text["left"], gram["left"]) and gram["top"] >= text["bottom"] - 1, (data, text, gram)
        assert gram["right"] <= legend["left"] and legend["top"] >= text["bottom"] - 1, (gram, legend)
    else:
        assert data["width"] >= 0.5 * h, data
        assert data["right"] <= gram["left"] and gram["right"] <= text["left"]  # three columns, none over another
    assert gram["height"] >= 150 and bars["top"] >= max(data["bottom"], gram["bottom"], legend["bottom"]) - 1
    assert f"Step {query.rsplit('=', 1)[1]} " in page.inner_text(".dbls-text")
    assert data["width"] >= gram["width"] - 0.5, (data, gram)  # the data panel never the smaller
    page.locator(".dbls-range").focus()
    for key, at in (("End", r"Step ([\d,]+) of \1$"), ("Home", r"Step 0 of ")):  # the last step, the first
        page.keyboard.press(key)
        expect(page.locator(".dbls-at")).to_have_text(re.compile(at))
        now = page.evaluate(BOX, ".dbls-controls")
        assert abs(now["top"] - controls["top"]) <= 1 and now["bottom"] <= h, (key, controls, now)


@pytest.mark.parametrize("path", ["perceptron?ds=moons", "perceptron?ds=xor&variant=mini-batch", "dual?ds=xor&kernel=rbf"])
def test_at_1024_with_the_sidebar_the_controls_stand_still_as_a_student_steps(page: Page, app_server: str,
                                                                             path: str) -> None:
    """The step's words and state line keep the run's tallest height on the normal page too: Next stays under the
    pointer from one step to the next (it moved by 26 px on moons, by 56–57 px on a mini-batch's and the RBF Dual's
    words), and the panel above or beside the words with it."""
    _open(page, app_server.rstrip("/") + f"/{path}", 1024, 768, scene=True)
    wait_for_words_held(page)
    root = page.locator(SCENE).first
    offset = ("(r) => Math.round(r.querySelector('[data-go=next]').getBoundingClientRect().top"
              " - r.getBoundingClientRect().top)")
    plot = "(r) => Math.round(r.querySelector('.dbls-plot').getBoundingClientRect().top - r.getBoundingClientRect().top)"
    first, panel = root.evaluate(offset), root.evaluate(plot)
    texts = {page.inner_text(".dbls-text")}
    page.locator(".dbls-range").focus()
    for key in ["ArrowRight"] * 5 + ["End", "Home"] + ["ArrowRight"] * 3:
        at = page.inner_text(".dbls-at")
        page.keyboard.press(key)
        expect(page.locator(".dbls-at")).not_to_have_text(at)
        texts.add(page.inner_text(".dbls-text"))
        assert (root.evaluate(offset), root.evaluate(plot)) == (first, panel), key
    lines = {t.count("\n") for t in texts}
    assert len(lines) > 1, lines  # (the words did change length over these steps)
    assert_no_exception(page)


@pytest.mark.parametrize("path, label", [("perceptron?ds=textbook", "Step size τ"), ("dual?ds=xor", "Step η")])
def test_at_1024_with_the_sidebar_the_controls_stand_still_as_tau_or_eta_moves(page: Page, app_server: str, path: str,
                                                                              label: str) -> None:
    """Every run of the record (each τ, each η) counts in the words' held height once the browser has written them
    (in its idle time): moving the page's τ or η to another run leaves Next where it was (textbook: 25 px lower at
    τ = 0.01 than at τ = 1; the Dual on XOR likewise from η = 0.2 to 0.1)."""
    _open(page, app_server.rstrip("/") + f"/{path}", 1024, 768, scene=True)
    wait_for_words_held(page)  # (every run's words written, in idle time)
    page.wait_for_timeout(100)  # (and held: a frame)
    root = page.locator(SCENE).first
    offset = ("(r) => Math.round(r.querySelector('[data-go=next]').getBoundingClientRect().top"
              " - r.getBoundingClientRect().top)")
    run = "(r) => { const m = dbl(r).view.m; return m.eta ?? m.run.tau; }"
    first, shown = root.evaluate(offset), {root.evaluate(run)}
    slider = chart_control(page, label)
    for _ in range(6):
        slider.focus()
        before = root.evaluate(run)
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"(b) => {{ const m = dbl(document.querySelector({SCENE!r})).view.m;"
                               " return (m.eta ?? m.run.tau) !== b; }", arg=before)
        page.wait_for_timeout(300)  # (the new run's words held a frame after it is painted)
        shown.add(root.evaluate(run))
        assert root.evaluate(offset) == first, (shown, root.evaluate(offset), first)
    assert 0.01 in shown and len(shown) == 7, shown
    assert_no_exception(page)


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_presentation_mode_fits_the_svm_chart_and_its_controls_on_the_first_screen(
        page: Page, app_server: str, size: tuple[int, int]) -> None:
    w, h = size
    _open(page, app_server.rstrip("/") + "/svm?ds=outlier&present=true&C=0.1", w, h, scene=True)
    root = page.evaluate(BOX, ".dbls")
    data, side, text = (page.evaluate(BOX, sel) for sel in (".dbls-data", ".dbls-gram", ".dbls-text"))
    controls, state = page.evaluate(BOX, ".dbls-controls"), page.evaluate(BOX, ".dbls-state")
    assert page.evaluate("() => document.querySelector('.dbls').classList.contains('dbls-dside')")  # the slide layout
    assert 0 <= root["top"] and controls["bottom"] <= h, (root, controls)  # nothing to scroll for
    assert data["width"] >= 260 and side["width"] >= 240, (data, side)
    assert data["right"] <= side["left"] and side["right"] <= text["left"]  # three columns, none over another
    assert state["top"] >= max(data["bottom"], side["bottom"]) - 1
    assert page.inner_text(".dbls-text").startswith("C = 0.1: margin width")


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_presentation_mode_fits_the_sgd_tab_s_chart_and_its_controls_on_the_first_screen(
        page: Page, app_server: str, size: tuple[int, int]) -> None:
    """The hinge-SGD tab's chart comes first, as the exact tab's does; its long words and legend beside the panel
    wrap at 1024 px, and the panel gives up what they run past it, so the controls stay on the screen."""
    w, h = size
    _open(page, app_server.rstrip("/") + "/svm?ds=blobs&n_blobs=2000&present=true&schedule=constant%20%CE%B7", w, h,
          scene=True)
    page.get_by_role("tab", name="Hinge-loss SGD").click()
    sgd = ".st-key-sgd_chart .dbls"
    page.wait_for_function(f"() => {{ const r = document.querySelector('{sgd}'), v = dbl(r).view;"
                           " return v && !v.m.h.partial && r.dataset.ready === dbl(r).id; }", timeout=60_000)
    # a step's words (three lines and more at 1024 px) are longer than step 0's: the chart fits them once shown
    page.evaluate(f"() => dbl(document.querySelector('{sgd}')).view.show(5)")
    page.wait_for_function(f"() => document.querySelector('{sgd} .dbls-controls').getBoundingClientRect().bottom"
                           " <= window.innerHeight", timeout=10_000)
    page.wait_for_timeout(300)
    root, stage, controls, strip = (page.evaluate(BOX, f"{sgd} {sel}".strip()) for sel in
                                    ("", ".dbls-stage", ".dbls-controls", ".dbls-strip"))
    assert "Step 5" in page.inner_text(f"{sgd} .dbls-text")
    title = page.evaluate(BOX, "h1")
    assert page.evaluate(f"() => document.querySelector('{sgd}').classList.contains('dbls-side')")
    assert title["bottom"] <= root["top"] < 0.3 * h and controls["bottom"] <= h, (root, controls)  # before the settings
    assert stage["width"] >= 380 and strip["height"] >= 100, (stage, strip)
    ticks = page.evaluate(f"() => Array.from(document.querySelectorAll('{sgd} .dbls-strip-plot .ytick text'), (t) => t.textContent)")
    assert len(ticks) >= 2 and len(set(ticks)) == len(ticks), ticks  # 200, 500, 1000: not 2, 1000, 5, 2
    assert all(t.isdigit() and t.lstrip("125").strip("0") == "" for t in ticks), ticks


def test_presentation_mode_scrolls_to_the_sgd_tab_s_chart_opened_from_below(page: Page, app_server: str) -> None:
    """The SGD tab's chart comes first, at the page's top; a lecturer who scrolled down to the tabs and opens the SGD
    one sees it (the page stayed at the settings, 900 px under it)."""
    _open(page, app_server.rstrip("/") + "/svm?ds=moons&present=true", 1280, 720, scene=True)
    page.evaluate("() => { const m = document.querySelector('[data-testid=stMain]'); m.scrollTop = m.scrollHeight; }")
    page.get_by_role("tab", name="Hinge-loss SGD").click()
    sgd = ".st-key-sgd_chart .dbls"
    page.wait_for_function(f"() => {{ const r = document.querySelector('{sgd}'); return r && r.dataset.ready === dbl(r).id; }}",
                           timeout=60_000)
    page.wait_for_timeout(300)
    root = page.evaluate(BOX, sgd)
    assert 0 <= root["top"] < 0.5 * 720, root


@pytest.mark.parametrize("path, setting", [("dual", "Kernel"), ("svm", "Kernel"), ("compare", "Compare")])
def test_presentation_mode_puts_the_chart_before_the_settings(page: Page, app_server: str, path: str,
                                                              setting: str) -> None:
    _open(page, app_server.rstrip("/") + f"/{path}?ds=xor&present=true", 1280, 720, scene=True)
    chart = page.evaluate(BOX, ".dbls")
    box = page.get_by_test_id("stSelectbox").filter(has_text=setting).first.bounding_box()
    assert box is not None and chart["top"] < box["y"], (chart, box)
    assert chart["top"] < 720  # it starts on the first screen


def _compare_boxes(page: Page) -> dict:
    return page.evaluate("""() => {
        const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height}; };
        const all = (c) => [...document.querySelectorAll('.st-key-compare_chart ' + c)].map(box);
        return {plots: all('.dbls-plot'), titles: all('.dbls-cmp-title'), states: all('.dbls-cmp-state'),
                legend: all('.dbls-legend')[0], controls: all('.dbls-controls')[0], buttons: all('.dbls-controls button')};
    }""")


@pytest.mark.parametrize("size", [(1024, 768), (1280, 720)])
def test_presentation_mode_fits_the_compare_chart_on_the_first_screen(page: Page, app_server: str,
                                                                       size: tuple[int, int]) -> None:
    w, h = size
    _open(page, app_server.rstrip("/") + "/compare?ds=xor&cmp=svm&present=true", w, h, scene=True)
    b = _compare_boxes(page)
    left, right = b["plots"]
    assert left["right"] <= right["left"] and abs(left["top"] - right["top"]) < 1  # side by side
    assert min(left["width"], left["height"]) >= 240, left
    assert b["controls"]["bottom"] <= h, b["controls"]  # the chart, its words and its controls: nothing to scroll
    for j in (0, 1):
        assert b["titles"][j]["bottom"] <= b["plots"][j]["top"] + 1 and b["states"][j]["top"] >= b["plots"][j]["bottom"] - 1


def _labels_whole(page: Page, label: str) -> None:
    """The control labelled ``label`` is whole and on one line (not clipped by its column)."""
    cut = page.evaluate(
        """(label) => { const hits = [...document.querySelectorAll('[data-testid=stMain] label, [data-testid=stMain] p')]
             .filter(e => e.textContent.trim() === label);
           return hits.map(e => { const lh = parseFloat(getComputedStyle(e).lineHeight) || 20;
             const chain = [e, e.parentElement, e.parentElement && e.parentElement.parentElement];  // where it may be clipped
             const clipped = chain.some(a => a && a.scrollWidth > a.clientWidth + 1);
             return [clipped, Math.round(e.getBoundingClientRect().height / lh)]; }); }""", label)
    assert cut, f"no label {label!r} on the page"
    for overflowing, lines in cut:
        assert not overflowing and lines == 1, (label, cut)  # whole, on one line


CUT = """() => [...document.querySelectorAll('[data-testid=stMain] *')].filter((e) => {  // the words cut with "…" on the page
    const c = getComputedStyle(e);
    if (c.textOverflow !== 'ellipsis' || c.overflow === 'visible' || !e.clientWidth) return false;
    const r = document.createRange(); r.selectNodeContents(e);
    return r.getBoundingClientRect().width > e.getBoundingClientRect().width + 1;
}).map((e) => e.textContent.trim())"""


def _no_label_cut(page: Page) -> None:
    """Every widget's and metric's label on the page is whole, the settings' expanders opened too (Streamlit cuts a
    label too long for its column with "…"); and the check sees a cut label (the first Streamlit would cut, made
    too long for its place). Last: it opens the expanders and lengthens a label."""
    for summary in page.get_by_test_id("stExpander").filter(has_text="settings").locator("summary").all():
        summary.click()
    wait_for_rerun(page)
    page.wait_for_timeout(300)
    assert page.evaluate(CUT) == []
    made = page.evaluate("""() => { const e = [...document.querySelectorAll('[data-testid=stMain] *')].find((e) => e.clientWidth
        && getComputedStyle(e).textOverflow === 'ellipsis' && getComputedStyle(e).overflow !== 'visible' && e.textContent.trim());
        if (e) e.textContent = e.textContent.repeat(12);
        return Boolean(e); }""")
    assert made and page.evaluate(CUT)


def _apart(a: dict, b: dict) -> bool:
    return a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5 or a["bottom"] <= b["top"] + 0.5 \
        or b["bottom"] <= a["top"] + 0.5


AREAS = "(sel) => [...document.querySelectorAll(sel + ' .nsewdrag')].map(e => { const r = e.getBoundingClientRect();" \
        " return {width: r.width, height: r.height, top: r.top, bottom: r.bottom}; })"


# The normal page at 1024×768 with the sidebar open, one test per page (one page opened for each): at least 400 px of
# plot, nothing over anything else, every control's label whole, none cut with "…".


def test_at_1024_with_the_sidebar_the_perceptron_page_keeps_400_px_and_whole_labels(page: Page, app_server: str) -> None:
    _open(page, app_server.rstrip("/") + "/perceptron?ds=xor", 1024, 768, scene=True)
    plot = page.evaluate(BOX, ".dbls-plot")
    legend = page.evaluate(BOX, ".dbls-legend")
    assert plot["width"] >= 400, plot
    # the legend is beside or under the plot, never over it
    assert legend["top"] >= plot["bottom"] - 1 or legend["left"] >= plot["right"] - 1, (plot, legend)
    buttons = page.evaluate("() => [...document.querySelectorAll('.dbls-controls button')].map(b => {"
                            " const r = b.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top,"
                            " bottom: r.bottom}; })")
    for i, a in enumerate(buttons):  # no button lies over another
        for b in buttons[i + 1:]:
            assert _apart(a, b), (a, b)
    _labels_whole(page, "updates only")
    _no_label_cut(page)


def test_at_1024_with_the_sidebar_the_dual_page_keeps_400_px_and_whole_labels(page: Page, app_server: str) -> None:
    _open(page, app_server.rstrip("/") + "/dual?ds=xor&n_xor=100", 1024, 768, scene=True)
    data, gram = page.evaluate(BOX, ".dbls-data .dbls-plot"), page.evaluate(BOX, ".dbls-gram")
    legend, bars = page.evaluate(BOX, ".dbls-legend"), page.evaluate(BOX, ".dbls-strip")
    assert data["width"] >= 400, data
    assert gram["top"] >= data["bottom"] - 1  # stacked: each keeps its width
    assert legend["top"] >= gram["bottom"] - 1 and bars["top"] >= legend["bottom"] - 1
    _labels_whole(page, "random")
    _no_label_cut(page)


def test_at_1024_with_the_sidebar_the_svm_page_stacks_with_400_px_and_whole_labels(page: Page, app_server: str) -> None:
    _open(page, app_server.rstrip("/") + "/svm?ds=outlier", 1024, 768, scene=True)
    data, side = page.evaluate(BOX, ".dbls-data .dbls-plot"), page.evaluate(BOX, ".dbls-gram")
    legend, state = page.evaluate(BOX, ".dbls-legend"), page.evaluate(BOX, ".dbls-state")
    assert data["width"] >= 400 and side["width"] >= 400, (data, side)
    assert side["top"] >= data["bottom"] - 1  # stacked: each keeps its width
    assert legend["top"] >= side["bottom"] - 1 and state["top"] >= legend["bottom"] - 1
    _labels_whole(page, "Hard margin")
    _no_label_cut(page)


def test_at_1024_with_the_sidebar_the_loss_page_stacks_with_400_px_and_whole_labels(page: Page, app_server: str) -> None:
    """The words over the surface's panel left it a plot area of 341 px of a 535 px column; the data chart under it,
    fitted into the screen the surface leaves, then 197 px: each has 400 now (the page scrolls between them)."""
    _open(page, app_server.rstrip("/") + "/losses?ds=xor", 1024, 768, scene=True)
    page.wait_for_selector(".st-key-loss_data .dbls[data-ready]", state="attached")
    page.wait_for_timeout(500)
    surf, data = page.evaluate(BOX, ".st-key-loss_chart .dbls"), page.evaluate(BOX, ".st-key-loss_data .dbls")
    assert data["top"] >= surf["bottom"] - 1  # the data chart under the surface, not squeezed beside it
    for sel in (".st-key-loss_chart", ".st-key-loss_data"):
        areas = page.evaluate(AREAS, sel)
        assert areas and all(a["width"] >= 399 and a["height"] >= 399 for a in areas), (sel, areas)
    title = page.evaluate(BOX, ".dbls-loss-title")
    assert title["left"] >= surf["left"] - 0.5 and title["right"] <= surf["right"] + 0.5  # the surface's title is whole
    words = page.evaluate("() => { const t = document.querySelector('.dbls-loss-title'); return t.scrollWidth <= t.clientWidth + 1; }")
    assert words and "hinge loss" in page.inner_text(".dbls-loss-title")
    _no_label_cut(page)


def test_at_1024_with_the_sidebar_the_compare_panels_stack_with_400_px_and_whole_labels(page: Page,
                                                                                        app_server: str) -> None:
    """Two panels side by side in the 535 px column had plot areas of 195 px: one over the other, each keeps 400."""
    _open(page, app_server.rstrip("/") + "/compare?ds=xor&cmp=svm", 1024, 768, scene=True)
    b = _compare_boxes(page)
    left, right = b["plots"]
    assert right["top"] >= left["bottom"] - 1, (left, right)  # stacked
    areas = page.evaluate(AREAS, ".st-key-compare_chart")
    assert len(areas) == 2 and all(a["width"] >= 400 and a["height"] >= 400 for a in areas), areas
    parts = [*b["titles"], *b["plots"], *b["states"], b["legend"], b["controls"]]
    for i, x in enumerate(parts):
        for y in parts[i + 1:]:
            assert _apart(x, y), (x, y)
    for i, x in enumerate(b["buttons"]):
        for y in b["buttons"][i + 1:]:
            assert _apart(x, y), (x, y)
    assert b["legend"]["top"] >= max(s["bottom"] for s in b["states"]) - 1
    _no_label_cut(page)


@pytest.mark.parametrize(("size", "least"), [((1024, 768), 290), ((1280, 720), 280), ((1920, 1080), None)])
def test_presentation_mode_puts_one_loss_s_legend_and_the_data_chart_beside_its_surface(
        page: Page, app_server: str, size, least) -> None:
    """Presentation mode, one loss: the surface is held square by the window's height, so the legend stands in the width
    it leaves, beside it; the surface gains the legend's rows (taller than with the legend under it) and the b
    controls stay on the first screen. The data chart beside the surface (its boundary, legend and state) ends within
    the window too; no empty paper is left under its plot (x₁ and x₂ keep one scale, so its column's width may leave it
    shorter than the page allows: the browser sizes it). At 1280×720, a projector's full screen: the window grows and
    shrinks under the drawn page, and the data chart follows it (nothing is sent)."""
    w, h = size
    _open(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge&present=true", w, h, scene=True)
    page.wait_for_selector(".st-key-loss_data .dbls[data-ready] .js-plotly-plot", state="attached")
    wait_for_rerun(page)
    page.wait_for_timeout(500)
    if least is not None:
        plot = page.evaluate(BOX, ".st-key-loss_chart .dbls-plot .nsewdrag")
        legend = page.evaluate(BOX, ".st-key-loss_chart .dbls-legend")
        assert legend["left"] >= plot["right"] and legend["top"] < plot["bottom"]  # beside the panel, not under it
        assert legend["bottom"] <= page.evaluate(BOX, ".st-key-loss_chart .dbls-loss")["bottom"] + 0.5  # no taller
        # the panel's height (with the legend under it, measured on the XOR points: 226 px at 1024×768, 246 at 1280×720)
        assert page.evaluate("() => dbl(document.querySelector('.st-key-loss_chart .dbls')).view.sz.H") >= least
    assert page.evaluate(BOX, ".st-key-loss_chart .dbls-controls")["bottom"] <= h
    chart = page.evaluate(BOX, ".st-key-loss_data .dbls")
    data = page.evaluate(BOX, ".st-key-loss_data .js-plotly-plot")
    surface = page.evaluate(BOX, ".st-key-loss_chart .dbls-plot")
    legend, state = page.evaluate(BOX, ".st-key-loss_data .dbls-legend"), page.evaluate(BOX, ".st-key-loss_data .dbls-state")
    assert data["left"] >= surface["right"] and data["top"] < surface["bottom"]  # beside the surface
    assert data["bottom"] <= legend["top"] + 0.5 and legend["bottom"] <= state["top"] + 0.5 and state["bottom"] <= h
    # no paper left empty by the plot's one scale on x₁ and x₂ (the page's 572 px at 1024×768 left 28 px)
    spare = page.evaluate("""() => { const gd = document.querySelector('.st-key-loss_data .js-plotly-plot');
        return gd._fullLayout._size.h - gd.querySelector('.nsewdrag').getBoundingClientRect().height; }""")
    assert spare <= 2, spare
    if w > 1280:  # a larger screen, a larger chart: as tall as the page allows (620 px, 1.3× in presentation mode)
        assert chart["height"] >= 780, chart
    if w == 1280:
        height = "() => document.querySelector('.st-key-loss_data .js-plotly-plot')._fullLayout.height"
        small = page.evaluate(height)
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_function(f"() => ({height})() > {small} + 100", timeout=5000)
        page.set_viewport_size({"width": 1280, "height": 720})
        page.wait_for_function(f"() => Math.abs(({height})() - {small}) < 2", timeout=5000)
        assert page.evaluate(BOX, ".st-key-loss_data .dbls-state")["bottom"] <= 720


def test_presentation_mode_with_the_sidebar_kept_holds_the_step_label_in_the_row_of_buttons(page: Page,
                                                                                          app_server: str) -> None:
    """At 1280×720 with the sidebar kept (hide=tables) the step label ("Step 0 of 15", room held for "Step 1,000 of
    1,000") stays in the row of buttons, and the panel keeps its room: a first fit made before every run's words were
    held must not keep what it took too much (PerceptronView.fitSide gives it back; figures: bench/RESULTS.md,
    2026-12-02)."""
    _open(page, app_server.rstrip("/") + "/perceptron?present=true&hide=tables", 1280, 720, scene=True)
    at, nxt = page.evaluate(BOX, ".dbls-at"), page.evaluate(BOX, ".dbls-controls [data-go=next]")
    lh = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.dbls-at')).lineHeight) || 30")
    assert at["height"] <= 1.5 * lh and at["top"] < nxt["bottom"] and at["bottom"] > nxt["top"], (at, nxt)  # one line, one row
    with contextlib.suppress(PlaywrightTimeout):  # (the words are held final in idle time after the drawing)
        page.wait_for_function(f"(sel) => ({AREAS})(sel)[0]?.width >= 330", arg=".dbls-figure", timeout=5000)
    area = page.evaluate(AREAS, ".dbls-figure")[0]
    assert area["width"] >= 330, area
    assert page.evaluate(BOX, ".dbls-controls")["bottom"] <= 720


WIDTH_COVERS = """() => { const v = dbl(document.querySelector('.dbls')).view, m = v.m, out = [];
  for (let k = 0; k < m.K; k++) { v.show(k); const t = document.querySelector('.dbls .dbls-width-text'); if (!t) continue;
    const r = t.getBoundingClientRect(), pr = v.plot.getBoundingClientRect(), fl = v.plot._fullLayout;
    let inside = 0;
    for (let i = 0; i < m.N; i++) { const x = pr.left + fl.xaxis._offset + fl.xaxis.l2p(m.X[2 * i]),
      y = pr.top + fl.yaxis._offset + fl.yaxis.l2p(m.X[2 * i + 1]);
      if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) inside++; }
    out.push(inside); }
  return out; }"""


def test_presentation_mode_writes_the_svm_width_where_it_covers_no_point(page: Page, app_server: str) -> None:
    """Presentation mode at 1024×768 on moons: from C = 3 on the margin is wider than the view, every arrow's label
    stood at the plot's top edge, over 13–15 points; the label now goes to the clear place nearest the arrow."""
    _open(page, app_server.rstrip("/") + "/svm?ds=moons&present=true", 1024, 768, scene=True)
    covers = page.evaluate(WIDTH_COVERS)
    assert covers and max(covers) == 0, covers


def test_at_1024_with_the_sidebar_the_3d_view_s_buttons_stand_over_its_title_not_on_it(page: Page,
                                                                                       app_server: str) -> None:
    """The Loss page's 3-D view shows plotly.js's row of camera buttons at its top right on hover: above the title,
    which in the narrow column runs under them."""
    _open(page, app_server.rstrip("/") + "/losses?ds=outlier&view=surface", 1024, 768, scene=False)
    plot = page.locator(".st-key-loss_chart .js-plotly-plot").first
    plot.scroll_into_view_if_needed()
    plot.hover()
    page.wait_for_selector(".st-key-loss_chart .modebar", state="visible")
    title = page.evaluate(BOX, ".st-key-loss_chart .gtitle")
    bar = page.evaluate(BOX, ".st-key-loss_chart .modebar")
    assert title["right"] > bar["left"]  # (the title reaches under the buttons' column)
    assert bar["bottom"] <= title["top"] + 1, (bar, title)


def test_at_1024_with_the_sidebar_the_loss_data_chart_comes_right_under_the_surface(page: Page,
                                                                                    app_server: str) -> None:
    """Where the main column is too narrow for the surface and the data chart side by side, they stack: the data chart,
    where a weight clicked on the surface draws its boundary, comes right under the surface's panels, before the notes
    and the exports (it stood 1,100 px under the surface, past them), the surface's words, b controls and folded
    formula over its panels (they stood between, 480 px); the panels and the data chart's plot fit one screen."""
    _open(page, app_server.rstrip("/") + "/losses?ds=blobs&loss=hinge", 1024, 768, scene=True)
    page.wait_for_selector(".st-key-loss_data .dbls[data-ready]", state="attached")
    page.wait_for_timeout(500)
    surface = page.evaluate(BOX, ".st-key-loss_chart .dbls")
    data = page.evaluate(BOX, ".st-key-loss_data")
    notes = page.get_by_text("Move b with the slider under the chart").bounding_box()
    assert data["top"] >= surface["bottom"] - 1  # stacked
    assert data["top"] < notes["y"], (data, notes)
    panels, controls = page.evaluate(BOX, ".st-key-loss_chart .dbls-loss"), page.evaluate(BOX, ".st-key-loss_chart .dbls-controls")
    plot = page.evaluate(BOX, ".st-key-loss_data .js-plotly-plot")
    assert controls["bottom"] <= panels["top"] and data["top"] - panels["bottom"] < 40, (controls, panels, data)
    # (each plot keeps a 400 px plot area: the data chart's starts on the surface's screen, no longer ends there)
    assert data["top"] - panels["top"] <= 768, (panels, plot)
    assert page.evaluate("() => document.querySelector('.st-key-loss_chart details.dbls-math').open") is False


def test_presentation_mode_fits_the_3d_view_in_the_window(page: Page, app_server: str) -> None:
    """The Loss page's 3-D view in presentation mode ends within the window (it was 880 px high at 1024×768)."""
    _open(page, app_server.rstrip("/") + "/losses?ds=outlier&view=surface&present=true", 1024, 768, scene=False)
    page.wait_for_timeout(500)
    plot = page.evaluate(BOX, ".st-key-loss_chart .js-plotly-plot")
    assert plot["bottom"] <= 768 and plot["height"] >= 320, plot
