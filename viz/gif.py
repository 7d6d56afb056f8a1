"""An animated GIF of a perceptron run, drawn with Pillow alone: no browser, no Plotly.

The GIF picks its steps as the app's animation does (:func:`viz.perceptron.choose_frames`),
under its own frame cap (200 by default; the chart keeps up to 500), and draws, per frame, what the app's data panel draws: the half-planes w·x + b > 0 (blue
tint) and < 0 (orange tint), the points (class +1 blue circles, class −1 orange diamonds:
colour and shape per class), black rings around the misclassified set M, a yellow ring on
the examined point, the boundary w·x + b = 0, the previous boundary dashed when the step
updated, w as an arrow (with the update τ·y·x from the old tip to the new one), a title and
the chart's state line (:func:`viz.common.state_line`) as a caption.

Speed: every frame is a palette ("P") image over one fixed palette of a few colours, so
nothing is quantised per frame; the points are drawn once and pasted through a mask; text
is rendered anti-aliased in greyscale and mapped onto a short grey ramp of the palette.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

import numpy as np
from PIL import GifImagePlugin, Image, ImageDraw, ImageFont

from core.perceptron import Trajectory
from viz.common import (
    HIGHLIGHT,
    HIGHLIGHT_LINE,
    INK,
    NEG_COLOUR,
    NEG_REGION,
    POS_COLOUR,
    POS_REGION,
    UPDATE_COLOUR,
    boundary_segment,
    clip_halfplane,
    num,
    state_line,
    sub,
    view_box,
)
from viz.perceptron import choose_frames
from viz.scene import SceneRun

MAX_FRAMES_LIMIT = 1000
SIZE_RANGE = (200, 2000)
MS_RANGE = (20, 5000)
REGION_STRENGTH = 1.6  # the GIF's tints are 1.6× the app's region alpha: a projector washes pale tints out


def _hex(c: str) -> tuple[int, int, int]:
    """'#0072B2' -> (0, 114, 178)."""
    return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)


def _rgba(c: str) -> tuple[tuple[int, int, int], float]:
    """'rgba(0, 114, 178, 0.10)' -> ((0, 114, 178), 0.1)."""
    r, g, b, a = (float(v) for v in re.findall(r"[\d.]+", c))
    return (int(r), int(g), int(b)), a


def _tint(c: str, strength: float = REGION_STRENGTH) -> tuple[int, int, int]:
    """The solid colour of the translucent ``c`` over white (a GIF has no alpha), alpha scaled by ``strength``."""
    rgb, a = _rgba(c)
    a = min(1.0, a * strength)
    return tuple(round(255 * (1 - a) + v * a) for v in rgb)


# the fixed palette: index -> RGB; every frame uses exactly this one
WHITE = (255, 255, 255)
I_BG, I_INK, I_POS, I_NEG, I_POS_T, I_NEG_T, I_HL, I_HL_LINE, I_UPD, I_OLD, I_GRID, I_AXIS = range(12)
N_RAMP = 6  # grey levels between white and INK for anti-aliased text
I_RAMP = 12  # first ramp index
PALETTE_RGB = [
    WHITE,
    _hex(INK),
    _hex(POS_COLOUR),
    _hex(NEG_COLOUR),
    _tint(POS_REGION),
    _tint(NEG_REGION),
    _rgba(HIGHLIGHT)[0],
    _hex(HIGHLIGHT_LINE),
    _hex(UPDATE_COLOUR),
    (120, 120, 120),  # previous boundary and previous w
    (214, 214, 214),  # grid lines
    (150, 150, 150),  # the axes x₁ = 0, x₂ = 0
]
_ink = np.array(_hex(INK), dtype=float)
for _k in range(1, N_RAMP + 1):  # coverage k/(N_RAMP+1) of ink over white
    _f = _k / (N_RAMP + 1)
    PALETTE_RGB.append(tuple(int(round(v)) for v in 255 * (1 - _f) + _ink * _f))
I_CLEAR = len(PALETTE_RGB)  # the transparent index: "unchanged since the previous frame"
PALETTE_RGB.append((255, 0, 255))
_PALETTE_BYTES = bytes(v for rgb in PALETTE_RGB for v in rgb)
# text coverage 0..255 -> palette index: white, the ramp, ink
_TEXT_LUT = [I_BG if v < 16 else I_INK if v > 239 else I_RAMP + min(N_RAMP - 1, int(v / 256 * N_RAMP))
             for v in range(256)]


# ----------------------------------------------------------------------------
# fonts
# ----------------------------------------------------------------------------

_FONT_FILES = (
    "DejaVuSans.ttf",  # Pillow looks in the system font folders for a bare name
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/Library/Fonts/DejaVuSans.ttf",
    "C:/Windows/Fonts/DejaVuSans.ttf",
    "LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "Arial.ttf",
)
_BOLD_FILES = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
NEEDED_GLYPHS = "τ−—·←₀₁₂₃₄₅₆₇₈₉…∅‖ŷ✓"
_ASCII = str.maketrans({"τ": "tau", "−": "-", "—": "-", "·": "*", "←": "<-", "…": "...", "∅": "{}", "‖": "|",
                        "ŷ": "y^", "✓": "ok", "→": "->", **{sub(d): str(d) for d in range(10)}})


def ascii_text(s: str) -> str:
    """``s`` with the symbols a bare fallback font may lack spelt in ASCII: 'x₃, τ = −1' -> 'x3, tau = -1'."""
    return s.translate(_ASCII)


def _has_glyphs(font, chars: str) -> bool:
    """Whether ``font`` draws each of ``chars`` as its own glyph, not the missing-glyph box."""
    try:
        missing = font.getmask("\ue000")
        ref = (missing.size, bytes(missing))
        return all((font.getmask(ch).size, bytes(font.getmask(ch))) != ref for ch in chars)
    except (OSError, AttributeError, ValueError):
        return False


@functools.lru_cache(maxsize=16)
def load_font(size: int, bold: bool = False):
    """The text font at ``size`` px and whether it draws the notation's symbols (τ, −, x₃, …).

    Tries DejaVu Sans (then Liberation Sans, Arial) from the system, then Pillow's own
    scalable default font (Pillow >= 10.1), then its small bitmap font.

    Returns
    -------
    font : PIL.ImageFont.FreeTypeFont or ImageFont
    unicode_ok : bool
        False when text must go through :func:`ascii_text` first.
    """
    first = None
    for path in (_BOLD_FILES if bold else ()) + _FONT_FILES:
        try:
            font = ImageFont.truetype(path, size)
        except OSError:
            continue
        if _has_glyphs(font, NEEDED_GLYPHS):
            return font, True
        first = first or font
    if first is not None:
        return first, False
    try:
        font = ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1: a fixed-size bitmap font
        font = ImageFont.load_default()
    return font, _has_glyphs(font, NEEDED_GLYPHS)


@dataclass(frozen=True, eq=False)
class _Text:
    """A font and how to draw strings with it (ASCII spellings when it lacks the symbols).

    Words are rendered once and cached: a line is composed by pasting its words'
    bitmaps, so the captions of 200 frames, which share most of their words, cost
    a few hundred glyph renders rather than one full layout per line.
    """

    font: object
    unicode_ok: bool
    line_h: int
    space: float
    words: dict = field(default_factory=dict)
    lines: dict = field(default_factory=dict)

    @classmethod
    def make(cls, size: int, bold: bool = False) -> _Text:
        font, ok = load_font(size, bold)
        return cls(font, ok, int(round(size * 1.3)), float(font.getlength(" ")))

    def s(self, text: str) -> str:
        """``text`` as this font can draw it."""
        return text if self.unicode_ok else ascii_text(text)

    def word(self, word: str) -> tuple[Image.Image | None, float]:
        """One word's greyscale bitmap (None when blank) and its advance width in px."""
        hit = self.words.get(word)
        if hit is None:
            s = self.s(word)
            adv = float(self.font.getlength(s))
            right = self.font.getbbox(s)[2] if s else 0
            img = None
            if s and right > 0:
                img = Image.new("L", (int(math.ceil(max(right, adv))) + 1, self.line_h), 0)
                ImageDraw.Draw(img).text((0, 0), s, fill=255, font=self.font)
            hit = self.words[word] = (img, adv)
        return hit

    def width(self, text: str) -> float:
        """Width of ``text`` in px (as :meth:`draw` lays it out)."""
        parts = text.split(" ")
        return sum(self.word(w)[1] for w in parts) + self.space * (len(parts) - 1)

    def draw(self, canvas: Image.Image, x: float, y: int, text: str) -> None:
        """Draw ``text`` on a greyscale ``canvas`` (255 = ink) with its top-left corner at (x, y)."""
        for w in text.split(" "):
            img, adv = self.word(w)
            if img is not None:
                canvas.paste(img, (int(round(x)), y))
            x += adv + self.space

    def line(self, text: str) -> Image.Image:
        """One line of text as a greyscale bitmap, ``line_h`` high (cached: panel lines repeat from frame to frame)."""
        img = self.lines.get(text)
        if img is None:
            img = Image.new("L", (max(1, int(math.ceil(self.width(text))) + 2), self.line_h), 0)
            self.draw(img, 0, 0, text)
            self.lines[text] = img
        return img

    def wrap(self, text: str, width: float, max_lines: int = 3) -> list[str]:
        """``text`` broken at spaces into lines no wider than ``width`` px; at most ``max_lines`` (ends '…')."""
        lines: list[str] = []
        cur, cur_w = "", 0.0
        for word in text.split(" "):
            ww = self.word(word)[1]
            if cur and cur_w + self.space + ww > width:
                lines.append(cur)
                cur, cur_w = word, ww
            else:
                cur, cur_w = (f"{cur} {word}", cur_w + self.space + ww) if cur else (word, ww)
        lines.append(cur)
        if len(lines) > max_lines:
            last = lines[max_lines - 1]
            while last and self.width(last + " …") > width:
                last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
            lines = lines[:max_lines - 1] + [last + " …"]
        return lines


