"""A malformed scene record is named, never misread: unpack and every scene's from_bytes raise ValueError (with a
message saying what is wrong) for any bytes that are not a record, and nothing else (issue 38).

The records damaged are the core's own runs' (short ones: the whole file runs in a few seconds)."""

from __future__ import annotations

import functools
import json
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.bounds import mistake_bound
from core.dual import run_dual
from core.perceptron import run_perceptron
from core.svm import fit_svm, hinge_sgd
from datasets import make_dataset
from viz.scene import (
    SCENE_VERSION,
    CompareScene,
    DualScene,
    LossDataScene,
    LossScene,
    PerceptronScene,
    SgdScene,
    SvmScene,
    View,
    bundle,
    compare_scene,
    dual_scene,
    loss_data_scene,
    loss_scene,
    pack,
    perceptron_scene,
    sgd_scene,
    svm_scene,
    unpack,
    with_view,
)

SCENES = (PerceptronScene, CompareScene, SgdScene, DualScene, SvmScene, LossScene, LossDataScene)


@functools.cache
def records() -> tuple[bytes, ...]:
    """One valid record of every kind, from short runs of the core."""
    X, y = make_dataset("blobs", 24, 0, noise=1.0)
    runs = [run_perceptron(X, y, variant=v, tau=t, batch_size=4, seed=1, max_steps=30)
            for v, t in (("random", 1.0), ("random", 0.5), ("minibatch", 1.0))]
    perceptron = perceptron_scene(runs[:2], bound=mistake_bound(X, y), view=View(quiz={"step": 1, "answered": False,
                                                                                        "pick": None}), follow="τ")
    hinge = hinge_sgd(X, y, C=1.0, max_steps=40, seed=2)
    exact = fit_svm(X, y, C=1.0)
    w, b = np.array([0.5, -0.3]), 0.1
    grid = np.linspace(-2, 2, 5)
    out = (perceptron.to_bytes(),
           compare_scene(runs[0], hinge, reference=exact, view=View(pair=(1.0, 1.0))).to_bytes(),
           sgd_scene(hinge, exact).to_bytes(),
           dual_scene(run_dual(X, y, max_steps=40), primal=run_perceptron(X, y, max_steps=40)).to_bytes(),
           svm_scene(X, y, [fit_svm(X, y, C=c) for c in (0.1, 1.0)]).to_bytes(),
           loss_scene(X, y, ["hinge", "perceptron"], grid, grid, grid[:3], lams=(0.0, 0.1), chosen=(w, b)).to_bytes(),
           loss_data_scene(X, y, ["hinge"], chosen=(w, b), lit=2).to_bytes())
    out += (bundle(list(out[:2])),)
    return out


def read_all(blob) -> None:
    """Every reader of records on ``blob``: success, or ValueError with a message; anything else fails the test."""
    for read in (unpack, *(cls.from_bytes for cls in SCENES), lambda b: with_view(b, View())):
        try:
            read(blob)
        except ValueError as exc:
            assert str(exc), f"{read}: a ValueError with no message"


def parts(blob: bytes) -> tuple[dict, bytes]:
    """A record's header (its arrays' specs in it) and its array section."""
    (h,) = struct.unpack("<I", blob[4:8])
    return json.loads(blob[8:8 + h]), blob[8 + h:]


def joined(header, body: bytes, nan: bool = False) -> bytes:
    """A record of this header (any JSON value) over this array section, its length field right."""
    head = json.dumps(header, allow_nan=nan).encode()
    head += b" " * (-(8 + len(head)) % 8)
    return b"DBLS" + struct.pack("<I", len(head)) + head + body


def test_the_records_read_back():
    for blob in records():
        read_all(blob)
        assert unpack(blob)[0]["kind"] in {"perceptron", "compare", "sgd", "dual", "svm", "loss", "lossdata", "bundle"}
    for cls, blob in zip(SCENES, records(), strict=False):
        assert cls.from_bytes(blob).to_bytes() == blob  # each the inverse of the other


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
special = st.sampled_from([-1, -8, 0, 1, 7, 8, 2**31, 2**53, 2**64, 10**40, 1.5, True, "8", [], {}, None, [3, -1],
                           [-2], [2**40, 2**40], [0, 2**62], [1] * 40, "f4", "<f8", "u8"])


