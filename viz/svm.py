"""The SVM margin and slack figure, with C moved in the browser, and the hinge-SGD step-through.

One figure holds, for each C of a grid (a frame each, a slider under the chart):

- The data: the boundary f(x) = 0 and the margin lines f(x) = ±1 (straight
  for the linear kernel, curves for the others), the width 2/‖w‖ written on
  the chart, support vectors ringed, every margin violator joined to its own
  margin line by a segment labelled with its ξᵢ, and each point drawn by
  where it lies: outside the margin, on it, inside it, or misclassified
  (the symbol says which, the colour and family of shapes say the class).
  The perceptron's boundary on the same data can be laid over it, faint.
- The objective ½‖w‖² + C Σξ as a stacked bar.
- The C path: margin width, number of support vectors and Σξ against C, the
  current C marked.
- The status: C, the width, the support vectors, Σξ, J, the points by category.

Plain dicts, no Streamlit.
"""

from __future__ import annotations

import math

import numpy as np

from core.dual import kernel_matrix
from core.snapshot import activation
from core.svm import SVMSolution
from datasets.points import standardize
from viz.common import (
    FONT,
    INK,
    LIVE_ARGS,
    NEG_COLOUR,
    NEG_REGION,
    POS_COLOUR,
    POS_REGION,
    back_next,
    boundary_segment,
    clip_halfplane,
    gaps,
    legend_proxy,
    live_frames,
    live_slider,
    names,
    never_empty,
    num,
    poly_xy,
    state_line,
    state_text,
    step_menus,
    step_slider,
    sub,
    vec,
    view_box,
    widened,
)
from viz.contour import loops_xy, zero_loops
from viz.dual import PIXEL, decision_grid

ON_MARGIN = 1e-3  # |y·f − 1| below this counts as on the margin line
CATEGORIES = {  # name -> (symbol for +1, symbol for −1)
    "outside the margin": ("circle", "diamond"),
    "on the margin": ("circle-dot", "diamond-dot"),
    "inside the margin": ("circle-open", "diamond-open"),
    "misclassified": ("circle-x", "diamond-x"),
}
MARGIN_COLOUR = "#555555"
SLACK_COLOUR = "#CC79A7"  # Okabe–Ito reddish purple
PERCEPTRON_COLOUR = "rgba(0, 158, 115, 0.55)"  # Okabe–Ito bluish green, faint
MAX_SLACK_LABELS = 12  # the largest ξ are written; more would bury the points
STATE_NAMES = 5  # most points the state line names in one list
# the layout under the data panel, in pixels: its x tick labels and title, then the state line's two lines (a text
# trace on its own axes, since a C frame is played without a redraw, which would leave an annotation stale)
AXIS_PX, STATE_PX = 72, 50
LEGEND_PX = 96  # the legend's two rows under the plot, before the C slider
KERNEL_NAMES = {"poly": "polynomial", "rbf": "RBF"}


KERNEL_LARGE = 10.0  # K(x, x) this many times its standardized size: an SMO stopped at its cap says standardize


def margin_tol(sol: SVMSolution, box) -> float:
    """How far |y·f − 1| may be from 0 for a point drawn on its margin line.

    ON_MARGIN in units of f, and for the linear kernel at most a thousandth of the view's width in distance
    (|y·f − 1|/‖w‖ is the distance to the margin line: with a small C, ‖w‖ is small and 1e-3 in f is far).
    """
    if sol.kernel == "linear" and sol.w is not None:
        return min(ON_MARGIN, ON_MARGIN * float(np.linalg.norm(sol.w)) * (box[1] - box[0]))
    return ON_MARGIN


def categories(y: np.ndarray, f: np.ndarray, tol: float = ON_MARGIN) -> np.ndarray:
    """Where each point lies, from m = y·f(x): 0 outside (m > 1), 1 on (m ≈ 1), 2 inside (0 < m < 1), 3 misclassified.

    Parameters
    ----------
    y : ndarray of shape (n,)
    f : ndarray of shape (n,)
    tol : float
        |m − 1| up to this counts as on the margin.

    Returns
    -------
    ndarray of shape (n,), int
    """
    m = y * f
    out = np.zeros(m.shape, dtype=np.int64)
    out[np.abs(m - 1) <= tol] = 1
    out[(m < 1 - tol) & (m > 0)] = 2
    out[m <= 0] = 3
    return out


def _lines(sol: SVMSolution, X, y, box, grid: int = 101) -> dict:
    """The curves f(x) = c for c in (−1, 0, +1), clipped to the box (x, y lists with gaps)."""
    span = box[1] - box[0]
    if sol.kernel == "linear":
        return {c: boundary_segment(widened(box), sol.w, sol.b - c) for c in (-1, 0, 1)}
    gx, gy, F = decision_grid(X, y, sol.alpha, sol.b, sol.kernel, sol.kernel_params, box, grid)
    out = {}
    for c in (-1, 0, 1):
        # loops around f > c, drawn as lines only (the padded ring lies outside the view)
        out[c] = loops_xy(zero_loops(F - c, gx, gy, PIXEL * span), 3)
    out["regions"] = out[0]
    return out


