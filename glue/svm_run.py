"""The SVM page's cached builds: the exact SVM for every C on the slider as one scene record, and hinge-loss SGD's runs."""

from __future__ import annotations

import streamlit as st

from core.svm import C_GRID
from glue.builds import family_etas, settings_key, sgd_page, svm_page, svm_solutions
from glue.options import TAUS, TTL, c_pick
from glue.shared import partial_first
from glue.workers import offload, offload_shared

CHART = "svm_chart"  # the data chart: clicks on it edit the points
SGD_CHART = "sgd_chart"
LAST_SGD = "_svm_sgd_good"  # (blob, summaries, partial, file stem, label)
PATH_KERNEL_MAX_N = 300  # 25 SMO fits: kept to a second or two
C_LABEL = "Penalty C (log scale)"  # the chart follows this control: C moves in the browser
ETA_LABEL = "Constant η"  # the SGD chart follows this control: η moves in the browser
SGD_SHOWN = "_svm_sgd_shown"  # the inputs of the SGD record this session was sent last (glue.shared.sent_anew)
SGD_FAMILIES = 8  # families of η runs the server keeps


def every_c(kernel: str, n: int) -> bool:
    """Whether the page solves every C of the grid (C then moves in the browser): the linear kernel, or n ≤
    PATH_KERNEL_MAX_N."""
    return kernel == "linear" or n <= PATH_KERNEL_MAX_N


@st.cache_resource(max_entries=16, ttl=TTL, show_spinner="Solving the SVM for every C on the slider…")
def cached_grid(X, y, kernel: str, kparams: tuple):
    """The exact SVM for each C of C_GRID (independent of the current C): the frames of the live C slider."""
    return offload(svm_solutions, X, y, kernel, kparams)


@st.cache_resource(max_entries=32, ttl=TTL, show_spinner=False)
def compute(X, y, C: float | None, kernel: str, kparams: tuple, overlay: bool) -> bytes:
    """The page's scene record (cached on the inputs; built in a worker process): every C of the grid (``C`` None),
    or the one C given (the hard margin, or a kernel on more points than the grid is solved for).

    The grid is solved for the linear kernel and for the others up to PATH_KERNEL_MAX_N points; the hard
    margin (C = ∞) is one solution, drawn beside the linear grid's C path.
    """
    grid = cached_grid(X, y, kernel, kparams) if every_c(kernel, len(y)) else None
    return offload(svm_page, X, y, C, kernel, kparams, overlay, grid, C_LABEL)


@st.cache_resource(max_entries=16, ttl=TTL, show_spinner="Running hinge-loss SGD…")
def compute_sgd(X, y, C: float, schedule: str, eta: float, steps: int, seed: int):
    """Hinge SGD of one η and the exact SVM for the same C: the scene record and the summary (in a worker). A
    constant η's record names the η control all the same: moved, it dims the chart until the new run arrives."""
    return offload(sgd_page, X, y, C, schedule, (eta,), steps, seed, ETA_LABEL if schedule == "constant" else None)


@st.cache_resource(max_entries=SGD_FAMILIES, ttl=TTL, show_spinner="Running hinge SGD for every η…")
def compute_sgd_family(X, y, C: float, steps: int, seed: int, etas: tuple):
    """Hinge SGD for each constant η of ``etas`` and the exact SVM (glue.shared.partial_first sends the η shown
    first), the runs made in every worker at once."""
    return sgd_page(X, y, C, "constant", etas, steps, seed, ETA_LABEL, share=offload_shared)


def build_sgd(X, y, C: float, schedule: str, eta: float, steps: int, seed: int) -> tuple:
    """The SGD tab's record, each run's summary and whether the record is partial: one η's run where the η shown is
    not in :func:`family_etas`; else every η's, or, for inputs new to this session, the run of the
    η shown alone first (a partial record: bench/RESULTS.md, SVM margin page). Once drawn, the chart asks for the
    rest (``more_asked``), and the next run, with the same inputs, makes them (or finds them in the cache)."""
    etas = family_etas(schedule, steps, len(y), C)
    if eta not in etas or len(etas) < 2:  # (the decaying schedule reads no η: one run for all)
        return *compute_sgd(X, y, C, schedule, eta if schedule == "constant" else TAUS[0], steps, seed), False
    return partial_first(SGD_SHOWN, settings_key(X, y, (("sgd", (C, steps, seed)),)),
                         lambda: (*offload(sgd_page, X, y, C, schedule, (eta,), steps, seed, ETA_LABEL, True), True),
                         lambda: (*compute_sgd_family(X, y, C, steps, seed, etas), False))


def take_chart_c() -> None:
    """The chart's own C came to rest (its slider, buttons, keys or sweep): the page keeps it (``st.session_state["C"]``,
    glue.controls), so the link and the SGD tab say the C shown. A value off the grid is ignored."""
    c = c_pick((st.session_state.get(CHART) or {}).get("c"), C_GRID)
    if c is not None:
        st.session_state["C"] = c
