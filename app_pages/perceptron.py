"""Perceptron step-through: read widgets -> cached core run -> scene -> the browser draws it.

The run crosses the wire once, as a scene record of the core's states (:mod:`viz.scene`); stepping,
scrubbing, playing and the step mode happen in the browser. The page's body is a fragment
(glue.shared.page_fragment), and its live controls (the variant, τ, B) with what they change another inside it
(:func:`live`): τ, and a variant the chart has drawn, move in the browser at once; a change reruns the live part.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from time import perf_counter

import streamlit as st

from datasets.csvio import trajectory_csv
from glue.ahead import Ahead, ahead_of, made_ahead_kind, parse_ask
from glue.builds import SCALE, memo_key, perceptron_page, run_params, settings_key
from glue.chart_tools import exports, file_stem
from glue.dataset import current_dataset
from glue.options import FRAME_LABELS, HEIGHTS, N_PLANE_MAX, REDUCTION_LABELS, RULE_LABELS, TAUS, TTL, VARIANT_LABELS
from glue.present import part
from glue.quiz import quiz
from glue.scene_chart import show_scene
from glue.shared import (
    bound,
    live_fragment,
    more_asked,
    page_fragment,
    partial_first,
    plane_data,
    points_ready,
    presenting,
    run_or_last_good,
    step_beyond,
    steps_table,
    take_start_step,
)
from glue.userdata import escape_md
from glue.workers import TIMEOUT_S, offload_shared
from viz.gif import perceptron_gif
from viz.perceptron import step_table
from viz.scene import SceneRun, View, bundle, with_view

LAST_GOOD = "_perceptron_last_good"
VARIANT_HELP = ("cyclic: the points in order, epoch after epoch (PerceptronTrain). random: one uniformly chosen "
                "point per step. mini-batch: a random subset I of B points, w ← w + τ/B Σ over the mistakes in I. "
                "batch: all points at once, a gradient step on the perceptron loss.")
GIF_FRAMES = 200
# states × points the record of one τ may check (N = 2,000 at 100,000 steps): about 1 s per τ on this machine, and
# 5.6 s at N = 10,000 with 100,000 steps, where the ten τ would keep two workers busy for half a minute
RECORD_WORK = 200_000_000
CHART = "perceptron_chart"  # the data chart: clicks on it edit the points


PAGE_RAN = "_perceptron_page_ran"  # set by the page, taken by its live part: a run of the live part alone has none
SHOWN = "_perceptron_shown"  # the inputs of the record this session was sent last
BUILT_KEEP = 32  # inputs the registry of builds holds, as compute's cache does (a forgotten one: a partial record)
TAU_LABEL = "Step size τ"  # the renderer follows this control: τ moves in the browser
VARIANT_LABEL, B_LABEL = "Variant", "Batch size B"  # and these, back to a variant (and B) it has drawn (the memo)
AHEAD_ASKED = "_perceptron_ahead"  # the chart's ask for the variants made ahead (glue.ahead.Ask), for this run
LAST_BUILD = "_perceptron_last_build_s"  # how long this session's last build of every τ (not a cache lookup) took
SLOW_BUILD_S, CACHED_S = 0.15, 0.02  # a build that slow sends the τ shown first (first_tau_first); a lookup is quicker


def _page_of(X, y, params: tuple):
    """Run the perceptron for every τ and build what the page shows (in the workers)."""
    return perceptron_page(X, y, params, tuple(TAUS), TAU_LABEL, offload_shared, (VARIANT_LABEL, B_LABEL),
                           ahead=ahead_of(params, len(y)))


@st.cache_resource(show_spinner=False)
def made_ahead() -> Ahead:
    """The runs made ahead (glue.ahead): the server's, for every session."""
    return Ahead(_page_of)


@st.cache_resource(max_entries=32, ttl=TTL, show_spinner="Running the perceptron for every τ…")
def compute(X, y, params: tuple):
    """Run the perceptron for every τ and build what the page shows (cached on the inputs but τ; built in a worker,
    or made ahead: :func:`made_ahead`, whose build under way is waited for)."""
    made = made_ahead().future(settings_key(X, y, params))
    if made is not None:
        with contextlib.suppress(Exception):  # (one that failed there is built here, and says why)
            return made.result(timeout=TIMEOUT_S)
    return _page_of(X, y, params)


def _ahead() -> None:
    """The chart drew a record and was left alone: it asks for the variants made ahead (glue.ahead.parse_ask; anything
    else is ignored). The live part's run this causes answers (:func:`live`)."""
    st.session_state[AHEAD_ASKED] = parse_ask((st.session_state.get(CHART) or {}).get("ahead"))


