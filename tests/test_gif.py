"""The perceptron GIF read back with Pillow: frames, timing, and what the pixels show."""

from __future__ import annotations

import io

import numpy as np
import pytest
from oracles import gif_canvas
from PIL import Image, ImageFont, ImageSequence

from core.perceptron import run_perceptron
from datasets import make_dataset
from viz.common import HIGHLIGHT, INK, NEG_COLOUR, POS_COLOUR, boundary_segment
from viz.gif import (
    I_GRID,
    I_NEG_T,
    I_POS_T,
    NEEDED_GLYPHS,
    PALETTE_RGB,
    _has_glyphs,
    _plan,
    ascii_text,
    load_font,
    perceptron_gif,
    render_frames,
)
from viz.perceptron import choose_frames

TEXTBOOK = (np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]]), np.array([1, 1, -1]))


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """'#0072B2' -> (0, 114, 178), written here rather than taken from the module under test."""
    return tuple(int(hex_colour[k:k + 2], 16) for k in (1, 3, 5))


POS, NEG, BLACK = rgb(POS_COLOUR), rgb(NEG_COLOUR), rgb(INK)
YELLOW = tuple(int(v) for v in HIGHLIGHT[5:].split(",")[:3])
POS_T, NEG_T = PALETTE_RGB[I_POS_T], PALETTE_RGB[I_NEG_T]


def decode(data: bytes) -> tuple[Image.Image, list[np.ndarray]]:
    """The GIF as Pillow opens it and every frame as an (h, w, 3) RGB array."""
    im = Image.open(io.BytesIO(data))
    frames = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(im)]
    im.seek(0)
    return im, frames


def colour_at(frame: np.ndarray, px, py) -> tuple[int, int, int]:
    """The RGB of the frame pixel nearest to (px, py)."""
    return tuple(int(v) for v in frame[int(round(float(py))), int(round(float(px)))])


def circle_colours(frame: np.ndarray, cx: float, cy: float, r: float, k: int = 48) -> list[tuple[int, int, int]]:
    """The colours of k pixels on the circle of radius r around (cx, cy)."""
    t = np.linspace(0, 2 * np.pi, k, endpoint=False)
    return [colour_at(frame, cx + r * np.cos(a), cy + r * np.sin(a)) for a in t]


@pytest.fixture(scope="module")
def separable():
    """A 40-point separable run (converges after a few updates) and its GIF."""
    X, y = make_dataset("separable", 40, 0)
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=2000)
    assert traj.converged and traj.n_steps < 200
    data = perceptron_gif(traj)
    return traj, data, decode(data)


@pytest.fixture(scope="module")
def textbook():
    X, y = TEXTBOOK
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=100)
    data = perceptron_gif(traj, ms_per_frame=400)
    return traj, data, decode(data)


# ----------------------------------------------------------------------------
# the file: frames, size, looping, timing
# ----------------------------------------------------------------------------


def test_short_run_has_one_frame_per_step(separable):
    traj, _, (im, frames) = separable
    steps, note = choose_frames(traj, 200, "all")
    assert note == "" and steps.tolist() == list(range(traj.n_steps + 1))
    assert im.n_frames == len(frames) == traj.n_steps + 1
    assert im.size == (720, 540) and frames[0].shape == (540, 720, 3)
    assert im.info["loop"] == 0  # forever
    durations = []
    for k in range(im.n_frames):
        im.seek(k)
        durations.append(im.info["duration"])
    assert durations == [250] * im.n_frames


def test_long_run_is_thinned_like_the_app():
    X, y = make_dataset("blobs", 200, 0, noise=0.6)
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=1500)
    assert not traj.converged and traj.n_steps == 1500
    steps, note = choose_frames(traj, 200, "all")
    assert steps.size == 200 and note
    im, _ = decode(perceptron_gif(traj, size=(400, 300), ms_per_frame=100))
    assert im.n_frames == 200 and im.size == (400, 300)
    assert im.info["duration"] == 100
    ups, _ = choose_frames(traj, 50, "updates")
    assert Image.open(io.BytesIO(perceptron_gif(traj, max_frames=50, mode="updates"))).n_frames == ups.size == 50


