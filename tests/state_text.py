"""What the viz tests share to read the state lines under the charts."""

from __future__ import annotations

import re

_DIGITS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


def named_points(text: str) -> list[int]:
    """The 0-based indices of the points x₁, x₁₂, … a text names, in order."""
    return [int(m.translate(_DIGITS)) - 1 for m in re.findall(r"x([₀-₉]+)", text)]
