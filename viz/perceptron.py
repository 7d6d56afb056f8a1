"""The perceptron step-through figure: data, boundary, w, the update, M, and the curves.

One Plotly figure (a plain dict) with two panels linked to one step slider:
the data panel (points, shaded decision regions, the line w·x + b = 0 before
and after, the normal vector w, the update vector τ·y·x, the misclassified
set M ringed, the examined point(s) marked, the arithmetic written out) and,
under it, |M| and the perceptron loss per step with the current step marked.

Frames carry only the traces that change. M changes only when (w, b) does, so
each stored state gets one small "state frame" holding M (as
``selectedpoints`` of a ring trace over all points) and every step frame
names its state frame as ``baseframe``: M is sent once per state, not per step.
"""

from __future__ import annotations

import math

import numpy as np

from core.perceptron import Trajectory
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
    UPDATE_COLOUR,
    after_updates,
    back_next,
    boundary_segment,
    legend_proxy,
    names,
    num,
    point_set,
    region_xy,
    rounded,
    state_text,
    step_menus,
    step_slider,
    sub,
    typed_array,
    vec,
    view_box,
)

# trace indices, fixed so that frames can name them
T_REG_POS, T_REG_NEG, T_POS, T_NEG, T_RING, T_EXAM, T_OLD, T_LINE, T_W_OLD, T_W, T_UPD, T_CUR, T_ERR, T_LOSS = range(14)
STATE_TRACES = [T_REG_POS, T_REG_NEG, T_RING, T_LINE, T_W]  # change only when (w, b) does
STEP_TRACES = [T_EXAM, T_OLD, T_W_OLD, T_UPD, T_CUR]  # change every step
MAX_CURVE_POINTS = 2000
A_STATE = 1  # layout.annotations index of the state line under the data panel (0 is the step's arithmetic)
STATE_NAMES = 6  # most misclassified points the state line names (3 above 100 points: frames stay light)
AXIS_PX = 50  # the data panel's x tick labels and title, under its bottom edge
STATE_PX = 30  # the state line under them


def choose_frames(traj: Trajectory, max_frames: int = 500, mode: str = "all") -> tuple[np.ndarray, str]:
    """Pick the steps that become animation frames.

    Parameters
    ----------
    traj : Trajectory
    max_frames : int
        Frame cap (>= 2).
    mode : {"all", "updates"}
        Every step, or only step 0, the steps that changed (w, b), and the last step.

    Returns
    -------
    steps : ndarray of shape (f,)
        Increasing step indices, first 0 and last S.
    note : str
        Empty when every chosen step is shown, else what was thinned.
    """
    if mode not in ("all", "updates"):
        raise ValueError(f"mode must be 'all' or 'updates', got {mode!r}")
    max_frames = max(2, int(max_frames))
    S = traj.n_steps
    if mode == "updates":
        steps = np.unique(np.concatenate([[0], traj.update_steps, [S]]))
        what = "updates"
    else:
        steps = np.arange(S + 1)
        what = "steps"
    if steps.size <= max_frames:
        return steps, ""
    keep = np.unique(np.linspace(0, steps.size - 1, max_frames).round().astype(np.int64))
    note = (
        f"{steps.size:,} {what} are more than the {max_frames:,}-frame cap: the animation shows {keep.size:,} "
        f"evenly spaced ones (about 1 in {steps.size / keep.size:.3g}), the first and the last included. "
        + ("Lower max steps to see each of them." if mode == "updates"
           else "Lower max steps or pick 'updates only' to see more of them one by one.")
    )
    return steps[keep], note


def _rule_signs(traj: Trajectory) -> tuple[str, str]:
    """(mistake, correct) comparison signs of y·a with 0 under the active rule: ("≤", ">") or ("<", "≥")."""
    return ("<", "≥") if traj.problem.update_on == "negative" else ("≤", ">")


def _step_coef(traj: Trajectory) -> tuple[str, str]:
    """The coefficient of Σ yᵢxᵢ in the update, as a symbol and as numbers: ("τ/B", "1/20"), ("τ", "1")…"""
    tau = num(traj.tau)
    if traj.reduction == "mean" and traj.variant == "minibatch":
        return "τ/B", f"{tau}/{traj.batch_size}"
    if traj.reduction == "mean" and traj.variant == "batch":
        return "τ/N", f"{tau}/{traj.problem.n}"
    return "τ", tau


