"""What every page shares: the dataset sidebar and the dataset it keeps.

The dataset is stored in ``st.session_state[DATASET_KEY]``, a key no widget
owns, so it survives page switches; pages call :func:`current_dataset`.
Widgets here bind to the URL (``?ds=xor&n=60&data_seed=3``) so a link
reproduces the data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from datasets import REGISTRY, make_dataset

DATASET_KEY = "_dataset"
DEFAULT_DATASET = "textbook"
N_UI_MAX = 2000  # points the figures draw comfortably in the browser


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
    """Call first in ``app.py``: keep the query string the session opened with (once)."""
    if URL_AT_START not in st.session_state:
        st.session_state[URL_AT_START] = st.query_params.to_dict()
    st.session_state[BOUND_THIS_RUN] = {}


def bound(widget: Callable[..., Any], label: str, *args, key: str, fmt: Callable[[Any], str] = str, **kwargs):
    """Create ``widget`` bound to the URL parameter ``key``; ``fmt`` writes its value as the URL does."""
    st.session_state.setdefault(BOUND_THIS_RUN, {})[key] = fmt
    return widget(label, *args, key=key, bind="query-params", **kwargs)


def _same(url_value: str, shown: str) -> bool:
    if url_value == shown:
        return True
    try:
        return float(url_value) == float(shown)
    except ValueError:
        return False


def report_url_problems() -> None:
    """Call last on a page: name the URL parameters its widgets did not accept (once per session).

    Streamlit drops an invalid bound value silently and shows the default;
    this says which parameter was ignored and what was used instead.
    """
    start = st.session_state.get(URL_AT_START) or {}
    fmts = st.session_state.get(BOUND_THIS_RUN, {})
    bad = []
    for key, value in start.items():
        if key in fmts and key in st.session_state:
            shown = fmts[key](st.session_state[key])
            if not _same(value, shown):
                bad.append(f"{key}={value!r} (using {shown!r})")
    if fmts:
        st.session_state[URL_AT_START] = {}  # the page that owns them has checked them
    if bad:
        st.warning("Ignored URL parameters that are not valid here: " + "; ".join(bad) + ".")


def n_choices(spec) -> list[int]:
    """A roughly logarithmic grid of point counts for the n slider, including the default."""
    hi = min(spec.n_max, N_UI_MAX)
    grid = {spec.n_min, spec.default_n, hi, 3, 5, 10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500, 750, 1000,
            1500, 2000}
    return sorted(g for g in grid if spec.n_min <= g <= hi)


def dataset_sidebar() -> None:
    """Draw the dataset controls in the sidebar and keep the dataset in session state.

    A bad combination shows an error naming it and keeps the last good dataset.
    """
    sb = st.sidebar
    sb.header("Dataset")
    names = list(REGISTRY)
    label_of = {k: REGISTRY[k].label for k in names}
    name = bound(sb.selectbox, "Dataset", names, index=names.index(DEFAULT_DATASET), format_func=label_of.get,
                 key="ds", fmt=label_of.get)
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
                X, y = make_dataset(DEFAULT_DATASET, REGISTRY[DEFAULT_DATASET].default_n)
                st.session_state[DATASET_KEY] = Dataset(DEFAULT_DATASET, len(y), 0, (), X, y)
            return
        st.session_state[DATASET_KEY] = Dataset(name, int(n), seed, params_t, X, y)


def current_dataset() -> Dataset:
    """The shared dataset (the default one if the sidebar has not run yet)."""
    ds = st.session_state.get(DATASET_KEY)
    if ds is None:
        X, y = make_dataset(DEFAULT_DATASET, REGISTRY[DEFAULT_DATASET].default_n)
        ds = Dataset(DEFAULT_DATASET, len(y), 0, (), X, y)
        st.session_state[DATASET_KEY] = ds
    return ds
