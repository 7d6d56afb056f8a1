"""The user's own points: clicks on a page's data chart, undo and clear, the point table, CSV in and out, the link.

The points live in ``st.session_state[CUSTOM_KEY]`` (a key no widget owns),
with an undo history beside them; the shared dataset is the *Your points*
entry of the dataset list while they are in use. Everything that changes
them runs in a widget callback, before the script draws the dataset list, so
the page that follows already shows the new points.

One small component (:data:`TOOLS`) does the browser's part: it listens for
clicks on the data panel of the page's chart and reports them in data
coordinates (Streamlit's own chart events report clicks on points only), and
it copies the page's link with the step the chart's slider shows, and it reports an address Streamlit dropped
whole (too long for it).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

import numpy as np
import streamlit as st

from core.validate import X_LIMIT
from datasets.csvio import MAX_BYTES, MAX_ROWS, CsvChoice, CsvError, choose, dataset_csv, default_choice, read_table
from datasets.points import (
    MAX_POINTS,
    URL_MAX_POINTS,
    click_edit,
    click_edit_standardized,
    decode_points,
    encode_points,
)
from glue.chart_tools import SLIDER_JS
from glue.dataset import CUSTOM, STANDARDIZE, current_dataset

CUSTOM_KEY = "_custom_points"  # UserPoints
HISTORY_KEY = "_custom_history"  # earlier UserPoints, newest last
NOTICE_KEY = "_points_notice"  # (kind, text) of the last edit, shown once
CSV_NOTICE_KEY = "_csv_notice"  # (kind, text) of the last import, shown once beside the uploader
UPLOAD_ROUND = "_upload_round"  # the uploader's key grows with each file read
CSV_TABLE = "_csv_table"  # (file name, CsvTable) of the last file read: its columns and classes are chosen in the sidebar
PICK = {"x1": "csv_x1", "x2": "csv_x2", "label": "csv_label", "positive": "csv_pos", "negative": "csv_neg"}  # widgets
CSV_APPLIED = "_csv_applied"  # the x₁ and x₂ columns of the points shown from the file
REST = "\x00rest"  # the −1 choice "every other class" (no class text starts with NUL: the CSV reader refuses it)
TABLE_ROUND = "_table_round"  # the point table's key grows when an edit is refused (the table shows the points again)
CLICKS_DONE = "_clicks_done"  # ids of the last clicks applied
TOOLS_KEY = "dbl_tools"
# Streamlit drops a query string over these whole before the script runs (streamlit/runtime/state/query_params.py,
# sanitize_query_string): TOOLS reports an address over them, and glue.shared.report_dropped_link names it
LINK_MAX_CHARS = 512 * 1024
LINK_MAX_PARAMS = 1_000
LINK_READ = "_link_read"  # whether this whole run was given any parameter (read first: the page writes some)
TOOLS_RUN = "_tools_run"  # runs that drew TOOLS: its data changes on each, so its JS looks at the address on each
UNDO_DEPTH = 50
PTS = "pts"  # the query parameter carrying the points

# the chart on each page whose panel (x axis, y axis) shows the data, and what its slider adds to a copied link:
# "step" from the step the chart shows (perceptron, dual), "C" from the C it shows (the SVM's C on the chart)
_XY = ["xaxis", "yaxis"]
DATA_CHARTS = {"perceptron_chart": {"axes": _XY, "link": "step"}, "dual_chart": {"axes": _XY, "link": "step"},
               "svm_chart": {"axes": _XY, "link": "C"}, "loss_data": {"axes": _XY, "link": None},
               "compare_chart": {"axes": _XY, "link": "step"}}
DRAG_PX = 4  # a press and release further apart than this is a drag, not a click


@dataclass(frozen=True)
class UserPoints:
    """A drawn, edited or imported point set.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
        Labels in {−1, +1}.
    origin : str
        Where it came from, for the page ("started from Blobs: n = 40, …", "imported from data.csv").
    version : int
        Grows with every change (the point table is redrawn afresh when it does).
    columns : tuple of 2 str, or None
        The names of the file's columns x₁ and x₂ were read from (they title the axes); None for drawn points.
    classes : tuple of 2 str, or None
        The names of the file's classes that became −1 and +1 (the legend says them); None for drawn points.
    """

    X: np.ndarray
    y: np.ndarray
    origin: str
    version: int = 0
    columns: tuple[str, str] | None = None
    classes: tuple[str, str] | None = None


def user_points() -> UserPoints | None:
    """The session's own points, if any."""
    return st.session_state.get(CUSTOM_KEY)