def describe_step(traj: Trajectory, step: int, bound=None) -> str:
    """The arithmetic of one step in the seeds' notation (HTML line breaks).

    E.g. ``x₃ = (1, 1), y = −1 misclassified: y·(w·x+b) = −1·((1, 1)·(1, 1) − 1)
    = −1 ≤ 0 → w ← (1, 1) + 1·(−1)·(1, 1) = (0, 0), b ← −1 + 1·(−1) = −2``.

    Parameters
    ----------
    traj : Trajectory
    step : int
        0 <= step <= traj.n_steps.
    """
    (w,), (b,) = traj.states([step])
    if step:
        (wp,), (bp,) = traj.states([step - 1])
    else:
        wp, bp = w, b
    return _describe(traj, step, w.tolist(), float(b), wp.tolist(), float(bp), traj.updated(step),
                     bound if bound_applies(traj, bound)[0] else None)


def _describe(traj: Trajectory, step: int, w: list, b: float, wp: list, bp: float, upd: np.ndarray,
              bound=None) -> str:
    """:func:`describe_step` from precomputed state (w, b after; wp, bp before); ``bound`` if it applies."""
    p = traj.problem
    fit_b = p.fit_intercept
    le, gt = _rule_signs(traj)
    converged = traj.converged and step == traj.n_steps
    if step == 0:
        errors = traj[0].errors
        txt = f"<b>Step 0</b>: start at w = {vec(w)}, b = {num(b)}; |M| = {errors} of {p.n} points."
        if bound is not None:
            txt += f" At most (R/γ)² = {_bnum(bound.bound)} updates to come."
        if p.update_on == "negative" and not any(w) and b == 0:
            txt += "<br>Every y·a is 0 at w = 0, b = 0, and the rule updates only when y·a < 0: nothing will move."
        elif converged:
            txt += "<br>✓ The initial boundary already separates the data."
        return txt
    head = f"<b>Step {step}</b> (epoch {traj.epoch(step)})"
    if bound is not None:  # Novikoff: k updates so far, never more than (R/γ)²
        head += f" · updates so far {int(traj.state_index(step))} ≤ (R/γ)² = {_bnum(bound.bound)}"
    tau = traj.tau
    if traj.variant in ("cyclic", "random"):
        i = int(traj.examined(step)[0])
        xi = p.X[i].tolist()
        yi = int(p.y[i])
        a = yi * (wp[0] * xi[0] + wp[1] * xi[1] + bp)  # y·(w·x + b) at the old state
        with_b = fit_b or bp != 0  # a fixed b₀ ≠ 0 still enters a
        bias = "" if not with_b else (f" + {num(bp)}" if bp >= 0 else f" − {num(-bp)}")
        act = f"y·(w·x{'+b' if with_b else ''}) = {num(yi)}·({vec(wp)}·{vec(xi)}{bias}) = {num(a)}"
        name = f"x{sub(i + 1)} = {vec(xi)}, y = {'+1' if yi > 0 else '−1'}"
        if upd.size:
            txt = (f"{head}: {name} misclassified:<br>{act} {le} 0<br>"
                   f"→ w ← {vec(wp)} + {num(tau)}·({num(yi)})·{vec(xi)} = {vec(w)}")
            txt += f", b ← {num(bp)} + {num(tau)}·({num(yi)}) = {num(b)}" if fit_b else f", b stays {num(b)}"
        else:
            txt = f"{head}: {name} correct:<br>{act} {gt} 0 → no update"
    else:
        ex = traj.examined(step)
        coef, full = _step_coef(traj)
        if traj.variant == "minibatch":
            txt = f"{head}: batch I = {{{names(ex)}}} (B = {traj.batch_size})<br>mistakes M∩I = {point_set(upd)}"
            sumname = "Σ<sub>i∈M∩I</sub>"
        else:
            txt = f"{head}: all {p.n} points<br>mistakes M = {point_set(upd)}"
            sumname = "Σ<sub>i∈M</sub>"
        if upd.size:
            g = (p.y[upd] @ p.X[upd]).tolist()  # Σ yᵢxᵢ over the mistakes
            txt += f"<br>→ w ← w + {coef}·{sumname} yᵢxᵢ = {vec(wp)} + {full}·{vec(g)} = {vec(w)}"
            if fit_b:
                txt += f", b ← {num(bp)} + {full}·({num(int(p.y[upd].sum()))}) = {num(b)}"
        else:
            txt += " → no update"
    if converged:
        txt += f"<br>✓ Converged: no point is misclassified (|M| = 0) after {traj.n_updates} updates."
    return txt


