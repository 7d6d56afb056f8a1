"""What every page shares: the dataset sidebar and the dataset it keeps.

The dataset is stored in ``st.session_state[DATASET_KEY]``, a key no widget
owns, so it survives page switches; pages read it with
:func:`glue.dataset.current_dataset`.
Widgets here bind to the URL (``?ds=XOR&n_xor=60&data_seed=3``) so a link
reproduces the data; :func:`report_url_problems` names parameters that were
not valid.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st

from core.validate import validate_data
from datasets import REGISTRY
from datasets.points import URL_MAX_POINTS
from glue.builds import settings_key, sized
from glue.dataset import (
    CUSTOM,
    DATASET_KEY,
    DEFAULT_DATASET,
    STANDARDIZE,
    Dataset,
    cached_points,
    current_dataset,
    default_dataset,
)
from glue.options import (
    DATASET_LABELS,
    N_PLANE_MAX,
    PARAMS,
    URL_FORMS,
    known_url_key,
    named,
    parse_url,
    quoted,
    unusable_url_values,
    url_spelling,
)
from glue.scene_chart import show_scene
from glue.userdata import (
    LINK_MAX_CHARS,
    LINK_MAX_PARAMS,
    LINK_READ,
    PTS,
    drop_points_from_url,
    escape_html,
    escape_md,
    link_dropped,
    points_count,
    points_from_link,
    points_sidebar,
    set_points,
    user_points,
    write_points_to_url,
)
from viz.common import Chart, points_figure, titled_axes
from viz.scene import View, figure_scene, with_view

LINK_CHECKED = "_link_checked"  # the link's dataset was looked at (on the session's first run)


# ----------------------------------------------------------------------------
# the URL: widgets bind to query parameters; a value a widget rejects is named
# ----------------------------------------------------------------------------

URL_AT_START = "_url_at_start"  # the query string the session opened with
BOUND_THIS_RUN = "_url_bound"  # widget key -> how the URL writes its value
ALLOWED_THIS_RUN = "_url_allowed"  # widget key -> what a link may give it, in words (allowed_values)
URL_NOTES = "_url_notes"  # problems with the link found outside the widgets (e.g. hide=), said once
URL_SAID = "_url_said"  # what the link asked that was used otherwise (a step past the run), said once
CHART_SAID = "_chart_said"  # a value a chart's own control sent that is not one of its values (glue.controls), said once
STEP_MAX = 10**9  # the largest step a link may name (a run has at most 100,000)
STEP_POINTS = "_step_points"  # the points a link's step was used on (forget_stale_step)


def remember_url() -> None:
    """Call first in ``app.py``: on the session's first run, keep its query string and tidy its spellings.

    Widgets read their values from the URL themselves, but only in the exact
    text they write (``tau=2.0``, ``ds=XOR``); what they cannot read they drop
    from the address bar. Parameters :mod:`glue.options` can read in a
    friendlier spelling (``ds=xor``, ``tau=2``, ``bias=0``) are rewritten the
    widgets' way and the script reruns once, so the widgets pick them up and
    the address bar keeps reproducing the view.
    """
    if URL_AT_START not in st.session_state:
        raw = {k: st.query_params.get_all(k) for k in st.query_params}
        # a number no widget may be given (inf, 1e999: Streamlit's number box raises OverflowError on reading it) goes
        # before any widget reads the link, and the run starts again without it (the widgets read the query string
        # the run started with)
        unusable = unusable_url_values({k: v[-1] for k, v in raw.items() if v})
        for key, value in unusable.items():
            del st.query_params[key]
            raw.pop(key)
            allowed = PARAMS[key].allowed
            st.session_state.setdefault(URL_NOTES, []).append(
                f"{key}={quoted(value)} (not a finite number" + (f"; {key} is {allowed}" if allowed else "")
                + "; using the default)")
        start = {k: v[-1] for k, v in raw.items() if len(v) == 1}
        rewrite = {}
        for key, value in parse_url(start).items():
            spelled = url_spelling(key, value)
            if start.pop(key) != spelled:
                rewrite[key] = spelled
        st.session_state[URL_AT_START] = {"values": start, "repeated": sorted(k for k, v in raw.items() if len(v) > 1)}
        for key, spelled in rewrite.items():
            st.query_params[key] = spelled
        if rewrite or unusable:
            st.rerun()
    st.session_state[BOUND_THIS_RUN] = {}
    st.session_state[ALLOWED_THIS_RUN] = {}


# Streamlit reads no query string over 524,288 characters or 1,000 parameters: it drops the whole string before the
# script runs (its sanitize_query_string) and says so only in the server's log, so the script sees no link at all.
# The browser knows the address: the page's TOOLS component (glue.userdata) compares it with those limits as
# Streamlit counts them, on every run whose script saw no parameter, and reports one over them (its "link" state,
# until the address is back within them); report_dropped_link names it on each run while it stays so. (A fresh
# request for a long address never gets here: the web server answers 400 above about 128 KB. What reaches the limits
# is an address that grew inside the page, a script's history.replaceState, sent with Streamlit's next rerun; or a
# short one of over 1,000 parameters.)


def dropped_link_message(chars: int, params: int) -> str | None:
    """What the page says of an address of ``chars`` characters and ``params`` parameters (its query string, as
    Streamlit counts them) that Streamlit dropped whole; None if it is within Streamlit's limits."""
    if chars > LINK_MAX_CHARS:
        said = f"This link is too long ({chars:,} characters; Streamlit reads a link of at most {LINK_MAX_CHARS:,})"
    elif params > LINK_MAX_PARAMS:
        said = (f"This link has too many parameters ({params:,}; Streamlit reads a link of at most "
                f"{LINK_MAX_PARAMS:,})")
    else:
        return None
    said += (", so none of it was read: the page keeps the view it showed before (a page opened on it would show "
             "the defaults).")
    if chars > LINK_MAX_CHARS:
        said += f" A link carries at most {URL_MAX_POINTS} of your points; for more, export them as a CSV file and import it."
    return said


