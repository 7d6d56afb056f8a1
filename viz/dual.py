"""The Dual / Gram page's words and numbers: the arithmetic of a step, the state line, the summary, the cost.

The chart itself is drawn in the browser from the run's scene record (:func:`viz.scene.dual_scene`, drawn by
``viz/js/dual.js``); the functions here are the Python references the renderer's text is tested against
(:func:`describe_dual_step`, :func:`dual_state`), the lines under the chart, and :func:`gram_display`, G as
the heatmap draws it.
"""

from __future__ import annotations

import numpy as np

from core.dual import DualTrajectory
from viz.common import (
    after_updates,
    names,
    num,
    state_text,
    sub,
    vec,
)

GRAM_SIDE = 200  # at most this many rows and columns of G are drawn; larger N is shown in block means
MAX_TERMS = 4  # f(xᵢ) is written term by term when at most this many αⱼ are > 0
STATE_NAMES = 4  # most points the state line names in one list


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
               f"(y·f = 0 ≤ 0): |M| = {errors:,} of {n:,}.")
    else:
        i = int(traj.examined(step)[0])
        yi = int(p.y[i])
        S = np.flatnonzero(alpha_p)
        f = float(f_p[i])  # f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b, the value the run judged xᵢ by
        si = sub(i + 1)
        head = f"<b>Step {step:,}</b> (epoch {traj.epoch(step):,}, |M| = {errors:,} after it): x{si}, y = {_sign(yi)}"
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
    who = names(S, STATE_NAMES) if S.size <= STATE_NAMES else f"{names(S[:STATE_NAMES])}, …"
    head = after_updates(k)
    if w is not None:
        support = f"αᵢ > 0 for {who} ({S.size:,} of {n:,})" if S.size else "α = 0"
        return state_text(head, f"w = Σαᵢyᵢxᵢ = {vec(w)}, b = {num(b)}; {support}", mistakes, n, limit=STATE_NAMES)
    support = f"{S.size:,} of {n:,} αᵢ > 0 ({who})" if S.size else "α = 0"
    return state_text(head, f"{support}, b = {num(b)}", mistakes, n, limit=STATE_NAMES)


def _paren(v: float) -> str:
    """A factor as written in a product: negative numbers in parentheses."""
    return f"({num(v)})" if num(v).startswith("−") else num(v)


def _sign(v) -> str:
    """A label as written: '+1' or '−1'."""
    return "+1" if v > 0 else "−1"


def _tiny(v: float) -> str:
    """A difference: '0' when exactly zero, else in scientific notation (rounding shows as 1e-16)."""
    return "0" if v == 0 else f"{v:.1e}".replace("-", "−")


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
    more, joint = "raise max steps", " yet: the"
    if traj.stopped_by_work_cap:  # raising max steps cannot help: say what can
        head = (f"Stopped at the work cap after {S:,} steps ({K:,} updates), before max steps ({traj.max_steps:,}): "
                f"each update costs O(N) and a run on {traj.problem.n:,} points takes at most {traj.step_cap:,} steps")
        more, joint = "use fewer points", ". The"
    space = "linearly" if traj.problem.kernel == "linear" else "in this kernel's feature space"
    if separable is False:
        return "warning", (f"{head}: the data are not separable {space}, so some point is always misclassified "
                           "and the perceptron never stops.")
    if separable is True:
        return "info", f"{head}{joint} data are separable {space}, so it will converge; {more}."
    return "info", f"{head}; try another kernel or parameter, or {more}."


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