def set_points(X: np.ndarray, y: np.ndarray, origin: str, notice: tuple[str, str] | None = None,
               before: tuple[np.ndarray, np.ndarray, str] | None = None, select: bool = True,
               columns: tuple[str, str] | None = None, classes: tuple[str, str] | None = None) -> None:
    """Make ``(X, y)`` the session's points; with ``select``, the shared dataset too (from a callback only).

    ``before`` is the set shown until now (X, y, origin), kept for *Undo*; ``columns`` and ``classes`` name the
    file's columns and classes the points came from.
    """
    old = user_points()
    if before is not None:
        kept = UserPoints(before[0], before[1], before[2])
        st.session_state[HISTORY_KEY] = (st.session_state.get(HISTORY_KEY, []) + [kept])[-UNDO_DEPTH:]
    version = (old.version + 1) if old is not None else 0
    st.session_state[CUSTOM_KEY] = UserPoints(np.asarray(X, float).reshape(-1, 2), np.asarray(y, np.int64),
                                              origin, version, columns, classes)
    if select:
        st.session_state["ds"] = CUSTOM
    if notice:
        st.session_state[NOTICE_KEY] = notice


def points_count(n: int) -> str:
    """"1 point", "40 points"."""
    return f"{n:,} point" + ("" if n == 1 else "s")


def _start_points() -> tuple[np.ndarray, np.ndarray, str]:
    """The points an edit starts from: the user's set while it is selected, else the generated set shown.

    The user's set is read from where every edit writes it at once (not from
    the dataset the last run drew), so edits that come faster than the
    reruns build on each other.
    """
    pts = user_points()
    if pts is not None and st.session_state.get("ds") == CUSTOM:
        return pts.X, pts.y, pts.origin
    ds = current_dataset(raw=True)
    if ds.name == CUSTOM:
        return ds.X, ds.y, ds.origin
    return ds.X, ds.y, f"started from {ds.label}"


# ----------------------------------------------------------------------------
# callbacks (they run before the script, so the dataset list can still change)
# ----------------------------------------------------------------------------

def _on_click() -> None:
    """Apply the clicks the page reports: each carries an id, and every click not yet applied is sent each time.

    Clicks faster than the reruns reach the server together (the browser
    keeps sending a click until a rerun says it was applied), and a click
    sent twice is applied once.
    """
    event = (st.session_state.get(TOOLS_KEY) or {}).get("click")
    clicks = event.get("clicks") if isinstance(event, dict) else None
    if not isinstance(clicks, list) or not st.session_state.get("edit_points"):
        return
    done = st.session_state.setdefault(CLICKS_DONE, [])
    label = int(st.session_state.get("new_class", 1))
    applied = False
    for click in clicks[:64]:  # bounded
        if not isinstance(click, dict) or click.get("id") in done:
            continue
        done.append(click.get("id"))
        del done[:-256]
        applied = True
        X, y, origin = before = _start_points()
        try:
            X2, y2, what = _click_shown(X, y, click, label)
        except ValueError as exc:
            st.session_state[NOTICE_KEY] = ("error", f"That click was not used: {escape_md(exc)}.")
            continue
        set_points(X2, y2, origin, ("success", f"Clicked: {what} ({points_count(len(y2))} now)."), before)
    if applied:  # the points, the dataset list and the table changed: the whole app reruns (as for the link, _on_link)
        st.rerun(scope="app")


def _on_link() -> None:
    """TOOLS's "link" state changed: rerun the whole app, which names it. (Streamlit flushes the widget messages
    of one moment as one rerun, of the first fragment among them: the chart's own message sent beside this one would
    rerun its fragment alone, and nothing would name the link.)"""
    st.rerun(scope="app")


