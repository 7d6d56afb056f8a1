"""Under each page's main chart: PNG and SVG of the figure as it stands, and the keyboard.

One small components-v2 component (:data:`CHART_TOOLS`) works in the browser:

- *PNG* and *SVG* call Plotly's own ``downloadImage`` on the chart, so the file
  is the figure at the step (or C) the slider shows, named after the view and it
  (``perceptron-cyclic-step12.svg``, ``svm-C0.1.png``);
- ← and → step the chart's slider, Home and End go to its ends (when no input
  field has the focus), so stepping needs no mouse.

A screen reader hears each chart's state from the chart itself (the scene renderer's own ``aria-live`` line).
"""

from __future__ import annotations

import re

import streamlit as st

from glue.scene_chart import CSS as SCENE_CSS
from viz.common import Chart, figure_dict
from viz.export import scene_html, standalone_html

_HTML = """<div class="dbl-tools" role="group" aria-label="Export this chart">
<button type="button" data-fmt="png" title="The chart as it stands, as a PNG image">PNG</button>
<button type="button" data-fmt="svg" title="The chart as it stands, as an SVG image (sharp at any size)">SVG</button>
<span class="dbl-keys">Keys: ← → step, Home / End first / last</span>
</div>"""

_CSS = """
.dbl-tools { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; font: inherit; }
.dbl-tools button { padding: 0.35rem 0.9rem; font: inherit; border-radius: 0.5rem; cursor: pointer;
  border: 1px solid var(--st-border-color, #8a8f98); background: var(--st-background-color, #fff);
  color: var(--st-text-color, #0d0d0d); }
.dbl-tools button:hover, .dbl-tools button:focus-visible { border-color: var(--st-primary-color, #0b57d0);
  color: var(--st-primary-color, #0b57d0); outline: 2px solid var(--st-primary-color, #0b57d0); }
.dbl-keys { color: var(--st-text-color, #31333f); opacity: 0.8; font-size: 0.9em; }
"""

# JS both components use: where a chart's slider stands. Only the scene renderer's charts (glue.scene_chart) move: a
# plot's view (what the renderer keeps of it, asked with its dbl-state event: viz/js/state.js) says its step, or the
# SVM's C, or the Loss surface's b; a still figure (viz/js/figure.js) has none.
SLIDER_JS = r"""
function viewOf(gd) {
  if (!gd) return null;
  const ev = new CustomEvent("dbl-state", {detail: {}, bubbles: true});
  gd.dispatchEvent(ev);
  return (ev.detail.state && ev.detail.state.view) || null;
}
function sliderAt(gd) {
  const v = viewOf(gd), p = v ? v.position() : null;  // null: nothing moves
  return p ? {slider: {currentvalue: {prefix: p.prefix}}, stop: {label: p.label}, step: p.step} : {slider: null, stop: null, step: null};
}
"""

