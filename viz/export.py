"""Figures as files for slides: a standalone HTML page that plays offline.

PNG and SVG of the figure as it stands are made in the browser by Plotly itself
(``views.chart_tools``); the GIF is drawn from NumPy (``viz.gif``).
"""

from __future__ import annotations

import html

import plotly.io as pio

CONFIG = {"displaylogo": False, "responsive": True, "scrollZoom": False}


def standalone_html(fig: dict, title: str) -> str:
    """``fig`` as one HTML file with plotly.js inside: it opens and plays with no network.

    Parameters
    ----------
    fig : dict
        A figure as the viz builders make it; its frames, slider and Play/Back/Next buttons work as in the app.
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