def note_link_read() -> None:
    """Call first in ``app.py``: keep whether this run was given any parameter, before the page writes one (a run
    given any parameter had its link read: Streamlit drops a query string whole)."""
    st.session_state[LINK_READ] = len(st.query_params) > 0


def link_dropped(read: bool) -> tuple[int, int] | None:
    """(characters, parameters) of the address Streamlit dropped whole before this run, as TOOLS last saw it; None if
    this run was given its link (``read``: any parameter, seen at the run's start) or TOOLS saw it within the limits."""
    if read:
        return None
    return link_over_limits((st.session_state.get(TOOLS_KEY) or {}).get("link"))


def link_over_limits(event) -> tuple[int, int] | None:
    """TOOLS's ``link`` event, ``{"chars": …, "params": …}`` of the address's query string, as (characters,
    parameters) if it is over Streamlit's limits; None for anything else (the browser's word, checked)."""
    if not isinstance(event, dict):
        return None
    chars, params = event.get("chars"), event.get("params")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**12 for v in (chars, params)):
        return None
    return (chars, params) if chars > LINK_MAX_CHARS or params > LINK_MAX_PARAMS else None


def _click_shown(X: np.ndarray, y: np.ndarray, click: dict, label: int) -> tuple[np.ndarray, np.ndarray, str]:
    """:func:`~datasets.points.click_edit` on the points as the chart shows them (standardized or not)."""
    at, scale = (click.get("x"), click.get("y")), (click.get("sx"), click.get("sy"))
    edit = click_edit_standardized if st.session_state.get(STANDARDIZE) and len(y) else click_edit
    return edit(X, y, at, label, scale)


def _on_undo() -> None:
    history = st.session_state.get(HISTORY_KEY, [])
    if history:
        prev = history.pop()
        cur = user_points()
        st.session_state[CUSTOM_KEY] = UserPoints(prev.X, prev.y, prev.origin, (cur.version + 1) if cur else 0)
        st.session_state["ds"] = CUSTOM
        st.session_state[NOTICE_KEY] = ("info", f"Undone: back to {points_count(len(prev.y))}.")


def _on_clear() -> None:
    before = _start_points()
    set_points(np.zeros((0, 2)), np.zeros(0, np.int64), "drawn by hand",
               ("info", f"Cleared {points_count(len(before[1]))}: click the chart to add new ones (Undo brings them "
                        "back)."),
               before)


def _on_upload(key: str) -> None:
    f = st.session_state.get(key)
    if f is None:
        return
    # a fresh uploader next run (no file left listed as if loaded); the message shows beside it
    st.session_state[UPLOAD_ROUND] = st.session_state.get(UPLOAD_ROUND, 0) + 1
    try:
        table = read_table(f.getvalue())
    except CsvError as exc:
        st.session_state[CSV_NOTICE_KEY] = ("error", f"{escape_md(f.name)} was not loaded: {escape_md(str(exc))}. "
                                                     "The points shown are unchanged.")
        return
    st.session_state[CSV_TABLE] = (f.name, table)
    st.session_state.pop(CSV_APPLIED, None)  # (no columns of this file shown yet)
    choice = default_choice(table)
    for field, key_ in PICK.items():
        value = getattr(choice, field)
        st.session_state[key_] = REST if value is None else value
    _apply_choice(upload=True)


def _on_pick(field: str) -> None:
    """A choice of column or class changed: a new label column starts from its default classes; x₁ chosen as the x₂
    shown (or the other way) swaps the two."""
    kept = st.session_state.get(CSV_TABLE)
    if kept is None:
        return
    applied = st.session_state.get(CSV_APPLIED)
    other = {"x1": "x2", "x2": "x1"}.get(field)
    if other and applied and str(st.session_state[PICK[field]]) == str(st.session_state[PICK[other]]):
        st.session_state[PICK[other]] = applied[field]  # x₁ chosen as x₂ (or the other way): the two swap
    if field == "label":
        table = kept[1]
        classes = [t for t, _ in table.classes(int(st.session_state[PICK["label"]]))]
        st.session_state[PICK["negative"]] = classes[0]
        st.session_state[PICK["positive"]] = classes[1] if len(classes) > 1 else classes[0]
    _apply_choice()