def _feet(sol: SVMSolution, X, y, idx: np.ndarray, lines, box) -> np.ndarray:
    """Where each violator's slack segment ends: the nearest point of its own margin line f(x) = yᵢ.

    Parameters
    ----------
    idx : ndarray of shape (m,)
        The violators.

    Returns
    -------
    ndarray of shape (m, 2)
        NaN rows where that margin line is not in view (a small C can leave |f| < 1 everywhere).
    """
    out = np.full((idx.size, 2), np.nan)
    if sol.kernel == "linear":
        w = sol.w
        nw2 = float(w @ w)
        if nw2 > 0:
            t = (y[idx] - (X[idx] @ w + sol.b)) / nw2  # move along w until f = yᵢ
            out = X[idx] + t[:, None] * w
        return out
    x0, x1, y0, y1 = box
    for cls in (-1, 1):
        xs, ys = lines[cls]
        pts = np.array([(a, b) for a, b in zip(xs, ys, strict=True) if a is not None], dtype=float).reshape(-1, 2)
        # only the curve's own vertices: the loops also run along a padded ring just outside the view
        pts = pts[(pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)]
        mine = np.flatnonzero(y[idx] == cls)
        if not pts.size or not mine.size:
            continue
        for lo in range(0, mine.size, 256):  # blocks keep the distance table small
            rows = mine[lo:lo + 256]
            d2 = ((X[idx[rows], None, :] - pts[None, :, :]) ** 2).sum(axis=2)
            out[rows] = pts[d2.argmin(axis=1)]
    return out