def build(ds, params: tuple, tau: float, first: bool) -> tuple:
    """What the page shows for ``params`` (the record, the words of each τ, the conventions, the dataset's label): the
    runs of every τ (:func:`compute`); or, where it may send the run of the τ shown ``first`` and the inputs changed
    (the variant, B, another setting or the data: not τ) and those runs are not made yet, the run of ``tau`` alone, a
    partial record (:class:`viz.scene.PerceptronScene`; its words name that τ alone: :func:`every_tau`). Once drawn,
    the chart asks for the rest (``more_asked``): the next run of the live part, with the same inputs, makes every τ,
    and the chart takes that record in place of this one. (Starting every τ's build at once, in the background,
    brought that record 33 ms sooner and the first one 37 ms later, medians of 6: not done.) A build of every τ that
    was not cached is timed (:func:`first_tau_first` reads it)."""
    X, y = plane_data(ds, N_PLANE_MAX)
    key, ahead = settings_key(X, y, params), made_ahead()

    def every() -> tuple:
        start = perf_counter()
        made = compute(X, y, params)
        took = perf_counter() - start
        if took > CACHED_S:  # (built, or made ahead and waited for: not a lookup)
            st.session_state[LAST_BUILD] = took
        return made

    out = partial_first(SHOWN, "perceptron", BUILT_KEEP, key, lambda: perceptron_page(
        X, y, params, (tau,), TAU_LABEL, offload_shared, (VARIANT_LABEL, B_LABEL), partial=True),
        every, may=first and ahead.future(key) is None)
    if every_tau(out) and made_ahead_kind(params, len(y)):  # (an ask then takes it from there)
        ahead.put(key, memo_key(X, y, params), out)
    return *out, ds.label


def first_tau_first(alone: bool) -> bool:
    """Whether new inputs send the run of the τ shown first (:func:`build`): on a run of the live part ``alone`` (the
    variant or B changed), and on the page's other runs (another setting, new data) where this session's last build of
    every τ took SLOW_BUILD_S or more. What a build costs depends on the variant, N and max steps (at 1,000 steps:
    mini-batch and batch 0.12–0.66 s for every τ on N = 40–2,000 points, cyclic and random 3–110 ms; cyclic at
    100,000 steps on N = 2,000 about 0.9 s a τ), and new data or a new setting mostly costs what the last did. Where
    the build is quick, the second run that the rest needs costs more than it saves (a new data seed, XOR,
    N = 2,000, cyclic, medians of 8 alternating: drawn 482 ms after the key against 547 ms in one record, every τ
    785 against 547 ms); where it is slow the first record comes much sooner (blobs, mini-batch, medians of 6: 577
    against 1,119 ms, every τ 1,264 against 1,119 ms; XOR, batch, 4: 483 against 771, every τ 1,057 against 771)."""
    return alone or st.session_state.get(LAST_BUILD, 0.0) >= SLOW_BUILD_S


def every_tau(result: tuple) -> bool:
    """Whether a result of :func:`build` holds the runs of every τ (not a partial record): only such a one is the
    page's last good run, which another τ may be asked of."""
    return len(result[1]) == len(TAUS)


# the exports and the table read the record the browser draws (viz.scene.SceneRun): one drawing per scene
@st.cache_resource(max_entries=8, ttl=TTL, show_spinner=False)
def table_of(blob: bytes, tau: float) -> dict:
    """The run's steps as a table (made when the table is opened)."""
    return step_table(SceneRun.of_tau(blob, tau))


def run_csv(blob: bytes, tau: float) -> str:
    """The run as CSV (the download's contents, made on the click)."""
    return trajectory_csv(SceneRun.of_tau(blob, tau))


def run_gif(blob: bytes, tau: float, mode: str) -> bytes:
    """The run as an animated GIF, drawn without a browser (made on the click)."""
    return perceptron_gif(SceneRun.of_tau(blob, tau), max_frames=GIF_FRAMES, mode=mode)