def perceptron_figure(
    traj: Trajectory,
    *,
    max_frames: int = 500,
    mode: str = "all",
    height: int = 780,
    title: str = "",
    bound=None,
) -> dict:
    """Build the step-through figure for a 2-D perceptron run.

    Parameters
    ----------
    traj : Trajectory
        The run; its data must be 2-D (X of shape (n, 2)).
    max_frames : int
        Cap on animation frames (see :func:`choose_frames`).
    mode : {"all", "updates"}
        Which steps become frames.
    height : int
        Figure height in pixels.
    title : str
        Figure title.
    bound : core.bounds.MistakeBound, optional
        The mistake bound of the data; where it applies (see :func:`bound_applies`)
        each step says "updates so far k ≤ (R/γ)²", and R and γ can be shown from the legend.

    Returns
    -------
    dict
        A Plotly figure: ``data``, ``layout`` (step slider, Back/Next,
        Play/Fast/Pause, and ``layout.meta`` describing the run and the frames)
        and ``frames`` (state frames ``m{k}`` holding M, step frames ``s{step}``).
    """
    p = traj.problem
    X, y = p.X, p.y
    if X.shape[1] != 2:
        raise ValueError(f"the step-through figure draws 2-D data, got d = {X.shape[1]}")
    box = view_box(X)
    span = box[1] - box[0]
    cx, cy = (box[0] + box[1]) / 2, (box[2] + box[3]) / 2
    clip = (cx - 2 * span, cx + 2 * span, cy - 2 * span, cy + 2 * span)  # lines and regions reach past the view
    steps, note = choose_frames(traj, max_frames, mode)
    W, B = traj.states(steps)
    Wp, Bp = traj.states(np.maximum(steps - 1, 0))
    kidx = traj.state_index(steps)
    states = np.unique(kidx)
    masks = traj.state_mistakes(states)

    # vectors are drawn tip to tail from a base point P (the origin when in view)
    # at one scale s for the whole run, so w_new = w_old + τ·y·x holds on screen
    inside = box[0] < 0 < box[1] and box[2] < 0 < box[3]
    P = (0.0, 0.0) if inside else ((box[0] + box[1]) / 2, (box[2] + box[3]) / 2)
    wmax = float(max(np.linalg.norm(W, axis=1).max(), np.linalg.norm(Wp, axis=1).max()))
    s = 0.42 * span / wmax if wmax > 1e-9 else 1.0  # w = 0 throughout: nothing to scale

    def arrow(w0, w1) -> dict:
        """The segment from P + s·w0 to P + s·w1 (w0 = 0: the vector w1 itself from P)."""
        return {"x": rounded([P[0] + s * w0[0], P[0] + s * w1[0]]), "y": rounded([P[1] + s * w0[1], P[1] + s * w1[1]])}

    online = traj.variant in ("cyclic", "random")
    update_name = "update τ·y·x" if online else f"update {_step_coef(traj)[0]} Σ yᵢxᵢ over M"
    data = _base_traces(X, y, s, update_name)
    # |M| and loss per step, at most MAX_CURVE_POINTS samples
    cs = np.unique(np.linspace(0, traj.n_steps, min(traj.n_steps + 1, MAX_CURVE_POINTS)).round().astype(np.int64))
    errors, loss = traj.stats_at(cs)
    # every step sampled: x as x0 + k·dx (no list of the step numbers: the frames leave room for the state line)
    xs = {"x0": 0, "dx": 1} if cs.size == traj.n_steps + 1 else {"x": cs.tolist()}
    data.append({"type": "scatter", "name": "|M| (left axis)", "mode": "lines", **xs,
                 "y": typed_array(errors, "u2" if errors.max(initial=0) < 65536 else "i4"), "line": {"color": POS_COLOUR, "width": 2.5, "shape": "hv"},
                 "xaxis": "x2", "yaxis": "y2", "hovertemplate": "step %{x}: |M| = %{y}<extra></extra>"})
    data.append({"type": "scatter", "name": "perceptron loss (right axis)", "mode": "lines", **xs,
                 "y": typed_array(loss, "f4"), "line": {"color": NEG_COLOUR, "width": 2.5, "shape": "hv", "dash": "dash"},
                 "xaxis": "x2", "yaxis": "y3", "hovertemplate": "step %{x}: loss = %{y:.3f}<extra></extra>"})
    emax = max(1, int(errors.max()))
    data += _legend_proxies(data, far=int(round(box[1] + 10 * span)))  # whole: short in the JSON
    shown_bound = bound if bound_applies(traj, bound)[0] else None
    if shown_bound is not None:
        data += _bound_traces(shown_bound, clip)

    # one state frame per stored state: what depends on (w, b) only (M as
    # selectedpoints of the ring trace, the regions, the boundary, w)
    Ws, Bs = traj.W[states].tolist(), traj.B[states].tolist()
    limit = STATE_NAMES if p.n <= 100 else 3
    frames = []
    for k, m, w, b in zip(states.tolist(), masks, Ws, Bs, strict=True):
        lx, ly = boundary_segment(clip, w, b)
        rp, rn = region_xy(clip, w, b, +1.0), region_xy(clip, w, b, -1.0)
        frames.append({"name": f"m{k}", "traces": STATE_TRACES, "data": [
            {"x": rounded(rp[0], 2), "y": rounded(rp[1], 2)},
            {"x": rounded(rn[0], 2), "y": rounded(rn[1], 2)},
            {"selectedpoints": np.flatnonzero(m).tolist()},
            {"x": rounded(lx, 2), "y": rounded(ly, 2)},
            arrow((0.0, 0.0), w) if any(w) else EMPTY,
        ], "layout": {  # the state line: w, b and M after k updates (the same on every step of this state)
            f"annotations[{A_STATE}].text": state_text(after_updates(k), f"w = {vec(w)}, b = {num(b)}",
                                                       np.flatnonzero(m), p.n, limit=limit),
        }})
    # one step frame per shown step: the examined point(s), the update drawn
    # from the old state, the arithmetic, the Back/Next targets
    fnames = [f"s{st}" for st in steps.tolist()]
    Wl, Bl, Wpl, Bpl = W.tolist(), B.tolist(), Wp.tolist(), Bp.tolist()
    Xl = X.tolist()
    for f, step in enumerate(steps.tolist()):
        w, b, wp, bp = Wl[f], Bl[f], Wpl[f], Bpl[f]
        upd = traj.updated(step)
        if traj.variant == "batch" or step == 0:
            ex_x, ex_y = [], []
        else:
            ex = traj.examined(step).tolist()
            ex_x, ex_y = [Xl[i][0] for i in ex], [Xl[i][1] for i in ex]
        fdata = [{"x": rounded(ex_x), "y": rounded(ex_y)}, EMPTY, EMPTY, EMPTY, {"x": [step, step]}]
        if upd.size:
            ox, oy = boundary_segment(clip, wp, bp)
            fdata[1] = {"x": rounded(ox, 2), "y": rounded(oy, 2)}
            if any(wp):
                fdata[2] = arrow((0.0, 0.0), wp)
            fdata[3] = arrow(wp, w)  # τ·y·x (or the batch step) from the old tip of w to the new one
        frames.append({
            "name": fnames[f],
            "group": "steps",
            "baseframe": f"m{kidx[f]}",
            "data": fdata,
            "traces": STEP_TRACES,
            "layout": {
                "annotations[0].text": _describe(traj, step, w, b, wp, bp, upd, shown_bound),
                "updatemenus[1].buttons": back_next(fnames[max(f - 1, 0)], fnames[min(f + 1, len(fnames) - 1)]),
            },
        })
    first = frames[len(states)]
    base = frames[int(np.searchsorted(states, kidx[0]))]  # the first frame's state frame
    layout = _layout(traj, box, fnames, steps, first, emax, height, title)
    layout["annotations"][A_STATE]["text"] = base["layout"][f"annotations[{A_STATE}].text"]
    layout["meta"] = {
        "view": "perceptron",
        "variant": traj.variant,
        "tau": traj.tau,
        "n_points": int(p.n),
        "n_steps": int(traj.n_steps),
        "n_updates": traj.n_updates,
        "converged": traj.converged,
        "frame_steps": steps.tolist(),
        "thinned": note,
        "vector_scale": s,
    }
    # the base figure shows the first frame (its state's and its own data applied onto the base traces)
    for t, fd in [*zip(STATE_TRACES, base["data"], strict=True), *zip(STEP_TRACES, first["data"], strict=True)]:
        data[t].update(fd)
    return {"data": data, "layout": layout, "frames": frames}