def _panel(X, y, sol: SVMSolution, box, size: int) -> tuple[list[dict], list[dict], dict]:
    """What one solution draws: the traces that change with C (fixed count and order), the annotations, the meta.

    Traces: the two regions, the margin lines, the boundary, the slack segments, the ξ labels, the support
    vector rings, a trace per (category, class), and the objective's two stacked bars.
    """
    f = sol.decision
    cat = categories(y, f, margin_tol(sol, box))
    lines = _lines(sol, X, y, box)
    common = {"xaxis": "x", "yaxis": "y"}
    big = widened(box)
    data = []
    if sol.kernel == "linear":  # f > 0 and f < 0 as two half-planes
        for sign, colour in ((1.0, POS_REGION), (-1.0, NEG_REGION)):
            px, py = poly_xy(clip_halfplane(big, sol.w, sol.b, sign))
            data.append({"type": "scatter", "x": px, "y": py, "fill": "toself", "fillcolor": colour, "mode": "none",
                         "hoverinfo": "skip", "showlegend": False, **common})
    else:  # f < 0 everywhere, with the loops around f > 0 laid over it
        data.append({"type": "scatter", "x": [big[0], big[1], big[1], big[0]],
                     "y": [big[2], big[2], big[3], big[3]], "fill": "toself",
                     "fillcolor": NEG_REGION, "mode": "none", "hoverinfo": "skip", "showlegend": False, **common})
        rx, ry = lines["regions"]
        data.append({"type": "scatter", "x": rx, "y": ry, "fill": "toself", "fillcolor": "rgba(220, 242, 255, 0.7)",
                     "mode": "none", "hoverinfo": "skip", "showlegend": False, **common})
    data.append({"type": "scatter", "name": "margin f(x) = ±1", "mode": "lines",
                 "x": lines[-1][0] + [None] + lines[1][0], "y": lines[-1][1] + [None] + lines[1][1],
                 "line": {"color": MARGIN_COLOUR, "width": 2.5, "dash": "dash"}, "hoverinfo": "skip", **common})
    data.append({"type": "scatter", "name": "boundary f(x) = 0", "mode": "lines", "x": lines[0][0],
                 "y": lines[0][1], "line": {"color": INK, "width": 4}, "hoverinfo": "skip", **common})
    # slack: each violator (ξᵢ > 0) joined to its own margin line f(x) = yᵢ, the largest ξ labelled
    viol_all = viol = np.flatnonzero(sol.slack > ON_MARGIN)
    viol = viol[np.argsort(-sol.slack[viol], kind="stable")]
    feet = _feet(sol, X, y, viol, lines, box)
    keep = ~np.isnan(feet[:, 0])
    viol, feet = viol[keep], feet[keep]
    gap = np.full(viol.size, np.nan)
    seg_x = np.column_stack([X[viol, 0], feet[:, 0], gap]).ravel()
    seg_y = np.column_stack([X[viol, 1], feet[:, 1], gap]).ravel()
    top = viol[:MAX_SLACK_LABELS]
    # each label on its segment near its point (the segment's far end can lie outside the view)
    seg = feet[:MAX_SLACK_LABELS] - X[top]
    reach = np.minimum(0.5, 0.08 * (box[1] - box[0]) / np.maximum(np.linalg.norm(seg, axis=1), 1e-12))
    mid = X[top] + reach[:, None] * seg
    lab_t = [f"ξ{sub(i + 1)}={num(sol.slack[i], 2)}" for i in top.tolist()]
    data.append({"type": "scatter", "name": "slack ξᵢ (to its margin line)", "mode": "lines",
                 "x": gaps(seg_x), "y": gaps(seg_y), "line": {"color": SLACK_COLOUR, "width": 2.5},
                 "hoverinfo": "skip", **common})
    data.append({"type": "scatter", "name": "ξ values", "mode": "text", "x": mid[:, 0].round(4).tolist(),
                 "y": mid[:, 1].round(4).tolist(), "text": lab_t, "textfont": {"size": 14, "color": "#8B2F6B"},
                 "showlegend": False, "hoverinfo": "skip", "textposition": "middle right", **common})
    sv = np.flatnonzero(sol.support)
    data.append({"type": "scatter", "name": "support vectors", "mode": "markers",
                 "x": X[sv, 0].round(4).tolist(), "y": X[sv, 1].round(4).tolist(), "hoverinfo": "skip",
                 "marker": {"symbol": "circle-open", "size": 2 * size + 6, "color": INK, "line": {"width": 2}},
                 **common})
    # the points: a trace per (category, class) with one colour and one symbol each (no per-point style arrays,
    # which cost the browser a third of its redraw); the +1 trace carries the category's legend entry
    for k, (name, symbols) in enumerate(CATEGORIES.items()):
        for cls, colour, symbol in ((1, POS_COLOUR, symbols[0]), (-1, NEG_COLOUR, symbols[1])):
            idx = np.flatnonzero((cat == k) & (y == cls))
            data.append({
                "type": "scatter", "name": name, "legendgroup": name, "showlegend": cls > 0, "mode": "markers",
                "x": X[idx, 0].round(4).tolist(), "y": X[idx, 1].round(4).tolist(),
                "customdata": np.column_stack([idx + 1, np.round(y[idx] * f[idx], 2),
                                               np.round(sol.slack[idx], 2)]).tolist(),
                "hovertemplate": (f"x<sub>%{{customdata[0]}}</sub> = (%{{x}}, %{{y}}), y = {'+1' if cls > 0 else '−1'}"
                                  "<br>y·f(x) = %{customdata[1]}, ξ = %{customdata[2]}<extra></extra>"),
                # no outline on the plain filled points, most of them: strokes are a fifth of the redraw
                "marker": {"size": size + 1, "color": colour, "symbol": symbol,
                           "line": {"width": (0, 2.5, 1.5, 2)[k], "color": (colour, INK, colour, "white")[k]}},
                **common})
    # the objective J = ½‖w‖² + C Σξ as two stacked bars, each its share of J (a fixed axis: the values and
    # J are written, so moving C redraws no axis)
    reg = 0.5 / sol.margin**2 if math.isfinite(sol.margin) and sol.margin > 0 else 0.0
    slack = sol.objective - reg
    J = max(sol.objective, 1e-300)
    for name, value, colour in (("½‖w‖²", reg, "#56B4E9"), ("C Σξ", slack, SLACK_COLOUR)):
        data.append({"type": "bar", "name": name, "x": ["J"], "y": [value / J], "marker": {"color": colour},
                     "customdata": [value], "showlegend": False, "xaxis": "x2",
                     "yaxis": "y2", "hovertemplate": f"{name} = %{{customdata:.4g}} (%{{y:.0%}} of J)<extra></extra>"})
    data.append({"type": "scatter", "mode": "text", "x": ["J"], "y": [1.02], "textposition": "top center",
                 "text": [f"J = ½‖w‖² + C Σξ<br>= {num(reg)} + {num(slack)}<br>= <b>{num(sol.objective)}</b>"],
                 "textfont": {"size": 15}, "cliponaxis": False,
                 "showlegend": False, "hoverinfo": "skip", "xaxis": "x2", "yaxis": "y2"})
    width = 2 * sol.margin
    meta = {"view": "svm", "C": sol.C, "kernel": sol.kernel, **kernel_scale(X, sol), "width": width, "support": int(sv.size),
            "categories": {name: int((cat == k).sum()) for k, name in enumerate(CATEGORIES)},
            "slack_labels": lab_t, "objective": sol.objective}
    # the width 2/‖w‖: a double arrow across the margin at the middle of the boundary in view, and its value
    arrow = {"x": [None], "y": [None]}
    label = {"x": [None], "y": [None], "text": [""]}
    if sol.kernel == "linear" and math.isfinite(width):
        bx, by = boundary_segment(box, sol.w, sol.b)  # the boundary within the view itself
        if bx:
            mxp, myp = (bx[0] + bx[1]) / 2, (by[0] + by[1]) / 2  # its middle: always in view
            u = sol.w / np.linalg.norm(sol.w)
            tip = (mxp + u[0] * sol.margin, myp + u[1] * sol.margin)
            tail = (mxp - u[0] * sol.margin, myp - u[1] * sol.margin)
            # two segments from the middle out, each ending in an arrowhead pointing along it
            arrow = {"x": [mxp, tip[0], None, mxp, tail[0]], "y": [myp, tip[1], None, myp, tail[1]]}
            label = {"x": [tip[0]], "y": [tip[1]], "text": [f"width 2/‖w‖ = {num(width)}"]}
    data.append({"type": "scatter", "name": "width 2/‖w‖", "mode": "lines+markers", **arrow,
                 "line": {"color": MARGIN_COLOUR, "width": 2},
                 "marker": {"symbol": "arrow", "angleref": "previous", "size": [0, 13, 0, 0, 13],
                            "color": MARGIN_COLOUR},
                 "showlegend": False, "hoverinfo": "skip", "xaxis": "x", "yaxis": "y"})
    data.append({"type": "scatter", "mode": "text", **label, "textposition": "top center", "cliponaxis": False,
                 "textfont": {"size": 17, "color": INK, "shadow": HALO}, "showlegend": False, "hoverinfo": "skip",
                 "xaxis": "x", "yaxis": "y"})
    data.append({"type": "scatter", "mode": "text", "x": [0], "y": [0.5], "textposition": "middle right",
                 "text": [svm_status(sol, meta)],
                 "textfont": {"size": 14}, "showlegend": False, "hoverinfo": "skip", "xaxis": "x6", "yaxis": "y6"})
    # the state in words under the chart (its own axes, the band under the data panel's x₁ title)
    data.append({"type": "scatter", "mode": "text", "name": "state", "x": [0], "y": [1], "cliponaxis": False,
                 "textposition": "bottom right", "text": [svm_state(sol, y, f, sv, viol_all)],
                 "textfont": {"size": 16, "color": INK}, "showlegend": False, "hoverinfo": "skip",
                 "xaxis": "x7", "yaxis": "y7"})
    for t in data:
        never_empty(t)
    return data, meta


