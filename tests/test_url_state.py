"""Every page's state through the URL (AppTest): written as the widgets write it, read back exactly; bad values named;
the table of settings (glue.options.STATE) is what the pages draw; hand-edited links (numbers past a float, long values,
a link too long for Streamlit) named, never a traceback.

The widgets bind to query parameters (Streamlit writes them in the browser, which
the e2e tests check); here each page's whole non-default state is written the way
:func:`glue.options.url_spelling` says the widgets write it, and a fresh session
opened with that query string must show the same values in every widget.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_helpers import chart_shown
from streamlit.runtime.state import query_params as qp
from streamlit.testing.v1 import AppTest
from test_views import APP, page_from_url

from core.svm import C_GRID
from glue.options import COMPARE_LABELS, PARAMS, SIDEBAR, STATE, known_url_key, parse_url, quoted, url_spelling
from glue.shared import BOUND_THIS_RUN, dropped_link_message
from glue.userdata import LINK_MAX_CHARS, LINK_MAX_PARAMS, TOOLS_KEY, link_over_limits

DATA = {"ds": "blobs", "n_blobs": 60, "blobs_noise": 0.35, "data_seed": 4}
STATES = {
    "app_pages/perceptron.py": {
        "variant": "minibatch", "tau": 0.5, "B": 3, "rule": "negative", "frames": "updates", "bias": False,
        "w01": 1.5, "w02": -0.5, "b0": 1.0, "seed": 7, "max_steps": 500, "reduction": "sum", "height": 560},
    "app_pages/dual.py": {"kernel": "rbf", "gamma": 3.0, "eta": 0.5, "order": "random", "frames": "updates", "seed": 3,
                      "max_steps": 400, "height": 900},
    "app_pages/svm.py": {"C": float(C_GRID[20]), "kernel": "poly", "degree": 3, "coef0": 2.0, "overlay": False,
                     "height": 900},
    "app_pages/losses.py": {"loss": "hinge", "slice": "theta", "lam": 0.1, "path": "hinge_sgd", "radius": 2.0,
                        "height": 780, "path_seed": 5, "lit": 3},
}


def _query(state: dict) -> dict[str, str]:
    return {k: url_spelling(k, v) for k, v in state.items()}


@pytest.mark.parametrize("page", list(STATES))
def test_a_pages_whole_state_round_trips_through_the_url(page):
    state = {**DATA, **STATES[page]}
    at = page_from_url(_query(state), page)
    assert not [w.value for w in at.warning if "Ignored URL" in w.value]
    for key, value in state.items():
        assert at.session_state[key] == value, key
    assert chart_shown(at)


@pytest.mark.parametrize("page", list(STATES))
def test_the_choices_written_are_the_ones_read(page):
    for key, value in {**DATA, **STATES[page]}.items():
        spelled = url_spelling(key, value)
        parsed = parse_url({key: spelled})
        assert parsed.get(key, value) == value, key  # keys Streamlit reads itself (numbers) are not parsed here


@pytest.mark.parametrize("page, key", [(p, k) for p, state in STATES.items() for k in state])
def test_every_parameter_with_a_bad_value_is_named_and_the_rest_of_the_link_still_used(page, key):
    state = {**DATA, **STATES[page]}
    at = page_from_url({**_query(state), key: "nonsense"}, page)
    warned = " ".join(w.value for w in at.warning)
    assert f"{key}='nonsense'" in warned
    for other, value in state.items():
        if other != key and (key, other) not in DEPENDS:
            assert at.session_state[other] == value, other
    assert chart_shown(at) and not at.exception


DEPENDS = {("variant", "B"), ("kernel", "gamma"), ("kernel", "degree"), ("kernel", "coef0")}  # drawn only for a choice


# ----------------------------------------------------------------------------
# the table (glue.options.STATE) is what the pages draw
# ----------------------------------------------------------------------------

# links that draw every bound widget of a page between them (some are drawn for one choice only)
DRAW_ALL = {
    "app_pages/home.py": [{}],
    "app_pages/perceptron.py": [{"variant": "mini-batch"}],
    "app_pages/dual.py": [{"kernel": "polynomial"}, {"kernel": "RBF"}],
    "app_pages/svm.py": [{"kernel": "polynomial"}, {"kernel": "RBF"}],
    "app_pages/losses.py": [{}],
    "app_pages/compare.py": [{"cmp": label} for label in COMPARE_LABELS.values()],
}


@pytest.mark.parametrize("page", list(DRAW_ALL))
def test_every_bound_widget_is_a_row_of_the_table_for_its_page_with_its_default_and_bounds(page):
    from test_link_roundtrip import assert_defaults_are_the_tables, bound_widgets

    stem = Path(page).stem
    for link in DRAW_ALL[page]:
        at = page_from_url({"ds": "Blobs", **link}, page)
        for key in at.session_state[BOUND_THIS_RUN]:
            assert key in PARAMS, key
            assert stem in PARAMS[key].pages or SIDEBAR in PARAMS[key].pages, (key, PARAMS[key].pages)
        assert_defaults_are_the_tables(at, page)
        for key, node in bound_widgets(at).items():
            row = PARAMS[key]
            if type(node.proto).__name__ == "NumberInput" and row.hi is not None:
                assert (node.proto.min, node.proto.max) == (row.lo, row.hi), key


def test_the_derived_views_read_the_table():
    assert all(known_url_key(p.key) for p in STATE) and not known_url_key("foo")
    assert known_url_key("blobs_noise") and known_url_key("n_xor") and not known_url_key("textbook_noise")
    assert parse_url({"ds": "xor", "tau": "2", "bias": "0", "seed": "3", "foo": "1"}) == {
        "ds": "xor", "tau": 2.0, "bias": False}  # (seed: Streamlit's number box reads it itself)
    assert url_spelling("C", PARAMS["C"].default) == "1" and url_spelling("hard", True) == "true"


# ----------------------------------------------------------------------------
# hand-edited links
# ----------------------------------------------------------------------------

NOT_FINITE = ["inf", "-inf", "1e999", "9" * 400]


def _numeric_rows(page: str) -> list:
    stem = Path(page).stem
    return [p for p in STATE if p.numeric and (stem in p.pages or (stem == "home" and SIDEBAR in p.pages))]


@pytest.mark.parametrize("bad", NOT_FINITE)
@pytest.mark.parametrize("page", list(DRAW_ALL))
def test_a_number_too_large_for_a_float_is_named_and_the_default_kept(page, bad):
    """``?max_steps=inf``, ``?data_seed=1e999``, 400 nines: Streamlit's number box raised OverflowError on reading
    them, on every rerun. Every number of the table, at once: each is named, leaves the address, and the widget shows
    its default."""
    rows = _numeric_rows(page)
    at = page_from_url({"ds": "Blobs", **{p.key: bad for p in rows}}, page)
    warned = " ".join(w.value for w in at.warning)
    for p in rows:
        assert f"{p.key}={quoted(bad)} (not a finite number" in warned, p.key
        assert p.key not in at.query_params
        default = p.default_on(Path(page).stem)
        if p.key in at.session_state and default is not None:
            assert at.session_state[p.key] == default, p.key
    at.run()
    assert not at.exception
    assert chart_shown(at) or page.endswith("home.py")


def test_an_int_given_twice_that_is_not_finite_is_named_too():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["max_steps"] = ["5", "inf"]
    at.switch_page("app_pages/perceptron.py").run()
    assert not at.exception
    assert "max_steps='inf' (not a finite number" in " ".join(w.value for w in at.warning)


def test_long_values_are_quoted_short_with_their_length():
    """Two 10 KB values made a 20,610-character warning: each is quoted by its first 40 characters and its length."""
    at = page_from_url({"foo": "x" * 10_240, "ds": "y" * 10_240, "k" * 5_000: "1"}, page=None)
    warned = [w.value for w in at.warning if "Ignored URL" in w.value]
    assert len(warned) == 1 and len(warned[0]) < 600, warned
    text = warned[0]
    assert f"foo='{'x' * 39}…' (10,240 characters) (not a setting of this app)" in text
    assert f"ds='{'y' * 39}…' (10,240 characters) (using 'Textbook (3 points)'" in text
    assert f"'{'k' * 39}…' (5,000 characters)='1'" in text


def test_a_link_too_long_for_streamlit_is_named():
    """Streamlit drops a query string over 524,288 characters or 1,000 parameters whole before the script runs and
    says so only in the server's log (a pts= of 100,000 points is about 1 MB). The browser's TOOLS component reports
    such an address (tests/test_e2e_long_link.py); what it reports is checked, worded, and said (in one message) while
    the address stays over the limits."""
    # the limits and the counting rule TOOLS uses (characters after the "?"; one more parameter than "&"s) are
    # Streamlit's own: a string is dropped exactly when they say it is over
    assert (LINK_MAX_CHARS, LINK_MAX_PARAMS) == (qp.CLIENT_STATE_QUERY_STRING_MAX_LENGTH,
                                                 qp.CLIENT_STATE_QUERY_STRING_MAX_FIELDS)
    for query in ["a" * 524_288, "a" * 524_289, "&" * 999, "&" * 1_000, "x=1&" * 999 + "x=1", "x=1&" * 1_000, "=&"]:
        chars, params = len(query), query.count("&") + 1
        assert (qp.sanitize_query_string(query) == "") == (link_over_limits({"chars": chars, "params": params})
                                                           is not None), query[:20]

    assert link_over_limits({"chars": 600_000, "params": 1}) == (600_000, 1)
    for event in [None, [], {"chars": 600_000}, {"chars": "600000", "params": 1}, {"chars": True, "params": 1},
                  {"chars": 600_000.5, "params": 1}, {"chars": -1, "params": 2_000}, {"chars": 524_288, "params": 1_000}]:
        assert link_over_limits(event) is None, event  # (malformed, or within the limits: nothing said)

    long = dropped_link_message(600_000, 1)
    assert long.startswith("This link is too long (600,000 characters; Streamlit reads a link of at most 524,288)")
    assert "none of it was read" in long and "CSV" in long
    many = dropped_link_message(2_000, 1_001)
    assert many.startswith("This link has too many parameters (1,001; Streamlit reads a link of at most 1,000)")
    assert dropped_link_message(524_288, 1_000) is None

    for page in ("app_pages/svm.py", None):  # (a chart page, and the home page, which has no fragment)
        at = page_from_url({"ds": "XOR"}, page)
        for key in list(at.query_params):  # (Streamlit dropped the address whole: the run reads none of it)
            del at.query_params[key]
        at.session_state[TOOLS_KEY] = {"link": {"chars": 600_000, "params": 1}}  # (the state TOOLS sets)
        for _ in range(2):  # said on each run while the address stays so, in one message
            at.run()
            said = [w.value for w in at.warning if "too long" in w.value]
            assert not at.exception and len(said) == 1 and "This link is too long (600,000 characters" in said[0]
            assert at.session_state["ds"] == "xor"  # the view it showed is kept
        at.query_params["ds"] = "XOR"  # a link read (the address back within the limits): nothing said
        at.run()
        assert not at.exception and not [w for w in at.warning if "too long" in w.value]


def test_a_thousand_unknown_parameters_are_counted_and_left_where_a_few_are_taken_out():
    """A link with 1,000 parameters no setting reads (Streamlit's most): the first few are named, the rest counted;
    they stay in the address (a deletion each asked the browser for a thousand address writes, and the page never
    settled), where a few are taken out."""
    from glue.shared import UNKNOWN_NAMED, UNKNOWN_TAKEN_OUT

    at = page_from_url({"ds": "XOR", **{f"zz{i}": "1" for i in range(999)}})
    said = [w.value for w in at.warning if "Ignored URL parameters" in w.value]
    assert len(said) == 1 and f"and {999 - UNKNOWN_NAMED:,} more parameters" in said[0] and len(said[0]) < 1_500
    assert "zz0=" in said[0] and f"zz{UNKNOWN_NAMED}=" not in said[0]
    assert "stay in the address" in said[0] and at.query_params["ds"] == "XOR"
    assert len([k for k in at.query_params if k.startswith("zz")]) == 999
    few = page_from_url({"ds": "XOR", **{f"zz{i}": "1" for i in range(UNKNOWN_TAKEN_OUT)}})
    assert not [k for k in few.query_params if k.startswith("zz")] and few.query_params["ds"] == "XOR"
