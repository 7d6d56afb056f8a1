"""Loss surface: read widgets -> cached optimiser's run -> a scene record (the (w₁, w₂) slices) or a still figure
(the θ slice, the 3-D view), and the data chart's record -> render.

The (w₁, w₂) chart is drawn in the browser from a scene record (:func:`viz.scene.loss_scene`): every b of its
slider moves there, with no message to the server; a click on a weight is drawn at once on both charts and sent
back (``on_pick_change``), and the page's rerun sends the data chart's record for that weight
(:func:`viz.scene.loss_data_scene`: M and the losses there from the core), which confirms what the browser drew.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import replace

import numpy as np
import streamlit as st

from core.losses import grid_half_width
from glue.builds import SCALE, loss_grid
from glue.chart_tools import exports, file_stem
from glue.controls import ChartControls
from glue.dataset import current_dataset
from glue.loss_run import (
    CHART,
    CHOSEN,
    DATA_H,
    GRID,
    LAM_LABEL,
    PICK_SEEN,
    SURFACE,
    data_of,
    figures,
    paths_of,
    scene_of,
    take_pick,
)
from glue.options import LOSSES, N_UI_MAX
from glue.present import label_line, page_title, part
from glue.scene_chart import show_scene
from glue.shared import bound, page_fragment, plane_data, points_ready, presenting, run_or_last_good, show_chart
from viz.losses import EXPLAIN, NAMES
from viz.scene import View, with_view

LAST_GOOD = "_loss_last_good"


@page_fragment
def page() -> None:
    """The Loss surface page (a fragment: glue.shared.page_fragment)."""
    ds = current_dataset()
    page_title("Loss surface", ds.label)
    first = st.container()  # presentation mode: the charts here, before the settings
    with part("settings"):
        c1, c2, c3 = st.columns([1.3, 2, 1.2])  # (λ is the surface chart's: glue.controls)
        loss = bound(c1.selectbox, "Loss", key="loss")
        slc = bound(c2.radio, "Slice of weight space", key="slice", horizontal=True)
        view = bound(c3.radio, "View", key="view",
                     horizontal=True)
        more = st.expander("Trajectory, point, radius, starting b, figure size")
        with more:
            e1, e2, e3, e4, e5 = st.columns(5)
            path = bound(e1.selectbox, "Trajectory", key="path")
            variant = bound(e2.selectbox, "Perceptron variant", key="path_variant", disabled=path != "perceptron")
            tau = float(bound(e3.select_slider, "τ", key="path_tau", disabled=path != "perceptron"))
            lit = int(bound(e4.number_input, "Highlight point xᵢ (0: none)", 0, max(ds.n, 1), 0, 1, key="lit"))
            radius = float(bound(e5.select_slider, "‖w‖ on the θ slice", key="radius",
                                 disabled=slc != "theta"))
            height = int(bound(e1.select_slider, "Figure height (px)", key="height", page=LOSSES))
            path_seed = int(bound(e2.number_input, "Trajectory seed", step=1, key="path_seed"))

    knobs = ChartControls(LOSSES)
    lam = float(knobs.add("lam", LAM_LABEL, help="The (w₁, w₂) chart and the data chart follow it at once, in your "
                                                 "browser: every λ is drawn in advance."))
    names = ("hinge", "perceptron", "zero_one") if loss == "all" else (loss,)

    def make():
        X, y = plane_data(ds, N_UI_MAX)
        chosen = st.session_state.get(CHOSEN)
        chosen = (tuple(chosen[0]), chosen[1]) if chosen is not None and chosen[2] == ds.label else None
        paths = paths_of(X, y, path, variant, tau, path_seed)
        scale = grid_half_width(X, y, np.concatenate([p[0] for p in paths]) if paths else None)  # the grid holds every path
        us, vs, bs = loss_grid(X, y, GRID[len(names)], scale)
        bs = bs.tolist()
        if chosen is not None and not (us[0] <= chosen[0][0] <= us[-1] and vs[0] <= chosen[0][1] <= vs[-1] and chosen[1] in bs):
            chosen = None  # a weight off this grid (another path widened or narrowed it) is not drawn
        with more:  # (under the fold: the chart's own b slider is the one to move; this is where it opens)
            b_start = bound(st.select_slider, "Start the b slider at", bs, value=bs[len(bs) // 2], key="b_at",
                            format_func=lambda v: f"{v:g}", fmt=lambda v: f"{v:g}",
                            help="The slider under the chart moves b in the browser; this is where it starts (and the "
                                 "b of the 3-D view).", disabled=slc == "theta")
        b_at = bs.index(b_start) if b_start in bs else len(bs) // 2
        if chosen is not None and chosen[1] in bs:
            b_at = bs.index(chosen[1])  # after a click the chart stays at the b it was clicked at
        lit_i = lit - 1 if 0 < lit <= len(y) else None
        live = view != "surface" and slc == "w"
        data = data_of(X, y, names, chosen, lit_i, live)
        if live:
            return scene_of(X, y, names, path, variant, tau, path_seed, chosen, lit_i, scale), b_at, data, ds.label
        return figures(X, y, names, lam, view, slc, b_at, path, variant, tau, path_seed, lit_i, radius, height, scale,
                       presenting()), b_at, data, ds.label

    result = None if not points_ready(ds, CHART, "the loss surface") else run_or_last_good(
        LAST_GOOD, "the loss surface", make, CHART)
    if result is not None:
        chart, b_at, data, label = result
        live = isinstance(chart, bytes)
        seen = st.session_state.get(PICK_SEEN)  # (the last pick received: View.seen)
        # one loss: the surface and the data side by side; all three: the surfaces across the page, the data below
        with first if presenting() else nullcontext():
            left, right = st.columns([2.2, 1]) if len(names) == 1 else (st.container(), st.columns([1, 1.3])[0])
            what = f"{' and '.join(NAMES[nm] for nm in names)} over weight space on {label}"
            with left:
                label_line(label, ds.label)
                if live:
                    shown = View(int(height), SCALE if presenting() else 1.0, start=b_at, axes=("w₁", "w₂"), seen=seen,
                                 controls=tuple(knobs.specs))
                    show_scene(with_view(chart, shown), SURFACE, on_pick_change=take_pick,  # λ is not in it: the same bytes
                               **knobs.callbacks(SURFACE))
                else:  # (the renderer fits the 3-D view to the window in presentation mode)
                    show_chart(chart, SURFACE, what, View(scale=SCALE if presenting() else 1.0, controls=tuple(knobs.specs)),
                               **knobs.callbacks(SURFACE))
            with right:
                show_scene(with_view(data, View(min(int(height), DATA_H), SCALE if presenting() else 1.0, seen=seen,
                                                axes=ds.axes or View.axes, classes=ds.classes,  # (λ, drawn by the surface)
                                                controls=tuple({**c, "shown": False} for c in knobs.specs))), CHART)  # (the renderer fits it to the window)
                with part("notes", "explain"):
                    for nm in names:
                        st.markdown(f"**{NAMES[nm]}.** {EXPLAIN[nm]}")
            # (under both charts: where the columns stack, on a narrow screen, the data chart comes right under the
            # surface, so a weight clicked there shows its boundary at once, not under the notes and the exports)
            with part("notes"):
                if view == "surface" and len(names) > 1:
                    st.caption(f"The 3-D view shows one loss at a time: the {NAMES[names[0]]} here (choose a single loss "
                               "for another).")
                if live:
                    st.caption("Move b with the slider under the chart, ◀ Smaller b / Larger b ▶, Sweep b ▶ or the ← → keys: "
                               "in your browser. Click a weight on a surface to choose that w (with the b shown) and see its "
                               "boundary in the data chart; or Tab to a surface, move the ring with the arrow keys and "
                               "press Enter. Trajectory markers are hollow where the run's b differs from the "
                               "slice's.")
            with part("tables"):
                exports(SURFACE, file_stem("loss", "-".join(names), slc, view, f"{len(ds.y)}pts"),
                        with_view(chart, replace(shown, lam=lam)) if live else chart, f"Loss surface: {label}",
                        slider_name="b" if live else "")


page()