def report_dropped_link(where=None) -> None:
    """Call last in ``app.py``: name an address Streamlit dropped whole (:func:`dropped_link_message`), on each whole
    run while the browser's address stays over the limits (TOOLS's report reruns the whole app: glue.userdata)."""
    dropped = link_dropped(bool(st.session_state.get(LINK_READ, len(st.query_params) > 0)))
    if dropped:
        (where or st).warning(escape_md(dropped_link_message(*dropped)))


def bound(widget: Callable[..., Any], label: str, *args, key: str, fmt: Callable[[Any], str] | None = None,
          page: str | None = None, **kwargs):
    """Create ``widget`` bound to the URL parameter ``key``: its options, default and bounds are the key's row of
    :data:`glue.options.STATE` (its default on ``page``, where it differs by page), each unless given here (a bound
    the points decide, such as B ≤ N); ``fmt`` writes its value as the URL does (the row's spelling unless given)."""
    row = PARAMS.get(key)
    if row is not None and not args:
        kwargs = {**from_table(getattr(widget, "__name__", ""), row, page, kwargs), **kwargs}
    fmt = fmt or (row.spell if row is not None else str)
    st.session_state.setdefault(BOUND_THIS_RUN, {})[key] = fmt
    st.session_state.setdefault(ALLOWED_THIS_RUN, {})[key] = allowed_values(widget, args, kwargs, fmt)
    return widget(label, *args, key=key, bind="query-params", **kwargs)