def _apply_choice(upload: bool = False) -> None:
    """Make the chosen columns and classes of the file read last the points, or say why not (the points stay).

    ``upload``: the choice is the default one, right after the file was read.
    """
    name, table = st.session_state[CSV_TABLE]
    ss = st.session_state
    negative = ss.get(PICK["negative"])
    try:
        choice = CsvChoice(x1=int(ss[PICK["x1"]]), x2=int(ss[PICK["x2"]]), label=int(ss[PICK["label"]]),
                           positive=str(ss[PICK["positive"]]), negative=None if negative == REST else str(negative))
        data = choose(table, choice)
    except (CsvError, KeyError, TypeError, ValueError) as exc:
        what = (f"{escape_md(name)} was not loaded with its first columns and classes" if upload else
                f"This choice of columns and classes of {escape_md(name)} is not used")
        ss[CSV_NOTICE_KEY] = ("error", f"{what}: {escape_md(str(exc))}. The points shown are unchanged"
                                       + ("; choose other columns below." if upload else "."))
        return
    # text from the file (its name, columns and labels) is shown escaped: no markup from a file takes effect
    x1, x2 = (escape_md(c) for c in data.columns)
    mapping = data.mapping(escape_md)
    left = f" ({data.dropped:,} rows of other classes left out)" if data.dropped else ""
    set_points(data.X, data.y, f"imported from {name}", None, _start_points(), columns=data.columns,
               classes=data.classes)  # raw
    ss[CSV_APPLIED] = {"x1": ss[PICK["x1"]], "x2": ss[PICK["x2"]]}  # (the columns shown: a pick of one as the other swaps)
    ss[CSV_NOTICE_KEY] = ("success", f"Loaded {len(data.y):,} points from {escape_md(name)}: x₁ = {x1}, x₂ = {x2}, "
                                     f"labels {mapping}{left}. Read as " + escape_md("; ".join(table.notes)) + ".")


def _on_table(key: str) -> None:
    """Apply the point table's edits (``st.data_editor`` state: edited, added and deleted rows)."""
    X, y, origin = before = _start_points()
    rows = [[float(a), float(b), int(c)] for (a, b), c in zip(X.tolist(), y.tolist(), strict=True)]
    delta = st.session_state.get(key) or {}
    try:
        for i, change in delta.get("edited_rows", {}).items():
            for col, v in change.items():
                rows[int(i)][_COLS.index(col)] = v
        added = [[r.get(c) for c in _COLS] for r in delta.get("added_rows", [])]
        rows += [r for r in added if all(v is not None for v in r)]  # a row is used once it is filled in
        deleted = {int(i) for i in delta.get("deleted_rows", [])}
        rows = [r for i, r in enumerate(rows) if i not in deleted]
        Xn, yn = _check_rows(rows)
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        st.session_state[NOTICE_KEY] = ("error", f"The table's change was not used: {escape_md(exc)}.")
        st.session_state[TABLE_ROUND] = st.session_state.get(TABLE_ROUND, 0) + 1  # the table shows the points again
        return
    if len(yn) == len(y) and np.array_equal(Xn, X) and np.array_equal(yn, y):
        return  # only a row still being filled in: nothing to use yet
    set_points(Xn, yn, origin, ("success", f"Table: {points_count(len(yn))} now."), before)


_COLS = ["x₁", "x₂", "y"]


def _check_rows(rows: list[list]) -> tuple[np.ndarray, np.ndarray]:
    """Rows [x₁, x₂, y] as arrays; a missing or non-finite value or a label not ±1 names its row."""
    if len(rows) > MAX_POINTS:
        raise ValueError(f"a set holds at most {MAX_POINTS:,} points")
    X = np.zeros((len(rows), 2))
    y = np.zeros(len(rows), np.int64)
    for i, (a, b, c) in enumerate(rows):
        for j, v in enumerate((a, b)):
            if v is None:
                raise ValueError(f"row {i + 1}: {_COLS[j]} is missing")
            try:
                X[i, j] = float(v)
            except (TypeError, ValueError):
                raise ValueError(f"row {i + 1}: {_COLS[j]} = {v!r} is not a number") from None
            if not np.isfinite(X[i, j]):
                raise ValueError(f"row {i + 1}: {_COLS[j]} is not finite")
            if abs(X[i, j]) > X_LIMIT:
                raise ValueError(f"row {i + 1}: {_COLS[j]} is larger than {X_LIMIT:,.0f} in size")
        if c not in (-1, 1, "-1", "1", "+1"):
            raise ValueError(f"row {i + 1}: y must be +1 or −1, got {c!r}")
        y[i] = int(c)
    return X, y