def _percent(f: float) -> str:
    """A share as a reader wants it: 100%, 37%, 4.2%, 0.013%."""
    return f"{100 * f:.0f}%" if f >= 0.1 else f"{100 * f:.2g}%"


def _bnum(v: float) -> str:
    """The bound as a reader wants it: 117, 55.7, 1,234,567."""
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def bound_run_kind(traj: Trajectory) -> tuple[bool, str]:
    """Whether the run is one Novikoff's bound speaks to (online, from w = 0, b = 0), and if not, why."""
    if traj.variant not in ("cyclic", "random"):
        return False, ("it counts the single-point updates of the online perceptron (cyclic or random order); "
                       "mini-batch and batch steps add up several points at once")
    if np.any(traj.W[0] != 0) or traj.B[0] != 0:
        return False, "it assumes the start w = 0, b = 0"
    return True, ""


def bound_applies(traj: Trajectory, bound) -> tuple[bool, str]:
    """Whether Novikoff's bound (R/γ)² covers this run, and if not, why (a sentence)."""
    p = traj.problem
    ok, why = bound_run_kind(traj)
    if not ok:
        return False, why
    if bound is None:
        return False, "γ could not be computed to floating-point accuracy on these data"
    if not bound.separable:
        return False, ("the data are not linearly separable" + ("" if p.fit_intercept else " by a line through the "
                       "origin") + ", so γ = 0 and no number of updates is enough")
    if bound.fit_intercept != p.fit_intercept:
        return False, "it was measured for the other bias setting"
    return True, ""


