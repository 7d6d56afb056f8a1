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
from glue.builds import SCALE, loss_data, loss_grid, loss_page, loss_path, loss_scene_page, loss_theta, loss_tops
from glue.chart_tools import exports, file_stem
from glue.dataset import current_dataset
from glue.options import (
    HEIGHTS,
    LAMS,
    LOSS_LABELS,
    N_UI_MAX,
    PATH_LABELS,
    RADII,
    SLICE_LABELS,
    TAUS,
    TTL,
    VARIANT_LABELS,
    VIEW_LABELS,
    message_number,
    weight_pick,
)
from glue.present import part
from glue.scene_chart import show_scene
from glue.shared import (
    bound,
    page_fragment,
    plane_data,
    points_ready,
    presenting,
    run_or_last_good,
    show_chart,
)
from glue.userdata import escape_md
from glue.workers import offload
from viz.losses import (
    EXPLAIN,
    NAMES,
)
from viz.scene import View, with_view

LAST_GOOD = "_loss_last_good"
CHART = "loss_data"  # the data chart: clicks on it edit the points
CHOSEN = "_loss_chosen"  # (w₁, w₂, b) the user clicked, with the dataset it was clicked on
SURFACE = "loss_chart"  # the (w₁, w₂) chart: a click on it chooses a weight
PICK_SEEN = "_loss_pick_seen"  # when the last pick received was made (the browser's clock): View.seen
GRID = {1: 81, 3: 61}  # grid side of the (w₁, w₂) slices the browser samples: one loss, or all three
DATA_H = 620  # px: the most the data chart takes (less in presentation mode where the window is smaller)
LAM_LABEL = "λ of the hinge's λ/2‖w‖²"  # the renderer follows this control: λ moves in the browser


@st.cache_resource(max_entries=16, ttl=TTL, show_spinner=False)
def cached_theta(X, y, names: tuple, lam: float, r: float, bmax: float):
    """Every loss over (θ, b) at ‖w‖ = r (in a worker)."""
    return offload(loss_theta, X, y, names, lam, r, bmax)


def cached_path(X, y, kind: str, variant: str, tau: float, seed: int, lam: float):
    """The optimiser's (w, b) after each step, thinned, and its label (in a worker): keyed by what the run depends on
    (the perceptron has no λ; hinge SGD runs with λ = 0 as with 10⁻³, :func:`glue.builds.loss_path`)."""
    return _path(X, y, kind, variant, tau, seed, 0.0 if kind == "perceptron" else max(float(lam), 1e-3))


@st.cache_resource(max_entries=80, ttl=TTL, show_spinner=False)
def _path(X, y, kind: str, variant: str, tau: float, seed: int, lam: float):
    return offload(loss_path, X, y, kind, variant, tau, seed, lam)


@st.cache_resource(max_entries=32, ttl=TTL, show_spinner=False)
def figures(X, y, names: tuple, lam: float, view: str, slc: str, b_at: int, path: str, variant: str, tau: float,
            path_seed: int, lit_i, radius: float, height: int, scale: float, big: bool = False):
    """The still weight chart (the θ slice or the 3-D view; cached, built in a worker process). ``big``: for a
    projector (presentation mode)."""
    paths = paths_of(X, y, path, variant, tau, path_seed)
    traj = None if paths is None else paths[LAMS.index(lam)] if lam in LAMS else cached_path(
        X, y, path, variant, tau, path_seed, lam)
    grid = loss_grid(X, y, GRID[len(names)], scale)
    theta = None
    if slc == "theta":
        theta = cached_theta(X, y, names[:1] if view == "surface" else names, lam, radius, float(grid[2][-1]))
    return offload(loss_page, X, y, names, lam, view, slc, b_at, traj, grid, theta, radius, lit_i, height, big)


@st.cache_resource(max_entries=32, ttl=TTL, show_spinner="Preparing the loss chart…")
def scene_of(X, y, names: tuple, path: str, variant: str, tau: float, path_seed: int, chosen, lit_i,
             scale: float) -> bytes:
    """The (w₁, w₂) chart's scene record for every λ of the λ control (cached, built in a worker process): λ is not
    in it, so moving λ sends the same bytes and the chart follows the control in the browser."""
    grid = loss_grid(X, y, GRID[len(names)], scale)
    return offload(loss_scene_page, X, y, names, tuple(LAMS), grid, paths_of(X, y, path, variant, tau, path_seed),
                   chosen, lit_i, LAM_LABEL, tops_of(X, y, names, scale))


@st.cache_resource(max_entries=16, ttl=TTL, show_spinner=False)
def tops_of(X, y, names: tuple, scale: float) -> dict:
    """Each loss's colour scale for each λ (cached apart: a click changes the record, not these; in a worker)."""
    return offload(loss_tops, X, y, names, tuple(LAMS), loss_grid(X, y, GRID[len(names)], scale))


