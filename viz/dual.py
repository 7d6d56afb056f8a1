"""The Dual / Gram page's words and numbers: the arithmetic of a step, the state line, the summary, the cost.

The chart itself is drawn in the browser from the run's scene record (:func:`viz.scene.dual_scene`, drawn by
``viz/js/dual.js``); the functions here are the lines under the chart and :func:`gram_display`, G as the heatmap
draws it. The Python references the renderer's text is tested against (``describe_dual_step``, ``dual_state``) are
in tests/oracles.py.
"""

from __future__ import annotations

import numpy as np

from core.dual import DualTrajectory
from viz.common import (
    num,
    sub,
)

GRAM_SIDE = 200  # at most this many rows and columns of G are drawn; larger N is shown in block means
MAX_TERMS = 4  # f(xᵢ) is written term by term when at most this many αⱼ are > 0


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
