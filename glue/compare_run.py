"""The Compare page's cached builds: the two runs side by side as one scene record (every τ, B or C of a family where it fits)."""

from __future__ import annotations

import streamlit as st

from glue.builds import compare_page, settings_key, shown_specs
from glue.options import TTL
from glue.shared import partial_first
from glue.workers import offload, offload_shared

CHART = "compare_chart"
HEIGHT = 760  # the chart's height: two square panels with their titles, state lines, legend and controls
TAU_BOTH, TAU_LEFT, TAU_RIGHT, B_LEFT, B_RIGHT = "Step size τ (both)", "τ left", "τ right", "B left", "B right"
C_LABEL = "SVM penalty C"


# every value's run is sent (τ, B and C then move in the browser) while runs × max steps stays within this (the
# records' sizes behind it: bench/RESULTS.md, figures that stood in code comments)
FAMILY_STEPS = 26_000
SHOWN = "_compare_shown"  # the runs of the record this session was sent last (glue.builds.settings_key)
FAMILIES = 8  # families of C runs the server keeps (about a megabyte each at N = 2,000)


@st.cache_resource(max_entries=16, ttl=TTL, show_spinner="Running both…")
def compute(X, y, lefts: tuple, rights: tuple, follow: tuple, key: str):
    """Each side's runs (("perceptron" | "hinge", keyword arguments): one, or the family its control picks from)
    and their scene record, cached (built in a worker process)."""
    return offload(compare_page, X, y, lefts, rights, follow, key)


@st.cache_resource(max_entries=FAMILIES, ttl=TTL, show_spinner="Running hinge SGD for every C…")
def compute_family(X, y, lefts: tuple, rights: tuple, follow: tuple):
    """:func:`compute` for a family of C (kept apart: glue.shared.partial_first sends the runs shown first), its runs
    made in every worker at once."""
    return compare_page(X, y, lefts, rights, follow, "C", share=offload_shared)


def build(X, y, lefts: tuple, rights: tuple, follow: tuple, key: str, pair: tuple | None) -> tuple:
    """What the chart shows: :func:`compute`'s runs and record; or, for a family of C (25 hinge-SGD runs, an order
    of magnitude slower than one: bench/RESULTS.md, Compare page) on runs new to this session (other than its last),
    the runs the controls show alone (a partial record). Once drawn, the chart asks for the rest
    (``more_asked``): the page's next run, with the same runs, makes the family (or finds it in the cache), and the
    chart takes it in place, at the same step."""
    if key != "C" or pair is None or not any(follow):  # (one run a side, or a family of τ or B: quick)
        return *compute(X, y, lefts, rights, follow, key), lefts, rights
    shown_l, shown_r = shown_specs(lefts, rights, pair, key)
    return partial_first(SHOWN, settings_key(X, y, (("runs", (lefts, rights)),)),
                         lambda: (*offload(compare_page, X, y, shown_l, shown_r, follow, key, True), shown_l, shown_r),
                         lambda: (*compute_family(X, y, lefts, rights, follow), lefts, rights))