def from_table(name: str, row, page: str | None, given: dict) -> dict:
    """The arguments of the widget named ``name`` (``selectbox``, ``number_input``…) that the table's ``row`` decides:
    its options (shown as the row spells them), its default, its bounds; none the page ``given``."""
    default = row.default_on(page)
    out: dict = {}
    if row.kind in ("choice", "grid") and row.options:
        options = list(given.get("options", row.options))
        out["options"] = options
        if row.kind == "choice" or row.spell is not str:  # (a choice's label; a grid's own spelling: C = "∞"…)
            out["format_func"] = row.spell
        if name == "select_slider":
            out["value"] = default
        elif name in ("selectbox", "radio") and default in options:
            out["index"] = options.index(default)
    elif row.kind == "flag" and name in ("toggle", "checkbox"):
        out["value"] = bool(default)
    elif row.kind in ("whole", "number") and name in ("number_input", "slider"):
        cast = int if row.kind == "whole" else float
        out["min_value"] = None if row.lo is None else cast(row.lo)
        out["max_value"] = None if row.hi is None else cast(row.hi)
        if default is not None:
            out["value"] = cast(default)
    return {k: v for k, v in out.items() if k not in given}


def allowed_values(widget, args: tuple, kwargs: dict, fmt: Callable[[Any], str]) -> str:
    """What a link may give a bound widget, in words, as the link writes it ("one of 0.001, 0.01, …, 10"; "a whole
    number from 1 to 10,000"), or "" where the widget does not say."""
    name = getattr(widget, "__name__", "")
    if name in ("select_slider", "radio", "selectbox", "pills", "segmented_control"):
        options = kwargs.get("options", args[0] if args else None)
        options = list(options) if options is not None else []
        if not options:
            return ""
        if len(options) <= 6:
            return "one of " + ", ".join(fmt(o) for o in options)
        return f"one of {', '.join(fmt(o) for o in options[:3])}, …, {fmt(options[-1])}"
    if name == "number_input":
        lo, hi = kwargs.get("min_value", args[0] if args else None), kwargs.get("max_value", args[1] if len(args) > 1 else None)
        if lo is None or hi is None:
            return ""
        whole = isinstance(lo, int) and isinstance(hi, int)
        return f"{'a whole number' if whole else 'a number'} from {lo:,} to {hi:,}"
    if name in ("toggle", "checkbox"):
        return "true or false"
    return ""


def _same(url_value: str, shown: str) -> bool:
    if url_value.strip().lower() == shown.strip().lower():
        return True
    try:
        return float(url_value) == float(shown)
    except ValueError:
        return False


UNKNOWN_NAMED = 12  # unknown parameters named one by one; the rest are counted
UNKNOWN_TAKEN_OUT = 50  # unknown parameters taken out of the address (each one a message to the browser)


def report_url_problems(where=None) -> None:
    """Call last in ``app.py``: name the URL parameters that were not used (once each per session).

    Streamlit drops an invalid bound value silently and shows the default;
    this says which parameter was ignored and what was used instead. A
    parameter is checked on the first run that draws its widget; unknown
    and repeated parameters are named at once. ``where`` is the container to
    write into (a placeholder above the page, filled after the page ran).
    """
    start = st.session_state.get(URL_AT_START) or {}
    values: dict[str, str] = start.get("values", {})
    fmts = st.session_state.get(BOUND_THIS_RUN, {})
    bad = []
    for key in start.get("repeated", []):
        bad.append(f"{named(key)} (given more than once; using the default)")
        values.pop(key, None)
    unknown = [key for key in values if not known_url_key(key)]
    for key in unknown[:UNKNOWN_NAMED]:
        bad.append(f"{named(key)}={quoted(values[key])} (not a setting of this app)")
    if len(unknown) > UNKNOWN_NAMED:
        bad.append(f"and {len(unknown) - UNKNOWN_NAMED:,} more parameters that are not settings of this app")
    for key in unknown:
        values.pop(key)
    if len(unknown) <= UNKNOWN_TAKEN_OUT:  # out of the address, so that a copied link does not carry them on
        for key in unknown:
            if key in st.query_params:
                del st.query_params[key]
    else:  # (each deletion is a message and an address write in the browser: a thousand of them never settle)
        bad.append("they stay in the address: too many to take out")
    for key in list(values):
        if key in fmts and key in st.session_state:
            value, shown = values.pop(key), fmts[key](st.session_state[key])
            if not _same(value, shown):
                allowed = st.session_state.get(ALLOWED_THIS_RUN, {}).get(key, "")
                bad.append(f"{key}={quoted(value)} (using {quoted(shown)}" + (f": {key} is {allowed})" if allowed else ")"))
    start["repeated"] = []
    bad += st.session_state.pop(URL_NOTES, [])
    if bad:  # the values come from the link: shown as text, never as a link or markup
        (where or st).warning("Ignored URL parameters: " + escape_md("; ".join(bad)) + ".")
    for said in st.session_state.pop(URL_SAID, []):  # (what of the link was used, but not as it asked)
        (where or st).info(escape_md(said))
    for said in st.session_state.pop(CHART_SAID, []):
        (where or st).warning(escape_md(said))


