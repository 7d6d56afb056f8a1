"""Does the Loss surface page feel live? b, λ and a click in Chromium, against a bare Streamlit rerun.

Serves bench/bare_app.py (one select_slider, one 3-point chart: the yardstick) and the app side by side and, in
one Chromium, times for the Loss surface page at N blob points (with a perceptron trajectory), for one loss and
for all three:

- the first chart in a new tab, against the bare app's;
- b moved on the chart (in the browser: the renderer samples each loss for the new b, then draws its bands and
  lines): the key until the frame after it is drawn, the first visit of each b (nothing cached) and a return to a
  b already shown;
- a move of λ (the chart follows its own λ control in the browser: every λ is in the record): the key press
  until the chart shows the new λ, timed in the page, and the bytes the page's own rerun sent;
- a click on a weight: until the data chart beside draws its boundary, sides and M (in the browser, by the rule and
  the surface's sums), and until the page's record for it (M and the losses from the core) replaces that (a rerun);
  and a weight chosen from the keyboard (Enter on the ring), timed in the page.

Prints medians and 95th percentiles, each as a ratio to the bare rerun measured in the same run.
Run by hand (2-core machine: about two minutes):

    python bench/bench_loss_page.py [--n 1000] [--moves 6]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_live import IDLE, against_bare, followed_moves, frame_times, line, open_tab  # noqa: E402
from bench.browser import chart  # noqa: E402

DATA = chart("loss_data")  # the data chart beside the surface (its own record: viz/js/lossdata.js)


# the frame after the data chart has drawn a weight ahead of the page's record (meta.pending), timed in the page
WATCH = f"""() => {{ window.__pickSeen = null; let frames = 0; const tick = () => {{ const g = {DATA};
    if (g && g.layout.meta.pending) requestAnimationFrame(() => {{ window.__pickSeen = performance.now(); }});
    else if (++frames < 3600) requestAnimationFrame(tick); }}; requestAnimationFrame(tick); }}"""  # (a minute at most)


def keys(page, k: int) -> list[float]:
    """Choose k weights from the keyboard (the first panel focused, its ring moved two grid nodes, Enter), each timed
    in the page from Enter's keydown to the frame after the data chart has drawn its boundary; each then waits for
    the page's record."""
    inpage = []
    page.evaluate("() => document.addEventListener('keydown', (e) => { if (e.key === 'Enter') window.__pickDown = performance.now(); }, true)")
    page.locator(".st-key-loss_chart .dbls .js-plotly-plot").first.focus()
    for i in range(k):
        page.wait_for_selector(IDLE, state="attached")
        page.wait_for_timeout(300)
        for key in ("ArrowUp", "ArrowRight", "ArrowRight") if i % 2 else ("ArrowUp", "ArrowLeft", "ArrowDown"):
            page.keyboard.press(key)  # (the first shows the ring, if the panel's focus was not the keyboard's)
        page.evaluate(WATCH)
        page.keyboard.press("Enter")
        page.wait_for_function("() => window.__pickSeen !== null", polling="raf", timeout=60_000)
        inpage.append(page.evaluate("() => window.__pickSeen - window.__pickDown"))
        page.wait_for_function(f"() => {{ const g = {DATA}; return g && g.layout.meta.chosen && !g.layout.meta.pending; }}",
                               polling="raf", timeout=60_000)
    return inpage


def clicks(page, k: int) -> tuple[list[float], list[float], list[float]]:
    """Click k weights on the first panel (the pointer resting on each first, as a hand's does), each until the data
    chart has drawn its boundary in the browser (``meta.pending``: the surface's own numbers; also timed in the page,
    from the press to the frame after it is drawn), and until the page's record for it, made from the core, has
    replaced that (a rerun)."""
    drawn, made, inpage = [], [], []
    page.evaluate("() => document.addEventListener('pointerdown', () => { window.__pickDown = performance.now(); }, true)")
    watch = WATCH
    for i in range(k):
        page.wait_for_selector(IDLE, state="attached")
        page.wait_for_timeout(300)
        box = page.locator(".dbls .dbls-plot .nsewdrag").first.bounding_box()
        x, y = box["x"] + box["width"] * (0.25 + 0.1 * i), box["y"] + box["height"] * (0.7 - 0.08 * i)
        page.mouse.move(x, y)
        page.wait_for_timeout(200)
        before = page.evaluate(f"() => JSON.stringify(({DATA}).layout.meta.chosen)")
        page.evaluate(watch)
        t = time.perf_counter()
        page.mouse.click(x, y)
        page.wait_for_function(f"(b) => {{ const g = {DATA}; return g && JSON.stringify(g.layout.meta.chosen) !== b; }}",
                               arg=before, polling="raf", timeout=60_000)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        drawn.append((time.perf_counter() - t) * 1000)
        page.wait_for_function("() => window.__pickSeen !== null", polling="raf")
        inpage.append(page.evaluate("() => window.__pickSeen - window.__pickDown"))
        page.wait_for_function(f"() => {{ const g = {DATA}; return g && g.layout.meta.chosen && !g.layout.meta.pending; }}",
                               polling="raf", timeout=60_000)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        made.append((time.perf_counter() - t) * 1000)
    return drawn, inpage, made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=6)
    args = ap.parse_args()
    with against_bare("losses", args.moves) as (browser, app, ref, _, bare_first):
        ref50 = statistics.median(ref)
        print(line("bare Streamlit: slider → chart redrawn", ref))
        for loss in ("hinge", "all"):
            ctx, tab, received, first = open_tab(browser, f"{app}/losses?ds=blobs&n_blobs={args.n}&loss={loss}"
                                                          "&path=perceptron&lam=0.1")
            t = time.perf_counter()  # the surface (the data chart can come first)
            tab.wait_for_selector(".st-key-loss_chart .dbls[data-ready]", state="attached", timeout=90_000)
            surface = first + (time.perf_counter() - t) * 1000
            print(f"\nLoss surface, loss = {loss}, N = {args.n}:")
            print(f"  first chart in a new tab: {first:.0f} ms (bare app's: {bare_first:.0f} ms, "
                  f"{first / bare_first:.2f}×); the surface: {surface:.0f} ms ({surface / bare_first:.2f}×); "
                  f"{sum(received) / 1000:.0f} KB received")
            cold = "(root, v, i) => { v.m.cache.clear(); v.key(i % 2 ? 'ArrowLeft' : 'ArrowRight'); }"
            print("  " + line("b on the chart → drawn (first visit)", frame_times(tab, cold, 20)))
            warm = "(root, v, i) => v.key(i % 2 ? 'ArrowLeft' : 'ArrowRight')"
            print("  " + line("b on the chart → drawn (b seen before)", frame_times(tab, warm, 20)))
            _, sizes, rerun, follow = followed_moves(tab, "λ of the hinge", "() => dbl(document.querySelector('.dbls')).view.m.lam",
                                                     args.moves, received)
            print("  " + line("move λ → the chart follows (in the browser)", follow, ref50))
            print("  " + line("move λ → the page's own rerun done", rerun, ref50))
            print(f"  bytes received per λ move: median {statistics.median(sizes) / 1000:.1f} KB")
            drawn, inpage, made = clicks(tab, 6)
            print("  " + line("click a weight → its boundary drawn (in the browser)", drawn, ref50))
            print("  " + line("  the same, timed in the page from the press", inpage, ref50))
            print("  " + line("  … → the page's record from the core (rerun)", made, ref50))
            print("  " + line("Enter on a weight (keyboard) → its boundary drawn, in the page", keys(tab, 6), ref50))
            ctx.close()


if __name__ == "__main__":
    main()
