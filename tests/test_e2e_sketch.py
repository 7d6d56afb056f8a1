"""The first chart in a new tab is sketched before plotly.js is in (viz/js/sketch.js), and plotly.js then draws the
same chart: the same axes (ranges, place and length, tick labels), the same points, the same step drawn over them,
at the step the student moved to meanwhile. A plotly.js that cannot be loaded leaves the sketch and says so.

plotly.js's request is held (Playwright's route, answered later) so that the sketch can be read before it is in.
"""

from __future__ import annotations

import contextlib
import io

import pytest
from e2e_helpers import SCENE, assert_no_exception, chart_control, scene_state, wait_for_step, with_state_of
from PIL import Image, ImageChops
from playwright.sync_api import Browser

ROOT = ".dbls"
# what a chart shows of its data panel, read alike from the sketch and from plotly.js's drawing
READ = """(root) => {
  const r = document.querySelector(root), gd = r.querySelector('.dbls-plot'), fl = gd._fullLayout;
  const axis = (a) => ({range: [...a.range], offset: a._offset, length: a._length});
  const sketched = gd.classList.contains('dbls-sketched');
  const ticks = (name, letter) => sketched
    ? [...gd.querySelectorAll(`text.dbls-tick[data-axis=${name}]`)].map((t) => t.textContent)
    : [...gd.querySelectorAll(`.${letter}tick text`)].map((t) => t.textContent);
  let points = 0;
  if (sketched) {
    for (const p of gd.querySelectorAll('path')) {
      const fill = (p.getAttribute('fill') || '').toUpperCase();
      if (fill === '#0072B2' || fill === '#D55E00') points += (p.getAttribute('d').match(/M/g) || []).length;
    }
  } else points = gd.querySelectorAll('.scatterlayer .point').length;
  const line = [...r.querySelectorAll('.dbls-over line')].find((l) => Number(l.getAttribute('stroke-width')) >= 4);
  return {plotly: !!window.Plotly, sketched, x: axis(fl.xaxis), y: axis(fl.yaxis), xt: ticks('xaxis', 'x'),
          yt: ticks('yaxis', 'y'), points, line: line ? ['x1', 'y1', 'x2', 'y2'].map((k) => Number(line.getAttribute(k))) : null};
}"""


class Tabs:
    """One tab for the module whose requests for plotly.js are held, passed or refused as each test asks (a routed
    page fetches everything anew, as a student's first visit does: Playwright turns the HTTP cache off for it)."""

    def __init__(self, page) -> None:
        self.page, self.held, self.refuse = page, None, False
        page.route("**/plotly.min.js", self._route)

    def _route(self, route) -> None:
        held = self.held
        if self.refuse:
            route.abort()
        elif held is None or (held and held[0] is None):  # (not held, or released: release())
            route.continue_()
        else:
            held.append(route)


@pytest.fixture(scope="module")
def tabs(browser: Browser):
    context = with_state_of(browser.new_context())
    yield Tabs(context.new_page())
    context.close()


@contextlib.contextmanager
def fresh_tab(tabs: Tabs, width: int = 1280, height: int = 800, hold: bool = True, refuse: bool = False):
    """The module's tab at this size, plotly.js held until :func:`release` unless ``hold`` is False (refused where
    ``refuse``): yields (page, the held routes or None). Each test then opens a page: a new document, no plotly.js."""
    tabs.page.set_viewport_size({"width": width, "height": height})
    tabs.held, tabs.refuse = ([] if hold else None), refuse
    try:
        yield tabs.page, tabs.held
    finally:
        if tabs.held and tabs.held[0] is not None:
            release(tabs.held)  # (nothing left waiting for the next test)
        tabs.held, tabs.refuse = None, False
        tabs.page.goto("about:blank")  # (no request of this page's left for the next test's gate)


def settled(page, root: int) -> None:
    """Wait until the ``root``-th chart's first plot has kept its size for half a second (a presentation-mode slide is
    cut to the window once its formulas are typeset: with or without the sketch)."""
    page.wait_for_function(f"() => {{ const r = document.querySelectorAll('.dbls')[{root}]; "
                           "return !r.querySelector('details.dbls-math[open]') || !!r.querySelector('.katex'); }",
                           timeout=30_000)  # (its formulas typeset, where shown: the words beside a slide at their height)
    size = (f"() => {{ const gd = document.querySelectorAll('.dbls')[{root}].querySelector('.dbls-plot'), f = gd && gd._fullLayout; "
            "return f ? f.width + 'x' + f.height : null; }")  # (none while a newer record's shell is built)
    last, same = None, 0
    for _ in range(40):  # (at most 10 s)
        now = page.evaluate(size)
        same = same + 1 if now is not None and now == last else 0
        if same >= 2:
            return
        last = now
        page.wait_for_timeout(250)