def name_bad_values(keys: tuple[str, ...]) -> None:
    """The link's values for the page's settings ``keys`` that no control could take, named with the link's other
    problems (:func:`report_url_problems`) and taken out of the address bar, whether or not the page draws their
    controls now (Compare draws τ left and right only when it compares τ with τ). What is left in the link's values of
    a setting :mod:`glue.options` reads is such a value: a valid one was taken at the start (:func:`remember_url`)."""
    values = (st.session_state.get(URL_AT_START) or {}).get("values", {})
    for key in [k for k in keys if k in values and k in URL_FORMS]:
        st.session_state.setdefault(URL_NOTES, []).append(f"{key}={quoted(values.pop(key))} (not a value of that setting)")
        if key in st.query_params:
            del st.query_params[key]


def dataset_sidebar() -> None:
    """Draw the dataset controls in the sidebar and keep the dataset in session state.

    The list offers the generators and *Your points* (drawn, edited or
    imported; see :mod:`glue.userdata`). A bad combination shows an error
    naming it and keeps the last good dataset.
    """
    sb = st.sidebar
    sb.header("Dataset")
    start = (st.session_state.get(URL_AT_START) or {}).get("values", {})
    link_custom = parse_url({"ds": st.query_params.get("ds", "")}).get("ds") == CUSTOM
    if link_custom and PTS not in start and user_points() is None and not st.session_state.get(LINK_CHECKED):
        sb.warning("This link shows Your points but carries none (more than 500 points do not fit in a link: "
                   f"import the CSV). Your points start from the {DATASET_LABELS[DEFAULT_DATASET]} example.")
    st.session_state[LINK_CHECKED] = True
    if PTS in start:  # a link with the user's points: load them once, before the list is drawn
        code = start.pop(PTS)
        if link_custom:
            problem = points_from_link(code)
            if problem:
                sb.warning(f"The link's points (pts) were not used: {problem}. Your points start from the "
                           f"{DATASET_LABELS[DEFAULT_DATASET]} example instead.")
        else:
            sb.warning("The link's points (pts) were not used: they go with ds=Your points, and this link "
                       "shows a generated dataset.")
    names = [*REGISTRY, CUSTOM]
    # The default on every run: a bound widget leaves the link when its value equals its default, so a default that
    # moved (index 0, Separable, once the list had a value) dropped ds=Separable from the link, which then opened on
    # the Textbook example. (A callback that sets the list as well only logs a warning, and .streamlit/config.toml
    # turns it off.)
    name = bound(sb.selectbox, "Dataset", names, format_func=DATASET_LABELS.get, key="ds",
                 index=names.index(DEFAULT_DATASET))
    if name == CUSTOM:
        _user_dataset(sb)
    else:
        drop_points_from_url()
        _generated_dataset(sb, name)
    bound(sb.toggle, "Standardize x₁ and x₂", key=STANDARDIZE,
          help="Every page shows (x − mean) / standard deviation of each feature: both get mean 0 and standard "
               "deviation 1. Features on very different scales (a measurement in mm beside one in m, kernel "
               "values in the thousands) then weigh alike. The points themselves (the table, the CSV) are kept "
               "as they are.")
    points_sidebar()
    forget_stale_step()


