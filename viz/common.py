"""Shared pieces of every figure: palette, number formatting, geometry, the hand-off to Plotly.

Figures are built as plain dicts (validated ``go.Frame`` objects are ~25×
slower to build). No Streamlit here.
"""

from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass, replace

import numpy as np

# Okabe–Ito colour-blind-safe palette: +1 blue, −1 vermillion.
POS_COLOUR = "#0072B2"
NEG_COLOUR = "#D55E00"
POS_REGION = "rgba(0, 114, 178, 0.10)"
NEG_REGION = "rgba(213, 94, 0, 0.10)"
POS_SYMBOL = "circle"
NEG_SYMBOL = "diamond"
INK = "#222222"
HIGHLIGHT = "rgba(240, 228, 66, 0.55)"  # Okabe–Ito yellow, translucent: the point(s) being examined
HIGHLIGHT_LINE = "#8A7D00"
UPDATE_COLOUR = "#009E73"  # Okabe–Ito bluish green, for τ·y·x
FONT = {"family": "Inter, Segoe UI, Helvetica, Arial, sans-serif", "size": 16, "color": INK}


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(i: int) -> str:
    """Unicode subscript digits: 12 -> '₁₂'."""
    return str(i).translate(_SUB)


def c_label(v: float) -> str:
    """C as the pages write it (their C controls, the Compare panel's title): 0.001, 0.5623, 10, 1000."""
    return f"{v:g}"


def num(v: float, digits: int = 3) -> str:
    """A number as a student writes it: 1.0 -> '1', -0.5 -> '−0.5', 1/3 -> '0.333'."""
    v = float(v)
    if not math.isfinite(v):
        return str(v)
    if abs(v) < 1e-12:  # rounding noise of a sum that is 0 (e.g. 0.1 + 0.2 − 0.3)
        return "0"
    if abs(v) >= 1e5 or (v != 0 and abs(v) < 10 ** -digits):
        s = f"{v:.{digits}g}"
    else:
        s = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return s.replace("-", "−")


def vec(v, digits: int = 3) -> str:
    """A vector as '(1, −2.5)' (each entry as :func:`num` writes it)."""
    vals = v if isinstance(v, list | tuple) else np.asarray(v, dtype=float).reshape(-1).tolist()
    return "(" + ", ".join(num(x, digits) for x in vals) + ")"


def names(idx, limit: int = 6) -> str:
    """'x₁, x₄, …' for point indices (0-based in, 1-based out)."""
    idx = [int(i) for i in idx]
    s = ", ".join(f"x{sub(i + 1)}" for i in idx[:limit])
    return s + (f", … ({len(idx):,} in all)" if len(idx) > limit else "")


def state_line(step: int, n_steps: int, w, b: float, mistakes, n: int, extra: str = "") -> str:
    """The chart's state in one plain line, for the text under a chart (and screen readers).

    E.g. ``"Step 5 of 7: w = (0, 0), b = −2; misclassified: x₃ (1 of 40)"``.

    Parameters
    ----------
    step, n_steps : int
        The step shown and the run's last step.
    w : array-like of shape (d,)
    b : float
    mistakes : array-like of int
        Indices (0-based) of the misclassified points at (w, b).
    n : int
        The number of points.
    extra : str
        Appended after a semicolon when given (e.g. "margin 2/‖w‖ = 1.2").
    """
    return state_text(f"Step {int(step):,} of {int(n_steps):,}", f"w = {vec(w)}, b = {num(b)}", mistakes, n, extra)


def mistakes_text(mistakes, n: int, limit: int = 6) -> str:
    """The misclassified points in words: 'misclassified: x₃, x₇ (2 of 40)', 'no point misclassified (0 of 40)',
    or, past ``limit`` names, '23 of 40 misclassified: x₁, x₂, …, x₆, …'.

    Parameters
    ----------
    mistakes : array-like of int
        Indices (0-based) of the misclassified points.
    n : int
        The number of points.
    limit : int
        Most points named.
    """
    mis = [int(i) for i in mistakes]
    if not mis:
        return f"no point misclassified (0 of {int(n):,})"
    if len(mis) <= limit:
        return f"misclassified: {names(mis)} ({len(mis):,} of {int(n):,})"
    return f"{len(mis):,} of {int(n):,} misclassified: {names(mis[:limit])}, …"