def test_updates_mode_shows_start_updates_and_end(textbook):
    traj, _, _ = textbook
    steps, _ = choose_frames(traj, 200, "updates")
    assert steps.tolist() == sorted({0, *traj.update_steps.tolist(), traj.n_steps})
    im = Image.open(io.BytesIO(perceptron_gif(traj, mode="updates")))
    assert im.n_frames == steps.size


def test_frame_time(textbook):
    _, _, (im, _) = textbook
    im.seek(im.n_frames - 1)
    assert im.info["duration"] == 400


def test_decoded_frames_are_the_rendered_frames(separable):
    """The delta coding (changed box only, the rest transparent) must reproduce every frame exactly."""
    traj, _, (_, frames) = separable
    rendered, steps = render_frames(traj)
    assert len(rendered) == len(frames) == steps.size
    pal = rendered[0].getpalette()
    for r, f in zip(rendered, frames, strict=True):
        assert r.mode == "P" and r.getpalette() == pal  # one fixed palette: nothing quantised per frame
        np.testing.assert_array_equal(np.asarray(r.convert("RGB")), f)


def test_frames_differ_from_step_to_step(separable):
    _, _, (_, frames) = separable
    for a, b in zip(frames, frames[1:], strict=False):
        assert not np.array_equal(a, b)


# ----------------------------------------------------------------------------
# the pixels
# ----------------------------------------------------------------------------


def test_points_have_their_class_colour(separable):
    traj, _, (_, frames) = separable
    cv = gif_canvas(traj)
    X, y = traj.problem.X, traj.problem.y
    px, py = cv.to_px(X[:, 0], X[:, 1])
    for f in (frames[0], frames[-1]):
        got = [colour_at(f, a, b) for a, b in zip(px, py, strict=True)]
        pos_ok = np.mean([g == POS for g, c in zip(got, y, strict=True) if c > 0])
        neg_ok = np.mean([g == NEG for g, c in zip(got, y, strict=True) if c < 0])
        # an arrow may cross a point; the class colours must never be swapped
        assert pos_ok >= 0.9 and neg_ok >= 0.9
        assert not any(g == NEG for g, c in zip(got, y, strict=True) if c > 0)
        assert not any(g == POS for g, c in zip(got, y, strict=True) if c < 0)


def test_regions_follow_the_sign_of_the_activation(separable):
    """Final frame: w·x + b > 0 is tinted blue, < 0 orange, away from the points and the line."""
    traj, _, (_, frames) = separable
    cv = gif_canvas(traj)
    w, b = traj.W[-1], traj.B[-1]
    x0, x1, y0, y1 = cv.box
    gx, gy = np.meshgrid(np.linspace(x0, x1, 61)[1:-1], np.linspace(y0, y1, 61)[1:-1])
    gx, gy = gx.ravel(), gy.ravel()
    a = w[0] * gx + w[1] * gy + b  # a = w·x + b at each sample
    px, py = cv.to_px(gx, gy)
    ppx, ppy = cv.to_px(traj.problem.X[:, 0], traj.problem.X[:, 1])
    far = np.hypot(px[:, None] - ppx, py[:, None] - ppy).min(axis=1) > cv.exam_r + 3  # off every marker
    margin = np.abs(a) / np.linalg.norm(w) * cv.side / (x1 - x0) > 8  # over 8 px from the boundary
    keep = far & margin
    colours = [colour_at(frames[-1], u, v) for u, v in zip(px[keep], py[keep], strict=True)]
    sign = a[keep] > 0
    on_pos = [c for c, s in zip(colours, sign, strict=True) if s]
    on_neg = [c for c, s in zip(colours, sign, strict=True) if not s]
    assert len(on_pos) > 100 and len(on_neg) > 100
    assert NEG_T not in on_pos and POS_T not in on_neg
    assert np.mean([c == POS_T for c in on_pos]) > 0.8  # the rest: grid lines, axes, the w arrow
    assert np.mean([c == NEG_T for c in on_neg]) > 0.8
    assert POS_T != NEG_T and POS_T[2] > POS_T[0] and NEG_T[0] > NEG_T[2]  # light blue, light orange


