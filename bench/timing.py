"""What every bench script shares: the median wall time of a call."""

from __future__ import annotations

import statistics
import time


def median_ms(fn, repeat: int, clock=time.perf_counter) -> float:
    """Median over ``repeat`` calls of ``fn()``, in milliseconds (``clock=time.process_time``: this process's CPU)."""
    times = []
    for _ in range(max(1, repeat)):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times) * 1e3
