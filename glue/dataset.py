"""The shared dataset every page reads: what it is (:class:`Dataset`) and where the session keeps it.

Its own module so that the sidebar's parts (``glue.shared``, ``glue.userdata``) both read it without
importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import streamlit as st

from datasets import REGISTRY, make_dataset
from datasets.points import standardize

CUSTOM = "custom"  # the dataset list's entry for the user's points
STANDARDIZE = "std"  # the sidebar's Standardize switch (glue.shared draws it; its URL parameter too)
DATASET_KEY = "_dataset"
STANDARD_VIEW = "_standard_view"  # (the dataset, it standardized)
DEFAULT_DATASET = "textbook"


@dataclass(frozen=True)
class Dataset:
    """The shared dataset: how it was made and its points.

    Attributes
    ----------
    name, n, seed, params
        The registry entry (or ``"custom"``, the user's points), the number of points, the seed and the
        (name, value) parameters.
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Labels in {−1, +1}.
    origin : str
        For the user's points: where they came from ("imported from data.csv").
    columns : tuple of 2 str, or None
        The names of the columns x₁ and x₂ were read from (an imported file), else None.
    standard : tuple of 2 ndarray of shape (2,), or None
        When the features are standardized (what the pages show): the raw points' means μ and standard
        deviations σ, with X = (raw − μ) / σ; None otherwise.
    classes : tuple of 2 str, or None
        The names of the file's classes that became −1 and +1 (an imported file), else None.
    """

    name: str
    n: int
    seed: int
    params: tuple[tuple[str, float], ...]
    X: np.ndarray
    y: np.ndarray
    origin: str = ""
    columns: tuple[str, str] | None = None
    standard: tuple[np.ndarray, np.ndarray] | None = None
    classes: tuple[str, str] | None = None

    @property
    def axes(self) -> tuple[str, str] | None:
        """The data axes' titles when they say more than x₁ and x₂ (the columns' names, standardized), else None."""
        if self.columns is None and self.standard is None:
            return None
        names = ("x₁", "x₂") if self.columns is None else (f"x₁: {self.columns[0]}", f"x₂: {self.columns[1]}")
        suffix = " (standardized)" if self.standard is not None else ""
        return (names[0] + suffix, names[1] + suffix)

    @property
    def label(self) -> str:
        return self._label() + (", standardized" if self.standard is not None else "")

    def _label(self) -> str:
        if self.name == CUSTOM:
            return f"Your points: n = {self.n}" + (f" ({self.origin})" if self.origin else "")
        spec = REGISTRY[self.name]
        extra = ", ".join(f"{p.label} = {v:g}" for p, (_, v) in zip(spec.params, self.params, strict=True))
        if spec.fixed_n:
            return spec.label
        return f"{spec.label}: n = {self.n}" + (f", {extra}" if extra else "") + f", seed {self.seed}"


@st.cache_data(max_entries=64, show_spinner=False)
def cached_points(name: str, n: int, seed: int, params: tuple[tuple[str, float], ...]) -> tuple[np.ndarray, np.ndarray]:
    return make_dataset(name, n, seed, **dict(params))


def current_dataset(raw: bool = False) -> Dataset:
    """The shared dataset as the pages show it (the default one if the sidebar has not run yet).

    With *Standardize* on, its features are standardized (``standard`` holds μ and σ); ``raw`` gives the
    points as they are kept (the point table, the CSV, edits).
    """
    ds = st.session_state.get(DATASET_KEY)
    if ds is None:
        ds = st.session_state[DATASET_KEY] = default_dataset()
    if raw or not st.session_state.get(STANDARDIZE) or len(ds.y) == 0:
        return ds
    kept = st.session_state.get(STANDARD_VIEW)
    if kept is None or kept[0] is not ds:  # the same object: the same arrays for the pages' caches
        Z, mu, sigma = standardize(ds.X)
        Z.flags.writeable = False
        kept = st.session_state[STANDARD_VIEW] = (ds, replace(ds, X=Z, standard=(mu, sigma)))
    return kept[1]


def default_dataset() -> Dataset:
    """The dataset a session starts with."""
    X, y = cached_points(DEFAULT_DATASET, REGISTRY[DEFAULT_DATASET].default_n, 0, ())
    return Dataset(DEFAULT_DATASET, len(y), 0, (), X, y)