def release(held: list) -> None:
    routes = list(held)
    held[:] = [None]  # (later requests pass at once)
    for route in routes:
        route.continue_()


def close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol


def test_first_chart_sketched_then_drawn_alike_by_plotly(tabs: Tabs, app_server: str) -> None:
    with fresh_tab(tabs) as (page, held):
        page.goto(f"{app_server}/perceptron?ds=XOR&n_xor=300&tau=0.1")
        page.wait_for_selector(f"{ROOT}[data-sketched]", state="attached", timeout=60_000)
        sketch = page.evaluate(READ, ROOT)
        assert not sketch["plotly"] and sketch["sketched"]
        assert sketch["points"] == 300
        # a student steps while plotly.js loads: the sketch draws the step
        page.locator(f"{ROOT} button[data-go=next]").click()
        page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.step == '1'")
        step1 = page.evaluate(READ, ROOT)
        assert not step1["plotly"] and step1["line"] is not None  # the step's boundary, drawn over the sketch
        assert not page.locator(SCENE).count()  # (not drawn with plotly.js yet)
        page.locator("h1").first.click()  # the page's keys step the sketched chart too (glue/chart_tools.py)
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.step == '2'")
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.step == '1'")
        release(held)
        wait_for_step(page, 1)  # drawn with plotly.js, at the step the student moved to
        drawn = page.evaluate(READ, ROOT)
        assert drawn["plotly"] and not drawn["sketched"]
        assert not page.locator(".dbls-sketched").count() and not page.locator(f"{ROOT} .dbls-error").count()
        assert drawn["points"] == 300
        assert step1["xt"] and step1["yt"]  # (labels there to compare)
        for ax in ("x", "y"):  # the same axes: ranges to a millionth of their span, place and length to a pixel
            span = drawn[ax]["range"][1] - drawn[ax]["range"][0]
            assert all(close(a, b, 1e-6 * span) for a, b in zip(step1[ax]["range"], drawn[ax]["range"], strict=True)), (ax, step1[ax], drawn[ax])
            assert close(step1[ax]["offset"], drawn[ax]["offset"], 1) and close(step1[ax]["length"], drawn[ax]["length"], 1)
        assert step1["xt"] == drawn["xt"] and step1["yt"] == drawn["yt"], (step1["xt"], drawn["xt"], step1["yt"], drawn["yt"])
        assert all(close(a, b, 1) for a, b in zip(step1["line"], drawn["line"], strict=True)), (step1["line"], drawn["line"])
        assert scene_state(page)["step"] == 1
        assert_no_exception(page)


def test_plotly_that_cannot_load_leaves_the_sketch_and_says_so(tabs: Tabs, app_server: str) -> None:
    with fresh_tab(tabs, hold=False, refuse=True) as (page, _):
        page.goto(f"{app_server}/perceptron")
        page.wait_for_selector(f"{ROOT}[data-sketched]", state="attached", timeout=60_000)
        err = page.locator(f"{ROOT} .dbls-error")
        err.wait_for(timeout=30_000)
        assert "plotly.js could not be loaded" in err.inner_text()
        got = page.evaluate(READ, ROOT)
        assert got["sketched"] and got["points"] == 3  # the textbook's three points, still drawn
        assert not page.locator(SCENE).count()
        assert_no_exception(page)