def paths_of(X, y, path: str, variant: str, tau: float, path_seed: int):
    """The optimiser's path for each λ of the control (one shared path for the perceptron, which has no λ), or None."""
    if path == "none":
        return None
    if path != "hinge_sgd":
        one = cached_path(X, y, path, variant, tau, path_seed, 0.0)
        return [one] * len(LAMS)
    return [cached_path(X, y, path, variant, tau, path_seed, float(lv)) for lv in LAMS]  # (λ = 0 and 10⁻³: one run)


@st.cache_resource(max_entries=32, ttl=TTL, show_spinner=False)
def data_of(X, y, names: tuple, chosen, lit_i, clickable: bool) -> bytes:
    """The data chart beside the weight chart, a scene record for every λ of the λ control (cached): λ is not in it,
    so moving λ sends the same bytes and the chart writes that λ's losses in the browser."""
    return loss_data(X, y, names, tuple(LAMS), chosen, lit_i, clickable, LAM_LABEL)


def _on_pick() -> None:
    """A weight clicked on the (w₁, w₂) chart: keep it (with the b it was clicked at and the dataset); the rerun that
    follows draws its boundary. Anything but two finite numbers and a finite b is ignored (:func:`weight_pick`). When
    it was picked (``at``, the browser's clock) is kept whether or not it is taken: the charts say it back
    (``View.seen``), so that the browser knows which of its picks a record comes after."""
    raw = (st.session_state.get(SURFACE) or {}).get("pick")
    at = message_number(raw.get("at")) if isinstance(raw, dict) else None
    if at is not None:
        st.session_state[PICK_SEEN] = at
    pick = weight_pick(raw)
    if pick is not None:
        st.session_state[CHOSEN] = (*pick, current_dataset().label)


@page_fragment
def page() -> None:
    """The Loss surface page (a fragment: glue.shared.page_fragment)."""
    st.title("Loss surface")
    first = st.container()  # presentation mode: the charts here, before the settings
    ds = current_dataset()
    with part("settings"):
        c1, c2, c3, c4 = st.columns([1.3, 2, 1.2, 1.4])
        loss = bound(c1.selectbox, "Loss", list(LOSS_LABELS), format_func=LOSS_LABELS.get, key="loss", fmt=LOSS_LABELS.get)
        slc = bound(c2.radio, "Slice of weight space", list(SLICE_LABELS), format_func=SLICE_LABELS.get, key="slice",
                    fmt=SLICE_LABELS.get, horizontal=True)
        view = bound(c3.radio, "View", list(VIEW_LABELS), format_func=VIEW_LABELS.get, key="view", fmt=VIEW_LABELS.get,
                     horizontal=True)
        lam = float(bound(c4.select_slider, LAM_LABEL, LAMS, value=0.0, key="lam",
                          help="The (w₁, w₂) chart follows it at once, in your browser: every λ is drawn in advance."))
        more = st.expander("Trajectory, point, radius, starting b, figure size")
        with more:
            e1, e2, e3, e4, e5 = st.columns(5)
            path = bound(e1.selectbox, "Trajectory", list(PATH_LABELS), format_func=PATH_LABELS.get, key="path",
                         fmt=PATH_LABELS.get, index=1)
            variant = bound(e2.selectbox, "Perceptron variant", list(VARIANT_LABELS), format_func=VARIANT_LABELS.get,
                            key="path_variant", fmt=VARIANT_LABELS.get, disabled=path != "perceptron")
            tau = float(bound(e3.select_slider, "τ", TAUS, value=1.0, key="path_tau", disabled=path != "perceptron"))
            lit = int(bound(e4.number_input, "Highlight point xᵢ (0: none)", 0, max(ds.n, 1), 0, 1, key="lit"))
            radius = float(bound(e5.select_slider, "‖w‖ on the θ slice", RADII, value=1.0, key="radius",
                                 disabled=slc != "theta"))
            height = int(bound(e1.select_slider, "Figure height (px)", HEIGHTS, value=680, key="height"))
            path_seed = int(bound(e2.number_input, "Trajectory seed", 0, 2**31 - 1, 0, 1, key="path_seed"))

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
                st.markdown(f"**{escape_md(label)}**")  # a file's name is shown as text
                if live:
                    shown = View(int(height), SCALE if presenting() else 1.0, start=b_at, axes=("w₁", "w₂"), seen=seen)
                    show_scene(with_view(chart, shown), SURFACE, on_pick_change=_on_pick)  # λ is not in it: the same bytes
                else:  # (the renderer fits the 3-D view to the window in presentation mode)
                    show_chart(chart, SURFACE, what, View(scale=SCALE if presenting() else 1.0))
            with right:
                show_scene(with_view(data, View(min(int(height), DATA_H), SCALE if presenting() else 1.0, seen=seen,
                                                axes=ds.axes or View.axes)), CHART)  # (the renderer fits it to the window)
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