# ----------------------------------------------------------------------------
# the link: the points travel as ?pts=<code> while "Your points" is shown
# ----------------------------------------------------------------------------

def points_from_link(code: str) -> str | None:
    """Load the points a link carries (on a session's first run); the problem as text if they are bad."""
    try:
        X, y = decode_points(code)
    except ValueError as exc:
        return str(exc)
    set_points(X, y, "from a link", select=False)
    return None


def write_points_to_url(pts: UserPoints | None) -> str | None:
    """Mirror the user's points in the URL (``pts``); a note when there are too many for a link."""
    if pts is None or len(pts.y) == 0 or len(pts.y) > URL_MAX_POINTS:
        if PTS in st.query_params:
            del st.query_params[PTS]
        if pts is not None and len(pts.y) > URL_MAX_POINTS:
            return (f"{len(pts.y):,} points are too many for a link (at most {URL_MAX_POINTS}): "
                    "a link opens the same view only with the CSV imported again.")
        return None
    code = encode_points(pts.X, pts.y)
    if st.query_params.get(PTS) != code:
        st.query_params[PTS] = code
    return None


def drop_points_from_url() -> None:
    if PTS in st.query_params:
        del st.query_params[PTS]


# ----------------------------------------------------------------------------
# the sidebar section
# ----------------------------------------------------------------------------