def axes_of(page, root: int, index: int) -> dict:
    """The ranges, places and tick labels of every axis of the ``index``-th plot of the ``root``-th chart of the page,
    sketched or drawn."""
    return page.evaluate("""([root, index]) => {
      const r = document.querySelectorAll('.dbls')[root], gd = r.querySelectorAll('.dbls-plot, .dbls-strip-plot')[index];
      const fl = gd._fullLayout, sketched = gd.classList.contains('dbls-sketched'), out = {};
      const shown = (t) => getComputedStyle(t).display !== 'none' && getComputedStyle(t.parentNode).display !== 'none';  // (plotly.js hides a label past the figure)
      for (const name of Object.keys(fl).filter((k) => /^[xy]axis\\d*$/.test(k))) {
        const a = fl[name], id = name[0] + name.slice(5);
        if (a.visible === false || (a.opts && a.opts.visible === false)) continue;  // (no labels either way)
        const ticks = sketched ? [...gd.querySelectorAll(`text.dbls-tick[data-axis=${name}]`)].map((t) => t.textContent)
          : [...gd.querySelectorAll(`.${id}tick text`)].filter(shown).map((t) => t.textContent);
        out[name] = {range: [...a.range], offset: a._offset, length: a._length, ticks};
      }
      return out;
    }""", [root, index])


def same_axes(sketch: dict, drawn: dict) -> None:
    assert sorted(sketch) == sorted(drawn)
    assert any(a["ticks"] for a in drawn.values())  # (labels there to compare)
    for name, a in drawn.items():
        s, half_px = sketch[name], 0.5 * abs(a["range"][1] - a["range"][0]) / a["length"]  # (a range's end: to half a pixel)
        assert all(close(u, v, half_px) for u, v in zip(s["range"], a["range"], strict=True)), (name, s, a)
        assert close(s["offset"], a["offset"], 1) and close(s["length"], a["length"], 1), (name, s, a)
        assert s["ticks"] == a["ticks"], (name, s["ticks"], a["ticks"])


# (page, the chart's place among the page's charts, its plots): the SVM's data panel and C panels, the hinge-SGD tab's
# panel and J strip (a log axis, an axis hidden), Compare's two panels, a presentation-mode Perceptron's panel and strip;
# the Dual page's data panel, Gram matrix (its axes' domains shrunk to square cells) and α bars; the Loss page's three
# surfaces (colour bars), one in presentation mode, and the data chart under one
@pytest.mark.parametrize(("path", "root", "plots"), [("svm?ds=Blobs&n_blobs=200", 0, 2), ("svm?ds=Blobs&n_blobs=200&svm_tab=Hinge-loss%20SGD", 0, 2),
                                                     ("compare?ds=Moons&n_moons=150", 0, 2), ("perceptron?ds=XOR&n_xor=2000", 0, 2),
                                                     ("perceptron?ds=Circles&n_circles=400&present=true&max_steps=9500", 0, 2),
                                                     ("dual?ds=XOR&n_xor=200&kernel=rbf", 0, 3), ("losses?ds=blobs&loss=all", 0, 3),
                                                     ("losses?ds=blobs&loss=hinge&present=true", 0, 1), ("losses?ds=blobs&loss=hinge", 1, 1)])
def test_sketch_lays_every_axis_out_as_plotly_does(tabs: Tabs, app_server: str, path: str, root: int,
                                                   plots: int) -> None:
    """Every plot of the chart (the data panel, the side panels, the strip), at a projector's 1024×768: the sketch's
    axes are plotly.js's (ranges to half a pixel, place, length, tick labels), so nothing moves when plotly.js takes
    over."""
    mine = "(r) => { const e = document.querySelectorAll('.dbls')[r]; return e && e.dataset.{}; }"
    with fresh_tab(tabs, 1024, 768) as (page, held):
        page.goto(f"{app_server}/{path}")
        page.wait_for_function(mine.replace("{}", "sketched"), arg=root, timeout=60_000)
        settled(page, root)
        sketches = [axes_of(page, root, i) for i in range(plots)]
        release(held)
        page.wait_for_function(mine.replace("{}", "ready"), arg=root, timeout=60_000)
        settled(page, root)
        for i, sketch in enumerate(sketches):
            same_axes(sketch, axes_of(page, root, i))
        assert_no_exception(page)


def test_the_quiz_waits_for_plotly(tabs: Tabs, app_server: str) -> None:
    """The quiz's question is answered by a click on a point, which only plotly.js's drawing takes: it is not
    sketched (a sketch would take clicks it cannot answer)."""
    with fresh_tab(tabs) as (page, held):
        page.goto(f"{app_server}/perceptron?quiz=true")
        page.wait_for_function("() => !!document.querySelector('script[src*=\"plotly.min.js\"]')",
                               timeout=60_000)  # (the chart asked for it)
        release(held)
        page.wait_for_selector(SCENE, state="attached", timeout=60_000)
        assert page.evaluate("() => document.querySelector('.dbls').dataset.sketched") is None
        assert_no_exception(page)


