"""The SVM page's words and the hinge-SGD step-through.

The exact SVM's chart is drawn in the browser from a scene record (:func:`viz.scene.svm_scene`,
``viz/js/svm.js``): here are what that record sends as the solver decided it (each point's category at
:func:`margin_tol`, :data:`ON_MARGIN`, :data:`MAX_SLACK_LABELS`) and the Python references of the words the
renderer writes (:func:`svm_state`, :func:`svm_status`). The hinge-SGD tab's figure is a Plotly figure
(:func:`sgd_figure`). Plain dicts, no Streamlit.
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
    NEG_COLOUR,
    POS_COLOUR,
    back_next,
    boundary_segment,
    names,
    num,
    state_line,
    state_text,
    step_menus,
    step_slider,
    sub,
    vec,
    view_box,
    widened,
)

ON_MARGIN = 1e-3  # |y·f − 1| below this counts as on the margin line
CATEGORIES = ("outside the margin", "on the margin", "inside the margin", "misclassified")  # by viz.svm.categories
MARGIN_COLOUR = "#555555"
SLACK_COLOUR = "#CC79A7"  # Okabe–Ito reddish purple
MAX_SLACK_LABELS = 12  # the largest ξ are written; more would bury the points
STATE_NAMES = 5  # most points the state line names in one list
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


def _listed(idx: np.ndarray, n: int) -> str:
    """'x₁, x₄ (2 of 60)', or past STATE_NAMES names 'x₁, x₂, x₃, x₄, x₅, … (14 of 60)'."""
    more = ", …" if idx.size > STATE_NAMES else ""
    return f"{names(idx[:STATE_NAMES])}{more} ({idx.size} of {n})"


def svm_state(sol: SVMSolution, y: np.ndarray) -> str:
    """The state line under the SVM chart, two lines: C, w, b, the width 2/‖w‖ and M; the support vectors and ξ > 0.

    E.g. ``"C = 1: w = (0.5, 0.5), b = −2, margin 2/‖w‖ = 2.828; no point misclassified (0 of 3)<br>support
    vectors: x₁, x₃ (2 of 3); ξ = 0 at every point"``.

    The renderer writes it (``viz/js/svm.js``, ``SvmModel.stateLine``, with a line break for the ``<br>``); this is
    its reference.

    Parameters
    ----------
    sol : SVMSolution
    y : ndarray of shape (n,)
    """
    f, sv = sol.decision, np.flatnonzero(sol.support)  # f(xᵢ) = w·xᵢ + b (or the kernel expansion)
    viol = np.flatnonzero(sol.slack > ON_MARGIN)  # ξᵢ > 0, above the solver's residue
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


def svm_status(sol: SVMSolution, X: np.ndarray, y: np.ndarray) -> str:
    """The status over the SVM chart, in three short lines: C, width, support vectors, Σξ; the objective; the
    points by where they lie (and a warning when SMO stopped at its cap).

    The renderer writes it (``viz/js/svm.js``, ``SvmModel.describe``); this is its reference.

    Parameters
    ----------
    sol : SVMSolution
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    """
    cat = categories(y, sol.decision, margin_tol(sol, view_box(X)))
    c = {name: int((cat == k).sum()) for k, name in enumerate(CATEGORIES)}
    sigma_xi = float(sol.slack.sum())
    sigma_xi = 0.0 if sigma_xi < 1e-9 else sigma_xi  # the solver's residue, not slack
    status = (f"{'Hard margin' if not math.isfinite(sol.C) else f'C = {sol.C:g}'}: margin width 2/‖w‖ = "
              f"{num(2 * sol.margin)}, {int(sol.support.sum())} support vectors, Σξ = {num(sigma_xi)}<br>"
              f"objective ½‖w‖² + C Σξ = {num(sol.objective)}<br>"
              f"points: {c['outside the margin']} outside, {c['on the margin']} on, {c['inside the margin']} inside "
              f"the margin; {c['misclassified']} misclassified")
    if not sol.converged:
        status += (f"<br>SMO stopped at its cap of {sol.iterations:,} iterations before its tolerance: this solution "
                   "is approximate ")
        scale = kernel_scale(X, sol)
        kmax, kstd = scale.get("kernel_max", 0.0), scale.get("kernel_max_standardized", 0.0)
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
