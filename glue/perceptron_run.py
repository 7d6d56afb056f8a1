"""The Perceptron page's cached builds: every τ's run as one scene record, and what the exports read from it.

The page (app_pages/perceptron.py) reads its widgets and calls :func:`build`; the chart draws the record
(viz/js/perceptron.js). One cache per computation: :func:`compute` (Streamlit's), fed by the runs made ahead
(:mod:`glue.ahead`) where the chart asked for another variant before the user picked it.
"""

from __future__ import annotations

import contextlib
from time import perf_counter

import streamlit as st

from datasets.csvio import trajectory_csv
from glue.ahead import Ahead, ahead_of, made_ahead_kind, parse_ask
from glue.builds import memo_key, perceptron_page, settings_key
from glue.options import N_PLANE_MAX, TAUS, TTL
from glue.shared import partial_first, plane_data
from glue.workers import TIMEOUT_S, offload_shared
from viz.gif import perceptron_gif
from viz.perceptron import step_table
from viz.scene import SceneRun

CHART = "perceptron_chart"  # the data chart's key (clicks on it edit the points)
TAU_LABEL = "Step size τ"  # the renderer follows this control: τ moves in the browser
VARIANT_LABEL, B_LABEL = "Variant", "Batch size B"  # and these, back to a variant (and B) it has drawn (the memo)
SHOWN = "_perceptron_shown"  # the inputs of the record this session was sent last
AHEAD_ASKED = "_perceptron_ahead"  # the chart's ask for the variants made ahead (glue.ahead.Ask), for this run
LAST_BUILD = "_perceptron_last_build_s"  # how long this session's last build of every τ (not a cache lookup) took
# a build this slow sends the τ shown first (first_tau_first); a cache lookup is quicker than CACHED_S
# (the measurements behind it: bench/RESULTS.md, Perceptron page, 2026-11-27)
SLOW_BUILD_S, CACHED_S = 0.15, 0.02
GIF_FRAMES = 200


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
    """Every τ's run and what the page shows, cached on the inputs but τ (built in a worker, or made ahead and
    waited for)."""
    made = made_ahead().future(settings_key(X, y, params))
    if made is not None:
        with contextlib.suppress(Exception):  # (one that failed there is built here, and says why)
            return made.result(timeout=TIMEOUT_S)
    return _page_of(X, y, params)


def ask_ahead() -> None:
    """The chart's callback: it drew a record and was left alone, and asks for the variants made ahead (anything
    else is ignored). The live part's run this causes answers it."""
    st.session_state[AHEAD_ASKED] = parse_ask((st.session_state.get(CHART) or {}).get("ahead"))


def build(ds, params: tuple, tau: float, first: bool) -> tuple:
    """What the page shows for ``params``: (the record, the words of each τ, the conventions, the dataset's label).

    The record holds every τ's run; where ``first`` allows it, the inputs are new to this session and they are not
    being made ahead (glue.ahead), it holds ``tau``'s alone (a partial record), and the chart asks for the rest once
    drawn. A build that was not a cache hit is timed
    for :func:`first_tau_first`."""
    X, y = plane_data(ds, N_PLANE_MAX)
    key, ahead = settings_key(X, y, params), made_ahead()

    def every() -> tuple:
        start = perf_counter()
        made = compute(X, y, params)
        took = perf_counter() - start
        if took > CACHED_S:  # (built, or made ahead and waited for: not a lookup)
            st.session_state[LAST_BUILD] = took
        return made

    out = partial_first(SHOWN, key, lambda: perceptron_page(
        X, y, params, (tau,), TAU_LABEL, offload_shared, (VARIANT_LABEL, B_LABEL), partial=True),
        every, may=first and ahead.future(key) is None)
    if every_tau(out) and made_ahead_kind(params, len(y)):  # (an ask then takes it from there)
        ahead.put(key, memo_key(X, y, params), out)
    return *out, ds.label


def first_tau_first(alone: bool) -> bool:
    """Whether new inputs send the run of the τ shown first: on a run of the live part ``alone`` (the variant or B
    changed), and elsewhere where this session's last build of every τ took SLOW_BUILD_S or more (new data mostly
    costs what the last build did; where it is quick, the second message costs more than it saves)."""
    return alone or st.session_state.get(LAST_BUILD, 0.0) >= SLOW_BUILD_S


def every_tau(result: tuple) -> bool:
    """Whether a result of :func:`build` holds every τ's run (not a partial record): only such a one is the page's
    last good run."""
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


def answer_ahead(ds, params: tuple, asked, batch: int) -> list:
    """The records of the variants the chart asked to be made ahead, for these inputs (empty until made)."""
    return made_ahead().answer(*plane_data(ds, N_PLANE_MAX), params, asked, batch)
