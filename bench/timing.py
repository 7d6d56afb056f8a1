"""What every bench script shares: the median wall time of a call."""

from __future__ import annotations

import statistics
import time


def median_ms(fn, repeat: int) -> float:
    """Median over ``repeat`` calls of ``fn()``, in milliseconds."""
    times = []
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3