@page_fragment
def page() -> None:
    """The Perceptron page (a fragment: glue.shared.page_fragment); its live controls and what they change are a
    fragment of their own inside it (:func:`live`)."""
    st.title("Perceptron")
    st.session_state[PAGE_RAN] = True
    ds = current_dataset()
    N = max(len(ds.y), 1)
    big = presenting()
    first = st.container()  # presentation mode: the chart comes first, the settings under it

    with part("settings"):
        cols = st.columns([2.2, 2, 1.4, 1.3, 1.4])  # variant, τ, B (drawn by live), the rule, the frames
        rule = bound(cols[3].radio, "Update when", list(RULE_LABELS), format_func=RULE_LABELS.get, key="rule",
                     fmt=RULE_LABELS.get)
        mode = bound(cols[4].radio, "Frames", list(FRAME_LABELS), format_func=FRAME_LABELS.get, key="frames",
                     fmt=FRAME_LABELS.get)
        with st.expander("More settings: bias, start, seed, max steps, figure size"):
            d1, d2, d3, d4 = st.columns(4)
            fit_b = bound(d1.toggle, "Learn bias b", value=True, key="bias", fmt=lambda v: str(v).lower())
            w01 = bound(d2.number_input, "Start w₀, 1st", -100.0, 100.0, 0.0, 0.5, key="w01")
            w02 = bound(d3.number_input, "Start w₀, 2nd", -100.0, 100.0, 0.0, 0.5, key="w02")
            b0 = bound(d4.number_input, "Start b₀", -100.0, 100.0, 0.0, 0.5, key="b0")
            e1, e2, e3, e4 = st.columns(4)
            seed = bound(e1.number_input, "Order seed", 0, 2**31 - 1, 0, 1, key="seed",
                         help="Seeds the random order (random and mini-batch variants).")
            max_steps = bound(e2.number_input, "Max steps", 1, 100_000, 1000, 100, key="max_steps")
            reduction = bound(e3.radio, "Batch step", list(REDUCTION_LABELS), format_func=REDUCTION_LABELS.get,
                              key="reduction", fmt=REDUCTION_LABELS.get,
                              help="Mini-batch and batch: gradient of the mean loss (τ/B Σ, τ/N Σ) or of the sum (τ Σ).")
            height = bound(e4.select_slider, "Figure height (px)", HEIGHTS, value=780, key="height")
    quiz_on = bound(st.toggle, "Quiz: predict each update", value=False, key="quiz", fmt=lambda v: str(v).lower(),
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
    live(cols[:3], out, settings, View(int(height), SCALE if big else 1.0, mode), quiz_on)


@live_fragment
def live(cols, out, settings: tuple, view: View, quiz_on: bool) -> None:
    """The controls a lecturer tunes live (the variant, τ, B), drawn into the page's settings row, and all they
    change: the chart and its status (in ``out``), the notes and the exports. Changing one reruns this alone
    (glue.shared.live_fragment); the page's other settings come in ``settings`` and ``view``.

    Streamlit lets a fragment's rerun write into a container made outside it only where the fragment wrote on
    the last run of the container's maker: the widgets' columns and ``out`` are written on every run (a widget,
    and the chart, a message or the points), and the notes and tables are made here."""
    ds = current_dataset()
    N = max(len(ds.y), 1)
    alone = not st.session_state.pop(PAGE_RAN, False)  # the page did not run since this part last did
    asked = st.session_state.pop(AHEAD_ASKED, None)  # (glue.ahead.Ask)
    variant = bound(cols[0].selectbox, VARIANT_LABEL, list(VARIANT_LABELS), format_func=VARIANT_LABELS.get, key="variant",
                    fmt=VARIANT_LABELS.get, help=VARIANT_HELP)
    tau = bound(cols[1].select_slider, TAU_LABEL, TAUS, value=1.0, key="tau",
                help="Moves the chart at once, in your browser: every τ is run in advance.")
    # (no bounds on the box: Streamlit would only mark a B outside them with a small "!" and keep the last; the page
    # names it and runs the nearest B, here and in the browser's choice of a kept run: wantedSlot in viz/js/scene.js)
    typed = int(bound(cols[2].number_input, B_LABEL, None, None, min(max(N // 4, 1), N), 1, key="B",
                      disabled=variant != "minibatch", help="Only the mini-batch variant uses B (1 ≤ B ≤ N)."))
    batch = min(max(typed, 1), N)
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
        if result is not None and quiz_on:  # the same record, shown as a question: no step-through, notes or exports
            quiz(result[0], float(tau), View(view.height, view.scale, axes=ds.axes or View.axes))
            result = None
        if result is not None:
            blob, words, conv, label = result
            (kind, status), n_steps, (bkind, btext) = words[float(tau)]
            step_beyond(step0, n_steps, "the run has")
            view = replace(view, start=step0, axes=ds.axes or View.axes)
            scene = with_view(blob, view)  # τ is not in it: moving τ sends the same bytes (and the browser keeps them)
            if asked and alone and made and made[0] is result and every_tau(result):  # this run's own record
                ahead = made_ahead().answer(*plane_data(ds, N_PLANE_MAX), params, asked, batch)
                scene = bundle([r[0] for r in ahead]) if ahead else scene  # the other variants: the chart keeps them
            st.markdown(f"**{escape_md(label)}**")  # a file's name is shown as text
            show_scene(scene, CHART, on_more_change=more_asked, on_ahead_change=_ahead)  # (a partial record asks for more)
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