def _text_image(lines: list[str], text: _Text, size: tuple[int, int]) -> Image.Image:
    """Ink text on white as a palette image: composed in greyscale, mapped to the grey ramp of the palette."""
    canvas = Image.new("L", size, 0)
    for k, line in enumerate(lines):
        canvas.paste(text.line(line), (0, k * text.line_h))
    return Image.frombytes("P", size, canvas.point(_TEXT_LUT).tobytes())


# ----------------------------------------------------------------------------
# layout: where the plot and the text go, data -> pixels
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Canvas:
    """The frame's geometry: the square plot of the view box and the text around it.

    Attributes
    ----------
    size : (width, height)
        Frame size in px.
    box : (x0, x1, y0, y1)
        The data window (a square, :func:`viz.common.view_box`).
    left, top, side : int
        The plot square's top-left corner and side in frame px.
    marker_r, ring_r, exam_r : int
        Radii of a point, of the ring marking M and of the examined ring, px.
    """

    size: tuple[int, int]
    box: tuple[float, float, float, float]
    left: int
    top: int
    side: int
    marker_r: int
    ring_r: int
    exam_r: int

    def to_plot(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        """Data coordinates -> px inside the plot square (x right, y down), arrays like ``x``."""
        x0, x1, y0, y1 = self.box
        px = (np.asarray(x, dtype=float) - x0) / (x1 - x0) * self.side
        py = (y1 - np.asarray(y, dtype=float)) / (y1 - y0) * self.side
        return px, py

    def to_px(self, x, y) -> tuple[np.ndarray, np.ndarray]:
        """Data coordinates -> px in the whole frame."""
        px, py = self.to_plot(x, y)
        return px + self.left, py + self.top


def _nice_ticks(lo: float, hi: float, target: int = 5) -> np.ndarray:
    """Round tick values (1, 2 or 5 × 10^k apart) inside [lo, hi], about ``target`` of them."""
    raw = (hi - lo) / target
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    start = math.ceil(lo / step) * step
    t = np.arange(start, hi + 1e-9 * (hi - lo), step)
    return np.where(np.abs(t) < 1e-9 * step, 0.0, t)


@dataclass(frozen=True)
class _Plan:
    """Everything decided before drawing: the frames' steps and states, the text, the geometry."""

    steps: np.ndarray
    W: np.ndarray
    B: np.ndarray
    Wp: np.ndarray
    Bp: np.ndarray
    masks: np.ndarray  # (f, n) bool: M at each frame's state
    captions: list[list[str]]
    canvas: _Canvas
    text: _Text
    title_text: _Text
    key_where: str  # "right", "below" or "none"
    n_key: int  # how many key entries are shown
    caption_top: int
    info_left: int
    info_top: int


def _key_entries(traj: Trajectory, scale: float) -> list[tuple[str, str]]:
    """(symbol kind, label) for the key, in drawing order."""
    online = traj.variant in ("cyclic", "random")
    w_label = "w" if scale == 1.0 else f"w (drawn ×{scale:,.0f})" if scale >= 100 else f"w (drawn ×{scale:.2g})"
    return [
        ("pos", "y = +1"),
        ("neg", "y = −1"),
        ("ring", "misclassified (M)"),
        ("exam", "examined" if traj.variant != "batch" else "examined (all)"),
        ("line", "w·x + b = 0"),
        ("old", "previous boundary"),
        ("w", w_label),
        ("upd", "update τ·y·x" if online else "update step"),
    ]


def _plan(traj: Trajectory, max_frames: int, size: tuple[int, int], mode: str) -> _Plan:
    """Choose the frames, their states and captions, and lay the frame out."""
    p = traj.problem
    width, height = size
    steps, _ = choose_frames(traj, max_frames, mode)
    W, B = traj.states(steps)
    Wp, Bp = traj.states(np.maximum(steps - 1, 0))
    kidx = traj.state_index(steps)
    states, inverse = np.unique(kidx, return_inverse=True)
    masks = traj.state_mistakes(states)[inverse]  # M at each frame's state (one mask per distinct state)

    box = view_box(p.X)
    yt = _nice_ticks(box[2], box[3])

    def layout(fs: int) -> tuple:
        """The frame laid out with body text of ``fs`` px: (side, fonts, margins, captions, key placement)."""
        text = _Text.make(fs)
        title_text = _Text.make(fs + 2, bold=True)
        pad = max(4, fs // 3)
        tick_w = max(text.width(num(v)) for v in yt)
        left = int(pad + max(tick_w, text.width("x₂")) + 8)
        top = int(pad + title_text.line_h + pad)
        entries = _key_entries(traj, 1.0)

        def side_for(cap_lines: int, below: bool) -> int:
            """The plot's side given the caption lines under it (and a key row)."""
            bottom = 6 + text.line_h + pad + cap_lines * text.line_h + pad + below * text.line_h
            return int(min(height - top - bottom, width - left - pad))

        captions = []
        for f, st in enumerate(steps.tolist()):
            line = state_line(st, traj.n_steps, W[f], B[f], np.flatnonzero(masks[f]), p.n)
            captions.append(text.wrap(line, width - 12, max_lines=3))  # the caption strip spans 6 .. width − 6
        n_lines = max(len(c) for c in captions)
        side = side_for(n_lines, False)
        # the key beside the plot: as many entries as fit under each other (at least the three
        # marker kinds), else the three in a row under the plot, else none
        n_key = min(len(entries), side // text.line_h)
        key_w = max((text.width(lbl) for _, lbl in entries[:n_key]), default=0) + 2.6 * fs + 2 * pad
        key_where = "right"
        if n_key < 3 or width - left - side - 2 * pad < key_w:
            compact = sum(text.width(lbl) + 2.5 * fs for _, lbl in entries[:3])
            key_where = "below" if compact + left <= width else "none"
            side = side_for(n_lines, key_where == "below")
            n_key = 3 if key_where == "below" else 0
        return side, text, title_text, pad, left, top, n_key, captions, key_where

    # text of >= 18 px (projector-readable) when the frame has room for it; smaller frames get smaller text
    want = int(np.clip(round(min(width, height) / 30), 18, 44))
    for fs in range(want, 9, -2):
        side, text, title_text, pad, left, top, n_key, captions, key_where = layout(fs)
        if side >= 0.55 * min(width, height):
            break
    if side < 60:
        raise ValueError(f"size {size} leaves no room for the plot; use a larger size")
    n = p.n
    app = 12 if n <= 100 else 9 if n <= 400 else 7 if n <= 1000 else 5  # the app's marker size for n points
    r = max(3, int(round(app * side / 420 / 2 * 1.15)))
    ring_r = r + max(3, r // 2)
    canvas = _Canvas(size=(width, height), box=box, left=left, top=top, side=side, marker_r=r, ring_r=ring_r,
                     exam_r=ring_r + max(4, r // 2 + 2))
    caption_top = top + side + 6 + text.line_h + pad + (key_where == "below") * text.line_h
    return _Plan(steps=steps, W=W, B=B, Wp=Wp, Bp=Bp, masks=masks, captions=captions, canvas=canvas, text=text,
                 title_text=title_text, key_where=key_where, caption_top=caption_top,
                 info_left=left + side + 2 * pad, info_top=top + (n_key + 1) * text.line_h, n_key=n_key)


# ----------------------------------------------------------------------------
# drawing
# ----------------------------------------------------------------------------


def _diamond(x: float, y: float, r: float) -> list[tuple[float, float]]:
    """The vertices of a diamond of half-diagonal r at (x, y)."""
    return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]


def _arrow(d: ImageDraw.ImageDraw, p0, p1, colour: int, width: int, head: float) -> None:
    """An arrow from p0 to p1 (px): a shaft and a filled triangular head at p1."""
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    h = min(head, length)
    bx, by = x1 - ux * h, y1 - uy * h  # where the head starts
    if length > h:
        d.line([(x0, y0), (bx, by)], fill=colour, width=width)
    hw = 0.45 * h
    d.polygon([(x1, y1), (bx - uy * hw, by + ux * hw), (bx + uy * hw, by - ux * hw)], fill=colour)


def _dashed(d: ImageDraw.ImageDraw, p0, p1, colour: int, width: int, dash: float) -> None:
    """A dashed line from p0 to p1 (px), dashes ``dash`` long with gaps of 0.7·dash."""
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    t = 0.0
    while t < length:
        e = min(t + dash, length)
        d.line([(x0 + ux * t, y0 + uy * t), (x0 + ux * e, y0 + uy * e)], fill=colour, width=width)
        t = e + 0.7 * dash


def _points_layer(X: np.ndarray, y: np.ndarray, cv: _Canvas) -> tuple[Image.Image, Image.Image]:
    """The points drawn once (palette image) and where they are (mask), to paste on every frame."""
    layer = Image.new("P", (cv.side, cv.side), I_BG)
    mask = Image.new("L", (cv.side, cv.side), 0)
    dl, dm = ImageDraw.Draw(layer), ImageDraw.Draw(mask)
    r = cv.marker_r
    px, py = cv.to_plot(X[:, 0], X[:, 1])
    for xi, yi, cls in zip(px.tolist(), py.tolist(), y.tolist(), strict=True):
        if cls > 0:  # class +1: a blue disc with a white rim
            bb = [xi - r, yi - r, xi + r, yi + r]
            dl.ellipse(bb, fill=I_POS, outline=I_BG, width=1)
            dm.ellipse(bb, fill=255)
        else:  # class −1: an orange diamond (a little larger: same visual weight)
            poly = _diamond(xi, yi, r * 1.3)
            dl.polygon(poly, fill=I_NEG, outline=I_BG)
            dm.polygon(poly, fill=255)
    return layer, mask


def _key_symbol(d: ImageDraw.ImageDraw, kind: str, x: float, y: float, fs: int, r: int, lw: int) -> None:
    """One key symbol centred at (x, y), about ``fs`` px wide."""
    h = fs * 0.9
    if kind == "pos":
        d.ellipse([x - r, y - r, x + r, y + r], fill=I_POS, outline=I_BG)
    elif kind == "neg":
        d.polygon(_diamond(x, y, r * 1.3), fill=I_NEG, outline=I_BG)
    elif kind == "ring":
        rr = r + max(3, r // 2)
        d.ellipse([x - rr, y - rr, x + rr, y + rr], outline=I_INK, width=2)
    elif kind == "exam":
        rr = r + max(3, r // 2) + 3
        d.ellipse([x - rr, y - rr, x + rr, y + rr], outline=I_HL_LINE, width=max(3, lw))
        d.ellipse([x - rr + 1, y - rr + 1, x + rr - 1, y + rr - 1], outline=I_HL, width=max(2, lw - 1))
    elif kind == "line":
        d.line([(x - h, y), (x + h, y)], fill=I_INK, width=lw)
    elif kind == "old":
        _dashed(d, (x - h, y), (x + h, y), I_OLD, max(2, lw - 1), fs * 0.45)
    elif kind == "w":
        _arrow(d, (x - h, y), (x + h, y), I_INK, max(2, lw - 1), fs * 0.6)
    elif kind == "upd":
        _arrow(d, (x - h, y), (x + h, y), I_UPD, max(2, lw - 1), fs * 0.6)


def _chrome(traj: Trajectory, plan: _Plan, scale: float) -> Image.Image:
    """The static part of every frame: white page, tick labels, axis names, the plot's frame, the key."""
    cv, text = plan.canvas, plan.text
    img = Image.new("P", cv.size, I_BG)
    img.putpalette(_PALETTE_BYTES)
    d = ImageDraw.Draw(img)
    x0, x1, y0, y1 = cv.box
    fs = int(text.line_h / 1.3)
    lh = text.line_h

    def put(lines, x, y, w=None, align="left"):
        w = int(w or max(text.width(s) for s in lines) + 2)
        img.paste(_text_image(lines, text, (w, lh * len(lines))), (int(x), int(y)))

    bottom = cv.top + cv.side
    # axis names: x₁ at the right end of the x tick labels, x₂ at the top of the y tick labels;
    # a tick label that would overlap one is left out
    x1_left = cv.left + cv.side - text.width("x₁")
    put(["x₁"], x1_left, bottom + 6)
    put(["x₂"], max(2, cv.left - 7 - text.width("x₂")), cv.top)
    for v in _nice_ticks(x0, x1):
        px, _ = cv.to_px(v, y0)
        lbl = num(v)
        d.line([(px, bottom), (px, bottom + 5)], fill=I_INK, width=1)
        if px + text.width(lbl) / 2 < x1_left - 4:
            put([lbl], px - text.width(lbl) / 2, bottom + 6)
    for v in _nice_ticks(y0, y1):
        _, py = cv.to_px(x0, v)
        lbl = num(v)
        d.line([(cv.left - 5, py), (cv.left, py)], fill=I_INK, width=1)
        if py - lh / 2 > cv.top + lh:
            put([lbl], cv.left - 7 - text.width(lbl), py - lh / 2)
    d.rectangle([cv.left - 1, cv.top - 1, cv.left + cv.side, cv.top + cv.side], outline=I_INK, width=1)

    r, lw = max(cv.marker_r, fs // 3), max(3, fs // 6)
    entries = _key_entries(traj, scale)[:plan.n_key]
    if plan.key_where == "right":
        kx = cv.left + cv.side + int(1.5 * fs)
        for k, (kind, label) in enumerate(entries):
            yc = cv.top + k * lh + lh / 2
            _key_symbol(d, kind, kx + fs * 0.5, yc, fs, r, lw)
            put([label], kx + 2 * fs, cv.top + k * lh)
    elif plan.key_where == "below":
        x = cv.left
        y = bottom + 6 + lh
        for kind, label in entries[:3]:
            _key_symbol(d, kind, x + fs * 0.5, y + lh / 2, fs, r, lw)
            put([label], x + 1.3 * fs, y)
            x += 1.3 * fs + text.width(label) + 1.2 * fs
    return img


def _event(traj: Trajectory, step: int, upd: np.ndarray) -> list[str]:
    """What happened at ``step``, for the panel beside the key: two short lines."""
    if step == 0:
        return ["start", ""]
    if traj.variant in ("cyclic", "random"):
        i = int(traj.examined(step)[0])
        return [f"x{sub(i + 1)} examined:", "misclassified → update" if upd.size else "correct → no update"]
    what = "M∩I" if traj.variant == "minibatch" else "M"
    return [f"{what}: {len(upd)} point{'s' * (len(upd) != 1)}", "→ update" if upd.size else "→ no update"]


# ----------------------------------------------------------------------------
# the GIF
# ----------------------------------------------------------------------------


def _validate(traj, max_frames, size, ms_per_frame, mode):
    """Check the arguments; return (max_frames, size, ms_per_frame) as ints."""
    if not isinstance(traj, Trajectory | SceneRun):
        raise ValueError("traj must be a core.perceptron.Trajectory (from run_perceptron) or a viz.scene.SceneRun, got "
                         f"{type(traj).__name__}")
    d = traj.problem.X.shape[1]
    if d != 2:
        raise ValueError(f"the GIF draws 2-D data, got d = {d}")

    def as_int(name, v, lo, hi):
        if isinstance(v, bool) or not isinstance(v, int | np.integer | float | np.floating) or v != v \
                or not math.isfinite(v) or int(v) != v or not lo <= v <= hi:
            raise ValueError(f"{name} must be an integer between {lo} and {hi}, got {v!r}")
        return int(v)

    max_frames = as_int("max_frames", max_frames, 2, MAX_FRAMES_LIMIT)
    try:
        w, h = size
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height) in px, each between {SIZE_RANGE[0]} and {SIZE_RANGE[1]}, "
                         f"got {size!r}") from None
    size = (as_int("size width", w, *SIZE_RANGE), as_int("size height", h, *SIZE_RANGE))
    ms = as_int("ms_per_frame", ms_per_frame, *MS_RANGE)
    if mode not in ("all", "updates"):
        raise ValueError(f"mode must be 'all' or 'updates', got {mode!r}")
    return max_frames, size, ms


def render_frames(traj: Trajectory, *, max_frames: int = 200, size=(720, 540), mode: str = "all"
                  ) -> tuple[list[Image.Image], np.ndarray]:
    """The GIF's frames as palette images, before encoding (what a viewer shows, frame by frame).

    Parameters
    ----------
    traj, max_frames, size, mode
        As for :func:`perceptron_gif`.

    Returns
    -------
    frames : list of PIL.Image.Image
        One "P" image of ``size`` per frame, all on :data:`PALETTE_RGB`.
    steps : ndarray of shape (f,)
        The step each frame shows (:func:`viz.perceptron.choose_frames`).
    """
    max_frames, size, _ = _validate(traj, max_frames, size, 250, mode)
    plan = _plan(traj, max_frames, size, mode)
    p, cv, text = traj.problem, plan.canvas, plan.text
    X, y = p.X, p.y
    box, side = cv.box, cv.side
    span = box[1] - box[0]

    # vectors drawn tip to tail from a base point P (the origin when in view) at one scale s
    # for the whole GIF, so that w_new = w_old + τ·y·x holds on screen (as in the app)
    inside = box[0] < 0 < box[1] and box[2] < 0 < box[3]
    P = (0.0, 0.0) if inside else ((box[0] + box[1]) / 2, (box[2] + box[3]) / 2)
    wmax = float(max(np.linalg.norm(plan.W, axis=1).max(), np.linalg.norm(plan.Wp, axis=1).max()))
    s = 0.42 * span / wmax if wmax > 1e-9 else 1.0

    chrome = _chrome(traj, plan, s)
    points, point_mask = _points_layer(X, y, cv)
    pxs, pys = cv.to_plot(X[:, 0], X[:, 1])
    pxl, pyl = pxs.tolist(), pys.tolist()
    lw = max(3, side // 110)  # boundary width, px
    head = max(12.0, side / 28)
    grid_x = [float(v) for v in cv.to_plot(_nice_ticks(box[0], box[1]), 0)[0]]
    grid_y = [float(v) for v in cv.to_plot(0, _nice_ticks(box[2], box[3]))[1]]
    ox, oy = (float(v) for v in cv.to_plot(0.0, 0.0))
    base = Image.new("P", (side, side), I_BG)  # the plot's background with the grid, copied per frame
    db = ImageDraw.Draw(base)
    title_size = (cv.size[0] - 12, plan.title_text.line_h + 4)
    cap_size = (cv.size[0] - 12, text.line_h * max(len(c) for c in plan.captions))
    info_w = cv.size[0] - plan.info_left - 4
    show_info = plan.key_where == "right" and plan.info_top + 5 * text.line_h <= cv.top + side
    run = f"{traj.variant}" + (f" (B = {traj.batch_size})" if traj.variant == "minibatch" else "")
    run += f", τ = {num(traj.tau)}"
    longest = f" — step {traj.n_steps} of {traj.n_steps}" + (" · converged ✓" if traj.converged else "")
    fits = [h for h in (f"Perceptron, {run}", run) if plan.title_text.width(h + longest) <= title_size[0]]
    head_title = fits[0] if fits else ""  # a narrow frame keeps only "Step k of S"

    def to_pl(pt):
        """Data point -> plot px as a tuple."""
        a, b = cv.to_plot(pt[0], pt[1])
        return float(a), float(b)

    def grid(d: ImageDraw.ImageDraw) -> None:
        for gx in grid_x:
            d.line([(gx, 0), (gx, side)], fill=I_GRID, width=1)
        for gy in grid_y:
            d.line([(0, gy), (side, gy)], fill=I_GRID, width=1)
        if inside:
            d.line([(ox, 0), (ox, side)], fill=I_AXIS, width=1)
            d.line([(0, oy), (side, oy)], fill=I_AXIS, width=1)

    grid(db)
    frames = []
    for f, step in enumerate(plan.steps.tolist()):
        w, b = plan.W[f].tolist(), float(plan.B[f])
        wp, bp = plan.Wp[f].tolist(), float(plan.Bp[f])
        upd = traj.updated(step)
        # the decision regions: w·x + b > 0 tinted blue, < 0 orange (none while w = 0, b = 0)
        if any(w) or b != 0:
            plot = Image.new("P", (side, side), I_BG)
            d = ImageDraw.Draw(plot)
            for sign, colour in ((1.0, I_POS_T), (-1.0, I_NEG_T)):
                poly = clip_halfplane(box, w, b, sign)  # the part of the view where sign·(w·x + b) ≥ 0
                if len(poly) >= 3 and (any(w) or sign * b > 0):
                    d.polygon([to_pl(q) for q in poly], fill=colour)
            grid(d)
        else:
            plot = base.copy()
            d = ImageDraw.Draw(plot)
        if upd.size:  # the boundary before the update, dashed
            lx, ly = boundary_segment(box, wp, bp)
            if lx:
                _dashed(d, to_pl((lx[0], ly[0])), to_pl((lx[1], ly[1])), I_OLD, max(2, lw - 1), 3 * lw + 6)
        lx, ly = boundary_segment(box, w, b)  # w·x + b = 0
        if lx:
            d.line([to_pl((lx[0], ly[0])), to_pl((lx[1], ly[1]))], fill=I_INK, width=lw)
        plot.paste(points, (0, 0), point_mask)
        rr = cv.ring_r
        for i in np.flatnonzero(plan.masks[f]).tolist():  # rings around M
            d.ellipse([pxl[i] - rr, pyl[i] - rr, pxl[i] + rr, pyl[i] + rr], outline=I_INK, width=2)
        if step and traj.variant != "batch":  # the examined point(s)
            er = cv.exam_r
            for i in traj.examined(step).tolist():
                d.ellipse([pxl[i] - er, pyl[i] - er, pxl[i] + er, pyl[i] + er], outline=I_HL_LINE, width=lw + 1)
                d.ellipse([pxl[i] - er + 1, pyl[i] - er + 1, pxl[i] + er - 1, pyl[i] + er - 1], outline=I_HL,
                          width=lw - 1)
        tip_old = (P[0] + s * wp[0], P[1] + s * wp[1])  # P + s·w_old
        tip = (P[0] + s * w[0], P[1] + s * w[1])  # P + s·w
        if upd.size and any(wp):
            _arrow(d, to_pl(P), to_pl(tip_old), I_OLD, max(2, lw - 1), head * 0.8)
        if any(w):
            _arrow(d, to_pl(P), to_pl(tip), I_INK, lw, head)
        if upd.size:  # τ·y·x (or the batch step) from the old tip of w to the new one
            _arrow(d, to_pl(tip_old), to_pl(tip), I_UPD, lw, head)

        frame = chrome.copy()
        frame.paste(plot, (cv.left, cv.top))
        title = f"{head_title} — step {step:,} of {traj.n_steps:,}" if head_title else f"Step {step:,} of {traj.n_steps:,}"
        if traj.converged and step == traj.n_steps:
            title += " · converged ✓"
        frame.paste(_text_image([title], plan.title_text, title_size), (6, max(2, cv.top // 2 - title_size[1] // 2)))
        frame.paste(_text_image(plan.captions[f], text, cap_size), (6, plan.caption_top))
        if show_info:
            k = int(traj.state_index(step))
            lines = ["This step:", *_event(traj, step, upd), "", f"epoch {traj.epoch(step):,}",
                     f"updates so far: {k:,}", f"|M| = {int(plan.masks[f].sum()):,} of {p.n:,}"]
            lines = [ln for ln in lines if text.width(ln) <= info_w]  # a line too wide for the panel is left out
            room = (cv.top + side - plan.info_top) // text.line_h
            frame.paste(_text_image(lines[:room], text, (info_w, text.line_h * min(room, len(lines)))),
                        (plan.info_left, plan.info_top))
        frames.append(frame)
    return frames, plan.steps


def perceptron_gif(traj: Trajectory | SceneRun, *, max_frames: int = 200, size=(720, 540), ms_per_frame: int = 250,
                   mode: str = "all") -> bytes:
    """An animated GIF of a 2-D perceptron run, one frame per step the app's animation shows.

    Parameters
    ----------
    traj : Trajectory or SceneRun
        The run (:func:`core.perceptron.run_perceptron`), or a run of the page's scene record read back (what the
        page draws its GIF from); its data X must have shape (n, 2).
    max_frames : int
        Frame cap, 2..1000; longer runs are thinned evenly as in the app (:func:`viz.perceptron.choose_frames`).
    size : (int, int)
        Width and height in px, each 200..2000.
    ms_per_frame : int
        How long each frame shows, 20..5000 ms (GIF stores hundredths of a second: rounded down to 10 ms).
    mode : {"all", "updates"}
        Every step, or step 0, the steps that changed (w, b), and the last.

    Returns
    -------
    bytes
        A GIF that loops forever.

    Raises
    ------
    ValueError
        For data that are not 2-D, or an argument out of range (the message names it).
    """
    max_frames, size, ms = _validate(traj, max_frames, size, ms_per_frame, mode)
    frames, _ = render_frames(traj, max_frames=max_frames, size=size, mode=mode)
    return encode_gif(frames, ms)


def encode_gif(frames: list[Image.Image], ms_per_frame: int) -> bytes:
    """GIF bytes of palette frames on :data:`PALETTE_RGB`, looping forever, ``ms_per_frame`` each.

    Each frame after the first is stored as the box around the pixels that
    changed since the frame before, with the unchanged pixels in that box set to
    the transparent index I_CLEAR (disposal 1, "leave in place", shows the frame
    before through them); runs of I_CLEAR compress to almost nothing. The boxes
    are found here with NumPy and the boxes alone are LZW-coded (Pillow's GIF
    writer would compare and code every whole frame).

    Parameters
    ----------
    frames : list of PIL.Image.Image
        "P" images of one size, all on :data:`PALETTE_RGB` (as :func:`render_frames` makes them).
    ms_per_frame : int
        Display time per frame in ms (GIF stores hundredths of a second).
    """
    first = frames[0]
    params = {"duration": int(ms_per_frame), "disposal": 1, "transparency": I_CLEAR}
    header, _ = GifImagePlugin.getheader(first.copy(), info={"loop": 0, **params})
    chunks = [*header, *GifImagePlugin.getdata(first, **params)]
    prev = np.asarray(first)
    for im in frames[1:]:
        cur = np.asarray(im)
        changed = cur != prev  # the pixels this frame must repaint
        rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
        if rows.size:
            r0, r1, c0, c1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        else:  # nothing changed: one transparent pixel keeps the frame (and its time) in the sequence
            r0, r1, c0, c1 = 0, 1, 0, 1
        box = np.where(changed[r0:r1, c0:c1], cur[r0:r1, c0:c1], np.uint8(I_CLEAR))
        crop = Image.frombytes("P", (int(c1 - c0), int(r1 - r0)), np.ascontiguousarray(box).tobytes())
        chunks += GifImagePlugin.getdata(crop, offset=(int(c0), int(r0)), **params)
        prev = cur
    chunks.append(b";")  # the GIF trailer
    return b"".join(chunks)