def bound_line(traj: Trajectory, bound) -> tuple[str, str]:
    """The mistake-bound line under the figure: (kind, Markdown)."""
    ok, why = bound_applies(traj, bound)
    if not ok:
        return "caption", f"The mistake bound (R/γ)² does not apply to this run: {why}."
    k = traj.n_updates
    space = "x̃ = (x, 1), x with the constant 1 that b multiplies" if bound.fit_intercept else "x (no bias)"
    return "info", (f"**Mistake bound** (Novikoff): started at w = 0, b = 0, the perceptron makes at most "
                    f"(R/γ)² = ({num(bound.R)} / {num(bound.gamma)})² = **{_bnum(bound.bound)}** updates on these "
                    f"data, in any order and for any τ (from zero, τ only scales w and b). This run made {k:,} "
                    f"({_percent(k / bound.bound)} of the bound). R is the largest ‖x̃‖ and γ the margin of the "
                    f"max-margin separator, both measured on {space}; show them on the chart from its legend.")


def _bound_traces(bound, clip) -> list[dict]:
    """R as a circle and the γ band of the max-margin separator, hidden until picked in the legend."""
    r = math.sqrt(max(bound.R**2 - 1.0, 0.0)) if bound.fit_intercept else bound.R  # ‖x‖ ≤ r ⇔ ‖(x, 1)‖ ≤ R
    t = np.linspace(0, 2 * np.pi, 121)
    w, b, g = bound.w, bound.b, bound.gamma
    xs, ys = [], []
    for off in (g, -g):  # the band edges w·x + b = ±γ (w, b the unit max-margin direction in x̃)
        lx, ly = boundary_segment(clip, w, b - off)
        xs += [*lx, None]
        ys += [*ly, None]
    common = {"xaxis": "x", "yaxis": "y", "hoverinfo": "skip", "visible": "legendonly"}
    return [
        {"type": "scatter", "mode": "lines", "name": f"R = {num(bound.R)}: the data's radius" + (" (of (x, 1))" if bound.fit_intercept else ""),
         "x": rounded(r * np.cos(t), 3), "y": rounded(r * np.sin(t), 3),
         "line": {"color": "#6a3d9a", "width": 2, "dash": "dot"}, "legendrank": 20, **common},
        {"type": "scatter", "mode": "lines", "name": f"γ = {num(g)}: max-margin lines w̃·x̃ = ±γ",
         "x": [None if v is None else round(v, 3) for v in xs], "y": [None if v is None else round(v, 3) for v in ys], "line": {"color": "#6a3d9a", "width": 2, "dash": "dash"}, "legendrank": 21, **common},
    ]


