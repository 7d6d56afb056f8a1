"""The controls a chart draws itself (glue.controls): what a report or a link may give each, and what the page keeps
and writes into the address. The browser's part (drawing them, a move, the report) is in tests/test_e2e_perceptron.py."""

from __future__ import annotations

import pytest
from apptest_helpers import records, scene_run
from streamlit.testing.v1 import AppTest
from test_link_roundtrip import APP

from glue.controls import read_reported
from glue.options import BATCHES, TAUS
from viz.scene import unpack

PERCEPTRON = "app_pages/perceptron.py"


@pytest.mark.parametrize("key, text, want", [
    ("tau", "0.5", 0.5), ("tau", "2", 2.0), ("tau", "0.3", None), ("tau", "abc", None), ("tau", "1e999", None),
    ("variant", "mini-batch", "minibatch"), ("variant", "minibatch", "minibatch"), ("variant", "sideways", None),
    ("B_b", "16", 16), ("B_b", "3", None), ("C", "0.001", 0.001), ("lam", "0.1", 0.1), ("lam", "-1", None),
])
def test_a_reported_value_is_one_of_the_controls_or_none(key, text, want):
    options = {"tau": TAUS, "B_b": BATCHES}.get(key)
    assert read_reported(key, text, options) == want


@pytest.mark.parametrize("text, want", [("16", 16), ("16.0", 16), ("0", None), ("61", None), ("2.5", None),
                                        ("inf", None), ("9" * 400, None), ("", None)])
def test_a_reported_batch_size_is_a_whole_number_from_lo_to_hi(text, want):
    assert read_reported("B", text, None, 1, 60) == want


@pytest.mark.parametrize("text, want", [("99999", 99999), ("-3", -3), ("1e9", 10**9), ("2e9", None)])
def test_a_batch_size_without_bounds_is_any_whole_number_up_to_a_billion(text, want):
    assert read_reported("B", text) == want  # (the page names one outside 1..N and runs the nearest)


@pytest.mark.parametrize("bad", [None, 3, ["0.5"], {"x": 1}, "0.5" * 100])
def test_a_report_that_is_no_text_or_too_long_gives_nothing(bad):
    assert read_reported("tau", bad, TAUS) is None


def page(url: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(PERCEPTRON)
    for key, value in url.items():
        at.query_params[key] = value
    return at.run()


def test_a_links_value_opens_the_chart_there_and_the_default_leaves_the_address():
    at = page({"tau": "0.5", "variant": "random"})
    assert not at.exception and not at.warning
    assert at.session_state["tau"] == 0.5 and at.session_state["variant"] == "random"
    assert scene_run(at).run["variant"] == "random"
    controls = {c["key"]: c for c in unpack(records(at)[0])[0]["view"]["controls"]}
    assert controls["tau"]["value"] == "0.5" and controls["variant"]["value"] == "random"
    assert controls["B"]["enabled_by"] == ["Variant", "mini-batch"] and (controls["B"]["lo"], controls["B"]["hi"]) == (1, 3)
    at.session_state["tau"] = 1.0  # moved back to the default (what the chart's report sets): out of the address
    at.run()
    assert "tau" not in at.query_params and at.query_params["variant"] == "random"


def test_a_links_value_that_is_none_of_the_controls_is_named_and_the_default_used():
    at = page({"tau": "0.3"})
    said = " ".join(w.value for w in at.warning)
    assert "tau='0.3'" in said and "using '1.0'" in said
    assert at.session_state["tau"] == 1.0


def test_a_page_come_back_to_writes_its_controls_into_the_address_again():
    at = page({"tau": "0.5"})
    at.switch_page("app_pages/home.py").run()
    for key in list(at.query_params):  # (the browser's address on another page: the chart's settings not in it)
        del at.query_params[key]
    at.switch_page(PERCEPTRON).run()
    assert not at.exception and at.query_params["tau"] == "0.5" and at.session_state["tau"] == 0.5
