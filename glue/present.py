"""Presentation mode: larger type for a projector, and the controls the lecturer chose hidden.

The switch (``?present=true``) and the list of hidden parts (``?hide=sidebar,tables``)
travel in the link, so a lecturer can prepare a link before class. Pages put their
parts in containers keyed ``dbl_settings…``, ``dbl_notes…`` and ``dbl_tables…``
(see :func:`part`); hiding is CSS on those keys, so a hidden widget keeps its value.
"""

from __future__ import annotations

import streamlit as st

from glue.options import quoted
from glue.shared import PRESENT, URL_AT_START, URL_NOTES, bound, presenting
from glue.userdata import escape_md

HIDE = "hide"
# the parts a lecturer can hide -> what the list calls them
PARTS = {
    "sidebar": "sidebar",
    "settings": "page settings",
    "notes": "notes",
    "tables": "tables, exports",
    "title": "page title",
}
DEFAULT_HIDE = ["sidebar", "tables"]
_CSS = {
    "sidebar": '[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], '
               '[data-testid="stExpandSidebarButton"] { display: none !important; }',
    "settings": '[class*="st-key-dbl_settings"], .dbls-tune { display: none !important; }',  # (the charts' own too)
    "notes": '[class*="st-key-dbl_notes"] { display: none !important; }',
    "tables": '[class*="st-key-dbl_tables"] { display: none !important; }',
    "title": '[data-testid="stMain"] h1 { display: none !important; }',
}
# larger type everywhere for a projector (Streamlit sizes its text in rem), and less blank space above the page
# (the page bar at 80 %, so its links fit one row on a 1024 px screen, close to the window's top and to the title;
# narrow side margins for the charts; the page title a slide's heading, not a poster's, so the chart and its controls
# fit the first screen: the charts start 190 px down at 1280×720 before, 155 after, and are that much taller)
_BIG = ("html { font-size: 21px !important; } [data-testid='stHeader'] { display: none; } "
        "[data-testid='stMain'] h1 { font-size: 1.45rem !important; padding: 0 0 0.15rem !important; } "
        "[data-testid='stMainBlockContainer'] { max-width: 100%; padding: 0.35rem 1.5rem 3rem !important; } "
        ".st-key-present_bar { zoom: 0.8; margin-bottom: -0.6rem; } "
        ".dbl-label { font-size: 0.62em; font-weight: 600; margin-left: 0.5em; color: #31333f; }")


# every page, every mode: where the main column is narrow (a 1024 px screen with the sidebar open), a row of
# controls folds onto more lines instead of cutting its labels, and a row that holds charts stacks them
_NARROW = ("[data-testid='stMainBlockContainer'] { container-type: inline-size; } "
           "@container (max-width: 760px) { [data-testid='stHorizontalBlock'] { flex-wrap: wrap; row-gap: 0.6rem; } "
           "[data-testid='stHorizontalBlock'] > [data-testid='stColumn'] { min-width: 9rem; } } "
           "@container (max-width: 900px) { [data-testid='stHorizontalBlock']:has(.js-plotly-plot, .dbls-plot) { flex-wrap: wrap; } "
           "[data-testid='stHorizontalBlock']:has(.js-plotly-plot, .dbls-plot) > [data-testid='stColumn'] "
           "{ flex: 1 1 100% !important; width: 100% !important; min-width: 100% !important; } }")


def narrow_screen_style() -> None:
    """The style that folds the pages' rows of columns on a narrow main column (CSS container queries)."""
    st.html(f"<style>{_NARROW}</style>")


def parse_hide(text: str) -> tuple[list[str], list[str]]:
    """The parts named in a link's ``hide=`` (comma separated; ``none`` alone for none) and the names it did not know.

    >>> parse_hide("Sidebar, tables,foo")
    (['sidebar', 'tables'], ['foo'])
    """
    items = [t.strip().lower() for t in text.split(",") if t.strip() and t.strip().lower() != "none"]
    known = [p for p in PARTS if p in items]
    return known, [t for t in items if t not in PARTS]


def hide_spelling(parts: list[str]) -> str:
    """``parts`` as the link writes them (``none`` for an empty list)."""
    return ",".join(p for p in PARTS if p in parts) or "none"