def _base_traces(X: np.ndarray, y: np.ndarray, s: float, update_name: str = "update τ·y·x") -> list[dict]:
    """The traces of the data panel in T_* order (frame-driven ones empty)."""
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == -1)
    common = {"xaxis": "x", "yaxis": "y"}
    # markers shrink as points crowd, so rings mark M without burying the classes
    n = len(y)
    size = 12 if n <= 100 else 9 if n <= 400 else 7 if n <= 1000 else 5
    ring, ring_w = ((2 * size, 2.5) if n <= 100 else (size + 7, 1.5) if n <= 400 else (size + 5, 1.3) if n <= 1000
                    else (size + 3, 1.0))

    def arrow(name, colour, width, size, legend=True):
        return {"type": "scatter", "name": name, "mode": "lines+markers", "hoverinfo": "skip", "showlegend": legend,
                "line": {"color": colour, "width": width},
                "marker": {"symbol": "arrow", "angleref": "previous", "size": size, "color": colour,
                           "opacity": [0, 1]}, **common}

    def points(idx, name, colour, symbol, label):
        return {"type": "scatter", "name": name, "mode": "markers", "x": rounded(X[idx, 0]),
                "y": rounded(X[idx, 1]), "customdata": (idx + 1).tolist(),
                "marker": {"color": colour, "symbol": symbol, "size": size + (symbol == NEG_SYMBOL),
                           "line": {"color": "white", "width": 1 if size > 6 else 0.5}},
                "hovertemplate": f"x<sub>%{{customdata}}</sub> = (%{{x}}, %{{y}}), y = {label}<extra></extra>",
                **common}

    return [
        {"type": "scatter", "name": "region ŷ = +1", "fill": "toself", "fillcolor": POS_REGION, "mode": "none",
         "hoverinfo": "skip", "showlegend": False, **common},
        {"type": "scatter", "name": "region ŷ = −1", "fill": "toself", "fillcolor": NEG_REGION, "mode": "none",
         "hoverinfo": "skip", "showlegend": False, **common},
        points(pos, "y = +1", POS_COLOUR, POS_SYMBOL, "+1"),
        points(neg, "y = −1", NEG_COLOUR, NEG_SYMBOL, "−1"),
        {"type": "scatter", "name": "M: misclassified", "mode": "markers", "x": rounded(X[:, 0], 2),
         "y": rounded(X[:, 1], 2), "hoverinfo": "skip",  # rings need no more precision
         "marker": {"symbol": "circle-open", "size": ring, "color": INK if n <= 100 else "rgba(0, 0, 0, 0.7)",
                    "line": {"width": ring_w}},
         "selected": {"marker": {"opacity": 1}}, "unselected": {"marker": {"opacity": 0}}, **common},
        # over the points and rings, translucent, so it shows in a dense cloud and the point shows through
        {"type": "scatter", "name": "examined this step", "mode": "markers", "hoverinfo": "skip",
         "marker": {"symbol": "circle", "size": max(26, 2 * size + 8), "color": HIGHLIGHT,
                    "line": {"color": HIGHLIGHT_LINE, "width": 3}}, **common},
        {"type": "scatter", "name": "previous boundary", "mode": "lines", "hoverinfo": "skip",
         "line": {"color": "rgba(34,34,34,0.45)", "width": 2.5, "dash": "dash"}, **common},
        {"type": "scatter", "name": "boundary w·x + b = 0", "mode": "lines", "hoverinfo": "skip",
         "line": {"color": INK, "width": 4}, **common},
        arrow("previous w", "rgba(34,34,34,0.35)", 2.5, 14, legend=False),
        arrow("w" if s == 1.0 else f"w (drawn ×{s:.2g})", INK, 3.5, 18),
        arrow(update_name, UPDATE_COLOUR, 3.5, 18),
        {"type": "scatter", "name": "current step", "mode": "lines", "hoverinfo": "skip", "showlegend": False,
         "y": [0, 1], "line": {"color": INK, "width": 2, "dash": "dot"}, "xaxis": "x2", "yaxis": "y4"},
    ]


