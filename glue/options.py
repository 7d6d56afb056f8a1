"""The choices the pages offer, and how a URL may spell them.

Widgets bind to query parameters and Streamlit accepts only the exact text it
writes itself (a choice's label, ``2.0`` for the float 2). :func:`parse_url`
reads friendlier spellings too (``ds=xor``, ``variant=minibatch``, ``tau=2``,
``bias=0``) into widget values, which the app presets before the widgets are
drawn; what it cannot read is left for the page to name as ignored.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from core.svm import C_GRID
from datasets import REGISTRY
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


def _choice(labels: Mapping[str, str]) -> Callable[[str], str | None]:
    """Accept a choice's key or label in any case; return the key (the widget's value)."""
    table = {}
    for key, label in labels.items():
        for spelling in (key, label, label.replace("-", "")):
            table[spelling.lower()] = key
    return lambda v: table.get(v.strip().lower())


def _number_in(options: list) -> Callable[[str], float | int | None]:
    """Accept any spelling of one of the numbers ``options``; return that option."""
    def parse(v: str):
        try:
            x = float(v)
        except ValueError:
            return None
        return next((o for o in options if float(o) == x), None)
    return parse


def _bool(v: str) -> bool | None:
    t = v.strip().lower()
    return True if t in ("true", "1", "yes", "on") else False if t in ("false", "0", "no", "off") else None


def _int(lo: int, hi: int) -> Callable[[str], int | None]:
    def parse(v: str) -> int | None:
        try:
            x = float(v)
        except ValueError:
            return None
        return int(x) if x.is_integer() and lo <= x <= hi else None
    return parse


def n_choices(spec) -> list[int]:
    """A roughly logarithmic grid of point counts for a dataset's n slider, including its default."""
    hi = min(spec.n_max, N_PLANE_MAX)
    grid = {spec.n_min, spec.default_n, hi, 3, 5, 10, 20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 500, 750, 1000,
            1500, 2000, 3000, 5000, 7500, 10_000}
    return sorted(g for g in grid if spec.n_min <= g <= hi)


def _n_of(spec) -> Callable[[str], int | None]:
    """n for a dataset's select slider: one of its grid values."""
    return _number_in(n_choices(spec))


# query parameter -> how to read it into the widget's value; n_<dataset> keys are added below
URL_FORMS: dict[str, Callable[[str], object]] = {
    "ds": _choice(DATASET_LABELS),
    "variant": _choice(VARIANT_LABELS),
    "rule": _choice(RULE_LABELS),
    "frames": _choice(FRAME_LABELS),
    "reduction": _choice(REDUCTION_LABELS),
    "tau": _number_in(TAUS),
    "eta": _number_in(TAUS),
    "height": _number_in(HEIGHTS),
    "kernel": _choice(KERNEL_LABELS),
    "order": _choice(ORDER_LABELS),
    "degree": _number_in(DEGREES),
    "coef0": _number_in(COEF0S),
    "gamma": _number_in(GAMMAS),
    "C": _number_in(list(C_GRID)),
    "schedule": _choice(SCHEDULE_LABELS),
    "sgd_eta": _number_in(TAUS),
    "sgd_steps": _number_in(SGD_STEPS),
    "hard": _bool,
    "overlay": _bool,
    "bias": _bool,
    "std": _bool,
    "loss": _choice(LOSS_LABELS),
    "slice": _choice(SLICE_LABELS),
    "view": _choice(VIEW_LABELS),
    "path": _choice(PATH_LABELS),
    "path_variant": _choice(VARIANT_LABELS),
    "path_tau": _number_in(TAUS),
    "lam": _number_in(LAMS),
    "radius": _number_in(RADII),
    "present": _bool,
    "quiz": _bool,
    "cmp": _choice(COMPARE_LABELS),
    "cmp_order": _choice(ORDER_LABELS),
    "tau_a": _number_in(TAUS),
    "tau_b": _number_in(TAUS),
    "B_a": _number_in(BATCHES),
    "B_b": _number_in(BATCHES),
}
URL_FORMS.update({f"n_{k}": _n_of(spec) for k, spec in REGISTRY.items() if not spec.fixed_n})

# how each widget writes its value in the URL (the page's ``fmt``); str for numbers (2.0, 60)
URL_SPELLING: dict[str, Callable[[object], str]] = {
    "ds": DATASET_LABELS.get, "variant": VARIANT_LABELS.get, "rule": RULE_LABELS.get, "frames": FRAME_LABELS.get,
    "reduction": REDUCTION_LABELS.get, "kernel": KERNEL_LABELS.get, "order": ORDER_LABELS.get,
    "bias": lambda v: str(v).lower(), "std": lambda v: str(v).lower(), "hard": lambda v: str(v).lower(), "overlay": lambda v: str(v).lower(),
    "present": lambda v: str(v).lower(), "quiz": lambda v: str(v).lower(),
    "C": c_label,
    "schedule": SCHEDULE_LABELS.get,
    "loss": LOSS_LABELS.get, "slice": SLICE_LABELS.get, "view": VIEW_LABELS.get, "path": PATH_LABELS.get,
    "path_variant": VARIANT_LABELS.get, "cmp": COMPARE_LABELS.get,
    "cmp_order": ORDER_LABELS.get,
}


def url_spelling(key: str, value) -> str:
    """``value`` written as the widget bound to ``key`` writes it in the URL."""
    return URL_SPELLING.get(key, str)(value)


# bound by the pages, read by Streamlit itself (numbers in any spelling)
OTHER_KEYS = {"data_seed", "B", "seed", "max_steps", "w01", "w02", "b0", "sgd_seed", "b_at", "lit", "path_seed", "pts", "step",
              "hide", "cmp_steps", "svm_tab"}


def known_url_key(key: str) -> bool:
    """Whether some page binds ``key`` (a dataset parameter ``<dataset>_<param>`` included)."""
    if key in URL_FORMS or key in OTHER_KEYS:
        return True
    return any(key == f"{k}_{p.name}" for k, spec in REGISTRY.items() for p in spec.params)


def parse_url(params: Mapping[str, str]) -> dict[str, object]:
    """Widget values for the query parameters this module can read (others are left out)."""
    out = {}
    for key, value in params.items():
        form = URL_FORMS.get(key)
        parsed = form(value) if form else None
        if parsed is not None:
            out[key] = parsed
    return out


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

OWN_KEYS = {"order": ("tau",), "tau": ("cmp_order", "tau_a", "tau_b"), "batch": ("B_a", "B_b"), "svm": ("C",)}  # Compare: each comparison's own controls