def _user_dataset(sb) -> None:
    """The user's points as the shared dataset (the shown generator's points if there are none yet)."""
    pts = user_points()
    if pts is None:
        old = st.session_state.get(DATASET_KEY) or default_dataset()
        set_points(old.X, old.y, f"started from {old.label}", select=False)
        pts = user_points()
    sb.caption(f"{points_count(len(pts.y))}, {escape_md(pts.origin)}. Click the chart, edit the table under the "
               "page or import a CSV to change them; they stay when you switch pages.")
    note = write_points_to_url(pts)
    if note:
        sb.info(note)
    old = st.session_state.get(DATASET_KEY)
    if old is None or old.name != CUSTOM or old.X is not pts.X or old.origin != pts.origin:
        st.session_state[DATASET_KEY] = Dataset(CUSTOM, len(pts.y), 0, (), pts.X, pts.y, pts.origin, pts.columns,
                                                   classes=pts.classes)


def _generated_dataset(sb, name: str) -> None:
    spec = REGISTRY[name]
    if spec.fixed_n:
        n = spec.default_n
        sb.caption(f"{n} points (fixed)")
    else:
        n = bound(sb.select_slider, "Points n", key=f"n_{name}")
    params = []
    for p in spec.params:
        v = bound(sb.slider, p.label, float(p.min), float(p.max), float(p.default), float(p.step),
                  key=f"{name}_{p.name}")
        params.append((p.name, float(v)))
    seed = 0
    if not spec.fixed_n:
        seed = int(bound(sb.number_input, "Data seed", step=1, key="data_seed"))
    sb.caption(spec.description)
    params_t = tuple(params)
    old = st.session_state.get(DATASET_KEY)
    if old is None or (old.name, old.n, old.seed, old.params) != (name, n, seed, params_t):
        try:
            X, y = cached_points(name, int(n), seed, params_t)
        except ValueError as exc:
            sb.error(f"Could not make this dataset: {exc}. Keeping the previous one.")
            if old is None:
                st.session_state[DATASET_KEY] = default_dataset()
            return
        st.session_state[DATASET_KEY] = Dataset(name, int(n), seed, params_t, X, y)


def run_or_last_good(key: str, what: str, make: Callable[[], tuple], chart_key: str | None = None,
                     keep: Callable[[tuple], bool] | None = None) -> tuple | None:
    """The page's result from ``make()``, kept under ``key`` (where ``keep(result)``, if given, says so); on bad
    input, the last good one.

    ``make`` raises ValueError with a message naming the problem; the page
    then shows "Cannot run <what>: <message>." and the last good result (None
    if there is none yet), never a traceback. On the user's own points the
    page shows those points instead (on the chart keyed ``chart_key``), so a
    click never edits points other than the ones drawn.
    """
    try:
        result = make()
    except ValueError as exc:  # results end with the label of the dataset they were made from
        ds = current_dataset()
        result = st.session_state.get(key)
        stale = result is not None and result[-1] != ds.label  # the last good run drew other points
        if chart_key is not None and (ds.name == CUSTOM or stale):
            hint = (" Change them (click points away, Undo, import a smaller file) or pick a generated dataset."
                    if ds.name == CUSTOM else " Change the settings or the dataset.")
            st.error(f"Cannot run {what} on these points: {escape_md(exc)}.{hint}")
            show_points(ds, chart_key)  # the chart clicks edit shows the points they edit
            return None
        st.error(f"Cannot run {what}: {exc}." + (" Showing the last good run instead." if result else ""))
        return result
    if keep is None or keep(result):
        st.session_state[key] = result
    return result


def plane_data(ds: Dataset, max_points: int | None = None, who: str = "this page") -> tuple[np.ndarray, np.ndarray]:
    """The dataset's points, checked: labels ±1, finite, 2-D (the pages draw the plane), at most ``max_points``
    (``who`` takes at most that many, in the message)."""
    X, y = validate_data(ds.X, ds.y)
    if X.shape[1] != 2:
        raise ValueError(f"the page draws 2-D points, the dataset has d = {X.shape[1]}")
    if max_points is not None and len(y) > max_points:
        more = (f" (the Perceptron page and the SVM page's linear kernel take up to {N_PLANE_MAX:,})"
                if max_points < N_PLANE_MAX else "")
        raise ValueError(f"{who} takes at most {max_points:,} points{more}, got {len(y):,}")
    return X, y


