"""The choices the pages offer, and how a URL may spell them.

Widgets bind to query parameters and Streamlit accepts only the exact text it
writes itself (a choice's label, ``2.0`` for the float 2). :func:`parse_url`
reads friendlier spellings too (``ds=xor``, ``variant=minibatch``, ``tau=2``,
``bias=0``) into widget values, which the app presets before the widgets are
drawn; what it cannot read is left for the page to name as ignored.

Every setting a link can carry is one row of :data:`STATE` (a :class:`Param`:
its key, kind, default, pages, how a link's text is read and how the widget
writes it); the pages' widgets take their options, default and bounds from
it (glue.shared.bound), and :func:`parse_url`, :func:`url_spelling`,
:func:`known_url_key`, :func:`unusable_url_values` and the app's messages about
a link (glue.shared) all read that table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from core.svm import C_GRID
from datasets import REGISTRY
from datasets.csvio import QUOTE_CHARS, quote  # how the CSV reader's messages quote a value
from datasets.points import MAX_POINTS
from viz.common import c_label

VARIANT_LABELS = {"cyclic": "cyclic", "random": "random", "minibatch": "mini-batch", "batch": "batch"}
RULE_LABELS = {"nonpositive": "y·a ≤ 0", "negative": "y·a < 0"}
FRAME_LABELS = {"all": "every step", "updates": "updates only"}
REDUCTION_LABELS = {"mean": "τ/B Σ (mean)", "sum": "τ Σ (sum)"}
DATASET_LABELS = {**{k: spec.label for k, spec in REGISTRY.items()}, "custom": "Your points"}
KERNEL_LABELS = {"linear": "linear", "poly": "polynomial", "rbf": "RBF"}
ORDER_LABELS = {"cyclic": "cyclic", "random": "random"}
SCHEDULE_LABELS = {"pegasos": "1/(λ(t + t₀)) (Pegasos)", "constant": "constant η"}
SGD_STEPS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000]
COMPARE_LABELS = {"order": "cyclic vs random order", "tau": "τ left vs τ right", "batch": "B left vs B right",
                  "svm": "perceptron vs SVM (hinge SGD)"}
LOSS_LABELS = {"hinge": "hinge", "perceptron": "perceptron", "zero_one": "0-1", "all": "all three"}
SLICE_LABELS = {"w": "w₁, w₂ at a fixed b", "theta": "direction θ and b at a fixed ‖w‖"}
VIEW_LABELS = {"map": "filled contours", "surface": "3-D surface"}
PATH_LABELS = {"none": "none", "perceptron": "perceptron", "hinge_sgd": "hinge SGD"}
LAMS = [0.0, 0.001, 0.01, 0.1, 1.0]
RADII = [0.25, 0.5, 1.0, 2.0, 4.0]
TAUS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]
HEIGHTS = [560, 680, 780, 860, 900, 980, 1040, 1100]
BATCHES = [1, 2, 4, 8, 16, 32, 64]  # Compare's B against B
DEGREES = list(range(1, 11))
COEF0S = [0.0, 0.5, 1.0, 2.0, 5.0, 10.0]
GAMMAS = [0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0]
N_UI_MAX = 2000  # points the Dual / Gram, kernel SVM, Loss surface and Compare pages take (G and surfaces grow with N)
N_PLANE_MAX = MAX_POINTS  # points the Perceptron and linear SVM pages take (10,000: plotly.js draws them with WebGL)
# a cached result (a figure, a run) is shared by every session that asks for the same inputs, without a copy
# (st.cache_resource: the pages never change them); one not asked for in an hour is dropped
TTL = 3600


def _read_choice(labels: Mapping[str, str]) -> Callable[[str], str | None]:
    """Accept a choice's key or label in any case; return the key (the widget's value)."""
    table = {}
    for key, label in labels.items():
        for spelling in (key, label, label.replace("-", "")):
            table[spelling.lower()] = key
    return lambda v: table.get(v.strip().lower())


def _read_grid(options: list) -> Callable[[str], float | int | None]:
    """Accept any spelling of one of the numbers ``options``; return that option."""
    def parse(v: str):
        try:
            x = float(v)
        except ValueError:
            return None
        return next((o for o in options if float(o) == x), None)
    return parse


def _read_flag(v: str) -> bool | None:
    t = v.strip().lower()
    return True if t in ("true", "1", "yes", "on") else False if t in ("false", "0", "no", "off") else None


def _spell_flag(v) -> str:
    return str(v).lower()


def n_choices(spec) -> list[int]:
    """A roughly logarithmic grid of point counts for a dataset's n slider, including its default."""
    hi = min(spec.n_max, N_PLANE_MAX)
    grid = {spec.n_min, spec.default_n, hi, 3, 5, 10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500, 750, 1000,
            1500, 2000, 3000, 5000, 7500, 10_000}
    return sorted(g for g in grid if spec.n_min <= g <= hi)


