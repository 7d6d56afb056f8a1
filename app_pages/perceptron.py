"""Perceptron step-through: read widgets -> cached core run -> scene -> the browser draws it.

The run crosses the wire once, as a scene record of the core's states (:mod:`viz.scene`); stepping,
scrubbing, playing and the step mode happen in the browser. The page's body is a fragment
(glue.shared.page_fragment), and its live controls (the variant, τ, B) with what they change another inside it
(:func:`live`): τ, and a variant the chart has drawn, move in the browser at once; a change reruns the live part.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from glue.builds import SCALE, run_params
from glue.chart_tools import exports, file_stem
from glue.controls import ChartControls
from glue.dataset import current_dataset
from glue.options import PERCEPTRON, TAUS, VARIANT_LABELS
from glue.perceptron_run import (
    AHEAD_ASKED,
    B_LABEL,
    CHART,
    TAU_LABEL,
    VARIANT_LABEL,
    answer_ahead,
    ask_ahead,
    build,
    every_tau,
    first_tau_first,
    run_csv,
    run_gif,
    table_of,
)
from glue.present import label_line, page_title, part
from glue.quiz import quiz
from glue.scene_chart import show_scene
from glue.shared import (
    bound,
    live_fragment,
    more_asked,
    page_fragment,
    points_ready,
    presenting,
    run_or_last_good,
    step_beyond,
    steps_table,
    take_start_step,
)
from viz.scene import View, bundle, with_view

LAST_GOOD = "_perceptron_last_good"
VARIANT_HELP = ("cyclic: the points in order, epoch after epoch (PerceptronTrain). random: one uniformly chosen "
                "point per step. mini-batch: a random subset I of B points, w ← w + τ/B Σ over the mistakes in I. "
                "batch: all points at once, a gradient step on the perceptron loss.")
# states × points the record of one τ may check (N = 2,000 at 100,000 steps; its cost: bench/RESULTS.md)
RECORD_WORK = 200_000_000
PAGE_RAN = "_perceptron_page_ran"  # set by the page, taken by its live part: a run of the live part alone has none


@page_fragment
def page() -> None:
    """The Perceptron page (a fragment: glue.shared.page_fragment); its live controls and what they change are a
    fragment of their own inside it (:func:`live`)."""
    ds = current_dataset()
    page_title("Perceptron", ds.label)
    st.session_state[PAGE_RAN] = True
    N = max(len(ds.y), 1)
    big = presenting()
    first = st.container()  # presentation mode: the chart comes first, the settings under it

    with part("settings"):
        cols = st.columns([1.4, 1.4, 3])  # the rule, the frames (the variant, τ and B are the chart's: live)
        rule = bound(cols[0].radio, "Update when", key="rule")
        mode = bound(cols[1].radio, "Frames", key="frames")
        with st.expander("More settings: bias, start, seed, max steps, figure size"):
            d1, d2, d3, d4 = st.columns(4)
            fit_b = bound(d1.toggle, "Learn bias b", key="bias")
            w01 = bound(d2.number_input, "Start w₀, 1st", step=0.5, key="w01")
            w02 = bound(d3.number_input, "Start w₀, 2nd", step=0.5, key="w02")
            b0 = bound(d4.number_input, "Start b₀", step=0.5, key="b0")
            e1, e2, e3, e4 = st.columns(4)
            seed = bound(e1.number_input, "Order seed", step=1, key="seed",
                         help="Seeds the random order (random and mini-batch variants).")
            max_steps = bound(e2.number_input, "Max steps", step=100, key="max_steps")
            reduction = bound(e3.radio, "Batch step", key="reduction",
                              help="Mini-batch and batch: gradient of the mean loss (τ/B Σ, τ/N Σ) or of the sum (τ Σ).")
            height = bound(e4.select_slider, "Figure height (px)", key="height", page=PERCEPTRON)
    quiz_on = bound(st.toggle, "Quiz: predict each update", key="quiz",
                    help="Before each step is shown, click the point you think will be updated (or answer No update); "
                         "the app says whether you were right and why, and keeps your score for this session.")

    # mini-batch and batch examine B (or N) points per step: the core stops a run at its work cap and the status says so
    steps = int(max_steps)
    # the record checks M at every state against every point, for each τ: past 2,000 points, fewer steps
    if steps > RECORD_WORK // N:
        st.info(f"On {N:,} points a run here is capped at {RECORD_WORK // N:,} steps: the chart's record holds M at every "
                f"update for each of the {len(TAUS)} values of τ (max steps lowered from {steps:,}).")
        steps = RECORD_WORK // N

    settings = (("w0", (float(w01), float(w02))), ("b0", float(b0)), ("update_on", rule), ("fit_intercept", bool(fit_b)),
                ("max_steps", steps), ("seed", int(seed)), ("reduction", reduction))
    out = first if big else st.container()
    live(out, settings, View(int(height), SCALE if big else 1.0, mode), quiz_on)


@live_fragment
def live(out, settings: tuple, view: View, quiz_on: bool) -> None:
    """The controls a lecturer tunes live (the variant, τ, B), which the chart draws (glue.controls), and all they
    change: the chart and its status (in ``out``), the notes and the exports. Changing one reruns this alone
    (glue.shared.live_fragment); the page's other settings come in ``settings`` and ``view``.

    Streamlit lets a fragment's rerun write into a container made outside it only where the fragment wrote on
    the last run of the container's maker: ``out`` is written on every run (the chart, a message or the points),
    and the notes and tables are made here."""
    ds = current_dataset()
    N = max(len(ds.y), 1)
    alone = not st.session_state.pop(PAGE_RAN, False)  # the page did not run since this part last did
    asked = st.session_state.pop(AHEAD_ASKED, None)  # (glue.ahead.Ask)
    knobs = ChartControls(PERCEPTRON)
    variant = knobs.add("variant", VARIANT_LABEL, help=VARIANT_HELP)
    tau = knobs.add("tau", TAU_LABEL, help="Moves the chart at once, in your browser: every τ is run in advance.")
    # (a B outside 1..N, from a link or an earlier dataset, is named and the nearest run, here and in the browser's
    # choice of a kept run: wantedSlot in viz/js/follow.js)
    typed = int(knobs.add("B", B_LABEL, default=min(max(N // 4, 1), N), lo=1, hi=N,
                          enabled_by=(VARIANT_LABEL, VARIANT_LABELS["minibatch"]),
                          help="Only the mini-batch variant uses B (1 ≤ B ≤ N)."))
    batch = min(max(typed, 1), N)
    view = replace(view, controls=tuple(knobs.specs))
    minibatch = variant == "minibatch"
    params = run_params(variant, batch, settings)
    result = None
    stem = file_stem("perceptron", variant, f"B{batch}" if minibatch else "", f"τ{float(tau):g}", f"{len(ds.y)}pts")
    with out:
        if minibatch and batch != typed:
            st.warning(f"B = {typed:,} is not a batch size here: B is from 1 to N = {N:,} (the number of points), so "
                       f"the run uses B = {batch:,}.")
        step0 = take_start_step()  # a link's ?step=, used once (a bad one is named above the page)
        made = []  # this run's own result (not the last good one, shown after a failure)
        if points_ready(ds, CHART, "the perceptron"):
            result = run_or_last_good(LAST_GOOD, "the perceptron", lambda: made.append(
                build(ds, params, float(tau), first_tau_first(alone) and not quiz_on)) or made[0], CHART, every_tau)
        over = False  # (the quiz's run is over: the step-through chart at its last step, and its controls)
        if result is not None and quiz_on:  # the same record, shown as a question (no step-through, notes or exports
            # until its run is over)
            over = not quiz(result[0], float(tau), View(view.height, view.scale, axes=ds.axes or View.axes,
                                                        classes=ds.classes, controls=view.controls), knobs)
            result = None if not over else result
        if result is not None:
            blob, words, conv, label = result
            (kind, status), n_steps, (bkind, btext) = words[float(tau)]
            step_beyond(step0, n_steps, "the run has")
            view = replace(view, start=n_steps if over else step0, axes=ds.axes or View.axes, classes=ds.classes)
            scene = with_view(blob, view)  # τ is not in it: moving τ sends the same bytes (and the browser keeps them)
            if asked and alone and made and made[0] is result and every_tau(result):  # this run's own record
                ahead = answer_ahead(ds, params, asked, batch)
                scene = bundle([r[0] for r in ahead]) if ahead else scene  # the other variants: the chart keeps them
            label_line(label, ds.label)
            show_scene(scene, CHART, on_more_change=more_asked, on_ahead_change=ask_ahead, **knobs.callbacks(CHART))  # (a partial record asks for more)
            getattr(st, kind)(status)
    if result is not None:  # the notes and tables under the settings in presentation mode
        with part("notes"):
            st.caption(conv)
            getattr(st, bkind)(btext)
            st.caption("Step with ◀ Back / Next ▶, the slider or the ← → keys; Play runs the steps in the browser. "
                       "Rings mark the misclassified set M after the step; the yellow disc marks the point(s) examined; "
                       "the dashed line is the boundary before the update.")
        with part("tables"):
            exports(CHART, stem, with_view(blob, replace(view, tau=float(tau))), f"Perceptron: {label}",
                    gif=lambda: run_gif(blob, float(tau), view.mode),
                    csv=(f"The run (CSV, {n_steps + 1:,} rows)", lambda: run_csv(blob, float(tau))))
            steps_table(f"Every step as a table ({min(n_steps + 1, 2000):,} of {n_steps + 1:,} rows)",
                        lambda: table_of(blob, float(tau)))

page()
