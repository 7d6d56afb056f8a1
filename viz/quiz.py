"""Predict the next update: the question about step k + 1 and the verdict on an answer, in words.

The quiz is answered on the server, one question per rerun; its chart is the Perceptron page's scene record shown
as a question (``viz/js/quiz.js``). ``traj`` is the core's run or the record's (:class:`viz.scene.SceneRun`).
"""

from __future__ import annotations

import numpy as np

from core.perceptron import Trajectory
from viz.common import names, num, sub


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
        return ex, (f"Step {k + 1:,} examines {names(ex)} ({how}, lit yellow). Will the perceptron update on it? "
                    "Click it if you think so, or answer *No update*.")
    if traj.variant == "minibatch":
        return ex, (f"Step {k + 1:,} examines the batch I = {{{names(ex, limit=12)}}} (lit yellow). Click a point "
                    "whose yᵢxᵢ will enter the update, or answer *No update*.")
    return ex, (f"Step {k + 1:,} examines all {traj.problem.n:,} points at once. Click a point whose yᵢxᵢ will enter "
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
