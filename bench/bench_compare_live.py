"""Does the Compare page feel live? Its controls and steps in Chromium, against a bare Streamlit rerun.

Serves bench/bare_app.py (one select_slider, one 3-point chart: the yardstick) and the app side by side and, in
one Chromium, times for the Compare page at N points (XOR; τ left against τ right, cyclic; and the perceptron
against hinge SGD):

- the first chart in a new tab, against the bare app's;
- a move of the right run's τ: every τ of both sides is in the record, so the right panel follows the control in
  the browser: the key press until it shows that τ's run, plus one frame (also timed in the page), and until the
  page's own rerun has finished; the bytes the server sent for the move (the record is not resent);
- a move of C (perceptron against hinge SGD): the page reruns, both runs are built and sent as one scene record;
  the key press until the renderer has drawn the new record, plus one frame, and the bytes the server sent
  (websocket frames);
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
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_live import (  # noqa: E402
    against_bare,
    followed_moves,
    frame_times,
    line,
    open_tab,
    record_moves,
    step_times,
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()
    with against_bare("compare", args.moves) as (browser, app, ref, ref_in, bare_first):
        ref50, ref_in50 = statistics.median(ref), statistics.median(ref_in)
        print(line("bare Streamlit: slider → chart redrawn", ref))
        for name, query, label in [
                ("τ left vs τ right (cyclic)", f"ds=XOR&n_xor={args.n}&cmp=tau&tau_a=0.1&tau_b=1.0", "τ right"),
                ("perceptron vs hinge SGD", f"ds=XOR&n_xor={args.n}&cmp=svm&C=1.0", "SVM penalty C")]:
            ctx, tab, received, first = open_tab(browser, f"{app}/compare?{query}")
            print(f"\nCompare, {name}, N = {args.n}:")
            print(f"  first chart in a new tab: {first:.0f} ms (bare app's: {bare_first:.0f} ms, "
                  f"{first / bare_first:.2f}×); {sum(received) / 1000:.0f} KB received")
            if label == "τ right":  # followed in the browser
                read = "() => document.querySelector('.dbls').__dblView.m.panels[1].run.tau"
                times, sizes, reruns, inpage = followed_moves(tab, label, read, args.moves, received)
                print("  " + line("move τ right → its run drawn (in the browser)", times, ref50))
                print("  " + line("  the same, timed in the page", inpage, ref_in50))
                print("  " + line("move τ right → the page's rerun done", reruns, ref50))
            else:
                times, sizes = record_moves(tab, label, args.moves, received)
                print("  " + line(f"move {label.split()[0]} → both runs drawn (server rerun)", times, ref50))
            print(f"  bytes received per move: median {statistics.median(sizes) / 1000:.1f} KB")
            print("  " + line("Next / Back → both panels drawn", step_times(tab, args.steps)))
            print("  " + line("End / Home → both panels drawn",
                              frame_times(tab, "(root, v, i) => v.key(i % 2 ? 'Home' : 'End')", 10)))
            ctx.close()


if __name__ == "__main__":
    main()
