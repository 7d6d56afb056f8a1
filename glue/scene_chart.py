"""The scene renderer as a Streamlit component: the page sends a scene's bytes, the browser draws it.

:data:`SCENE` is a components-v2 component around the renderer (the ES modules of ``viz/js``: :mod:`viz.renderer`)
and the plotly.js the installed ``plotly`` package ships, both served by this app from ``static/`` (:func:`serve_assets`),
so no page asks another host for anything. The component's own code is a few lines that import the renderer's entry
module from there (a component's code travels inside every message that draws it). Stepping, scrubbing, Play and the keys move in the browser with
no message to the server; a new scene (a new run) is one message of typed arrays.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import streamlit as st

from viz import renderer
from viz.export import katex_css, katex_module

STATIC = Path(__file__).resolve().parent.parent / "static"

CSS = """
.st-key-dbl_scene_preload { display: none; }  /* (glue.scene_chart.preload_renderer: nothing to see) */
.dbls-tune { display: flex; flex-wrap: wrap; gap: 0.3rem 1.4rem; align-items: center; margin: 0 0 0.4rem;
  color: var(--st-text-color, #0d0d0d); font-size: 0.95em; }
.dbls-tune-big { font-size: 0.8em; margin: 0.6rem 0 0; }  /* presentation mode: under the chart */
.dbls-knob { display: flex; align-items: center; gap: 0.5rem; }
.dbls-knob[hidden] { display: none; }
.dbls-knob input[type=range] { width: 12rem; accent-color: var(--st-primary-color, #0b57d0); }
.dbls-tune-big .dbls-knob input[type=range] { width: 8rem; }
.dbls-knob output { min-width: 3.2em; font-variant-numeric: tabular-nums; font-weight: 600; }
.dbls-knob select, .dbls-knob input[type=number] { font: inherit; padding: 0.2rem 0.4rem; border-radius: 0.4rem;
  border: 1px solid var(--st-border-color, #8a8f98); background: var(--st-background-color, #fff); color: inherit; }
.dbls-knob input[type=number] { width: 6.5em; }
.dbls-knob :focus-visible { outline: 2px solid var(--st-primary-color, #0b57d0); outline-offset: 2px; }
.dbls-knob-off { opacity: 0.45; }
.dbls { font: inherit; color: var(--st-text-color, #0d0d0d); background: #fff; }
.dbls-text { min-height: 4.3em; line-height: 1.45; font-size: 1.02em; overflow-wrap: anywhere; }
.dbls-quiz-text { min-height: 0; }  /* the quiz's words appear once answered: no room kept for them */
.dbls-figure { display: flex; flex-direction: column; }
.dbls-wide .dbls-figure { flex-direction: row; align-items: flex-start; }
.dbls-stage, .dbls-strip { position: relative; }
.dbls-side { display: grid; grid-template-columns: var(--dbls-s) minmax(0, 1fr); column-gap: 16px; align-items: start; }
.dbls-side .dbls-figure { display: contents; }
.dbls-side .dbls-stage { grid-column: 1; grid-row: 1 / span 4; }
.dbls-side .dbls-text { grid-column: 2; grid-row: 1; }
.dbls-side .dbls-legend { grid-column: 2; grid-row: 2; }
.dbls-side .dbls-strip { grid-column: 2; grid-row: 3; }
.dbls-side .dbls-state, .dbls-side .dbls-controls, .dbls-side .dbls-error { grid-column: 1 / -1; }
.dbls-under, .dbls-over, .dbls-strip-over { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
.dbls-under { z-index: 0; } .dbls-plot { position: relative; z-index: 1; } .dbls-over { z-index: 2; }
.dbls-strip-plot { position: relative; z-index: 1; } .dbls-strip-over { z-index: 2; }
.dbls-legend { display: flex; flex-wrap: wrap; align-content: flex-start; gap: 0.1rem 0.6rem; padding: 0.2rem 0 0.3rem 0.3rem; font-size: 0.86em; }
.dbls-wide .dbls-legend { flex-direction: column; flex-wrap: nowrap; gap: 0.15rem; padding: 0.3rem 0 0 0.6rem; }
.dbls-legend button { display: flex; align-items: center; gap: 0.35rem; border: 0; background: none; padding: 0.1rem 0.2rem;
  font: inherit; color: inherit; cursor: pointer; text-align: left; border-radius: 0.3rem; }
.dbls-legend button[aria-pressed=false] { opacity: 0.4; text-decoration: line-through; }
.dbls-legend button:focus-visible { outline: 2px solid var(--st-primary-color, #0b57d0); }
.dbls .js-plotly-plot:focus-visible { outline: 2px solid var(--st-primary-color, #0b57d0); outline-offset: 2px; }
.dbls-legend svg { flex: none; }
.dbls-state { margin-top: 0.15rem; font-size: 0.98em; overflow-wrap: anywhere; }
.dbls-controls { display: flex; flex-wrap: wrap; gap: 0.4rem; align-items: center; margin-top: 0.35rem; }
.dbls-controls button { padding: 0.3rem 0.8rem; font: inherit; border-radius: 0.5rem; cursor: pointer;
  border: 1px solid var(--st-border-color, #8a8f98); background: var(--st-background-color, #fff);
  color: var(--st-text-color, #0d0d0d); }
.dbls-controls button:hover, .dbls-controls button:focus-visible { border-color: var(--st-primary-color, #0b57d0);
  color: var(--st-primary-color, #0b57d0); outline: 2px solid var(--st-primary-color, #0b57d0); }
.dbls-controls button:disabled { opacity: 0.45; cursor: default; outline: none; }
.dbls-playing [data-go=play], .dbls-playing [data-go=fast] { background: var(--st-secondary-background-color, #eef1f5); }
.dbls-range { flex: 1 1 12rem; min-width: 10rem; accent-color: var(--st-primary-color, #0b57d0); }
.dbls-at { min-width: 9.5em; font-variant-numeric: tabular-nums; white-space: nowrap; }  /* (Stepping.show: its run's longest) */
/* presentation mode: a shorter slider, so that the step (C, b) stands in the row of buttons at 1024 px, not under it,
   and the chart above gains that row's height */
.dbls-big .dbls-range { flex-basis: 8rem; min-width: 6rem; }
.dbls-live { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.dbls-panels { display: flex; flex-direction: column; gap: 16px; align-items: flex-start; }
.dbls-two .dbls-panels { flex-direction: row; }
.dbls-dside { display: grid; grid-template-columns: var(--dbls-s) var(--dbls-g) minmax(0, 1fr); column-gap: 16px;
  align-items: start; }
.dbls-dside .dbls-panels { display: contents; }
.dbls-dside .dbls-data { grid-column: 1; grid-row: 1; }
.dbls-dside .dbls-gram { grid-column: 2; grid-row: 1; }
.dbls-dside .dbls-text { grid-column: 3; grid-row: 1; }
.dbls-dside-l .dbls-data, .dbls-dside-l .dbls-gram { grid-row: 1 / span 2; }
.dbls-dside-l .dbls-legend { grid-column: 3; grid-row: 2; }
.dbls-dside:not(.dbls-dside-l) .dbls-legend, .dbls-dside .dbls-strip, .dbls-dside .dbls-state, .dbls-dside .dbls-controls, .dbls-dside .dbls-error { grid-column: 1 / -1; }
.dbls-dside.dbls-dside-n { row-gap: 8px; }
.dbls-dside.dbls-dside-n .dbls-data { grid-row: 1 / span 2; }
.dbls-dside.dbls-dside-n .dbls-text { grid-column: 2 / span 2; }
.dbls-dside.dbls-dside-n .dbls-gram { grid-column: 2; grid-row: 2; }
.dbls-dside.dbls-dside-n .dbls-legend { grid-column: 3; grid-row: 2; }
/* the Loss page's data chart (lossdata.js): its state a line each; where weights are clicked, room for the longest
   (w and b, M in two lines, the losses), so that the plot keeps its size and place from one click to the next */
.dbls-ld-title { line-height: 1.3; font-size: 0.95em; color: #31333f; margin-bottom: 0.2rem; }
.dbls-ld-state { white-space: pre-line; line-height: 1.4; }
.dbls-ld-clicks .dbls-ld-state { min-height: 5.6em; }
.dbls-ld-side { display: grid; grid-template-columns: var(--dbls-s) minmax(0, 1fr); column-gap: 16px; align-items: start; }
.dbls-ld-side .dbls-figure { display: contents; }
.dbls-ld-side .dbls-ld-title { grid-column: 1 / -1; }
.dbls-ld-side .dbls-stage { grid-column: 1; grid-row: 2 / span 2; }
.dbls-ld-side .dbls-legend { grid-column: 2; grid-row: 2; flex-direction: column; flex-wrap: nowrap; gap: 0.15rem; }
.dbls-ld-side .dbls-ld-state { grid-column: 2; grid-row: 3; }
.dbls-canvas { position: absolute; left: 0; top: 0; z-index: 0; pointer-events: none; }
.dbls-canvas-over { z-index: 2; }
.dbls-tip { position: absolute; z-index: 3; pointer-events: none; background: rgba(255,255,255,0.96); border: 1px solid #999;
  border-radius: 0.3rem; padding: 0.2rem 0.45rem; font-size: 0.85em; line-height: 1.35; white-space: nowrap; color: #222; }
.dbls-lines { white-space: pre-line; }
.dbls-one .dbls-controls { display: none; }
.dbls-cmp { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px 16px; }
.dbls-cmp-two .dbls-cmp { grid-template-columns: var(--dbls-p) var(--dbls-p); }
.dbls-cmp-panel .dbls-stage { width: fit-content; margin: 0 auto; }
/* the legend in a column beside the panels (Compare, the Loss surface: presentation mode), all else under both */
.dbls-beside { display: grid; grid-template-columns: minmax(0, 1fr) var(--dbls-l); column-gap: 16px; align-items: start; }
.dbls-beside > .dbls-cmp, .dbls-beside > .dbls-loss { grid-column: 1; grid-row: 1; }
.dbls-beside > .dbls-legend { grid-column: 2; grid-row: 1; flex-direction: column; flex-wrap: nowrap; gap: 0.15rem; padding-top: 3em; }
.dbls-beside > .dbls-loss ~ .dbls-legend { padding-top: 2.5em; }
.dbls-beside > :not(.dbls-cmp):not(.dbls-loss):not(.dbls-legend) { grid-column: 1 / -1; }
.dbls-cmp-title { text-align: center; white-space: pre-line; line-height: 1.3; min-height: 2.6em; }
.dbls-cmp-title::first-line { font-weight: 600; }
.dbls-cmp-state { white-space: pre-line; font-size: 0.92em; line-height: 1.4; min-height: 4.2em; overflow-wrap: anywhere; }
.dbls-failed .dbls-cmp, .dbls-failed .dbls-loss { opacity: 0.25; }
.dbls-loss { display: grid; grid-template-columns: repeat(var(--dbls-cols, 1), minmax(0, 1fr)); gap: 8px 16px; }
.dbls-loss-title { text-align: center; line-height: 1.3; min-height: 1.4em; }
.dbls-loss + .dbls-state { white-space: pre-line; }
/* the Loss page's data chart under the surface (loss.js: placeWords): the surface's words and controls over its panels */
.dbls-data-below { display: flex; flex-direction: column; }
.dbls-data-below > * { order: 1; }
.dbls-data-below > .dbls-math { order: 0; margin: 0 0 0.3rem; border-top: 0; }
.dbls-data-below > .dbls-loss { order: 2; margin-top: 0.4rem; }
.dbls-loss-panel .dbls-stage { width: fit-content; margin: 0 auto; }
.dbls-error { padding: 0.8rem 1rem; border-radius: 0.5rem; background: #fdecea; color: #7a1c12; }
.dbls-math, .dbls-proof, .dbls-margins { margin-top: 0.45rem; border-top: 1px solid #e3e5e8; padding-top: 0.25rem; }
.dbls-math summary, .dbls-proof summary, .dbls-margins summary { cursor: pointer; font-size: 0.92em; color: #31333f; padding: 0.1rem 0; }
.dbls-math-row { display: grid; grid-template-columns: 6.5em minmax(0, 1fr); column-gap: 0.6em; align-items: center; }
.dbls-math-label { font-size: 0.88em; color: #555; }
.dbls-math-note { padding: 0.3em 0; }
.dbls-math-cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 0 1.5rem; }
.dbls-math-cols .dbls-math-row { grid-template-columns: minmax(0, 1fr); }
.dbls-math-cols .dbls-math-label:empty { display: none; }
.dbls-math-title { font-weight: 600; font-size: 0.92em; margin-top: 0.3em; }
.dbls-lesson-why { margin: 0.3em 0 0.2em; font-size: 0.95em; line-height: 1.45; }
.dbls-math-tex { overflow-x: auto; overflow-y: hidden; scrollbar-width: thin; }
.dbls-math-body { container-type: inline-size; }
@container (max-width: 46rem) { .dbls-math .katex { font-size: 0.96em; } .dbls-math-row { grid-template-columns: minmax(0, 1fr); }
  .dbls-math-label:empty { display: none; } .dbls-math-label { margin-top: 0.2em; } }
.dbls-math .katex, .dbls-proof .katex { font-size: 1.08em; }
.dbls-math .katex-display, .dbls-proof .katex-display { margin: 0.2em 0; text-align: left; }
.dbls-math .katex-display > .katex, .dbls-proof .katex-display > .katex { text-align: left; }
.dbls-side .dbls-math, .dbls-side .dbls-proof, .dbls-side .dbls-margins, .dbls-dside .dbls-math, .dbls-dside .dbls-margins { grid-column: 1 / -1; }
.dbls-failed .dbls-figure, .dbls-failed .dbls-panels, .dbls-failed .dbls-strip, .dbls-failed .dbls-controls, .dbls-failed .dbls-text,
.dbls-failed .dbls-state { opacity: 0.25; }
.dbls-waiting .dbls-figure > *, .dbls-waiting > .dbls-strip, .dbls-waiting > .dbls-text, .dbls-waiting > .dbls-state,
.dbls-waiting > .dbls-math, .dbls-waiting > .dbls-proof, .dbls-waiting > .dbls-margins { opacity: 0.3; transition: opacity 0.2s; }
/* (the figure's parts: the side layout's figure is display: contents, which takes no opacity) */
"""

RENDERER_DIR = f"dbl-{renderer.version()}"  # static/dbl-<hash>/: the modules, a folder a version (fetched anew)
ENTRY_URL = f"app/static/{RENDERER_DIR}/{renderer.ENTRY}"
LOADER_JS = f"""const url = new URL("{ENTRY_URL}", window.location.href).toString();
export default function (component) {{
  import(url).then((m) => m.default(component)).catch(() => {{
    const box = component.parentElement.querySelector(".dbls") || component.parentElement;
    if (component.data === null || component.data === undefined) return;
    box.innerHTML = '<div class="dbls-error" role="alert">This chart cannot be drawn: its renderer could not be ' +
      'loaded from this server ({RENDERER_DIR}/{renderer.ENTRY}).</div>';
  }});
}}
"""

# the chart's element asks the browser for plotly.js and every module of the renderer as soon as it is drawn, before the
# component's own script has loaded: the renderer's requests then find them fetched. plotly.js is evaluated only
# after a new tab's first chart is sketched without it (viz/js/sketch.js)
PRELOAD = '<link rel="preload" as="script" href="app/static/plotly.min.js">' + "".join(
    f'<link rel="modulepreload" href="app/static/{RENDERER_DIR}/{name}">' for name in renderer.order())
SCENE = st.components.v2.component("dbl_scene", html=f'{PRELOAD}<div class="dbls"></div>', css=CSS, js=LOADER_JS,
                                   isolate_styles=False)


KATEX_FILE = "katex.js"  # the formulas' typesetter: the KaTeX module the installed Streamlit ships, served as is
KATEX_CSS = "katex.css"  # Streamlit's own KaTeX rules for the classes that module names differently (viz.export)


def _place(target: Path, write) -> None:
    """Write ``target`` through a temporary file (another server starting at once never reads half of it)."""
    STATIC.mkdir(exist_ok=True)
    tmp = target.with_suffix(f".tmp{os.getpid()}")  # one per process: two servers starting at once never share it
    write(tmp)
    tmp.replace(target)


_placed = False  # the assets are in static/ for this server process (they change only with the installed packages)


def serve_assets() -> None:
    """Put the installed plotly.js, Streamlit's own KaTeX and the scene renderer in ``static/``, where they are not
    there or differ (once per server process; again on the next run if placing them failed)."""
    global _placed
    if _placed:
        return
    import plotly

    source = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    target = STATIC / "plotly.min.js"
    try:
        if not target.exists() or target.stat().st_size != source.stat().st_size:
            _place(target, lambda tmp: shutil.copyfile(source, tmp))
        katex, placed, sheet = katex_module(), STATIC / KATEX_FILE, STATIC / KATEX_CSS
        if katex is not None and (not placed.exists() or not sheet.exists() or placed.stat().st_size != katex.stat().st_size):
            _place(placed, lambda tmp: shutil.copyfile(katex, tmp))
            rules = katex_css(katex)
            _place(sheet, lambda tmp: tmp.write_text(rules, encoding="utf-8"))
        folder = STATIC / RENDERER_DIR
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in renderer.modules().items():
            module = folder / name
            if not module.exists() or module.read_text(encoding="utf-8") != text:
                _place(module, lambda tmp, text=text: tmp.write_text(text, encoding="utf-8"))
        _placed = True
    except OSError as exc:  # a read-only install: the charts then say that they could not be loaded
        st.warning(f"Could not place the chart scripts in {STATIC} ({exc}); the step-through charts need them.")


def preload_renderer() -> None:
    """Start fetching plotly.js in the browser now, while the server builds the page's scene (the sidebar's first
    element, not shown: CSS)."""
    with st.sidebar:
        SCENE(data=None, key="dbl_scene_preload")


def show_scene(blob: bytes, key: str, **callbacks) -> None:
    """Draw a scene record (:mod:`viz.scene`) in the element keyed ``key``; ``callbacks`` (``on_pick_change``: the
    Loss page's weight clicked) run when the chart reports a value, which is then in ``st.session_state[key]``."""
    SCENE(data=blob, key=key, **callbacks)