def test_tau_moved_in_the_sketch_is_drawn_there_and_kept(tabs: Tabs, app_server: str) -> None:
    """τ moves the sketched chart as it moves the drawn one (every τ's run is in the record), and plotly.js then draws
    the τ the control shows."""
    tau = f"() => dbl(document.querySelector('{ROOT}')).view.m.run.tau"
    with fresh_tab(tabs) as (page, held):
        page.goto(f"{app_server}/perceptron?ds=XOR&n_xor=300")
        page.wait_for_selector(f"{ROOT}[data-sketched]", state="attached", timeout=60_000)
        assert page.evaluate(tau) == 1.0
        slider = chart_control(page, "τ")
        slider.focus()
        page.keyboard.press("ArrowLeft")  # τ = 0.5
        page.wait_for_function(f"() => ({tau[6:]}) === 0.5")
        assert not page.evaluate("() => !!window.Plotly")  # (moved in the sketch)
        release(held)
        page.wait_for_selector(SCENE, state="attached", timeout=60_000)
        page.wait_for_timeout(300)
        assert page.evaluate(tau) == 0.5 and page.evaluate("() => !!window.Plotly")
        assert_no_exception(page)


def test_a_point_clicked_into_the_sketch_is_added(tabs: Tabs, app_server: str) -> None:
    """With *Click the chart to add or remove points* on, a click on the sketched chart adds a point (the page's new
    record is sketched too), and plotly.js then draws the four points."""
    with fresh_tab(tabs) as (page, held):
        page.goto(f"{app_server}/perceptron")
        page.wait_for_selector(f"{ROOT}[data-sketched]", state="attached", timeout=60_000)
        assert page.evaluate(READ, ROOT)["points"] == 3
        page.get_by_text("Click the chart to add or remove points").click()
        page.wait_for_timeout(800)  # (the page's rerun with the editing switch on)
        page.locator(f"{ROOT} .dbls-plot").first.scroll_into_view_if_needed()
        box = page.locator(f"{ROOT} .dbls-plot svg").first.bounding_box()
        fl = page.evaluate(f"() => {{ const f = document.querySelector('{ROOT} .dbls-plot')._fullLayout; "
                           "return [f.xaxis._offset, f.xaxis._length, f.yaxis._offset, f.yaxis._length]; }")
        page.mouse.click(box["x"] + fl[0] + 0.85 * fl[1], box["y"] + fl[2] + 0.85 * fl[3])  # an empty corner
        page.wait_for_function(f"() => {{ const gd = document.querySelector('{ROOT} .dbls-plot'); return gd.classList.contains("
                               f"'dbls-sketched') && dbl(gd).view && dbl(gd).view.m.N === 4; }}", timeout=30_000)
        assert page.evaluate(READ, ROOT)["points"] == 4
        release(held)
        page.wait_for_selector(SCENE, state="attached", timeout=60_000)
        page.wait_for_function(f"() => dbl(document.querySelector('{ROOT} .dbls-plot')).view.m.N === 4")
        assert page.evaluate(READ, ROOT)["points"] == 4
        assert_no_exception(page)


# a colour bar's labels (text, left edge, middle), read alike from the sketch and from plotly.js's drawing
BAR_LABELS = """([root, index]) => {
  const gd = document.querySelectorAll('.dbls')[root].querySelectorAll('.dbls-plot, .dbls-strip-plot')[index];
  const g0 = gd.getBoundingClientRect(), sketched = gd.classList.contains('dbls-sketched');
  return [...gd.querySelectorAll(sketched ? 'text.dbls-cbtick' : '.colorbar .cbaxis text')].map((t) => {
    const b = t.getBoundingClientRect();
    return [t.textContent, b.left - g0.left, (b.top + b.bottom) / 2 - g0.top];
  });
}"""


def plot_image(page, root: int, index: int) -> Image.Image:
    """The ``index``-th plot of the ``root``-th chart as on screen (its drawing and the step's layers over it)."""
    box = page.evaluate("""([root, index]) => {
      const gd = document.querySelectorAll('.dbls')[root].querySelectorAll('.dbls-plot, .dbls-strip-plot')[index];
      gd.scrollIntoView({block: 'center'});
      const b = gd.getBoundingClientRect();
      return {x: b.left, y: b.top, width: gd._fullLayout.width, height: gd._fullLayout.height};
    }""", [root, index])
    return Image.open(io.BytesIO(page.screenshot(clip=box))).convert("RGB")


