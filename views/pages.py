"""The chart pages run as fragments: a control of the page reruns the page alone.

``st.fragment`` on a page function: a widget of the page then reruns that page's script, not ``app.py`` around it
(the dataset sidebar, the presentation switch, the points table under the page), which sends about two thirds of
the messages and skips their work (README, "Where the time goes"). What lies outside the page (the dataset, a click
on a chart that adds a point, which the sidebar's tools apply, the table) still reruns the whole app.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import CodeType

import streamlit as st

VIEWS = Path(__file__).resolve().parent


@functools.cache
def _code(name: str) -> CodeType:
    """The page script ``views/<name>.py``, compiled once per server process."""
    path = VIEWS / f"{name}.py"
    return compile(path.read_text(encoding="utf-8"), str(path), "exec")


def fragment_page(name: str):
    """The page script ``views/<name>.py`` as a page function for ``st.Page``, run as a fragment."""
    def page() -> None:
        exec(_code(name), {"__name__": "__main__", "__file__": str(VIEWS / f"{name}.py")})  # noqa: S102 (our script)

    page.__name__ = page.__qualname__ = f"page_{name}"  # one fragment per page
    return st.fragment(page)
