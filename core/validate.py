"""Validation at the boundary: data and parameters checked with messages that say what was given and what is allowed."""

from __future__ import annotations

import math
import numbers

import numpy as np

from core.snapshot import readonly

X_LIMIT = 1e6  # |xᵢⱼ| <= 1e6, with τ <= 1e6 and max_steps: w·x stays far from overflow


def is_int(v) -> bool:
    """Whether v is an integer (and not a bool)."""
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def validate_data(X, y) -> tuple[np.ndarray, np.ndarray]:
    """Check and convert training data.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Finite real numbers of size at most 1e6, n >= 1, d >= 1.
    y : array_like of shape (n,)
        Labels, each exactly −1 or +1 (integers or floats; not booleans or strings).

    Returns
    -------
    X : ndarray of shape (n, d), float64, read-only
    y : ndarray of shape (n,), int64, read-only

    Raises
    ------
    ValueError
        With a message naming what was given and what is allowed.
    """
    try:
        Xa = np.array(X, dtype=np.float64, order="C")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"X must be a 2-D array of finite numbers, could not convert it: {exc}") from None
    if Xa.ndim != 2 or Xa.shape[0] < 1 or Xa.shape[1] < 1:
        raise ValueError(f"X must be a 2-D array of shape (n, d) with n, d >= 1, got shape {Xa.shape}")
    if not np.isfinite(Xa).all():
        bad = int(np.argwhere(~np.isfinite(Xa))[0, 0])
        raise ValueError(f"X must contain only finite numbers, row {bad} is {Xa[bad].tolist()}")
    if np.abs(Xa).max() > X_LIMIT:
        bad = int(np.argwhere(np.abs(Xa) > X_LIMIT)[0, 0])
        raise ValueError(f"X values must be at most {X_LIMIT:,.0f} in size (rescale the data), row {bad} is "
                         f"{Xa[bad].tolist()}")
    kind = np.asarray(y).dtype.kind
    if kind not in "iuf":
        raise ValueError(f"labels must be -1 or +1 as numbers, got an array of dtype {np.asarray(y).dtype}")
    ya = np.array(y, dtype=np.float64)
    if ya.shape != (Xa.shape[0],):
        raise ValueError(f"y must have shape ({Xa.shape[0]},) to match X, got shape {ya.shape}")
    ok = (ya == 1.0) | (ya == -1.0)
    if not ok.all():
        vals = np.unique(ya[~ok])[:5].tolist()
        raise ValueError(f"labels must be -1 or +1, got values {vals}")
    return readonly(Xa), readonly(ya.astype(np.int64))


def check_real(name: str, v, *, low: float | None = None, high: float | None = None, strict_low=False) -> float:
    """v as a finite float within [low, high] (or (low, high] with ``strict_low``), else ValueError naming it."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {v!r}")
    v = float(v)
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v}")
    if low is not None and (v <= low if strict_low else v < low):
        raise ValueError(f"{name} must be {'>' if strict_low else '>='} {low:g}, got {v:g}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be <= {high:g}, got {v:g}")
    return v


def check_choice(name: str, v, allowed: tuple[str, ...]) -> str:
    """v if it is one of ``allowed``, else ValueError listing them."""
    if v not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(repr(a) for a in allowed)}, got {v!r}")
    return v