_JS = SLIDER_JS + r"""
let linkSent = "null";  // what TOOLS last set as its "link" state (a state is kept by Streamlit: sent on each change only)
export default function(component) {
  const { data, setStateValue, setTriggerValue, parentElement } = component;
  const charts = data.charts || {};
  const editing = !!data.editing;
  // a crosshair over the data panels while clicks edit
  let style = document.getElementById("dbl-edit-style");
  if (!style) { style = document.createElement("style"); style.id = "dbl-edit-style"; document.head.appendChild(style); }
  style.textContent = editing ? Object.keys(charts).map(
    k => `.st-key-${k} .nsewdrag { cursor: crosshair !important; }`).join("\n") : "";

  // clicks sent but not yet applied by the server, kept across reruns in the document (its data-dbl-clicks, as JSON;
  // data.done lists the applied ones), and the timer that sends them again (data-dbl-resend)
  const page = document.documentElement;
  const stored = () => { try { return JSON.parse(page.dataset.dblClicks || "[]"); } catch (e) { return []; } };
  const store = (clicks) => { page.dataset.dblClicks = JSON.stringify(clicks); };
  // (a tool drawn by an earlier run may still listen: only the one drawn last takes a click, data-dbl-tool)
  const me = `${Date.now()}-${Math.random()}`;
  page.dataset.dblTool = me;
  const done = new Set(data.done || []);
  // (with editing off, clicks are not applied: none is kept to be replayed when it comes back on)
  const pending = editing ? stored().filter(c => !done.has(c.id)) : [];
  store(pending);
  // a click still not applied a second after the last rerun drew this (its rerun was lost: stopped by the next
  // one before its callback ran) is sent again, twice at most, and not while a rerun is still running (it may be
  // the click's own); the server applies each id once
  const later = (f) => { page.dataset.dblResend = String(setTimeout(f, 1000)); };
  const stopResend = () => clearTimeout(Number(page.dataset.dblResend));
  stopResend();
  const resend = () => {
    const left = stored();
    if (!left.length || !left.some(c => (c.tries || 0) < 2)) return;
    const app = document.querySelector("[data-testid=stApp]");
    if (app && app.dataset.testScriptState === "running") { later(resend); return; }
    for (const c of left) c.tries = (c.tries || 0) + 1;
    store(left);
    setTriggerValue("click", {clicks: left.slice(-64)});
  };
  if (pending.length) later(resend);

  // a press and release apart (a drag) is not a click
  let down = null;
  function onDown(ev) { down = [ev.clientX, ev.clientY]; }
  function onClick(ev) {
    if (!editing || page.dataset.dblTool !== me) return;
    if (down && Math.hypot(ev.clientX - down[0], ev.clientY - down[1]) > data.drag_px) return;
    for (const [key, spec] of Object.entries(charts)) {
      const axes = spec.axes;
      const box = ev.target.closest && ev.target.closest(`.st-key-${key}`);
      if (!box) continue;
      const gd = box.querySelector(".dbls-plot");  // (sketched or drawn: viz/js/sketch.js)
      const fl = gd && gd._fullLayout;
      if (!fl || !fl[axes[0]] || !fl[axes[1]]) return;
      const xa = fl[axes[0]], ya = fl[axes[1]];
      const r = gd.querySelector(".main-svg").getBoundingClientRect();
      const px = ev.clientX - r.left - xa._offset, py = ev.clientY - r.top - ya._offset;
      if (px < 0 || px > xa._length || py < 0 || py > ya._length) return;  // outside the data panel
      // every click not yet applied goes with each event, so clicks faster than the reruns are not lost
      const clicks = stored();
      clicks.push({chart: key, id: `${Date.now()}-${Math.random()}`, x: xa.p2d(px), y: ya.p2d(py),
                   sx: Math.abs(xa.p2d(1) - xa.p2d(0)), sy: Math.abs(ya.p2d(1) - ya.p2d(0))});
      store(clicks);
      setTriggerValue("click", {clicks: clicks.slice(-64)});
      return;
    }
  }
  document.addEventListener("pointerdown", onDown, true);
  document.addEventListener("click", onClick, true);

  // an address Streamlit dropped whole before this run (its sanitize_query_string: the query string without its
  // "?" over data.link_max[0] characters, or over data.link_max[1] parameters, one more than its "&"s), so the
  // script saw no link at all (data.link_read is false): the "link" state holds its size while it stays over them
  // (a state, not a trigger: every later run sees it, so a run cut short by the next cannot lose it)
  const query = window.location.search.replace(/^\?/, "");
  const chars = query.length, params = query ? query.split("&").length : 0;
  const over = !data.link_read && (chars > data.link_max[0] || params > data.link_max[1]);
  const size = JSON.stringify(over ? {chars, params} : null);
  if (size !== linkSent) { linkSent = size; setStateValue("link", JSON.parse(size)); }

  // "Copy link": the address bar, plus the step the page's chart slider shows
  const button = parentElement.querySelector("button");
  const field = parentElement.querySelector("input");
  function link() {
    const url = new URL(window.location.href);
    url.searchParams.delete("step");
    for (const [key, spec] of Object.entries(charts)) {
      const {stop, step} = sliderAt(document.querySelector(`.st-key-${key} .dbls-plot`));  // (sketched or drawn)
      if (!stop || !spec.link) continue;
      if (spec.link === "step" && step !== null) url.searchParams.set("step", step);
      if (spec.link === "C" && stop.label) url.searchParams.set("C", stop.label);
    }
    return url.toString();
  }
  button.onclick = async () => {
    const text = link();
    field.value = text;
    field.style.display = "block";
    let ok = false;
    try { await navigator.clipboard.writeText(text); ok = true; } catch (e) {
      field.select(); try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
    }
    button.textContent = ok ? "Copied ✓ (paste it anywhere)" : "Select the link below and copy it";
    setTimeout(() => { button.textContent = "Copy link to this view"; }, 2500);
  };
  return () => {
    stopResend();
    document.removeEventListener("pointerdown", onDown, true);
    document.removeEventListener("click", onClick, true);
  };
}
"""

_HTML = """<button type="button" class="dbl-copy">Copy link to this view</button>
<input class="dbl-link" type="text" readonly aria-label="Link to this view" style="display:none">"""