def state_text(head: str, params: str, mistakes, n: int, extra: str = "", limit: int = 6, sep: str = "; ") -> str:
    """:func:`state_line` with any head and parameters: 'C = 1: w = (1, 0), b = −2; misclassified: x₃ (1 of 40)'.

    Parameters
    ----------
    head : str
        What the chart is at ("Step 5 of 7", "C = 1"); empty for none.
    params : str
        The classifier's parameters in words ("w = (1, 0), b = −2", "2 of 40 αᵢ > 0, b = 1").
    mistakes : array-like of int
        Indices (0-based) of the misclassified points.
    n : int
        The number of points.
    extra : str
        Appended after ``sep`` when given.
    limit : int
        Most misclassified points named.
    sep : str
        Between the parts ("; ", or "<br>" for a line each).
    """
    parts = [f"{head}: {params}" if head else params, mistakes_text(mistakes, n, limit)]
    return sep.join(parts + ([extra] if extra else []))


def gaps(a: np.ndarray, nd: int = 4) -> list:
    """Coordinates with NaN gaps as JSON-ready floats (rounded) with None gaps."""
    return [None if v != v else v for v in np.round(np.asarray(a, dtype=float), nd).tolist()]


def view_box(X: np.ndarray, pad: float = 0.12) -> tuple[float, float, float, float]:
    """A square view around the points with a margin: (x0, x1, y0, y1).

    The origin is included when it lies near the data (within the data's
    span), so that w, drawn from the origin, and lines through it stay in view.

    Parameters
    ----------
    X : ndarray of shape (n, 2)

    Returns
    -------
    tuple of 4 floats
        (x₁ min, x₁ max, x₂ min, x₂ max), a square.
    """
    lo, hi = X.min(axis=0), X.max(axis=0)
    if np.all(lo - (hi - lo).max() <= 0) and np.all(hi + (hi - lo).max() >= 0):
        lo, hi = np.minimum(lo, 0.0), np.maximum(hi, 0.0)
    span = float(max((hi - lo).max(), 1e-9))
    c = (lo + hi) / 2
    half = span / 2 * (1 + 2 * pad) + 0.5 * (span < 1e-6)
    return float(c[0] - half), float(c[0] + half), float(c[1] - half), float(c[1] + half)


def widened(box, k: float = 1.0) -> tuple[float, float, float, float]:
    """The box grown by k times its width on every side: lines and regions drawn there reach past the view."""
    span = box[1] - box[0]
    return box[0] - k * span, box[1] + k * span, box[2] - k * span, box[3] + k * span


def clip_polygon(poly, a0: float, a1: float, c: float) -> list[tuple[float, float]]:
    """The part of a convex polygon where a0·x + a1·y + c ≥ 0 (one Sutherland–Hodgman pass).

    Parameters
    ----------
    poly : list of (x, y)
        Vertices in order.
    a0, a1, c : float
    """
    out = []
    for k, p in enumerate(poly):
        q = poly[(k + 1) % len(poly)]
        fp, fq = a0 * p[0] + a1 * p[1] + c, a0 * q[0] + a1 * q[1] + c
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def clip_halfplane(box, w, b, sign: float) -> list[tuple[float, float]]:
    """The part of the view box where sign·(w·x + b) >= 0, as polygon vertices.

    Parameters
    ----------
    box : (x0, x1, y0, y1)
    w : array_like of shape (2,)
    b : float
    sign : +1 or −1
    """
    x0, x1, y0, y1 = box
    return clip_polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], sign * float(w[0]), sign * float(w[1]),
                        sign * float(b))


def boundary_segment(box, w, b) -> tuple[list[float], list[float]]:
    """The line w·x + b = 0 clipped to a box.

    Parameters
    ----------
    box : (x0, x1, y0, y1)
    w : array_like of shape (2,)
    b : float

    Returns
    -------
    xs, ys : list of float
        The segment's two endpoints ([x_a, x_b], [y_a, y_b]); both empty when w = 0 or the line misses.
    """
    w = np.asarray(w, dtype=float)
    norm = float(np.abs(w).max())
    if norm == 0:
        return [], []
    w, b = w / norm, float(b) / norm  # same line, well-scaled coefficients
    pts = []
    x0, x1, y0, y1 = box
    if abs(w[1]) > 1e-12:
        for x in (x0, x1):
            y = -(w[0] * x + b) / w[1]  # solve w₁x + w₂y + b = 0 for y
            if y0 - 1e-12 <= y <= y1 + 1e-12:
                pts.append((x, y))
    if abs(w[0]) > 1e-12:
        for y in (y0, y1):
            x = -(w[1] * y + b) / w[0]
            if x0 - 1e-12 <= x <= x1 + 1e-12:
                pts.append((x, y))
    if len(pts) < 2:
        return [], []
    pts.sort()
    a, c = pts[0], pts[-1]
    return [a[0], c[0]], [a[1], c[1]]


_DTYPES = {"u1": np.uint8, "u2": np.uint16, "i4": np.int32, "f4": np.float32}


