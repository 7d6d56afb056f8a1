"""Does the Compare page feel live? Its controls and steps in Chromium, against a bare Streamlit rerun.

Serves bench/bare_app.py (one select_slider, one 3-point chart: the yardstick) and the app side by side and, in
one Chromium, times for the Compare page at N points (XOR; τ left against τ right, cyclic; and the perceptron
against hinge SGD):

- the first chart in a new tab, against the bare app's;
- a move of the right run's τ: every τ of both sides is in the record, so the right panel follows the control in
  the browser: the key press until it shows that τ's run, plus one frame (also timed in the page), and until the
  page's own rerun has finished; the bytes the server sent for the move (the record is not resent);
- a move of C (perceptron against hinge SGD): the hinge-SGD run and the exact SVM of every C of the control are in
  the record, so the right panel follows the control in the browser (timed as τ right above);
- a new data seed (perceptron against hinge SGD): the Enter key until the runs of the C shown are drawn (a partial
  record), and until every C's are (the chart asks for them once it has drawn the first), with the bytes sent;
- Next ▶ / Back ◀ in the renderer: the click until the frame after both panels' step is drawn (no server
  message);
- End and Home (a jump over the whole common step axis).

Prints medians and 95th percentiles, each as a ratio to the bare rerun measured in the same run.
Run by hand (2-core machine: about two minutes):

    python bench/bench_compare_live.py [--n 2000] [--moves 6] [--steps 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_live import (  # noqa: E402
    IDLE,
    against_bare,
    armed_ms,
    followed_moves,
    frame_times,
    line,
    open_tab,
    step_times,
    type_seed,
)

FULL = "() => { const v = dbl(document.querySelector('.dbls')).view; return Boolean(v && !v.m.h.partial); }"


def new_seeds(page, received: list[int], seeds: int) -> tuple[list[float], list[float], list[float], list[int]]:
    """Change the data's seed: the Enter key until the runs shown are drawn (outside, and timed in the page), until
    the record of every C is drawn, and the bytes the server sent for both."""
    first, inpage, full, sizes = [], [], [], []
    for seed in range(1, seeds + 1):
        page.wait_for_selector(IDLE, state="attached")
        page.wait_for_timeout(300)
        n0 = len(received)
        ready, t = type_seed(page, seed)
        page.wait_for_function("(b) => { const r = document.querySelector('.dbls').dataset.ready; return r && r !== b; }",
                               arg=ready, polling="raf", timeout=90_000)
        first.append((time.perf_counter() - t) * 1000)
        inpage.append(armed_ms(page))
        page.wait_for_function(FULL, polling="raf", timeout=90_000)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        full.append((time.perf_counter() - t) * 1000)
        page.wait_for_selector(IDLE, state="attached")
        page.wait_for_timeout(300)
        sizes.append(sum(received[n0:]))
    return first, inpage, full, sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--seeds", type=int, default=3)
    args = ap.parse_args()
    with against_bare("compare", args.moves) as (browser, app, ref, ref_in, bare_first):
        ref50, ref_in50 = statistics.median(ref), statistics.median(ref_in)
        print(line("bare Streamlit: slider → chart redrawn", ref))
        for name, query, label in [
                ("τ left vs τ right (cyclic)", f"ds=XOR&n_xor={args.n}&cmp=tau&tau_a=0.1&tau_b=1.0", "τ right"),
                ("perceptron vs hinge SGD", f"ds=XOR&n_xor={args.n}&cmp=svm&C=1.0", "SVM penalty C")]:
            t0 = time.perf_counter()
            ctx, tab, received, first = open_tab(browser, f"{app}/compare?{query}")
            print(f"\nCompare, {name}, N = {args.n}:")
            print(f"  first chart in a new tab: {first:.0f} ms (bare app's: {bare_first:.0f} ms, "
                  f"{first / bare_first:.2f}×); {sum(received) / 1000:.0f} KB received")
            if label != "τ right":  # the record of every C: after the first drawing
                tab.wait_for_function(FULL, polling="raf", timeout=90_000)
                print(f"  every C's runs drawn {(time.perf_counter() - t0) * 1000:.0f} ms after the tab opened; "
                      f"{sum(received) / 1000:.0f} KB received in all")
            field = "tau" if label == "τ right" else "C"
            read = f"() => dbl(document.querySelector('.dbls')).view.m.panels[1].run.{field}"
            times, sizes, reruns, inpage = followed_moves(tab, label, read, args.moves, received)
            name = label.split()[-1] if field == "C" else label
            print("  " + line(f"move {name} → its run drawn (in the browser)", times, ref50))
            print("  " + line("  the same, timed in the page", inpage, ref_in50))
            print("  " + line(f"move {name} → the page's rerun done", reruns, ref50))
            print(f"  bytes received per move: median {statistics.median(sizes) / 1000:.1f} KB")
            if field == "C":
                first, inpage, full, sizes = new_seeds(tab, received, args.seeds)
                print("  " + line("new data seed → the C shown drawn (partial record)", first, ref50))
                print("  " + line("  the same, timed in the page", inpage, ref_in50))
                print("  " + line("new data seed → every C drawn", full, ref50))
                print(f"  bytes received per new seed: median {statistics.median(sizes) / 1000:.0f} KB")
            print("  " + line("Next / Back → both panels drawn", step_times(tab, args.steps)))
            print("  " + line("End / Home → both panels drawn",
                              frame_times(tab, "(root, v, i) => v.key(i % 2 ? 'Home' : 'End')", 10)))
            ctx.close()


if __name__ == "__main__":
    main()
