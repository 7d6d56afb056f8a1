"""The first chart in a new tab, on every page, against the bare Streamlit app's first chart.

Serves bench/bare_app.py (one select_slider, one 3-point Plotly chart: the yardstick) and the app side by side;
both warm (one visit each first), then opens each page in a fresh browser context (no cache, as a student's first
visit), the bare app's tab between each two of the app's, and times from the navigation's start (the page's
``performance.now()``) until a frame has been painted with

- the bare app: its Plotly chart drawn (``_fullLayout``);
- the app: the chart sketched (``data-sketched``: the points, axes and step drawn before plotly.js is in;
  viz/js/sketch.js) where the page's chart kind is, drawn with plotly.js (``data-ready``: hover, clicks), and drawn
  from a whole record (where the first was partial, the value shown alone: the rest it then asked for).

Prints the medians of ``--runs`` tabs (and the range) and each as a ratio to the bare app's median. Run by hand
(2-core machine: about three minutes at --runs 6):

    python bench/bench_first_chart.py [--runs 6] [--n 2000] [--only Perceptron]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_live import served  # noqa: E402

# the time of the first frame painted after ``cond()`` held, from the navigation's start (installed before any script)
PROBE = """
window.__first = {};
const seen = (name, cond) => {
  if (name in window.__first || !cond()) return;
  window.__first[name] = -1;
  requestAnimationFrame(() => { window.__first[name] = performance.now(); });
};
new MutationObserver(() => {
  seen("bare", () => { const g = document.querySelector(".js-plotly-plot"); return g && g._fullLayout && !document.querySelector(".dbls"); });
  seen("sketched", () => document.querySelector(".dbls[data-sketched]"));
  seen("ready", () => document.querySelector(".dbls[data-ready]"));
  seen("whole", () => {  // every chart drawn from a whole record: a partial one (the value shown alone) is followed by the rest
    const roots = [...document.querySelectorAll(".dbls[data-ready]")];
    return roots.length > 0 && roots.every((r) => {
      const ev = new CustomEvent("dbl-state", {detail: {}, bubbles: true});
      r.dispatchEvent(ev);
      const st = ev.detail.state, v = st && st.view;
      return v && r.dataset.ready === st.id && !v.m.h.partial;  // (drawn: its view is made before it is mounted)
    });
  });
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


def first_times(browser, url: str, names: tuple[str, ...]) -> dict[str, float]:
    """A fresh context's tab at ``url``: the ms until each of ``names`` was painted (see PROBE)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        tab = ctx.new_page()
        tab.add_init_script(PROBE)
        tab.goto(url)
        cond = " && ".join(f"window.__first[{n!r}] > 0" for n in names)
        tab.wait_for_function(f"() => {cond}", timeout=90_000, polling=50)
        return tab.evaluate("() => window.__first")
    finally:
        ctx.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=6)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--only", default="", help="the pages whose name holds this text (say Perceptron)")
    args = ap.parse_args()
    n = args.n
    pages = [("Perceptron, XOR", f"perceptron?ds=XOR&n_xor={n}"), ("Perceptron, textbook", "perceptron"),
             ("Dual", "dual"), ("SVM, blobs", f"svm?ds=Blobs&n_blobs={n}"), ("Loss surface", "losses"),
             ("Compare", "compare"), ("Compare, C", "compare?cmp=svm")]
    pages = [(name, path) for name, path in pages if args.only.lower() in name.lower()]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with served("bench/bare_app.py") as bare, served("app.py") as app, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                      "--disable-dev-shm-usage"])
        for path in ("", *(p for _, p in pages)):  # warm: each page's runs cached, as for a class's second student
            first_times(browser, f"{app}/{path}" if path else bare, ("ready",) if path else ("bare",))
        bare_ms: list[float] = []
        for name, path in pages:
            sketch_ms, ready_ms, whole_ms = [], [], []
            for _ in range(args.runs):
                bare_ms.append(first_times(browser, bare, ("bare",))["bare"])
                got = first_times(browser, f"{app}/{path}", ("ready", "whole"))
                ready_ms.append(got["ready"])
                whole_ms.append(got["whole"])
                if got.get("sketched", -1) > 0:
                    sketch_ms.append(got["sketched"])
            ref = statistics.median(bare_ms)
            print(f"{name} ({path}), {args.runs} new tabs; the bare app's first chart so far: median {ref:.0f} ms")
            if sketch_ms:
                s = statistics.median(sketch_ms)
                print(f"  first chart (sketched): median {s:.0f} ms ({min(sketch_ms):.0f}–{max(sketch_ms):.0f}), "
                      f"{s / ref:.2f}× the bare app's; in {len(sketch_ms)} of {args.runs} tabs")
            r = statistics.median(ready_ms)
            print(f"  drawn with plotly.js: median {r:.0f} ms ({min(ready_ms):.0f}–{max(ready_ms):.0f}), "
                  f"{r / ref:.2f}× the bare app's")
            w = statistics.median(whole_ms)
            print(f"  drawn from a whole record: median {w:.0f} ms ({min(whole_ms):.0f}–{max(whole_ms):.0f}), "
                  f"{w / ref:.2f}× the bare app's")
        print(f"\nthe bare app's first chart over all: median {statistics.median(bare_ms):.0f} ms "
              f"({min(bare_ms):.0f}–{max(bare_ms):.0f}, {len(bare_ms)} tabs)")
        browser.close()


if __name__ == "__main__":
    main()