_CSS = """
.dbl-copy { width: 100%; padding: 0.45rem 0.6rem; font: inherit; border-radius: 0.5rem; cursor: pointer;
            border: 1px solid var(--st-border-color, #8a8f98); background: var(--st-background-color, #fff);
            color: var(--st-text-color, #0d0d0d); }
.dbl-copy:hover, .dbl-copy:focus { border-color: var(--st-primary-color, #0b57d0); color: var(--st-primary-color, #0b57d0); }
.dbl-link { width: 100%; margin-top: 0.4rem; font-size: 0.8rem; box-sizing: border-box; }
"""

TOOLS = st.components.v2.component("dbl_tools", html=_HTML, css=_CSS, js=_JS)


# what the uploader takes (MB): past MAX_BYTES the reader names the file's size and the limit in the page's message
# (Streamlit's own refusal of a larger file is a tooltip on the file, while the last message stayed: the tester's
# 2 MB file under "empty.csv was not loaded")
UPLOAD_MB = 20


def points_sidebar() -> None:
    """The sidebar's *Your points* section: click editing, class, undo, clear, CSV import and export, the link."""
    sb = st.sidebar
    sb.subheader("Your points")
    editing = sb.toggle("Click the chart to add or remove points", key="edit_points",
                        help="Click empty space in the data panel to add a point of the class below; click a point "
                             "to remove it. The first click copies the generated points into Your points.")
    if editing:
        sb.radio("Class of a new point", [1, -1], format_func=lambda v: f"{v:+d}".replace("-", "−"), horizontal=True,
                 key="new_class")
    c1, c2 = sb.columns(2)
    c1.button("Undo", key="undo_points", on_click=_on_undo, disabled=not st.session_state.get(HISTORY_KEY),
              width="stretch", help=f"Take back the last change (up to {UNDO_DEPTH}).")
    c2.button("Clear", key="clear_points", on_click=_on_clear, width="stretch",
              help="Remove every point and draw your own.")
    notice = st.session_state.pop(NOTICE_KEY, None)
    if notice:
        getattr(sb, notice[0])(notice[1])
    # (the JS runs again only when its data changes; the address may have changed with no other change: "run".
    # Streamlit drops a query string before the script runs, so a run that read any parameter had its link read.)
    run = st.session_state[TOOLS_RUN] = st.session_state.get(TOOLS_RUN, 0) + 1
    with sb.container():
        TOOLS(data={"charts": DATA_CHARTS, "editing": bool(editing), "drag_px": DRAG_PX,
                    "done": st.session_state.get(CLICKS_DONE, []), "run": run,
                    "link_max": [LINK_MAX_CHARS, LINK_MAX_PARAMS],
                    "link_read": st.session_state.get(LINK_READ, len(st.query_params) > 0)},
              key=TOOLS_KEY, on_click_change=_on_click, on_link_change=_on_link)
    csv_notice = st.session_state.pop(CSV_NOTICE_KEY, None)
    with sb.expander("CSV: import, export", expanded=csv_notice is not None):
        if csv_notice:
            getattr(st, csv_notice[0])(csv_notice[1])
        key = f"csv_file_{st.session_state.get(UPLOAD_ROUND, 0)}"
        st.file_uploader(
            f"Import a CSV (at most {MAX_ROWS:,} rows and {MAX_BYTES // 1_000_000} MB)", type=["csv", "txt", "tsv"],
            key=key, on_change=_on_upload, args=(key,), max_upload_size=UPLOAD_MB,
            help="Any table: numeric feature columns and a label column, a header row or none, separated by "
                 "commas, semicolons or tabs (with semicolons or tabs, decimal commas are read too). Choose the "
                 "columns and classes below once it is read.")
        _column_picker()
        ds = current_dataset(raw=True)
        # written when clicked (a callable), so a rerun does not format thousands of numbers
        st.download_button("Download the points (CSV)", lambda X=ds.X, y=ds.y: _csv_or_message(X, y),
                           file_name=_file_name(ds), mime="text/csv", width="stretch", on_click="ignore")


