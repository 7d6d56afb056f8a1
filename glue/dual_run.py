"""The Dual / Gram page's cached builds: the Gram matrix and the dual run's scene record for every η, and its table."""

from __future__ import annotations

import streamlit as st

from glue.builds import dual_page, dual_steps
from glue.options import N_UI_MAX, TTL
from glue.shared import plane_data
from glue.workers import offload

CHART = "dual_chart"  # the data chart: clicks on it edit the points
MIN_HEIGHT = 780  # the data panel and the Gram matrix side by side, the bars and the controls under them
ETA_LABEL = "Step η"  # the renderer follows this control: η moves in the browser


@st.cache_resource(max_entries=32, ttl=TTL, show_spinner="Running the dual perceptron…")
def compute(X, y, kernel: str, kparams: tuple, params: tuple, etas: tuple | None, follow: str | None):
    """Run the dual perceptron (and, for the linear kernel, the primal one) and build what the page shows
    (in a worker process, which keeps the Gram matrices of its last 2 datasets: glue.builds._gram).
    How it is shown (height, step mode, presentation mode) is not part of it.
    """
    return offload(dual_page, X, y, kernel, kparams, params, etas, follow)


@st.cache_resource(max_entries=8, ttl=TTL, show_spinner=False)
def table_of(X, y, kernel: str, kparams: tuple, params: tuple) -> dict:
    """The run's steps as a table (made when the table is opened)."""
    return offload(dual_steps, X, y, kernel, kparams, params)


def steps_of(ds, kernel: str, kparams: tuple, params: tuple) -> dict:
    """The table of the run shown; empty while the points cannot be run (the error above the chart names why)."""
    try:
        return table_of(*plane_data(ds, N_UI_MAX), kernel, kparams, params)
    except ValueError:
        return {}