def points_ready(ds: Dataset, key: str, what: str, need_both: bool = False) -> bool:
    """Whether ``what`` can run on the points; if not, say why and show them alone on the chart keyed ``key``.

    Not when the user's set is empty, or, with ``need_both``, holds one class
    only. The chart keeps the page's key, so clicks on it add points.
    """
    missing = None
    if len(ds.y) == 0:
        missing = "there are no points yet"
    elif need_both and len(np.unique(ds.y)) < 2:
        missing = f"every point is in class {int(ds.y[0]):+d}; {what} needs both classes"
    if missing is None:
        return True
    how = ("click in the chart below (the class of a new point is chosen in the sidebar)"
           if st.session_state.get("edit_points") else
           "turn on *Click the chart to add or remove points* in the sidebar and click in the chart below")
    st.info(f"Cannot run {what}: {missing}. To add points, {how}, edit the point table under the chart, "
            "or import a CSV.")
    show_points(ds, key)
    return False


PRESENT = "present"  # the presentation switch's key (glue.present draws it)


def presenting() -> bool:
    """Whether presentation mode is on (once glue.present has drawn its switch)."""
    return bool(st.session_state.get(PRESENT))


def page_fragment(body: Callable[[], None]) -> Callable[[], None]:
    """A chart page's body as a fragment (``st.fragment``): the page's own controls rerun the page alone, not
    ``app.py`` around it (the dataset sidebar, the presentation switch, the points table), which sends about two
    thirds of the messages a whole rerun does. What lies outside the page (the dataset, a click on a chart that adds
    a point, which the sidebar's tools apply, the table) still reruns the whole app.

    A link's values that the page's widgets could not use are named above the page on every run of it, also one
    that draws a widget for the first time (:func:`report_url_problems`, each once). Each page's fragment is named
    after its script (Streamlit tells fragments apart by their function's name, and every page runs as ``__main__``).
    """
    def page() -> None:
        notes = st.container()
        body()
        report_url_problems(notes)

    return _named_fragment(page, "page", body)


def _named_fragment(fn: Callable[..., None], prefix: str, body: Callable[..., None]) -> Callable[..., None]:
    """``fn`` as a fragment named ``<prefix>_<the stem of body's script>``."""
    fn.__name__ = fn.__qualname__ = f"{prefix}_{Path(body.__code__.co_filename).stem}"
    return st.fragment(fn)


def live_fragment(body: Callable[..., None]) -> Callable[..., None]:
    """The part of a chart page that its live controls change, as a fragment inside the page's (``st.fragment``):
    those controls (drawn into containers the page made, such as its settings row) rerun this part alone, the
    chart, its status, notes and exports with them, not the page's other settings. About half of the page's
    messages, so the new chart comes sooner. The page passes its other settings in as arguments; changing one
    reruns the page, and with it this part. Named after its script, like :func:`page_fragment`'s.
    """
    return _named_fragment(body, "live", body)


def show_chart(fig: dict | Chart, key: str, alt: str, view: View | None = None, **callbacks) -> None:
    """Draw a still figure, one that nothing steps (the Loss page's θ slice and 3-D view; the points alone), with the
    scene renderer as a ``figure`` record (:func:`viz.scene.figure_scene`): plotly.js draws it in the browser like
    every other chart, from the JSON made where the figure was built. ``alt`` describes it for screen readers; the
    keyed element is the page's chart (clicks on a data chart edit its points). ``view``: how it is shown, where that
    matters (presentation mode's scale; the controls it draws, whose ``callbacks`` come here).
    """
    blob = figure_scene(titled_axes(fig, current_dataset().axes), alt)
    show_scene(blob if view is None else with_view(blob, view), key, **callbacks)