LEGEND_ORDER = [T_EXAM, T_POS, T_NEG, T_RING, T_LINE, T_OLD, T_W, T_UPD, T_ERR, T_LOSS]
def _legend_proxies(data: list[dict], far: float) -> list[dict]:
    """Stable legend entries for the frame-driven traces (see :func:`viz.common.legend_proxy`)."""
    proxies = [legend_proxy(data[t], far, LEGEND_ORDER.index(t) + 1) for t in (T_EXAM, T_OLD, T_LINE, T_W, T_UPD)]
    for t in (T_POS, T_NEG, T_RING, T_ERR, T_LOSS):
        data[t]["legendrank"] = LEGEND_ORDER.index(t) + 1
    return proxies


def _layout(traj: Trajectory, box, frame_names, steps, first, emax, height, title) -> dict:
    """Axes, the arithmetic annotation, the slider and the buttons."""
    # equal scales on x₁ and x₂ (w must look perpendicular to the boundary); the
    # panel keeps its domain and the shorter axis range is widened to fit
    axis = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
            "constrain": "range", "tickfont": {"size": 15}}
    axis_title = {"size": 19, "color": INK}
    top = 108 + (34 if title else 0)
    plot_h = max(height - top - 45, 200)
    y_buttons = 0.215  # the buttons' bottom (about 37 px tall)
    # the data panel's bottom: room above the buttons for its x tick labels and title, then the state line
    y_data = max(0.37, y_buttons + (37 + AXIS_PX + STATE_PX) / plot_h)
    return {
        "height": height,
        "font": FONT,
        "title": {"text": title, "x": 0.0, "xref": "paper", "y": 0.995, "yanchor": "top", "font": {"size": 20}},
        "margin": {"l": 70, "r": 20, "t": top, "b": 45},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "hovermode": "closest",
        "dragmode": False,
        "legend": {"x": 0.735, "y": 1.0, "xanchor": "left", "yanchor": "top", "font": {"size": 15},
                   "itemsizing": "constant",
                   "bgcolor": "rgba(255,255,255,0.85)", "bordercolor": "#cccccc", "borderwidth": 1},
        "xaxis": {**axis, "domain": [0, 0.72], "range": [box[0], box[1]], "autorange": False,
                  "title": {"text": "x₁", "standoff": 8, "font": axis_title}},
        "yaxis": {**axis, "domain": [y_data, 1.0], "range": [box[2], box[3]], "autorange": False,
                  "title": {"text": "x₂", "standoff": 8, "font": axis_title},
                  "scaleanchor": "x", "scaleratio": 1},
        "xaxis2": {"domain": [0, 1], "anchor": "y2", "title": {"text": "step", "standoff": 2, "font": {"size": 16}},
                   "tickfont": {"size": 14},
                   **({"dtick": 1} if traj.n_steps <= 12 else {}),
                   "gridcolor": "#eeeeee", "range": [-0.5, max(traj.n_steps, 1) + 0.5], "fixedrange": True},
        "yaxis2": {"domain": [0.0, 0.125], "anchor": "x2", "tickfont": {"size": 14}, "title": {"text": "|M|", "font": {"color": POS_COLOUR}},
                   "range": [0, emax * 1.08], "gridcolor": "#eeeeee", "fixedrange": True, "nticks": 4},
        "yaxis4": {"overlaying": "y2", "range": [0, 1], "visible": False, "fixedrange": True},
        "yaxis3": {"overlaying": "y2", "side": "right", "anchor": "x2", "title": {"text": "loss",
                   "font": {"color": NEG_COLOUR}}, "rangemode": "tozero", "showgrid": False, "fixedrange": True,
                   "tickmode": "auto", "nticks": 4, "tickformat": "~g", "tickfont": {"size": 14}},
        "annotations": [{
            "text": first["layout"]["annotations[0].text"], "xref": "paper", "yref": "paper", "x": 0.0,
            "y": 1.0, "yshift": 8, "xanchor": "left", "yanchor": "bottom", "align": "left", "showarrow": False,
            "font": {"size": 17}, "bgcolor": "rgba(255,255,255,0.95)",
        }, {  # A_STATE: the state line, under the x₁ title, above the buttons
            "name": "state", "text": "", "xref": "paper",  # the text: the first frame's state frame's
            "yref": "paper", "x": 0.0, "y": y_data, "yshift": -AXIS_PX, "xanchor": "left", "yanchor": "top",
            "align": "left", "showarrow": False, "font": {"size": 16, "color": INK},
        }],
        "sliders": [step_slider(steps, frame_names, y=y_buttons - 0.01)],
        "updatemenus": step_menus(first["layout"]["updatemenus[1].buttons"], y=y_buttons, play_x=0.72),
    }


