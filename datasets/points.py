"""The user's own points: a click's edit, and a compact text form of a point set for the URL.

No Streamlit here: the pages call :func:`click_edit` with what the click
component reports and keep the result; :func:`encode_points` and
:func:`decode_points` carry a drawn or imported set in a link.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import zlib

import numpy as np

MAX_POINTS = 10_000  # the most points a user set may hold (as the CSV import; the most the Perceptron page takes)
URL_MAX_POINTS = 500  # a larger set does not travel in a link (the CSV download does)
PICK_PX = 9.0  # a click within this many pixels of a point removes it
MAX_DECIMALS = 6  # the finest decimal grid the link form writes as integers
_MAX_CODE = 200_000  # characters of an encoded set a link may carry (500 points take far fewer)


def click_decimals(scale: float) -> int:
    """Decimals that resolve one pixel: the smallest d with 10⁻ᵈ ≤ ``scale`` (data units per pixel), in 0..6."""
    if not math.isfinite(scale) or scale <= 0:
        return MAX_DECIMALS
    return int(min(MAX_DECIMALS, max(0, math.ceil(-math.log10(scale)))))


def click_edit(X: np.ndarray, y: np.ndarray, at: tuple[float, float], label: int, scale: tuple[float, float],
               *, pick_px: float = PICK_PX, max_points: int = MAX_POINTS) -> tuple[np.ndarray, np.ndarray, str]:
    """The point set after a click at ``at``: the nearest point within ``pick_px`` pixels is removed, else one is added.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Labels in {−1, +1}.
    at : (float, float)
        The click in data coordinates.
    label : {−1, +1}
        The class of a point added.
    scale : (float, float)
        Data units per screen pixel along x₁ and x₂; distances to points are measured in pixels.
    pick_px : float
        How close (in pixels) a click must be to a point to remove it.
    max_points : int
        A click that would add a point beyond this many raises ValueError.

    Returns
    -------
    X2 : ndarray of shape (n ± 1, 2)
    y2 : ndarray of shape (n ± 1,)
    what : str
        What the click did, for the page: ``"added x₄ = (1.25, -0.5), y = +1"`` or ``"removed x₂ = (…)"``.

    Raises
    ------
    ValueError
        For a click that is not two finite numbers, a scale that is not positive, a label not ±1, or too many points.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y, dtype=np.int64).reshape(-1)
    try:
        cx, cy = (float(v) for v in at)
        sx, sy = (float(v) for v in scale)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a click needs two numbers for its place and its scale, got {at!r}, {scale!r}") from exc
    if not all(math.isfinite(v) for v in (cx, cy)):
        raise ValueError(f"the click is not at a finite place: ({cx}, {cy})")
    if not (math.isfinite(sx) and math.isfinite(sy) and sx > 0 and sy > 0):
        raise ValueError(f"the chart's scale must be positive, got ({sx}, {sy}) units per pixel")
    if label not in (-1, 1):
        raise ValueError(f"a point's class is +1 or −1, got {label!r}")
    if len(y):
        # distance in pixels: ((x₁ − c₁)/s₁)² + ((x₂ − c₂)/s₂)²
        d2 = ((X[:, 0] - cx) / sx) ** 2 + ((X[:, 1] - cy) / sy) ** 2
        i = int(np.argmin(d2))
        if d2[i] <= pick_px**2:
            what = f"removed x{_sub(i + 1)} = {_pt(X[i])}, y = {int(y[i]):+d}"
            return np.delete(X, i, axis=0), np.delete(y, i), what
    if len(y) >= max_points:
        raise ValueError(f"a set holds at most {max_points:,} points")
    # the new point on the decimal grid one pixel resolves (short numbers in the table and the link)
    p = np.array([round(cx, click_decimals(sx)), round(cy, click_decimals(sy))])
    what = f"added x{_sub(len(y) + 1)} = {_pt(p)}, y = {label:+d}"
    return np.vstack([X, p]), np.append(y, np.int64(label)), what


def standardize(X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each feature centred and scaled to mean 0 and standard deviation 1.

    Parameters
    ----------
    X : ndarray of shape (n, d)

    Returns
    -------
    Z : ndarray of shape (n, d)
        (X − μ) / σ, column by column.
    mu : ndarray of shape (d,)
        The columns' means μ (0 when n = 0).
    sigma : ndarray of shape (d,)
        The columns' standard deviations σ (over n, not n − 1); 1 where a column is constant, which is
        then only centred.
    """
    X = np.asarray(X, dtype=float)
    if len(X) == 0:
        return X.copy(), np.zeros(X.shape[1]), np.ones(X.shape[1])
    mu = X.mean(axis=0)
    sigma = X.std(axis=0)
    sigma = np.where(sigma > 0, sigma, 1.0)
    return (X - mu) / sigma, mu, sigma


def click_edit_standardized(X: np.ndarray, y: np.ndarray, at: tuple[float, float], label: int,
                            scale: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, str]:
    """:func:`click_edit` for a chart that shows the points standardized, on the points kept in raw units.

    The click (``at``, ``scale``: standardized units) picks among the standardized points; a point it adds
    is turned back into raw units, x = z·σ + μ; the other points are returned bit for bit.

    Parameters and Returns are those of :func:`click_edit`, with ``X`` and the returned ``X2`` in raw units
    and ``what`` saying "(standardized units)".
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y, dtype=np.int64).reshape(-1)
    Z, mu, sigma = standardize(X)
    Z2, y2, what = click_edit(Z, y, at, label, scale)
    what += " (standardized units)"
    if len(y2) > len(y):  # click_edit appends a new point
        return np.vstack([X, Z2[-1:] * sigma + mu]), y2, what
    same = (Z[: len(y2)] == Z2).all(axis=1) & (y[: len(y2)] == y2)
    removed = int(np.argmin(same)) if not same.all() else len(y) - 1  # the first row that moved up
    return np.delete(X, removed, axis=0), y2, what