def test_boundary_is_drawn_in_ink(separable):
    traj, _, (_, frames) = separable
    cv = gif_canvas(traj)
    lx, ly = boundary_segment(cv.box, traj.W[-1], traj.B[-1])
    t = np.linspace(0.03, 0.97, 60)
    px, py = cv.to_px(lx[0] + t * (lx[1] - lx[0]), ly[0] + t * (ly[1] - ly[0]))
    colours = [colour_at(frames[-1], u, v) for u, v in zip(px, py, strict=True)]
    assert np.mean([c == BLACK for c in colours]) > 0.8  # points and arrows may cross it


def test_no_regions_while_w_and_b_are_zero(separable):
    """Step 0 (w = 0, b = 0): every point is in M and no side is shaded."""
    traj, _, (_, frames) = separable
    cv = gif_canvas(traj)
    plot = frames[0][cv.top:cv.top + cv.side, cv.left:cv.left + cv.side].reshape(-1, 3)
    colours = {tuple(c) for c in np.unique(plot, axis=0)}
    assert POS_T not in colours and NEG_T not in colours
    assert PALETTE_RGB[I_GRID] in colours


def test_misclassified_points_are_ringed(separable):
    traj, _, (_, frames) = separable
    cv = gif_canvas(traj)
    X = traj.problem.X
    px, py = cv.to_px(X[:, 0], X[:, 1])
    ringed = [np.mean([c == BLACK for c in circle_colours(f, u, v, cv.ring_r - 0.5)]) for f in (frames[0], frames[-1])
              for u, v in zip(px, py, strict=True)]
    start, end = np.array(ringed[:len(X)]), np.array(ringed[len(X):])
    assert (start > 0.6).all()  # w = 0, b = 0: y·a = 0 ≤ 0 for every point
    assert np.mean(end < 0.25) > 0.85  # converged: no rings (the boundary or w may cross a few circles)


def test_examined_point_is_ringed_yellow(textbook):
    traj, _, (_, frames) = textbook
    cv = gif_canvas(traj)
    X = traj.problem.X
    px, py = cv.to_px(X[:, 0], X[:, 1])
    for f in range(1, len(frames)):
        i = int(traj.examined(f)[0])  # cyclic: x_((s−1) mod N + 1)
        assert i == (f - 1) % len(X)
        for j in range(len(X)):
            yellow = sum(c == YELLOW for c in circle_colours(frames[f], px[j], py[j], cv.exam_r - 1.5))
            assert (yellow > 12) == (j == i), (f, j, yellow)


def test_frames_without_an_update_differ_only_near_the_examined_points():
    X, y = make_dataset("separable", 40, 0)
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=2000)
    cv = gif_canvas(traj)
    _, frames = decode(perceptron_gif(traj))
    px, py = cv.to_px(X[:, 0], X[:, 1])
    yy, xx = np.mgrid[cv.top:cv.top + cv.side, cv.left:cv.left + cv.side]
    k = traj.state_index(np.arange(traj.n_steps + 1))
    same = [s for s in range(2, traj.n_steps + 1) if k[s] == k[s - 1] and k[s - 1] == k[s - 2]]
    changed_state = [s for s in range(1, traj.n_steps + 1) if k[s] != k[s - 1]]
    assert same and changed_state
    for s in same:
        near = np.zeros(xx.shape, bool)
        for i in (*traj.examined(s), *traj.examined(s - 1)):
            near |= np.hypot(xx - px[i], yy - py[i]) <= cv.exam_r + 4
        a = frames[s][cv.top:cv.top + cv.side, cv.left:cv.left + cv.side]
        b = frames[s - 1][cv.top:cv.top + cv.side, cv.left:cv.left + cv.side]
        diff = (a != b).any(axis=2)
        assert diff.any() and not (diff & ~near).any(), s
    for s in changed_state:  # (w, b) moved: the plot changes away from the examined points too
        a = frames[s][cv.top:cv.top + cv.side, cv.left:cv.left + cv.side]
        b = frames[s - 1][cv.top:cv.top + cv.side, cv.left:cv.left + cv.side]
        far = np.hypot(xx - px[traj.examined(s)[0]], yy - py[traj.examined(s)[0]]) > cv.exam_r + 4
        assert ((a != b).any(axis=2) & far).sum() > 500


# ----------------------------------------------------------------------------
# text and arguments
# ----------------------------------------------------------------------------


