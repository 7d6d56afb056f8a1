"""Helpers for end-to-end tests that drive the Streamlit app in a real Chromium (Playwright, sync API).

Typical use, with the ``page`` fixture (conftest.py: the shared tab) and ``app_server`` from conftest.py::

    page.goto(app_server)
    wait_for_rerun(page)
    assert_no_exception(page)
    goto_page(page, app_server, "Perceptron")
    wait_for_chart(page)
    meta = chart_meta(page)
    xs, ys = trace_xy(page, "boundary")

Timing notes (measured, see shared/NOTES-browser.md): a rerun is over when the app root says
``notRunning``/``CONNECTED``, but a Plotly chart is drawn *after* that (its JS loads lazily), so wait
on the chart itself (``wait_for_chart``) or on a value the page writes into ``layout.meta``
(``page.wait_for_function``). Right after an action (key press, click) the app may not have
started its rerun yet: prefer waiting on the content the action changes.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

DEFAULT_TIMEOUT_MS = 30_000

APP_IDLE = "[data-testid=stApp][data-test-script-state=notRunning][data-test-connection-state=CONNECTED]"
# a Plotly chart: Streamlit's own, or one the scene renderer drew (glue.scene_chart)
CHART = ".dbls .js-plotly-plot"  # every chart is drawn by the scene renderer (still figures too)
SCENE = ".dbls[data-ready]"  # a scene the renderer has drawn

# JS: the index-th Plotly graph div on the page, or null.
_GD = f"(i) => document.querySelectorAll({CHART!r})[i] || null"


# a page's script reads what the renderer keeps of an element (viz/js/state.js) as ``dbl(el)``: the chart's root
# answers a ``dbl-state`` event with that element's state (``dbl(root).view``: the view drawn; ``{}`` where none yet)
STATE_OF = """window.dbl = (el) => {
  if (!el) return {};
  const ev = new CustomEvent("dbl-state", {detail: {}, bubbles: true});
  el.dispatchEvent(ev);
  return ev.detail.state || {};
};"""


def with_state_of(target):
    """``target`` (a context or a page) with ``dbl`` in each of its pages (:data:`STATE_OF`); returns it."""
    target.add_init_script(STATE_OF)
    return target


def wait_for_rerun(page: Page, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the script is not running and the app is connected to the server (timeout in ms)."""
    page.wait_for_selector(APP_IDLE, state="attached", timeout=timeout)


def settled_value(page: Page, js: str, tries: int = 20) -> object:
    """The value of ``js`` once two reads 250 ms apart agree (bounded: the last read after ``tries``)."""
    last = page.evaluate(js)
    for _ in range(tries):
        page.wait_for_timeout(250)
        now = page.evaluate(js)
        if now == last:
            return now
        last = now
    return last