def _sub(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _pt(p: np.ndarray) -> str:
    return f"({p[0]:g}, {p[1]:g})"


# ----------------------------------------------------------------------------
# the link form: "<n>.<decimals><kind>.<base64url(zlib(label bits + coordinates))>"
# ----------------------------------------------------------------------------

_DIGITS = re.compile(r"[0-9]{1,6}")
_KINDS = {"h": np.dtype("<i2"), "i": np.dtype("<i4"), "f": np.dtype("<f8")}


def encode_points(X: np.ndarray, y: np.ndarray) -> str:
    """A short URL-safe text that :func:`decode_points` turns back into exactly ``X`` and ``y``.

    Coordinates on a decimal grid (clicks, most CSV files) are written as
    integers times 10⁻ᵈ, d ≤ 6, in 16 or 32 bits; others as raw float64.
    Labels are one bit each. The bytes are deflated and base64url-encoded.

    Parameters
    ----------
    X : ndarray of shape (n, 2)
        Finite coordinates.
    y : ndarray of shape (n,)
        Labels in {−1, +1}.

    Returns
    -------
    str
        Letters, digits and ``-_.`` only.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y).reshape(-1)
    if len(X) != len(y) or not np.all(np.isfinite(X)) or not np.all(np.isin(y, (-1, 1))):
        raise ValueError("only finite points with labels ±1 can be written in a link")
    decimals, kind, body = MAX_DECIMALS, "f", X.astype("<f8")
    for d in range(MAX_DECIMALS + 1):
        q = np.round(X * 10.0**d)
        if np.all(np.abs(q) < 2**31 - 1) and np.array_equal(q / 10.0**d, X):
            decimals = d
            kind = "h" if np.all(np.abs(q) < 2**15 - 1) else "i"
            body = q.astype(_KINDS[kind])
            break
    raw = np.packbits(y > 0).tobytes() + body.tobytes()
    code = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    return f"{len(y)}.{decimals}{kind}.{code}"


def decode_points(text: str, *, max_points: int = URL_MAX_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """The points :func:`encode_points` wrote.

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Labels in {−1, +1}, int64.

    Raises
    ------
    ValueError
        Naming what is wrong with a damaged or hand-edited text (format, count, length, values).
    """
    if not isinstance(text, str) or len(text) > _MAX_CODE:
        raise ValueError("the points in the link are too long or not text")
    parts = text.strip().split(".")
    if len(parts) != 3 or not _DIGITS.fullmatch(parts[0]) or len(parts[1]) != 2 or parts[1][1] not in _KINDS \
            or not _DIGITS.fullmatch(parts[1][0]):
        raise ValueError("the points in the link are not in the form <count>.<digits><kind>.<data>")
    n, decimals, kind = int(parts[0]), int(parts[1][0]), parts[1][1]
    if not 1 <= n <= max_points:
        raise ValueError(f"the link holds {n:,} points; a link may carry 1 to {max_points:,}")
    if decimals > MAX_DECIMALS:
        raise ValueError(f"the points' decimals must be 0 to {MAX_DECIMALS}, got {decimals}")
    dtype = _KINDS[kind]
    nbits = (n + 7) // 8
    expected = nbits + 2 * n * dtype.itemsize
    try:
        code = parts[2] + "=" * (-len(parts[2]) % 4)
        z = zlib.decompressobj()
        raw = z.decompress(base64.b64decode(code, altchars=b"-_", validate=True), expected + 1)
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise ValueError("the points in the link are damaged (they do not decode)") from exc
    if not z.eof or z.unused_data:
        raise ValueError("the points in the link are damaged: the data is cut short or has extra bytes")
    if len(raw) != expected:
        raise ValueError(f"the points in the link are damaged: {len(raw)} bytes where {n:,} points need {expected}")
    y = np.where(np.unpackbits(np.frombuffer(raw[:nbits], np.uint8))[:n] == 1, 1, -1).astype(np.int64)
    body = np.frombuffer(raw[nbits:], dtype=dtype).reshape(n, 2)
    X = body.astype(float) / 10.0**decimals if kind != "f" else body.astype(float)
    if not np.all(np.isfinite(X)):
        raise ValueError("the points in the link include a value that is not finite")
    return X, y
