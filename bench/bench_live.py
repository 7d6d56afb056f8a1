"""Does the Perceptron page feel live? Its controls and steps in Chromium, against a bare Streamlit rerun.

Serves two apps side by side on free ports: bench/bare_app.py (one select_slider, one 3-point chart: the
yardstick) and the app (streamlit run app.py). In one Chromium, it times

- the bare app: a key press on its slider until the script has finished and the chart holds the new value,
  plus one animation frame; and its first chart in a new tab;
- the Perceptron page at N points (XOR, cyclic; and blobs, mini-batch with B = N/4): a key press on τ until
  the renderer shows that τ's run, plus one frame (every τ is in the scene: no server round trip), and until
  the page's own rerun has finished; the bytes the server sent (websocket frames);
- Next ▶ and Back ◀ in the renderer: the click until the next animation frame after the step is drawn;
- a new data seed: every τ run again on the server and sent, until the τ shown is drawn, and every τ;
- the variant changed (to two others and back, twice, in two tabs): built on the server (until its τ's run is
  drawn, sent first, and until every τ's is), cached on the server (a tab's first visit), and drawn before in the
  tab (the chart keeps the variants it drew: no server message);
- a new B (mini-batch): until its τ's run is drawn, and every τ's;
- the first chart of the Perceptron page in a new tab (both servers warm), against the bare app's.

Prints medians and 95th percentiles and each as a ratio to the bare rerun measured in the same run.
Run by hand (2-core machine: about two minutes):

    python bench/bench_live.py [--n 2000] [--moves 8] [--steps 60]
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.browser import free_port  # noqa: E402
from tests.e2e_helpers import STATE_OF  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
IDLE = "[data-testid=stApp][data-test-script-state=notRunning][data-test-connection-state=CONNECTED]"


@contextlib.contextmanager
def served(script: str):
    """``streamlit run script`` on a free port; yields its base URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", script, "--server.headless", "true",
                             "--server.address", "127.0.0.1", "--server.port", str(port),
                             "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(150):
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def p(times: list[float], q: float) -> float:
    t = sorted(times)
    return t[min(len(t) - 1, int(round(q * (len(t) - 1))))]


def line(name: str, times: list[float], ref: float | None = None) -> str:
    p50, p95 = statistics.median(times), p(times, 0.95)
    ratio = f"  ({p50 / ref:.2f}× / {p95 / ref:.2f}× the bare rerun's p50)" if ref else ""
    return f"{name:<46} p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  n={len(times)}{ratio}"


def arm(page, read: str, event: str = "keydown") -> None:
    """Time the next key press (or ``event``, such as a click) in the page itself (no Playwright round trips): from
    the event until the frame after ``read`` (a JS function) returns another value; read by :func:`armed_ms` (gives
    up after 60 s)."""
    page.evaluate("""([src, event]) => {
        const read = eval(src), before = read(), p = window.__probe = {t0: null, ms: null, full: null};
        document.addEventListener(event, (e) => { p.t0 = e.timeStamp; }, {capture: true, once: true});
        const start = performance.now();
        let drawn = false;
        const tick = () => {
            let v = before;
            try { v = read(); } catch (e) { /* the chart is being replaced */ }
            if (p.t0 !== null && v !== before) {
                if (!drawn) { drawn = true; requestAnimationFrame(() => { p.ms = performance.now() - p.t0; }); }
                const r = document.querySelector('.dbls'), w = r && dbl(r).view;  // (and once it holds every τ: every_tau_ms)
                if (w && !w.m.h.partial && r.dataset.ready === dbl(r).id) {
                    requestAnimationFrame(() => { p.full = performance.now() - p.t0; });
                    return;
                }
            }
            if (performance.now() - start < 60000) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
    }""", [read, event])


def armed_ms(page) -> float:
    page.wait_for_function("() => window.__probe && window.__probe.ms !== null", polling=50, timeout=60_000)
    return page.evaluate("() => window.__probe.ms")


