"""Two runs side by side on the same data, stepped by one slider: the "Compare" figure.

A lecturer contrasts two runs of a linear classifier on identical points:
cyclic against random order, τ = 0.1 against τ = 1, B = 1 against B = 16, or
the perceptron against hinge-loss SGD (the SVM), with the exact soft-margin
SVM drawn as a fixed dashed line on the hinge panel.

One Plotly figure (a plain dict) with two data panels (``xaxis``/``yaxis`` on
the left, ``xaxis2``/``yaxis2`` on the right, the same square view) and one
step slider over a common step axis 0…max(S_left, S_right): the run that ends
first holds its last state, and its state line says where it finished. Each
panel shows the decision regions by the sign of w·x + b, the points (+1 blue
circles, −1 orange diamonds), the ringed points (M, y·(w·x+b) ≤ 0, for the
perceptron; the active hinges, y·(w·x+b) < 1, for hinge SGD), the point(s)
examined at the step, the boundary w·x + b = 0 and, on a step that updated,
the previous boundary dashed.

Frames ``s{step}`` carry only what changes: per panel the regions, the rings
(as ``selectedpoints`` of a ring trace over all points), the examined
point(s), the previous and current boundary; and the two state lines and the
Back/Next targets as layout paths.
"""

from __future__ import annotations

import math

import numpy as np

from core.perceptron import Trajectory
from core.snapshot import activation
from core.svm import HingeRun
from viz.common import (
    EMPTY,
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
    back_next,
    boundary_segment,
    num,
    region_xy,
    rounded,
    state_line,
    step_menus,
    step_slider,
    view_box,
    widened,
)

# trace offsets within a panel; the right panel's traces follow the left's (index + PANEL_TRACES)
T_REG_POS, T_REG_NEG, T_POS, T_NEG, T_RING, T_EXAM, T_OLD, T_LINE = range(8)
PANEL_TRACES = 8
FRAME_TRACES = [T_REG_POS, T_REG_NEG, T_RING, T_EXAM, T_OLD, T_LINE]  # what a frame updates, per panel
SIDES = ("left", "right")
# annotation order: panel titles, then the state lines that frames rewrite
A_STATE_LEFT, A_STATE_RIGHT = 2, 3  # annotations 0 and 1 are the panel titles
REFERENCE_COLOUR = "#CC79A7"  # Okabe–Ito reddish purple: the exact SVM
DOMAINS = ([0.0, 0.375], [0.41, 0.785])  # the panels' x domains; the legend sits right of them

# vertical layout in pixels, from the bottom of the plotting area up
SLIDER_PX = 64  # the step slider (current value above its rail)
BUTTONS_PX = 40  # Back/Next and Play/Pause, above the slider
LINE_PX = 20  # one line of the 15-px state text
WRAP_CHARS = 40  # a state line's clauses are broken to about this many characters (~300 px): the panels are narrow
AXIS_PX = 42  # tick labels and the x₁ title under each panel


def run_label(run) -> str:
    """A short name for a run, as a panel title: "cyclic, τ = 1", "mini-batch B = 16, τ = 0.1", "hinge SGD, C = 1"."""
    if isinstance(run, HingeRun):
        return f"hinge SGD (SVM), C = {num(run.C)}" + (", constant η" if run.schedule == "constant" else "")
    kind = {"cyclic": "cyclic", "random": "random order", "batch": "full batch"}.get(run.variant)
    if kind is None:  # minibatch
        kind = f"mini-batch B = {run.batch_size}"
    return f"{kind}, τ = {num(run.tau)}"


def run_summary(run) -> str:
    """How a run ended, in a few words: "converged at step 57 (12 updates)", "500 steps, no convergence"…"""
    S = run.n_steps
    if isinstance(run, HingeRun):
        k = int(run.active.sum())
        return f"{S:,} steps, hinge active at {k:,}"
    K = run.n_updates
    upd = f"{K:,} update{'s' * (K != 1)}"
    if run.converged:
        return f"converged at step {S:,} ({upd})"
    return f"not converged in {S:,} steps ({upd})"