HALO = "-1px -1px 2px white, 1px -1px 2px white, -1px 1px 2px white, 1px 1px 2px white"  # text readable on points



# what a frame re-sends of a trace: the rest of its style (and its name) stays in the base figure
FRAME_KEYS = ("x", "y", "customdata", "text")
PATH_ROWS = (("width", "width", "#0072B2"), ("support", "# SVs", "#E69F00"),
             ("slack", "Σξ", SLACK_COLOUR))


def svm_figure(X, y, sols, *, start: int = 0, perceptron=None, path: dict | None = None, height: int = 780) -> dict:
    """The SVM page's one figure: the data with the margin, the objective bar and the C path, over every C given.

    With several solutions (one per C of a grid) each is a frame, and a slider under the chart (and a
    Sweep button) moves C in the browser with no server round trip: the margin, the slack, the support
    vectors, the bar, the mark on the C path and the status follow it.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    sols : SVMSolution or sequence of SVMSolution
        One solution, or one per C (increasing C).
    start : int
        The solution shown first.
    perceptron : tuple (w, b), optional
        A perceptron's boundary on the same data, drawn faint for comparison.
    path : dict, optional
        ``C``, ``width``, ``support``, ``slack`` lists (:func:`core.svm.path_of`), drawn against C at the
        right with the current C marked.
    height : int

    Returns
    -------
    dict
        A Plotly figure, with frames ``C0``, ``C1``, … for several solutions; ``layout.meta`` (and each
        frame's) holds C, the margin width, the counts per category and the slack labels drawn.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.shape[1] != 2:
        raise ValueError(f"the SVM figure draws 2-D data, got d = {X.shape[1]}")
    sols = [sols] if isinstance(sols, SVMSolution) else list(sols)
    if not 0 <= start < len(sols):
        raise ValueError(f"start must index one of the {len(sols)} solutions, got {start}")
    box = view_box(X)
    n = len(y)
    size = 12 if n <= 100 else 9 if n <= 400 else 7 if n <= 1000 else 5
    panels = [_panel(X, y, s, box, size) for s in sols]
    traces, meta = panels[start]
    data = traces[:2]
    if perceptron is not None and np.any(perceptron[0]):
        px, py = boundary_segment(widened(box), perceptron[0], perceptron[1])
        data.append({"type": "scatter", "name": "perceptron's boundary", "mode": "lines", "x": px, "y": py,
                     "line": {"color": PERCEPTRON_COLOUR, "width": 3}, "hoverinfo": "skip",
                     "xaxis": "x", "yaxis": "y"})
    varying = [0, 1] + list(range(len(data), len(data) + len(traces) - 2))
    data += traces[2:]
    # the legend is not redrawn as C moves: each entry is a static stand-in, so one whose trace is empty
    # at the first C (no margin line in view, no misclassified point) is still listed
    far = box[1] + 10 * (box[1] - box[0])
    data += [legend_proxy(t, far, rank) for rank, t in enumerate(traces[2:], start=1)
             if t.get("showlegend", True) and t.get("type") == "scatter"]
    marks = [[] for _ in sols]  # each frame's mark on the three C-path curves
    layout_path = {}
    # under the plot: the legend (from just under it), then the C slider; in it, under the panels, the state line
    bottom = 6 + LEGEND_PX + (80 if len(sols) > 1 else -10)
    plot_h = max(height - 10 - bottom, 200)
    low = min((AXIS_PX + STATE_PX) / plot_h, 0.4)  # the panels' bottom

    def lifted(v: float) -> float:
        """A height in [0, TOP] of the layout without the state line, squeezed into [low, TOP]."""
        return low + v * (TOP - low) / TOP

    if path is not None:
        where = {c: j for j, c in enumerate(path["C"])}
        for r, (key, label, colour) in enumerate(PATH_ROWS):
            ax = str(r + 3)
            data.append({"type": "scatter", "mode": "lines+markers", "name": label, "x": path["C"], "y": path[key],
                         "line": {"color": colour, "width": 2.5}, "marker": {"size": 5}, "showlegend": False,
                         "xaxis": f"x{ax}", "yaxis": f"y{ax}",
                         "hovertemplate": f"C = %{{x:.3g}}: {label} = %{{y:.4g}}<extra></extra>"})
            lo = 0.02 + (2 - r) * 0.18
            layout_path[f"yaxis{ax}"] = {"domain": [lifted(lo), lifted(lo + 0.14)], "anchor": f"x{ax}",
                                         "fixedrange": True,
                                         "rangemode": "tozero", "gridcolor": "#eeeeee", "tickfont": {"size": 13},
                                         "title": {"text": label, "font": {"size": 14}}}
            layout_path[f"xaxis{ax}"] = {"type": "log", "domain": [0.74, 1.0], "anchor": f"y{ax}", "fixedrange": True,
                                         "gridcolor": "#eeeeee", "showticklabels": r == 2, "tickfont": {"size": 13},
                                         **({"title": {"text": "C (log)", "font": {"size": 14}}} if r == 2 else {}),
                                         **({"matches": "x3"} if r else {})}
        for f, s in enumerate(sols):
            j = where.get(s.C)
            for key, _, _ in PATH_ROWS:
                marks[f].append({"x": [s.C] if j is not None else [], "y": [path[key][j]] if j is not None else []})
        for r, (_, _, colour) in enumerate(PATH_ROWS):
            varying.append(len(data))
            data.append({"type": "scatter", "mode": "markers", "showlegend": False, "hoverinfo": "skip",
                         "marker": {"size": 15, "color": colour, "line": {"color": INK, "width": 2}},
                         "xaxis": f"x{r + 3}", "yaxis": f"y{r + 3}", **marks[start][r]})
    layout = {
        "height": height, "font": FONT, "margin": {"l": 60, "r": 20, "t": 10, "b": bottom},
        "paper_bgcolor": "white", "plot_bgcolor": "white", "hovermode": "closest", "dragmode": False,
        "barmode": "stack",
        "legend": {"orientation": "h", "x": 0.0, "y": -6 / plot_h, "xanchor": "left", "yanchor": "top",
                   "font": {"size": 15}, "itemsizing": "constant"},
        "xaxis": {**AXIS, "range": [box[0], box[1]], "constrain": "domain", "domain": [0, 0.64],
                  "title": {"text": "x₁", "font": {"size": 18}}},
        "yaxis": {**AXIS, "range": [box[2], box[3]], "scaleanchor": "x", "scaleratio": 1, "constrain": "domain",
                  "domain": [low, TOP],
                  "title": {"text": "x₂", "font": {"size": 18}}},
        "xaxis2": {"domain": [0.74, 1.0], "anchor": "y2", "fixedrange": True, "showticklabels": False},
        "yaxis2": {"domain": [lifted(0.62) if path is not None else low, TOP], "anchor": "x2", "fixedrange": True,
                   "range": [0, 1.6], "tickvals": [0, 0.5, 1], "ticktext": ["0", "½J", "J"], "gridcolor": "#eeeeee",
                   "tickfont": {"size": 13}},
        # the status line's own axes: the band above the chart
        "xaxis6": {"domain": [0, 1], "anchor": "y6", "range": [0, 1], "visible": False, "fixedrange": True},
        "yaxis6": {"domain": [TOP + 0.01, 1], "anchor": "x6", "range": [0, 1], "visible": False, "fixedrange": True},
        # the state line's own axes: the band under the panels' x titles (its text hangs from the top)
        "xaxis7": {"domain": [0, 1], "anchor": "y7", "range": [0, 1], "visible": False, "fixedrange": True},
        "yaxis7": {"domain": [0, STATE_PX / plot_h], "anchor": "x7", "range": [0, 1], "visible": False,
                   "fixedrange": True},
        **layout_path,
        "meta": {**meta, "Cs": [s.C for s in sols], "live": len(sols) > 1},
    }
    if len(sols) > 1:
        # a frame per C; the slider steps through them without a full redraw (the legend's names do not
        # change with C: the counts are in the status), measured about twice as quick as a redraw
        names = [f"C{f}" for f in range(len(sols))]
        bodies = [[{k: t[k] for k in FRAME_KEYS if k in t} for t in tr] + marks[f] for f, (tr, _) in enumerate(panels)]
        metas = [{**mt, "Cs": layout["meta"]["Cs"], "live": True} for _, mt in panels]
        frames = live_frames(names, varying, len(data), bodies, metas, "C")
        layout["sliders"] = [live_slider([f"{s.C:g}" for s in sols], names, start, "C = ", 0.64, 6 + LEGEND_PX)]
        layout["updatemenus"] = [{
            "type": "buttons", "direction": "left", "showactive": False, "x": 1.0, "y": 0, "xanchor": "right",
            "yanchor": "top", "pad": {"t": 6 + LEGEND_PX}, "font": {"size": 15},
            "buttons": [
                {"label": "Sweep C ▶", "method": "animate",
                 "args": ["C", {**LIVE_ARGS, "fromcurrent": True, "frame": {"duration": 400, "redraw": False}}]},
                {"label": "Pause ❚❚", "method": "animate", "args": [[None], {**LIVE_ARGS, "frame": {"duration": 0}}]},
            ]}]
        return {"data": data, "layout": layout, "frames": frames}
    return {"data": data, "layout": layout}


TOP = 0.87  # the data and the bar end here; the status lines are above
AXIS = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
        "tickfont": {"size": 15}, "autorange": False}


def _listed(idx: np.ndarray, n: int) -> str:
    """'x₁, x₄ (2 of 60)', or past STATE_NAMES names 'x₁, x₂, x₃, x₄, x₅, … (14 of 60)'."""
    more = ", …" if idx.size > STATE_NAMES else ""
    return f"{names(idx[:STATE_NAMES])}{more} ({idx.size} of {n})"


def svm_state(sol: SVMSolution, y: np.ndarray, f: np.ndarray, sv: np.ndarray, viol: np.ndarray) -> str:
    """The state line under the SVM chart, two lines: C, w, b, the width 2/‖w‖ and M; the support vectors and ξ > 0.

    E.g. ``"C = 1: w = (0.5, 0.5), b = −2, margin 2/‖w‖ = 2.828; no point misclassified (0 of 3)<br>support
    vectors: x₁, x₃ (2 of 3); ξ = 0 at every point"``.

    Parameters
    ----------
    sol : SVMSolution
    y : ndarray of shape (n,)
    f : ndarray of shape (n,)
        f(xᵢ) = w·xᵢ + b (or the kernel expansion).
    sv : ndarray of int
        The support vectors (0-based).
    viol : ndarray of int
        The points with ξᵢ > 0 (0-based, increasing).
    """
    n = len(y)
    head = "Hard margin (C = ∞)" if not math.isfinite(sol.C) else f"C = {sol.C:g}"
    width = 2 * sol.margin
    if sol.kernel == "linear" and sol.w is not None:
        params = f"w = {vec(sol.w)}, b = {num(sol.b)}"
        params += f", margin 2/‖w‖ = {num(width)}" if math.isfinite(width) else ", w = 0: no margin lines"
    else:  # no w in the plane: b and the width in the kernel's feature space
        params = f"{KERNEL_NAMES.get(sol.kernel, sol.kernel)} kernel, b = {num(sol.b)}" + (f", margin 2/‖w‖ = {num(width)} in feature space"
                                                             if math.isfinite(width) else "")
    mis = np.flatnonzero(y * f <= 0)  # M: y·f(x) ≤ 0
    slack = f"ξ > 0 for {_listed(viol, n)}" if viol.size else "ξ = 0 at every point"
    return state_text(head, params, mis, n, limit=STATE_NAMES) + f"<br>support vectors: {_listed(sv, n)}; {slack}"


def svm_status(sol: SVMSolution, meta: dict) -> str:
    """The status above the SVM chart, in three short lines: C, width, support vectors, Σξ; the objective; the
    points by where they lie (and a warning when SMO stopped at its cap).

    Parameters
    ----------
    sol : SVMSolution
    meta : dict
        The ``layout.meta`` of :func:`svm_figure` for that solution.
    """
    c = meta["categories"]
    sigma_xi = float(sol.slack.sum())
    sigma_xi = 0.0 if sigma_xi < 1e-9 else sigma_xi  # the solver's residue, not slack
    status = (f"{'Hard margin' if not math.isfinite(sol.C) else f'C = {sol.C:g}'}: margin width 2/‖w‖ = "
              f"{num(meta['width'])}, {meta['support']} support vectors, Σξ = {num(sigma_xi)}<br>"
              f"objective ½‖w‖² + C Σξ = {num(sol.objective)}<br>"
              f"points: {c['outside the margin']} outside, {c['on the margin']} on, {c['inside the margin']} inside "
              f"the margin; {c['misclassified']} misclassified")
    if not sol.converged:
        status += (f"<br>SMO stopped at its cap of {sol.iterations:,} iterations before its tolerance: this solution "
                   "is approximate ")
        kmax, kstd = meta.get("kernel_max", 0.0), meta.get("kernel_max_standardized", 0.0)
        if kmax > KERNEL_LARGE * kstd:  # raw features: K(x, x) in the thousands makes SMO's steps tiny
            status += (f"(the kernel's values reach K(x, x) = {num(kmax)}; standardized, they would reach "
                       f"{num(kstd)}: turn on <i>Standardize x₁ and x₂</i> in the sidebar).")
        else:
            status += "(a smaller C or γ converges faster)."
    return status


def kernel_scale(X: np.ndarray, sol: SVMSolution) -> dict[str, float]:
    """When SMO stopped at its cap: the largest K(xᵢ, xᵢ) over the points, as they are and standardized
    (``kernel_max``, ``kernel_max_standardized``; only its message uses them); nothing otherwise."""
    if sol.converged or sol.kernel == "linear":
        return {}
    params = dict(sol.kernel_params)

    def largest(A: np.ndarray) -> float:  # the Gram matrix's diagonal, a row at a time
        return max(float(abs(kernel_matrix(A[i:i + 1], A[i:i + 1], sol.kernel, **params)[0, 0]))
                   for i in range(len(A)))

    return {"kernel_max": largest(X), "kernel_max_standardized": largest(standardize(X)[0])}


def sgd_summary(run, exact: SVMSolution) -> str:
    """Where hinge SGD ended against the exact optimum: J, J* and the gap."""
    gap = float(run.objective[-1] - exact.objective)
    return (f"After {run.n_steps:,} steps: J = {num(float(run.objective[-1]))}, the exact optimum J* = "
            f"{num(exact.objective)}, gap {num(gap)} ({100 * gap / exact.objective:.3g}% of J*). "
            "With the decaying step 1/(λ(t + t₀)) the gap keeps shrinking, slowly for large C (small λ); a constant "
            "η stalls at a noise floor.")


def sgd_figure(run, exact: SVMSolution, *, max_frames: int = 300, height: int = 760) -> dict:
    """Hinge-loss SGD stepping in the browser: its boundary and margin lines against the exact SVM's, and J per step.

    Parameters
    ----------
    run : core.svm.HingeRun
    exact : SVMSolution
        The exact optimum for the same C (linear kernel), drawn faint; J* is its objective.
    max_frames : int
        Steps shown (evenly spaced, the first and last included).
    height : int

    Returns
    -------
    dict
        A Plotly figure with frames ``s{step}``; ``layout.meta`` holds the frame steps and J*.
    """
    X, y = run.X, run.y
    box = view_box(X)
    big = widened(box)
    S = run.n_steps
    steps = np.unique(np.linspace(0, S, min(S + 1, max(2, max_frames))).round().astype(np.int64))
    jstar = exact.objective
    common = {"xaxis": "x", "yaxis": "y"}

    def lines(w, b):
        out = {}
        for c in (-1, 0, 1):
            out[c] = boundary_segment(big, w, b - c) if np.any(w) else ([], [])
        return out

    ex = lines(exact.w, exact.b)
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    data = [
        {"type": "scatter", "name": "exact SVM boundary", "mode": "lines", "x": ex[0][0], "y": ex[0][1],
         "line": {"color": "rgba(34,34,34,0.35)", "width": 3}, "hoverinfo": "skip", **common},
        {"type": "scatter", "name": "exact margin f = ±1", "mode": "lines", "x": ex[-1][0] + [None] + ex[1][0],
         "y": ex[-1][1] + [None] + ex[1][1], "line": {"color": "rgba(34,34,34,0.3)", "width": 2, "dash": "dot"},
         "hoverinfo": "skip", **common},
        {"type": "scatter", "name": "y = +1", "mode": "markers", "x": X[pos, 0].round(4).tolist(),
         "y": X[pos, 1].round(4).tolist(), "marker": {"color": POS_COLOUR, "symbol": "circle", "size": 10},
         "hoverinfo": "skip", **common},
        {"type": "scatter", "name": "y = −1", "mode": "markers", "x": X[neg, 0].round(4).tolist(),
         "y": X[neg, 1].round(4).tolist(), "marker": {"color": NEG_COLOUR, "symbol": "diamond", "size": 11},
         "hoverinfo": "skip", **common},
        # frame-driven: SGD boundary, SGD margin, the drawn point, the current step on the curve
        {"type": "scatter", "name": "SGD boundary w·x + b = 0", "mode": "lines", "x": [], "y": [],
         "line": {"color": INK, "width": 4}, "hoverinfo": "skip", **common},
        {"type": "scatter", "name": "SGD margin w·x + b = ±1", "mode": "lines", "x": [], "y": [],
         "line": {"color": MARGIN_COLOUR, "width": 2.5, "dash": "dash"}, "hoverinfo": "skip", **common},
        {"type": "scatter", "name": "point drawn", "mode": "markers", "x": [], "y": [], "hoverinfo": "skip",
         "marker": {"size": 26, "color": "rgba(240, 228, 66, 0.45)", "line": {"color": "#8A7D00", "width": 3}},
         **common},
        {"type": "scatter", "name": "J = ½‖w‖² + C Σξ", "mode": "lines", "x": list(range(S + 1)),
         "y": np.round(run.objective, 6).tolist(), "line": {"color": "#0072B2", "width": 2.5}, "xaxis": "x2",
         "yaxis": "y2", "hovertemplate": "step %{x}: J = %{y:.4g}<extra></extra>"},
        {"type": "scatter", "name": f"J* = {num(jstar)} (exact)", "mode": "lines", "x": [0, S], "y": [jstar, jstar],
         "line": {"color": SLACK_COLOUR, "width": 2, "dash": "dash"}, "xaxis": "x2", "yaxis": "y2",
         "hoverinfo": "skip"},
        {"type": "scatter", "name": "current step", "mode": "lines", "x": [0, 0], "y": [0, 1], "showlegend": False,
         "line": {"color": INK, "width": 2, "dash": "dot"}, "xaxis": "x2", "yaxis": "y3", "hoverinfo": "skip"},
    ]
    traces = [4, 5, 6, 9]
    fnames = [f"s{s}" for s in steps.tolist()]
    frames = []
    for f, s in enumerate(steps.tolist()):
        w, b = run.W[s], float(run.B[s])
        ln = lines(w, b)
        if s:
            i = int(run.order[s - 1])
            wp, bp = run.W[s - 1], float(run.B[s - 1])
            m = float(y[i] * (X[i] @ wp + bp))
            eta = float(run.etas[s - 1])
            head = f"<b>Step {s}</b>: x{sub(i + 1)}, y = {'+1' if y[i] > 0 else '−1'}, y·(w·x+b) = {num(m)}"
            if run.active[s - 1]:
                head += (f" < 1 → hinge active:<br>w ← (1 − ηλ)·w + η·y·x = ({num(w[0])}, {num(w[1])}), "
                         f"b ← b + η·y = {num(b)}")
            else:
                head += f" ≥ 1 → only the shrink:<br>w ← (1 − ηλ)·w = ({num(w[0])}, {num(w[1])}), b stays {num(b)}"
            head += f"<br>η = {num(eta)}, λ = 1/(N·C) = {num(run.lam)}"
            ex_pt = {"x": [float(X[i, 0])], "y": [float(X[i, 1])]}
        else:
            head = f"<b>Step 0</b>: w = 0, b = 0; λ = 1/(N·C) = {num(run.lam)}"
            ex_pt = {"x": [None]}
        head += (f" · J = {num(run.objective[s])}, gap to the exact J* = {num(jstar)}: "
                 f"<b>{num(run.objective[s] - jstar)}</b>")
        margins = y * activation(X, w, b)  # yᵢ(w·xᵢ + b) after the step
        state = state_line(s, S, w, b, np.flatnonzero(margins <= 0), len(y),
                           extra=f"margin < 1 (hinge active) for {int((margins < 1).sum())}")
        frames.append({"name": fnames[f], "group": "steps", "traces": traces, "data": [
            {"x": ln[0][0], "y": ln[0][1]},
            {"x": ln[-1][0] + [None] + ln[1][0], "y": ln[-1][1] + [None] + ln[1][1]},
            ex_pt,
            {"x": [s, s]},
        ], "layout": {"annotations[0].text": head, "annotations[1].text": state,
                      "updatemenus[1].buttons": back_next(fnames[max(f - 1, 0)],
                                                          fnames[min(f + 1, len(fnames) - 1)])}})
    first = frames[0]
    for t, d in zip(traces, first["data"], strict=True):
        data[t].update(d)
    jlo = max(min(jstar, float(run.objective.min())) * 0.9, 1e-12)
    jhi = max(float(run.objective.max()), jstar) * 1.1
    layout = {
        "height": height, "font": FONT, "margin": {"l": 70, "r": 20, "t": 110, "b": 45},
        "paper_bgcolor": "white", "plot_bgcolor": "white", "hovermode": "closest", "dragmode": False,
        "legend": {"x": 1.0, "y": 1.0, "xanchor": "right", "yanchor": "top", "font": {"size": 14},
                   "bgcolor": "rgba(255,255,255,0.85)"},
        "xaxis": {"range": [box[0], box[1]], "domain": [0, 1], "fixedrange": True, "constrain": "domain",
                  "gridcolor": "#eeeeee", "title": {"text": "x₁"}},
        "yaxis": {"range": [box[2], box[3]], "domain": [0.5, 1.0], "fixedrange": True, "scaleanchor": "x",
                  "constrain": "domain", "gridcolor": "#eeeeee", "title": {"text": "x₂"}},
        "xaxis2": {"domain": [0, 1], "anchor": "y2", "range": [-0.5, S + 0.5], "fixedrange": True,
                   "title": {"text": "step"}, "gridcolor": "#eeeeee"},
        "yaxis2": {"domain": [0, 0.2], "anchor": "x2", "type": "log", "range": [math.log10(jlo), math.log10(jhi)],
                   "fixedrange": True, "title": {"text": "J (log)"}, "gridcolor": "#eeeeee", "nticks": 4,
                   "tickfont": {"size": 14}},
        "yaxis3": {"overlaying": "y2", "range": [0, 1], "visible": False, "fixedrange": True},
        "annotations": [{"text": first["layout"]["annotations[0].text"], "xref": "paper", "yref": "paper", "x": 0,
                         "y": 1.0, "yshift": 6, "xanchor": "left", "yanchor": "bottom", "align": "left",
                         "showarrow": False, "font": {"size": 15}, "bgcolor": "rgba(255,255,255,0.95)"},
                        {"name": "state", "text": first["layout"]["annotations[1].text"], "xref": "paper",
                         "yref": "paper", "x": 0, "y": 0.415, "xanchor": "left", "yanchor": "top", "align": "left",
                         "showarrow": False, "font": {"size": 14}}],
        "sliders": [step_slider(steps, fnames, y=0.3)],
        "updatemenus": step_menus(first["layout"]["updatemenus[1].buttons"], y=0.31, play_x=1.0),
        "meta": {"view": "hinge_sgd", "frame_steps": steps.tolist(), "J_star": jstar, "C": run.C, "n_steps": S,
                 "final_gap": float(run.objective[-1] - jstar)},
    }
    return {"data": data, "layout": layout, "frames": frames}