def wait_for_chart(page: Page, index: int = 0, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the ``index``-th Plotly chart on the page has been drawn (has ``_fullLayout``)."""
    page.wait_for_function(
        f"(i) => {{ const gd = ({_GD})(i); return !!(gd && gd._fullLayout && gd._fullData); }}",
        arg=index,
        timeout=timeout,
    )


def chart_meta(page: Page, index: int = 0) -> Any:
    """``layout.meta`` of the ``index``-th Plotly chart (JSON-like Python value; None if unset)."""
    return page.evaluate(
        f"""(i) => {{
            const gd = ({_GD})(i);
            if (!gd) throw new Error(`no Plotly chart #${{i}} on the page`);
            const meta = (gd.layout && gd.layout.meta !== undefined) ? gd.layout.meta : null;
            return JSON.parse(JSON.stringify(meta));
        }}""",
        index,
    )


def wait_for_scene(page: Page, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the scene renderer has drawn a scene (its root carries ``data-ready``)."""
    page.wait_for_selector(SCENE, state="attached", timeout=timeout)


def wait_for_words_held(page: Page, root: str = SCENE, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the chart at ``root`` holds its words at the record's last height (every run's tallest: written in
    the browser's idle time, later under load), so that the controls stand where they will stay."""
    page.wait_for_function(f"() => {{ const v = dbl(document.querySelector({root!r})).view; return v && v.wordsHeld; }}",
                           timeout=timeout)


def scene_state(page: Page) -> dict:
    """What the scene renderer shows: the step, the arithmetic (HTML), the state line, the step label."""
    return page.evaluate(
        f"""() => {{
            const r = document.querySelector({SCENE!r});
            if (!r) throw new Error('no scene drawn on the page');
            return {{step: Number(r.dataset.step), text: r.querySelector('.dbls-text').innerHTML,
                     state: r.querySelector('.dbls-state').textContent, at: r.querySelector('.dbls-at').textContent}};
        }}"""
    )


def wait_for_step(page: Page, step: int, timeout: float = DEFAULT_TIMEOUT_MS) -> None:
    """Wait until the scene renderer shows ``step``."""
    page.wait_for_function(f"(s) => {{ const r = document.querySelector({SCENE!r}); return r && r.dataset.step == s; }}",
                           arg=step, timeout=timeout)


def scene_drawn(page: Page) -> dict:
    """What the scene renderer draws at its step, by part (ring, exam, old, line, w, upd…), as {x, y} lists."""
    return page.evaluate(f"() => dbl(document.querySelector({SCENE!r} + ' .dbls-plot')).view.drawn()")


def scene_button(page: Page, go: str) -> None:
    """Click one of the renderer's step buttons: back, next, play, fast, pause."""
    page.locator(f"{SCENE} button[data-go={go}]").click()


def trace_xy(page: Page, trace_name: str, index: int = 0) -> tuple[list[Any], list[Any]]:
    """x and y of the first trace named ``trace_name`` in the ``index``-th chart, as Python lists.

    Read from ``gd._fullData``: plotly 7 sends NumPy arrays as ``{dtype, bdata}``, which the browser
    decodes into typed arrays there (``gd.data`` keeps the encoded form). Gaps (null) become None.
    Raises ``AssertionError`` naming the traces present when no trace has that name.
    """
    result = page.evaluate(
        f"""([i, name]) => {{
            const gd = ({_GD})(i);
            if (!gd || !gd._fullData) return {{error: `no drawn Plotly chart #${{i}} on the page`}};
            const tr = gd._fullData.find((t) => t.name === name);
            if (!tr) return {{error: 'no trace named ' + JSON.stringify(name) + ' in chart #' + i +
                                     '; traces: ' + JSON.stringify(gd._fullData.map((t) => t.name))}};
            const arr = (v) => (v == null ? [] : Array.from(v, (e) => (e === undefined ? null : e)));
            return {{x: arr(tr.x), y: arr(tr.y)}};
        }}""",
        [index, trace_name],
    )
    assert "error" not in result, result.get("error")
    return result["x"], result["y"]


def assert_no_exception(page: Page) -> None:
    """Fail if the app shows an exception box or an error alert containing a traceback."""
    exceptions = page.locator("[data-testid=stException]")
    n = exceptions.count()
    assert n == 0, f"the app shows {n} exception(s):\n" + "\n---\n".join(exceptions.all_inner_texts())
    tracebacks = [t for t in page.locator("[data-testid=stAlertContentError]").all_inner_texts() if "Traceback" in t]
    assert not tracebacks, "the app shows an error with a traceback:\n" + "\n---\n".join(tracebacks)


def goto_page(
    page: Page,
    base_url: str,
    link_text: str,
    url_path: str | None = None,
    timeout: float = DEFAULT_TIMEOUT_MS,
) -> None:
    """Open another page of the multipage app and wait for its run to finish.

    Clicks the ``stSidebarNav`` link whose text contains ``link_text`` when it is visible; otherwise
    navigates to that link's href, or to ``base_url + "/" + url_path`` when no such link exists.
    """
    link = page.get_by_test_id("stSidebarNav").get_by_role("link").filter(has_text=link_text).first
    if link.count() and link.is_visible():
        href = link.get_attribute("href")
        link.click()
        if href:
            target = href.split("?")[0].rstrip("/")
            page.wait_for_url(lambda url: url.split("?")[0].rstrip("/").endswith(target), timeout=timeout)
    else:
        if link.count() and link.get_attribute("href"):
            target = link.get_attribute("href")
        elif url_path is not None:
            target = base_url.rstrip("/") + "/" + url_path.lstrip("/")
        else:
            raise AssertionError(f"no sidebar link containing {link_text!r} and no url_path given")
        page.goto(target, timeout=timeout)
    wait_for_rerun(page, timeout=timeout)


def open_page(page: Page, base_url: str, url_path: str) -> None:
    """Open one of the app's pages by its address (``url_path``) and wait for its chart (no exception shown). The
    sidebar's links to every page: test_e2e_smoke.py."""
    page.goto(base_url.rstrip("/") + "/" + url_path.lstrip("/"))
    wait_for_rerun(page)
    wait_for_chart(page)
    assert_no_exception(page)


def exported_figure(page) -> dict:
    """The PNG/SVG export's figure of the chart mounted in the renderer page (``window.__dblView.figure()``), drawn
    by plotly.js into a scratch element: its trace names and annotations' text, or the error it raised."""
    return page.evaluate("""async () => {
        const fig = window.__dblView.figure(), div = document.createElement('div');
        document.body.appendChild(div);
        try {
            await window.Plotly.newPlot(div, fig.data, fig.layout);
            return {names: div._fullData.map((t) => t.name), notes: (div._fullLayout.annotations || []).map((a) => a.text),
                    width: div._fullLayout.width, height: div._fullLayout.height, error: null};
        } catch (e) { return {error: String(e)}; } finally { window.Plotly.purge(div); div.remove(); }
    }""")


def chart_control(page: Page, label: str):
    """The first chart's own control whose label holds ``label`` (viz/js/tune.js: a slider over a grid, a list, or a
    number box)."""
    return page.locator(f".dbls-tune [aria-label*={label!r}]").first


def set_chart_control(page: Page, label: str, value: str) -> None:
    """Move the chart's own control labelled ``label`` to the option ``value`` (its text, as the link spells it), as a
    user does: a slider dragged there and let go (its input events, then its change), a list's option picked, a number
    typed and Enter pressed."""
    el = chart_control(page, label)
    kind = el.evaluate("(e) => e.tagName === 'SELECT' ? 'select' : e.type")
    if kind == "select":
        el.select_option(value)
    elif kind == "number":
        el.fill(value)
        el.press("Enter")
    else:
        el.evaluate("""(e, text) => {
            const options = JSON.parse(e.dataset.options);
            const j = options.indexOf(text);
            if (j < 0) throw new Error(`no option ${text} on ${e.getAttribute('aria-label')}: ${options}`);
            e.value = String(j);
            e.dispatchEvent(new Event('input', {bubbles: true}));
            e.dispatchEvent(new Event('change', {bubbles: true}));
        }""", value)


def chart_control_value(page: Page, label: str) -> str:
    """The text the chart's own control labelled ``label`` shows."""
    return chart_control(page, label).evaluate(
        "(e) => e.type === 'range' ? e.getAttribute('aria-valuetext') : e.value")
