"""Predict the next update: the state before step k + 1, the point(s) it examines, and, once answered, the step.

A static figure (no frames): the quiz is answered on the server, one question per rerun.
"""

from __future__ import annotations

import numpy as np

from core.perceptron import Trajectory
from viz.common import (
    FONT,
    HIGHLIGHT,
    HIGHLIGHT_LINE,
    INK,
    NEG_COLOUR,
    NEG_REGION,
    NEG_SYMBOL,
    POS_COLOUR,
    POS_REGION,
    POS_SYMBOL,
    UPDATE_COLOUR,
    boundary_segment,
    names,
    num,
    region_xy,
    rounded,
    sub,
    view_box,
)

WRONG_COLOUR = "#CC0000"
LABEL_MAX = 60  # points named on the chart (x₁, x₂, …) up to this many


def question(traj: Trajectory, k: int) -> tuple[np.ndarray, str]:
    """The points step k + 1 examines and the question, in words.

    Parameters
    ----------
    traj : Trajectory
    k : int
        0 ≤ k < traj.n_steps: the state shown is the one after step k.

    Returns
    -------
    examined : ndarray of shape (m,)
        Indices of the points step k + 1 looks at (all n for the batch variant).
    text : str
        Markdown.
    """
    ex = traj.examined(k + 1)
    if traj.variant in ("cyclic", "random"):
        how = "the next point in order" if traj.variant == "cyclic" else "a point drawn at random"
        return ex, (f"Step {k + 1} examines {names(ex)} ({how}, lit yellow). Will the perceptron update on it? "
                    "Click it if you think so, or answer *No update*.")
    if traj.variant == "minibatch":
        return ex, (f"Step {k + 1} examines the batch I = {{{names(ex, limit=12)}}} (lit yellow). Click a point "
                    "whose yᵢxᵢ will enter the update, or answer *No update*.")
    return ex, (f"Step {k + 1} examines all {traj.problem.n} points at once. Click a point whose yᵢxᵢ will enter "
                "the update, or answer *No update*.")


def grade(traj: Trajectory, k: int, choice: int | None) -> tuple[bool, str]:
    """Whether ``choice`` (a point index, or None for "no update") predicts step k + 1, and why (Markdown).

    Right when the chosen point's yᵢxᵢ enters the update of step k + 1, or when
    None is chosen and step k + 1 changes nothing.
    """
    p = traj.problem
    upd = traj.updated(k + 1)
    ex = traj.examined(k + 1)
    (w,), (b,) = traj.states([k])
    m = p.margins(w, b)  # yᵢ(w·xᵢ + b) at the state before the step
    le = "<" if p.update_on == "negative" else "≤"
    gt = "≥" if p.update_on == "negative" else ">"

    def par(v: float) -> str:  # a negative factor in parentheses: 2·(−0.5), not 2·−0.5
        return num(v) if v >= 0 else f"({num(v)})"

    def why(i: int) -> str:
        return (f"x{sub(i + 1)} has y·(w·x + b) = {num(p.y[i])}·({num(w[0])}·{par(p.X[i, 0])} + {par(w[1])}·"
                f"{par(p.X[i, 1])} + {par(b)}) = {num(m[i])} {le if i in upd else gt} 0")

    if choice is None:
        right = upd.size == 0
        if right:
            detail = ("every examined point is on its own side: " + "; ".join(why(int(i)) for i in ex[:3])
                      + ("; …" if ex.size > 3 else ""))
        else:
            detail = f"{why(int(upd[0]))}, so it is misclassified and its yᵢxᵢ enters the update"
        return right, ("No update" + (" is right: " if right else " is wrong: ") + detail + ".")
    i = int(choice)
    if i in upd:
        others = upd[upd != i]
        extra = f" (with {others.size} more: {names(others)})" if others.size else ""
        return True, f"Right: {why(i)}, so x{sub(i + 1)} is misclassified and is updated on{extra}."
    if i not in ex:
        return False, (f"Not quite: step {k + 1} does not look at x{sub(i + 1)} (it examines {names(ex)}), so x"
                       f"{sub(i + 1)} cannot be updated on. " + (f"{why(int(upd[0]))}: that is the update."
                                                               if upd.size else "No point is updated."))
    return False, (f"Not quite: {why(i)}, so x{sub(i + 1)} is on its own side and nothing changes for it."
                   + (f" The update uses {names(upd)}." if upd.size else ""))


