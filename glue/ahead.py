"""Runs made ahead: the Perceptron page's other variants, made in the background once its chart has drawn a record and
is left alone, so that a first change of variant is drawn in the browser (app_pages/perceptron.py; the renderer's side is
``askAhead`` and ``keepAhead`` in viz/js/follow.js).

The chart asks with a trigger whose value is :func:`parse_ask`'s JSON; the page answers, once every variant asked for
is made, with :func:`viz.scene.bundle` of their records, which the chart keeps without drawing. No Streamlit here: the
page keeps one :class:`Ahead` for the server (``st.cache_resource``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NamedTuple

from glue.builds import memo_key, run_params, settings_key

AHEAD, AHEAD_N = ("cyclic", "random", "batch", "minibatch"), 2_000  # what is made ahead, and on at most how many points
AHEAD_STEPS = 1_000  # and at most how many steps (the default; at 100,000 a run takes about a second a τ)
KEEP = 48  # results held (each under a megabyte within AHEAD_N and AHEAD_STEPS) before the oldest finished ones go
ASK_BYTES = 2_000  # an ask longer than this is not one of the chart's


def slot_of(params: tuple) -> str:
    """The slot the chart keeps a record of these settings under (``slotOf`` in viz/js/follow.js): its variant, and a
    mini-batch's B."""
    p = dict(params)
    return f"minibatch:{p['batch_size']}" if p["variant"] == "minibatch" else p["variant"]


def _within(params: tuple, n: int) -> bool:
    """Whether runs of these settings on ``n`` points are small enough to be made ahead: at most AHEAD_N points and
    AHEAD_STEPS steps (past them each variant of every τ takes seconds of the workers, and a mini-batch's record
    megabytes: 3.5 MB at 5,000 steps)."""
    return n <= AHEAD_N and dict(params)["max_steps"] <= AHEAD_STEPS


def ahead_of(params: tuple, n: int) -> tuple[str, ...]:
    """The variants made ahead of the page's settings ``params`` on ``n`` points: cyclic, random, batch and mini-batch
    but the one shown (a mini-batch's at the B the page's box shows: :meth:`Ahead.answer`; the heaviest, made last:
    at 1,000 steps on N = 2,000 points 0.73 MB and 0.6 s of both cores at B = 500); none past :func:`_within`'s
    bounds."""
    return tuple(v for v in AHEAD if v != dict(params)["variant"]) if _within(params, n) else ()


def made_ahead_kind(params: tuple, n: int) -> bool:
    """Whether runs of these settings on ``n`` points are of a kind made ahead (and a page's own are kept as made)."""
    return dict(params)["variant"] in AHEAD and _within(params, n)


class Ask(NamedTuple):
    """What the chart says when it asks: the slots it keeps (``have``: variants, "minibatch:B"), whether it asks for
    the last time, the memo key of the record it shows and that record's slot (``shows``)."""

    have: frozenset
    last: bool
    key: str
    shows: str


def parse_ask(raw) -> Ask | None:
    """The chart's ask (JSON: ``{"have": [str], "last": bool, "key": str, "shows": str}``), or None for anything else
    (a hand-made message included): never an exception."""
    if not isinstance(raw, str) or len(raw) > ASK_BYTES:
        return None
    try:
        got = json.loads(raw)
    except Exception:  # noqa: BLE001 - malformed, too deep (RecursionError): not an ask
        return None
    if not isinstance(got, dict):
        return None
    have, last, key, shows = got.get("have"), got.get("last"), got.get("key"), got.get("shows")
    if not (isinstance(have, list) and len(have) <= 16 and all(isinstance(s, str) for s in have)
            and isinstance(last, bool) and isinstance(key, str) and isinstance(shows, str)):
        return None
    return Ask(frozenset(have), last, key, shows)


class Ahead:
    """The runs made ahead for every session: key → (group, Future of ``make(X, y, params)``), made by one thread, one
    group (points and settings but the variant) at a time, so that a page's own build, in the same workers, waits
    behind one group at most. Results the page built itself are put here too (:meth:`put`), so an ask never builds in
    the foreground."""

    def __init__(self, make: Callable, keep: int = KEEP):
        self.make, self.keep = make, keep
        self.lock = threading.Lock()
        self.runs: dict[str, tuple[str, Future]] = {}
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dbl-ahead")

    def _add(self, key: str, group: str, future: Future) -> None:
        """(under the lock) ``future`` for ``key``, the oldest finished ones dropped past ``keep``."""
        if len(self.runs) >= self.keep:
            for old in [k for k, (_, f) in self.runs.items() if f.done()][:max(1, self.keep // 4)]:
                del self.runs[old]
        self.runs[key] = (group, future)

    def put(self, key: str, group: str, result) -> None:
        """A result made on the page: kept as made ahead (where no other is)."""
        done: Future = Future()
        done.set_result(result)
        with self.lock:
            _, f = self.runs.get(key, (None, None))
            if f is None or (f.done() and f.exception() is not None):
                self._add(key, group, done)

    def future(self, key: str) -> Future | None:
        """The build of ``key`` made or under way here (not one that failed), or None."""
        with self.lock:
            _, f = self.runs.get(key, (None, None))
        return None if f is None or (f.done() and f.exception() is not None) else f

    def records(self, X, y, group: str, params_of: Callable[[str], tuple], key_of: Callable[[tuple], str],
                slots: tuple[str, ...], have: frozenset = frozenset()) -> tuple[list, bool]:
        """The results of ``slots`` (variants, "minibatch:B") but those in ``have`` (``params_of(slot)``: their
        settings, ``key_of``: their key), starting those not started if no other group's are under way: (the results
        made, whether others are not)."""
        out, pending = [], False
        with self.lock:
            busy = any(g != group and not f.done() for g, f in self.runs.values())
            for v in slots:
                if v in have:
                    continue
                params = params_of(v)
                key = key_of(params)
                _, f = self.runs.get(key, (group, None))
                if f is not None and f.done() and f.exception() is not None:  # failed: tried again, like the page
                    del self.runs[key]
                    f = None
                if f is None:
                    if busy:
                        pending = True
                        continue
                    f = self.pool.submit(self.make, X, y, params)
                    self._add(key, group, f)
                if not f.done():
                    pending = True
                elif f.exception() is None:  # (one that failed is tried again at the next ask)
                    out.append(f.result())
        return out, pending

    def answer(self, X, y, params: tuple, asked: Ask, batch: int) -> list | None:
        """The answer to the chart's ``asked`` where it shows the record of ``params`` (its memo key and slot): the
        results of the variants made ahead that it lacks (the mini-batch's at ``batch``, the B the page's box shows,
        in 1..N), once every one is made (or it asks for the last time); else None (the page sends the record, as
        every run does: the chart asks again, or the ask was not about this record, a change having come with it)."""
        group = memo_key(X, y, params)
        if asked.key != group or asked.shows != slot_of(params):
            return None
        settings = tuple(kv for kv in params if kv[0] not in ("variant", "batch_size"))
        runs = {slot_of(q): q for q in (run_params(v, batch, settings) for v in ahead_of(params, len(y)))}
        made, pending = self.records(X, y, group, runs.get, lambda q: settings_key(X, y, q), tuple(runs), asked.have)
        return made if made and (not pending or asked.last) else None
