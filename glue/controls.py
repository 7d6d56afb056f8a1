"""The controls a chart draws itself: τ, η, C, λ, the variant and B, where the chart holds their runs.

The page names them (:class:`ChartControls`), the record's view carries them (:attr:`viz.scene.View.controls`), and
the renderer draws them in a row by the chart (``viz/js/tune.js``: above it; under it in presentation mode): a move
redraws the chart in the browser at once and, once the control rests, tells the page its value as the link spells it
(one trigger per control, named by its key). The page keeps each value in ``st.session_state[key]`` (a plain key: it
outlives the page, as the dataset does), reads a link's value for it on the session's first sight of it, and writes it
into the address (none where it is the default). The record names the value the page opened at (the chart keeps the
user's from then on), so that a move sends the same bytes. A value the chart reports that is not one of the
control's is named above the page and the last is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import streamlit as st

from glue.options import PARAMS, URL_FORMS, quoted
from glue.shared import ALLOWED_THIS_RUN, BOUND_THIS_RUN, CHART_SAID, URL_AT_START, allowed_values

WRITTEN = "_controls_written"  # what the controls last wrote into the address, on the page shown
PAGE_SHOWN = "_controls_page"  # the page of the app's last whole run (page_shown)
OPENING = "_controls_opening"  # the values the page shown opened at: the ones its records name (ChartControls.add)
WHOLE_MAX = 10**9  # a whole number a report or a link may give (B: the page names one outside 1..N and runs the nearest)


def read_reported(key: str, text, options: Sequence | None = None, lo: int | None = None, hi: int | None = None):
    """The value a chart's report (or a link) ``text`` gives the control ``key``, or None where it gives none: one of
    ``options`` (read as the link reads it: glue.options.parse_url), or for a whole number (B) a whole number from
    ``lo`` to ``hi`` (each ±WHOLE_MAX where not given)."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    row = PARAMS[key]
    if row.kind == "whole":
        try:
            value = float(text)
        except ValueError:
            return None
        if not value.is_integer() or not (-WHOLE_MAX if lo is None else lo) <= value <= (WHOLE_MAX if hi is None else hi):
            return None
        return int(value)
    form = URL_FORMS.get(key)
    value = form(text) if form else None
    return value if value is not None and (options is None or value in options) else None


def page_shown(path: str) -> None:
    """Call in ``app.py`` on every whole run with the page's address: on a page come to from another, the controls
    write their values into the address again."""
    if st.session_state.get(PAGE_SHOWN) != path:
        st.session_state[PAGE_SHOWN] = path
        st.session_state.pop(WRITTEN, None)
        st.session_state.pop(OPENING, None)


class ChartControls:
    """A page's chart controls on this run: :meth:`add` each (it returns the value to build with), then give the chart
    ``specs`` in its view and :meth:`callbacks` with it (glue.scene_chart.show_scene)."""

    def __init__(self, page: str | None = None):
        self.page = page
        self.specs: list[dict] = []
        self._takers: dict[str, tuple] = {}

    def add(self, key: str, label: str, *, options: Sequence | None = None, default=None, lo: int | None = None,
            hi: int | None = None, shown: bool = True, disabled: bool = False,
            enabled_by: tuple[str, str] | None = None, help: str = ""):
        """The value of the control ``key`` (its row of glue.options.STATE gives its options, default and spelling
        unless given), drawn with ``label``. ``shown``: the renderer draws it (False where the chart's own slider is it: the SVM's C);
        ``enabled_by``: (another control's label, the text it must show) for the control to be used (B: mini-batch)."""
        row = PARAMS[key]
        options = list(options if options is not None else row.options)
        default = row.default_on(self.page) if default is None else default
        spell = row.spell
        if key not in st.session_state:  # the session's first sight of it: the link's value, where it is one (a whole
            link = st.query_params.get(key)  # number outside lo..hi too: the page names it and runs the nearest)
            value = read_reported(key, link, options or None) if link is not None else None
            st.session_state[key] = default if value is None else value
            if link is not None and value is not None:  # (used: not named as ignored)
                (st.session_state.get(URL_AT_START) or {}).get("values", {}).pop(key, None)
        value = st.session_state[key]
        if options and value not in options:  # (a grid that changed under it: the nearest)
            value = min(options, key=lambda o: abs(float(o) - float(value))) if row.kind == "grid" else default
            st.session_state[key] = value
        # into the address where it changed, or on a page come to anew (not on every run: an address Streamlit dropped
        # whole, being too long, is the page's to name, not to overwrite: glue.shared)
        written = st.session_state.setdefault(WRITTEN, {})
        if written.get(key) != spell(value):
            written[key] = spell(value)
            if value == default:
                if key in st.query_params:
                    del st.query_params[key]
            elif st.query_params.get(key) != spell(value):
                st.query_params[key] = spell(value)
        st.session_state.setdefault(BOUND_THIS_RUN, {})[key] = spell
        if options:
            st.session_state.setdefault(ALLOWED_THIS_RUN, {})[key] = allowed_values(st.select_slider, (), {"options": options},
                                                                                    spell)
        elif lo is not None and hi is not None:
            st.session_state.setdefault(ALLOWED_THIS_RUN, {})[key] = f"a whole number from {lo:,} to {hi:,}"
        # the record names the value the page opened at, not the one moved to since: a move then sends the same bytes
        # (which Streamlit sends again as a reference to those the browser has), and the chart keeps the user's
        opened = st.session_state.setdefault(OPENING, {}).setdefault(key, value)
        spec = {"key": key, "label": label, "value": spell(opened), "shown": shown,
                "disabled": disabled, "help": help}
        if options:
            spec["options"] = [spell(o) for o in options]
            spec["list"] = row.kind == "choice"  # (names: a list; a grid of numbers: a slider over its steps)
        else:
            spec["lo"], spec["hi"] = lo, hi
        if enabled_by:
            spec["enabled_by"] = list(enabled_by)
        self.specs.append(spec)
        self._takers[key] = (options or None, label)  # (B outside lo..hi: named by the page, the nearest run)
        return value

    def callbacks(self, chart: str) -> dict[str, Callable[[], None]]:
        """The callbacks of the chart keyed ``chart`` for its controls' reports (one trigger per control key)."""
        return {f"on_{key}_change": partial(_take, chart, key, *how) for key, how in self._takers.items()}


def _take(chart: str, key: str, options, label: str) -> None:
    """The chart ``chart`` reported a value of ``key``: kept where it is one of the control's, else named (the
    last kept)."""
    text = (st.session_state.get(chart) or {}).get(key)
    value = read_reported(key, text, options)
    if value is None:
        allowed = (st.session_state.get(ALLOWED_THIS_RUN) or {}).get(key, "")
        st.session_state.setdefault(CHART_SAID, []).append(
            f"The chart's {label} control sent {quoted(text)}, which is not one of its values"
            + (f" ({key} is {allowed})" if allowed else "") + f"; the page keeps {quoted(PARAMS[key].spell(st.session_state.get(key)))}.")
        return
    st.session_state[key] = value