def paths_of(value, at=()):
    """Every place in a JSON value: (path, the value there)."""
    yield at, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from paths_of(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from paths_of(v, (*at, i))


def edited(header, path, how: str, new):
    """``header`` with the value at ``path`` replaced, deleted, or given an extra key."""
    if not path:
        return new if how == "replace" else header
    parent = header
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "replace":
        parent[last] = new
    elif how == "delete":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last]["extra"] = new
    else:
        parent[last] = [parent[last], new]
    return header


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.data())
def test_bit_flips_and_cuts_raise_only_value_errors(data):
    blob = bytearray(data.draw(st.sampled_from(records())))
    (h,) = struct.unpack("<I", blob[4:8])
    for _ in range(data.draw(st.integers(1, 4))):  # mostly in the header, where the structure is
        i = data.draw(st.integers(0, 8 + h - 1) | st.integers(0, len(blob) - 1))
        blob[i] ^= 1 << data.draw(st.integers(0, 7))
    if data.draw(st.booleans()):
        blob = blob[:data.draw(st.integers(0, len(blob)))]
    read_all(bytes(blob))


@FAST
@given(st.data())
def test_header_edits_raise_only_value_errors(data):
    header, body = parts(data.draw(st.sampled_from(records())))
    places = list(paths_of(header))
    # half the edits at the arrays' specs, whose numbers say where the bytes are
    specs = [p for p in places if p[0][:1] == ("arrays",) and len(p[0]) >= 3]
    path, _ = data.draw(st.sampled_from(specs) if specs and data.draw(st.booleans()) else st.sampled_from(places))
    how = data.draw(st.sampled_from(["replace", "delete", "extra"]) if path else st.just("replace"))
    new = data.draw(special | json_values)
    read_all(joined(edited(header, path, how, new), body, nan=data.draw(st.booleans())))


@FAST
@given(json_values | special, st.binary(max_size=64))
def test_any_json_header_raises_only_value_errors(header, body):
    read_all(joined(header, body))
    read_all(joined({"version": SCENE_VERSION, "kind": "perceptron", "arrays": header}, body))


@FAST
@given(st.binary(max_size=80), st.integers(0, 2**32 - 1))
def test_any_bytes_raise_only_value_errors(raw, h):
    read_all(raw)
    read_all(b"DBLS" + raw)
    read_all(b"DBLS" + struct.pack("<I", h) + raw)


# ---- the bugs of issue 38, one by one -----------------------------------------------------------------------------


def record(arrays_spec, body=b"\0" * 64, **fields) -> bytes:
    return joined({"format": "dbl-scene", "version": SCENE_VERSION, "kind": "perceptron", **fields,
                   "arrays": arrays_spec}, body)