def typed_array(a, dtype: str = "f4") -> dict:
    """An array as Plotly's typed-array JSON (base64 of "u1", "u2", "i4" or "f4"), far shorter than text.

    Parameters
    ----------
    a : array-like of shape (n,) or (n, m)
    dtype : {"u1", "u2", "i4", "f4"}
    """
    arr = np.ascontiguousarray(a, dtype=_DTYPES[dtype])
    out = {"dtype": dtype, "bdata": base64.b64encode(arr.tobytes()).decode("ascii")}
    if arr.ndim == 2:
        out["shape"] = f"{arr.shape[0]}, {arr.shape[1]}"
    return out


@dataclass(frozen=True, eq=False)
class Chart:
    """A figure serialized once, where it was built: the JSON its scene record carries, and what a page reads.

    A page that caches a :class:`Chart` sends its JSON on every rerun without serializing the figure
    again (:func:`viz.scene.figure_scene`), and a worker process hands back one string instead of a tree of
    lists and dicts.

    Attributes
    ----------
    json : str
        ``plotly.io.to_json`` of the figure (with :func:`readable` applied).
    meta : dict
        The figure's ``layout.meta`` (what the page says about it).
    height : int or None
        ``layout.height`` in px.
    """

    json: str
    meta: dict
    height: int | None

    def figure(self) -> dict:
        """The figure as a dict again (for an export or a link's step; NaN comes back as None)."""
        return json.loads(self.json)


def serialized(fig: dict) -> Chart:
    """``fig`` as a :class:`Chart`: :func:`readable` applied, then serialized (``plotly.io.to_json``)."""
    import plotly.io as pio

    layout = fig.get("layout", {})
    return Chart(pio.to_json(readable(fig), validate=False), layout.get("meta", {}), layout.get("height"))


def figure_dict(fig: dict | Chart) -> dict:
    """The figure as a dict: ``fig`` itself, or a :class:`Chart` parsed back (an export, a link's step)."""
    return fig.figure() if isinstance(fig, Chart) else fig


GL_POINTS = 2000  # above this many points, drawn with WebGL (viz/js/draw.js: GL_POINTS)