# ----------------------------------------------------------------------------
# the view's state: every setting a link can carry, in one table
# ----------------------------------------------------------------------------

SIDEBAR = "sidebar"  # a setting app.py draws around every page (the dataset, the classroom switches)
PERCEPTRON, DUAL, SVM, LOSSES, COMPARE = "perceptron", "dual", "svm", "losses", "compare"  # the page scripts' stems


@dataclass(frozen=True)
class Param:
    """One setting of the view: its widget's key, which is its name in the link; what it holds; its default; the
    pages that draw it; how a link's text is read into it and how the widget writes it.

    ``kind`` is one of
      * ``"choice"``: one of ``labels`` (a select box or radio), written as its label;
      * ``"grid"``: one of the numbers ``options`` (a select slider; None where the data sets them, ``b_at``);
      * ``"flag"``: a toggle, written ``true`` or ``false``;
      * ``"whole"``, ``"number"``: a number box or slider from ``lo`` to ``hi`` (None where the data sets it:
        ``B`` and ``lit`` go up to N), which Streamlit reads from the link itself;
      * ``"text"``: read by the app's own code (``pts``, ``hide``, ``step``, ``svm_tab``).

    ``default`` is what a fresh view shows: one value, a mapping page → value where the pages differ (``height``), or
    None where the data sets it (``B``: N/4; ``b_at``: the middle b). ``read`` takes a link's text to the widget's
    value, None for text it cannot read (``ds=xor`` → ``"xor"``); a Param without it leaves its text to the widget.
    ``spell`` writes the widget's value as the widget writes it in the link (``"XOR"``, ``"2.0"``, ``"true"``).
    """

    key: str
    kind: str
    default: object
    pages: tuple[str, ...]
    read: Callable[[str], object] | None = None
    spell: Callable[[object], str] = str
    lo: float | None = None
    hi: float | None = None
    options: tuple = ()

    @property
    def numeric(self) -> bool:
        """Whether the widget reads the link's text as a number (Streamlit converts it before the app sees it)."""
        return self.kind in ("grid", "whole", "number")

    def usable(self, text: str) -> bool:
        """Whether the widget may be given ``text`` at all: not a number too large for a float, ±inf or NaN
        (``1e999``, ``inf``, 400 nines), which Streamlit's number box turns into an OverflowError on every run;
        other bad text the widget refuses itself, and the app names it (glue.shared.report_url_problems)."""
        if not self.numeric:
            return True
        try:
            return math.isfinite(float(text))
        except ValueError:
            return True  # not a number at all ("abc"): the widget refuses it and keeps its default

    def default_on(self, page: str | None) -> object:
        """The default on ``page`` (a script's stem; None: the first page that draws it)."""
        if isinstance(self.default, Mapping):
            return self.default.get(page, next(iter(self.default.values())))
        return self.default

    @property
    def allowed(self) -> str:
        """What a link may give it, in words ("a whole number from 1 to 100,000"), "" where that is the widget's to
        say."""
        if self.kind not in ("whole", "number"):
            return ""
        what = "a whole number" if self.kind == "whole" else "a number"
        hi = "N, the number of points" if self.hi is None else f"{self.hi:,}"
        return f"{what} from {self.lo:,} to {hi}"


def _choice(key: str, labels: Mapping[str, str], pages: tuple[str, ...], default: str | None = None) -> Param:
    return Param(key, "choice", next(iter(labels)) if default is None else default, pages, _read_choice(labels),
                 labels.get, options=tuple(labels))


def _grid(key: str, options, default, pages: tuple[str, ...], spell: Callable[[object], str] = str) -> Param:
    opts = tuple(options) if options is not None else ()
    return Param(key, "grid", default, pages, _read_grid(list(opts)) if opts else None, spell, options=opts)


def _flag(key: str, default: bool, pages: tuple[str, ...]) -> Param:
    return Param(key, "flag", default, pages, _read_flag, _spell_flag)