def run_summary(traj: Trajectory, separable: bool | None) -> tuple[str, str]:
    """The status line under the figure, and its kind.

    Parameters
    ----------
    traj : Trajectory
    separable : bool or None
        Whether the data are linearly separable (None if unknown).

    Returns
    -------
    kind : {"success", "warning", "info"}
    text : str
        E.g. "Converged after 7 updates in 5 epochs (15 steps)." or "No
        convergence after 1,000 steps: the data are not linearly separable".
    """
    S, K = traj.n_steps, traj.n_updates
    unit = "epoch" if traj.variant != "batch" else "batch step"
    ep = traj.epoch(S)
    if traj.converged:
        if S == 0:
            if traj.problem.update_on == "negative":
                return "info", ("Converged at step 0 without a single update: under the rule y·a < 0 the start "
                                "misclassifies nothing (at w = 0, b = 0 every y·a is 0). Switch the rule to "
                                "y·a ≤ 0 to see learning.")
            return "success", "The initial boundary already separates the data: converged at step 0."
        return "success", (f"Converged after {K:,} update{'s' * (K != 1)} in {ep:,} {unit}{'s' * (ep != 1)} "
                           f"({S:,} step{'s' * (S != 1)}): no point is misclassified.")
    head = f"No convergence after {S:,} step{'s' * (S != 1)} ({K:,} update{'s' * (K != 1)})"
    origin = "" if traj.problem.fit_intercept else " by a line through the origin (without a bias, w·x = 0 is all it can learn)"
    if separable is False:
        return "warning", (f"{head}: the data are not linearly separable{origin}, so some point is always "
                           "misclassified and the perceptron never stops.")
    if separable is True:
        return "info", (f"{head} yet: the data are linearly separable{origin}, so the perceptron will converge; "
                        "raise max steps.")
    return "info", f"{head}."


def step_table(traj: Trajectory, max_rows: int = 2000) -> dict[str, list]:
    """One row per step (the first ``max_rows``): step, examined, updated, w, b, |M|.

    Returns
    -------
    dict of str to list
        Column name to values, ready for a dataframe.
    """
    S = min(traj.n_steps, max_rows - 1)
    steps = np.arange(S + 1)
    W, B = traj.states(steps)
    errors, loss = traj.stats_at(steps)
    many = traj.variant == "batch"
    return {
        "step": steps.tolist(),
        "examined": ["—" if s == 0 else ("all" if many else names(traj.examined(s), 4)) for s in steps],
        "updated": [names(traj.updated(s), 4) if s else "" for s in steps],
        "w": [vec(w) for w in W.tolist()],
        "b": [num(b) for b in B.tolist()],
        "|M|": errors[: S + 1].tolist(),
        "loss": np.round(loss[: S + 1], 4).tolist(),
    }


def conventions(traj: Trajectory) -> str:
    """One line (Markdown) naming the conventions in force for this run."""
    p = traj.problem
    rule = f"y·a {_rule_signs(traj)[0]} 0"
    b0 = float(traj.B[0])
    if p.fit_intercept:
        txt = f"Mistake rule **{rule}** with a = w·x + b; bias b learned (b ← b + τ·y); "
    else:
        txt = f"Mistake rule **{rule}** with a = w·x{f' + b₀, b₀ = {num(b0)} fixed' if b0 else ''}; no bias learned; "
    if traj.variant == "minibatch":
        txt += f"step {_step_coef(traj)[0]} Σ over M∩I (B = {traj.batch_size})."
    elif traj.variant == "batch":
        txt += f"step {_step_coef(traj)[0]} Σ over M (gradient of the {traj.reduction} perceptron loss)."
    else:
        txt += f"one point per step ({traj.variant} order), w ← w + τ·y·x on a mistake."
    return txt
