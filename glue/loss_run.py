"""The Loss surface page's cached builds: the (w₁, w₂) slices' record, the optimiser's paths, the θ slice and 3-D figures, the data chart's record."""

from __future__ import annotations

import streamlit as st

from glue.builds import loss_data, loss_grid, loss_page, loss_path, loss_scene_page, loss_theta, loss_tops
from glue.dataset import current_dataset
from glue.options import LAMS, TTL, message_number, weight_pick
from glue.workers import offload

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


def take_pick() -> None:
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