def quiz_figure(traj: Trajectory, k: int, *, choice: int | None = -1, height: int = 640) -> dict:
    """The state after step k with step k + 1's examined point(s) lit; once answered, the step drawn.

    Parameters
    ----------
    traj : Trajectory
        A 2-D run.
    k : int
        0 ≤ k < traj.n_steps.
    choice : int or None
        -1 while the question is open; the chosen point's index, or None ("no update"), once answered:
        then the new boundary is drawn, the updated point(s) ringed green and a wrong pick crossed red.
    height : int

    Returns
    -------
    dict
        A Plotly figure; the point traces carry the 0-based index as ``customdata`` (for the click).
    """
    p = traj.problem
    X, y = p.X, p.y
    box = view_box(X)
    span = box[1] - box[0]
    clip = (box[0] - span, box[1] + span, box[2] - span, box[3] + span)
    (w,), (b,) = traj.states([k])
    w, b = w.tolist(), float(b)
    answered = choice != -1
    data = []
    for sign, colour in ((1.0, POS_REGION), (-1.0, NEG_REGION)):  # the regions of w·x + b ≷ 0 before the step
        rx, ry = region_xy(clip, w, b, sign)
        data.append({"type": "scatter", "mode": "none", "fill": "toself", "fillcolor": colour, "x": rounded(rx),
                     "y": rounded(ry), "hoverinfo": "skip", "showlegend": False})
    ex = traj.examined(k + 1)
    if traj.variant != "batch":
        data.append({"type": "scatter", "mode": "markers", "name": f"examined at step {k + 1}",
                     "x": rounded(X[ex, 0]), "y": rounded(X[ex, 1]), "hoverinfo": "skip",
                     "marker": {"size": 30, "color": HIGHLIGHT, "line": {"color": HIGHLIGHT_LINE, "width": 3}}})
    show_names = len(y) <= LABEL_MAX
    for cls, colour, symbol in ((1, POS_COLOUR, POS_SYMBOL), (-1, NEG_COLOUR, NEG_SYMBOL)):
        idx = np.flatnonzero(y == cls)
        data.append({
            "type": "scatter", "mode": "markers+text" if show_names else "markers", "name": f"y = {cls:+d}".replace("-", "−"),
            "x": rounded(X[idx, 0]), "y": rounded(X[idx, 1]), "customdata": idx.tolist(),
            "text": [f"x{sub(i + 1)}" for i in idx] if show_names else None, "textposition": "top right",
            "textfont": {"size": 16, "color": INK},
            "marker": {"size": 13, "color": colour, "symbol": symbol, "line": {"color": "white", "width": 1}},
            "hovertemplate": ("%{text}" if show_names else "(%{x}, %{y})") + ": click to pick<extra></extra>",
        })
    lx, ly = boundary_segment(clip, w, b)
    data.append({"type": "scatter", "mode": "lines", "name": f"boundary after step {k}" if answered else "boundary",
                 "x": rounded(lx), "y": rounded(ly), "hoverinfo": "skip",
                 "line": {"color": "rgba(34,34,34,0.5)" if answered else INK, "width": 2.5 if answered else 4,
                          "dash": "dash" if answered else "solid"}})
    if answered:
        (w1,), (b1,) = traj.states([k + 1])
        nx, ny = boundary_segment(clip, w1.tolist(), float(b1))
        data.append({"type": "scatter", "mode": "lines", "name": f"boundary after step {k + 1}", "x": rounded(nx),
                     "y": rounded(ny), "hoverinfo": "skip", "line": {"color": INK, "width": 4}})
        upd = traj.updated(k + 1)
        data.append({"type": "scatter", "mode": "markers", "name": "updated on", "x": rounded(X[upd, 0]),
                     "y": rounded(X[upd, 1]), "hoverinfo": "skip",
                     "marker": {"symbol": "circle-open", "size": 30, "color": UPDATE_COLOUR, "line": {"width": 4}}})
        if choice is not None and int(choice) not in upd:
            c = int(choice)
            data.append({"type": "scatter", "mode": "markers", "name": "your pick", "x": rounded(X[[c], 0]),
                         "y": rounded(X[[c], 1]), "hoverinfo": "skip",
                         "marker": {"symbol": "x-thin-open", "size": 30, "color": WRONG_COLOUR, "line": {"width": 4}}})
    axis = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
            "tickfont": {"size": 15}}
    return {"data": data, "layout": {
        "height": height, "font": FONT, "paper_bgcolor": "white", "plot_bgcolor": "white", "dragmode": False,
        "clickmode": "event+select", "margin": {"l": 60, "r": 20, "t": 30, "b": 50}, "showlegend": True,
        "legend": {"font": {"size": 15}}, "hovermode": "closest",
        "xaxis": {**axis, "range": [box[0], box[1]], "title": {"text": "x₁", "font": {"size": 18}},
                  "constrain": "domain"},
        "yaxis": {**axis, "range": [box[2], box[3]], "title": {"text": "x₂", "font": {"size": 18}},
                  "scaleanchor": "x",
                  "constrain": "domain"},
        "meta": {"view": "quiz", "step": int(k), "answered": bool(answered)},
    }}
