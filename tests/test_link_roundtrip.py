"""A dataset picked in the sidebar survives the link: pick D on a page, read the address the app leaves (what the
browser writes for the bound widgets, with what the server wrote itself: pts=), open that address in a fresh session
and find D with the same points on the same page.

The browser (Streamlit's frontend) writes a bound widget's value into the address when the user changes it, and takes
the parameter out when the value equals the widget's default as the last run drew it; AppTest has no browser, so
:func:`address` does the browser's part from the widgets' protos. The dataset list's default once moved to its first
entry after the session's first run, so picking *Separable (margin γ)* after another dataset left no ``ds=`` and the
link opened on the Textbook example (issue 38).

Which walks: every start E and pick D on Home (the sidebar is the same on every page, and Home draws nothing else), and
every D from one E on every chart page (what a page draws beside the sidebar); each distinct address is opened once.
Every run also checks each bound widget's default against the table (glue.options.STATE).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from datasets import REGISTRY
from glue.dataset import CUSTOM, DATASET_KEY
from glue.options import PARAMS, url_spelling

APP = str(Path(__file__).resolve().parent.parent / "app.py")
DATASETS = [*REGISTRY, CUSTOM]
HOME = "app_pages/home.py"
PAGES = ["app_pages/perceptron.py", "app_pages/dual.py", "app_pages/svm.py", "app_pages/losses.py",
         "app_pages/compare.py"]


def bound_widgets(at: AppTest) -> dict[str, object]:
    """The widgets bound to the address (those whose proto names a query parameter), by key."""
    found = {}

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None and getattr(proto, "query_param_key", ""):
            found[proto.query_param_key] = node
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def default_text(node) -> str:
    """A bound widget's default as the browser compares it with the value (the proto's, written as the link writes
    it)."""
    p = node.proto
    kind = type(p).__name__
    if kind in ("Selectbox", "Radio"):
        return p.options[p.default]
    if kind == "Slider":
        return p.options[int(p.default[0])] if len(p.options) else str(float(p.default[0]))
    if kind == "NumberInput":
        return str(int(p.default)) if p.data_type == p.INT else str(float(p.default))
    if kind == "Checkbox":
        return str(p.default).lower()
    raise AssertionError(f"no default for a {kind}")


def address(at: AppTest, changed: str, default_before: str) -> dict[str, str]:
    """The address after the user changed the widget ``changed`` (whose default, as the run before drew it, was
    ``default_before``): what the server wrote (``at.query_params``), and every bound widget's value where it is not
    its default."""
    link = dict(at.query_params)
    for key, node in bound_widgets(at).items():
        text = url_spelling(key, at.session_state[key])
        default = default_before if key == changed else default_text(node)
        if text == default:
            link.pop(key, None)
        else:
            link[key] = text
    return link


def page_stem(page: str) -> str:
    return Path(page).stem


def assert_defaults_are_the_tables(at: AppTest, page: str) -> None:
    """Every bound widget's default is the table's (glue.options.STATE), the same on every run: a default that moves
    takes a value equal to it out of the link."""
    for key, node in bound_widgets(at).items():
        default = PARAMS[key].default_on(page_stem(page))
        if default is not None:  # (None: set by the data, B and b_at)
            assert default_text(node) == url_spelling(key, default), key


def pick(at: AppTest, name: str, page: str) -> dict[str, str]:
    """Pick ``name`` in the dataset list; the address the browser then shows."""
    box = at.sidebar.selectbox(key="ds")
    before = default_text(box)
    box.set_value(name).run()
    assert not at.exception, at.exception
    assert_defaults_are_the_tables(at, page)
    return address(at, "ds", before)


_opened: dict[tuple, tuple] = {}


def opened(link: dict[str, str], page: str) -> tuple[str, np.ndarray, np.ndarray]:
    """A fresh session opened at ``link`` on ``page``: its dataset's name and points (each address opened once)."""
    key = (page, tuple(sorted(link.items())))
    if key not in _opened:
        at = AppTest.from_file(APP, default_timeout=60)
        for k, v in link.items():
            at.query_params[k] = v
        at.switch_page(page)
        at.run()
        assert not at.exception, at.exception
        assert not [w.value for w in at.warning if "URL" in w.value or "link" in w.value], link
        ds = at.session_state[DATASET_KEY]
        _opened[key] = (ds.name, ds.X, ds.y)
    return _opened[key]


def walk(page: str, start: str, picks: list[str]) -> None:
    """On ``page``, from dataset ``start`` (picked in the sidebar, not the session's first), pick each of ``picks`` and
    back; each pick's address must open the same points."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(page)
    at.run()
    assert not at.exception
    if at.session_state["ds"] == start:  # the session starts on it: go elsewhere and back, as a user would
        pick(at, next(d for d in DATASETS if d != start), page)
    pick(at, start, page)
    for name in picks:
        link = pick(at, name, page)
        ds = at.session_state[DATASET_KEY]
        got = opened(link, page)
        assert got[0] == name == ds.name, (start, name, link)
        np.testing.assert_array_equal(got[1], ds.X, err_msg=f"{start} -> {name}: {link}")
        np.testing.assert_array_equal(got[2], ds.y, err_msg=f"{start} -> {name}: {link}")
        pick(at, start, page)


@pytest.mark.parametrize("start", DATASETS)
def test_every_dataset_picked_from_every_other_opens_again_from_the_link(start):
    walk(HOME, start, [d for d in DATASETS if d != start])  # (the sidebar is every page's: Home draws it alone)


@pytest.mark.parametrize("page", PAGES)
def test_every_dataset_picked_on_every_page_opens_again_from_the_link(page):
    walk(page, "blobs", [d for d in DATASETS if d != "blobs"])
