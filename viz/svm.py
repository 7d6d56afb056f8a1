"""The SVM margin and slack figures: the data with the margin, the objective as a stacked bar, the C path.

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

Plain dicts, no Streamlit.
"""

from __future__ import annotations

import math

import numpy as np

from core.svm import SVMSolution
from viz.common import (
    FONT,
    INK,
    NEG_COLOUR,
    NEG_REGION,
    POS_COLOUR,
    POS_REGION,
    back_next,
    boundary_segment,
    clip_halfplane,
    num,
    poly_xy,
    step_menus,
    step_slider,
    sub,
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


def categories(y: np.ndarray, f: np.ndarray) -> np.ndarray:
    """Where each point lies, from m = y·f(x): 0 outside (m > 1), 1 on (m ≈ 1), 2 inside (0 < m < 1), 3 misclassified.

    Parameters
    ----------
    y : ndarray of shape (n,)
    f : ndarray of shape (n,)

    Returns
    -------
    ndarray of shape (n,), int
    """
    m = y * f
    out = np.zeros(m.shape, dtype=np.int64)
    out[np.abs(m - 1) <= ON_MARGIN] = 1
    out[(m < 1 - ON_MARGIN) & (m > 0)] = 2
    out[m <= 0] = 3
    return out


def _lines(sol: SVMSolution, X, y, box, grid: int = 101) -> dict[int, tuple[list, list]]:
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


def svm_figure(X, y, sol: SVMSolution, *, perceptron=None, height: int = 700) -> dict:
    """The data panel of the SVM page.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    sol : SVMSolution
    perceptron : tuple (w, b), optional
        A perceptron's boundary on the same data, drawn faint for comparison.
    height : int

    Returns
    -------
    dict
        A Plotly figure; ``layout.meta`` holds the margin width, the counts per
        category and the slack values drawn.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.shape[1] != 2:
        raise ValueError(f"the SVM figure draws 2-D data, got d = {X.shape[1]}")
    box = view_box(X)
    f = sol.decision
    cat = categories(y, f)
    lines = _lines(sol, X, y, box)
    common = {"xaxis": "x", "yaxis": "y"}
    data = []
    # regions: f > 0 and f < 0
    big = widened(box)
    if sol.kernel == "linear":
        for sign, colour in ((1.0, POS_REGION), (-1.0, NEG_REGION)):
            px, py = poly_xy(clip_halfplane(big, sol.w, sol.b, sign))
            data.append({"type": "scatter", "x": px, "y": py, "fill": "toself", "fillcolor": colour, "mode": "none",
                         "hoverinfo": "skip", "showlegend": False, **common})
    else:
        data.append({"type": "scatter", "x": [big[0], big[1], big[1], big[0]],
                     "y": [big[2], big[2], big[3], big[3]], "fill": "toself",
                     "fillcolor": NEG_REGION, "mode": "none", "hoverinfo": "skip", "showlegend": False, **common})
        rx, ry = lines["regions"]
        data.append({"type": "scatter", "x": rx, "y": ry, "fill": "toself", "fillcolor": "rgba(220, 242, 255, 0.7)",
                     "mode": "none", "hoverinfo": "skip", "showlegend": False, **common})
    # margin lines, then the boundary
    mx = lines[-1][0] + [None] + lines[1][0]
    my = lines[-1][1] + [None] + lines[1][1]
    data.append({"type": "scatter", "name": "margin f(x) = ±1", "mode": "lines", "x": mx, "y": my,
                 "line": {"color": MARGIN_COLOUR, "width": 2.5, "dash": "dash"}, "hoverinfo": "skip", **common})
    data.append({"type": "scatter", "name": "boundary f(x) = 0", "mode": "lines", "x": lines[0][0],
                 "y": lines[0][1], "line": {"color": INK, "width": 4}, "hoverinfo": "skip", **common})
    if perceptron is not None and np.any(perceptron[0]):
        px, py = boundary_segment(big, perceptron[0], perceptron[1])
        data.append({"type": "scatter", "name": "perceptron's boundary", "mode": "lines", "x": px, "y": py,
                     "line": {"color": PERCEPTRON_COLOUR, "width": 3}, "hoverinfo": "skip", **common})
    # slack: each violator joined to its own margin line, f(x) = y
    seg_x, seg_y, lab_x, lab_y, lab_t = [], [], [], [], []
    viol = np.flatnonzero(sol.slack > ON_MARGIN)
    order = viol[np.argsort(-sol.slack[viol])]
    for i in order.tolist():
        target = _foot(sol, X, y, i, lines, box)
        if target is None:
            continue
        seg_x += [float(X[i, 0]), target[0], None]
        seg_y += [float(X[i, 1]), target[1], None]
        if len(lab_t) < MAX_SLACK_LABELS:
            lab_x.append((float(X[i, 0]) + target[0]) / 2)
            lab_y.append((float(X[i, 1]) + target[1]) / 2)
            lab_t.append(f"ξ{sub(i + 1)}={num(sol.slack[i], 2)}")
    data.append({"type": "scatter", "name": "slack ξᵢ (to its margin line)", "mode": "lines", "x": seg_x, "y": seg_y,
                 "line": {"color": SLACK_COLOUR, "width": 2.5}, "hoverinfo": "skip", **common})
    data.append({"type": "scatter", "name": "ξ values", "mode": "text", "x": lab_x, "y": lab_y, "text": lab_t,
                 "textfont": {"size": 14, "color": "#8B2F6B"}, "showlegend": False, "hoverinfo": "skip",
                 "textposition": "middle right", **common})
    # support vectors ringed
    sv = np.flatnonzero(sol.support)
    n = len(y)
    size = 12 if n <= 100 else 9 if n <= 400 else 7 if n <= 1000 else 5
    data.append({"type": "scatter", "name": f"support vectors ({sv.size})", "mode": "markers",
                 "x": X[sv, 0].round(4).tolist(), "y": X[sv, 1].round(4).tolist(), "hoverinfo": "skip",
                 "marker": {"symbol": "circle-open", "size": 2 * size + 6, "color": INK, "line": {"width": 2}},
                 **common})
    # the points: a trace per (category, class) with one colour and one symbol each (no per-point style arrays,
    # which cost the browser a third of its redraw); the category's two traces share one legend entry
    for k, (name, symbols) in enumerate(CATEGORIES.items()):
        label = f"{name} ({int((cat == k).sum())})"
        shown = False
        for cls, colour, symbol in ((1, POS_COLOUR, symbols[0]), (-1, NEG_COLOUR, symbols[1])):
            idx = np.flatnonzero((cat == k) & (y == cls))
            if not idx.size:
                continue
            data.append({
                "type": "scatter", "name": label, "legendgroup": name, "showlegend": not shown, "mode": "markers",
                "x": X[idx, 0].round(4).tolist(), "y": X[idx, 1].round(4).tolist(),
                "customdata": np.column_stack([idx + 1, np.round(y[idx] * f[idx], 2),
                                               np.round(sol.slack[idx], 2)]).tolist(),
                "hovertemplate": (f"x<sub>%{{customdata[0]}}</sub> = (%{{x}}, %{{y}}), y = {'+1' if cls > 0 else '−1'}"
                                  "<br>y·f(x) = %{customdata[1]}, ξ = %{customdata[2]}<extra></extra>"),
                "marker": {"size": size + 1, "color": colour, "symbol": symbol,
                           "line": {"width": 2.5 if k == 1 else 1.5, "color": INK if k == 1 else colour}},
                **common})
            shown = True
    annotations = []
    width = 2 * sol.margin
    if sol.kernel == "linear" and math.isfinite(width):
        # the width written across the margin, at the middle of the boundary in view
        bx, by = boundary_segment(box, sol.w, sol.b)  # the boundary within the view itself
        if bx:
            mxp, myp = (bx[0] + bx[1]) / 2, (by[0] + by[1]) / 2  # its middle: always in view
            u = sol.w / np.linalg.norm(sol.w)
            annotations.append({"x": mxp + u[0] * sol.margin, "y": myp + u[1] * sol.margin, "ax": mxp - u[0] * sol.margin,
                                "ay": myp - u[1] * sol.margin, "xref": "x", "yref": "y", "axref": "x", "ayref": "y",
                                "showarrow": True, "arrowhead": 2, "arrowside": "end+start", "arrowwidth": 2,
                                "arrowcolor": MARGIN_COLOUR, "text": ""})
            annotations.append({"x": mxp + u[0] * sol.margin, "y": myp + u[1] * sol.margin, "xref": "x", "yref": "y",
                                "text": f"width 2/‖w‖ = {num(width)}", "showarrow": False, "xanchor": "left",
                                "yanchor": "bottom", "font": {"size": 17, "color": INK},
                                "bgcolor": "rgba(255,255,255,0.85)"})
    axis = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
            "tickfont": {"size": 15}, "autorange": False}
    layout = {
        "height": height, "font": FONT, "margin": {"l": 60, "r": 20, "t": 20, "b": 130},
        "paper_bgcolor": "white", "plot_bgcolor": "white", "hovermode": "closest", "dragmode": False,
        "legend": {"orientation": "h", "x": 0.0, "y": -0.1, "xanchor": "left", "yanchor": "top",
                   "font": {"size": 15}, "itemsizing": "constant"},
        "xaxis": {**axis, "range": [box[0], box[1]], "constrain": "domain", "domain": [0, 1],
                  "title": {"text": "x₁", "font": {"size": 18}}},
        "yaxis": {**axis, "range": [box[2], box[3]], "scaleanchor": "x", "scaleratio": 1, "constrain": "domain",
                  "title": {"text": "x₂", "font": {"size": 18}}},
        "annotations": annotations,
        "meta": {"view": "svm", "C": sol.C, "kernel": sol.kernel, "width": width,
                 "support": int(sv.size), "categories": {name: int((cat == k).sum())
                                                         for k, name in enumerate(CATEGORIES)},
                 "slack_labels": lab_t},
    }
    return {"data": data, "layout": layout}


def _foot(sol: SVMSolution, X, y, i: int, lines, box) -> tuple[float, float] | None:
    """Where point i's slack segment ends: the nearest point of its own margin line f(x) = yᵢ."""
    p = X[i]
    if sol.kernel == "linear":
        w = sol.w
        nw2 = float(w @ w)
        if nw2 == 0:
            return None
        t = (y[i] - (w @ p + sol.b)) / nw2  # move along w until f = yᵢ
        q = p + t * w
        return float(q[0]), float(q[1])
    xs, ys = lines[int(y[i])]
    x0, x1, y0, y1 = box
    # only the curve's own vertices: the loops also run along a padded ring just outside the view
    pts = np.array([(a, b) for a, b in zip(xs, ys, strict=True)
                    if a is not None and x0 <= a <= x1 and y0 <= b <= y1]).reshape(-1, 2)
    if not pts.size:
        return None  # no margin line f = yᵢ in view (a small C can leave |f| < 1 everywhere)
    j = int(((pts - p) ** 2).sum(axis=1).argmin())
    return float(pts[j, 0]), float(pts[j, 1])


def svm_status(sol: SVMSolution, meta: dict) -> str:
    """The line under the SVM chart: C, width, support vectors, Σξ, the objective, the points by category.

    Parameters
    ----------
    sol : SVMSolution
    meta : dict
        The ``layout.meta`` of :func:`svm_figure` for that solution.
    """
    cats = ", ".join(f"{v} {k}" for k, v in meta["categories"].items())
    status = (f"{'Hard margin' if not math.isfinite(sol.C) else f'C = {num(sol.C)}'}: margin width 2/‖w‖ = "
              f"{num(meta['width'])}, {meta['support']} support vectors, Σξ = {num(float(sol.slack.sum()))}, "
              f"objective ½‖w‖² + C Σξ = {num(sol.objective)}. Points: {cats}.")
    if not sol.converged:
        status += (f" SMO stopped at its cap of {sol.iterations:,} iterations before its tolerance: this solution "
                   "is approximate (a smaller C or γ converges faster).")
    return status


def sgd_summary(run, exact: SVMSolution) -> str:
    """Where hinge SGD ended against the exact optimum: J, J* and the gap."""
    gap = float(run.objective[-1] - exact.objective)
    return (f"After {run.n_steps:,} steps: J = {num(float(run.objective[-1]))}, the exact optimum J* = "
            f"{num(exact.objective)}, gap {num(gap)} ({100 * gap / exact.objective:.3g}% of J*). "
            "With the decaying step 1/(λ(t + t₀)) the gap keeps shrinking, slowly for large C (small λ); a constant "
            "η stalls at a noise floor.")


def objective_bar(sol: SVMSolution, height: int = 320) -> dict:
    """½‖w‖² and C Σξ stacked into the objective."""
    reg = 0.5 / sol.margin**2 if math.isfinite(sol.margin) and sol.margin > 0 else 0.0
    slack = sol.objective - reg
    return {
        "data": [
            {"type": "bar", "name": f"½‖w‖² = {num(reg)}", "x": ["objective"], "y": [reg],
             "marker": {"color": "#56B4E9"}, "hovertemplate": "½‖w‖² = %{y:.4g}<extra></extra>"},
            {"type": "bar", "name": f"C Σξ = {num(slack)}", "x": ["objective"], "y": [slack],
             "marker": {"color": SLACK_COLOUR}, "hovertemplate": "C Σξ = %{y:.4g}<extra></extra>"},
        ],
        "layout": {"barmode": "stack", "height": height, "font": FONT, "margin": {"l": 60, "r": 10, "t": 40, "b": 30},
                   "title": {"text": f"½‖w‖² + C Σξ = {num(sol.objective)}", "font": {"size": 17}},
                   "legend": {"orientation": "h", "y": -0.1, "font": {"size": 14}}, "paper_bgcolor": "white",
                   "plot_bgcolor": "white", "yaxis": {"fixedrange": True, "rangemode": "tozero"},
                   "xaxis": {"fixedrange": True, "showticklabels": False}},
    }


def c_path_figure(path: dict, C: float, height: int = 420) -> dict:
    """Margin width, number of support vectors and Σξ against C (log axis), the current C marked.

    Parameters
    ----------
    path : dict
        ``C``, ``width``, ``support``, ``slack`` lists of equal length (from :func:`core.svm.c_path`).
    C : float
        The current C (math.inf for the hard margin: no mark).
    """
    rows = [("width", "margin width 2/‖w‖", "#0072B2"), ("support", "support vectors", "#E69F00"),
            ("slack", "Σξ", SLACK_COLOUR)]
    data, layout = [], {}
    for k, (key, label, colour) in enumerate(rows, start=1):
        ax = "" if k == 1 else str(k)
        data.append({"type": "scatter", "mode": "lines+markers", "name": label, "x": path["C"], "y": path[key],
                     "line": {"color": colour, "width": 2.5}, "marker": {"size": 5}, "xaxis": f"x{ax}",
                     "yaxis": f"y{ax}", "hovertemplate": f"C = %{{x:.3g}}: {label} = %{{y:.4g}}<extra></extra>"})
        lo, hi = 1 - k / 3 + 0.06, 1 - (k - 1) / 3
        layout[f"yaxis{ax}"] = {"domain": [lo, hi], "title": {"text": label, "font": {"size": 14}},
                                "fixedrange": True, "rangemode": "tozero", "gridcolor": "#eeeeee"}
        layout[f"xaxis{ax}"] = {"type": "log", "anchor": f"y{ax}", "fixedrange": True, "gridcolor": "#eeeeee",
                                "showticklabels": k == 3, **({"title": {"text": "C"}} if k == 3 else {}),
                                **({"matches": "x"} if k > 1 else {})}
    shapes = []
    if math.isfinite(C):
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": C, "x1": C, "y0": 0, "y1": 1,
                       "line": {"color": INK, "width": 2, "dash": "dot"}})
    layout.update({"height": height, "font": FONT, "margin": {"l": 70, "r": 10, "t": 10, "b": 40},
                   "showlegend": False, "paper_bgcolor": "white", "plot_bgcolor": "white", "shapes": shapes,
                   "meta": {"C": C}})
    return {"data": data, "layout": layout}


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
        frames.append({"name": fnames[f], "group": "steps", "traces": traces, "data": [
            {"x": ln[0][0], "y": ln[0][1]},
            {"x": ln[-1][0] + [None] + ln[1][0], "y": ln[-1][1] + [None] + ln[1][1]},
            ex_pt,
            {"x": [s, s]},
        ], "layout": {"annotations[0].text": head,
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
        "yaxis": {"range": [box[2], box[3]], "domain": [0.42, 1.0], "fixedrange": True, "scaleanchor": "x",
                  "constrain": "domain", "gridcolor": "#eeeeee", "title": {"text": "x₂"}},
        "xaxis2": {"domain": [0, 1], "anchor": "y2", "range": [-0.5, S + 0.5], "fixedrange": True,
                   "title": {"text": "step"}, "gridcolor": "#eeeeee"},
        "yaxis2": {"domain": [0, 0.2], "anchor": "x2", "type": "log", "range": [math.log10(jlo), math.log10(jhi)],
                   "fixedrange": True, "title": {"text": "J (log)"}, "gridcolor": "#eeeeee"},
        "yaxis3": {"overlaying": "y2", "range": [0, 1], "visible": False, "fixedrange": True},
        "annotations": [{"text": first["layout"]["annotations[0].text"], "xref": "paper", "yref": "paper", "x": 0,
                         "y": 1.0, "yshift": 6, "xanchor": "left", "yanchor": "bottom", "align": "left",
                         "showarrow": False, "font": {"size": 15}, "bgcolor": "rgba(255,255,255,0.95)"}],
        "sliders": [step_slider(steps, fnames, y=0.3)],
        "updatemenus": step_menus(first["layout"]["updatemenus[1].buttons"], y=0.31, play_x=1.0),
        "meta": {"view": "hinge_sgd", "frame_steps": steps.tolist(), "J_star": jstar, "C": run.C,
                 "final_gap": float(run.objective[-1] - jstar)},
    }
    return {"data": data, "layout": layout, "frames": frames}
