"""Charts as files for slides: standalone HTML pages that open offline.

A scene chart is written with its record and the app's renderer (:func:`scene_html`: it steps and plays as in the
app); a still Plotly figure with plotly.js (:func:`standalone_html`). PNG and SVG of a chart as it stands are made in
the browser by Plotly itself (``glue.chart_tools``); the GIF is drawn with Pillow from the record (``viz.gif``).
"""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path

import plotly.io as pio

CONFIG = {"displaylogo": False, "responsive": True, "scrollZoom": False}


def standalone_html(fig: dict, title: str) -> str:
    """The still figure ``fig`` as one HTML file with plotly.js inside: it opens with no network.

    Parameters
    ----------
    fig : dict
        A still figure as the viz builders make it (the Loss surface's θ slice and 3-D view).
    title : str
        The page's title and heading (escaped).

    Returns
    -------
    str
        About 4.7 MB of which plotly.js is about 4.6 MB.
    """
    body = pio.to_html(fig, config=CONFIG, auto_play=False, include_plotlyjs=True, full_html=True,
                       validate=False, default_width="100%", default_height=f"{fig['layout'].get('height', 700)}px")
    safe = html.escape(title)
    head = f"<title>{safe}</title><meta name='generator' content='Decision Boundary Lab'>"
    heading = (f"<h1 style='font-family: Helvetica, Arial, sans-serif; font-size: 22px; margin: 8px 12px'>{safe}</h1>")
    charset = '<meta charset="utf-8" />'
    body = body.replace(charset, charset + head, 1) if charset in body else body.replace("<head>", "<head>" + head, 1)
    return body.replace("<body>", "<body>" + heading, 1)


def katex_module() -> Path | None:
    """The stand-alone KaTeX ES module the installed Streamlit ships (``static/static/js/katex.<hash>.js``; its
    Markdown carries a KaTeX of its own), or None if this Streamlit has none (the formulas then say that they could not
    be typeset)."""
    spec = importlib.util.find_spec("streamlit")
    if spec is None or spec.origin is None:
        return None
    found = sorted((Path(spec.origin).parent / "static" / "static" / "js").glob("katex.*.js"))
    return found[0] if found else None


def katex_css(module: Path | None = None) -> str:
    """The style rules the KaTeX module of :func:`katex_module` needs beyond the ones every Streamlit page has.

    Streamlit's style sheet is written for the KaTeX inside its Markdown renderer, whose classes are unprefixed
    (``.sizing``, ``.base``…); the stand-alone module names some of the same classes ``katex-sizing``,
    ``katex-base``…. These are Streamlit's own ``.katex`` rules for those classes, with the module's names, so
    sub- and superscripts, fractions and sums are set at their sizes. Empty if either file cannot be read.
    """
    module = module or katex_module()
    sheets = sorted(module.parent.parent.glob("css/index.*.css")) if module else []
    if module is None or not sheets:
        return ""
    renamed = sorted({m[len("katex-"):] for m in re.findall(r"katex-[a-z0-9-]+", module.read_text(encoding="utf-8"))}
                     - {"display", "error", "html", "mathml", "version"}, key=len, reverse=True)
    if not renamed:
        return ""
    pattern = re.compile(r"\.(" + "|".join(map(re.escape, renamed)) + r")(?![\w-])")
    out = []
    for selector, body in re.findall(r"([^{}]*\.katex[^{}]*)\{([^{}]*)\}", sheets[0].read_text(encoding="utf-8")):
        if pattern.search(selector):
            out.append(pattern.sub(r".katex-\1", selector.strip()) + "{" + body + "}")
    return "\n".join(out)


def _katex_inline() -> str:
    """KaTeX's module with its one export set on ``window.katex`` instead, for the offline file; empty if it cannot be
    had."""
    path = katex_module()
    if path is None:
        return ""
    text, n = re.subn(r"export\s*\{\s*([\w$]+)\s+as\s+default\s*\}\s*;?\s*$", r"window.katex=\1;", path.read_text(encoding="utf-8"))
    return text.replace("</script", "<\\/script") if n == 1 else ""


def scene_html(blob: bytes, title: str, css: str = "") -> str:
    """A scene record (:mod:`viz.scene`) as one HTML file: plotly.js, the app's own renderer and the scene inside.

    It opens and steps (Back, Next, the slider, Play, the keys) with no network and no server, drawn by the
    same renderer as the app, so the file shows what the page showed.

    Parameters
    ----------
    blob : bytes
        The scene record.
    title : str
        The page's title and heading (escaped).
    css : str
        The renderer's style sheet (``glue.scene_chart``).
    """
    import base64

    import plotly

    from viz.renderer import bundle

    plotly_js = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_text(encoding="utf-8")
    module = bundle().replace("export default function (component)", "function component(component)", 1)
    data = base64.b64encode(blob).decode("ascii")
    safe = html.escape(title)
    # "</" cannot close the script early: plotly.js and the renderer are written as they are, inside <script>
    plotly_js = plotly_js.replace("</script", "<\\/script")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{safe}</title>
<meta name="generator" content="Decision Boundary Lab">
<style>body {{ font-family: Inter, Segoe UI, Helvetica, Arial, sans-serif; font-size: 17px; margin: 8px 16px;
color: #0d0d0d; }} h1 {{ font-size: 22px; margin: 8px 0; }} {css}</style>
<script>{plotly_js}</script>
<script type="module">{_katex_inline()}</script></head>
<body><h1>{safe}</h1><div class="dbls" id="scene"></div>
<script type="module">
{module}
const raw = atob("{data}");
const bytes = new Uint8Array(raw.length);
for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
// the view and the renderer's own functions, for tests and the curious (this file's names, not the renderer's)
mountScene(document.getElementById("scene"), bytes, {{standalone: true}}).then((view) => {{ window.__dblView = view; }});
window.__dbl = {{mountScene, num, decode, setControl: (label, text) => {{ setTuned(label, text); syncControls(); }}}};
document.addEventListener("keydown", (ev) => {{ if (window.__dblView && window.__dblView.key(ev.key)) ev.preventDefault(); }});
</script></body></html>
"""
