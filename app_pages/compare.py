"""Compare: two runs side by side on the same data, the same start and the same seed, one step slider for both.

read widgets -> cached core runs -> scene record (viz.scene.compare_scene) -> the browser draws it. Stepping,
scrubbing and Play happen in the browser, with no message to the server and no frame cap.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import replace

import streamlit as st

from core.svm import C_GRID
from datasets.csvio import paired_runs_csv
from glue.builds import SCALE, compare_specs, shown_run
from glue.chart_tools import exports, file_stem
from glue.compare_run import B_LEFT, B_RIGHT, C_LABEL, CHART, FAMILY_STEPS, HEIGHT, TAU_BOTH, TAU_LEFT, TAU_RIGHT, build
from glue.controls import ChartControls
from glue.dataset import current_dataset
from glue.options import BATCHES, COMPARE, N_UI_MAX, OWN_KEYS, TAUS
from glue.present import label_line, page_title, part
from glue.scene_chart import show_scene
from glue.shared import (
    bound,
    more_asked,
    name_bad_values,
    page_fragment,
    plane_data,
    points_ready,
    presenting,
    run_or_last_good,
    step_beyond,
    take_start_step,
)
from viz.scene import View, with_view

LAST_GOOD = "_compare_last_good"


@page_fragment
def page() -> None:
    """The Compare page (a fragment: glue.shared.page_fragment)."""
    ds = current_dataset()
    page_title("Compare two runs", ds.label)
    first = st.container()  # presentation mode: the chart here, before the settings
    step0 = take_start_step()
    N = max(len(ds.y), 1)
    follow, key, pair = (None, None), "tau", None  # a side's family follows its control in the browser
    with part("settings"):
        c1, c2, c3 = st.columns([2.4, 1.4, 1.4])
        own = st.container()  # the variant of τ against τ, a row of its own (the chart draws τ, B and C)
        what = bound(c1.selectbox, "Compare", key="cmp", help="Both runs start at w = 0, b = 0 on the same points with the same seed.")
        seed = bound(c2.number_input, "Order seed", step=1, key="seed",
                     help="Seeds the random order of both runs (the same draws).")
        max_steps = int(bound(c3.number_input, "Max steps", step=100, key="cmp_steps"))
        common = {"seed": int(seed), "max_steps": max_steps}
        knobs = ChartControls(COMPARE)  # (each side's τ, B or C is the chart's: glue.controls)
        if what == "order":  # every τ run both ways: τ moves in the browser
            tau = float(knobs.add("tau", TAU_BOTH))
            lefts = tuple(("perceptron", {"variant": "cyclic", "tau": t}) for t in TAUS)
            rights = tuple(("perceptron", {"variant": "random", "tau": t}) for t in TAUS)
            follow, pair = (TAU_BOTH, TAU_BOTH), (tau, tau)
        elif what == "tau":  # one family of every τ; each side shows the τ of its control
            variant = bound(own.columns(3)[0].selectbox, "Variant", key="cmp_order")
            ta = float(knobs.add("tau_a", TAU_LEFT))
            tb = float(knobs.add("tau_b", TAU_RIGHT))
            lefts = rights = tuple(("perceptron", {"variant": variant, "tau": t}) for t in TAUS)
            follow, pair = (TAU_LEFT, TAU_RIGHT), (ta, tb)
        elif what == "batch":  # one family of every B
            ba = int(knobs.add("B_a", B_LEFT))
            bb = int(knobs.add("B_b", B_RIGHT))
            if max(ba, bb) > N:
                st.info(f"B is at most N = {N}: a batch of {max(ba, bb)} takes every point, so it runs with B = {N}.")
            Bs = sorted({min(b, N) for b in BATCHES})
            lefts = rights = tuple(("perceptron", {"variant": "minibatch", "batch_size": b}) for b in Bs)
            follow, key, pair = (B_LEFT, B_RIGHT), "batch_size", (min(ba, N), min(bb, N))
        else:
            C = float(knobs.add("C", C_LABEL))
            lefts, rights = (("perceptron", {"variant": "random"}),), tuple(("hinge", {"C": c}) for c in C_GRID)
            follow, key, pair = (None, C_LABEL), "C", (None, C)
    name_bad_values(tuple(k for cmp, keys in OWN_KEYS.items() if cmp != what for k in keys))  # (the others' own)
    lefts, rights, follow, most = compare_specs(lefts, rights, common, pair, key, follow, FAMILY_STEPS)
    if most is not None:  # only the runs shown: τ (B, C) reruns the page
        st.caption(f"Above {most:,} steps only the two runs shown are sent, so moving "
                   f"{ {'batch_size': 'B', 'C': 'C'}.get(key, 'τ')} reruns the page (a run for each of its values would "
                   "make the chart's record several MB and take seconds to build).")

    def shown(specs: tuple, side: int) -> int:
        """Which of a side's runs (``specs``, as they were built) the page's control shows now; the first when they are
        not this run's (the last good result, of other settings)."""
        return 0 if pair is None or (lefts, rights)[side] != specs else shown_run(specs, key, pair[side])

    result = None
    if points_ready(ds, CHART, "the comparison", need_both=True):
        result = run_or_last_good(LAST_GOOD, "the comparison", lambda: (
            *build(*plane_data(ds, N_UI_MAX), lefts, rights, follow, key, pair), ds.label), CHART,
            keep=lambda r: (r[3], r[4]) == (lefts, rights))  # a partial record is not the last good run
    if result is not None:
        blob, left_runs, right_runs, left_specs, right_specs, label = result
        runs = (left_runs[shown(left_specs, 0)], right_runs[shown(right_specs, 1)])  # the CSV's and the link's pair
        last = max(r.n_steps for r in runs)
        step_beyond(step0, last, "the longer run has")
        view = View(HEIGHT, SCALE if presenting() else 1.0, "all", step0, axes=ds.axes or View.axes, classes=ds.classes,
                    controls=tuple(knobs.specs))
        scene = with_view(blob, view)  # τ (B, C) is not in it: moving it sends the same bytes, and the chart follows
        with first if presenting() else nullcontext():
            label_line(label, ds.label)
            show_scene(scene, CHART, on_more_change=more_asked,  # a partial record asks for the rest once drawn
                       **knobs.callbacks(CHART))
        with part("notes"):
            st.caption("One slider, Back / Next, Play and the ← → keys step both runs together, in your browser; a run "
                       "that has ended holds its last state. Both start at w = 0, b = 0 with the same seed, on the same "
                       "points." + (" Right: stochastic subgradient steps on the hinge loss (the SVM's objective), with the "
                                    "exact SVM for the same C dashed; rings mark margins below 1 there." if what == "svm" else "")
                       + (" Every value of the τ, B or C controls is run once: moving one redraws its panel at once, in "
                          "your browser." if any(follow) else ""))
        with part("tables"):
            exports(CHART, file_stem("compare", what, f"{len(ds.y)}pts"), with_view(blob, replace(view, pair=pair)),
                    f"Compare: {label}",
                    csv=("Both runs (CSV)", lambda r=runs: paired_runs_csv(*r)))


page()