def points_figure(X: np.ndarray, y: np.ndarray, height: int = 560, note: str = "") -> dict:
    """The points alone on the plane (a page shows it when its method cannot run on them yet).

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Labels in {−1, +1}; n may be 0. Below three points the view is [−5, 5]² (widened to hold them).
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y).reshape(-1)
    box = view_box(X) if len(y) >= 3 else (-5.0, 5.0, -5.0, 5.0)
    if 0 < len(y) < 3:  # a steady view while the first points go in: [−5, 5]², widened to hold them
        lo, hi = min(-5.0, float(X.min()) - 1), max(5.0, float(X.max()) + 1)
        box = (lo, hi, lo, hi)
    traces, kind = [], "scattergl" if len(y) > GL_POINTS else "scatter"  # WebGL for many points, as the renderer
    for cls, colour, symbol in ((1, POS_COLOUR, POS_SYMBOL), (-1, NEG_COLOUR, NEG_SYMBOL)):
        m = y == cls
        traces.append({"type": kind, "mode": "markers", "name": f"y = {cls:+d}".replace("-", "−"), "x": X[m, 0].tolist(),
                       "y": X[m, 1].tolist(), "marker": {"color": colour, "symbol": symbol, "size": 12,
                                                          "line": {"color": "white", "width": 1}}})
    axis = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
            "tickfont": {"size": 14}}
    return {"data": traces, "layout": {
        "height": height, "font": FONT, "paper_bgcolor": "white", "plot_bgcolor": "white", "dragmode": False,
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50}, "showlegend": True,
        "title": {"text": note, "font": {"size": 16}},
        "xaxis": {**axis, "range": [box[0], box[1]], "title": {"text": "x₁"}, "constrain": "domain"},
        "yaxis": {**axis, "range": [box[2], box[3]], "title": {"text": "x₂"}, "scaleanchor": "x",
                  "constrain": "domain"},
    }}


# presentation mode: the same figure with everything a projector washes out made larger
_FONT_KEYS = ("font", "tickfont", "textfont", "insidetextfont", "outsidetextfont")
_DATA_KEYS = ("x", "y", "z", "customdata", "selectedpoints", "text", "hovertext")


def _scaled(obj, k: float, parent: str = ""):
    """A copy of ``obj`` with font and marker sizes and line widths multiplied by ``k`` (other values shared).

    Sizes are scaled inside fonts and markers, widths inside lines (a bar's ``width`` is data, kept).
    """
    if isinstance(obj, list):
        return [_scaled(v, k, parent) for v in obj]
    if not isinstance(obj, dict):
        return obj
    out = {}
    for key, v in obj.items():
        if (key == "size" and parent in ("font", "marker")) or (key == "width" and parent == "line"):
            out[key] = _times(v, k)
        elif isinstance(v, dict | list) and key not in _DATA_KEYS:
            out[key] = _scaled(v, k, "font" if key in _FONT_KEYS else key)
        else:
            out[key] = v
    return out


def _times(v, k: float):
    """``v`` times ``k`` (numbers, and lists of them), anything else as it is."""
    if isinstance(v, list):
        return [_times(e, k) for e in v]
    if isinstance(v, int | float) and not isinstance(v, bool):
        return round(v * k, 2)
    return v


def projector(fig: dict, k: float) -> dict:
    """``fig`` for a projector: fonts, markers and line widths ``k`` times larger, and the figure as much taller.

    A new dict; ``fig`` is unchanged. Traces scale marker ``size`` and line ``width``; the layout scales every font
    size, the margins, the annotations' pixel shifts (and pixel arrow tails) and the height, so text placed in
    fractions of the figure keeps its room. Axis ranges and data are untouched.

    Parameters
    ----------
    fig : dict
        A still figure as the viz builders make it (``data``, ``layout``).
    k : float
        The factor, 1 ≤ k ≤ 3.
    """
    if not 1.0 <= k <= 3.0:
        raise ValueError(f"k must be between 1 and 3, got {k}")
    layout = {key: (v if key in ("meta", "template") else _scaled(v, k, "font" if key == "font" else key))
              for key, v in fig["layout"].items()}
    if "height" in layout:
        layout["height"] = int(round(layout["height"] * k))
    if isinstance(layout.get("margin"), dict):
        layout["margin"] = {m: (_times(v, k) if m in "lrtb" else v) for m, v in layout["margin"].items()}
    if isinstance(layout.get("annotations"), list):
        layout["annotations"] = [{**a, **{s: _times(a[s], k) for s in ("xshift", "yshift") if s in a},
                                  **{s: _times(a[s], k) for s in ("ax", "ay")  # arrow tails given in px
                                     if s in a and a.get(s + "ref", "pixel") == "pixel"}}
                                 for a in layout["annotations"]]
    return {**fig, "data": _scaled(fig["data"], k), "layout": layout}


AXIS_INK = "#333333"  # tick labels and axis titles: 12.6:1 on white (a theme's light grey is about 3.6:1)


def _inked_axis(ax: dict) -> dict:
    """An axis with dark tick labels and title unless the figure chose their colours."""
    out = {**ax, "tickfont": {"color": AXIS_INK, **ax.get("tickfont", {})}}
    if isinstance(ax.get("title"), dict):
        out["title"] = {**ax["title"], "font": {"color": AXIS_INK, **ax["title"].get("font", {})}}
    return out


DATA_AXES = ("x₁", "x₂")  # the data panels' axis titles, which :func:`titled_axes` replaces


def titled_axes(fig: dict | Chart, axes: tuple[str, str] | None) -> dict | Chart:
    """``fig`` with every axis titled x₁ or x₂ retitled ``axes`` (e.g. "x₁: sepal length"); ``fig`` when None.

    A dict is copied shallowly (its data shared); a :class:`Chart`'s JSON has the two titles
    replaced as text (no other text of a figure is exactly "x₁" or "x₂").
    """
    if not axes or tuple(axes) == DATA_AXES:
        return fig
    if isinstance(fig, Chart):
        text = fig.json
        for old, new in zip(DATA_AXES, axes, strict=True):
            for ascii_only in (False, True):  # orjson writes "x₁", the json module "x\u2081": either may be installed
                text = text.replace('"title":{"text":' + json.dumps(old, ensure_ascii=ascii_only),
                                    '"title":{"text":' + json.dumps(new, ensure_ascii=ascii_only))
        return replace(fig, json=text)
    layout = dict(fig["layout"])
    for key, ax in fig["layout"].items():
        title = ax.get("title") if key.startswith(("xaxis", "yaxis")) and isinstance(ax, dict) else None
        if isinstance(title, dict) and title.get("text") in DATA_AXES:
            layout[key] = {**ax, "title": {**title, "text": axes[DATA_AXES.index(title["text"])]}}
    return {**fig, "layout": layout}


def readable(fig: dict) -> dict:
    """``fig`` with dark axis text and legend, for contrast on a projector (a shallow copy; its data shared).

    Streamlit's chart theme draws tick labels light grey; a colour the figure sets itself is kept.
    """
    layout = dict(fig["layout"])
    for key, ax in fig["layout"].items():
        if key.startswith(("xaxis", "yaxis")) and isinstance(ax, dict):
            layout[key] = _inked_axis(ax)
        elif key.startswith("scene") and isinstance(ax, dict):
            layout[key] = {**ax, **{a: _inked_axis(ax.get(a, {})) for a in ("xaxis", "yaxis", "zaxis")}}
    layout["legend"] = {**layout.get("legend", {}), "font": {"color": INK, **layout.get("legend", {}).get("font", {})}}
    return {**fig, "layout": layout}