def _whole(key: str, lo: int, hi: int | None, default: int | None, pages: tuple[str, ...]) -> Param:
    return Param(key, "whole", default, pages, lo=lo, hi=hi)


def _number(key: str, lo: float, hi: float, default: float, pages: tuple[str, ...]) -> Param:
    return Param(key, "number", default, pages, lo=lo, hi=hi)


def _text(key: str, pages: tuple[str, ...], default: str | None = None) -> Param:
    return Param(key, "text", default, pages)


SEED_MAX = 2**31 - 1
_DATA = (SIDEBAR,)
STATE: tuple[Param, ...] = (
    # the sidebar: the dataset (glue.shared.dataset_sidebar), the user's points (glue.userdata), the classroom
    _choice("ds", DATASET_LABELS, _DATA, default="textbook"),
    *(_grid(f"n_{k}", n_choices(spec), spec.default_n, _DATA) for k, spec in REGISTRY.items() if not spec.fixed_n),
    *(_number(f"{k}_{p.name}", float(p.min), float(p.max), float(p.default), _DATA)
      for k, spec in REGISTRY.items() for p in spec.params),
    _whole("data_seed", 0, SEED_MAX, 0, _DATA),
    _flag("std", False, _DATA),
    _text("pts", _DATA),
    _flag("present", False, _DATA),
    _text("hide", _DATA, "sidebar,tables"),
    # the pages' controls (app_pages/*.py)
    _choice("variant", VARIANT_LABELS, (PERCEPTRON,)),
    _grid("tau", TAUS, 1.0, (PERCEPTRON, COMPARE)),
    _whole("B", 1, None, None, (PERCEPTRON,)),
    _choice("rule", RULE_LABELS, (PERCEPTRON,)),
    _choice("frames", FRAME_LABELS, (PERCEPTRON, DUAL)),
    _flag("bias", True, (PERCEPTRON,)),
    *(_number(k, -100.0, 100.0, 0.0, (PERCEPTRON,)) for k in ("w01", "w02", "b0")),
    _whole("seed", 0, SEED_MAX, 0, (PERCEPTRON, DUAL, COMPARE)),
    _whole("max_steps", 1, 100_000, 1000, (PERCEPTRON, DUAL)),
    _choice("reduction", REDUCTION_LABELS, (PERCEPTRON,)),
    _grid("height", HEIGHTS, {PERCEPTRON: 780, DUAL: 860, SVM: 780, LOSSES: 680}, (PERCEPTRON, DUAL, SVM, LOSSES)),
    _flag("quiz", False, (PERCEPTRON,)),
    _text("step", (PERCEPTRON, DUAL, COMPARE)),
    _choice("kernel", KERNEL_LABELS, (DUAL, SVM)),
    _grid("degree", DEGREES, 2, (DUAL, SVM)),
    _grid("coef0", COEF0S, 1.0, (DUAL, SVM)),
    _grid("gamma", GAMMAS, 1.0, (DUAL, SVM)),
    _grid("eta", TAUS, 1.0, (DUAL,)),
    _choice("order", ORDER_LABELS, (DUAL,)),
    _grid("C", C_GRID, 1.0, (SVM, COMPARE), spell=c_label),
    _flag("hard", False, (SVM,)),
    _flag("overlay", True, (SVM,)),
    _text("svm_tab", (SVM,), "Exact SVM"),
    _choice("schedule", SCHEDULE_LABELS, (SVM,)),
    _grid("sgd_eta", TAUS, 0.1, (SVM,)),
    _grid("sgd_steps", SGD_STEPS, 2000, (SVM,)),
    _whole("sgd_seed", 0, SEED_MAX, 0, (SVM,)),
    _choice("loss", LOSS_LABELS, (LOSSES,)),
    _choice("slice", SLICE_LABELS, (LOSSES,)),
    _choice("view", VIEW_LABELS, (LOSSES,)),
    _grid("lam", LAMS, 0.0, (LOSSES,)),
    _choice("path", PATH_LABELS, (LOSSES,), default="perceptron"),
    _choice("path_variant", VARIANT_LABELS, (LOSSES,)),
    _grid("path_tau", TAUS, 1.0, (LOSSES,)),
    _whole("lit", 0, None, 0, (LOSSES,)),
    _grid("radius", RADII, 1.0, (LOSSES,)),
    _whole("path_seed", 0, SEED_MAX, 0, (LOSSES,)),
    _grid("b_at", None, None, (LOSSES,), spell=lambda v: f"{v:g}"),  # the b slider's grid is the data's
    _choice("cmp", COMPARE_LABELS, (COMPARE,)),
    _whole("cmp_steps", 1, 20_000, 1000, (COMPARE,)),
    _choice("cmp_order", ORDER_LABELS, (COMPARE,)),
    _grid("tau_a", TAUS, 0.1, (COMPARE,)),
    _grid("tau_b", TAUS, 1.0, (COMPARE,)),
    _grid("B_a", BATCHES, 1, (COMPARE,)),
    _grid("B_b", BATCHES, 16, (COMPARE,)),
)
PARAMS: dict[str, Param] = {p.key: p for p in STATE}
assert len(PARAMS) == len(STATE), "a key twice in STATE"

