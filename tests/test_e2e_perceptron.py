"""The Perceptron page in a real Chromium: step, back, scrub, play, and a new run on τ, drawn from the scene."""

from __future__ import annotations

import random

import pytest
from e2e_helpers import (
    CHART,
    SCENE,
    assert_no_exception,
    chart_control,
    chart_meta,
    open_page,
    scene_button,
    scene_drawn,
    scene_state,
    set_chart_control,
    wait_for_rerun,
    wait_for_scene,
    wait_for_step,
)
from playwright.sync_api import Page, expect


def open_perceptron(page: Page, base: str) -> None:
    open_page(page, base, 'perceptron')
    wait_for_scene(page)


def sent_messages(page: Page) -> list[int]:
    """Sizes of the websocket frames the browser sends from now on."""
    sizes: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sizes.append(len(payload))))
    return sizes


def test_textbook_step_back_and_play_to_convergence(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    meta = chart_meta(page)
    assert meta["n_updates"] == 7 and meta["converged"]
    assert scene_state(page)["text"].startswith("<b>Step 0</b>")
    assert scene_drawn(page)["line"]["x"] == []  # w = 0: no boundary yet

    scene_button(page, "next")
    wait_for_step(page, 1)
    assert "x₁ = (3, 3), y = +1 misclassified" in scene_state(page)["text"]
    x1 = scene_drawn(page)["line"]["x"]
    assert len(x1) == 2  # the line appeared
    assert page.locator(f"{SCENE} .dbls-over line").count() >= 1  # and is drawn
    for _ in range(8):
        scene_button(page, "next")
    wait_for_step(page, 9)
    text = scene_state(page)["text"].replace("<br>", " ")
    assert "w ← (1, 1) + 1·(−1)·(1, 1) = (0, 0), b ← −1 + 1·(−1) = −2" in text
    scene_button(page, "back")
    wait_for_step(page, 8)
    assert scene_state(page)["at"] == "Step 8 of 15"

    scene_button(page, "fast")  # play from step 8 to the end, in the browser
    wait_for_step(page, 15, timeout=15_000)
    assert "Converged" in scene_state(page)["text"]
    assert scene_state(page)["state"].endswith("no point misclassified (0 of 3)")
    assert scene_drawn(page)["line"]["x"] != x1  # the boundary moved
    assert_no_exception(page)


def test_stepping_sends_nothing_to_the_server(fresh_page: Page, app_server: str) -> None:
    page = fresh_page  # (it listens to the page's events)
    open_perceptron(page, app_server)
    wait_for_rerun(page)
    sizes = sent_messages(page)
    page.reload()  # listen from the start of a session
    wait_for_scene(page)
    wait_for_rerun(page)
    page.wait_for_function(AHEAD_KEPT, arg=["cyclic", "random", "batch", "minibatch:1"], timeout=30_000)  # (asked for, once)
    wait_for_rerun(page)
    page.wait_for_timeout(500)
    before = len(sizes)
    for _ in range(5):
        scene_button(page, "next")
    page.keyboard.press("End")
    wait_for_step(page, 15)
    page.keyboard.press("ArrowLeft")
    wait_for_step(page, 14)
    page.wait_for_timeout(300)
    assert len(sizes) == before  # Next, the keys and the slider move in the browser only


def test_scrub_slider_jumps_to_a_step(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    rng = page.locator(f"{SCENE} .dbls-range")
    rng.fill("15")  # the range input's value: its last stop
    wait_for_step(page, 15)
    assert scene_drawn(page)["ring"]["x"] == []  # converged: M is empty
    rng.fill("3")
    wait_for_step(page, 3)
    assert scene_drawn(page)["ring"]["x"] == [1.0]  # after 2 updates only x₃ = (1, 1) is misclassified


def test_a_page_opened_draws_the_run_of_its_tau_control_first(page: Page, app_server: str) -> None:
    """Opened from another page, the chart can be ready before the page has drawn its τ control (its code still
    loading): it waits for the control rather than draw another τ's run under it first. Every record drawn, from its
    first frame, holds the τ the control shows."""
    from e2e_helpers import goto_page

    page.goto(app_server)
    wait_for_rerun(page)
    page.evaluate("""() => { window.__taus = []; new MutationObserver((records) => {
        for (const r of records) { const v = dbl(r.target).view;
            if (r.attributeName === 'data-ready' && r.target.dataset.ready && v && v.m.run) window.__taus.push(v.m.run.tau); }
    }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-ready']}); }""")
    for _ in range(3):  # (the race is won or lost afresh at each visit)
        goto_page(page, app_server, "Perceptron", "perceptron")
        wait_for_scene(page)
        goto_page(page, app_server, "Home", "")
    taus = page.evaluate("() => window.__taus")
    assert len(taus) >= 3 and set(taus) == {1.0}, taus
    assert_no_exception(page)


def test_changing_tau_makes_a_new_run_at_the_same_step(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    assert chart_meta(page)["tau"] == 1.0
    for _ in range(4):
        scene_button(page, "next")
    wait_for_step(page, 4)
    slider = chart_control(page, "Step size")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta.tau === 0.5; }}")
    page.wait_for_function("() => location.search.includes('tau=0.5')")  # the view is in the URL, once τ rests
    assert scene_state(page)["step"] == 4  # the lecturer keeps the moment of the run she was showing
    assert "0.5·(" in scene_state(page)["text"] or "no update" in scene_state(page)["text"]
    assert_no_exception(page)


def test_xor_never_converges(page: Page, app_server: str) -> None:
    open_perceptron(page, app_server)
    page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="XOR").first.click()
    page.wait_for_function(
        f"() => {{ const g = document.querySelector({CHART!r}); return g && g.layout.meta && !g.layout.meta.converged; }}"
    )
    expect(page.get_by_text("No convergence after 1,000 steps")).to_be_visible()
    expect(page.get_by_text("not linearly separable").first).to_be_visible()
    page.locator(f"{SCENE} .dbls-range").fill("1000")  # every step reachable: no frame cap
    wait_for_step(page, 1000)
    assert scene_state(page)["at"] == "Step 1,000 of 1,000"
    assert_no_exception(page)