def test_notation_survives_a_font_without_the_symbols():
    assert ascii_text("x₁₂, τ = −1 — w·x ← ∅ …") == "x12, tau = -1 - w*x <- {} ..."
    # Pillow's own scalable font (Aileron) has no τ, − or subscripts: detected, so text goes ASCII
    assert not _has_glyphs(ImageFont.load_default(size=18), NEEDED_GLYPHS)
    assert _has_glyphs(ImageFont.load_default(size=18), "abc")
    font, unicode_ok = load_font(18)
    assert getattr(font, "size", 18) == 18
    if unicode_ok:  # e.g. DejaVu Sans: x₃, τ and − are real glyphs
        assert _has_glyphs(font, "x₃τ−")


def test_captions_fit_the_frame():
    X, y = make_dataset("blobs", 200, 0, noise=0.6)
    traj = run_perceptron(X, y, variant="cyclic", tau=1.0, max_steps=500)
    for size in ((720, 540), (400, 300), (1280, 720)):
        plan = _plan(traj, 200, size, "all")
        assert 1 <= max(len(c) for c in plan.captions) <= 3
        for lines in plan.captions:
            for line in lines:
                assert plan.text.width(line) <= size[0] - 12
        cv = plan.canvas
        assert cv.left + cv.side <= size[0] and cv.top + cv.side < plan.caption_top
        assert plan.caption_top + plan.text.line_h * max(len(c) for c in plan.captions) <= size[1]


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"max_frames": 1}, "max_frames"),
    ({"max_frames": 1001}, "max_frames"),
    ({"max_frames": 2.5}, "max_frames"),
    ({"size": (100, 540)}, "size"),
    ({"size": (720, 3000)}, "size"),
    ({"size": 720}, "size"),
    ({"ms_per_frame": 10}, "ms_per_frame"),
    ({"ms_per_frame": 6000}, "ms_per_frame"),
    ({"ms_per_frame": True}, "ms_per_frame"),
    ({"mode": "every"}, "mode"),
])
def test_bad_arguments_name_themselves(textbook, kwargs, name):
    traj, _, _ = textbook
    with pytest.raises(ValueError, match=name):
        perceptron_gif(traj, **kwargs)


def test_only_two_dimensional_runs():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 3))
    traj = run_perceptron(X, np.where(X[:, 0] > 0, 1, -1), max_steps=50)
    with pytest.raises(ValueError, match="2-D"):
        perceptron_gif(traj)
    with pytest.raises(ValueError, match="traj"):
        perceptron_gif("not a run")


def test_the_gif_drawn_from_the_scene_record_is_the_gif_of_the_run():
    """The page makes its GIF from the record it sends the browser (viz.scene.SceneRun): byte for byte the GIF of the
    core's run, for every variant and rule, with ties (whole-number points on the boundary) and duplicate points."""
    from viz.scene import PerceptronScene, SceneRun, perceptron_scene

    rng = np.random.default_rng(4)
    X = rng.integers(-3, 4, size=(40, 2)).astype(float)
    X[7] = X[3]  # a duplicate point
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    y[[5, 11]] = -y[[5, 11]]  # not separable
    runs = [run_perceptron(X, y, variant="cyclic", max_steps=90),
            run_perceptron(X, y, variant="random", seed=2, update_on="negative", w0=(1.0, -1.0), max_steps=70),
            run_perceptron(X, y, variant="minibatch", batch_size=6, tau=0.5, seed=3, max_steps=40),
            run_perceptron(X, y, variant="batch", reduction="sum", fit_intercept=False, max_steps=20)]
    for traj in runs:
        record = PerceptronScene.from_bytes(perceptron_scene(traj).to_bytes())
        for mode in ("all", "updates"):
            kw = {"max_frames": 30, "size": (320, 240), "mode": mode}
            assert perceptron_gif(SceneRun(record), **kw) == perceptron_gif(traj, **kw), (traj.variant, mode)
        back = SceneRun(record)
        assert all(np.array_equal(back.updated(s), traj.updated(s)) for s in range(traj.n_steps + 1))
    with pytest.raises(ValueError, match=r"has no run 3 \(it holds 1\)"):
        SceneRun(record, 3)