def _column_picker() -> None:
    """The last file's columns and classes to choose from (x₁, x₂, the label; the +1 and −1 classes)."""
    kept = st.session_state.get(CSV_TABLE)
    if kept is None:
        return
    name, table = kept
    n_cols = len(table.columns)
    if any(int(st.session_state.get(PICK[f], -1)) not in range(n_cols) for f in ("x1", "x2", "label")):
        return  # not drawn yet by this file's upload (cannot happen through the page)
    st.markdown(f"**Columns of {escape_md(name)}** ({len(table.rows):,} rows; {escape_md('; '.join(table.notes))})")

    def column(j: int) -> str:
        return table.columns[j] + ("" if table.numeric[j] else " (text)")

    cols = list(range(n_cols))  # one under the other: a sidebar is too narrow for two names side by side
    st.selectbox("x₁", cols, format_func=column, key=PICK["x1"], on_change=_on_pick, args=("x1",))
    st.selectbox("x₂", cols, format_func=column, key=PICK["x2"], on_change=_on_pick, args=("x2",))
    st.selectbox("Label", cols, format_func=column, key=PICK["label"], on_change=_on_pick, args=("label",),
                 help="The column that holds the classes.")
    classes = table.classes(int(st.session_state[PICK["label"]]))
    counts = dict(classes)
    texts = list(counts)

    def cls(t: str) -> str:
        return "every other class" if t == REST else f"{table.class_label(t)} ({counts[t]:,})"

    for field, options in (("positive", texts), ("negative", texts + [REST] * (len(texts) > 2))):
        if st.session_state.get(PICK[field]) not in options:  # e.g. "every other class" after a 2-class label
            st.session_state[PICK[field]] = options[0]
        st.selectbox("+1 class" if field == "positive" else "−1 class", options, format_func=cls,
                      key=PICK[field], on_change=_on_pick, args=(field,))


def _csv_or_message(X: np.ndarray, y: np.ndarray) -> str:
    try:
        return dataset_csv(X, y)
    except ValueError as exc:
        return f"# these points cannot be written as CSV: {exc}\n"


def _file_name(ds) -> str:
    base = "your-points" if ds.name == CUSTOM else ds.name
    return f"{base}-{len(ds.y)}.csv"


def points_table() -> None:
    """The points as an editable table (a keyboard way to add, change and delete them)."""
    ds = current_dataset(raw=True)
    pts = user_points()
    version = pts.version if pts is not None and ds.name == CUSTOM else "gen"
    key = f"points_table_{version}_{st.session_state.get(TABLE_ROUND, 0)}_{ds.label}"
    # drawn only while open (a closed table costs a rerun nothing)
    table = st.expander(f"The points as a table ({points_count(len(ds.y))}): edit, add or delete rows with the "
                        "keyboard", key="points_table_open", on_change="rerun")
    if not table.open:
        return
    with table:
        st.caption("A change here makes these *Your points* (the sidebar's Undo takes it back). Type a number in "
                   "x₁ and x₂ and pick y = +1 or −1; a new row is used once all three are filled. Select rows and "
                   "press Delete to remove them.")
        st.data_editor(
            {_COLS[0]: ds.X[:, 0], _COLS[1]: ds.X[:, 1], _COLS[2]: ds.y}, key=key, num_rows="dynamic",
            on_change=_on_table, args=(key,), width=520, height=min(38 + 35 * (len(ds.y) + 3), 460),
            column_config={
                _COLS[0]: st.column_config.NumberColumn(required=True, format="%g", width="small"),
                _COLS[1]: st.column_config.NumberColumn(required=True, format="%g", width="small"),
                _COLS[2]: st.column_config.SelectboxColumn(options=[1, -1], required=True, width="small"),
            })


_ACTIVE = re.compile(r"([\\`*\[\]$<>~|{}])")  # the marks that make links, images, code, LaTeX, HTML, emphasis


def escape_md(text: str) -> str:
    """Text from a file or a link shown as itself in Markdown: its active marks backslash-escaped.

    No link, image, emphasis, LaTeX (``$``) or HTML from the text takes effect (CommonMark lets any ASCII
    punctuation be escaped, the backslash itself first). ``_`` inside words is literal in CommonMark and
    stays as it is (``n_xor``), so messages still quote parameter names as written.
    """
    return _ACTIVE.sub(r"\\\1", str(text))


def escape_html(text: str) -> str:
    """Text for a Plotly title or label (which read a few HTML tags): tags shown as text."""
    return html.escape(str(text))
