"""What the viz tests share to read the state lines under the charts."""

from __future__ import annotations

import re

_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def named_points(text: str) -> list[int]:
    """The 0-based indices of the points x₁, x₁₂, … a text names, in order."""
    return [int(m.translate(_DIGITS)) - 1 for m in re.findall(r"x([₀-₉]+)", text)]


def merged_layout(fig: dict, name: str) -> dict:
    """The layout paths a frame sets, its base (state) frame's under its own, as Plotly applies them."""
    frames = {f["name"]: f for f in fig["frames"]}
    fr = frames[name]
    return {**frames[fr["baseframe"]].get("layout", {}), **fr.get("layout", {})}