_JS = SLIDER_JS + r"""
export default function(component) {
  const { data, parentElement } = component;
  const find = (key) => document.querySelector(`.st-key-${key} .dbls-plot`);  // (sketched or drawn: viz/js/sketch.js)
  const keys = parentElement.querySelector(".dbl-keys");  // what the keys move: the step, or the chart's C or b
  if (keys) keys.textContent = data.slider_name ? `Keys: ← → move ${data.slider_name}, Home / End its smallest / largest`
    : "Keys: ← → step, Home / End first / last";

  // where the chart stands, for a file's name: "-step12" at a step, "-C0.1" at the SVM's C, else ""
  function where(gd) {
    const {stop, step} = sliderAt(gd);
    if (!stop) return "";
    if (step !== null) return `-step${step}`;
    return data.slider_name && stop.label ? `-${data.slider_name}${stop.label}` : "";
  }
  for (const b of parentElement.querySelectorAll("button[data-fmt]")) {
    b.onclick = () => {
      const gd = find(data.chart);
      if (!gd || !window.Plotly) return;
      const fmt = b.dataset.fmt;
      const view = viewOf(gd);
      if (view) return view.image(fmt, data.name + where(gd));  // with the step's text written on it
      window.Plotly.downloadImage(gd, {format: fmt, filename: data.name + where(gd),
        width: gd._fullLayout.width, height: gd._fullLayout.height, scale: fmt === "png" ? 2 : 1});
    };
  }

  // the keyboard: ← → Home End move the chart's slider (not while typing in a field or on a widget's slider); one
  // listener for the page, which moves the chart the page's tools name last (the document's data-dbl-keys)
  const page = document.documentElement, listening = page.hasAttribute("data-dbl-keys");
  page.dataset.dblKeys = data.chart;
  if (!listening) {
    document.addEventListener("keydown", (ev) => {
      if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(ev.key)) return;
      const t = ev.target;
      if (t && t.closest && t.closest("input, textarea, select, [contenteditable=true], [role=slider], " +
                                      "[role=listbox], [role=combobox], [role=tab], [role=radiogroup]")) return;
      const view = viewOf(find(page.dataset.dblKeys));
      if (view && view.key(ev.key)) ev.preventDefault();  // (a still Plotly figure has nothing to move)
    });
  }
}
"""

CHART_TOOLS = st.components.v2.component("dbl_chart_tools", html=_HTML, css=_CSS, js=_JS)


def file_stem(*parts) -> str:
    """A file name from the view and its settings: ``file_stem("perceptron", "cyclic", "τ=0.1")`` -> ``perceptron-cyclic-tau0.1``."""
    text = "-".join(str(p) for p in parts if str(p))
    text = text.replace("τ", "tau").replace("η", "eta").replace("λ", "lam").replace("=", "")
    return re.sub(r"[^A-Za-z0-9._-]+", "", text.replace(" ", "-"))[:80] or "chart"


def chart_tools(chart: str, name: str, slider_name: str = "") -> None:
    """PNG/SVG buttons and keyboard stepping for the chart with key ``chart``.

    ``name`` starts the file names; ``slider_name`` prefixes a slider label that is not a step (``"C"``).
    """
    CHART_TOOLS(data={"chart": chart, "name": name, "slider_name": slider_name}, key=f"tools_{chart}")


def exports(chart: str, stem: str, fig: dict | Chart | bytes, title: str, *, slider_name: str = "", gif=None,
            csv=None) -> None:
    """The export row under a chart: PNG, SVG (in the browser), the figure as offline HTML, and a GIF and a CSV.

    Parameters
    ----------
    chart, stem, slider_name
        As for :func:`chart_tools`; ``stem`` names every file.
    fig : dict, Chart or bytes
        The figure shown, or the scene record the renderer draws (:mod:`viz.scene`): written as a standalone
        HTML file when its button is clicked.
    title : str
        The HTML page's title.
    gif : callable, optional
        Makes the GIF's bytes when clicked (a rerun costs nothing).
    csv : (str, callable), optional
        The CSV button's label and what makes its text when clicked.
    """
    chart_tools(chart, stem, slider_name)
    if isinstance(fig, bytes):
        html_label, make_html = "Animation (HTML, plays offline)", lambda: scene_html(fig, title, SCENE_CSS)
    else:  # a still figure
        html_label, make_html = "Chart (HTML, offline)", lambda: standalone_html(figure_dict(fig), title)
    # no :material/…: icons in the app (tests/test_e2e_offline.py): a page's icon becomes the tab's icon, fetched
    # from fonts.gstatic.com, and a lecture hall may be offline; the labels say what each button does
    files = [(html_label, make_html, "html", "text/html")]
    if gif is not None:
        files.append(("Animation (GIF)", gif, "gif", "image/gif"))
    if csv is not None:
        files.append((csv[0], csv[1], "csv", "text/csv"))
    row = st.container(horizontal=True, gap="small")  # each button as wide as its label, wrapping on a narrow screen
    for label, make, ext, mime in files:
        row.download_button(label, make, file_name=f"{stem}.{ext}", mime=mime, on_click="ignore", width="content")