@pytest.mark.parametrize("blob, message", [
    (b"DBLS", "does not start with DBLS"),
    ("DBLS\0\0\0\0{}", "is bytes, not str"),
    (b"DBLS" + struct.pack("<I", 100) + b"{}", "cut short"),
    (b"DBLS" + struct.pack("<I", 4) + b"\xff\xfe{}", "not UTF-8"),
    (b"DBLS" + struct.pack("<I", 2) + b"{x", "not JSON"),
    (joined([1, 2], b""), "header is a list, not an object"),
    (joined("text", b""), "header is a string"),
    (joined(None, b""), "header is null"),
    (joined({"version": SCENE_VERSION, "arrays": {}, "x": float("nan")}, b"", nan=True), "NaN is not JSON"),
    (joined({"version": str(SCENE_VERSION), "arrays": {}}, b""), "scene version '5'"),
    (joined({"version": True, "arrays": {}}, b""), "scene version True"),
    (joined({"version": SCENE_VERSION}, b""), "has no arrays"),
    (joined({"version": SCENE_VERSION, "arrays": [1]}, b""), "arrays is a list, not an object"),
    (record({"X": 3}), "'X': its spec holds dtype, shape and offset, got a number"),
    (record({"X": {"dtype": "f8", "shape": [1]}}), r"got \['dtype', 'shape'\]"),
    (record({"X": {"dtype": "f8", "shape": [1], "offset": 0, "more": 1}}), "got \\['dtype', 'more'"),
    (record({"X": {"dtype": ["f8"], "shape": [1], "offset": 0}}), r"dtype \['f8'\]"),
    (record({"X": {"dtype": "f4", "shape": [1], "offset": 0}}), "dtype 'f4'; the renderer reads u1"),
    (record({"X": {"dtype": "f8", "shape": [-2], "offset": 0}}), r"shape \[-2\]; a shape is a list"),
    (record({"X": {"dtype": "f8", "shape": [1.0], "offset": 0}}), r"shape \[1.0\]"),
    (record({"X": {"dtype": "f8", "shape": 4, "offset": 0}}), "shape 4"),
    (record({"X": {"dtype": "f8", "shape": [[2]], "offset": 0}}), "shape"),
    (record({"X": {"dtype": "f8", "shape": [1] * 33, "offset": 0}}), "at most 32"),
    (record({"X": {"dtype": "f8", "shape": [2**40, 2**40], "offset": 0}}), "more than 2⁵³ elements"),
    (record({"X": {"dtype": "f8", "shape": [0, 2**62], "offset": 0}}), "more than 2⁵³ elements"),
    (record({"X": {"dtype": "f8", "shape": [10**30], "offset": 0}}), "more than 2⁵³ elements"),
    (record({"X": {"dtype": "f8", "shape": [9], "offset": 0}}), "runs past the end of the record"),
    (record({"X": {"dtype": "f8", "shape": [1], "offset": 64}}), "runs past the end"),
    (record({"X": {"dtype": "f8", "shape": [1], "offset": -8}}), "offset -8"),
    (record({"X": {"dtype": "f8", "shape": [1], "offset": 4}}), "offset 4; an offset is an integer ≥ 0, a multiple"),
    (record({"X": {"dtype": "f8", "shape": [1], "offset": "0"}}), 'offset "0"'),
    (joined({"version": SCENE_VERSION, "arrays": {}, "deep": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]},
            b""), "nests deeper than 32"),
    (b"DBLS" + struct.pack("<I", 200_000) + b"[" * 100_000 + b"]" * 100_000, "nests deeper than 32"),
])
def test_each_malformed_header_is_named(blob, message):
    with pytest.raises(ValueError, match=message):
        unpack(blob)


def test_the_scenes_name_a_missing_or_mistyped_field():
    header, arrays = unpack(records()[0])

    def bad(**change):
        h = {**header, **change}
        return pack({k: v for k, v in h.items() if v is not ...}, arrays)

    for blob, message in [
        (bad(runs=...), "header has no 'runs'"),
        (bad(runs=3), "'runs' is a number, not a list"),
        (bad(runs=[1]), "runs are not all objects"),
        (bad(runs=header["runs"] * 3), "no array 'update_steps.2'"),
        (bad(box=[0, 1]), "box is \\[0, 1\\], not 4 numbers"),
        (bad(box="abcd"), "'box' is a string, not a list"),
        (bad(view=[]), "'view' is a list, not an object"),
        (bad(view={"height": 500, "zoom": 2}), 'unknown field "zoom"'),
        (bad(view={"axes": ["x"]}), "view.axes is \\[\"x\"\\], not 2 strings"),
        (bad(view={"axes": 5}), "view.axes is a number, not a list"),
        (bad(view={"pair": [1, "2"]}), "view.pair .* not 2 numbers"),
        (bad(view={"height": "tall"}), "view.height is a string, not a number"),
        (bad(view={"classes": ["setosa"]}), "view.classes is \\[\"setosa\"\\], not 2 strings"),
        (bad(view={"classes": "setosa"}), "view.classes is a string, not a list or null"),
        (bad(follow=3), "'follow' is a number, not a string or null"),
        (bad(bound=[]), "'bound' is a list, not an object or null"),
        (bad(kind=["perceptron"]), 'kind \\["perceptron"\\]'),
    ]:
        with pytest.raises(ValueError, match=message):
            PerceptronScene.from_bytes(blob)
    dual_header, dual_arrays = unpack(records()[3])
    with pytest.raises(ValueError, match="'run' is a list, not an object"):
        DualScene.from_bytes(pack({**dual_header, "run": []}, dual_arrays))
    with pytest.raises(ValueError, match="run.etas is a number"):
        DualScene.from_bytes(pack({**dual_header, "run": {**dual_header["run"], "etas": 3}}, dual_arrays))
    del dual_arrays["gram"]
    with pytest.raises(ValueError, match="no array 'gram'"):
        DualScene.from_bytes(pack(dual_header, dual_arrays))
