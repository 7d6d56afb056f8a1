"""Test oracles: the Python references the tests hold the app and the renderer to, which the app itself does not
use (issue 38: "a Python function used only by tests is a test oracle and lives in tests/").

Each came from the module its section names (a module-specific constant or helper renamed where two modules had
one of the same name: STATE_NAMES, _describe).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

import numpy as np

from core.dual import DualTrajectory, run_dual
from core.losses import _prepare
from core.perceptron import Trajectory
from core.snapshot import DualSnapshot, activation
from core.svm import C_GRID, HingeRun, SVMSolution, path_of, svm_grid
from viz.common import (
    clip_halfplane,
    clip_polygon,
    gaps,
    mistakes_text,
    names,
    num,
    state_line,
    state_text,
    sub,
    vec,
    view_box,
)
from viz.compare import _data
from viz.dual import MAX_TERMS
from viz.gif import _Canvas, _plan, _validate
from viz.losses import NAMES, SHORT, misclassified
from viz.perceptron import _bnum, _rule_signs, _step_coef, bound_applies
from viz.scene import unpack
from viz.svm import ON_MARGIN, categories, kernel_scale, margin_tol

# ----------------------------------------------------------------------------------------------------
# from core.dual
# ----------------------------------------------------------------------------------------------------


def dual_perceptron(X, y, **kwargs) -> Iterator[DualSnapshot]:
    """Yield the dual perceptron's snapshots, step 0 (α = 0, b = 0) first.

    Takes the parameters of :func:`run_dual`; they are validated when called,
    before the first snapshot.
    """
    return iter(run_dual(X, y, **kwargs))


# ----------------------------------------------------------------------------------------------------
# from core.losses
# ----------------------------------------------------------------------------------------------------


def zero_one_subgradient(W, b, X, y) -> tuple[np.ndarray, np.ndarray]:
    """The 0-1 loss is piecewise constant: its gradient is 0 wherever it exists (returned everywhere).

    Returns
    -------
    gw : ndarray of shape (..., d)
    gb : ndarray of shape (...)
    """
    Wf, Bf, X, y, lead = _prepare(W, b, X, y)
    return np.zeros((*lead, X.shape[1])), np.zeros(lead)


# ----------------------------------------------------------------------------------------------------
# from core.svm
# ----------------------------------------------------------------------------------------------------


def c_path(X, y, Cs=C_GRID, kernel: str = "linear", **params) -> dict[str, list]:
    """The SVM across a grid of C: margin width 2/‖w‖, number of support vectors and Σξ for each.

    Parameters
    ----------
    X, y
        As for :func:`fit_svm`.
    Cs : sequence of float
        Increasing values of C.

    Returns
    -------
    dict
        ``C``, ``width``, ``support``, ``slack``: lists of equal length.
    """
    return path_of(svm_grid(X, y, Cs, kernel, **params))


# ----------------------------------------------------------------------------------------------------
# from viz.common
# ----------------------------------------------------------------------------------------------------


def svm_dual_bound(X, y, alpha, C: float) -> float:
    """A lower bound on the linear soft-margin SVM's optimum from any α in [0, C]: α made feasible (Σ αᵢyᵢ = 0, the
    residue taken off the side that has it) and its dual value Σ αᵢ − ½‖Σ αᵢyᵢxᵢ‖², which no primal value is under."""
    a = np.clip(np.asarray(alpha, dtype=float), 0.0, C)
    y = np.asarray(y, dtype=float)
    r = a @ y  # > 0: too much on the +1 side (take it off there); < 0: on the −1 side
    side = np.flatnonzero(y == np.sign(r))
    for i in side[np.argsort(-a[side])]:  # largest αᵢ first: at most a few are touched
        if r == 0:
            break
        cut = min(a[i], abs(r))
        a[i] -= cut
        r -= np.sign(r) * cut
    v = (a * y) @ X
    return float(a.sum() - 0.5 * v @ v)


def apart(before, after, digits: int = 3, most: int = 6) -> int:
    """The fewest decimals, from ``digits`` to ``most``, that write each number of ``before`` apart from the same one of
    ``after`` where the two differ: a small step (τ = 0.01 over 200 points) changes w past its third decimal, and the
    update then read as if it changed nothing.

    Parameters
    ----------
    before, after : sequence of float, of one length
    """
    pairs = [(float(a), float(b)) for a, b in zip(before, after, strict=True) if float(a) != float(b)]
    return next((d for d in range(digits, most) if all(num(a, d) != num(b, d) for a, b in pairs)), most)


def point_set(idx) -> str:
    """A set of points, '∅' when empty."""
    return "{" + names(idx) + "}" if len(idx) else "∅"


def after_updates(k: int) -> str:
    """The head of a state line that follows a run's updates: 'Before any update', 'After 1 update', 'After 7 updates'.

    A state depends on the updates so far only, so a line with this head is the same on every step between two
    updates (and can be sent once per state rather than once per step).
    """
    return "Before any update" if k == 0 else f"After {int(k):,} update{'s' * (k != 1)}"


# region_xy (the Python twin viz/js/geometry.js names), poly_xy and rounded are used by no test either


def region_xy(box, w, b, sign: float) -> tuple[list[float], list[float]]:
    """Where the classifier says ``sign``, sign·(w·x + b) ≥ 0, in the view box, as x and y for a filled trace.

    At w = 0 the whole box when sign·b > 0, else nothing (both regions are empty when w = 0 and b = 0).
    """
    if not any(float(v) for v in w) and sign * float(b) <= 0:
        return [], []
    return poly_xy(clip_halfplane(box, w, b, sign))


def poly_xy(poly) -> tuple[list[float], list[float]]:
    """Polygon vertices as x and y lists for a ``fill: 'toself'`` scatter (which closes it)."""
    return [p[0] for p in poly], [p[1] for p in poly]


def rounded(v, nd: int = 3):
    """Round floats (or lists of them) to keep the JSON small."""
    if isinstance(v, np.ndarray):
        return np.round(v.astype(float), nd).tolist()
    if isinstance(v, list | tuple):
        return [round(float(x), nd) for x in v]
    return round(float(v), nd)


# ----------------------------------------------------------------------------------------------------
# from viz.compare
# ----------------------------------------------------------------------------------------------------


def compare_state(run, step: int) -> str:
    """One panel's state at the common ``step`` in plain words (lines split by "\\n"): the Python reference of the
    renderer's state line under each panel.

    "Step 5 of 7: w = (0, 0), b = −2; misclassified: x₃ (1 of 40)", with "; margin < 1 (in squares): 4 of 40" for
    hinge SGD, and a first line "finished at step S (holds its last state)" once ``step`` is past the run's end.
    The misclassified points are M under the perceptron run's rule, y·(w·x + b) ≤ 0 for hinge SGD.

    Parameters
    ----------
    run : core.perceptron.Trajectory or core.svm.HingeRun
    step : int
        The common step, ≥ 0.
    """
    X, y = _data(run)
    S = int(run.n_steps)
    s = min(int(step), S)  # the shorter run holds its last state
    extra = ""
    if isinstance(run, HingeRun):
        w, b = run.W[s], float(run.B[s])
        m = y * activation(X, w, b)  # yᵢ(w·xᵢ + b), as the core sums it
        wrong = np.flatnonzero(m <= 0.0)
        extra = f"margin < 1 (in squares): {int((m < 1.0).sum()):,} of {len(y):,}"
    else:
        snap = run[s]
        w, b = snap.w, snap.b
        wrong = np.flatnonzero(snap.misclassified)
    line = state_line(s, S, w, b, wrong, len(y), extra)
    return (f"finished at step {S:,} (holds its last state)\n" if step > S else "") + line


# ----------------------------------------------------------------------------------------------------
# from viz.dual
# ----------------------------------------------------------------------------------------------------


DUAL_STATE_NAMES = 4  # most points the state line names in one list


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
    return _describe_dual(traj, step, A[0], float(B[0]), Ap[0], float(Bp[0]), f_p, errors, W, primal)


def _describe_dual(traj, step, alpha, b, alpha_p, bp, f_p, errors, W, primal) -> str:
    """:func:`describe_dual_step` from precomputed state.

    α, b after the step; α_p, bp and f_p (f at every point, as the run summed it) before it; |M| after it.
    """
    p = traj.problem
    n, eta = p.n, traj.eta
    converged = traj.converged and step == traj.n_steps
    if step == 0:
        txt = (f"<b>Step 0</b>: α = 0, b = 0, so f(x) = 0 everywhere and every point counts as a mistake "
               f"(y·f = 0 ≤ 0): |M| = {errors:,} of {n:,}.")
    else:
        i = int(traj.examined(step)[0])
        yi = int(p.y[i])
        S = np.flatnonzero(alpha_p)
        f = float(f_p[i])  # f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b, the value the run judged xᵢ by
        si = sub(i + 1)
        head = f"<b>Step {step:,}</b> (epoch {traj.epoch(step):,}, |M| = {errors:,} after it): x{si}, y = {_label(yi)}"
        if S.size == 0:
            expr = f"f(x{si}) = b = {num(bp)}"
        elif S.size <= MAX_TERMS:
            terms = " + ".join(f"{num(alpha_p[j])}·({_label(p.y[j])})·{_factor(p.G[j, i])}" for j in S.tolist())
            expr = f"f(x{si}) = Σⱼ αⱼyⱼG<sub>j{i + 1}</sub> + b = {terms} + ({num(bp)}) = {num(f)}"
        else:
            expr = (f"f(x{si}) = Σⱼ αⱼyⱼG<sub>j{i + 1}</sub> + b over the {S.size} points with αⱼ > 0 "
                    f"= {num(f)}")
        if traj.updated(step).size:
            txt = (f"{head}<br>{expr}<br>y·f = {num(yi * f)} ≤ 0 → <b>x{si} misclassified</b>: "
                   f"α{si} ← {num(alpha_p[i])} + {num(eta)} = {num(alpha[i])}, "
                   f"b ← {num(bp)} + {num(eta)}·({_label(yi)}) = {num(b)}")
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
    (``"α = 0"`` while no αᵢ is). It depends on the state only (the same on every step between two updates).

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
    who = names(S, DUAL_STATE_NAMES) if S.size <= DUAL_STATE_NAMES else f"{names(S[:DUAL_STATE_NAMES])}, …"
    head = after_updates(k)
    if w is not None:
        support = f"αᵢ > 0 for {who} ({S.size:,} of {n:,})" if S.size else "α = 0"
        return state_text(head, f"w = Σαᵢyᵢxᵢ = {vec(w)}, b = {num(b)}; {support}", mistakes, n, limit=DUAL_STATE_NAMES)
    support = f"{S.size:,} of {n:,} αᵢ > 0 ({who})" if S.size else "α = 0"
    return state_text(head, f"{support}, b = {num(b)}", mistakes, n, limit=DUAL_STATE_NAMES)


def _factor(v: float) -> str:
    """A factor as written in a product: negative numbers in parentheses."""
    return f"({num(v)})" if num(v).startswith("−") else num(v)


def _label(v) -> str:
    """A label as written: '+1' or '−1'."""
    return "+1" if v > 0 else "−1"


def _tiny(v: float) -> str:
    """A difference: '0' when exactly zero, else in scientific notation (rounding shows as 1e-16)."""
    return "0" if v == 0 else f"{v:.1e}".replace("-", "−")


# ----------------------------------------------------------------------------------------------------
# from viz.gif
# ----------------------------------------------------------------------------------------------------


def gif_canvas(traj: Trajectory, *, max_frames: int = 200, size=(720, 540), mode: str = "all") -> _Canvas:
    """The geometry :func:`perceptron_gif` draws with for these arguments (to map data to pixels).

    Returns
    -------
    _Canvas
        ``canvas.to_px(x, y)`` gives the frame pixel of a data point.
    """
    max_frames, size, _ = _validate(traj, max_frames, size, 250, mode)
    return _plan(traj, max_frames, size, mode).canvas


# ----------------------------------------------------------------------------------------------------
# from viz.losses
# ----------------------------------------------------------------------------------------------------


LOSS_STATE_NAMES = 3  # most points the state line names on one line


def lines_in_box(A: np.ndarray, c: np.ndarray, box) -> tuple[list, list]:
    """The lines aᵢ·w + cᵢ = 0 clipped to a box, as x and y lists with None gaps (vectorised slab clipping).

    Parameters
    ----------
    A : ndarray of shape (n, 2)
    c : ndarray of shape (n,)
    box : (x0, x1, y0, y1)
    """
    A = np.asarray(A, dtype=float)
    c = np.asarray(c, dtype=float)
    nrm2 = (A**2).sum(axis=1)
    ok = nrm2 > 0  # a = 0 is no line
    A, c, nrm2 = A[ok], c[ok], nrm2[ok]
    p0 = -(c / nrm2)[:, None] * A  # the foot of the line nearest the origin
    d = np.column_stack([-A[:, 1], A[:, 0]])  # its direction
    lo = np.full(len(c), -np.inf)
    hi = np.full(len(c), np.inf)
    keep = np.ones(len(c), dtype=bool)
    for k, (a, b) in enumerate(((box[0], box[1]), (box[2], box[3]))):
        dk, pk = d[:, k], p0[:, k]
        moving = dk != 0
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (a - pk) / dk, (b - pk) / dk
        lo = np.where(moving, np.maximum(lo, np.minimum(t1, t2)), lo)
        hi = np.where(moving, np.minimum(hi, np.maximum(t1, t2)), hi)
        keep &= moving | ((pk >= a) & (pk <= b))  # parallel to this axis: inside the slab or not at all
    keep &= lo < hi
    P, Q = p0 + lo[:, None] * d, p0 + hi[:, None] * d
    xs = np.column_stack([P[keep, 0], Q[keep, 0], np.full(keep.sum(), np.nan)]).ravel()
    ys = np.column_stack([P[keep, 1], Q[keep, 1], np.full(keep.sum(), np.nan)]).ravel()
    return gaps(xs), gaps(ys)


def cone_polygon(X, y, b: float, box) -> list[tuple[float, float]]:
    """The weights w in the box with yᵢ(w·xᵢ + b) > 0 for every i (Sutherland–Hodgman clipping), maybe empty.

    The closure is clipped (≥ 0); a result with no area (such as the single point w = 0 at b = 0) is empty.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    b : float
    box : (x0, x1, y0, y1)
    """
    poly = [(box[0], box[2]), (box[1], box[2]), (box[1], box[3]), (box[0], box[3])]
    for xi, yi in zip(np.asarray(X, dtype=float), np.asarray(y, dtype=float), strict=True):
        a0, a1, c = yi * xi[0], yi * xi[1], yi * b  # keep a·w + c ≥ 0
        if a0 == 0 and a1 == 0:  # xᵢ = 0: its margin is yᵢb whatever w is
            if c <= 0:
                return []  # never strictly correct
            continue

        poly = clip_polygon(poly, a0, a1, c)
        if len(poly) < 3:
            return []
    P = np.array(poly)
    area = 0.5 * abs(float(P[:, 0] @ np.roll(P[:, 1], -1) - P[:, 1] @ np.roll(P[:, 0], -1)))
    # a cone of no area (only w = 0 at b = 0, say, where every margin is 0) classifies nothing correctly
    return poly if area > 1e-9 * (box[1] - box[0]) * (box[3] - box[2]) else []


def data_state(X, y, w, b: float, losses: dict[str, float] | None = None) -> str:
    """The state line under the data chart, a line each (its column can be narrow): w and b; the misclassified
    points (the count, then their names, when more than LOSS_STATE_NAMES); the losses at (w, b).

    E.g. ``"w = (1, −0.5), b = 0.3<br>misclassified: x₃, x₇ (2 of 40)<br>loss: hinge 0.41, perceptron 0.12, 0-1 0.05"``.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    w : ndarray of shape (2,)
    b : float
    losses : dict name -> value at (w, b), optional
    """
    mis = misclassified(X, y, w, b)
    n = len(y)
    if mis.size <= LOSS_STATE_NAMES:
        lines = [mistakes_text(mis, n, LOSS_STATE_NAMES)]
    else:  # the count, then the first names on a line of their own
        lines = [f"{mis.size:,} of {n:,} misclassified:", f"{names(mis[:LOSS_STATE_NAMES])}, …"]
    if losses:
        lines.append(("loss: " if len(losses) > 1 else "") + ", ".join(
            f"{SHORT[k] if len(losses) > 1 else NAMES[k]} {num(v)}" for k, v in losses.items()))
    return "<br>".join([f"w = {vec(w)}, b = {num(b)}", *lines])


# ----------------------------------------------------------------------------------------------------
# from viz.perceptron
# ----------------------------------------------------------------------------------------------------


PERCEPTRON_STATE_NAMES = 6  # most misclassified points the state line names (3 above 100 points)


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
    return _describe_perceptron(traj, step, w.tolist(), float(b), wp.tolist(), float(bp), traj.updated(step),
                     bound if bound_applies(traj, bound)[0] else None)


def _describe_perceptron(traj: Trajectory, step: int, w: list, b: float, wp: list, bp: float, upd: np.ndarray,
              bound=None) -> str:
    """:func:`describe_step` from precomputed state (w, b after; wp, bp before); ``bound`` if it applies."""
    p = traj.problem
    fit_b = p.fit_intercept
    le, gt = _rule_signs(traj)
    converged = traj.converged and step == traj.n_steps
    if step == 0:
        errors = traj[0].errors
        txt = f"<b>Step 0</b>: start at w = {vec(w)}, b = {num(b)}; |M| = {errors:,} of {p.n:,} points."
        if bound is not None:
            txt += f" At most (R/γ)² = {_bnum(bound.bound)} updates to come."
        if p.update_on == "negative" and not any(w) and b == 0:
            txt += "<br>Every y·a is 0 at w = 0, b = 0, and the rule updates only when y·a < 0: nothing will move."
        elif converged:
            txt += "<br>✓ The initial boundary already separates the data."
        return txt
    head = f"<b>Step {step:,}</b> (epoch {traj.epoch(step):,})"
    if bound is not None:  # Novikoff: k updates so far, never more than (R/γ)²
        head += f" · updates so far {int(traj.state_index(step)):,} ≤ (R/γ)² = {_bnum(bound.bound)}"
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
            d = apart([*wp, bp], [*w, b])  # (w and b before and after, written apart)
            txt = (f"{head}: {name} misclassified:<br>{act} {le} 0<br>"
                   f"→ w ← {vec(wp, d)} + {num(tau)}·({num(yi)})·{vec(xi)} = {vec(w, d)}")
            txt += f", b ← {num(bp, d)} + {num(tau)}·({num(yi)}) = {num(b, d)}" if fit_b else f", b stays {num(b)}"
        else:
            txt = f"{head}: {name} correct:<br>{act} {gt} 0 → no update"
    else:
        ex = traj.examined(step)
        coef, full = _step_coef(traj)
        if traj.variant == "minibatch":
            txt = f"{head}: batch I = {{{names(ex)}}} (B = {traj.batch_size:,})<br>mistakes M∩I = {point_set(upd)}"
            sumname = "Σ<sub>i∈M∩I</sub>"
        else:
            txt = f"{head}: all {p.n:,} points<br>mistakes M = {point_set(upd)}"
            sumname = "Σ<sub>i∈M</sub>"
        if upd.size:
            g = (p.y[upd] @ p.X[upd]).tolist()  # Σ yᵢxᵢ over the mistakes
            d = apart([*wp, bp], [*w, b])
            txt += f"<br>→ w ← w + {coef}·{sumname} yᵢxᵢ = {vec(wp, d)} + {full}·{vec(g)} = {vec(w, d)}"
            if fit_b:
                txt += f", b ← {num(bp, d)} + {full}·({num(int(p.y[upd].sum()))}) = {num(b, d)}"
        else:
            txt += " → no update"
    if converged:
        txt += f"<br>✓ Converged: no point is misclassified (|M| = 0) after {traj.n_updates:,} updates."
    return txt


def state_line_of(traj: Trajectory, step: int) -> str:
    """The state line under the chart at ``step``: 'After 2 updates: w = (2, 2), b = 0; misclassified: x₃ (1 of 3)'.

    The same on every step between two updates; at most :data:`PERCEPTRON_STATE_NAMES` points are named (3 above 100 points).
    """
    k = int(traj.state_index(step))
    (m,) = traj.state_mistakes([k])
    limit = PERCEPTRON_STATE_NAMES if traj.problem.n <= 100 else 3
    return state_text(after_updates(k), f"w = {vec(traj.W[k])}, b = {num(traj.B[k])}", np.flatnonzero(m),
                      traj.problem.n, limit=limit)


# ----------------------------------------------------------------------------------------------------
# from viz.svm
# ----------------------------------------------------------------------------------------------------


CATEGORIES = ("outside the margin", "on the margin", "inside the margin", "misclassified")  # by viz.svm.categories


SVM_STATE_NAMES = 5  # most points the state line names in one list


KERNEL_NAMES = {"poly": "polynomial", "rbf": "RBF"}


KERNEL_LARGE = 10.0  # K(x, x) this many times its standardized size: an SMO stopped at its cap says standardize


def _listed(idx: np.ndarray, n: int) -> str:
    """'x₁, x₄ (2 of 60)', or past SVM_STATE_NAMES names 'x₁, x₂, x₃, x₄, x₅, … (14 of 60)'."""
    more = ", …" if idx.size > SVM_STATE_NAMES else ""
    return f"{names(idx[:SVM_STATE_NAMES])}{more} ({idx.size:,} of {n:,})"


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
    return state_text(head, params, mis, n, limit=SVM_STATE_NAMES) + f"<br>support vectors: {_listed(sv, n)}; {slack}"


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


def sgd_step_text(run, jstar: float, s: int) -> str:
    """What hinge SGD's step ``s`` did, in the seeds' notation (HTML): the Python reference of the SGD chart's words.

    E.g. "<b>Step 3</b>: x₇, y = +1, y·(w·x+b) = 0.4 < 1 → hinge active:<br>w ← (1 − ηλ)·w + η·y·x = (…), b ← b + η·y
    = …<br>η = …, λ = 1/(N·C) = … · J = …, gap to the exact J* = …: <b>…</b>". Whether the hinge was active is
    the core's decision (``run.active``); y·(w·x+b) is summed in the core's order.

    Parameters
    ----------
    run : core.svm.HingeRun
    jstar : float
        The exact optimum J* for the run's C.
    s : int
        The step, 0..S.
    """
    X, y = run.X, run.y
    w, b = run.W[s], float(run.B[s])
    if s:
        i = int(run.order[s - 1])
        m = float(y[i] * activation(X[i:i + 1], run.W[s - 1], float(run.B[s - 1]))[0])  # y·(w·x + b) before the step
        head = f"<b>Step {s:,}</b>: x{sub(i + 1)}, y = {'+1' if y[i] > 0 else '−1'}, y·(w·x+b) = {num(m)}"
        if run.active[s - 1]:
            head += (f" < 1 → hinge active:<br>w ← (1 − ηλ)·w + η·y·x = ({num(w[0])}, {num(w[1])}), "
                     f"b ← b + η·y = {num(b)}")
        else:
            head += f" ≥ 1 → only the shrink:<br>w ← (1 − ηλ)·w = ({num(w[0])}, {num(w[1])}), b stays {num(b)}"
        head += f"<br>η = {num(float(run.etas[s - 1]))}, λ = 1/(N·C) = {num(run.lam)}"
    else:
        head = f"<b>Step 0</b>: w = 0, b = 0; λ = 1/(N·C) = {num(run.lam)}"
    return head + (f" · J = {num(run.objective[s])}, gap to the exact J* = {num(jstar)}: "
                   f"<b>{num(run.objective[s] - jstar)}</b>")


def sgd_state(run, s: int) -> str:
    """Hinge SGD's state after step ``s`` in one plain line: "Step 7 of 2000: w = …, b = …; misclassified: …;
    hinge active (margin < 1) for 10 of 40 points" (y·(w·x+b) ≤ 0 and < 1 as the core sums them)."""
    w, b = run.W[s], float(run.B[s])
    margins = run.y * activation(run.X, w, b)  # yᵢ(w·xᵢ + b) after the step
    return state_line(s, run.n_steps, w, b, np.flatnonzero(margins <= 0), len(run.y),
                      extra=f"hinge active (margin < 1) for {int((margins < 1).sum()):,} of {len(run.y):,} points")


# ----------------------------------------------------------------------------------------------------
# from viz.scene
# ----------------------------------------------------------------------------------------------------


def figure_of(blob: bytes) -> dict:
    """The figure a ``figure`` record holds (the inverse of :func:`viz.scene.figure_scene`; ValueError if the record
    is of another kind)."""
    header, arrays = unpack(blob)
    if header.get("kind") != "figure":
        raise ValueError(f"not a figure scene: kind {header.get('kind')!r}")
    return json.loads(arrays["figure"].tobytes().decode("utf-8"))
