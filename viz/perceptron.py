"""The Perceptron page's words: the arithmetic of a step, the status, the bound, the table, the frames of a GIF.

The chart itself is drawn in the browser from the run's scene (:mod:`viz.scene`, ``viz/js/perceptron.js``);
the renderer writes each step's arithmetic and state line as ``describe_step`` and ``state_line_of`` do in
tests/oracles.py, and the tests hold the two equal at random steps of random runs.
"""

from __future__ import annotations

import numpy as np

from core.perceptron import WORK_LIMIT, Trajectory
from viz.common import names, num, vec


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


def _percent(f: float) -> str:
    """A share as a reader wants it: 100%, 37%, 4.2%, 0.013%."""
    return f"{100 * f:.0f}%" if f >= 0.1 else f"{100 * f:.2g}%"


def _bnum(v: float) -> str:
    """The bound as a reader wants it: 117, 55.7, 1,234,567."""
    return f"{v:,.0f}" if v >= 100 else f"{v:.3g}"


def bound_run_kind(traj: Trajectory) -> tuple[bool, str]:
    """Whether the run is one Novikoff's bound speaks to (single-point updates from w = 0, b = 0: online, or
    mini-batch with B = 1), and if not, why."""
    if traj.variant not in ("cyclic", "random") and not (traj.variant == "minibatch" and traj.batch_size == 1):
        return False, ("it counts single-point updates (the online perceptron, or mini-batch with B = 1); "
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
    more, joint = "raise max steps", " yet: the"
    if traj.stopped_by_work_cap:  # the run was stopped, not refused: say where and why
        per = f"B = {traj.batch_size:,}" if traj.variant == "minibatch" else f"all N = {traj.batch_size:,}"
        head = (f"Stopped at the work cap after {S:,} step{'s' * (S != 1)} ({K:,} update{'s' * (K != 1)}), before "
                f"max steps ({traj.max_steps:,}): each step examines {per} points and a run examines at most "
                f"{WORK_LIMIT:,}")
        more = "lower B or use an online variant" if traj.variant == "minibatch" else "use mini-batch or an online variant"
        joint = ". The"
    origin = "" if traj.problem.fit_intercept else " by a line through the origin (without a bias, w·x = 0 is all it can learn)"
    if separable is False:
        return "warning", (f"{head}: the data are not linearly separable{origin}, so some point is always "
                           "misclassified and the perceptron never stops.")
    if separable is True:
        return "info", (f"{head}{joint} data are linearly separable{origin}, so the perceptron will converge; "
                        f"{more}.")
    return "info", f"{head}."


def step_table(traj: Trajectory, max_rows: int = 2000) -> dict[str, list]:
    """One row per step (the first ``max_rows``): step, examined, updated, w, b, |M|.

    ``traj`` is a run, or a run of the page's scene record read back (``viz.scene.SceneRun``, what the page uses).

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
