"""Predict the next update: the Perceptron page's quiz (state in the session, one question per rerun).

The state after step k is shown with what step k + 1 examines; the student
clicks the point they think will be updated, or answers *No update*; the app
says whether that was right and why, draws the step, and keeps a score.
"""

from __future__ import annotations

import streamlit as st

from core.perceptron import run_perceptron
from views.builds import sized
from views.options import TTL
from views.shared import show_chart
from viz.quiz import grade, question, quiz_figure

QUIZ = "_quiz"  # {"run": the run asked about, "k": the step shown, "answer": None or (choice, right, why)}
SCORE = "_quiz_score"  # [right, answered] over the session


@st.cache_resource(max_entries=16, ttl=TTL, show_spinner=False)
def quiz_run(X, y, params: tuple):
    """The run the questions come from (cached on the inputs, shared, never changed)."""
    return run_perceptron(X, y, **dict(params))


def _answer(traj, choice) -> None:
    q = st.session_state[QUIZ]
    if q["answer"] is not None or q["k"] >= traj.n_steps:
        return
    right, why = grade(traj, q["k"], choice)
    q["answer"] = (choice, right, why)
    score = st.session_state.setdefault(SCORE, [0, 0])
    score[0] += int(right)
    score[1] += 1


def _on_pick(key: str, traj) -> None:
    """A click on the chart: the picked point's index is its ``customdata``."""
    pts = ((st.session_state.get(key) or {}).get("selection") or {}).get("points") or []
    picked = [p["customdata"] for p in pts if isinstance(p.get("customdata"), int)]
    if picked:
        _answer(traj, picked[0])


def _go(k: int) -> None:
    st.session_state[QUIZ].update(k=k, answer=None)


def _reset_score() -> None:
    st.session_state[SCORE] = [0, 0]


def quiz(traj, height: int, big: bool) -> None:
    """Draw the quiz on the run ``traj`` (from :func:`quiz_run`: another run, e.g. on edited points, restarts it)."""
    q = st.session_state.get(QUIZ)
    if q is None or q["run"] is not traj:  # the cached run itself: same inputs, same object
        q = st.session_state[QUIZ] = {"run": traj, "k": 0, "answer": None}
    score = st.session_state.setdefault(SCORE, [0, 0])
    k, answer = q["k"], q["answer"]
    s1, s2, s3 = st.columns([3, 1, 1])
    s1.markdown(f"**Score: {score[0]} of {score[1]} right**" + (f" ({100 * score[0] / score[1]:.0f}%)"
                                                                 if score[1] else ""))
    s2.button("Start the run over", key="quiz_restart", on_click=_go, args=(0,), width="stretch")
    s3.button("Reset the score", key="quiz_reset", on_click=_reset_score, width="stretch")
    if k >= traj.n_steps:
        st.success(f"The run is over after {traj.n_steps:,} steps ({traj.n_updates:,} updates"
                   + (", converged)." if traj.converged else ", the step limit).") + " Start it over, or change "
                   "the settings above for a new run.")
        return
    if st.session_state.get("edit_points"):
        st.caption("While the quiz runs, a click on the chart picks a point; turn the quiz off to draw points.")
    _, text = question(traj, k)
    st.markdown(f"**The state after step {k}.** {text}")
    if answer is None:
        st.button("No update", key="quiz_none", on_click=_answer, args=(traj, None))
    else:
        _, right, why = answer
        (st.success if right else st.error)(why)
        st.button(f"Next question (step {k + 2})" if k + 1 < traj.n_steps else "Finish", key="quiz_next",
                  on_click=_go, args=(k + 1,), type="primary")
    fig = quiz_figure(traj, k, choice=answer[0] if answer else -1, height=height)
    key = f"quiz_chart_{k}"
    show_chart(sized(fig, big), key, f"The state after step {k}: {text}",
               on_select=lambda: _on_pick(key, traj), selection_mode="points")