def show_points(ds: Dataset, key: str) -> None:
    """The current points alone, on a chart keyed ``key`` (the page's data chart: clicks edit them)."""
    fig = points_figure(ds.X, ds.y, note=escape_html(ds.label))
    show_chart(sized(fig, presenting()), key, f"The points of {ds.label}")


def sent_anew(name: str, key: str) -> bool:
    """Whether this session was last sent a record of other inputs than ``key`` (kept under ``name``, which now holds
    ``key``): a partial record is sent only for new inputs, and the page's next run with the same ones (the chart's
    "more") makes the rest."""
    anew = st.session_state.get(name) != key
    st.session_state[name] = key
    return anew


def more_asked() -> None:
    """A chart drew a partial record and asks for the rest (its "more"): the rerun this causes, with the same inputs
    (:func:`sent_anew` then False), makes it."""


def partial_first(shown: str, key: str, partial: Callable[[], tuple], full: Callable[[], tuple],
                  may: bool = True) -> tuple:
    """A page's build of the inputs ``key``: ``partial()`` (the runs the controls show alone, a partial record) where
    it ``may`` and the inputs are new to this session (:func:`sent_anew` under ``shown``); else ``full()``. The chart
    asks for the rest once it has drawn a partial record (:func:`more_asked`), and that run, with the same inputs,
    makes them in full, or finds them in ``full``'s cache (another session's: one more round trip, no registry of
    what that cache holds; bench/RESULTS.md, 2026-12-02)."""
    if sent_anew(shown, key) and may:
        return partial()
    return full()


def take_start_step() -> int | None:
    """The step a link asked for (``?step=15``), once per session: the first page with a step slider uses it.

    A value that is not a step (``step=abc``, ``-5``, past STEP_MAX) is named with the link's other problems
    (:func:`report_url_problems`, above the page: a message written in the chart's fragment would go at its next
    rerun) and taken out of the address bar; the chart opens at step 0."""
    values = (st.session_state.get(URL_AT_START) or {}).get("values", {})
    if "step" not in values:
        return None
    raw = values.pop("step")
    try:
        step = int(float(raw))
        if not 0 <= step <= STEP_MAX or step != float(raw):
            raise ValueError
    except (ValueError, OverflowError):
        st.session_state.setdefault(URL_NOTES, []).append(
            f"step={quoted(raw)} (a step is a whole number from 0 to {STEP_MAX:,}; the chart opens at step 0)")
        if "step" in st.query_params:
            del st.query_params["step"]
        return None
    st.session_state[STEP_POINTS] = _points_key()
    return step


def _points_key() -> str:
    """The shown points, as a fingerprint (X and y as the pages show them: glue.builds.settings_key)."""
    ds = current_dataset()
    return settings_key(ds.X, ds.y, ())


def forget_stale_step() -> None:
    """A link's ``step=`` stays in the address bar while the chart shows the points it was used on (the address then
    reopens the view at that step); new points open the chart at step 0 (viz/js/main.js: samePoints), and the
    step leaves the address with them."""
    kept = st.session_state.get(STEP_POINTS)
    if kept is not None and kept != _points_key():
        st.session_state.pop(STEP_POINTS)
        if "step" in st.query_params:
            del st.query_params["step"]


def step_beyond(step: int | None, last: int, holds: str) -> None:
    """Say, where the link's problems are said (:func:`report_url_problems`, above the page), that a link's ``step``
    lies past the ``last`` step the chart holds (``holds``: "the run has", …), so that the chart opens there."""
    if step is not None and step > last:
        st.session_state.setdefault(URL_SAID, []).append(
            f"The link asked for step {step:,}; {holds} {last:,} steps, so the chart opens at step {last:,}.")


def steps_table(label: str, table: dict | Callable[[], dict]) -> None:
    """Every step as a table, in an expander that builds it only while open (a closed one costs a rerun nothing).

    ``table`` is the table, or what makes it (called only while the expander is open).
    """
    box = st.expander(label, key="steps_table_open", on_change="rerun")
    if box.open:
        with box:
            st.dataframe(table() if callable(table) else table, hide_index=True, width="stretch")