def presentation_sidebar() -> None:
    """The sidebar's *Classroom* section: the presentation switch and what it hides (both in the link)."""
    sb = st.sidebar
    if HIDE not in st.session_state:  # the session's first run: the link's list, or the default
        start = (st.session_state.get(URL_AT_START) or {}).get("values", {})
        given = start.pop(HIDE, None)
        parts, unknown = parse_hide(given) if given is not None else (list(DEFAULT_HIDE), [])
        problem = ""
        if given is not None and not parts and given.strip().lower() != "none":  # empty, or nothing it knows
            parts = list(DEFAULT_HIDE)
            problem = f"hide={quoted(given)} names no part (using {hide_spelling(parts)!r})"
        elif unknown:
            problem = f"hide= names parts this app does not have: {', '.join(quoted(u) if len(u) > 40 else u for u in unknown)}"
        if problem:  # said above the page (the sidebar may be hidden): glue.shared.report_url_problems
            st.session_state.setdefault(URL_NOTES, []).append(
                f"{problem}; the parts are {', '.join(PARTS)}, or none")
        st.session_state[HIDE] = parts
    sb.subheader("Classroom")
    bound(sb.toggle, "Presentation mode", key=PRESENT,
          help="Larger type, markers and lines for a projector, and the parts chosen below hidden. "
               "It goes into the link: prepare a link before class.")
    sb.multiselect("Hide while presenting", list(PARTS), format_func=PARTS.get, key=HIDE,
                   help="These parts disappear in presentation mode (their settings stay in force): the sidebar (with "
                        "this switch: a button at the top brings it back), the settings above the chart, the notes "
                        "under it, the tables and export buttons, the page title.")
    _write_hide_to_url(st.session_state[HIDE])


def _write_hide_to_url(parts: list[str]) -> None:
    """Keep ``hide=`` in the address bar while it differs from the default (pages drop unbound parameters)."""
    text = hide_spelling(parts)
    if text == hide_spelling(DEFAULT_HIDE):
        if HIDE in st.query_params:
            del st.query_params[HIDE]
    elif st.query_params.get(HIDE) != text:
        st.query_params[HIDE] = text



def _leave() -> None:
    st.session_state[PRESENT] = False


def presentation_style(pages: list) -> None:
    """In presentation mode: the larger type, the hidden parts, and, when the sidebar is hidden, a bar with the way
    out and the links to the ``pages`` (``st.Page`` objects) the sidebar would have shown."""
    if not presenting():
        return
    hidden = st.session_state.get(HIDE, [])
    css = _BIG + "\n" + "\n".join(_CSS[p] for p in hidden if p in _CSS)
    st.html(f"<style>{css}</style>")
    if "sidebar" in hidden:
        # one row that wraps: every label whole, whatever the screen's width
        bar = st.container(key="present_bar", horizontal=True, vertical_alignment="center", gap="small")
        bar.button("Leave presentation mode", key="present_leave", on_click=_leave,
                   type="tertiary", help="Shows the sidebar and the hidden parts again.")
        for page in pages:
            bar.page_link(page)


def _title_holds_label() -> bool:
    return presenting() and "title" not in st.session_state.get(HIDE, [])


def page_title(title: str, label: str) -> None:
    """Draws the page's ``title``: in presentation mode, where the title is shown, with the dataset's ``label`` on its
    line in smaller type (a slide's chart gains the label's own line, the Dual's data panel at 1024×768 most:
    bench/RESULTS.md). The label, from a file's name or a link, is shown as text."""
    if not _title_holds_label():
        st.title(title)
        return
    text = "".join(f"&#{ord(c)};" if c.isascii() and not c.isalnum() and c != " " else c for c in str(label))
    st.markdown(f"# {escape_md(title)}<span class='dbl-label'>{text}</span>", unsafe_allow_html=True)


def label_line(label: str, dataset_label: str) -> None:
    """The label of the points a chart draws, over it, unless the page's title holds it (a last good run of other
    points than the dataset's keeps its line)."""
    if not (_title_holds_label() and label == dataset_label):
        st.markdown(f"**{escape_md(label)}**")


def part(name: str, suffix: str = ""):
    """A container for one hideable part of a page (``name`` in settings, notes, tables)."""
    if name not in ("settings", "notes", "tables"):
        raise ValueError(f"name must be settings, notes or tables, got {name!r}")
    return st.container(key=f"dbl_{name}{'_' + suffix if suffix else ''}")