# derived views of the table (what other modules read)
URL_FORMS: dict[str, Callable[[str], object]] = {p.key: p.read for p in STATE if p.read is not None}
URL_SPELLING: dict[str, Callable[[object], str]] = {p.key: p.spell for p in STATE}
OWN_KEYS = {"order": ("tau",), "tau": ("cmp_order", "tau_a", "tau_b"), "batch": ("B_a", "B_b"), "svm": ("C",)}  # Compare: each comparison's own controls


def url_spelling(key: str, value) -> str:
    """``value`` written as the widget bound to ``key`` writes it in the URL."""
    return URL_SPELLING.get(key, str)(value)


def known_url_key(key: str) -> bool:
    """Whether some page binds ``key`` (a dataset parameter ``<dataset>_<param>`` included)."""
    return key in PARAMS


def parse_url(params: Mapping[str, str]) -> dict[str, object]:
    """Widget values for the query parameters the table can read (others are left out)."""
    out = {}
    for key, value in params.items():
        form = URL_FORMS.get(key)
        parsed = form(value) if form else None
        if parsed is not None:
            out[key] = parsed
    return out


def unusable_url_values(params: Mapping[str, str]) -> dict[str, str]:
    """The link's values no widget may be given (:meth:`Param.usable`), by key: taken out before any widget is drawn."""
    return {k: v for k, v in params.items() if k in PARAMS and not PARAMS[k].usable(v)}


QUOTE_MAX = QUOTE_CHARS  # a value quoted in a message is cut to this many characters, as the CSV reader's messages are


def quoted(text: str) -> str:
    """``text`` quoted for a message (``'abc'``); a long one cut short, with its length: ``'999…' (400 characters)``
    (datasets.csvio cuts the values its messages quote the same way)."""
    text = str(text)
    return quote(text) + (f" ({len(text):,} characters)" if len(text) > QUOTE_MAX else "")


def named(key: str) -> str:
    """A link's parameter name for a message: whole, or cut short as :func:`quoted` cuts values."""
    return key if len(key) <= QUOTE_MAX else quoted(key)


def weight_pick(value) -> tuple[tuple[float, float], float] | None:
    """A weight the Loss page's chart reports as clicked (``{"w": [w₁, w₂], "b": b}``) as ((w₁, w₂), b), rounded to
    6 decimals; None for anything else (a hand-made or damaged message): a dict whose ``w`` is a list of two and
    whose ``b`` is one, each a finite int or float (not a bool, not text). The page then also checks that w lies
    on its grid and b is one of its slider's."""
    if not isinstance(value, dict) or not isinstance(value.get("w"), list | tuple) or len(value["w"]) != 2:
        return None
    w1, w2, b = nums = [message_number(v) for v in (*value["w"], value.get("b"))]
    if any(v is None for v in nums):
        return None
    return (round(w1, 6), round(w2, 6)), round(b, 6)


def c_pick(value, grid) -> float | None:
    """The C the SVM chart reports as its own once at rest: one of ``grid`` (the page's values of C) as a float;
    None for anything else (a hand-made or damaged message, a bool, text, a C off the grid)."""
    c = message_number(value)
    return c if c is not None and c in {float(g) for g in grid} else None


def message_number(value) -> float | None:
    """A number a chart's message carries (JSON: an int or a float) as a finite float; None for anything else: a
    bool, text, NaN or ±∞, an int too large for a float."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return None
    try:
        v = float(value)
    except OverflowError:
        return None
    return v if math.isfinite(v) else None
