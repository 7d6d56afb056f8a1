"""What every page shares: the dataset sidebar and the dataset it keeps.

The dataset is stored in ``st.session_state[DATASET_KEY]``, a key no widget
owns, so it survives page switches; pages call :func:`current_dataset`.
Widgets here bind to the URL (``?ds=xor&n=60&data_seed=3``) so a link
reproduces the data.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        return f"{spec.label}: n = {self.n}" + (f", {extra}" if extra else "") + f", seed {self.seed}"


@st.cache_data(max_entries=64, show_spinner=False)
def _make(name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    return make_dataset(name, n, seed, **dict(params))


def dataset_sidebar() -> None:
    """Draw the dataset controls in the sidebar and keep the dataset in session state.

    A bad combination (e.g. a hand-edited URL) shows an error naming it and
    keeps the last good dataset.
    """
    sb = st.sidebar
    sb.header("Dataset")
    names = list(REGISTRY)
    name = sb.selectbox(
        "Dataset", names, index=names.index(DEFAULT_DATASET), format_func=lambda k: REGISTRY[k].label,
        key="ds", bind="query-params",
    )
    spec = REGISTRY[name]
    if spec.fixed_n:
        n = spec.default_n
        sb.caption(f"{n} points (fixed)")
    else:
        hi = min(spec.n_max, N_UI_MAX)
        n = sb.slider("Points n", spec.n_min, hi, min(max(spec.default_n, spec.n_min), hi), key=f"n_{name}",
                      bind="query-params")
    params = []
    for p in spec.params:
        v = sb.slider(p.label, float(p.min), float(p.max), float(p.default), float(p.step),
                      key=f"{name}_{p.name}", bind="query-params")
        params.append((p.name, float(v)))
    seed = 0
    if not spec.fixed_n:
        seed = int(sb.number_input("Data seed", 0, 2**31 - 1, 0, 1, key="data_seed", bind="query-params"))
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
