"""What AppTest tests read from a page: the scenes the renderer draws (viz.scene), its still figures among them."""

from __future__ import annotations

from oracles import figure_of
from streamlit.testing.v1 import AppTest

from viz.scene import (
    CompareScene,
    DualScene,
    LossDataScene,
    LossScene,
    PerceptronRun,
    PerceptronScene,
    SgdScene,
    SvmScene,
    unpack,
)


def decoded(blob: bytes) -> PerceptronScene | DualScene | SvmScene | CompareScene | SgdScene | LossScene:
    """A scene record as the dataclass of its kind."""
    kind = unpack(blob)[0]["kind"]
    return {"perceptron": PerceptronScene, "dual": DualScene, "svm": SvmScene, "compare": CompareScene,
            "sgd": SgdScene, "loss": LossScene}[kind].from_bytes(blob)


def records(at: AppTest) -> list[bytes]:
    """Every scene record sent to the browser renderer on this run, still figures included, as bytes."""
    return [e.proto.bytes for e in at.get("bidi_component")
            if e.proto.component_name.endswith("dbl_scene") and e.proto.WhichOneof("data") == "bytes"]


STILL = ("figure", "lossdata")  # the kinds that do not step: a still figure, the Loss page's data chart


def scenes(at: AppTest) -> list[PerceptronScene | DualScene]:
    """The scene records of this run that step (every kind but the STILL ones), decoded."""
    return [decoded(b) for b in scenes_bytes(at)]


def scenes_bytes(at: AppTest) -> list[bytes]:
    """The scene records of this run that step, as bytes (the same bytes twice: nothing new travelled; a chart's
    controls name the values the page opened at: glue.controls)."""
    return [b for b in records(at) if unpack(b)[0]["kind"] not in STILL]


def figures(at: AppTest) -> list[dict]:
    """The still figures of this run (``figure`` records: viz.scene.figure_scene), as Plotly figure dicts."""
    return [figure_of(b) for b in records(at) if unpack(b)[0]["kind"] == "figure"]


def loss_data(at: AppTest) -> LossDataScene:
    """The Loss page's data chart (its one ``lossdata`` record)."""
    found = [LossDataScene.from_bytes(b) for b in records(at) if unpack(b)[0]["kind"] == "lossdata"]
    assert len(found) == 1, f"expected one data chart, found {len(found)}"
    return found[0]


def scene(at: AppTest) -> PerceptronScene | DualScene:
    """The page's one scene."""
    found = scenes(at)
    assert len(found) == 1, f"expected one scene, found {len(found)}"
    return found[0]


def scene_run(at: AppTest) -> PerceptronRun:
    """The run of the page's scene that the renderer shows: the one of the τ control's value."""
    tau = float(at.session_state["tau"]) if "tau" in at.session_state else 1.0
    runs = [r for r in scene(at).runs if r.run["tau"] == tau]
    assert len(runs) == 1, f"the scene has no run for τ = {tau}"
    return runs[0]


def figure(at: AppTest) -> dict:
    """The page's first still figure."""
    return figures(at)[0]


def chart_shown(at: AppTest) -> bool:
    """Whether the page drew a chart: a still figure or a scene."""
    return bool(records(at))


def run_meta(at: AppTest) -> dict:
    """What the page's chart says of its run: a Perceptron scene's fields in the words figures' ``layout.meta`` use,
    or, on a page still drawn by a Plotly figure, that meta itself."""
    if not scenes(at):
        return figure(at)["layout"]["meta"]
    s = scene(at)
    if isinstance(s, SvmScene):  # the C shown: the page's C control's, which the chart follows (one C: that one)
        C = float(at.session_state["C"]) if "C" in at.session_state else 1.0
        k = s.Cs.tolist().index(C) if len(s.Cs) > 1 else 0
        return {"view": "svm", "kernel": s.run["kernel"], "C": float(s.Cs[k]), "live": len(s.Cs) > 1,
                "width": 2 * float(s.margin[k]), "support": int((s.flags[k] >> 2 & 1).sum()),
                "follow": s.follow, "scale": s.view.scale, "height": s.view.height}
    if isinstance(s, DualScene):
        r = s.run  # a kernel's record holds every η: the chart shows the page's η control's (it follows it)
        eta = (float(at.session_state["eta"]) if "eta" in at.session_state else 1.0) if r.get("etas") else r["eta"]
        return {"view": "dual", "kernel": r["kernel"], "kernel_params": r["kernel_params"], "eta": eta,
                "variant": r["variant"], "n_points": len(s.y), "n_steps": r["n_steps"],
                "n_updates": len(s.update_steps), "converged": r["converged"], "gram_block": r["gram_block"],
                "start": s.view.start, "scale": s.view.scale, "height": s.view.height, "mode": s.view.mode}
    r = scene_run(at)
    return {"view": "perceptron", "variant": r.run["variant"], "tau": r.run["tau"], "n_points": len(s.y),
            "n_steps": r.run["n_steps"], "n_updates": len(r.update_steps), "converged": r.run["converged"],
            "start": s.view.start, "scale": s.view.scale, "height": s.view.height, "mode": s.view.mode,
            "taus": s.taus}


def still_figure() -> dict:
    """A small Plotly figure (two traces, an annotation, meta), as the still figures the app sends (the Loss
    surface's θ slice and 3-D view, its data chart, the points alone)."""
    return {"data": [{"type": "scatter", "mode": "markers", "name": "y = +1", "x": [0.0], "y": [0.0],
                      "marker": {"size": 10, "line": {"width": 1}}},
                     {"type": "scatter", "mode": "lines", "name": "boundary w·x + b = 0", "x": [0.0, 1.0], "y": [1.0, 0.0],
                      "line": {"width": 4}}],
            "layout": {"height": 520, "font": {"size": 16}, "annotations": [{"text": "Step 0", "font": {"size": 15}}],
                       "meta": {"view": "test", "steps": 4}}}


def chart_control(at: AppTest, key: str, value) -> AppTest:
    """What a chart's own control (τ, η, C, λ, the variant, B: glue.controls) reports once moved: the value the page
    keeps under ``key`` (AppTest has no browser to draw it; the report itself: tests/test_controls.py)."""
    at.session_state[key] = value
    return at
