"""SVM margin and slack: read widgets -> cached exact SVM (and its C path) -> scene -> render.

The SVM is solved once for every C of the grid (cached per dataset and
kernel) and the page sends one scene record of every solution (viz.scene.svm_scene), so C moves
in the browser with no round trip, on the chart (its slider, Back/Next, Sweep, the keys: bench/bench_svm_page.py).
Once the chart's C rests, the chart tells the page, which keeps it for the link and the SGD tab (one rerun per rest;
no new record comes back). Where C is not live, the chart draws a Penalty C control (glue.controls).
"""

from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import replace

import streamlit as st

from core.svm import C_GRID
from glue.builds import SCALE, SGD_FAMILY_WORK
from glue.chart_tools import exports, file_stem
from glue.controls import ChartControls
from glue.dataset import current_dataset
from glue.options import (
    HEIGHTS,
    KERNEL_LABELS,
    N_PLANE_MAX,
    N_UI_MAX,
    SVM,
    TAUS,
)
from glue.present import label_line, page_title, part
from glue.scene_chart import show_scene
from glue.shared import bound, more_asked, page_fragment, plane_data, points_ready, presenting, run_or_last_good
from glue.svm_run import (
    C_LABEL,
    CHART,
    ETA_LABEL,
    LAST_SGD,
    PATH_KERNEL_MAX_N,
    SGD_CHART,
    build_sgd,
    compute,
    every_c,
    take_chart_c,
)
from viz.scene import View, with_view

LAST_GOOD = "_svm_last_good"
C_HELP = ("The penalty on slack: small C buys a wide margin with many violations, large C a narrow one with few. "
          "The objective is ½‖w‖² + C Σξ.")


