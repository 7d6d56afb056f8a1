"""Charts serialized where they are built (viz.common.Chart) reach the browser exactly as their figures would, in a
still figure's scene record (viz.scene.figure_scene), with no library function replaced."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
from apptest_helpers import records, still_figure
from oracles import figure_of
from streamlit.testing.v1 import AppTest

from viz.common import Chart, readable, serialized

X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.0], [-2.0, 0.5], [0.5, -2.0]])
Y = np.array([1, 1, -1, -1, -1])


def _figure() -> dict:
    return still_figure()


def _sent_specs() -> list[str]:
    def app():

        from apptest_helpers import still_figure

        from glue.shared import show_chart
        from viz.common import serialized

        fig = still_figure()
        show_chart(fig, "as_dict", "the figure")
        show_chart(serialized(fig), "as_chart", "the figure")

    at = AppTest.from_function(app).run()
    assert not at.exception
    assert not at.get("plotly_chart")  # the renderer draws them
    return [figure_of(b) for b in records(at)]


def test_a_chart_sends_the_same_spec_as_the_figure_it_was_made_from():
    as_dict, as_chart = _sent_specs()
    assert as_dict == as_chart
    assert as_chart["data"] == json.loads(pio.to_json(readable(_figure()), validate=False))["data"]


def test_a_chart_keeps_what_the_page_reads():
    fig = _figure()
    chart = serialized(fig)
    assert isinstance(chart, Chart)
    assert chart.meta == fig["layout"]["meta"]
    assert chart.height == fig["layout"]["height"]
    assert chart.figure() == json.loads(pio.to_json(readable(fig), validate=False))


def test_plotly_s_own_serializer_is_left_as_it_is():
    import plotly.io

    import glue.shared  # noqa: F401 - the page module that once replaced it

    assert plotly.io.to_json.__module__.startswith("plotly.")
    fig = {"data": [{"type": "scatter", "x": [1, 2], "y": [3, float("nan")]}], "layout": {"height": 300}}
    assert json.loads(pio.to_json(fig, validate=False)) == {
        "data": [{"type": "scatter", "x": [1, 2], "y": [3, None]}], "layout": {"height": 300}}


def test_titled_axes_renames_only_the_data_axes():
    from viz.common import serialized, titled_axes

    fig = {"data": [], "layout": {"xaxis": {"title": {"text": "x₁", "standoff": 4}}, "yaxis": {"title": {"text": "x₂"}},
                                  "xaxis2": {"title": {"text": "w₁"}},
                                  "annotations": [{"text": "x₁ is examined"}]}}
    axes = ("x₁: sepal \"length\"", "x₂: width (standardized)")
    out = titled_axes(fig, axes)
    assert out["layout"]["xaxis"]["title"] == {"text": axes[0], "standoff": 4}
    assert out["layout"]["yaxis"]["title"]["text"] == axes[1] and out["layout"]["xaxis2"]["title"]["text"] == "w₁"
    assert fig["layout"]["xaxis"]["title"]["text"] == "x₁"  # the cached figure is not changed
    chart = titled_axes(serialized(fig), axes).figure()
    assert chart["layout"]["xaxis"]["title"]["text"] == axes[0] and chart["layout"]["yaxis"]["title"]["text"] == axes[1]
    assert chart["layout"]["annotations"][0]["text"] == "x₁ is examined"
    import importlib.util
    from dataclasses import replace

    # the JSON a Chart holds depends on which engine Plotly finds: "x\u2081" from json, "x₁" from orjson
    for engine in ["json"] + (["orjson"] if importlib.util.find_spec("orjson") else []):
        spec = serialized(fig)
        out = titled_axes(replace(spec, json=pio.to_json(readable(fig), validate=False, engine=engine)), axes).figure()
        assert out["layout"]["xaxis"]["title"]["text"] == axes[0] and out["layout"]["yaxis"]["title"]["text"] == axes[1]
    assert titled_axes(fig, None) is fig
