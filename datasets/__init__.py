"""2D toy data sets and the registry the pages list.

``REGISTRY`` maps a short name to a :class:`DatasetSpec`, in display order.
:func:`make_dataset` builds a data set by name, checking parameters against
their :class:`ParamSpec` ranges.

Examples
--------
>>> from datasets import REGISTRY, make_dataset
>>> list(REGISTRY)
['separable', 'blobs', 'xor', 'circles', 'moons', 'outlier', 'textbook']
>>> X, y = make_dataset("blobs", 40, 0, noise=0.5)
>>> X.shape, y.shape
((40, 2), (40,))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .generators import (
    N_MAX,
    N_MIN,
    _as_real,
    make_blobs,
    make_circles,
    make_moons,
    make_outlier,
    make_separable,
    make_textbook,
    make_xor,
)

__all__ = [
    "REGISTRY",
    "DatasetSpec",
    "ParamSpec",
    "make_blobs",
    "make_circles",
    "make_dataset",
    "make_moons",
    "make_outlier",
    "make_separable",
    "make_textbook",
    "make_xor",
]


@dataclass(frozen=True)
class ParamSpec:
    """One tunable parameter of a data set, with its UI range.

    Attributes
    ----------
    name : str
        Keyword argument name of the generator, e.g. ``"noise"``.
    label : str
        Human label, e.g. ``"noise σ"``.
    default : float
        Default value (equal to the generator's own default).
    min, max : float
        Allowed range (inclusive) for the UI and :func:`make_dataset`.
    step : float
        Slider step.
    """

    name: str
    label: str
    default: float
    min: float
    max: float
    step: float


@dataclass(frozen=True)
class DatasetSpec:
    """A data set the pages can offer.

    Attributes
    ----------
    name : str
        Short key in :data:`REGISTRY`, e.g. ``"separable"``.
    label : str
        Short human label, e.g. ``"Separable (margin γ)"``; it is also the URL value.
    make : callable
        Generator ``make(n, *, **params, seed=0) -> (X, y)``.
    params : tuple of ParamSpec
        Tunable parameters, in display order.
    default_n : int
        Suggested number of points.
    fixed_n : bool
        True if ``n`` cannot be changed (it must equal ``default_n``).
    separable : bool or None
        True if always linearly separable, False if never, None if it
        depends on the parameters (noise).
    description : str
        One sentence for students.
    n_min, n_max : int
        Range of ``n`` the generator accepts.
    """

    name: str
    label: str
    make: Callable[..., tuple[np.ndarray, np.ndarray]]
    params: tuple[ParamSpec, ...]
    default_n: int
    fixed_n: bool
    separable: bool | None
    description: str
    n_min: int = N_MIN
    n_max: int = N_MAX

    def defaults(self) -> dict[str, float]:
        """Return ``{param name: default}`` for this data set."""
        return {p.name: p.default for p in self.params}


_MARGIN = ParamSpec("margin", "margin γ", 0.3, 0.05, 1.0, 0.05)

REGISTRY: dict[str, DatasetSpec] = {
    spec.name: spec
    for spec in (
        DatasetSpec(
            name="separable",
            label="Separable (margin γ)",
            make=make_separable,
            params=(_MARGIN,),
            default_n=40,
            fixed_n=False,
            separable=True,
            description=(
                "Two classes that a straight line separates with a gap of exactly γ on each side of a hidden line."
            ),
        ),
        DatasetSpec(
            name="blobs",
            label="Blobs",
            make=make_blobs,
            params=(ParamSpec("noise", "noise σ", 0.6, 0.0, 1.5, 0.05),),
            default_n=40,
            fixed_n=False,
            separable=None,
            description=(
                "Two round clouds of points that overlap more and more as "
                "the noise σ grows, so a line can no longer separate them."
            ),
        ),
        DatasetSpec(
            name="xor",
            label="XOR",
            make=make_xor,
            params=(ParamSpec("noise", "noise σ", 0.25, 0.0, 1.0, 0.05),),
            default_n=40,
            fixed_n=False,
            separable=False,
            description=(
                "Four clusters at the corners of a square with opposite "
                "corners in the same class, which no single line can split."
            ),
        ),
        DatasetSpec(
            name="circles",
            label="Circles",
            make=make_circles,
            params=(
                ParamSpec("noise", "noise σ", 0.1, 0.0, 0.5, 0.02),
                ParamSpec("factor", "inner radius ratio", 0.5, 0.1, 0.9, 0.05),
            ),
            default_n=60,
            fixed_n=False,
            separable=False,
            description=(
                "One class on a small inner ring and the other on a large outer ring, so any line leaves errors."
            ),
        ),
        DatasetSpec(
            name="moons",
            label="Moons",
            make=make_moons,
            params=(ParamSpec("noise", "noise σ", 0.1, 0.0, 0.5, 0.02),),
            default_n=60,
            fixed_n=False,
            separable=False,
            description=(
                "Two interlocking half-moons whose tips reach past each other, "
                "so no line separates them, even without noise."
            ),
        ),
        DatasetSpec(
            name="outlier",
            label="Separable + outlier",
            make=make_outlier,
            params=(_MARGIN,),
            default_n=40,
            fixed_n=False,
            separable=False,
            description=(
                "Separable data plus a single +1 point (the last one) placed "
                "deep inside the −1 class, which breaks hard-margin methods."
            ),
            n_min=N_MIN + 1,
        ),
        DatasetSpec(
            name="textbook",
            label="Textbook (3 points)",
            make=make_textbook,
            params=(),
            default_n=3,
            fixed_n=True,
            separable=True,
            description=(
                "The classic three points (3, 3) and (4, 3) labelled +1 and "
                "(1, 1) labelled −1, small enough to work out by hand."
            ),
            n_min=3,
            n_max=3,
        ),
    )
}


def _fmt(x: float) -> str:
    """Format a range limit compactly: 1.0 -> '1', 0.05 -> '0.05'."""
    return f"{x:g}"


def make_dataset(name: str, n, seed=0, **params) -> tuple[np.ndarray, np.ndarray]:
    """Build the data set ``name`` from :data:`REGISTRY`.

    Parameters
    ----------
    name : str
        A key of :data:`REGISTRY`.
    n : int
        Number of points (must be 3 for ``"textbook"``).
    seed : int, default=0
        Seed for ``np.random.default_rng``.
    **params
        Values for the data set's :class:`ParamSpec` parameters; missing
        ones take their defaults.  Each must lie in ``[min, max]``.

    Returns
    -------
    X : ndarray of shape (n, 2)
        Points, float64.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64.

    Raises
    ------
    ValueError
        For an unknown data set or parameter name, or an out-of-range value.
    """
    spec = REGISTRY.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ValueError(f"unknown dataset {name!r}; choose one of: {', '.join(REGISTRY)}")
    known = {p.name: p for p in spec.params}
    for key in params:
        if key not in known:
            allowed = ", ".join(known) if known else "(none)"
            raise ValueError(f"unknown parameter {key!r} for dataset {name!r}; choose one of: {allowed}")
    kwargs = {}
    for p in spec.params:
        value = params.get(p.name, p.default)
        f = _as_real(p.label, value)
        if not p.min <= f <= p.max:
            raise ValueError(f"{p.label} must be between {_fmt(p.min)} and {_fmt(p.max)}, got {value!r}")
        kwargs[p.name] = f
    return spec.make(n, seed=seed, **kwargs)