@page_fragment
def page() -> None:
    """The SVM page (a fragment: glue.shared.page_fragment)."""
    ds = current_dataset()
    page_title("SVM: margin and slack", ds.label)
    first = st.container()  # presentation mode: the chart here, before the settings
    with part("settings"):
        c2, c3, c4 = st.columns([1.7, 1.6, 2.0])  # (C is the chart's: glue.controls)
        kernel = bound(c3.selectbox, "Kernel", key="kernel")
        hard = bound(c2.toggle, "Hard margin", key="hard",
                     disabled=kernel != "linear", help="C = ∞: no slack at all. Offered for the linear kernel.")
        hard = hard and kernel == "linear"
        kparams: tuple = ()
        if kernel == "poly":
            k1, k2 = c4.columns(2)
            kparams = (("degree", int(bound(k1.select_slider, "Degree d", key="degree"))),
                       ("coef0", float(bound(k2.select_slider, "Offset c", key="coef0"))))
        elif kernel == "rbf":
            kparams = (("gamma", float(bound(c4.select_slider, "Width γ", key="gamma"))),)
        else:
            c4.caption("Linear kernel: w·x + b = 0, margin lines w·x + b = ±1.")
        with st.expander("More settings: overlay, figure size"):
            e1, e2 = st.columns(2)
            overlay = bound(e1.toggle, "Perceptron's boundary", key="overlay",
                            help="Draw the primal perceptron's boundary on the same points, faint, to compare with the SVM's.",
                            disabled=kernel != "linear")
            height = bound(e2.select_slider, "Figure height (px)", options=HEIGHTS[1:], key="height", page=SVM)  # ≥ 680: four panels

    live = not hard and every_c(kernel, len(ds.y))  # every C solved: C moves in the browser, on the chart's own slider
    knobs = ChartControls(SVM)
    C = knobs.add("C", C_LABEL, shown=not live, disabled=hard, help=C_HELP)
    C_used = math.inf if hard else float(C)
    # lazy tabs: only the open one runs, so moving C does not also rerun the SGD
    # (in the link too: svm_tab=Hinge-loss SGD opens the SGD tab)
    exact_tab, sgd_tab = bound(st.tabs, ["Exact SVM", "Hinge-loss SGD"], key="svm_tab", on_change="rerun")
    with exact_tab:
        ready = exact_tab.open and points_ready(ds, CHART, "the SVM", need_both=True)
        result = None if not ready else run_or_last_good(LAST_GOOD, "the SVM", lambda: (
            compute(*plane_data(ds, N_PLANE_MAX if kernel == "linear" else N_UI_MAX,
                                     "this page" if kernel == "linear" else f"the {KERNEL_LABELS[kernel]} kernel"), None if live else C_used, kernel, kparams,
                    bool(overlay) and kernel == "linear"), ds.label), CHART)
        if result is not None:
            blob, label = result
            view = View(int(height), SCALE if presenting() else 1.0, axes=ds.axes or View.axes, classes=ds.classes,
                        controls=tuple(knobs.specs))
            with first if presenting() else nullcontext():
                label_line(label, ds.label)
                # C is not in it: moving C sends the same bytes; the chart's own C, once at rest, moves the control
                show_scene(with_view(blob, view), CHART, on_c_change=take_chart_c, **knobs.callbacks(CHART))
            with part("notes"):
                if live:
                    st.caption("C moves in your browser: drag the slider under the chart, use ◀ Smaller C / Larger C ▶ or "
                               "the ← → keys. Once it rests, its C goes into the link and the SGD tab. Sweep C ▶ plays C "
                               "from small to large.")
                elif kernel != "linear":
                    st.caption(f"C moves live on the chart for the linear kernel, and for the other kernels on up to "
                               f"{PATH_KERNEL_MAX_N} points (it takes {len(C_GRID)} fits); here the chart's Penalty C control "
                               "sets C.")
                st.caption("Symbols say where each point lies: filled outside the margin, dotted on a margin line, hollow "
                           "inside the margin, crossed when misclassified (circles are y = +1, diamonds y = −1). Every "
                           "point inside the margin or misclassified is joined to its own margin line by a segment "
                           "labelled ξᵢ. Point at a point for its y·f(x) and ξ.")
            with part("tables"):
                start = C_GRID.index(float(C)) if live else 0
                exports(CHART, file_stem("svm", kernel, f"{len(ds.y)}pts"), with_view(blob, replace(view, start=start)),
                        f"SVM margin and slack: {label}", slider_name="C" if live else "")

    with sgd_tab:
        st.markdown("Stochastic subgradient descent on λ/2‖w‖² + (1/N) Σ max(0, 1 − yᵢ(w·xᵢ + b)) with λ = 1/(N·C): "
                    "the same minimiser as the SVM above, reached one random point at a time. Its progress J is "
                    "written on the SVM's scale, J = ½‖w‖² + C Σξ (N·C times the objective SGD descends), so that "
                    "it meets the exact SVM's J* (at w = 0, b = 0: J = C·N).")
        s1, s3, s4 = st.columns(3)  # (η is the chart's: glue.controls)
        schedule = bound(s1.radio, "Step size", key="schedule")
        sgd_knobs = ChartControls(SVM)
        sgd_eta = sgd_knobs.add("sgd_eta", ETA_LABEL, disabled=schedule != "constant",
                                help=f"The step size of the constant schedule, below N·C. Every such η is run at once "
                                     f"(up to {SGD_FAMILY_WORK // len(TAUS) // 2000:,} steps at N = 2,000), so the chart "
                                     "follows this control in your browser.")
        sgd_steps = bound(s3.select_slider, "Steps", key="sgd_steps")
        sgd_seed = bound(s4.number_input, "Seed", step=1, key="sgd_seed")
        if not sgd_tab.open:
            pass
        elif hard or kernel != "linear":
            st.info("Hinge-loss SGD runs on the linear primal with a finite C: switch off the hard margin and pick the "
                    "linear kernel to compare it with the exact SVM.")
        else:
            eta = float(sgd_eta)
            stem = file_stem("svm-hinge-sgd", schedule, f"C{C_used:g}", f"{len(ds.y)}pts")  # (kept with its run)
            sgd = run_or_last_good(LAST_SGD, "hinge-loss SGD", lambda: (*build_sgd(
                *plane_data(ds, N_PLANE_MAX), C_used, schedule, eta, int(sgd_steps), int(sgd_seed)), stem, ds.label),
                keep=lambda r: not r[2])  # a partial record is not the last good run
            if sgd is not None:
                sblob, gaps, partial, stem, label = sgd
                refused = schedule == "constant" and eta not in gaps  # (the error above names it: the last good run)
                sview = View(int(height), SCALE if presenting() else 1.0, axes=ds.axes or View.axes, classes=ds.classes,
                             eta=eta if refused else None,  # (no run of it is coming: the chart does not wait)
                             controls=tuple(sgd_knobs.specs))
                # η is not in it: moving η sends the same bytes, and the chart follows the control
                with first if presenting() else nullcontext():
                    show_scene(with_view(sblob, sview), SGD_CHART, on_more_change=more_asked,
                               **sgd_knobs.callbacks(SGD_CHART))
                with part("notes", "sgd"):
                    st.caption("Every step can be reached, in your browser: ◀ Back / Next ▶, the slider, Play and the ← → "
                               "keys. Rings mark the points with margin y·(w·x+b) < 1 (the hinge is active there); the "
                               "yellow disc marks the point drawn at the step."
                               + (" Every η is run once: moving Constant η redraws the run at once, in your browser."
                                  if partial or len(gaps) > 1 else ""))
                with part("tables", "sgd"):
                    exports(SGD_CHART, stem, with_view(sblob, replace(sview, eta=eta)), f"Hinge-loss SGD: {label}")
                if not refused:
                    st.info(gaps.get(eta) or next(iter(gaps.values())))


page()
