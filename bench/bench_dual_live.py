"""Does the Dual / Gram page feel live? Its controls and steps in Chromium, against a bare Streamlit rerun.

Serves bench/bare_app.py (one select_slider, one 3-point chart: the yardstick) and the app side by side and, in
one Chromium, times for the Dual page at N points (XOR; the linear kernel, and RBF with γ = 1):

- the first chart in a new tab, against the bare app's;
- a move of η: the record holds every η (η rescales α, b and f; the linear kernel's w and primal run come for each
  η) and the chart follows the control in the browser: the key press until it shows the new η, plus one frame
  (also timed in the page), and until the page's rerun has finished; the bytes the server sent;
- Next ▶ / Back ◀ in the renderer: the click until the frame after the step is drawn (no server message);
- End and Home (a jump over the whole run, f on the grid walked from its kept states).

Prints medians and 95th percentiles, each as a ratio to the bare rerun measured in the same run.
Run by hand (2-core machine: about two minutes):

    python bench/bench_dual_live.py [--n 2000] [--moves 6] [--steps 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_live import (  # noqa: E402
    against_bare,
    followed_moves,
    frame_times,
    line,
    open_tab,
    step_times,
)


def jumps(page, k: int) -> list[float]:
    """End then Home, k times: the key until the frame after the step is drawn."""
    return frame_times(page, "(root, v, i) => v.key(i % 2 ? 'Home' : 'End')", 2 * k)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()
    with against_bare("dual", args.moves) as (browser, app, ref, ref_in, bare_first):
        ref50, ref_in50 = statistics.median(ref), statistics.median(ref_in)
        print(line("bare Streamlit: slider → chart redrawn", ref))
        for name, query in [("XOR, linear", f"ds=XOR&n_xor={args.n}"),
                            ("XOR, RBF γ = 1", f"ds=XOR&n_xor={args.n}&kernel=RBF&gamma=1.0")]:
            ctx, tab, received, first = open_tab(browser, f"{app}/dual?{query}")
            print(f"\nDual / Gram, {name}, N = {args.n}:")
            print(f"  first chart in a new tab: {first:.0f} ms (bare app's: {bare_first:.0f} ms, "
                  f"{first / bare_first:.2f}×)")
            read = "() => dbl(document.querySelector('.dbls')).view.m.eta"  # every η in the record: followed
            times, sizes, reruns, inpage = followed_moves(tab, "Step η", read, args.moves, received)
            print("  " + line("move η → drawn (in the browser)", times, ref50))
            print("  " + line("  the same, timed in the page", inpage, ref_in50))
            print("  " + line("move η → the page's rerun done", reruns, ref50))
            print(f"  bytes received per η move: median {statistics.median(sizes) / 1000:.1f} KB")
            st = step_times(tab, args.steps)
            print("  " + line("Next / Back → step drawn", st))
            print("  " + line("End / Home → step drawn", jumps(tab, 5)))
            ctx.close()

if __name__ == "__main__":
    main()
