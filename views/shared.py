"""What every page shares: the dataset sidebar and the dataset it keeps.

The dataset is stored in ``st.session_state[DATASET_KEY]``, a key no widget
owns, so it survives page switches; pages call :func:`current_dataset`.
Widgets here bind to the URL (``?ds=XOR&n_xor=60&data_seed=3``) so a link
reproduces the data; :func:`report_url_problems` names parameters that were
not valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from core.validate import validate_data
from datasets import REGISTRY, make_dataset
from views.options import DATASET_LABELS, known_url_key, n_choices, parse_url, url_spelling

DATASET_KEY = "_dataset"
DEFAULT_DATASET = "textbook"


@dataclass(frozen=True)
class Dataset:
    """The shared dataset: how it was made and its points.

    Attributes
    ----------
    name, n, seed, params
        The registry entry, the number of points, the seed and the (name, value) parameters.
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Labels in {−1, +1}.
    """

    name: str
    n: int
    seed: int
    params: tuple[tuple[str, float], ...]
    X: np.ndarray
    y: np.ndarray

    @property
    def label(self) -> str:
        spec = REGISTRY[self.name]
        extra = ", ".join(f"{p.label} = {v:g}" for p, (_, v) in zip(spec.params, self.params, strict=True))
        if spec.fixed_n:
            return spec.label
        return f"{spec.label}: n = {self.n}" + (f", {extra}" if extra else "") + f", seed {self.seed}"


@st.cache_data(max_entries=64, show_spinner=False)
def _make(name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    return make_dataset(name, n, seed, **dict(params))


# ----------------------------------------------------------------------------
# the URL: widgets bind to query parameters; a value a widget rejects is named
# ----------------------------------------------------------------------------

URL_AT_START = "_url_at_start"  # the query string the session opened with
BOUND_THIS_RUN = "_url_bound"  # widget key -> how the URL writes its value


def remember_url() -> None:
    """Call first in ``app.py``: on the session's first run, keep its query string and tidy its spellings.

    Widgets read their values from the URL themselves, but only in the exact
    text they write (``tau=2.0``, ``ds=XOR``); what they cannot read they drop
    from the address bar. Parameters :mod:`views.options` can read in a
    friendlier spelling (``ds=xor``, ``tau=2``, ``bias=0``) are rewritten the
    widgets' way and the script reruns once, so the widgets pick them up and
    the address bar keeps reproducing the view.
    """
    if URL_AT_START not in st.session_state:
        raw = {k: st.query_params.get_all(k) for k in st.query_params}
        start = {k: v[-1] for k, v in raw.items() if len(v) == 1}
        rewrite = {}
        for key, value in parse_url(start).items():
            spelled = url_spelling(key, value)
            if start.pop(key) != spelled:
                rewrite[key] = spelled
        st.session_state[URL_AT_START] = {"values": start, "repeated": sorted(k for k, v in raw.items() if len(v) > 1)}
        if rewrite:
            for key, spelled in rewrite.items():
                st.query_params[key] = spelled
            st.rerun()
    st.session_state[BOUND_THIS_RUN] = {}


def bound(widget: Callable[..., Any], label: str, *args, key: str, fmt: Callable[[Any], str] = str, **kwargs):
    """Create ``widget`` bound to the URL parameter ``key``; ``fmt`` writes its value as the URL does."""
    st.session_state.setdefault(BOUND_THIS_RUN, {})[key] = fmt
    return widget(label, *args, key=key, bind="query-params", **kwargs)


def _same(url_value: str, shown: str) -> bool:
    if url_value.strip().lower() == shown.strip().lower():
        return True
    try:
        return float(url_value) == float(shown)
    except ValueError:
        return False


def report_url_problems(where=None) -> None:
    """Call last in ``app.py``: name the URL parameters that were not used (once each per session).

    Streamlit drops an invalid bound value silently and shows the default;
    this says which parameter was ignored and what was used instead. A
    parameter is checked on the first run that draws its widget; unknown
    and repeated parameters are named at once. ``where`` is the container to
    write into (a placeholder above the page, filled after the page ran).
    """
    start = st.session_state.get(URL_AT_START) or {}
    values: dict[str, str] = start.get("values", {})
    fmts = st.session_state.get(BOUND_THIS_RUN, {})
    bad = []
    for key in start.get("repeated", []):
        bad.append(f"{key} (given more than once; using the default)")
        values.pop(key, None)
    for key in list(values):
        if not known_url_key(key):
            bad.append(f"{key}={values.pop(key)!r} (not a setting of this app)")
        elif key in fmts and key in st.session_state:
            value, shown = values.pop(key), fmts[key](st.session_state[key])
            if not _same(value, shown):
                bad.append(f"{key}={value!r} (using {shown!r})")
    start["repeated"] = []
    if bad:
        (where or st).warning("Ignored URL parameters: " + "; ".join(bad) + ".")


def dataset_sidebar() -> None:
    """Draw the dataset controls in the sidebar and keep the dataset in session state.

    A bad combination shows an error naming it and keeps the last good dataset.
    """
    sb = st.sidebar
    sb.header("Dataset")
    names = list(REGISTRY)
    name = bound(sb.selectbox, "Dataset", names, index=names.index(DEFAULT_DATASET), format_func=DATASET_LABELS.get,
                 key="ds", fmt=DATASET_LABELS.get)
    spec = REGISTRY[name]
    if spec.fixed_n:
        n = spec.default_n
        sb.caption(f"{n} points (fixed)")
    else:
        n = bound(sb.select_slider, "Points n", n_choices(spec), value=spec.default_n, key=f"n_{name}")
    params = []
    for p in spec.params:
        v = bound(sb.slider, p.label, float(p.min), float(p.max), float(p.default), float(p.step),
                  key=f"{name}_{p.name}")
        params.append((p.name, float(v)))
    seed = 0
    if not spec.fixed_n:
        seed = int(bound(sb.number_input, "Data seed", 0, 2**31 - 1, 0, 1, key="data_seed"))
    sb.caption(spec.description)
    params_t = tuple(params)
    old = st.session_state.get(DATASET_KEY)
    if old is None or (old.name, old.n, old.seed, old.params) != (name, n, seed, params_t):
        try:
            X, y = _make(name, int(n), seed, params_t)
        except ValueError as exc:
            sb.error(f"Could not make this dataset: {exc}. Keeping the previous one.")
            if old is None:
                st.session_state[DATASET_KEY] = _default_dataset()
            return
        st.session_state[DATASET_KEY] = Dataset(name, int(n), seed, params_t, X, y)


def run_or_last_good(key: str, what: str, make: Callable[[], tuple]) -> tuple | None:
    """The page's result from ``make()``, kept under ``key``; on bad input, the last good one.

    ``make`` raises ValueError with a message naming the problem; the page
    then shows "Cannot run <what>: <message>." and the last good result (None
    if there is none yet), never a traceback.
    """
    try:
        result = make()
    except ValueError as exc:
        result = st.session_state.get(key)
        st.error(f"Cannot run {what}: {exc}." + (" Showing the last good run instead." if result else ""))
        return result
    st.session_state[key] = result
    return result


def plane_data(ds: Dataset, max_points: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The dataset's points, checked: labels ±1, finite, 2-D (the pages draw the plane), at most ``max_points``."""
    X, y = validate_data(ds.X, ds.y)
    if X.shape[1] != 2:
        raise ValueError(f"the page draws 2-D points, the dataset has d = {X.shape[1]}")
    if max_points is not None and len(y) > max_points:
        raise ValueError(f"this page takes at most {max_points:,} points, got {len(y):,}")
    return X, y


def current_dataset() -> Dataset:
    """The shared dataset (the default one if the sidebar has not run yet)."""
    ds = st.session_state.get(DATASET_KEY)
    if ds is None:
        ds = st.session_state[DATASET_KEY] = _default_dataset()
    return ds


def _default_dataset() -> Dataset:
    """The dataset a session starts with."""
    X, y = _make(DEFAULT_DATASET, REGISTRY[DEFAULT_DATASET].default_n, 0, ())
    return Dataset(DEFAULT_DATASET, len(y), 0, (), X, y)
