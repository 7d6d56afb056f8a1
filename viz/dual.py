"""The dual perceptron step-through figure: data with α halos, the Gram matrix, the α bars.

One Plotly figure (a plain dict) with three panels linked to one step slider:

- the data: points, α as a halo whose area grows with αᵢ, the boundary
  f(x) = Σ αᵢyᵢK(xᵢ, x) + b = 0 (a line for the linear kernel, a curve for the
  others) with the region f > 0 shaded, the mistakes ringed, the examined
  point marked, the boundary before an update dashed;
- the Gram matrix G = [K(xᵢ, xⱼ)] as a heatmap with the examined point's row
  lit (the check of xᵢ reads that row);
- α as one bar per point, coloured by class, the examined point's bar marked.

The update is written out above the panels, and with the linear kernel the
w recovered from α is set beside the primal perceptron's w at the same step.

As on the Perceptron page, a "state frame" per distinct α (halos, mistakes,
boundary, bars) is sent once and named as ``baseframe`` by the step frames.
"""

from __future__ import annotations

import json

import numpy as np

from core.dual import DualTrajectory, decision_function
from viz.common import (
    EMPTY,
    FONT,
    HIGHLIGHT_LINE,
    INK,
    NEG_COLOUR,
    NEG_REGION,
    NEG_SYMBOL,
    POS_COLOUR,
    POS_SYMBOL,
    after_updates,
    back_next,
    legend_proxy,
    names,
    num,
    state_text,
    step_menus,
    step_slider,
    sub,
    typed_array,
    vec,
    view_box,
    widened,
)
from viz.contour import loops_xy, zero_loops
from viz.perceptron import choose_frames

# trace indices, fixed so that frames can name them
(T_NEG_BG, T_LINE, T_HALO, T_POS, T_NEG, T_RING, T_EXAM, T_OLD, T_GRAM, T_ROW, T_BARS, T_BAR_CUR) = range(12)
STATE_TRACES = [T_HALO, T_RING, T_LINE, T_BARS]  # change only when α does
STEP_TRACES = [T_EXAM, T_OLD, T_ROW, T_BAR_CUR]  # change every step
GRID = 81  # nodes per side of the grid f is sampled on to draw f(x) = 0 (121 up to 200 points)
LOOP_BUDGET = 500_000  # characters of boundary curves in all frames together
STATE_BUDGET = 800_000  # characters of halos, bars and rings in all frames together (about 5.5 per point)

GRAM_SIDE = 200  # at most this many rows and columns of G are drawn; larger N is shown in block means
# f > 0 is shaded with a fill that, over the translucent f < 0 tint, gives the +1 tint of the Perceptron page
POS_FILL = "rgba(220, 242, 255, 0.7)"
HALO_POS = "rgba(0, 114, 178, 0.28)"
HALO_NEG = "rgba(213, 94, 0, 0.28)"
GRAM_SCALE = "Greys"  # neutral: the classes own blue and vermillion, the lit row owns yellow
MAX_TERMS = 4  # f(xᵢ) is written term by term when at most this many αⱼ are > 0
PIXEL = 0.002  # of the view's width: about a pixel on a 500-pixel panel (how far a simplified curve may move)
A_STATE = 2  # layout.annotations index of the state line (0: the step's arithmetic, 1: the examined point's tag)
STATE_NAMES = 4  # most points the state line names in one list