def bare_rerun(page, base: str, moves: int) -> tuple[list[float], float, list[float]]:
    t0 = time.perf_counter()
    page.goto(base)  # a new tab of a warm server: its first chart
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g._fullLayout; }")
    first = (time.perf_counter() - t0) * 1000
    slider = page.get_by_test_id("stSlider").get_by_role("slider")
    times, inpage = [], []
    for i in range(moves):
        key = "ArrowLeft" if (i // 4) % 2 == 0 else "ArrowRight"
        before = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.meta.v")
        arm(page, "() => document.querySelector('.js-plotly-plot').layout.meta.v")
        slider.focus()
        t = time.perf_counter()
        page.keyboard.press(key)
        page.wait_for_function(
            f"(b) => {{ const g = document.querySelector('.js-plotly-plot');"
            f" return document.querySelector({IDLE!r}) && g && g.layout.meta.v !== b; }}", arg=before, polling="raf")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        times.append((time.perf_counter() - t) * 1000)
        inpage.append(armed_ms(page))
        page.wait_for_timeout(150)
    return times, first, inpage


def slider_of(page, label: str):
    """The slider labelled ``label``: a chart's own control (viz/js/tune.js), else the page's Streamlit slider; a label
    that starts with "." is a CSS selector (the SVM chart's own C: ".st-key-svm_chart .dbls-range")."""
    if label.startswith("."):
        return page.locator(label).first
    own = page.locator(f".dbls-tune [aria-label*={label!r}]")
    return own.first if own.count() else page.get_by_test_id("stSlider").filter(has_text=label).get_by_role("slider")


def followed_moves(page, label: str, read: str, moves: int, received: list[int]
                   ) -> tuple[list[float], list[int], list[float], list[float]]:
    """Move the page's slider labelled ``label``, which the chart follows (τ, C), down and up: the key press until
    ``read`` (JS) changes, plus one frame; the bytes the server sent for the move (its rerun of the page); the key
    press until that rerun has finished; and the first, timed in the page itself."""
    slider = slider_of(page, label)
    times, sizes, reruns, inpage = [], [], [], []
    for i in range(moves):
        key = "ArrowLeft" if i < moves // 2 else "ArrowRight"
        before = page.evaluate(read)
        page.wait_for_timeout(200)
        n0 = len(received)
        arm(page, read)
        slider.focus()
        t = time.perf_counter()
        page.keyboard.press(key)
        page.wait_for_function(f"(b) => ({read})() !== b", arg=before, polling="raf", timeout=60_000)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
        times.append((time.perf_counter() - t) * 1000)
        inpage.append(armed_ms(page))
        page.wait_for_timeout(50)
        page.wait_for_selector(IDLE, state="attached")
        reruns.append((time.perf_counter() - t) * 1000)
        page.wait_for_timeout(300)
        sizes.append(sum(received[n0:]))
    return times, sizes, reruns, inpage


def tau_moves(page, moves: int, received: list[int]) -> tuple[list[float], list[int], list[float], list[float]]:
    """Move τ down and up (:func:`followed_moves`): the chart shows the run of the new τ."""
    return followed_moves(page, "Step size", "() => dbl(document.querySelector('.dbls-plot')).view.m.run.tau", moves,
                          received)


def redrawn(page, t: float, before: str, received: list[int], n0: int, root: str = ".dbls") -> tuple[float, int]:
    """After an action at ``t`` (perf_counter) that sends a new scene record: the ms until the chart (``root``) has
    drawn a record other than ``before`` (its ``data-ready``), plus one frame; and the bytes the server sent from
    message ``n0`` on, once the page's rerun has finished."""
    page.wait_for_function(f"(b) => {{ const e = document.querySelector({root!r}), r = e && e.dataset.ready; return r && r !== b; }}",
                           arg=before, polling="raf", timeout=90_000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    ms = (time.perf_counter() - t) * 1000
    page.wait_for_selector(IDLE, state="attached")
    page.wait_for_timeout(300)
    return ms, sum(received[n0:])


READY = "() => { const e = document.querySelector('.dbls'); return (e && e.dataset.ready) || ''; }"  # (none while Streamlit replaces it)


def type_seed(page, seed: int) -> tuple[str, float]:
    """Type ``seed`` in the sidebar's Data seed box and press Enter, the in-page probe armed on that key: (the record
    drawn before, the time of the key press)."""
    field = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInput").filter(has_text="Data seed").locator("input")
    ready = page.evaluate(READY)
    field.fill(str(seed))
    arm(page, READY)
    t = time.perf_counter()
    field.press("Enter")
    return ready, t


def new_runs(page, received: list[int], query_for) -> tuple[list[float], list[int], list[float], list[float]]:
    """Change the data's seed (a new set of runs: every τ run again on the server): until it is drawn (the run of the
    τ shown first, where the page sends it first); the bytes sent; and the Enter key until the frame after it is drawn,
    and after every τ is, timed in the page."""
    times, sizes, inpage, every = [], [], [], []
    for seed in range(1, 4):
        n0 = len(received)
        ready, t = type_seed(page, seed)
        ms, _ = redrawn(page, t, ready, received, n0)
        times.append(ms)
        inpage.append(armed_ms(page))
        every.append(every_tau_ms(page))
        page.wait_for_selector(IDLE, state="attached")
        sizes.append(sum(received[n0:]))  # (both records, where the τ shown came first; not an ask's answer)
        page.wait_for_timeout(300)
    return times, sizes, inpage, every


VARIANTS = {"cyclic": "cyclic", "random": "random", "minibatch": "mini-batch", "batch": "batch"}


KEPT = "(v) => { const r = document.querySelector('.dbls'); return Boolean(dbl(r).memo && dbl(r).memo.records.has(v)); }"
AHEAD_DONE = """() => { const r = document.querySelector('.dbls'), v = dbl(r).view, kept = dbl(r).memo;
    if (!v || !kept || !v.m.h.memo || v.m.h.partial) return false;
    const box = document.querySelector('input[aria-label="Batch size B"]'), B = box ? parseInt(box.value, 10) : NaN;
    const slot = (s) => (s === "minibatch" ? `minibatch:${Math.min(Math.max(B, 1), v.m.N)}` : s);  // (the box's B: aheadSlots)
    return (v.m.h.memo.ahead || []).every((s) => kept.records.has(slot(s))); }"""


def ahead_kept(page) -> float:
    """The ms from now until the chart keeps every variant its record's memo names to be made ahead (app_pages/perceptron.py
    makes them once the chart has drawn and is left alone), NaN after 20 s."""
    t = time.perf_counter()
    try:
        page.wait_for_function(AHEAD_DONE, polling=50, timeout=20_000)
    except Exception:  # noqa: BLE001 - (printed as nan)
        return float("nan")
    return (time.perf_counter() - t) * 1000


def variant_changes(page, received: list[int], start: str, timed: dict[str, list[float]], server_has: set[str]
                    ) -> list[int]:
    """The variant changed to two others and back, twice (every τ run again, the points kept): the option's click
    until the new scene is drawn, timed in the page (the click event until the frame after it is drawn), into
    ``timed`` by what answered: ``built`` (the server ran it), ``server`` (the server had it: the first visit in
    this tab), ``ahead`` (the chart kept it, made ahead: no message to the server), ``browser`` (the chart had drawn
    it in this tab: no message to the server). ``server_has``: the variants the server has built for these data (this
    adds to it). Returns the bytes received per change."""
    others = [v for v in VARIANTS.values() if v != start][:2]
    sizes = []
    drawn = {start}
    for v in [*others, start, *others, start]:
        ready = page.evaluate(READY)
        n0 = len(received)
        arm(page, READY, "change")
        server_had = v in server_has
        slot = {"mini-batch": f"minibatch:{page.evaluate(CHART_B)}"}.get(v, v)
        kept = page.evaluate(KEPT, slot)
        page.locator(VARIANT).select_option(v)
        redrawn(page, time.perf_counter(), ready, received, n0)
        kind = "browser" if v in drawn else "ahead" if kept else "server" if server_had else "built"
        timed.setdefault(kind, []).append(armed_ms(page))
        if kind == "built":  # (the others send every τ at once)
            timed.setdefault(kind + " every τ", []).append(every_tau_ms(page))
        drawn.add(v)
        server_has.add(v)
        sizes.append(sum(received[n0:]))
    return sizes


CHART_B = "() => dbl(document.querySelector('.dbls')).view.m.run.batch_size"
VARIANT = ".dbls-tune select[aria-label='Variant']"  # the chart's own variant list (viz/js/tune.js)


def new_seed(page, received: list[int], seed: int) -> None:
    """The data seed set to ``seed``, until the chart has drawn the new runs."""
    ready, t = type_seed(page, seed)
    redrawn(page, t, ready, received, len(received))


def quick_variants(page, received: list[int], start: str, n: int, timed: dict[str, list[float]]) -> None:
    """A new data seed, then at once (before anything is made ahead) another variant: the server builds it (its τ
    first, then every τ), timed in the page into ``timed["built"]`` and ``timed["built every τ"]``."""
    other = next(v for v in VARIANTS.values() if v not in (start, "mini-batch"))
    for seed in range(11, 11 + n):
        new_seed(page, received, seed)
        for v in (other, start):
            ready = page.evaluate(READY)
            arm(page, READY, "change")
            page.locator(VARIANT).select_option(v)
            redrawn(page, time.perf_counter(), ready, received, len(received))
            if v == other:
                timed.setdefault("built", []).append(armed_ms(page))
                timed.setdefault("built every τ", []).append(every_tau_ms(page))


def every_tau_ms(page) -> float:
    """After an armed change (:func:`arm`): the ms from it until the frame after the chart holds the runs of every τ
    (not a partial record, the page's τ alone, which a change the server had not built draws first:
    app_pages/perceptron.py), NaN after 60 s."""
    try:
        page.wait_for_function("() => window.__probe && window.__probe.full !== null", polling=50, timeout=60_000)
    except Exception:  # noqa: BLE001 - (printed as nan)
        return float("nan")
    return page.evaluate("() => window.__probe.full")


def batch_changes(page, received: list[int], n: int) -> tuple[list[float], list[float], list[int]]:
    """B typed anew (mini-batch; every τ run again on the server): the Enter key until the chart draws the new B's run
    of the page's τ (a partial record) and until it holds every τ's, timed in the page; the bytes received."""
    field = page.locator(".dbls-tune input[aria-label='Batch size B']")
    first, every, sizes = [], [], []
    for b in (n // 4 - 1, n // 4 - 2, n // 4 - 3):
        ready = page.evaluate(READY)
        n0 = len(received)
        field.fill(str(b))
        arm(page, READY)
        field.press("Enter")
        redrawn(page, time.perf_counter(), ready, received, n0)
        first.append(armed_ms(page))
        every.append(every_tau_ms(page))
        page.wait_for_selector(IDLE, state="attached")
        page.wait_for_timeout(300)
        sizes.append(sum(received[n0:]))
    return first, every, sizes


def frame_times(page, act: str, n: int, root: str = ".dbls") -> list[float]:
    """``act`` (JS, called with the chart's root (the first ``root`` in the page), its view and i) n times in the page:
    each until the frame after it."""
    return page.evaluate("""([src, n, sel]) => new Promise((done) => {
        const act = eval(src), root = document.querySelector(sel), out = [];
        let i = 0;
        const one = () => {
            if (i >= n) return done(out);
            const t0 = performance.now();
            act(root, dbl(root).view, i);
            requestAnimationFrame(() => { out.push(performance.now() - t0); i++; setTimeout(one, 30); });
        };
        one();
    })""", [act, n, root])


def step_times(page, steps: int, root: str = ".dbls") -> list[float]:
    """Next and Back clicked in the page: the click until the frame after the step is drawn."""
    return frame_times(page, "(root, v, i) => root.querySelector(i % 10 < 5 ? '[data-go=next]' : '[data-go=back]').click()",
                       steps, root)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--moves", type=int, default=8)
    ap.add_argument("--steps", type=int, default=60)
    args = ap.parse_args()
    with against_bare("perceptron", args.moves) as (browser, app, ref, ref_in, bare_first):
        ref50, ref_in50 = statistics.median(ref), statistics.median(ref_in)
        print(line("bare Streamlit: slider → chart redrawn", ref))
        print(line("  the same, timed in the page", ref_in))
        for name, query in [("XOR, cyclic", f"ds=XOR&n_xor={args.n}"),
                            ("blobs, mini-batch B = N/4", f"ds=Blobs&n_blobs={args.n}&variant=mini-batch&B={args.n // 4}")]:
            ctx, tab, received, first = open_tab(browser, f"{app}/perceptron?{query}")
            times, sizes, reruns, inpage = tau_moves(tab, args.moves, received)
            print(f"\nPerceptron, {name}, N = {args.n}:")
            print(f"  first chart in a new tab: {first:.0f} ms (bare app's: {bare_first:.0f} ms, "
                  f"{first / bare_first:.2f}×)")
            print("  " + line("move τ → its run drawn (in the browser)", times, ref50))
            print("  " + line("  the same, timed in the page", inpage, ref_in50))
            print("  " + line("move τ → the page's rerun done (status…)", reruns, ref50))
            print(f"  bytes received per τ move: median {statistics.median(sizes) / 1000:.1f} KB")
            ntimes, nsizes, nin, nevery = new_runs(tab, received, query)
            print("  " + line("new data seed → its τ drawn", ntimes, ref50))
            print("  " + line("  the same, timed in the page", nin, ref_in50))
            print("  " + line("  … → every τ drawn, timed in the page", nevery, ref_in50))
            print(f"  bytes received per new set of runs: median {statistics.median(nsizes) / 1000:.1f} KB")
            start = "mini-batch" if "mini-batch" in query else "cyclic"
            timed: dict[str, list[float]] = {}
            quick_variants(tab, received, start, 3, timed)
            aheads, asizes = [], []
            for seed in (21, 22):
                n0 = len(received)
                ready, _ = type_seed(tab, seed)
                tab.wait_for_function("(b) => { const e = document.querySelector('.dbls'), r = e && e.dataset.ready; return r && r !== b; }",
                                      arg=ready, polling="raf", timeout=90_000)
                aheads.append(ahead_kept(tab))  # (from the new data drawn)
                tab.wait_for_selector(IDLE, state="attached")
                tab.wait_for_timeout(300)
                asizes.append(sum(received[n0:]))
            print("  " + line("new data drawn → the other variants made ahead, kept", aheads)
                  + f"; {statistics.median(asizes) / 1000:.0f} KB received with the new data")
            server_has = {*VARIANTS.values()}  # (made ahead: the mini-batch's at the box's B)
            vsizes = variant_changes(tab, received, start, timed, server_has)
            ctx2, tab2, received2, _ = open_tab(browser, tab.url)  # a second student: the same data and settings
            tab2.wait_for_selector(IDLE, state="attached")
            tab2.wait_for_timeout(1500)  # its first chart's work done (plotly.js, the lesson's formulas)
            vsizes += variant_changes(tab2, received2, start, timed, server_has)
            ctx2.close()
            for kind, what in [("built", "variant, new to the server → its τ drawn"),
                               ("built every τ", "  … → every τ drawn"),
                               ("server", "variant, new to this tab → drawn"),
                               ("ahead", "variant, made ahead and kept → drawn"),
                               ("browser", "variant, drawn before in this tab → drawn")]:
                times = [t for t in timed.get(kind, []) if t == t]  # (NaN: a change whose click was not seen)
                print("  " + (line(what, times, ref_in50) + "  (in the page)" if times else f"{what}: none this run"))
            print(f"  bytes received per variant change: median {statistics.median(vsizes) / 1000:.1f} KB")
            if "mini-batch" in query:
                bfirst, bevery, bsizes = batch_changes(tab, received, args.n)
                print("  " + line("new B → its τ drawn", bfirst, ref_in50) + "  (in the page)")
                print("  " + line("  … → every τ drawn", bevery, ref_in50) + "  (in the page)")
                print(f"  bytes received per new B: median {statistics.median(bsizes) / 1000:.1f} KB")
            st = step_times(tab, args.steps)
            print("  " + line("Next / Back → step drawn", st))
            ctx.close()

@contextlib.contextmanager
def against_bare(page_path: str, moves: int):
    """The bare app and the app served, a Chromium with both warm (the app at ``page_path``, as a lecturer's would
    be), and the bare rerun measured: yields (browser, app URL, bare reruns, bare in-page times, bare first chart)."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with served("bench/bare_app.py") as bare, served("app.py") as app, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                      "--disable-dev-shm-usage"])
        warm = browser.new_page()
        bare_page(warm, bare)
        warm.goto(f"{app}/{page_path}")
        warm.wait_for_selector(".dbls[data-ready]", state="attached", timeout=90_000)
        warm.close()
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        ref, bare_first, ref_in = bare_rerun(page, bare, 2 * moves)
        try:
            yield browser, app, ref, ref_in, bare_first
        finally:
            browser.close()


def open_tab(browser, url: str):
    """A new tab at ``url`` until its scene is drawn, counting the bytes it receives: (ctx, tab, received, ms)."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.add_init_script(STATE_OF)  # (the script's dbl(el): what the renderer keeps of an element)
    tab = ctx.new_page()
    received: list[int] = []
    tab.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(len(payload))))
    t0 = time.perf_counter()
    tab.goto(url)
    tab.wait_for_selector(".dbls[data-ready]", state="attached", timeout=90_000)
    tab.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    return ctx, tab, received, (time.perf_counter() - t0) * 1000


def record_moves(page, label: str, moves: int, received: list[int], root: str = ".dbls") -> tuple[list[float], list[int]]:
    """Move the page's slider labelled ``label`` (a control whose move sends a new scene record) down and up: the key
    press until the chart has drawn the new record, plus one frame; and the bytes the server sent for each move."""
    ready = f"() => document.querySelector({root!r}).dataset.ready || ''"
    slider = slider_of(page, label)
    times, sizes = [], []
    for i in range(moves):
        key = "ArrowLeft" if i < moves // 2 else "ArrowRight"
        page.wait_for_selector(IDLE, state="attached")
        page.wait_for_timeout(200)
        before = page.evaluate(ready)
        n0 = len(received)
        slider.focus()
        t = time.perf_counter()
        page.keyboard.press(key)
        ms, size = redrawn(page, t, before, received, n0, root)
        times.append(ms)
        sizes.append(size)
    return times, sizes


def bare_page(page, base: str) -> None:
    page.goto(base)
    page.wait_for_function("() => { const g = document.querySelector('.js-plotly-plot'); return g && g._fullLayout; }")


if __name__ == "__main__":
    main()