# (page, its plots with a colour bar): the Gram matrix of an RBF kernel (a heatmap, its bar's title), the three losses'
# filled contours (outlined bars ticked on their levels)
@pytest.mark.parametrize(("path", "plots"), [("dual?ds=XOR&n_xor=200&kernel=rbf", (1,)), ("losses?ds=blobs&loss=all", (0, 1, 2))])
def test_sketch_draws_heatmaps_contours_and_colour_bars_as_plotly_does(tabs: Tabs, app_server: str, path: str,
                                                                         plots: tuple[int, ...]) -> None:
    """The Gram matrix and the loss surfaces are sketched with their colours and colour bars, and plotly.js then draws
    the same picture: each bar's labels the same and in the same place to a pixel and a half, and the plots' pixels
    alike (the same colours, up to the bands' anti-aliased edges and the text's rendering)."""
    with fresh_tab(tabs, 1024, 768) as (page, held):
        page.goto(f"{app_server}/{path}")
        page.wait_for_function("() => { const e = document.querySelector('.dbls'); return e && e.dataset.sketched; }", timeout=60_000)
        settled(page, 0)
        assert not page.evaluate("() => !!window.Plotly")
        bars = [page.evaluate(BAR_LABELS, [0, i]) for i in plots]
        images = [plot_image(page, 0, i) for i in plots]
        release(held)
        page.wait_for_function("() => { const e = document.querySelector('.dbls'); return e && e.dataset.ready; }", timeout=60_000)
        settled(page, 0)
        for i, bar, image in zip(plots, bars, images, strict=True):
            drawn = page.evaluate(BAR_LABELS, [0, i])
            assert len(bar) >= 3 and [t for t, *_ in bar] == [t for t, *_ in drawn], (bar, drawn)
            for (_, x, y), (_, u, v) in zip(bar, drawn, strict=True):
                assert close(x, u, 1.5) and close(y, v, 1.5), (bar, drawn)
            after = plot_image(page, 0, i)
            assert image.size == after.size
            diff = ImageChops.difference(image, after).convert("L")
            hist = diff.histogram()
            far = sum(hist[48:]) / (image.size[0] * image.size[1])  # pixels that differ by more than a shade
            mean = sum(k * c for k, c in enumerate(hist)) / (image.size[0] * image.size[1])
            assert far < 0.02 and mean < 3, (i, far, mean)
        assert_no_exception(page)


def test_b_moved_in_the_sketched_loss_surface_is_drawn_there_and_kept(tabs: Tabs, app_server: str) -> None:
    """On the Loss page, *Larger b ▸* in the sketch draws the surface of the new b (its bands, not a blank panel:
    plotly.js's restyle, which the page's b controls call, is the sketch's too), and plotly.js then draws the same
    surface at that b."""
    with fresh_tab(tabs, 1024, 768) as (page, held):
        page.goto(f"{app_server}/losses?ds=blobs&loss=hinge")
        page.wait_for_selector(f"{ROOT}[data-sketched]", state="attached", timeout=60_000)
        settled(page, 0)
        at = int(page.evaluate(f"() => document.querySelector('{ROOT}').dataset.step"))
        before = plot_image(page, 0, 0)
        page.locator(f"{ROOT} button[data-go=next]").first.click()
        page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.step == '{at + 1}'")
        assert not page.evaluate("() => !!window.Plotly")
        moved = plot_image(page, 0, 0)
        release(held)
        page.wait_for_function(f"() => document.querySelector('{ROOT}').dataset.ready", timeout=60_000)
        settled(page, 0)
        assert page.evaluate(f"() => document.querySelector('{ROOT}').dataset.step") == str(at + 1)
        drawn = plot_image(page, 0, 0)

        def far(a: Image.Image, b: Image.Image) -> float:  # the share of pixels that differ by more than a shade
            hist = ImageChops.difference(a, b).convert("L").histogram()
            return sum(hist[48:]) / (a.size[0] * a.size[1])

        assert far(moved, before) > 0.02  # (another b: other bands; a blank panel would differ far more from plotly.js's)
        assert far(moved, drawn) < 0.02, far(moved, drawn)
        assert_no_exception(page)