def frame_cap(n: int) -> int:
    """Most frames a figure on n points gets: each state frame carries about 5.5·n characters."""
    return int(min(500, max(60, STATE_BUDGET // (5.5 * max(n, 1)))))


def _digits(span: float) -> int:
    """Decimals that resolve 1/1000 of ``span``."""
    return max(0, 3 - int(np.floor(np.log10(max(span, 1e-12)))))


def gram_display(G: np.ndarray, side: int = GRAM_SIDE) -> tuple[np.ndarray, int]:
    """G as drawn: itself when N <= side, else the means of k×k blocks of consecutive points.

    Parameters
    ----------
    G : ndarray of shape (n, n)
    side : int

    Returns
    -------
    Z : ndarray of shape (m, m)
        m = ⌈n / k⌉.
    k : int
        Points per row of Z (1 when G is drawn entry by entry).
    """
    n = G.shape[0]
    k = max(1, -(-n // side))
    if k == 1:
        return G, 1
    m = -(-n // k)
    pad = np.full((m * k, m * k), np.nan)
    pad[:n, :n] = G
    return np.nanmean(pad.reshape(m, k, m, k), axis=(1, 3)), k


def describe_dual_step(traj: DualTrajectory, step: int, primal=None) -> str:
    """The arithmetic of one step (HTML), e.g. ``x₃ misclassified: α₃ ← 4 + 1 = 5, b ← −2 + 1·(−1) = −3``.

    Parameters
    ----------
    traj : DualTrajectory
    step : int
        0 <= step <= traj.n_steps.
    primal : core.perceptron.Trajectory, optional
        The primal run to set beside a linear-kernel dual run.
    """
    steps = np.array([step])
    A, B = traj.states(steps)
    Ap, Bp = traj.states(np.maximum(steps - 1, 0))
    f_p = traj.decisions(np.maximum(steps - 1, 0))[0]
    errors = int(traj.mistakes(steps)[0].sum())
    W = traj.weights(steps) if traj.problem.kernel == "linear" else None
    return _describe(traj, step, A[0], float(B[0]), Ap[0], float(Bp[0]), f_p, errors, W, primal)


def _describe(traj, step, alpha, b, alpha_p, bp, f_p, errors, W, primal) -> str:
    """:func:`describe_dual_step` from precomputed state.

    α, b after the step; α_p, bp and f_p (f at every point, as the run summed it) before it; |M| after it.
    """
    p = traj.problem
    n, eta = p.n, traj.eta
    converged = traj.converged and step == traj.n_steps
    if step == 0:
        txt = (f"<b>Step 0</b>: α = 0, b = 0, so f(x) = 0 everywhere and every point counts as a mistake "
               f"(y·f = 0 ≤ 0): |M| = {errors} of {n}.")
    else:
        i = int(traj.examined(step)[0])
        yi = int(p.y[i])
        S = np.flatnonzero(alpha_p)
        f = float(f_p[i])  # f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b, the value the run judged xᵢ by
        si = sub(i + 1)
        head = f"<b>Step {step}</b> (epoch {traj.epoch(step)}, |M| = {errors} after it): x{si}, y = {_sign(yi)}"
        if S.size == 0:
            expr = f"f(x{si}) = b = {num(bp)}"
        elif S.size <= MAX_TERMS:
            terms = " + ".join(f"{num(alpha_p[j])}·({_sign(p.y[j])})·{_paren(p.G[j, i])}" for j in S.tolist())
            expr = f"f(x{si}) = Σⱼ αⱼyⱼG<sub>j{i + 1}</sub> + b = {terms} + ({num(bp)}) = {num(f)}"
        else:
            expr = (f"f(x{si}) = Σⱼ αⱼyⱼG<sub>j{i + 1}</sub> + b over the {S.size} points with αⱼ > 0 "
                    f"= {num(f)}")
        if traj.updated(step).size:
            txt = (f"{head}<br>{expr}<br>y·f = {num(yi * f)} ≤ 0 → <b>x{si} misclassified</b>: "
                   f"α{si} ← {num(alpha_p[i])} + {num(eta)} = {num(alpha[i])}, "
                   f"b ← {num(bp)} + {num(eta)}·({_sign(yi)}) = {num(b)}")
        else:
            txt = f"{head}<br>{expr}<br>y·f = {num(yi * f)} > 0 → correct, no update"
    if W is not None:
        w = W[0] if np.ndim(W) == 2 else W
        line = f"w = Σαᵢyᵢxᵢ = {vec(w)}, b = {num(b)}"
        if primal is not None and step <= primal.n_steps:
            (pw,), (pb,) = primal.states([step])
            dw = float(np.abs(np.asarray(w) - pw).max())
            line += (f" &nbsp;·&nbsp; primal (τ = η): w = {vec(pw)}, b = {num(pb)}"
                     f" &nbsp;·&nbsp; difference ‖Δw‖∞ = {_tiny(dw)}, |Δb| = {_tiny(abs(b - float(pb)))}")
        txt += "<br>" + line
    if converged:
        txt += f"<br>✓ Converged: y·f(x) > 0 at every point after {traj.n_updates} updates (Σαᵢ = {num(eta)}·{traj.n_updates})."
    return txt


def dual_state(traj: DualTrajectory, k: int, alpha: np.ndarray, b: float, mistakes, w=None) -> str:
    """The state line under the chart after k updates: α (the points with αᵢ > 0), b, w = Σαᵢyᵢxᵢ when linear, M.

    E.g. ``"After 2 updates: w = Σαᵢyᵢxᵢ = (2, 2), b = 0; αᵢ > 0 for x₁, x₃ (2 of 3); misclassified: x₃ (1 of 3)"``;
    for the other kernels (no w to write) ``"After 2 updates: 2 of 3 αᵢ > 0 (x₁, x₃), b = 0; misclassified: …"``
    (``"α = 0"`` while no αᵢ is). It depends on the state only: a state frame carries it.

    Parameters
    ----------
    traj : DualTrajectory
    k : int
        The updates so far (the state).
    alpha : ndarray of shape (n,)
        α after k updates.
    b : float
    mistakes : array-like of int
        Indices (0-based) of the points with y·f(x) ≤ 0 after the step.
    w : ndarray of shape (2,), optional
        Σαᵢyᵢxᵢ (linear kernel).
    """
    n = traj.problem.n
    S = np.flatnonzero(alpha > 0)  # the points f sums over
    who = names(S, STATE_NAMES) if S.size <= STATE_NAMES else f"{names(S[:STATE_NAMES])}, …"
    head = after_updates(k)
    if w is not None:
        support = f"αᵢ > 0 for {who} ({S.size} of {n})" if S.size else "α = 0"
        return state_text(head, f"w = Σαᵢyᵢxᵢ = {vec(w)}, b = {num(b)}; {support}", mistakes, n, limit=STATE_NAMES)
    support = f"{S.size} of {n} αᵢ > 0 ({who})" if S.size else "α = 0"
    return state_text(head, f"{support}, b = {num(b)}", mistakes, n, limit=STATE_NAMES)


def _short(v: np.ndarray, scale: float) -> list:
    """Numbers for the JSON as short as they can be: whole numbers as ints, others to 1e-6 of ``scale``."""
    if (v == np.round(v)).all():
        return v.astype(np.int64).tolist()
    digits = 6 - int(np.floor(np.log10(scale))) if scale > 0 else 6
    return np.round(v, digits).tolist()


def _paren(v: float) -> str:
    """A factor as written in a product: negative numbers in parentheses."""
    return f"({num(v)})" if num(v).startswith("−") else num(v)


def _sign(v) -> str:
    """A label as written: '+1' or '−1'."""
    return "+1" if v > 0 else "−1"


def _tiny(v: float) -> str:
    """A difference: '0' when exactly zero, else in scientific notation (rounding shows as 1e-16)."""
    return "0" if v == 0 else f"{v:.1e}".replace("-", "−")


def dual_figure(
    traj: DualTrajectory,
    *,
    primal=None,
    max_frames: int = 500,
    mode: str = "all",
    height: int = 860,
    grid: int | None = None,
) -> dict:
    """Build the dual step-through figure for a 2-D run.

    Parameters
    ----------
    traj : DualTrajectory
        The run; its data must be 2-D.
    primal : core.perceptron.Trajectory, optional
        With the linear kernel, the primal run (τ = η, same order) whose w is
        written beside the dual's at each step.
    max_frames : int
        Cap on animation frames (see :func:`viz.perceptron.choose_frames`).
    mode : {"all", "updates"}
    height : int
        Figure height in pixels.
    grid : int, optional
        Nodes per side of the grid f is sampled on for the boundary (default
        121 up to 200 points, 81 above: finer where few bumps make the curve).

    Returns
    -------
    dict
        A Plotly figure with ``data``, ``layout`` (with ``meta``) and
        ``frames``: state frames ``m{k}`` (after k updates) and step frames ``s{step}``.
    """
    p = traj.problem
    X, y = p.X, p.y
    if X.shape[1] != 2:
        raise ValueError(f"the dual figure draws 2-D data, got d = {X.shape[1]}")
    n = p.n
    grid = grid or (121 if n <= 200 else GRID)
    box = view_box(X)
    span = box[1] - box[0]
    nd = _digits(span)
    cap = frame_cap(n)
    steps, note = choose_frames(traj, min(max_frames, cap), mode)
    if note and cap < max_frames:
        note += f" (With {n:,} points each frame carries {n:,} halos and bars: the cap is {cap:,} frames here.)"
    kidx = traj.state_index(steps)
    upd_frames = np.array([traj.updated(int(s)).size > 0 for s in steps])
    # the states drawn: one per frame, and the one before each update frame (its dashed boundary)
    shown = np.unique(kidx)
    before = np.setdiff1d(kidx[upd_frames] - 1, shown)
    states = np.concatenate([shown, before])
    A = traj.alphas(states)
    Bst = traj.B[states]
    m = shown.size
    # keep the curves' JSON within budget: first the dashed previous boundary goes, then the grid coarsens;
    # the size is estimated from a dozen evenly spaced states before all are drawn
    probe = np.unique(np.linspace(0, m - 1, min(m, 12)).round().astype(np.int64))
    sample = _boundaries(traj, A[probe], Bst[probe], shown[probe], box, grid, nd)
    line_chars = sum(_chars(v) for v in sample.values()) * m / probe.size
    n_old = int(upd_frames.sum())
    show_old = line_chars * (1 + n_old / max(len(steps), 1)) <= LOOP_BUDGET
    budget_note = ""
    if line_chars > LOOP_BUDGET:
        grid = max(21, int(grid * LOOP_BUDGET / line_chars))
        loops = _boundaries(traj, A[:m], Bst[:m], shown, box, grid, nd)
        budget_note = (f"These boundaries have many pieces: to keep the animation light they are drawn from a "
                       f"{grid}×{grid} grid, without the dashed previous boundary.")
    else:
        rest = np.setdiff1d(np.arange(m), probe)
        loops = {**sample, **_boundaries(traj, A[rest], Bst[rest], shown[rest], box, grid, nd)}
        if not show_old:
            budget_note = ("These boundaries have many pieces: the dashed previous boundary is left out to keep "
                           "the animation light.")
        elif before.size:
            loops.update(_boundaries(traj, A[m:], Bst[m:], before, box, grid, nd))
    Fst = traj.eta * traj.scores(states)  # f at every point for each drawn state, as the run summed it
    mistakes = y * Fst <= 0  # M at each drawn state, shape (len(states), n)
    pos_of = {int(k): j for j, k in enumerate(states.tolist())}

    amax = float(A.max()) if A.size and A.max() > 0 else 1.0
    size = 12 if n <= 100 else 9 if n <= 400 else 7 if n <= 1000 else 5
    h0, h1 = size + 6, max(3.2 * size, size + 14)  # halo diameter from α just above 0 to α = max α

    def halo(alpha) -> dict:
        # the halo grows with α: its diameter from h0 by √(α/max α), in whole pixels (≤ 255) sent as bytes
        return typed_array(np.where(alpha > 0, np.round(h0 + (h1 - h0) * np.sqrt(alpha / amax)), 0), "u1")

    # the α bars: every bar in every frame, or, while few points have α > 0 (at most N/4 in every
    # frame), only those bars with their x and class colour; one way for the whole figure
    sparse = int((A > 0).sum(axis=1).max(initial=0)) * 4 <= n
    cls = np.where(y > 0, 1, -1)

    def bars(alpha) -> dict:
        if sparse:
            S = np.flatnonzero(alpha > 0)
            return {"x": (S + 1).tolist(), "y": _short(alpha[S], amax), "marker": {"color": cls[S].tolist()}}
        return {"y": _short(alpha, amax)}

    data = _base_traces(traj, box, size, nd)
    block = gram_display(p.G)[1]
    if not sparse:
        data[T_BARS]["x"] = list(range(1, n + 1))
    far = box[1] + 10 * span
    frames = []
    Wst = (A[:m] * y) @ X if p.kernel == "linear" else None  # w = Σ αᵢyᵢxᵢ of each shown state
    for j, k in enumerate(shown.tolist()):
        lx, ly = loops[k]
        frames.append({"name": f"m{k}", "traces": STATE_TRACES, "data": [
            {"marker": {"size": halo(A[j])}},
            {"selectedpoints": np.flatnonzero(mistakes[j]).tolist()},
            {"x": lx, "y": ly} if lx else EMPTY,
            bars(A[j]),
        ], "layout": {  # the state in words: α, b (w), M after k updates (the same on every step of this state)
            f"annotations[{A_STATE}].text": dual_state(traj, k, A[j], float(Bst[j]), np.flatnonzero(mistakes[j]),
                                                      None if Wst is None else Wst[j]),
        }})
    n_state_frames = len(frames)
    fnames = [f"s{s}" for s in steps.tolist()]
    W = traj.weights(steps) if p.kernel == "linear" else None
    amax_bar = float(A.max()) if A.size else 0.0
    for f, step in enumerate(steps.tolist()):
        k = int(kidx[f])
        j = pos_of[k]
        fd = [EMPTY, EMPTY, EMPTY, EMPTY]
        jp = pos_of.get(k - 1, j) if upd_frames[f] else j
        if step:
            i = int(traj.examined(step)[0])
            label = f"x{sub(i + 1)}" + (f": α{sub(i + 1)} = {num(A[j, i])}" if upd_frames[f] else " ✓")
            fd[0] = {"x": [round(float(X[i, 0]), nd)], "y": [round(float(X[i, 1]), nd)]}
            fd[2] = _row_rect(i, n, block)
            fd[3] = {"x": [i + 1], "y": [float(A[j, i]) + 0.04 * max(amax_bar, 1e-12)]}
        if upd_frames[f] and show_old:
            ox, oy = loops[k - 1]
            fd[1] = {"x": ox, "y": oy} if ox else EMPTY
        frames.append({
            "name": fnames[f],
            "group": "steps",
            "baseframe": f"m{k}",
            "traces": STEP_TRACES,
            "data": fd,
            "layout": {
                "annotations[0].text": _describe(traj, step, A[j], float(Bst[j]), A[jp], float(Bst[jp]), Fst[jp],
                                                 int(mistakes[j].sum()), None if W is None else W[f], primal),
                "updatemenus[1].buttons": back_next(fnames[max(f - 1, 0)], fnames[min(f + 1, len(fnames) - 1)]),
                # the examined point's tag: its new α after an update, a tick when it was correct
                "annotations[1].visible": bool(step),
                **({"annotations[1].text": label, "annotations[1].x": fd[0]["x"][0],
                    "annotations[1].y": fd[0]["y"][0]} if step else {}),
            },
        })
    first = frames[n_state_frames]
    data += [legend_proxy(data[t], far, r) for r, t in enumerate((T_EXAM, T_LINE, T_OLD, T_HALO), start=3)]
    data[-1]["marker"] = {"size": h1 * 0.8, "color": HALO_POS, "line": {"width": 0}}  # one visible halo
    for r, t in ((1, T_POS), (2, T_NEG), (7, T_RING)):
        data[t]["legendrank"] = r
    layout = _layout(traj, box, steps, fnames, first, height, amax_bar)
    layout["meta"] = {
        "view": "dual",
        "kernel": p.kernel,
        "kernel_params": dict(p.kernel_params),
        "eta": traj.eta,
        "variant": traj.variant,
        "n_points": n,
        "n_steps": int(traj.n_steps),
        "n_updates": traj.n_updates,
        "converged": traj.converged,
        "frame_steps": steps.tolist(),
        "thinned": " ".join(t for t in (note, budget_note) if t),
        "gram_block": int(block),
        "halo_range": [h0, h1],
    }
    # the base figure shows the first frame
    base = frames[[fr["name"] for fr in frames].index(f"m{int(kidx[0])}")]
    layout["annotations"][A_STATE]["text"] = base["layout"][f"annotations[{A_STATE}].text"]
    for t, d in [*zip(STATE_TRACES, base["data"], strict=True), *zip(STEP_TRACES, first["data"], strict=True)]:
        _merge(data[t], d)
    return {"data": data, "layout": layout, "frames": frames}


def decision_grid(X, y, alpha, b, kernel: str, kernel_params: tuple, box, grid: int):
    """f(g) = Σ αᵢyᵢK(xᵢ, g) + b on a grid×grid grid over the box, for one α or a stack of them.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,)
    alpha : ndarray of shape (n,) or (k, n)
    b : float or ndarray of shape (k,)
    kernel_params : tuple of (str, float)
    box : (x0, x1, y0, y1)

    Returns
    -------
    gx, gy : ndarray of shape (grid,)
    F : ndarray of shape (grid, grid) or (k, grid, grid)
        ``F[..., r, c]`` at (gx[c], gy[r]).
    """
    gx = np.linspace(box[0], box[1], grid)
    gy = np.linspace(box[2], box[3], grid)
    GX, GY = np.meshgrid(gx, gy)
    F = decision_function(X, y, alpha, b, np.column_stack([GX.ravel(), GY.ravel()]), kernel, **dict(kernel_params))
    return gx, gy, F.reshape(*F.shape[:-1], grid, grid)


def _boundaries(traj: DualTrajectory, A, Bst, states, box, grid: int, nd: int) -> dict[int, tuple[list, list]]:
    """The curve f(x) = 0 of each state (loops around f > 0) as x, y lists, from f sampled on a grid×grid grid."""
    p = traj.problem
    gx, gy, Fg = decision_grid(p.X, p.y, A, Bst, p.kernel, p.kernel_params, box, grid)  # every drawn state at once
    tol = PIXEL * (box[1] - box[0])
    return {int(k): loops_xy(zero_loops(Fg[j], gx, gy, tol), nd) for j, k in enumerate(np.asarray(states).tolist())}


def _chars(xy: tuple[list, list]) -> int:
    """Characters of a curve's x and y lists in compact JSON."""
    return len(json.dumps(xy[0], separators=(",", ":"))) + len(json.dumps(xy[1], separators=(",", ":")))


def _merge(trace: dict, update: dict) -> None:
    """Apply a frame's data to a base trace as Plotly does (nested dicts merged)."""
    for key, v in update.items():
        if isinstance(v, dict) and isinstance(trace.get(key), dict):
            trace[key] = {**trace[key], **v}
        else:
            trace[key] = v


def _row_rect(i: int, n: int, block: int = 1) -> dict:
    """The outline of the Gram heatmap's row holding point i (0-based), in point numbers 1..N.

    With G drawn in k×k block means (``block`` = k) the row is the block of points that holds i.
    """
    lo = (i // block) * block + 0.5
    hi = min(lo + block, n + 0.5)
    return {"x": [0.5, n + 0.5, n + 0.5, 0.5, 0.5], "y": [lo, lo, hi, hi, lo]}


def _base_traces(traj: DualTrajectory, box, size: int, nd: int) -> list[dict]:
    """The traces in T_* order (frame-driven ones empty)."""
    p = traj.problem
    X, y, n = p.X, p.y, p.n
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == -1)
    data_ax = {"xaxis": "x", "yaxis": "y"}
    ring, ring_w = ((2 * size, 2.5) if n <= 100 else (size + 7, 1.5) if n <= 400 else (size + 5, 1.3))
    x0, x1, y0, y1 = widened(box)

    def points(idx, name, colour, symbol, label):
        return {"type": "scatter", "name": name, "mode": "markers", "x": np.round(X[idx, 0], nd).tolist(),
                "y": np.round(X[idx, 1], nd).tolist(), "customdata": (idx + 1).tolist(),
                "marker": {"color": colour, "symbol": symbol, "size": size + (symbol == NEG_SYMBOL),
                           "line": {"color": "white", "width": 1 if size > 6 else 0.5}},
                "hovertemplate": f"x<sub>%{{customdata}}</sub> = (%{{x}}, %{{y}}), y = {label}<extra></extra>",
                **data_ax}

    Z, k = gram_display(p.G)
    m = Z.shape[0]
    if k == 1:
        gram_hover = "G<sub>%{y}%{x}</sub> = K(x<sub>%{y}</sub>, x<sub>%{x}</sub>) = %{z:.4g}<extra></extra>"
    else:
        gram_hover = (f"rows near x<sub>%{{y:.0f}}</sub>, columns near x<sub>%{{x:.0f}}</sub>: mean of a "
                      f"{k}×{k} block of G = %{{z:.4g}}<extra></extra>")
    cls = np.where(y > 0, 1.0, -1.0)
    return [
        {"type": "scatter", "name": "region f(x) < 0", "x": [x0, x1, x1, x0], "y": [y0, y0, y1, y1], "fill": "toself",
         "fillcolor": NEG_REGION, "mode": "none", "hoverinfo": "skip", "showlegend": False, **data_ax},
        {"type": "scatter", "name": "boundary f(x) = 0 (f > 0 shaded)", "mode": "lines", "fill": "toself",
         "fillcolor": POS_FILL, "hoverinfo": "skip", "line": {"color": INK, "width": 3.5}, **data_ax},
        {"type": "scatter", "name": "halo grows with αᵢ", "mode": "markers", "x": np.round(X[:, 0], nd).tolist(),
         "y": np.round(X[:, 1], nd).tolist(), "hoverinfo": "skip",
         "marker": {"size": 0, "color": cls.tolist(), "cmin": -1, "cmax": 1,
                    "colorscale": [[0, HALO_NEG], [1, HALO_POS]], "line": {"width": 0}}, **data_ax},
        points(pos, "y = +1", POS_COLOUR, POS_SYMBOL, "+1"),
        points(neg, "y = −1", NEG_COLOUR, NEG_SYMBOL, "−1"),
        {"type": "scatter", "name": "M: y·f(x) ≤ 0", "mode": "markers", "x": np.round(X[:, 0], nd).tolist(),
         "y": np.round(X[:, 1], nd).tolist(), "hoverinfo": "skip",
         "marker": {"symbol": "circle-open", "size": ring, "color": INK if n <= 100 else "rgba(0, 0, 0, 0.7)",
                    "line": {"width": ring_w}},
         "selected": {"marker": {"opacity": 1}}, "unselected": {"marker": {"opacity": 0}}, **data_ax},
        {"type": "scatter", "name": "examined", "mode": "markers", "hoverinfo": "skip",
         "marker": {"symbol": "circle", "size": max(26, 2 * size + 8), "color": "rgba(240, 228, 66, 0.3)",
                    "line": {"color": HIGHLIGHT_LINE, "width": 3.5}}, **data_ax},
        {"type": "scatter", "name": "before the update", "mode": "lines", "hoverinfo": "skip",
         "line": {"color": "rgba(34,34,34,0.55)", "width": 2.5, "dash": "dash"}, **data_ax},
        {"type": "heatmap", "name": "Gram matrix", "z": typed_array(Z), "x0": (k + 1) / 2, "dx": k, "y0": (k + 1) / 2,
         "dy": k, "colorscale": GRAM_SCALE, "reversescale": True, "hovertemplate": gram_hover, "showscale": True,
         "colorbar": {"title": {"text": "G<sub>ij</sub>", "side": "top"}, "x": 1.0, "xanchor": "left",
                      "y": 1.0, "yanchor": "top", "len": 0.62, "thickness": 14, "tickfont": {"size": 13}},
         "xaxis": "x2", "yaxis": "y2", "showlegend": False, "meta": {"rows": m}},
        {"type": "scatter", "name": "row of the examined point", "mode": "lines", "hoverinfo": "skip",
         "fill": "toself", "fillcolor": "rgba(240, 228, 66, 0.45)", "showlegend": False,
         "line": {"color": HIGHLIGHT_LINE, "width": 2.5}, "xaxis": "x2", "yaxis": "y2"},
        {"type": "bar", "name": "αᵢ", "x": [], "y": [], "showlegend": False, "width": 0.8,  # one point wide, sparse or not
         "marker": {"color": cls.tolist(), "cmin": -1, "cmax": 1, "colorscale": [[0, NEG_COLOUR], [1, POS_COLOUR]],
                    "line": {"width": 0}},
         "hovertemplate": "α<sub>%{x}</sub> = %{y}<extra></extra>", "xaxis": "x3", "yaxis": "y3"},
        {"type": "scatter", "name": "examined point's α", "mode": "markers", "hoverinfo": "skip", "showlegend": False,
         "marker": {"symbol": "triangle-down", "size": 16, "color": "#F0E442", "line": {"color": HIGHLIGHT_LINE,
                                                                                       "width": 2}},
         "xaxis": "x3", "yaxis": "y3"},
    ]


# the layout in pixels, bottom to top under the panels: α bars, slider, buttons, legend, the data axis
PX = {"top": 150, "bottom": 48, "bars": 100, "slider": 62, "buttons": 40, "legend": 62, "state": 30, "axis": 58}


def _layout(traj: DualTrajectory, box, steps, fnames, first, height: int, amax: float) -> dict:
    """Axes of the three panels, the annotation, the slider and the buttons."""
    n = traj.problem.n
    plot_h = max(height - PX["top"] - PX["bottom"], 200)

    def frac(px: float) -> float:
        return min(px / plot_h, 1.0)

    y_slider = frac(PX["bars"] + PX["slider"])  # the slider's top (it hangs down from there)
    y_buttons = y_slider + frac(4)
    y_legend = y_buttons + frac(PX["buttons"] + PX["legend"])  # the legend's top
    y_panels = min(y_legend + frac(PX["state"] + PX["axis"]), 0.8)  # the state line between the axes and the legend
    axis = {"zeroline": True, "zerolinecolor": "#bbbbbb", "gridcolor": "#eeeeee", "fixedrange": True,
            "tickfont": {"size": 14}}
    title_font = {"size": 18, "color": INK}
    square = {"constrain": "domain", "constraintoward": "left", "autorange": False}  # equal scales, exact ranges
    return {
        "height": height,
        "font": FONT,
        "margin": {"l": 70, "r": 30, "t": PX["top"], "b": PX["bottom"]},
        "paper_bgcolor": "white",
        "plot_bgcolor": "white",
        "hovermode": "closest",
        "dragmode": False,
        "showlegend": True,
        "legend": {"orientation": "h", "x": 0.0, "y": y_legend, "xanchor": "left", "yanchor": "top",
                   "font": {"size": 15}, "itemsizing": "constant", "bgcolor": "rgba(255,255,255,0.9)"},
        "xaxis": {**axis, **square, "domain": [0, 0.47], "range": [box[0], box[1]],
                  "title": {"text": "x₁", "standoff": 2, "font": title_font}},
        "yaxis": {**axis, **square, "constraintoward": "top", "domain": [y_panels, 1.0], "range": [box[2], box[3]],
                  "scaleanchor": "x", "scaleratio": 1, "title": {"text": "x₂", "standoff": 4, "font": title_font}},
        "xaxis2": {**axis, **square, "zeroline": False, "anchor": "y2", "domain": [0.52, 0.95],
                   "range": [0.5, n + 0.5], "showgrid": False, **({"dtick": 1} if n <= 12 else {}),
                   "title": {"text": "Gram matrix G<sub>ij</sub> = K(x<sub>i</sub>, x<sub>j</sub>): row i, column j",
                             "standoff": 2, "font": {"size": 16, "color": INK}}},
        "yaxis2": {**axis, **square, "constraintoward": "top", "zeroline": False, "anchor": "x2",
                   "domain": [y_panels, 1.0], "range": [n + 0.5, 0.5], "scaleanchor": "x2", "scaleratio": 1,
                   "showgrid": False, **({"dtick": 1} if n <= 12 else {})},
        "xaxis3": {**axis, "zeroline": False, "domain": [0, 1], "anchor": "y3", "range": [0.5, n + 0.5],
                   "autorange": False, "showgrid": False, **({"dtick": 1} if n <= 40 else {}),
                   "title": {"text": "point i", "standoff": 2, "font": {"size": 15, "color": INK}}},
        "yaxis3": {**axis, "domain": [0.0, frac(PX["bars"] - 10)], "anchor": "x3",
                   "range": [0, max(amax, 1e-12) * 1.15], "autorange": False, "nticks": 4,
                   "title": {"text": "αᵢ", "font": title_font}},
        "annotations": [{
            "text": first["layout"]["annotations[0].text"], "xref": "paper", "yref": "paper", "x": 0.0,
            "y": 1.0, "yshift": 6, "xanchor": "left", "yanchor": "bottom", "align": "left", "showarrow": False,
            "font": {"size": 16}, "bgcolor": "rgba(255,255,255,0.95)",
        }, {
            "text": "", "x": 0, "y": 0, "xref": "x", "yref": "y", "visible": False, "showarrow": True,
            "arrowhead": 0, "arrowwidth": 1.5, "arrowcolor": HIGHLIGHT_LINE, "ax": 0, "ay": -36,
            "bgcolor": "rgba(255,255,255,0.92)", "bordercolor": HIGHLIGHT_LINE, "borderwidth": 1.5, "borderpad": 3,
            "font": {"size": 16, "color": INK},
        }, {  # A_STATE: the state line, under the panels' axis titles, above the legend
            "name": "state", "text": "", "xref": "paper",  # the text: the first frame's state frame's
            "yref": "paper", "x": 0.0, "y": y_panels, "yshift": -PX["axis"], "xanchor": "left", "yanchor": "top",
            "align": "left", "showarrow": False, "font": {"size": 16, "color": INK},
        }],
        "sliders": [step_slider(steps, fnames, y=y_slider)],
        "updatemenus": step_menus(first["layout"]["updatemenus[1].buttons"], y=y_buttons, play_x=1.0),
    }


def dual_summary(traj: DualTrajectory, separable: bool | None) -> tuple[str, str]:
    """The status line under the figure, and its kind ("success", "warning" or "info").

    Parameters
    ----------
    traj : DualTrajectory
    separable : bool or None
        Whether the data are separable in the kernel's feature space, if known.
    """
    S, K = traj.n_steps, traj.n_updates
    ep = traj.epoch(S)
    if traj.converged:
        return "success", (f"Converged after {K:,} update{'s' * (K != 1)} in {ep:,} epoch{'s' * (ep != 1)} "
                           f"({S:,} step{'s' * (S != 1)}): y·f(x) > 0 at every point. {int((traj[S].alpha > 0).sum()):,} of "
                           f"{traj.problem.n:,} points have αᵢ > 0: f sums over them only.")
    head = f"No convergence after {S:,} steps ({K:,} updates)"
    space = "linearly" if traj.problem.kernel == "linear" else "in this kernel's feature space"
    if separable is False:
        return "warning", (f"{head}: the data are not separable {space}, so some point is always misclassified "
                           "and the perceptron never stops.")
    if separable is True:
        return "info", f"{head} yet: the data are separable {space}, so it will converge; raise max steps."
    return "info", f"{head}; try another kernel or parameter, or raise max steps."


def agreement_text(a) -> tuple[str, str]:
    """The primal–dual line under the figure: its kind ("success" or "warning") and Markdown.

    Parameters
    ----------
    a : core.dual.Agreement
    """
    if a.same_mistakes:
        diff = "exactly" if a.max_w_diff == 0 else f"up to floating-point rounding ({a.max_w_diff:.1e})"
        return "success", (f"**Primal and dual agree.** The primal perceptron with τ = η, run on the same order, "
                           f"made the same mistakes at the same steps on the same points; at the "
                           f"{a.steps_compared:,} steps compared, w = Σαᵢyᵢxᵢ equals its w {diff}, and b agrees "
                           f"{'exactly' if a.max_b_diff == 0 else f'to {a.max_b_diff:.1e}'}.")
    return "warning", (f"**Primal and dual part at step {a.diverged_at:,}**: a point lay exactly on the boundary "
                       "(y·f = 0) and the two sums rounded it to different sides. Before that step they agree to "
                       f"{a.max_w_diff:.1e}.")


def cost_lines(traj: DualTrajectory) -> list[tuple[str, str, str]]:
    """The cost panel: (label, value, help) for kernel evaluations with and without the Gram matrix."""
    c = traj.kernel_evaluations()
    n = traj.problem.n
    saved = c["saved"]
    last = ("Saved by G", f"{saved:,}", "Kernel evaluations the Gram matrix saved on this run.") if saved >= 0 else (
        "G cost more, by", f"{-saved:,}", "This run is too short to pay for G: without it the checks would have "
        "needed fewer kernel evaluations than G's distinct entries. Longer runs (more steps, more points with αⱼ > 0) "
        "pay it back.")
    return [
        ("Without G", f"{c['without_gram']:,}", "Each check of xᵢ computes f(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ) + b afresh: one "
         f"kernel evaluation per point with αⱼ > 0, summed over the {c['checks']:,} checks of this run (a converged "
         "run included its final pass over every point)."),
        ("With G", f"{c['with_gram']:,}", f"G is symmetric: its N(N+1)/2 = {c['with_gram']:,} distinct entries (N = "
         f"{n:,}) are computed once per dataset and kernel (and cached); every check then only reads G's row."),
        last,
    ]


def dual_table(traj: DualTrajectory, max_rows: int = 2000) -> dict[str, list]:
    """One row per step (the first ``max_rows``): step, examined, updated, αᵢ of the examined point, b, |M|."""
    S = min(traj.n_steps, max_rows - 1)
    steps = np.arange(S + 1)
    A, B = traj.states(steps)
    errors = traj.mistakes(steps).sum(axis=1)
    ex = [int(traj.examined(s)[0]) if s else -1 for s in steps.tolist()]
    return {
        "step": steps.tolist(),
        "examined": ["—" if i < 0 else f"x{sub(i + 1)}" for i in ex],
        "updated": ["✓" if s and traj.updated(s).size else "" for s in steps.tolist()],
        "α of examined": ["" if i < 0 else num(A[r, i]) for r, i in enumerate(ex)],
        "b": [num(b) for b in B.tolist()],
        "Σα": [num(a) for a in A.sum(axis=1).tolist()],
        "|M|": errors.tolist(),
    }