class _Panel:
    """One run seen through the questions the figure asks of it, for a Trajectory or a HingeRun alike."""

    def __init__(self, run):
        if isinstance(run, Trajectory):
            self.kind = "perceptron"
            self.X, self.y = run.problem.X, run.problem.y
            strict = run.problem.update_on == "negative"
            self.ring_rule = "<" if strict else "≤"
        elif isinstance(run, HingeRun):
            self.kind = "hinge"
            self.X, self.y = run.X, run.y
            self.ring_rule = "<"
        else:
            raise TypeError(f"a compared run must be a core.perceptron.Trajectory or a core.svm.HingeRun, "
                            f"got {type(run).__name__}")
        self.run = run
        self.S = int(run.n_steps)

    def state(self, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(w, b) after each of ``steps`` (each 0..S), shapes (k, 2) and (k,)."""
        if self.kind == "hinge":
            return np.asarray(self.run.W[steps]), np.asarray(self.run.B[steps])
        return self.run.states(steps)

    def rings(self, w: np.ndarray, b: float) -> np.ndarray:
        """The ringed points at (w, b), bool of shape (n,).

        Perceptron: M under the run's rule, y·(w·x+b) ≤ 0 (or < 0).
        Hinge SGD: the active hinges, y·(w·x+b) < 1.
        """
        m = self.y * activation(self.X, w, b)  # functional margins y·(w·x + b), shape (n,), as the core sums them
        if self.kind == "hinge":
            return m < 1.0
        return self.run.problem.mistakes(m)

    def mistakes(self, w: np.ndarray, b: float) -> np.ndarray:
        """Misclassified points at (w, b), bool of shape (n,): M, y·(w·x+b) ≤ 0 (the perceptron run's own rule)."""
        m = self.y * activation(self.X, w, b)  # y·(w·x + b)
        if self.kind == "hinge":
            return m <= 0.0
        return self.run.problem.mistakes(m)

    def examined(self, step: int) -> list[int]:
        """Indices looked at in ``step`` (1..S); none at step 0, and none for the full batch (it is every point)."""
        if step == 0:
            return []
        if self.kind == "hinge":
            return [int(self.run.order[step - 1])]
        if self.run.variant == "batch":
            return []
        return self.run.examined(step).tolist()

    def updated(self, step: int) -> bool:
        """Whether ``step`` (1..S) moved the boundary by a data term: a perceptron update, or an active hinge.

        (Hinge SGD also shrinks w by 1 − ηλ on every step; that alone is not drawn as an update.)
        """
        if step == 0:
            return False
        if self.kind == "hinge":
            return bool(self.run.active[step - 1])
        return self.run.update_position(step) is not None

    def ring_name(self) -> str:
        """The legend entry of the rings."""
        if self.kind == "hinge":
            return "margin < 1 (active hinge):<br>y·(w·x+b) < 1"
        return f"M: misclassified,<br>y·(w·x+b) {self.ring_rule} 0"


def _same_data(a: _Panel, b: _Panel) -> None:
    """Raise ValueError unless both runs are on the same 2-D X and y."""
    if a.X.shape != b.X.shape:
        raise ValueError(f"the two runs must be on the same data: the left run has {a.X.shape[0]} points in "
                         f"{a.X.shape[1]}-D, the right one {b.X.shape[0]} in {b.X.shape[1]}-D")
    if a.X.shape[1] != 2:
        raise ValueError(f"the compare figure draws 2-D data, got d = {a.X.shape[1]}")
    if not np.array_equal(a.X, b.X) or not np.array_equal(a.y, b.y):
        diff = int(np.sum(np.any(a.X != b.X, axis=1) | (a.y != b.y)))
        raise ValueError(f"the two runs must be on the same data: both have {a.X.shape[0]} points, but {diff} of "
                         "them differ in position or label")


def compare_steps(S_left: int, S_right: int, max_frames: int = 300) -> tuple[np.ndarray, str]:
    """The common steps that become frames: 0…max(S_left, S_right), thinned evenly to ``max_frames``.

    The first and last step are always kept, and so is the step where the shorter run ends.

    Parameters
    ----------
    S_left, S_right : int
        The runs' last steps.
    max_frames : int
        Frame cap, >= 3.

    Returns
    -------
    steps : ndarray of shape (f,), int64
        Increasing, first 0, last max(S_left, S_right), f <= max_frames.
    note : str
        Empty when every step is a frame, else what was thinned.
    """
    if isinstance(max_frames, bool) or not isinstance(max_frames, int | np.integer) or max_frames < 3:
        raise ValueError(f"max_frames must be an integer >= 3, got {max_frames!r}")
    T = max(S_left, S_right)
    if T + 1 <= max_frames:
        return np.arange(T + 1), ""
    steps = np.unique(np.linspace(0, T, max_frames).round().astype(np.int64))  # evenly spaced, 0 and T among them
    end = min(S_left, S_right)
    if end not in steps:  # the shorter run's end replaces the nearest interior step
        j = 1 + int(np.argmin(np.abs(steps[1:-1] - end)))
        steps[j] = end
        steps = np.unique(steps)
    note = (f"{T + 1:,} steps are more than the {max_frames:,}-frame cap: the animation shows {steps.size:,} evenly "
            f"spaced ones (about 1 in {(T + 1) / steps.size:.3g}), the first and the last included. Lower max steps "
            "to see each of them.")
    return steps, note


def _reference(reference) -> tuple[np.ndarray, float]:
    """(w, b) of the exact SVM from an object with ``.w`` and ``.b`` (an SVMSolution) or a pair (w, b)."""
    if hasattr(reference, "w") and hasattr(reference, "b"):
        w, b = reference.w, reference.b
    else:
        try:
            w, b = reference
        except (TypeError, ValueError):
            raise ValueError(f"reference must be an SVMSolution or a pair (w, b), got {reference!r}") from None
    try:
        w = np.asarray(w, dtype=float).reshape(-1)
        b = float(b)
    except (TypeError, ValueError):
        raise ValueError(f"reference must be an SVMSolution or a pair (w, b), got {reference!r}") from None
    if w.shape != (2,) or not np.isfinite(w).all() or not math.isfinite(b):
        raise ValueError(f"reference w must be 2 finite numbers and b finite, got w = {w.tolist()}, b = {b}")
    return w, b


def _panel_traces(p: _Panel, side: int, legend: dict[str, bool]) -> list[dict]:
    """The traces of one panel in T_* order (frame-driven ones filled in from the first frame later).

    ``legend`` says which legend groups already have an entry (updated in place): the right panel repeats
    the left's entries only where they mean something else (its rings, for a hinge run).
    """
    X, y = p.X, p.y
    ax = {"xaxis": "x" if side == 0 else "x2", "yaxis": "y" if side == 0 else "y2"}
    n = len(y)
    # markers shrink as points crowd, so rings mark M without burying the classes
    size = 10 if n <= 100 else 8 if n <= 400 else 6 if n <= 1000 else 4
    ring, ring_w = (2 * size + 2, 2.2) if n <= 100 else (size + 7, 1.5) if n <= 400 else (size + 5, 1.2)

    def shown(group: str) -> dict:
        first = group not in legend
        legend[group] = True
        return {"legendgroup": group, "showlegend": first}

    def points(label: int, colour: str, symbol: str) -> dict:
        idx = np.flatnonzero(y == label)
        sign = "+1" if label > 0 else "−1"
        return {"type": "scatter", "name": f"y = {sign}", "mode": "markers", "x": rounded(X[idx, 0]),
                "y": rounded(X[idx, 1]), "customdata": (idx + 1).tolist(),
                "marker": {"color": colour, "symbol": symbol, "size": size + (symbol == NEG_SYMBOL),
                           "line": {"color": "white", "width": 1 if size > 5 else 0.5}},
                "hovertemplate": f"x<sub>%{{customdata}}</sub> = (%{{x}}, %{{y}}), y = {sign}<extra></extra>",
                **shown(f"y{sign}"), **ax}

    # one examined point gets a large halo; a mini-batch's B points smaller ones, not to bury their neighbours
    many = p.kind == "perceptron" and p.run.variant == "minibatch" and p.run.batch_size > 1
    halo = 2 * size + 2 if many else max(22, 2 * size + 6)
    ring_group = f"ring {p.ring_name()}"
    return [
        {"type": "scatter", "name": "region ŷ = +1", "fill": "toself", "fillcolor": POS_REGION, "mode": "none",
         "hoverinfo": "skip", "showlegend": False, **ax},
        {"type": "scatter", "name": "region ŷ = −1", "fill": "toself", "fillcolor": NEG_REGION, "mode": "none",
         "hoverinfo": "skip", "showlegend": False, **ax},
        points(1, POS_COLOUR, POS_SYMBOL),
        points(-1, NEG_COLOUR, NEG_SYMBOL),
        {"type": "scatter", "name": p.ring_name(), "mode": "markers", "x": rounded(X[:, 0], 2),
         "y": rounded(X[:, 1], 2), "hoverinfo": "skip",  # rings need no more precision
         "marker": {"symbol": "circle-open", "size": ring, "color": INK if n <= 100 else "rgba(0, 0, 0, 0.7)",
                    "line": {"width": ring_w}},
         "selected": {"marker": {"opacity": 1}}, "unselected": {"marker": {"opacity": 0}},
         **shown(ring_group), **ax},
        # over the points and rings, translucent, so the point shows through
        {"type": "scatter", "name": "examined this step", "mode": "markers", "hoverinfo": "skip",
         "marker": {"symbol": "circle", "size": halo, "color": HIGHLIGHT,
                    "line": {"color": HIGHLIGHT_LINE, "width": 3}}, **shown("examined"), **ax},
        {"type": "scatter", "name": "previous boundary", "mode": "lines", "hoverinfo": "skip",
         "line": {"color": "rgba(34,34,34,0.5)", "width": 2.5, "dash": "dash"}, **shown("previous"), **ax},
        {"type": "scatter", "name": "boundary w·x + b = 0", "mode": "lines", "hoverinfo": "skip",
         "line": {"color": INK, "width": 4}, **shown("boundary"), **ax},
    ]


def _panel_frame(p: _Panel, step: int, w: np.ndarray, b: float, clip) -> tuple[list[dict], str]:
    """One panel at one common step: the FRAME_TRACES updates and the state text.

    ``step`` is the common step; the panel shows its run at min(step, S), with (w, b) the state there.
    """
    s = min(step, p.S)  # the shorter run holds its last state
    wl = w.tolist()
    lx, ly = boundary_segment(clip, wl, b)

    def region(sign: float) -> dict:
        """Where ŷ = sign(w·x + b) is ``sign`` (nothing: a gap point, so a frame clears it)."""
        rx, ry = region_xy(clip, wl, b, sign)
        return {"x": rounded(rx, 2), "y": rounded(ry, 2)} if rx else EMPTY

    ex = p.examined(s) if s == step else []  # a finished run examines nothing
    old = EMPTY
    if s == step and p.updated(s):
        (wp,), (bp,) = p.state(np.array([s - 1]))  # the state before this step's update
        ox, oy = boundary_segment(clip, wp.tolist(), float(bp))
        old = {"x": rounded(ox, 3), "y": rounded(oy, 3)} if ox else EMPTY
    data = [
        region(+1.0),
        region(-1.0),
        _ring_update(p.rings(w, b)),
        {"x": rounded(p.X[ex, 0]), "y": rounded(p.X[ex, 1])} if ex else EMPTY,
        old,
        {"x": rounded(lx, 3), "y": rounded(ly, 3)} if lx else EMPTY,
    ]
    return data, _state_text(p, step, s, w, b)


def _ring_update(ring: np.ndarray) -> dict:
    """The ring trace's update for the ringed mask ``ring`` (bool, shape (n,)).

    The ringed points are its ``selectedpoints`` (selected opacity 1, unselected 0); when more than half are
    ringed, the others are listed instead and the two opacities swap, so a frame never lists more than n/2.
    """
    if 2 * int(ring.sum()) > ring.size:
        return {"selectedpoints": np.flatnonzero(~ring).tolist(), "selected": {"marker": {"opacity": 0}},
                "unselected": {"marker": {"opacity": 1}}}
    return {"selectedpoints": np.flatnonzero(ring).tolist(), "selected": {"marker": {"opacity": 1}},
            "unselected": {"marker": {"opacity": 0}}}


def _state_text(p: _Panel, step: int, s: int, w: np.ndarray, b: float) -> str:
    """The panel's state in words (HTML line breaks): :func:`viz.common.state_line`, and where the run ended."""
    n = len(p.y)
    extra = ""
    if p.kind == "hinge":
        k = int(p.rings(w, b).sum())
        extra = f"margin < 1 (ringed): {k} of {n}"
    line = state_line(s, p.S, w.tolist(), b, np.flatnonzero(p.mistakes(w, b)).tolist(), n, extra)
    lines = [_wrapped(clause) for clause in line.split("; ")]  # one clause a line, long ones broken: the panel is narrow
    if step > p.S:
        lines.insert(0, f"<b>finished at step {p.S:,}</b> (holds its last state)")
    return "<br>".join(lines)


def _wrapped(clause: str, width: int = WRAP_CHARS) -> str:
    """A clause of plain text broken with <br> into lines of about ``width`` characters.

    It breaks after a heading colon ("Step 3 of 9:", "23 of 40 misclassified:") if there is one, else after the
    last ", " that fits; a part with neither stays whole.
    """
    if len(clause) <= width:
        return clause
    k = clause.find(": ")
    if not 0 < k < width:
        k = clause.rfind(", ", 0, width)
    if k <= 0:
        return clause
    return clause[:k + 1] + "<br>" + _wrapped(clause[k + 2:], width)


def compare_figure(
    left,
    right,
    *,
    titles: tuple[str, str] | None = None,
    max_frames: int = 300,
    height: int = 700,
    reference=None,
) -> dict:
    """Two runs on the same data side by side, stepped together by one slider.

    Parameters
    ----------
    left, right : core.perceptron.Trajectory or core.svm.HingeRun
        The runs, on the same X of shape (n, 2) and y of shape (n,).
    titles : (str, str), optional
        The panel titles (HTML allowed); default :func:`run_label` of each run, e.g. "cyclic, τ = 1".
        Each title gets a second line from :func:`run_summary` ("converged at step 57 (12 updates)").
    max_frames : int
        Cap on animation frames (>= 3; see :func:`compare_steps`).
    height : int
        Figure height in pixels (>= 480).
    reference : SVMSolution or (w, b), optional
        The exact soft-margin SVM (``core.svm.fit_svm`` with the run's C), drawn as a fixed dashed line on
        every panel that shows a HingeRun; w of shape (2,). It is an error with no HingeRun among the runs,
        and for an SVMSolution whose C is not the hinge run's.

    Returns
    -------
    dict
        A Plotly figure: ``data`` (per panel the 8 traces in T_* order, the right panel's at +8, then the
        reference line(s)), ``layout`` (annotations: title left, title right, state left, state right; the
        step slider; menu 0 Play/Fast/Pause, menu 1 Back/Next; ``meta``) and ``frames`` named ``s{step}``.

    Raises
    ------
    ValueError
        When the runs are on different data, the data are not 2-D, or an argument is out of range.
    TypeError
        When a run is neither a Trajectory nor a HingeRun.
    """
    panels = (_Panel(left), _Panel(right))
    _same_data(*panels)
    if isinstance(height, bool) or not isinstance(height, int | np.integer) or height < 480:
        raise ValueError(f"height must be an integer >= 480 (pixels), got {height!r}")
    if titles is None:
        titles = (run_label(left), run_label(right))
    elif isinstance(titles, str) or len(titles) != 2:
        raise ValueError(f"titles must be two strings (left, right), got {titles!r}")
    titles = (str(titles[0]), str(titles[1]))
    ref = None
    if reference is not None:
        if not any(p.kind == "hinge" for p in panels):
            raise ValueError("reference (the exact SVM) is drawn on a hinge-SGD panel, but neither run is a HingeRun")
        ref = _reference(reference)
        ref_C = getattr(reference, "C", None)
        for p in panels:
            if p.kind == "hinge" and ref_C is not None and not math.isclose(float(ref_C), p.run.C):
                raise ValueError(f"reference was fitted with C = {num(ref_C)}, but the hinge-SGD run has "
                                 f"C = {num(p.run.C)}: fit the exact SVM with the run's C")

    X = panels[0].X
    box = view_box(X)
    clip = widened(box)  # lines and regions reach past the view
    steps, note = compare_steps(panels[0].S, panels[1].S, max_frames)

    legend: dict[str, bool] = {}
    data = _panel_traces(panels[0], 0, legend) + _panel_traces(panels[1], 1, legend)
    if ref is not None:
        rx, ry = boundary_segment(clip, ref[0].tolist(), ref[1])
        for side, p in enumerate(panels):
            if p.kind != "hinge":
                continue
            data.append({"type": "scatter", "name": f"exact SVM (C = {num(p.run.C)}):<br>w*·x + b* = 0",
                         "mode": "lines", "x": rounded(rx, 3), "y": rounded(ry, 3), "hoverinfo": "skip",
                         "line": {"color": REFERENCE_COLOUR, "width": 3, "dash": "longdash"},
                         "legendgroup": "reference", "showlegend": "reference" not in legend,
                         "xaxis": "x" if side == 0 else "x2", "yaxis": "y" if side == 0 else "y2"})
            legend["reference"] = True

    # the states of both runs at every frame step (the shorter run held at its end)
    states = []
    for p in panels:
        W, B = p.state(np.minimum(steps, p.S))
        states.append((W, B.tolist()))
    traces = FRAME_TRACES + [t + PANEL_TRACES for t in FRAME_TRACES]
    fnames = [f"s{st}" for st in steps.tolist()]
    frames = []
    for f, step in enumerate(steps.tolist()):
        fdata, texts = [], []
        for p, (W, B) in zip(panels, states, strict=True):
            d, txt = _panel_frame(p, step, W[f], B[f], clip)
            fdata += d
            texts.append(txt)
        frames.append({
            "name": fnames[f],
            "group": "steps",
            "traces": traces,
            "data": fdata,
            "layout": {
                f"annotations[{A_STATE_LEFT}].text": texts[0],
                f"annotations[{A_STATE_RIGHT}].text": texts[1],
                "updatemenus[1].buttons": back_next(fnames[max(f - 1, 0)], fnames[min(f + 1, len(fnames) - 1)]),
            },
        })

    # the base figure shows the first frame
    first = frames[0]
    for t, d in zip(traces, first["data"], strict=True):
        data[t].update(d)
    n_lines = max(txt.count("<br>") + 1 for fr in frames for key, txt in fr["layout"].items()
                  if key.startswith("annotations"))
    layout = _layout(panels, box, titles, steps, fnames, first, int(height), n_lines * LINE_PX + 6)
    layout["meta"] = {
        "view": "compare",
        "frame_steps": steps.tolist(),
        "n_steps": [panels[0].S, panels[1].S],
        "titles": list(titles),
        "kinds": [p.kind for p in panels],
        "thinned": note,
    }
    return {"data": data, "layout": layout, "frames": frames}


def _layout(panels, box, titles, steps, fnames, first, height: int, state_px: int) -> dict:
    """Two equal square panels, their titles and state lines, the legend on the right, the slider and buttons.

    ``state_px`` is the height the state lines need (their most lines in any frame).
    """
    margin = {"l": 60, "r": 10, "t": 70, "b": 6}
    paper = height - margin["t"] - margin["b"]  # the plotting area's height in pixels

    def frac(px: float) -> float:
        return px / paper

    y_slider = frac(SLIDER_PX)  # the slider hangs from here
    y_buttons = frac(SLIDER_PX + 4)  # the buttons stand on it
    y_state = frac(SLIDER_PX + BUTTONS_PX + state_px)  # the state lines hang from here
    y_panel = frac(SLIDER_PX + BUTTONS_PX + state_px + AXIS_PX)  # the panels' bottom
    # equal scales on x₁ and x₂ and the exact view box: each panel shrinks to a square centred in its domain
    axis = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
            "constrain": "domain", "autorange": False, "tickfont": {"size": 15}}
    axis_title = {"size": 17, "color": INK}
    layout = {
        "height": height,
        "font": FONT,
        "margin": margin,
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "hovermode": "closest",
        "dragmode": False,
        "legend": {"x": DOMAINS[1][1] + 0.02, "y": 1.0, "xanchor": "left", "yanchor": "top", "font": {"size": 15},
                   "itemsizing": "constant", "tracegroupgap": 4,
                   "bgcolor": "rgba(255,255,255,0.85)", "bordercolor": "#cccccc", "borderwidth": 1},
        "annotations": [],
        "sliders": [step_slider(steps, fnames, y=y_slider)],
        "updatemenus": step_menus(first["layout"]["updatemenus[1].buttons"], y=y_buttons, play_x=DOMAINS[1][1]),
    }
    for side, dom in enumerate(DOMAINS):
        sx = "" if side == 0 else "2"
        layout[f"xaxis{sx}"] = {**axis, "domain": dom, "range": [box[0], box[1]], "anchor": f"y{sx}",
                                "title": {"text": "x₁", "standoff": 4, "font": axis_title}}
        layout[f"yaxis{sx}"] = {**axis, "domain": [y_panel, 1.0], "range": [box[2], box[3]], "anchor": f"x{sx}",
                                "scaleanchor": f"x{sx}", "scaleratio": 1,
                                "title": {"text": "x₂", "standoff": 4, "font": axis_title}}
    centre = [(d[0] + d[1]) / 2 for d in DOMAINS]
    for side in (0, 1):
        layout["annotations"].append({
            "name": f"title_{SIDES[side]}", "text": f"<b>{titles[side]}</b><br>{run_summary(panels[side].run)}",
            "xref": "paper", "yref": "paper", "x": centre[side], "y": 1.0, "yshift": 4, "xanchor": "center",
            "yanchor": "bottom", "align": "center", "showarrow": False, "font": {"size": 17, "color": INK},
        })
    for side in (0, 1):
        layout["annotations"].append({
            "name": f"state_{SIDES[side]}", "text": first["layout"][f"annotations[{A_STATE_LEFT + side}].text"],
            "xref": "paper", "yref": "paper", "x": centre[side], "y": y_state, "xanchor": "center",
            "yanchor": "top", "align": "center", "showarrow": False, "font": {"size": 15, "color": INK},
        })
    return layout