def _delta_messages(frames: list):
    """The delta messages (ForwardMsg) the server sent in ``frames`` (websocket payloads)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    for raw in frames:
        if isinstance(raw, str):
            continue
        msg = ForwardMsg()
        msg.ParseFromString(raw)
        if msg.WhichOneof("type") == "delta":
            yield msg


def _deltas(frames: list) -> list[tuple[tuple[int, ...], str]]:
    """The (delta path, fragment id) of every element the server sent in ``frames`` (websocket payloads)."""
    return [(tuple(msg.metadata.delta_path), msg.delta.fragment_id) for msg in _delta_messages(frames)]


def _widget_labels(frames: list) -> set[str]:
    """The labels of the widgets the server sent in ``frames`` (websocket payloads)."""
    elements = [getattr(m.delta.new_element, m.delta.new_element.WhichOneof("type"))
                for m in _delta_messages(frames) if m.delta.WhichOneof("type") == "new_element"]
    return {e.label for e in elements if hasattr(e, "label")}


HOLD_SENDS = """() => {  // the browser's messages to the server held back (a server that does not answer)
    const send = WebSocket.prototype.send, held = [];
    WebSocket.prototype.send = function (data) { held.push([this, data]); };
    window.__dblRelease = () => { WebSocket.prototype.send = send; for (const [ws, data] of held) send.call(ws, data);
                                  return held.length; };
    window.__dblHeld = () => held.length;
}"""


# the chart keeps these variants' runs (app_pages/perceptron.py makes them ahead once the chart is drawn and left alone)
AHEAD_KEPT = """(slots) => { const r = document.querySelector('.dbls'), kept = dbl(r).memo;
    return Boolean(kept && slots.every((s) => kept.records.has(s))); }"""


def ready(page: Page) -> str:
    """The identity of the record the chart last drew (its ``data-ready``)."""
    return page.evaluate(f"() => document.querySelector({SCENE!r}).dataset.ready")


def pick_variant(page: Page, text: str) -> None:
    set_chart_control(page, "Variant", text)


def shown_variant(page: Page, variant: str) -> None:
    page.wait_for_function("(v) => { const g = document.querySelector('.dbls .dbls-plot');"
                           " return g && g.layout && g.layout.meta && g.layout.meta.variant === v; }", arg=variant)


def test_a_variant_drawn_before_comes_back_in_the_browser(page: Page, app_server: str) -> None:
    """The chart keeps the variants it drew (the record's memo): back to one, it draws that run again while the
    server has not heard of the change yet, the same run as before; after another setting changed, it does not."""
    page.goto(app_server.rstrip("/") + "/perceptron?ds=XOR&n_xor=200&step=40")
    wait_for_rerun(page)
    wait_for_scene(page)
    wait_for_step(page, 40)
    cyclic = chart_meta(page), scene_state(page)
    assert cyclic[0]["variant"] == "cyclic"
    pick_variant(page, "random")
    shown_variant(page, "random")
    wait_for_rerun(page)
    assert chart_meta(page)["n_updates"] != cyclic[0]["n_updates"]

    page.evaluate(HOLD_SENDS)
    pick_variant(page, "cyclic")
    shown_variant(page, "cyclic")  # drawn with the server not told
    assert chart_meta(page) == cyclic[0]  # the run the server sent for cyclic, at the step the chart stood at
    assert scene_state(page) == cyclic[1]
    assert page.evaluate("() => window.__dblRelease()") >= 1  # the change was still to be sent
    wait_for_rerun(page)
    page.wait_for_timeout(300)
    assert chart_meta(page) == cyclic[0] and "variant=" not in page.url  # the server's record: the same run (cyclic is the default)

    # another view (the frames): the same runs, kept; one comes back in the page's new view, and the server's record
    # of it, in that view, is not drawn again
    page.get_by_test_id("stRadio").filter(has_text="Frames").get_by_text("updates only").click()
    wait_for_rerun(page)
    page.wait_for_timeout(300)
    page.evaluate(HOLD_SENDS)
    pick_variant(page, "random")
    shown_variant(page, "random")
    stops = int(page.locator(f"{SCENE} .dbls-range").get_attribute("max"))
    assert stops < chart_meta(page)["n_steps"]  # its updates only, as the page now shows them (kept: every step)
    drawn = ready(page)
    page.evaluate("() => window.__dblRelease()")
    wait_for_rerun(page)
    page.wait_for_timeout(400)
    assert ready(page) == drawn  # the server's record was this drawing: not drawn twice

    # another rule: the kept runs were made with the old one and are dropped; the new rule's made ahead are drawn
    page.get_by_test_id("stRadio").filter(has_text="Update when").get_by_text("y·a < 0").click()
    page.wait_for_function("() => location.search.includes('rule=')")
    wait_for_rerun(page)
    page.wait_for_function("() => dbl(document.querySelector('.dbls')).view.m.run.update_on === 'negative'")
    page.wait_for_function(AHEAD_KEPT, arg=["random", "cyclic", "batch"], timeout=30_000)  # (made ahead, this rule)
    page.evaluate(HOLD_SENDS)
    pick_variant(page, "cyclic")
    shown_variant(page, "cyclic")  # drawn with the server not told: the new rule's cyclic run, never the old one's
    assert page.evaluate("() => dbl(document.querySelector('.dbls')).view.m.run.update_on") == "negative"
    page.evaluate("() => window.__dblRelease()")
    wait_for_rerun(page)
    assert_no_exception(page)


def _within(page: Page, holds, seconds: float = 30) -> bool:
    """Whether ``holds()`` comes true within ``seconds`` (read every 50 ms: the page's events are taken meanwhile)."""
    for _ in range(int(seconds * 20)):
        if holds():
            return True
        page.wait_for_timeout(50)
    return bool(holds())


def test_a_page_control_reruns_the_page_alone_and_the_dataset_reruns_the_app(fresh_page: Page, app_server: str) -> None:
    """The page is a fragment (glue/*.py, ``page()``), and its live part another inside it: the variant sends the
    live part's elements again and none of the sidebar's (delta paths under container 1) or of the page's other
    settings; the rule reruns the page; a new data seed in the sidebar reruns the whole app."""
    page = fresh_page  # (it listens to the page's events)
    frames: list = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(app_server.rstrip("/") + "/perceptron?ds=XOR&n_xor=200")
    wait_for_rerun(page)
    wait_for_scene(page)
    assert chart_meta(page)["variant"] == "cyclic"
    n0 = len(frames)
    pick_variant(page, "random")
    shown_variant(page, "random")
    page.wait_for_function("() => location.search.includes('variant=random')")  # (the rerun it asked for has run)
    wait_for_rerun(page)
    page.wait_for_timeout(200)
    sent = _deltas(frames[n0:])
    assert sent, "the variant sent nothing"
    assert all(fragment for _, fragment in sent)  # every element of that rerun is the page's
    assert not [path for path, _ in sent if path[0] == 1]  # and the sidebar was not sent again
    assert "variant=random" in page.url
    # the variant is a live control (the chart's own: glue.controls): it reruns the page's live part
    # (glue.shared.live_fragment), not its other settings; the rule is not, and reruns the page, the live part with it
    assert not {"Update when", "Order seed", "Max steps"} & _widget_labels(frames[n0:])
    n_rule = len(frames)
    page.get_by_test_id("stRadio").filter(has_text="Update when").get_by_text("y·a < 0").click()
    page.wait_for_function("() => location.search.includes('rule=')")  # (written at the click, before the rerun)
    assert _within(page, lambda: {"Update when", "Order seed", "Max steps"} <= _widget_labels(frames[n_rule:]))
    assert "rule=" in page.url

    n1 = len(frames)
    field = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInput").filter(has_text="Data seed").locator("input")
    field.fill("3")
    field.press("Enter")
    shown_variant(page, "random")
    page.wait_for_function("() => location.search.includes('data_seed=3')")
    assert _within(page, lambda: [path for path, _ in _deltas(frames[n1:]) if path[0] == 1])  # the sidebar ran again
    # and the page inside it
    assert _within(page, lambda: [path for path, fragment in _deltas(frames[n1:]) if path[0] == 0 and fragment])
    assert "data_seed=3" in page.url
    assert_no_exception(page)


# each record the chart draws from now on, as drawn (window.__seq: two at most): whether partial, its runs, and the
# run it shows; read when the renderer marks it drawn (data-ready), so that two records drawn within one frame (under
# load) are both seen
RECORDS_DRAWN = """() => {
    const seq = window.__seq = [], root = document.querySelector('.dbls');
    let last = dbl(root).view.m.h;
    const seen = new MutationObserver(() => {
        const v = dbl(root).view;
        if (v && v.m.h !== last && root.dataset.ready === dbl(root).id) {
            last = v.m.h;
            seq.push({partial: Boolean(last.partial), runs: last.runs.length, tau: v.m.run.tau, B: v.m.run.batch_size,
                      step: v.step, W: Array.from(v.m.W), order: Array.from(v.m.order)});
        }
        if (seq.length >= 2) seen.disconnect();
    });
    seen.observe(root, {attributes: true, attributeFilter: ['data-ready']});
}"""


# Next's place on the page at every frame from now on, each change once (window.__nextTops)
NEXT_MOVES = """() => {
    const tops = window.__nextTops = [], t0 = performance.now();
    const tick = () => {
        const b = document.querySelector('.dbls [data-go=next]');
        if (b) { const y = Math.round(b.getBoundingClientRect().top + window.scrollY); if (tops[tops.length - 1] !== y) tops.push(y); }
        if (performance.now() - t0 < 20000) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
}"""


@pytest.mark.parametrize("query, first", [("n_xor=200&variant=mini-batch&B=50&max_steps=5000", True),
                                          ("n_xor=40", False)])
def test_new_data_sends_the_tau_shown_first_where_the_last_build_was_slow(page: Page, app_server: str, query: str,
                                                                         first: bool) -> None:
    """A new data seed (the sidebar: the whole app reruns) after a build of every τ that took 0.15 s or more (a
    mini-batch of 5,000 steps, about a second here): the chart draws the run of the page's τ first (a partial record),
    then the record of every τ, the same run at that τ; after a quick one (cyclic, 40 points, a few ms) the record of
    every τ at once, and nothing before it. (A data seed never used before on this server: none of its runs made.)"""
    page.goto(app_server.rstrip("/") + f"/perceptron?ds=XOR&{query}&tau=0.5")
    wait_for_rerun(page)
    wait_full(page)
    page.evaluate(RECORDS_DRAWN)
    page.evaluate(NEXT_MOVES)
    seed = random.randrange(10_000, 2**31 - 1)
    field = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInput").filter(has_text="Data seed").locator("input")
    field.fill(str(seed))
    field.press("Enter")
    page.wait_for_function("(n) => window.__seq.length === n", arg=2 if first else 1, timeout=60_000)
    wait_full(page)
    page.wait_for_timeout(500)
    seq = page.evaluate("() => window.__seq")
    assert [(r["partial"], r["runs"], r["tau"]) for r in seq] == ([(True, 1, 0.5), (False, 10, 0.5)] if first
                                                                 else [(False, 10, 0.5)])
    if first:
        assert seq[0]["W"] == seq[1]["W"] and seq[0]["order"] == seq[1]["order"]  # the same run, twice
    # the controls move once at most (the words held at the new runs' tallest), never down and back as the partial
    # record, then every τ's, then the longest of them all are held
    page.wait_for_timeout(1500)
    tops = page.evaluate("() => window.__nextTops")
    assert len(tops) <= 2, tops
    assert f"data_seed={seed}" in page.url
    assert_no_exception(page)


def test_a_new_batch_size_draws_its_tau_first_then_every_tau(page: Page, app_server: str) -> None:
    """B is the live part's own control and its runs are made anew: the chart draws the run of the page's τ first (a
    partial record), at the step it stood at, and then, asked by the chart, the record of every τ, whose run at that
    τ is the same one."""
    page.goto(app_server.rstrip("/") + "/perceptron?ds=XOR&n_xor=200&variant=mini-batch&B=50&step=30")
    wait_for_rerun(page)
    wait_for_scene(page)
    wait_for_step(page, 30)
    page.evaluate(RECORDS_DRAWN)
    field = chart_control(page, "Batch size B")
    field.fill("37")
    field.press("Enter")
    page.wait_for_function("() => window.__seq.length >= 2", timeout=60_000)
    first, every = page.evaluate("() => window.__seq")[:2]  # (the records drawn since, in order)
    assert (first["partial"], first["runs"], first["tau"], first["B"], first["step"]) == (True, 1, 1.0, 37, 30)
    assert (every["partial"], every["runs"], every["tau"], every["B"], every["step"]) == (False, 10, 1.0, 37, 30)
    assert first["W"] == every["W"] and first["order"] == every["order"]  # the same run, twice
    wait_for_rerun(page)
    assert "B=37" in page.url
    assert_no_exception(page)


def test_a_batch_size_past_n_is_named_and_the_chart_draws_b_equal_n(page: Page, app_server: str) -> None:
    """B typed past N: the page names it and runs B = N; the chart draws that run and is not left waiting (dimmed) for
    a run of the B its box shows, nor when the variant goes and comes back."""
    page.goto(app_server.rstrip("/") + "/perceptron?ds=XOR&n_xor=60&variant=mini-batch&B=20")
    wait_for_rerun(page)
    wait_full(page)
    field = chart_control(page, "Batch size B")
    field.fill("99999")
    field.press("Enter")
    page.wait_for_function("() => { const v = dbl(document.querySelector('.dbls')).view; return v && v.m.run.batch_size === 60; }",
                           timeout=60_000)
    wait_full(page)
    expect(page.get_by_text("B = 99,999 is not a batch size here")).to_be_visible()
    busy = "() => document.querySelector('.dbls').getAttribute('aria-busy')"
    assert page.evaluate(busy) != "true"
    for variant, shown in (("cyclic", "cyclic"), ("mini-batch", "minibatch")):
        pick_variant(page, variant)
        shown_variant(page, shown)
        wait_for_rerun(page)
        page.wait_for_timeout(300)
        assert page.evaluate(busy) != "true", variant
    assert page.evaluate("() => dbl(document.querySelector('.dbls')).view.m.run.batch_size") == 60
    assert_no_exception(page)


def wait_full(page: Page) -> None:
    """Wait until the chart holds the runs of every τ (not a partial record) and the page has finished."""
    page.wait_for_function("() => { const r = document.querySelector('.dbls'), v = r && dbl(r).view;"
                           " return v && !v.m.h.partial && r.dataset.ready === dbl(r).id; }", timeout=60_000)
    wait_for_rerun(page)


def test_a_new_b_keeps_the_other_variants(page: Page, app_server: str) -> None:
    """The mini-batch of the B the page's box shows is made ahead too, and drawn at once; the kept runs of cyclic
    (which B does not change), and of batch, made ahead, come back at once after a new B, and mini-batch comes back
    with the kept run of the B its box shows."""
    page.goto(app_server.rstrip("/") + "/perceptron?ds=XOR&n_xor=200")
    wait_for_rerun(page)
    wait_for_scene(page)
    busy = "() => { const r = document.querySelector('.dbls'); return [r.classList.contains('dbls-waiting'), " \
           "r.getAttribute('aria-busy')]; }"
    # (made ahead: the mini-batch's at the box's B, N/4 = 50)
    page.wait_for_function(AHEAD_KEPT, arg=["cyclic", "random", "batch", "minibatch:50"], timeout=30_000)
    page.evaluate(HOLD_SENDS)
    pick_variant(page, "mini-batch")
    shown_variant(page, "minibatch")  # drawn with the server not told
    assert page.evaluate("() => dbl(document.querySelector('.dbls')).view.m.run.batch_size") == 50
    assert page.evaluate(busy) == [False, "false"]
    assert page.evaluate("() => window.__dblRelease()") >= 1
    wait_full(page)
    field = chart_control(page, "Batch size B")
    field.fill("37")
    field.press("Enter")
    page.wait_for_function("() => dbl(document.querySelector('.dbls')).view.m.run.batch_size === 37")
    wait_full(page)

    page.evaluate(HOLD_SENDS)
    pick_variant(page, "cyclic")
    shown_variant(page, "cyclic")  # kept before B changed: drawn with the server not told
    assert page.evaluate(busy) == [False, "false"]
    pick_variant(page, "batch")  # never drawn, made ahead: drawn with the server not told
    shown_variant(page, "batch")
    assert page.evaluate(busy) == [False, "false"]
    drawn = ready(page)
    page.evaluate("() => window.__dblRelease()")
    wait_full(page)
    page.wait_for_timeout(300)
    assert ready(page) == drawn and "variant=batch" in page.url  # the server's record of it: not drawn again

    page.evaluate(HOLD_SENDS)  # back to mini-batch: the kept run of the B its box shows, 37 (not the first, 50)
    pick_variant(page, "mini-batch")
    shown_variant(page, "minibatch")
    assert page.evaluate("() => dbl(document.querySelector('.dbls')).view.m.run.batch_size") == 37
    page.evaluate("() => window.__dblRelease()")
    wait_full(page)
    assert_no_exception(page)
