"""glue.ahead: the Perceptron page's other variants made ahead, and the chart's ask for them.

The browser's side (the ask, the bundle kept, a kept run drawn with the server not told) is tested in Chromium in
tests/test_e2e_scene.py and tests/test_e2e_perceptron.py.
"""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from glue.ahead import AHEAD_N, AHEAD_STEPS, ASK_BYTES, Ahead, Ask, ahead_of, made_ahead_kind, parse_ask
from glue.builds import memo_key, run_params, settings_key


def settings(max_steps: int = 1_000) -> tuple:
    return ("w0", (0.0, 0.0)), ("b0", 0.0), ("max_steps", max_steps), ("seed", 3)


def test_what_is_made_ahead():
    assert ahead_of(run_params("cyclic", 50, settings()), 200) == ("random", "batch", "minibatch")
    assert ahead_of(run_params("minibatch", 50, settings()), 2_000) == ("cyclic", "random", "batch")  # (another B: typed)
    assert ahead_of(run_params("random", 1, settings()), AHEAD_N + 1) == ()
    assert ahead_of(run_params("random", 1, settings(AHEAD_STEPS + 1)), 200) == ()  # (a long run: seconds, megabytes)
    assert made_ahead_kind(run_params("minibatch", 50, settings()), 200)
    assert not made_ahead_kind(run_params("minibatch", 50, settings(AHEAD_STEPS + 1)), 200)
    assert not made_ahead_kind(run_params("cyclic", 1, settings()), AHEAD_N + 1)


def ask(**kw) -> str:
    return json.dumps({"have": ["cyclic"], "last": False, "key": "k", "shows": "cyclic", **kw})


@pytest.mark.parametrize("raw", [
    None, 5, b"{}", "", "not json", "[]", "{}", "[" * 1_500,  # (too deep for json: RecursionError)
    "x" * (ASK_BYTES + 1), ask(have="cyclic"), ask(have=[1]), ask(have=["s"] * 17), ask(last="yes"), ask(key=None),
    json.dumps({"have": [], "last": False, "key": "k"})])
def test_anything_but_the_chart_s_ask_is_ignored(raw):
    assert parse_ask(raw) is None


def test_the_chart_s_ask_is_read():
    assert parse_ask(ask(have=["cyclic", "minibatch:50"], last=True)) == Ask(
        frozenset({"cyclic", "minibatch:50"}), True, "k", "cyclic")


class Builds:
    """A stand-in for the page's build: records what it was asked, waits for ``gate`` when given, fails on "bad"."""

    def __init__(self, gate: threading.Event | None = None):
        self.calls, self.gate = [], gate

    def __call__(self, X, y, params):
        self.calls.append(params)
        if self.gate is not None:
            assert self.gate.wait(10)
        if params[0][1] == "bad":
            raise ValueError("cannot")
        return (f"record of {params[0][1]}",)


def params_of(group: str):
    return lambda v: (("variant", v), ("group", group))


def key_of(params: tuple) -> str:
    return repr(params)


def wait_all(ahead: Ahead) -> None:
    for _, f in list(ahead.runs.values()):
        f.exception(timeout=10)


def test_the_variants_asked_for_are_made_in_the_background_and_sent_once_made():
    builds = Builds(threading.Event())
    ahead = Ahead(builds)
    got, pending = ahead.records(None, None, "A", params_of("A"), key_of, ("random", "batch"), frozenset({"random"}))
    assert got == [] and pending  # started, not made yet; what the chart has is not made again
    builds.gate.set()
    wait_all(ahead)
    got, pending = ahead.records(None, None, "A", params_of("A"), key_of, ("random", "batch"), frozenset({"random"}))
    assert got == [("record of batch",)] and not pending
    assert [p[0][1] for p in builds.calls] == ["batch"]  # made once
    assert ahead.future(key_of(params_of("A")("batch"))).result() == ("record of batch",)  # (compute waits for it)


def test_one_group_at_a_time_and_the_page_s_own_results_are_taken_as_made():
    builds = Builds(threading.Event())
    ahead = Ahead(builds)
    ahead.records(None, None, "A", params_of("A"), key_of, ("random",))
    got, pending = ahead.records(None, None, "B", params_of("B"), key_of, ("random", "batch"))
    assert got == [] and pending and len(builds.calls) <= 1  # B waits while A's are under way
    ahead.put(key_of(params_of("B")("batch")), "B", ("the page's batch",))  # made on the page
    builds.gate.set()
    wait_all(ahead)
    got, pending = ahead.records(None, None, "B", params_of("B"), key_of, ("random", "batch"))
    assert ("the page's batch",) in got and pending  # B's random now starts; batch is not built again
    wait_all(ahead)
    got, pending = ahead.records(None, None, "B", params_of("B"), key_of, ("random", "batch"))
    assert sorted(got) == [("record of random",), ("the page's batch",)] and not pending
    assert [p[0][1] for p in builds.calls] == ["random", "random"]  # A's and B's


def test_a_failed_build_is_tried_again_and_the_store_stays_bounded():
    builds = Builds()
    ahead = Ahead(builds, keep=8)
    ahead.records(None, None, "A", params_of("A"), key_of, ("bad",))
    wait_all(ahead)
    assert ahead.future(key_of(params_of("A")("bad"))) is None  # (the page builds it itself, and says why)
    ahead.records(None, None, "A", params_of("A"), key_of, ("bad",))
    wait_all(ahead)
    assert len(builds.calls) == 2
    for g in range(30):
        ahead.put(f"k{g}", "G", ("x",))
    assert len(ahead.runs) <= 8


def test_the_mini_batch_made_ahead_is_of_the_b_the_page_s_box_shows():
    """The page says the B its box shows: the mini-batch made ahead is of that B, every other setting the page's, so
    that its key is the one the page's own build of those settings looks for (glue.builds.run_params, as the page
    makes its settings); none past AHEAD_STEPS steps."""
    X, y = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]), np.array([1, -1, 1])
    params = run_params("cyclic", 2, settings())
    asked = Ask(frozenset({"cyclic", "random"}), False, memo_key(X, y, params), "cyclic")
    builds = Builds()
    ahead = Ahead(builds)
    ahead.answer(X, y, params, asked, 2)
    wait_all(ahead)
    assert sorted(ahead.answer(X, y, params, asked, 2)) == [("record of batch",), ("record of minibatch",)]
    page_s = run_params("minibatch", 2, settings())  # what the page builds once its variant is mini-batch, B = 2
    assert page_s in builds.calls and page_s == (("variant", "minibatch"), ("batch_size", 2), *settings())
    assert ahead.future(settings_key(X, y, page_s)).result() == ("record of minibatch",)  # (compute finds it)
    assert ahead.answer(X, y, params, asked._replace(have=asked.have | {"batch", "minibatch:2"}), 2) is None  # (kept)
    builds = Builds()
    ahead = Ahead(builds)
    long_run = run_params("cyclic", 2, settings(AHEAD_STEPS + 1))
    ahead.answer(X, y, long_run, asked._replace(key=memo_key(X, y, long_run)), 2)
    wait_all(ahead)
    assert builds.calls == []
