"""Dual / Gram: read widgets -> cached Gram matrix and dual run -> scene -> the browser draws it.

The run crosses the wire once, as a scene record of the core's states (:func:`viz.scene.dual_scene`);
stepping, scrubbing, playing and the step mode happen in the browser; only a parameter change reruns the page
(a fragment: glue.shared.page_fragment). The Gram matrix is cached per dataset and kernel, apart from the run, so changing η, the order or
max steps reuses it.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import replace

import streamlit as st

from glue.builds import SCALE
from glue.chart_tools import exports, file_stem
from glue.controls import ChartControls
from glue.dataset import current_dataset
from glue.dual_run import CHART, ETA_LABEL, MIN_HEIGHT, compute, steps_of
from glue.options import DUAL, N_UI_MAX, TAUS
from glue.present import label_line, page_title, part
from glue.scene_chart import show_scene
from glue.shared import (
    bound,
    page_fragment,
    plane_data,
    points_ready,
    presenting,
    run_or_last_good,
    step_beyond,
    steps_table,
    take_start_step,
)
from viz.scene import DUAL_BYTES, View, with_view

LAST_GOOD = "_dual_last_good"
KERNEL_HELP = ("linear: K(x, z) = x·z, the primal perceptron in disguise. polynomial: K(x, z) = (x·z + c)^d. "
               "RBF: K(x, z) = exp(−γ‖x − z‖²). The boundary is f(x) = Σ αᵢyᵢK(xᵢ, x) + b = 0.")
ETA_HELP = "αᵢ ← αᵢ + η and b ← b + η·yᵢ on a mistake. From α = 0, b = 0, η only rescales α, b and f: the mistakes are the same."


@page_fragment
def page() -> None:
    """The Dual / Gram page (a fragment: glue.shared.page_fragment)."""
    ds = current_dataset()
    page_title("Dual perceptron and the Gram matrix", ds.label)
    first = st.container()  # presentation mode: the chart here, before the settings
    step0 = take_start_step()  # a link's ?step=, used once

    with part("settings"):
        c1, c2, c4, c5 = st.columns([1.6, 2.2, 1.3, 1.5])  # (η is the chart's: glue.controls)
        kernel = bound(c1.selectbox, "Kernel", key="kernel", help=KERNEL_HELP)
        kparams: tuple = ()
        if kernel == "poly":
            k1, k2 = c2.columns(2)
            degree = bound(k1.select_slider, "Degree d", key="degree")
            coef0 = bound(k2.select_slider, "Offset c", key="coef0")
            kparams = (("degree", int(degree)), ("coef0", float(coef0)))
        elif kernel == "rbf":
            gamma = bound(c2.select_slider, "Width γ", key="gamma",
                          help="Small γ: smooth, wide bumps; large γ: a bump around each point.")
            kparams = (("gamma", float(gamma)),)
        else:
            c2.caption("The linear kernel has no parameters: its w = Σ αᵢyᵢxᵢ is compared with the primal perceptron's.")
        order = bound(c4.radio, "Order", key="order")
        mode = bound(c5.radio, "Frames", key="frames")
        with st.expander("More settings: seed, max steps, figure size"):
            e1, e2, e3 = st.columns(3)
            seed = bound(e1.number_input, "Order seed", step=1, key="seed", help="Seeds the random order.")
            max_steps = bound(e2.number_input, "Max steps", step=100, key="max_steps")
            height = bound(e3.select_slider, "Figure height (px)", key="height", page=DUAL)

    knobs = ChartControls(DUAL)
    eta = knobs.add("eta", ETA_LABEL, help=ETA_HELP)
    if int(height) < MIN_HEIGHT:
        st.caption(f"This page draws three panels: its figure is at least {MIN_HEIGHT} px tall (asked for {int(height)}).")
        height = MIN_HEIGHT
    n = len(ds.y)
    # each update costs O(N): the core stops a run at its work cap (never reached here: N ≤ 2,000 and 100,000 steps)
    params = (("eta", float(eta)), ("variant", order), ("max_steps", int(max_steps)), ("seed", int(seed)))

    def make() -> tuple:
        """The run sent for every η (η rescales α, b and f only; the linear kernel's w and primal run come for each η):
        η then moves in the browser. When that would not hold the whole run, the η asked for alone (η reruns it)."""
        X, y = plane_data(ds, N_UI_MAX)  # G has N² entries: N is capped
        out = compute(X, y, kernel, kparams, (("eta", 1.0), *params[1:]), tuple(TAUS), ETA_LABEL)
        return (*(out or compute(X, y, kernel, kparams, params, None, None)), ds.label)

    result = None if not points_ready(ds, CHART, "the dual perceptron") else run_or_last_good(
        LAST_GOOD, "the dual perceptron", make, CHART)
    if result is not None:
        blob, (kind, status), cost, agreements, facts, label = result
        agreement = agreements.get(float(eta))  # (the last good result may be of another η: then none is said)
        block = facts["gram_block"]
        if facts["shown"] < facts["n_steps"]:
            st.info(f"This run has {facts['n_steps']:,} steps and never settles: its mistakes change at every update, so "
                    f"the chart holds its first {facts['shown']:,} steps ({DUAL_BYTES / 1e6:g} MB). Lower max steps to "
                    "see where it ends, or try another kernel or parameter.")
        step_beyond(step0, facts["shown"], "the chart holds")
        view = View(int(height), SCALE if presenting() else 1.0, mode, step0, axes=ds.axes or View.axes, classes=ds.classes,
                    controls=tuple(knobs.specs))
        scene = with_view(blob, view)  # η is not in it (the record holds every η): moving η sends the same bytes
        with first if presenting() else nullcontext():
            label_line(label, ds.label)
            show_scene(scene, CHART, **knobs.callbacks(CHART))
            getattr(st, kind)(status)
        with part("notes"):
            if agreement is not None:
                getattr(st, agreement[0])(agreement[1])
            if block > 1:
                st.caption(f"The Gram matrix has {n:,}² entries; it is drawn in means of {block}×{block} blocks "
                           "of consecutive points (the run itself uses every entry).")
            st.caption("Step with ◀ Back / Next ▶, the slider or the ← → keys; Play runs the steps in the browser. A halo's area grows "
                       "with αᵢ (how often xᵢ was a mistake, times η); rings mark the mistakes y·f(x) ≤ 0 after the step; the "
                       "yellow circle is the point examined (tagged with its new α after an update), and its row of G is lit: f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b reads only "
                       "that row. The dashed curve is the boundary before the update.")
        # (the unit in the heading, not in each label: a label cut with "…" in a third of a projector's page said nothing)
        st.subheader("What the Gram matrix saved, in kernel evaluations", divider="gray")
        cols = st.columns(len(cost))
        for col, (name, value, help_text) in zip(cols, cost, strict=True):
            col.metric(name, value, help=help_text)
        with part("tables"):
            exports(CHART, file_stem("dual", kernel, order, f"η{float(eta):g}", f"{n}pts"),
                    with_view(blob, replace(view, tau=float(eta))),
                    f"Dual perceptron: {label}")
            rows = min(facts["n_steps"] + 1, 2000)  # viz.dual.dual_table's cap
            steps_table(f"Every step as a table ({rows:,} rows)", lambda: steps_of(ds, kernel, kparams, params))


page()
