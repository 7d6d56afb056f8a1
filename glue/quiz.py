"""Predict the next update: the Perceptron page's quiz (state in the session, one question per rerun).

The state after step k is shown with what step k + 1 examines; the student
clicks the point they think will be updated, or answers *No update*; the app
says whether that was right and why, draws the step, and keeps a score.

The chart is the page's own scene record (:mod:`viz.scene`) shown as a question (``View.quiz``,
``viz/js/quiz.js``), and the questions and verdicts read the same record (:class:`viz.scene.SceneRun`):
one drawing of the run for the chart, the quiz and the exports.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from glue.scene_chart import show_scene
from viz.quiz import grade, question
from viz.scene import SceneRun, View, with_view

QUIZ = "_quiz"  # {"run": (the record, τ) asked about, "k": the step shown, "answer": None or (choice, right, why)}
SCORE = "_quiz_score"  # [right, answered] over the session
QUIZ_CHART = "quiz_chart"


def _answer(run: SceneRun, choice) -> None:
    q = st.session_state[QUIZ]
    if q["answer"] is not None or q["k"] >= run.n_steps:
        return
    right, why = grade(run, q["k"], choice)
    q["answer"] = (choice, right, why)
    score = st.session_state.setdefault(SCORE, [0, 0])
    score[0] += int(right)
    score[1] += 1


def point_pick(value, n: int) -> int | None:
    """The point a click on the quiz chart picked: ``{"i": index, ...}`` with 0 ≤ index < n, else None (anything
    else is ignored: a hand-made message never reaches the grading)."""
    i = value.get("i") if isinstance(value, dict) else None
    return i if isinstance(i, int) and not isinstance(i, bool) and 0 <= i < n else None


def _on_pick(run: SceneRun) -> None:
    """A point clicked on the chart (the renderer sends its index)."""
    i = point_pick((st.session_state.get(QUIZ_CHART) or {}).get("pick"), run.problem.n)
    if i is not None:
        _answer(run, i)


def _go(k: int) -> None:
    st.session_state[QUIZ].update(k=k, answer=None)


def _reset_score() -> None:
    st.session_state[SCORE] = [0, 0]


def quiz(blob: bytes, tau: float, view: View, knobs) -> bool:
    """Draw the quiz on the run of step size ``tau`` in the page's scene record ``blob`` (another record, e.g. of
    edited points, or another τ restarts it), shown as ``view`` shows the step-through chart, with the page's chart
    controls ``knobs`` (glue.controls.ChartControls); False where the run is over (no question: no chart)."""
    run = SceneRun.of_tau(blob, tau)
    q = st.session_state.get(QUIZ)
    # the cached record itself: the same inputs give the same object (no hash of its bytes on every rerun)
    if q is None or q["run"][0] is not blob or q["run"][1] != float(tau):
        q = st.session_state[QUIZ] = {"run": (blob, float(tau)), "k": 0, "answer": None}
    score = st.session_state.setdefault(SCORE, [0, 0])
    k, answer = q["k"], q["answer"]
    # presentation mode: a slide, the chart left and the words right, so both fit a projector's screen
    if view.scale > 1:
        chart, words = st.columns([3, 2])
        verdict = None
    else:  # the question and its button above the chart, the verdict under it: answering moves nothing (the verdict
        # above the chart pushed it 102 px down at 1024×768, and up again at the next question)
        words, chart, verdict = st.container(), st.container(), st.container()
    with words:
        asked = _words(run, k, answer, score, view.scale > 1, verdict)
    if asked is not None:
        with chart:
            show_scene(with_view(blob, replace(view, start=None, tau=float(tau), quiz=asked)), QUIZ_CHART,
                       on_pick_change=lambda: _on_pick(run), **knobs.callbacks(QUIZ_CHART))
    return asked is not None


def _words(run: SceneRun, k: int, answer, score: list[int], narrow: bool, verdict=None) -> dict | None:
    """The score, the question, the answer's verdict and the buttons (``narrow``: in a column beside the chart; the
    verdict in the container ``verdict`` where given, else under the question); what the chart asks (None: the run is
    over)."""
    s1, s2, s3 = (st.container(), *st.columns(2)) if narrow else st.columns([3, 1, 1])
    s1.markdown(f"**Score: {score[0]} of {score[1]} right**" + (f" ({100 * score[0] / score[1]:.0f}%)"
                                                                 if score[1] else ""))
    s2.button("Start the run over", key="quiz_restart", on_click=_go, args=(0,), width="stretch")
    s3.button("Reset the score", key="quiz_reset", on_click=_reset_score, width="stretch")
    if k >= run.n_steps:
        st.success(f"The run is over after {run.n_steps:,} steps ({run.n_updates:,} updates"
                   + (", converged)." if run.converged else ", the step limit).") + " Start it over, or change "
                   "the settings for a new run; the run is drawn below.")
        return None
    if st.session_state.get("edit_points"):
        st.caption("While the quiz runs, a click on the chart picks a point; turn the quiz off to draw points.")
    _, text = question(run, k)
    st.markdown(f"**The state after step {k}.** {text}")
    if answer is None:
        st.button("No update", key="quiz_none", on_click=_answer, args=(run, None))
    else:
        _, right, why = answer
        box = verdict or st
        (box.success if right else box.error)(why)
        st.button(f"Next question (step {k + 2})" if k + 1 < run.n_steps else "Finish", key="quiz_next",
                  on_click=_go, args=(k + 1,), type="primary")
    return {"step": int(k), "answered": answer is not None, "pick": None if answer is None else answer[0]}
