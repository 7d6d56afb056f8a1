"""Scenes: what crosses the wire instead of figures, and the browser renderer that draws them.

A scene is one typed record per page holding exactly what defines the view: the points once, and
the core's own states (for the Perceptron: w and b after each update, the steps that updated, the
points examined and updated, the misclassified set M of every state as the core judged it, ties
included, and the loss). The browser renderer (the ES modules of ``viz/js``, entry ``main.js``, a
components-v2 component over plotly.js) derives everything drawable from it: the boundary and regions, M's rings, w and
the update arrow, the arithmetic line, the state line and the loss strip. Nothing the core decided
(M, ties, which points updated, convergence) is decided again in JavaScript.

Wire format (version :data:`SCENE_VERSION`), little-endian::

    b"DBLS"  u32 header length h  header (UTF-8 JSON, h bytes)  zero padding to a multiple of 8  arrays

The header holds the scalar fields and ``arrays``: for each array its ``dtype`` (``u1 u2 u4 i1 f8``),
``shape`` and byte ``offset`` from the start of the array section (each offset a multiple of 8).
JavaScript reads the same field names (:func:`unpack` here, ``decode`` in ``viz/js/record.js``).

No Streamlit here.
"""

from __future__ import annotations

import functools
import json
import math
import struct
from dataclasses import asdict, dataclass, field, fields, replace

import numpy as np

from core.bounds import novikoff_terms
from core.formulas import perceptron_loss
from core.perceptron import Trajectory, epoch_of, examined_at
from core.snapshot import activation
from core.svm import HingeRun, SVMSolution
from viz.common import Chart, serialized, view_box, widened
from viz.compare import check_pair, reference_of, run_label, run_summary
from viz.dual import MAX_TERMS, gram_display
from viz.perceptron import bound_applies, bound_run_kind
from viz.svm import MAX_SLACK_LABELS, ON_MARGIN, categories, kernel_scale, margin_tol

SCENE_VERSION = 5  # 2: a hinge run carries its η, a mini-batch's subsets may be bit sets, the figure kind; 3: memo;
# 4: a Compare scene's reference is a list (the exact SVM of each C its hinge runs have), a Compare family by C, partial
# 5: a hinge-SGD scene holds a run for each η (runs, objective.<j>, follow, partial)
MAGIC = b"DBLS"
_ALIGN = 8
_DTYPES = {"u1": "<u1", "u2": "<u2", "u4": "<u4", "i1": "<i1", "f8": "<f8"}


def pack(header: dict, arrays: dict[str, np.ndarray]) -> bytes:
    """A header and named arrays as one scene record (the wire format above).

    Parameters
    ----------
    header : dict
        JSON-serialisable scalar fields (``arrays`` is added).
    arrays : dict of str to ndarray
        Each of a dtype in ``u1 u2 u4 i1 f8`` (others raise ValueError).
    """
    specs, chunks, offset = {}, [], 0
    for name, a in arrays.items():
        code = next((c for c, d in _DTYPES.items() if np.dtype(d) == np.dtype(a.dtype).newbyteorder("<")), None)
        if code is None:
            raise ValueError(f"scene array {name!r} has dtype {a.dtype}, which the renderer does not read")
        raw = np.ascontiguousarray(a, dtype=_DTYPES[code]).tobytes()
        specs[name] = {"dtype": code, "shape": list(a.shape), "offset": offset}
        pad = -len(raw) % _ALIGN
        chunks.append(raw + b"\0" * pad)
        offset += len(raw) + pad
    head = json.dumps({**header, "arrays": specs}, separators=(",", ":"), allow_nan=False).encode()
    head += b" " * (-(len(MAGIC) + 4 + len(head)) % _ALIGN)  # the arrays start on an 8-byte boundary
    return MAGIC + struct.pack("<I", len(head)) + head + b"".join(chunks)


_MAX_DEPTH = 32  # the deepest nesting of objects and lists a header may have (a record's is 6 or less)
_MAX_DIMS = 32  # the most axes an array may have (numpy's limit is 64)
_MAX_ELEMENTS = 2**53  # the most elements an array may have, its zero axes aside (JavaScript's exact integers)


def _json_kind(v) -> str:
    """What a JSON value is, for a message: "an object", "a list", "a string", "a number", "true", "null"."""
    return ("null" if v is None else "true" if v is True else "false" if v is False else "an object" if isinstance(v, dict)
            else "a list" if isinstance(v, list) else "a string" if isinstance(v, str) else "a number")


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _too_deep(value, limit: int) -> bool:
    """Whether objects and lists nest in ``value`` more than ``limit`` deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if depth > limit:
            return True
        items = v.values() if isinstance(v, dict) else v
        stack.extend((c, depth + 1) for c in items if isinstance(c, dict | list))
    return False


def _header_of(blob) -> tuple[bytes, dict, int]:
    """A record's bytes, its header (a JSON object) and where its arrays start; ValueError naming what is wrong."""
    if isinstance(blob, memoryview):
        blob = blob.tobytes()
    if not isinstance(blob, bytes | bytearray):
        raise ValueError(f"a scene record is bytes, not {type(blob).__name__}")
    if len(blob) < 8 or blob[:4] != MAGIC:
        raise ValueError("not a scene record (it does not start with DBLS)")
    (h,) = struct.unpack("<I", blob[4:8])
    if 8 + h > len(blob):
        raise ValueError(f"the scene record is cut short: its header is {h:,} bytes, but {len(blob) - 8:,} follow")
    try:
        text = bytes(blob[8:8 + h]).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the scene header is not UTF-8 text ({exc.reason} at byte {8 + exc.start})") from None
    try:
        header = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError(f"the scene header nests deeper than {_MAX_DEPTH} objects and lists") from None
    except ValueError as exc:  # (JSONDecodeError, NaN or Infinity, an integer of too many digits)
        raise ValueError(f"the scene header is not JSON: {exc}") from None
    if not isinstance(header, dict):
        raise ValueError(f"the scene header is {_json_kind(header)}, not an object")
    if _too_deep(header, _MAX_DEPTH):
        raise ValueError(f"the scene header nests deeper than {_MAX_DEPTH} objects and lists")
    return blob, header, 8 + h


def unpack(blob: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The header and arrays of a scene record (the inverse of :func:`pack`).

    Raises
    ------
    ValueError
        When ``blob`` is not a scene record of this version, naming what is wrong: not bytes, no ``DBLS``, cut short,
        a header that is not a JSON object (or nests deeper than 32), another ``version``, no ``arrays`` object, or an
        array whose spec is not exactly ``dtype`` (one of ``u1 u2 u4 i1 f8``), ``shape`` (a list of integers ≥ 0) and
        ``offset`` (an integer ≥ 0, a multiple of 8) or whose bytes run past the end of the record. Nothing else is
        raised for any bytes.
    """
    blob, header, base = _header_of(blob)
    version = header.get("version")
    if type(version) is not int or version != SCENE_VERSION:
        raise ValueError(f"scene version {version!r}; this renderer reads {SCENE_VERSION}")
    specs = header.pop("arrays", None)
    if not isinstance(specs, dict):
        raise ValueError("the scene header has no arrays" if specs is None else
                         f"the scene header's arrays is {_json_kind(specs)}, not an object")
    size = len(blob) - base
    arrays = {}
    for name, spec in specs.items():
        if not isinstance(spec, dict) or spec.keys() != {"dtype", "shape", "offset"}:
            got = sorted(spec) if isinstance(spec, dict) else _json_kind(spec)
            raise ValueError(f"scene array {name!r}: its spec holds dtype, shape and offset, got {got}")
        code, shape, offset = spec["dtype"], spec["shape"], spec["offset"]
        if not isinstance(code, str) or code not in _DTYPES:
            raise ValueError(f"scene array {name!r} has dtype {code!r}; the renderer reads {', '.join(_DTYPES)}")
        if (not isinstance(shape, list) or len(shape) > _MAX_DIMS
                or not all(type(n) is int and n >= 0 for n in shape)):
            raise ValueError(f"scene array {name!r} has shape {_shown(shape)}; a shape is a list of at most "
                             f"{_MAX_DIMS} integers ≥ 0")
        if type(offset) is not int or offset < 0 or offset % _ALIGN:
            raise ValueError(f"scene array {name!r} has offset {_shown(offset)}; an offset is an integer ≥ 0, a "
                             f"multiple of {_ALIGN}")
        dt = np.dtype(_DTYPES[code])
        if math.prod(n for n in shape if n) > _MAX_ELEMENTS:
            raise ValueError(f"scene array {name!r} has shape {_shown(shape)}: more than 2⁵³ elements")
        count = math.prod(shape)
        if offset + count * dt.itemsize > size:
            raise ValueError(f"scene array {name!r} ({count * dt.itemsize:,} bytes at offset {offset:,}) runs past "
                             f"the end of the record ({size:,} bytes of arrays)")
        arrays[name] = np.frombuffer(blob, dtype=dt, count=count, offset=base + offset).reshape(shape)
    return header, arrays


def _shown(v, most: int = 80) -> str:
    """A header's value for a message, shortened when long."""
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= most else text[:most - 1] + "…"


def with_view(blob: bytes, view: View) -> bytes:
    """The same scene record shown another way (height, scale, step mode, start step): only the header changes.

    ValueError when ``blob`` is not a scene record (as :func:`unpack` names it; its arrays are not read).
    """
    blob, header, base = _header_of(blob)
    header["view"] = asdict(view)
    head = json.dumps(header, separators=(",", ":"), allow_nan=False).encode()
    head += b" " * (-(len(MAGIC) + 4 + len(head)) % _ALIGN)
    return MAGIC + struct.pack("<I", len(head)) + head + bytes(blob[base:])


def bundle(records: list[bytes]) -> bytes:
    """Scene records made ahead, sent as one: the renderer keeps each (records of the memo's key it keeps) to draw it
    when the page's controls come to it (:class:`PerceptronScene`'s ``memo``), and draws none now. Arrays ``r0``,
    ``r1``…: each record's bytes."""
    if not records or any(len(r) < 8 or r[:4] != MAGIC for r in records):
        raise ValueError("a bundle holds one scene record or more")
    header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": "bundle"}
    return pack(header, {f"r{j}": np.frombuffer(r, dtype=np.uint8) for j, r in enumerate(records)})


class _FlatRecord:
    """A scene whose record is its named arrays (``ARRAYS``) and its other fields in the header, kind ``KIND``.

    ``box`` travels as a list and comes back a tuple; ``view`` as a dict and comes back a :class:`View`.
    """

    KIND = ""
    NAME = ""  # in its message: "a Dual", "an SVM"
    ARRAYS: tuple[str, ...] = ()

    def to_bytes(self) -> bytes:
        """The scene as the renderer reads it (the wire format of this module)."""
        header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": self.KIND}
        for f in fields(self):
            if f.name not in self.ARRAYS:
                v = getattr(self, f.name)
                header[f.name] = asdict(v) if f.name == "view" else list(v) if f.name == "box" else v
        return pack(header, {name: getattr(self, name) for name in self.ARRAYS})

    @classmethod
    def from_bytes(cls, blob: bytes):
        """The scene a record holds (ValueError, naming what is wrong, if it is not a scene of this kind and version)."""
        r = _Reader(blob, cls.KIND, cls.NAME)
        return cls(**{name: r.array(name) for name in cls.ARRAYS}, **r.flat_fields(cls))


_NUMBER = (int, float)
_NONE = type(None)
_VIEW_TYPES = {"height": _NUMBER, "scale": _NUMBER, "mode": (str,), "start": (int, _NONE), "tau": (*_NUMBER, _NONE),
               "axes": (list,), "lam": (*_NUMBER, _NONE), "quiz": (dict, _NONE), "pair": (list, _NONE),
               "eta": (*_NUMBER, _NONE), "seen": (*_NUMBER, _NONE), "classes": (list, _NONE),
               "controls": (list,)}
_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number", _NONE: "null"}
_REQUIRED = object()


def _expected(types: tuple) -> str:
    return " or ".join(dict.fromkeys(_TYPE_NAMES[t] for t in types))


class _Reader:
    """A scene record's header and arrays read field by field, for the scenes' ``from_bytes``: ValueError naming a
    field or array that is missing or of the wrong type (never KeyError or TypeError)."""

    def __init__(self, blob: bytes, kind: str, name: str):
        self.header, self.arrays = unpack(blob)
        if self.header.get("kind") != kind:
            raise ValueError(f"not {name} scene: kind {_shown(self.header.get('kind'))}")

    def get(self, key: str, types: tuple, default=_REQUIRED):
        """The header's field ``key``, of one of ``types`` (``default`` where it is absent, if given)."""
        if key not in self.header:
            if default is _REQUIRED:
                raise ValueError(f"the scene header has no {key!r}")
            return default
        v = self.header[key]
        if not isinstance(v, types) or (isinstance(v, bool) and bool not in types and not set(types) & {object}):
            raise ValueError(f"the scene header's {key!r} is {_json_kind(v)}, not {_expected(types)}")
        return v

    def array(self, name: str) -> np.ndarray:
        try:
            return self.arrays[name]
        except KeyError:
            raise ValueError(f"the scene record has no array {name!r}") from None

    def box(self) -> tuple[float, float, float, float]:
        box = self.get("box", (list,))
        if len(box) != 4 or not all(isinstance(v, _NUMBER) and not isinstance(v, bool) for v in box):
            raise ValueError(f"the scene header's box is {_shown(box)}, not 4 numbers")
        return tuple(box)

    def view(self) -> View:
        """The header's ``view`` as a View (its axes, pair and classes come back as tuples)."""
        v = self.get("view", (dict,))
        for key, value in v.items():
            if key not in _VIEW_TYPES:
                raise ValueError(f"the scene header's view has an unknown field {_shown(key)}")
            if not isinstance(value, _VIEW_TYPES[key]) or (isinstance(value, bool) and key != "quiz"):
                raise ValueError(f"the scene header's view.{key} is {_json_kind(value)}, not "
                                 f"{_expected(_VIEW_TYPES[key])}")
        for key, of in (("axes", str), ("pair", _NUMBER), ("classes", str)):
            if v.get(key) is not None and (len(v[key]) != 2 or not all(isinstance(a, of) and not isinstance(a, bool)
                                                                       for a in v[key])):
                raise ValueError(f"the scene header's view.{key} is {_shown(v[key])}, not 2 "
                                 f"{'strings' if of is str else 'numbers'}")
        if not all(isinstance(c, dict) for c in v.get("controls", ())):
            raise ValueError("the scene header's view.controls holds something other than objects")
        return View(**{**v, **{key: tuple(v[key]) for key in ("axes", "pair", "classes", "controls")
                               if v.get(key) is not None}})

    def runs(self) -> tuple:
        """The header's ``runs`` and their arrays as run records (:func:`_runs_of`)."""
        runs = self.get("runs", (list,))
        if not all(isinstance(run, dict) for run in runs):
            raise ValueError("the scene header's runs are not all objects")
        return _runs_of(runs, self)

    def flat_fields(self, cls) -> dict:
        """A :class:`_FlatRecord`'s fields other than its arrays (and a Dual's ``lines``)."""
        out = {}
        for f in fields(cls):
            if f.name in cls.ARRAYS or f.name == "lines":
                continue
            out[f.name] = (self.box() if f.name == "box" else self.view() if f.name == "view" else
                           self.get(f.name, (dict,) if f.name == "run" else (str, _NONE) if f.name == "follow"
                                    else (object,)))
        return out


def _share_orders(records: list) -> tuple:
    """The run records, each naming in ``run["order_of"]`` the first run that draws the same points in the same
    order (its ``order`` then travels once)."""
    shared = []
    for j, r in enumerate(records):
        first = next(i for i in range(j + 1) if records[i].order.shape == r.order.shape
                     and np.array_equal(records[i].order, r.order))
        shared.append(replace(r, run={**r.run, "order_of": first}))
    return tuple(shared)


def _index_dtype(n: int) -> type:
    """The smallest unsigned type that holds indices 0..n−1."""
    return np.uint16 if n <= 65536 else np.uint32


def _run_arrays(runs) -> dict[str, np.ndarray]:
    """The runs' arrays, named ``<field>.<j>`` for run j (a run whose ``order`` is another's, ``run["order_of"]``,
    sends none of its own)."""
    out = {}
    for j, r in enumerate(runs):
        for name in r.ARRAYS:
            if name != "order" or r.run.get("order_of", j) == j:
                out[f"{name}.{j}"] = getattr(r, name)
    return out


def _runs_of(header_runs: list[dict], record: _Reader) -> tuple:
    """The run records (:class:`PerceptronRun`, or :class:`HingeRunRecord` where ``run["kind"]`` is "hinge") that a
    header's ``runs`` and the arrays of :func:`_run_arrays` describe (ValueError naming an array that is missing)."""
    out = []
    for j, run in enumerate(header_runs):
        rec = HingeRunRecord if run.get("kind") == "hinge" else PerceptronRun
        out.append(rec(**{name: record.array(f"{name}.{run.get('order_of', j) if name == 'order' else j}")
                          for name in rec.ARRAYS}, run=run))
    return tuple(out)


@dataclass(frozen=True)
class View:
    """How a scene is shown (not part of the run): the renderer reads it from the header's ``view``.

    Attributes
    ----------
    height : int
        Chart height in px (the renderer lowers it to fit the window in presentation mode).
    scale : float
        1 normally; > 1 in presentation mode (fonts, markers and lines scaled).
    mode : {"all", "updates"}
        Which steps the slider, Back/Next and Play visit: every step, or step 0, the updates and the last.
    start : int or None
        The step to open at (a link's ``step=``); None opens at step 0 (or, on a new run, where the last
        run stood).
    tau : float or None
        The τ whose run to open where no control of the page gives τ (the offline file).
    lam : float or None
        The same for the Loss surface's λ.
    eta : float or None
        The same for the hinge-SGD tab's constant η.
    pair : (float, float) or None
        Compare: the value (τ or B) of each side's run to open where no control of the page gives it (the
        offline file).
    quiz : dict or None
        The Perceptron page's quiz (``viz/js/quiz.js``): ``{"step": k, "answered": bool, "pick": i or None}``, the
        state after step k asked about (0 ≤ k < S), and once answered step k + 1 with the verdict on the pick.
    axes : tuple of 2 str
        The data axes' titles ("x₁", "x₂", or e.g. "x₁: sepal length (standardized)").
    seen : float or None
        The Loss page's charts: when the last weight picked on its surface that the page has received was picked (the
        browser's clock, in ms, as the pick says). A pick the browser drew ahead of its figure that is newer than this
        is drawn again over a record made before it (``viz/js/loss.js``, ``figure.js``).
    classes : tuple of 2 str or None
        The names of the −1 and +1 classes, where the points have them (a user's CSV with named classes: e.g.
        ``("setosa", "versicolor")``, :attr:`datasets.csvio.CsvData.classes`); None: the classes are y = −1 and y = +1
        (the legend says them: viz/js/draw.js classEntries).
    controls : tuple of dict
        The controls the chart draws itself (τ, η, C, λ, the variant, B: glue.controls.ChartControls), each
        ``{"key", "label", "value", "options" and "list" or "lo"/"hi", "shown", "disabled", "help", "enabled_by"}``, the
        value and options as the link spells them; the renderer opens each at its value (viz/js/tune.js).
    """

    height: int = 780
    scale: float = 1.0
    mode: str = "all"
    start: int | None = None
    tau: float | None = None
    axes: tuple[str, str] = ("x₁", "x₂")
    lam: float | None = None
    quiz: dict | None = None
    pair: tuple[float, float] | None = None
    eta: float | None = None
    seen: float | None = None
    classes: tuple[str, str] | None = None
    controls: tuple = ()


@dataclass(frozen=True)
class PerceptronRun:
    """One run of a Perceptron scene: the core's states (arrays named ``<field>.<j>`` for run j in the record).

    Attributes
    ----------
    update_steps : ndarray of shape (K,), uint32
        The steps after which (w, b) changed, increasing (the core's ``Trajectory.update_steps``).
    W : ndarray of shape (K + 1, 2), float64
    B : ndarray of shape (K + 1,), float64
        w and b after the k-th update (k = 0: the start w₀, b₀).
    order : ndarray of shape (S,) or (S, B), uint16 or uint32; or (S, ⌈N/8⌉), uint8
        The points examined at steps 1..S (random and mini-batch); empty for cyclic (point (s − 1) mod N)
        and batch (every point). Runs that examine the same points share one array (``run["order_of"]``).
        A mini-batch's subsets travel as bit sets (bit i of row s − 1, least significant first: point i is
        in I) where that is smaller, B > N/16 (``run["order_bits"]``): B = N/4 at N = 2,000 takes 250 bytes a
        step instead of 1,000. The core keeps each I in index order, so either form reads back the same.
    errors : ndarray of shape (K + 1,), uint32
        |M| of each state, counted by the core.
    m_ptr, m_idx : ndarray of shape (K + 2,) and (total,)
        M, the misclassified set of each state as the core judged it, is sent as the core's rule plus its
        exceptions: the renderer evaluates yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) ≤ 0 (< 0 under the rule "negative") in
        IEEE double arithmetic in that order, the order ``core.snapshot.activation`` sums in, which
        JavaScript reproduces bit for bit; ``m_idx[m_ptr[k]:m_ptr[k + 1]]`` lists the points of state k
        where the core's own mask differs from that evaluation (found here, on the server, by evaluating
        it the same way; none as the core stands). So the rings drawn are the core's M, ties included,
        and the record grows with K, not with K·N (XOR at N = 2,000: 16 KB of M instead of 716 KB).
    loss : ndarray of shape (K + 1,), float64
        The mean perceptron loss (1/N) Σᵢ max(0, −yᵢ(w·xᵢ + b)) of each state.
    run : dict
        ``n_steps`` S, ``variant``, ``reduction``, ``tau``, ``batch_size``, ``update_on``,
        ``fit_intercept``, ``converged``, ``order_of``, ``order_bits``.

    The points updated on at a step are not sent: they are, by the core's definition
    (``Trajectory.updated``), the examined points in M of the state before (M ∩ I), and the renderer
    reads them from M.
    """

    update_steps: np.ndarray
    W: np.ndarray
    B: np.ndarray
    order: np.ndarray
    errors: np.ndarray
    m_ptr: np.ndarray
    m_idx: np.ndarray
    loss: np.ndarray
    run: dict

    ARRAYS = ("update_steps", "W", "B", "order", "errors", "m_ptr", "m_idx", "loss")


@dataclass(frozen=True)
class PerceptronScene:
    """The Perceptron page's scene: the points once, and the core's states of one run for each τ.

    Every τ of the page's list is run (with all other settings the same), so moving τ switches runs in
    the browser, within a frame, with no message to the server.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
        The points, exactly as the core saw them (the arithmetic line is written from them).
    y : ndarray of shape (N,), int8
        Labels in {−1, +1}.
    runs : tuple of PerceptronRun
        One per τ, in the order of ``run["tau"]``.
    box : tuple of 4 floats
        The data panel's view (x₁ min, x₁ max, x₂ min, x₂ max).
    bound : dict or None
        Novikoff's bound where it applies to the runs: ``R``, ``gamma``, ``bound``, ``w`` (unit
        max-margin direction of x̃), ``b``, ``fit_intercept``.
    follow : str or None
        The label of the page's τ control: the renderer shows the run of the τ that control shows, and
        follows it as it moves (without it, the renderer offers its own τ choice, as in the offline file).
    view : View
    proof : tuple of ndarray of shape (K + 1, 2), float64, or None
        With ``bound``: for each run, ⟨w̃*, w̃_k⟩ and ‖w̃_k‖² after each update, the two sides of the proof of
        the bound (:func:`core.bounds.novikoff_terms`); arrays ``proof.<j>``.
    bound_note : str
        Without ``bound``: why it does not apply to the runs (:func:`viz.perceptron.bound_applies`), which the
        proof's panel says; "" where unknown.
    memo : dict or None
        What lets the renderer keep this record and draw it again when the page's variant control comes back to
        this variant (and, for a mini-batch, its B control to this B), with no message to the server: ``key`` (the
        points and every setting but the variant, B and τ, hashed: a record is shown again only while the key is the
        same), ``follow`` and ``batch`` (the variant and B controls' labels), ``options`` ({the text the variant
        control shows: the variant}) and ``ahead`` (the variants the server makes ahead when asked, sent in a
        :func:`bundle`; "minibatch": at the B the page's B control shows). None: nothing is kept.
    partial : bool
        The record holds the run of the page's τ alone, sent first for inputs new to the session (where the
        page's last build was slow, or the variant or B changed): once it is drawn, the chart asks for them (app_pages/perceptron.py), and dims while the page's τ control shows
        another τ than this record's.
    """

    X: np.ndarray
    y: np.ndarray
    runs: tuple[PerceptronRun, ...]
    box: tuple[float, float, float, float]
    bound: dict | None = None
    follow: str | None = None
    view: View = field(default_factory=View)
    proof: tuple[np.ndarray, ...] | None = None
    bound_note: str = ""
    memo: dict | None = None
    partial: bool = False

    @property
    def taus(self) -> list[float]:
        return [r.run["tau"] for r in self.runs]

    def to_bytes(self) -> bytes:
        """The scene as the renderer reads it (the wire format of this module)."""
        header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": "perceptron",
                  "runs": [r.run for r in self.runs], "box": list(self.box), "bound": self.bound,
                  "bound_note": self.bound_note, "follow": self.follow, "view": asdict(self.view), "memo": self.memo,
                  "partial": self.partial}
        proof = {f"proof.{j}": a for j, a in enumerate(self.proof or ())}
        return pack(header, {"X": self.X, "y": self.y, **_run_arrays(self.runs), **proof})

    @classmethod
    def from_bytes(cls, blob: bytes) -> PerceptronScene:
        """The scene a record holds (ValueError, naming what is wrong, if it is not a Perceptron scene of this
        version)."""
        r = _Reader(blob, "perceptron", "a Perceptron")
        runs = r.runs()
        proof = tuple(r.array(f"proof.{j}") for j in range(len(runs))) if "proof.0" in r.arrays else None
        return cls(X=r.array("X"), y=r.array("y"), runs=runs, box=r.box(), bound=r.get("bound", (dict, _NONE)),
                   follow=r.get("follow", (str, _NONE)), view=r.view(), proof=proof,
                   bound_note=r.get("bound_note", (str,), ""), memo=r.get("memo", (dict, _NONE), None),
                   partial=bool(r.get("partial", (object,), False)))


# (state, point) pairs a record's margins are computed for at once: 1.6 MB a float array, which the cache holds
# (a larger chunk was slower, not quicker: bench/RESULTS.md, figures that stood in code comments)
PAIRS = 200_000


def rule_mistakes(X: np.ndarray, y: np.ndarray, W: np.ndarray, B: np.ndarray, update_on: str) -> np.ndarray:
    """M as the renderer evaluates it: yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) ≤ 0 (or < 0), one IEEE operation at a time.

    Written out here, not taken from ``core``, so that a change of the core's order of summation shows up
    as exceptions in the scene rather than as rings the core did not draw. The arrays as for
    :func:`rule_margins`; returns a bool array of shape (k, N).
    """
    m = rule_margins(X, y, W, B)
    return m < 0 if update_on == "negative" else m <= 0


def rule_margins(X: np.ndarray, y: np.ndarray, W: np.ndarray, B: np.ndarray) -> np.ndarray:
    """yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) for each state, one IEEE operation at a time, as the renderer evaluates it.

    Parameters
    ----------
    X : ndarray of shape (N, 2)
    y : ndarray of shape (N,)
    W : ndarray of shape (k, 2)
    B : ndarray of shape (k,)

    Returns
    -------
    ndarray of shape (k, N), float64
    """
    m = W[:, 0, None] * X[None, :, 0]  # the same operations in the same order, in place (no temporaries)
    m += W[:, 1, None] * X[None, :, 1]
    m += B[:, None]
    m *= y.astype(np.float64)[None, :]
    return m


@dataclass(frozen=True)
class ScenePoints:
    """The points of a scene, named as a run's ``problem`` names them (``X``, ``y``, ``n``, ``update_on``)."""

    X: np.ndarray
    y: np.ndarray
    update_on: str

    @property
    def n(self) -> int:
        return len(self.y)

    def margins(self, w: np.ndarray, b: float) -> np.ndarray:
        """yᵢ(w·xᵢ + b) of every point, summed as the core sums it (``core.snapshot.Problem.margins``), shape (n,)."""
        return self.y * activation(self.X, w, b)


class SceneRun:
    """Run ``j`` of a Perceptron scene read back as a drawing reads a :class:`core.perceptron.Trajectory`.

    Every value comes from the record, as the browser's renderer reads it (``PerceptronModel`` in
    ``viz/js/perceptron-model.js``): the states, the points examined, and M as the core's rule plus the core's
    exceptions. The GIF draws from this, so the animation in the browser, the offline file and the GIF show one record.

    Parameters
    ----------
    scene : PerceptronScene
    j : int
        The run (0 ≤ j < len(scene.runs)).
    """

    def __init__(self, scene: PerceptronScene, j: int = 0):
        if not 0 <= j < len(scene.runs):
            raise ValueError(f"the scene has no run {j} (it holds {len(scene.runs)})")
        r = scene.runs[j]
        self.record = r
        self.problem = ScenePoints(scene.X, scene.y.astype(np.int64), r.run["update_on"])
        self.update_steps = r.update_steps.astype(np.int64)
        self.W, self.B = r.W, r.B
        self.n_steps, self.variant, self.tau = int(r.run["n_steps"]), r.run["variant"], float(r.run["tau"])
        self.batch_size, self.converged = int(r.run["batch_size"]), bool(r.run["converged"])
        self.n_updates = len(self.update_steps)
        self.order_bits = bool(r.run.get("order_bits"))  # the mini-batch's subsets as bit sets
        self._order = r.order if r.order.size else None  # None: cyclic (point (s − 1) mod N) or batch (every point)

    @classmethod
    def of_tau(cls, blob: bytes, tau: float) -> SceneRun:
        """The run of step size ``tau`` in a Perceptron scene record (ValueError if the record holds none)."""
        scene = PerceptronScene.from_bytes(blob)
        if float(tau) not in scene.taus:
            raise ValueError(f"the scene holds no run with τ = {tau:g}")
        return cls(scene, scene.taus.index(float(tau)))

    def state_index(self, steps):
        """k, the updates up to and including each step (``Trajectory.state_index``)."""
        return np.searchsorted(self.update_steps, steps, side="right")

    def states(self, steps) -> tuple[np.ndarray, np.ndarray]:
        """(w, b) after each of ``steps``: arrays of shape (k, 2) and (k,)."""
        k = self.state_index(np.asarray(steps))
        return self.W[k], self.B[k]

    def stats_at(self, steps) -> tuple[np.ndarray, np.ndarray]:
        """|M| and the mean perceptron loss after each of ``steps``, as the core counted them."""
        k = self.state_index(np.asarray(steps))
        return self.record.errors[k].astype(np.int64), self.record.loss[k]

    def state_mistakes(self, states) -> np.ndarray:
        """M of the stored states ``states`` (indices 0..K): the rule, then the core's exceptions flipped; (k, N)."""
        states = np.asarray(states, dtype=np.int64).reshape(-1)
        p, r = self.problem, self.record
        out = rule_mistakes(p.X, p.y, self.W[states], self.B[states], p.update_on)
        for row, k in enumerate(states):
            out[row, r.m_idx[r.m_ptr[k]:r.m_ptr[k + 1]]] ^= True
        return out

    def epoch(self, step: int) -> int:
        """Passes over the data begun by ``step`` (``Trajectory.epoch``)."""
        return epoch_of(self.variant, step, self.batch_size, self.problem.n)

    @functools.cached_property
    def order(self) -> np.ndarray | None:
        """The points examined at steps 1..S as the core stores them (``Trajectory.order``): (S,) or (S, B)."""
        if self._order is None or not self.order_bits:
            return self._order
        return bits_as_subsets(self._order, self.problem.n, self.batch_size)

    def examined(self, step: int) -> np.ndarray:
        """The points examined at ``step``, shape (k,) (none at step 0)."""
        if self.order_bits and step > 0:  # one row of bits, not every step's
            return bits_as_subsets(self._order[step - 1:step], self.problem.n, self.batch_size)[0]
        return examined_at(self.variant, step, self.problem.n, self.order)

    def updated(self, step: int) -> np.ndarray:
        """The points whose yᵢxᵢ entered the update at ``step``: the examined points in M of the state before
        (the rule on those points alone, then the state's exceptions among them)."""
        k = int(self.state_index(step))
        if step == 0 or k == 0 or self.update_steps[k - 1] != step:
            return np.zeros(0, dtype=np.int64)
        p, r, ex = self.problem, self.record, self.examined(step)
        m = rule_mistakes(p.X[ex], p.y[ex], self.W[k - 1:k], self.B[k - 1:k], p.update_on)[0]
        m ^= np.isin(ex, r.m_idx[r.m_ptr[k - 1]:r.m_ptr[k]])
        return ex[m]


def run_record(traj: Trajectory) -> PerceptronRun:
    """One run's record: its states, M as rule plus exceptions, |M| and the loss of each state.

    One pass over the stored states, in chunks of about :data:`PAIRS` (state, point) pairs.
    """
    p = traj.problem
    N, K = p.n, traj.n_updates
    ix = _index_dtype(N)
    ptr = np.zeros(K + 2, dtype=np.uint32)
    errors, loss = np.zeros(K + 1, dtype=np.uint32), np.zeros(K + 1)
    parts, total = [], 0
    chunk = max(1, PAIRS // max(N, 1))
    for a in range(0, K + 1, chunk):
        k = np.arange(a, min(a + chunk, K + 1))
        margins = p.y * activation(p.X, traj.W[k], traj.B[k])  # yᵢ(w·xᵢ + b), as the core sums it
        core = p.mistakes(margins)  # M of each state under the run's rule
        errors[k] = core.sum(axis=1)
        loss[k] = perceptron_loss(margins)
        rows, cols = np.nonzero(core ^ rule_mistakes(p.X, p.y, traj.W[k], traj.B[k], p.update_on))
        counts = np.bincount(rows, minlength=k.size)
        ptr[a + 1:a + 1 + k.size] = total + np.cumsum(counts)
        total += int(counts.sum())
        parts.append(cols)
    order = np.zeros(0, dtype=ix) if traj.order is None else np.asarray(traj.order).astype(ix)
    bits = order.ndim == 2 and order.size > 0 and -(-N // 8) < order.shape[1] * order.itemsize
    if bits:
        order = subsets_as_bits(order, N)
    return PerceptronRun(
        update_steps=traj.update_steps.astype(np.uint32), W=np.ascontiguousarray(traj.W, dtype=float),
        B=np.ascontiguousarray(traj.B, dtype=float), order=order, errors=errors, m_ptr=ptr,
        m_idx=(np.concatenate(parts) if parts else np.zeros(0)).astype(ix), loss=loss,
        run={"n_steps": int(traj.n_steps), "variant": traj.variant, "reduction": traj.reduction,
             "tau": float(traj.tau), "batch_size": int(traj.batch_size), "update_on": p.update_on,
             "fit_intercept": bool(p.fit_intercept), "converged": bool(traj.converged), "order_of": 0,
             "order_bits": bool(bits)})


def subsets_as_bits(order: np.ndarray, n: int) -> np.ndarray:
    """Rows of point indices (S, B) as bit sets (S, ⌈n/8⌉) uint8: bit i of a row (least significant first) is set
    when point i is in it. Built a chunk of rows at a time (at most about 4,000,000 flags at once)."""
    S = order.shape[0]
    out = np.zeros((S, -(-n // 8)), dtype=np.uint8)
    chunk = max(1, 4_000_000 // max(n, 1))
    for a in range(0, S, chunk):
        rows = order[a:a + chunk].astype(np.int64)
        flags = np.zeros((rows.shape[0], n), dtype=bool)
        flags[np.arange(rows.shape[0])[:, None], rows] = True
        out[a:a + chunk] = np.packbits(flags, axis=1, bitorder="little")
    return out


def bits_as_subsets(bits: np.ndarray, n: int, size: int) -> np.ndarray:
    """The inverse of :func:`subsets_as_bits` for rows of ``size`` points each: (S, size) int64, each row increasing.

    Raises ValueError when a row does not hold ``size`` points of the ``n``.
    """
    S = bits.shape[0]
    out = np.zeros((S, size), dtype=np.int64)
    chunk = max(1, 4_000_000 // max(n, 1))
    for a in range(0, S, chunk):
        flags = np.unpackbits(bits[a:a + chunk], axis=1, bitorder="little")  # (the bits past n must be 0)
        if not (flags.sum(axis=1) == size).all() or flags[:, n:].any():
            raise ValueError(f"a step's subset does not hold B = {size} of the {n} points")
        flags = flags[:, :n]
        out[a:a + chunk] = np.nonzero(flags)[1].reshape(-1, size)
    return out


def assemble(X: np.ndarray, y: np.ndarray, runs, bound=None, view: View | None = None,
             follow: str | None = None, bound_note: str = "", memo: dict | None = None,
             partial: bool = False) -> PerceptronScene:
    """A scene from run records made apart (:func:`run_record`, e.g. in several worker processes).

    Runs that examine the same points share one ``order`` (``run["order_of"]``: the first such run).
    ``bound`` is the :class:`core.bounds.MistakeBound` to send, already known to apply, or None, and then
    ``bound_note`` why it does not apply. ``memo`` and ``partial`` as for :class:`PerceptronScene`.
    """
    out = _share_orders(list(runs))
    return PerceptronScene(
        X=np.ascontiguousarray(X, dtype=float), y=np.asarray(y).astype(np.int8), runs=out, box=view_box(X),
        bound=None if bound is None else {"R": float(bound.R), "gamma": float(bound.gamma),
                                          "bound": float(bound.bound), "w": [float(v) for v in bound.w],
                                          "b": float(bound.b), "fit_intercept": bool(bound.fit_intercept)},
        follow=follow, view=view or View(),
        proof=None if bound is None else tuple(np.column_stack(novikoff_terms(r.W, r.B, bound)) for r in out),
        bound_note="" if bound is not None else bound_note, memo=memo, partial=partial,
    )


def perceptron_scene(trajs, bound=None, view: View | None = None, follow: str | None = None) -> PerceptronScene:
    """The scene of perceptron runs on the same points (one per τ, or one): the core's states, nothing drawn.

    Parameters
    ----------
    trajs : Trajectory or sequence of Trajectory
        The runs, on the same 2-D points, differing in τ only (or a single run).
    bound : core.bounds.MistakeBound, optional
        Sent when it applies to the runs (:func:`viz.perceptron.bound_applies`).
    view : View, optional
    follow : str, optional
        The label of the page's τ control (see :class:`PerceptronScene`).
    """
    trajs = [trajs] if isinstance(trajs, Trajectory) else list(trajs)
    p = trajs[0].problem
    if p.X.shape[1] != 2:
        raise ValueError(f"the step-through chart draws 2-D data, got d = {p.X.shape[1]}")
    if any(t.problem.X is not p.X and not np.array_equal(t.problem.X, p.X) for t in trajs[1:]):
        raise ValueError("the runs of one scene must be on the same points")
    # without a bound given, only the run's kind can say why (the data were not measured)
    applies, why = bound_applies(trajs[0], bound) if bound is not None else (False, bound_run_kind(trajs[0])[1])
    return assemble(p.X, p.y, [run_record(t) for t in trajs], bound if applies else None, view, follow, why)


# ---------------------------------------------------------------------------------------------------
# the Dual / Gram page
# ---------------------------------------------------------------------------------------------------

GRAM_LEVELS = 255  # the Gram heatmap travels as bytes: G's drawn values in 256 levels between its least and most
DUAL_BYTES = 4_000_000  # a Dual record holds at most this much: a kernel run that never converges changes M at
# every update, and 100,000 such steps would be tens of MB; the record then holds the run's first steps
# (the old animated figure stopped at 2 MB and 500 frames)


@dataclass(frozen=True)
class DualScene(_FlatRecord):
    """The Dual / Gram page's scene: the points once, the kernel, and the core's states of one dual run.

    α is not sent: after k updates αᵢ = η·(updates on xᵢ among the first k), which the renderer counts from
    ``update_points`` as the core does (``DualTrajectory.alphas``). Everything the core decided is sent as it
    decided it: which step updated which point, f at the examined point as the run summed it, and M.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
    y : ndarray of shape (N,), int8
    update_steps : ndarray of shape (K,), uint32
        The steps that made an update, increasing.
    update_points : ndarray of shape (K,), uint16 or uint32
        The point each update was on.
    B : ndarray of shape (K + 1,), float64
        b after k updates.
    order : ndarray of shape (S,), uint16 or uint32
        The point examined at steps 1..S (random order); empty for cyclic (point (s − 1) mod N).
    f_exam : ndarray of shape (S,), float64
        f(xᵢ) = Σⱼ αⱼyⱼGⱼᵢ + b of the point examined at step s, at the state before it, as the run summed it
        (the value its mistake y·f ≤ 0 was judged by).
    errors : ndarray of shape (K + 1,), uint32
        |M| after k updates.
    m_ptr, m_idx : ndarray of shape (K + 2,) and (total,)
        M, the mistakes y·f(x) ≤ 0 of each state as the core judged them, as ``run["m_rule"]`` says. "changes"
        (a kernel): ``m_idx[m_ptr[0]:m_ptr[1]]`` is M of the start, and ``m_idx[m_ptr[k]:m_ptr[k + 1]]`` the points
        whose membership changed with update k. "linear": as the Perceptron scene sends M, the rule
        yᵢ·((xᵢ₁w₁ + xᵢ₂w₂) + b) ≤ 0 on the sent w and b, evaluated in that IEEE order, and
        ``m_idx[m_ptr[k]:m_ptr[k + 1]]`` the points of state k where the core's M differs from it (a line swings
        over many points at each update, so its changes would be many; the exceptions are few or none).
    W : ndarray of shape (K + 1, 2) or (0, 2), float64
        The linear kernel's w = Σᵢ αᵢyᵢxᵢ after k updates (``DualTrajectory.weights``); empty otherwise.
    terms_ptr, terms : ndarray of shape (≤ S + 1,) and (T,)
        The Gram entries Gⱼᵢ the arithmetic of step s writes out (j the points with αⱼ > 0 before it, increasing;
        i the examined point), while at most :data:`MAX_TERMS` αⱼ are > 0: ``terms[terms_ptr[s − 1]:terms_ptr[s]]``
        for s < len(terms_ptr) (the steps after that have more αⱼ > 0 or none).
    p_steps, p_W, p_B : ndarray of shape (Kp,), (Kp + 1, 2), (Kp + 1,)
        The linear kernel's primal perceptron run (τ = η, the same order): its update steps, w and b; empty otherwise.
    gram : ndarray of shape (m, m), uint8
        G as drawn (:func:`viz.dual.gram_display`: itself, or means of k×k blocks), in levels 0..255 between
        ``run["gram_lo"]`` and ``run["gram_hi"]``.
    run : dict
        ``kernel``, ``kernel_params``, ``eta``, ``variant``, ``n_steps``, ``converged``, ``gram_block`` (k),
        ``gram_lo``, ``gram_hi``, ``gram_levels``, ``primal_steps`` (the primal run's S, or None), ``m_rule``,
        ``cut_from`` (the run's own S when the record holds only its first steps, else None: :func:`dual_scene`),
        ``etas`` (a run sent for every η of the list, made with η = 1: ``B`` is then β and ``f_exam``
        h + β, and the renderer multiplies them by the η shown; else None), ``primal_steps_of`` (with ``lines``:
        each η's primal S).
    box : tuple of 4 floats
    view : View
    follow : str or None
        With ``run["etas"]``: the label of the page's η control, which the chart follows in the browser.
    lines : tuple of dict
        With ``run["etas"]`` and the linear kernel, for each η j: its ``W``, ``m_ptr``, ``m_idx`` (M as the rule on
        that w plus the core's exceptions), ``p_steps``, ``p_W`` and ``p_B``, as above, sent as ``<name>.<j>`` (the
        arrays of those names without a suffix are then empty).
    """

    X: np.ndarray
    y: np.ndarray
    update_steps: np.ndarray
    update_points: np.ndarray
    B: np.ndarray
    order: np.ndarray
    f_exam: np.ndarray
    errors: np.ndarray
    m_ptr: np.ndarray
    m_idx: np.ndarray
    W: np.ndarray
    terms_ptr: np.ndarray
    terms: np.ndarray
    p_steps: np.ndarray
    p_W: np.ndarray
    p_B: np.ndarray
    gram: np.ndarray
    run: dict
    box: tuple[float, float, float, float]
    view: View = field(default_factory=View)
    follow: str | None = None
    lines: tuple = ()

    KIND, NAME = "dual", "a Dual"
    ARRAYS = ("X", "y", "update_steps", "update_points", "B", "order", "f_exam", "errors", "m_ptr", "m_idx", "W",
              "terms_ptr", "terms", "p_steps", "p_W", "p_B", "gram")
    LINE_ARRAYS = ("W", "m_ptr", "m_idx", "p_steps", "p_W", "p_B")

    def to_bytes(self) -> bytes:
        """The scene as the renderer reads it; each η's linear states as ``<name>.<j>``."""
        header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": self.KIND}
        for f in fields(self):
            if f.name not in self.ARRAYS and f.name != "lines":
                v = getattr(self, f.name)
                header[f.name] = asdict(v) if f.name == "view" else list(v) if f.name == "box" else v
        arrays = {name: getattr(self, name) for name in self.ARRAYS}
        for j, line in enumerate(self.lines):
            arrays |= {f"{name}.{j}": line[name] for name in self.LINE_ARRAYS}
        return pack(header, arrays)

    @classmethod
    def from_bytes(cls, blob: bytes) -> DualScene:
        """The scene a record holds (ValueError, naming what is wrong, if it is not a Dual scene of this version)."""
        r = _Reader(blob, cls.KIND, cls.NAME)
        rest = r.flat_fields(cls)
        etas = rest["run"].get("etas")
        if not isinstance(etas, list | _NONE):
            raise ValueError(f"the scene header's run.etas is {_json_kind(etas)}, not a list or null")
        n = len(etas or []) if "W.0" in r.arrays else 0
        lines = tuple({name: r.array(f"{name}.{j}") for name in cls.LINE_ARRAYS} for j in range(n))
        return cls(**{name: r.array(name) for name in cls.ARRAYS}, **rest, lines=lines)


def dual_lines_overflow(traj, n_etas: int, max_bytes: int = DUAL_BYTES) -> bool:
    """Whether a record of ``traj`` for ``n_etas`` values of η (the linear kernel's w of each, :func:`dual_scene`'s
    ``lines``) would surely be cut: the least it holds (8 bytes a step; an update's state, and each η's w and M's
    pointer at it) is already over ``max_bytes``. Lets the page skip the other η's runs of a record it cannot send."""
    isz = np.dtype(_index_dtype(traj.problem.n)).itemsize
    return STEP_BYTES * traj.n_steps + traj.n_updates * (_update_bytes(isz) + n_etas * LINE_BYTES) > max_bytes


# what a Dual record holds at least per step (its f), per update (its step, point, β and count of mistakes) and per
# update of each linear run (its w and M's pointer): dual_scene counts with them, dual_lines_overflow bounds with them
STEP_BYTES, LINE_BYTES = 8.0, 4 + 16


def _update_bytes(isz: int) -> int:
    return 4 + isz + 8 + 4


def dual_scene(traj, primal=None, view: View | None = None, max_bytes: int = DUAL_BYTES, etas=None,
               follow: str | None = None, lines=None) -> DualScene:
    """The scene of a dual perceptron run on 2-D points: the core's states, nothing drawn.

    Parameters
    ----------
    traj : core.dual.DualTrajectory
    primal : core.perceptron.Trajectory, optional
        With the linear kernel, the primal run (τ = η, the same order) whose w the arithmetic sets beside the dual's.
    view : View, optional
    max_bytes : int
        The most the record may hold: past it, the record holds the run's first S' steps (the most that fit;
        ``run["n_steps"]`` = S', ``run["cut_from"]`` = S, ``run["converged"]`` false) and the page says so.
    etas : sequence of float, optional
        A run made with η = 1, sent for every η of ``etas`` (``run["etas"]``): η only rescales α, b and f (the core
        keeps b = η·β and f = η·(h + β) and judges the mistakes on h + β), so the record's ``B`` is β and its
        ``f_exam`` is h + β, and the renderer multiplies them by the η it shows, exactly as the core does. The linear
        kernel's w = Σ αᵢyᵢxᵢ and primal run (τ = η) are sums made anew for each η: they come in ``lines``.
    follow : str, optional
        With ``etas``: the label of the page's η control, which the chart follows (without it, ``view.tau``).
    lines : sequence of (DualTrajectory, Trajectory), optional
        With ``etas`` and the linear kernel: for each η of ``etas``, the run with that η and its primal run (τ = η,
        the same order); their w, M's exceptions and primal states travel as ``DualScene.lines``.
    """
    p = traj.problem
    if p.X.shape[1] != 2:
        raise ValueError(f"the dual chart draws 2-D data, got d = {p.X.shape[1]}")
    if etas is not None and (traj.eta != 1.0 or primal is not None or (lines is not None) != (p.kernel == "linear")):
        raise ValueError("a record for every η holds a run made with η = 1, and for the linear kernel the run and "
                         "primal run of each η (lines)")
    if lines is not None:
        lines = list(lines)
        if len(lines) != len(etas) or any(t.eta != e or not np.array_equal(t.update_steps, traj.update_steps)
                                          for (t, _), e in zip(lines, etas, strict=False)):
            raise ValueError("lines must hold the run of each η of etas, making the same updates")
    N, K, S = p.n, traj.n_updates, traj.n_steps
    ix = _index_dtype(N)
    steps = np.arange(1, S + 1)
    examined = (steps - 1) % N if traj.order is None else np.asarray(traj.order, dtype=np.int64)
    prior = traj.state_index(steps - 1)  # the state each step was judged at
    f_exam = np.zeros(S)
    errors = np.zeros(K + 1, dtype=np.uint32)
    flips, before = [], np.zeros(N, dtype=bool)
    # the linear kernel: w after each update and M's exceptions to the rule on it, for the run (or each η's run)
    linear = ([] if p.kernel != "linear" else [(traj, primal)] if lines is None else lines)
    Ws = [np.zeros((K + 1, 2)) for _ in linear]
    flips_of = [[] for _ in linear]
    chunk = max(1, 2_000_000 // max(N, 1))
    for a in range(0, K + 1, chunk):
        k = np.arange(a, min(a + chunk, K + 1))
        F = traj.eta * traj.scores(k)  # f at every point after k updates, as the run summed it
        M = p.y * F <= 0  # the mistakes y·f(x) ≤ 0 the core judges (DualTrajectory.mistakes)
        errors[k] = M.sum(axis=1)
        at = (prior >= a) & (prior < a + k.size)
        f_exam[at] = F[prior[at] - a, examined[at]]
        if linear:
            for (t, _), W, out in zip(linear, Ws, flips_of, strict=True):
                A = t.alphas(k)
                for j in range(k.size):  # one state at a time, as DualTrajectory.weights sums one step's w
                    W[a + j] = (A[j:j + 1] * p.y) @ p.X
                out.extend(np.flatnonzero(row) for row in M ^ rule_mistakes(p.X, p.y, W[k], t.B[k], "nonpositive"))
        else:
            for row in M:
                flips.append(np.flatnonzero(row ^ before))
                before = row
    # the Gram entries the arithmetic writes out, while few αⱼ are > 0 (they are only ever added to)
    t_ptr, t_val = np.zeros(S + 1, dtype=np.uint32), []
    support, seen, u = [], np.zeros(N, dtype=bool), 0
    for s in range(1, S + 1):
        while u < K and traj.update_steps[u] < s:  # the updates made before step s
            i = int(traj.update_points[u])
            if not seen[i]:
                seen[i] = True
                support.append(i)
            u += 1
        if len(support) > MAX_TERMS:
            t_ptr[s:] = t_ptr[s - 1]
            break
        t_val.extend(p.G[sorted(support), examined[s - 1]].tolist())
        t_ptr[s] = len(t_val)
    last = int(np.searchsorted(t_ptr, t_ptr[-1]))  # the steps after the last one written out need no entry
    t_ptr = t_ptr[:last + 1] if t_val else t_ptr[:1]
    # the bytes each step adds to the record (its f, order, Gram entries; its update's state and M's changes)
    isz = np.dtype(ix).itemsize
    step_bytes = np.full(S, STEP_BYTES + (isz if traj.order is not None else 0))
    step_bytes[:t_ptr.size - 1] += 8.0 * np.diff(t_ptr) + 4.0
    ptr_of = lambda fl: np.concatenate([[0], np.cumsum([f.size for f in fl])]).astype(np.uint32)  # noqa: E731
    m_ptrs = [ptr_of(fl) for fl in flips_of] or [ptr_of(flips)]
    upd_bytes = _update_bytes(isz) + sum(LINE_BYTES + isz * np.diff(m)[1:].astype(float) for m in m_ptrs) if linear \
        else _update_bytes(isz) + 4 + isz * np.diff(m_ptrs[0])[1:].astype(float)
    np.add.at(step_bytes, traj.update_steps - 1, upd_bytes)
    for _, pr in linear:  # the primal runs' states, at their own updates
        if pr is not None:
            np.add.at(step_bytes, pr.update_steps - 1, 28.0)
    fixed = N * (16 + 1) + min(N, 200) ** 2 + isz * float(sum(m[1] for m in m_ptrs)) + 4096
    cut = None
    if fixed + step_bytes.sum() > max_bytes:
        S_cut = max(1, int(np.searchsorted(np.cumsum(step_bytes), max_bytes - fixed, side="right")))
        cut, S, K = S, S_cut, int(traj.state_index(S_cut))
        examined, f_exam, errors = examined[:S], f_exam[:S], errors[:K + 1]
        flips, t_ptr = flips[:K + 1], t_ptr[:S + 1]
        Ws, flips_of, m_ptrs = [W[:K + 1] for W in Ws], [fl[:K + 1] for fl in flips_of], [m[:K + 2] for m in m_ptrs]
        t_val = t_val[:int(t_ptr[-1])]
    Z, block = gram_display(p.G)
    lo, hi = float(Z.min()), float(Z.max())
    gram = np.round((Z - lo) / (hi - lo) * GRAM_LEVELS) if hi > lo else np.zeros(Z.shape)
    empty2, u32 = np.zeros((0, 2)), np.zeros(0, dtype=np.uint32)

    def states_of(W, fl, m_ptr, pr) -> dict:  # a linear run's w, M's exceptions and its primal run up to step S
        keep = None if pr is None else int(pr.state_index(S))
        return {"W": W, "m_ptr": m_ptr, "m_idx": (np.concatenate(fl) if fl else np.zeros(0)).astype(ix),
                "p_steps": u32 if pr is None else pr.update_steps[:keep].astype(np.uint32),
                "p_W": empty2 if pr is None else np.ascontiguousarray(pr.W[:keep + 1], dtype=float),
                "p_B": np.zeros(0) if pr is None else np.ascontiguousarray(pr.B[:keep + 1], dtype=float)}

    each = [states_of(W, fl, m, pr) for W, fl, m, (_, pr) in zip(Ws, flips_of, m_ptrs, linear, strict=True)] \
        if linear else []  # (a kernel's m_ptrs holds its changes instead)
    if lines is not None:  # each η's linear arrays travel as lines: the arrays of those names stay empty
        one = states_of(empty2, [], np.zeros(K + 2, dtype=np.uint32), None)
    elif linear:  # one linear run
        one = each[0]
    else:  # a kernel: M as the points that change with each update
        one = states_of(empty2, flips, m_ptrs[0], None)
    run = {"kernel": p.kernel, "kernel_params": {k: int(v) if k == "degree" else float(v) for k, v in p.kernel_params},
           "eta": float(traj.eta), "gram_levels": GRAM_LEVELS,
           "variant": traj.variant, "n_steps": int(S), "converged": bool(traj.converged and cut is None),
           "gram_block": int(block), "gram_lo": lo, "gram_hi": hi,
           "primal_steps": None if lines is not None or primal is None else min(int(primal.n_steps), S),
           "primal_steps_of": None if lines is None else [min(int(pr.n_steps), S) for _, pr in lines],
           "m_rule": "linear" if p.kernel == "linear" else "changes", "cut_from": cut,
           "etas": None if etas is None else [float(e) for e in etas]}
    return DualScene(
        X=np.ascontiguousarray(p.X, dtype=float), y=np.asarray(p.y).astype(np.int8),
        update_steps=traj.update_steps[:K].astype(np.uint32), update_points=traj.update_points[:K].astype(ix),
        B=np.ascontiguousarray(traj.B[:K + 1], dtype=float),
        order=np.zeros(0, dtype=ix) if traj.order is None else np.asarray(traj.order[:S]).astype(ix),
        f_exam=f_exam, errors=errors, **one, terms_ptr=t_ptr, terms=np.asarray(t_val, dtype=float),
        gram=gram.astype(np.uint8), run=run, box=view_box(p.X), view=view or View(), follow=follow,
        lines=tuple(each) if lines is not None else (),
    )


# ---------------------------------------------------------------------------------------------------
# the SVM page
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SvmScene(_FlatRecord):
    """The SVM page's scene: the points once, and the exact SVM for every C of the grid (or for one C).

    The renderer draws any C from it, so the C slider, Back/Next, Sweep and the page's own C control move
    the chart in the browser. What the solver decided travels as it decided it: each point's category
    (:func:`viz.svm.categories` at :func:`viz.svm.margin_tol`), the support vectors, the points with
    ξᵢ > ``viz.svm.ON_MARGIN`` and the ξ of those labelled; the boundary, the margin curves, the slack
    segments and their feet are drawn from w, b (the linear kernel) or the expansion Σⱼ αⱼyⱼK(xⱼ, x) + b.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
    y : ndarray of shape (N,), int8
    Cs : ndarray of shape (K,), float64
        C of each solution, increasing (``inf`` for the hard margin, then the only one).
    W : ndarray of shape (K, 2) or (0, 2), float64
        w of each solution (the linear kernel; empty otherwise).
    B : ndarray of shape (K,), float64
        b of each solution.
    coef : ndarray of shape (K, N) or (0, N), float64
        αᵢyᵢ of each solution (a kernel: f(x) = Σᵢ αᵢyᵢK(xᵢ, x) + b; empty for the linear kernel).
    flags : ndarray of shape (K, N), uint8
        Per point: bits 0–1 its category (0 outside the margin, 1 on it, 2 inside, 3 misclassified: yᵢf(xᵢ) ≤ 0),
        bit 2 a support vector (αᵢ > 0), bit 3 ξᵢ > ON_MARGIN (joined to its margin line by a segment).
    margin, objective, slack_sum : ndarray of shape (K,), float64
        γ = 1/‖w‖ (``inf`` when w = 0), ½‖w‖² + C Σξᵢ, and Σξᵢ.
    iterations : ndarray of shape (K,), uint32
    converged : ndarray of shape (K,), uint8
    kernel_max, kernel_max_std : ndarray of shape (K,), float64
        Where SMO stopped at its cap: the largest K(xᵢ, xᵢ) as the points are and standardized (its message
        says which); 0 elsewhere.
    lab_ptr, lab_idx, lab_xi : ndarray of shape (K + 1,), (L,), (L,)
        The ξ labels' candidates of solution k, ``[lab_ptr[k]:lab_ptr[k + 1]]``: the MAX_SLACK_LABELS largest ξᵢ
        of each class, in the order of decreasing ξ (ties by index), and their ξᵢ. The chart writes the first
        MAX_SLACK_LABELS of them whose margin line is in view (the largest ξ overall).
    path_C, path_width, path_support, path_slack : ndarray of shape (P,), float64
        The C path beside the chart (:func:`core.svm.path_of` of the grid; empty for none).
    run : dict
        ``kernel``, ``kernel_params``, ``perceptron`` ([w₁, w₂, b] of the faint perceptron boundary, or None).
    box : tuple of 4 floats
    follow : str or None
        The label of the page's C control: the chart shows the C it shows and follows it as it moves.
    view : View
        ``start`` is the index of the C to open at.
    """

    X: np.ndarray
    y: np.ndarray
    Cs: np.ndarray
    W: np.ndarray
    B: np.ndarray
    coef: np.ndarray
    flags: np.ndarray
    margin: np.ndarray
    objective: np.ndarray
    slack_sum: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    kernel_max: np.ndarray
    kernel_max_std: np.ndarray
    lab_ptr: np.ndarray
    lab_idx: np.ndarray
    lab_xi: np.ndarray
    path_C: np.ndarray
    path_width: np.ndarray
    path_support: np.ndarray
    path_slack: np.ndarray
    run: dict
    box: tuple[float, float, float, float]
    follow: str | None = None
    view: View = field(default_factory=View)

    KIND, NAME = "svm", "an SVM"
    ARRAYS = ("X", "y", "Cs", "W", "B", "coef", "flags", "margin", "objective", "slack_sum", "iterations", "converged",
              "kernel_max", "kernel_max_std", "lab_ptr", "lab_idx", "lab_xi", "path_C", "path_width", "path_support",
              "path_slack")


def svm_scene(X, y, sols, *, path: dict | None = None, perceptron=None, view: View | None = None,
              follow: str | None = None) -> SvmScene:
    """The scene of the exact SVM on 2-D points for each C given: the solver's decisions, nothing drawn.

    Parameters
    ----------
    X : ndarray of shape (N, 2)
    y : ndarray of shape (N,)
    sols : SVMSolution or sequence of SVMSolution
        One per C of a grid (increasing C), or one (the hard margin, or C where no grid is solved).
    path : dict, optional
        :func:`core.svm.path_of` of the grid, drawn beside the chart with the current C marked.
    perceptron : tuple (w, b), optional
        A perceptron's boundary on the same points, drawn faint.
    view : View, optional
    follow : str, optional
        The label of the page's C control.
    """
    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y)
    if X.shape[1] != 2:
        raise ValueError(f"the SVM chart draws 2-D data, got d = {X.shape[1]}")
    sols = [sols] if isinstance(sols, SVMSolution) else list(sols)
    if not sols:
        raise ValueError("the SVM scene needs at least one solution")
    box = view_box(X)
    K, N = len(sols), len(y)
    kernel = sols[0].kernel
    linear = kernel == "linear"
    flags = np.zeros((K, N), dtype=np.uint8)
    kmax, kstd = np.zeros(K), np.zeros(K)
    lab_ptr, lab_idx, lab_xi = np.zeros(K + 1, dtype=np.uint32), [], []
    for k, s in enumerate(sols):
        viol = s.slack > ON_MARGIN
        flags[k] = categories(y, s.decision, margin_tol(s, box)) | (s.support << 2) | (viol << 3)
        scale = kernel_scale(X, s)
        kmax[k], kstd[k] = scale.get("kernel_max", 0.0), scale.get("kernel_max_standardized", 0.0)
        # each class's largest ξ (a class's margin curve may be out of view), merged largest first, ties by index
        cand = np.concatenate([np.flatnonzero(viol & (y == c))[np.argsort(-s.slack[viol & (y == c)],
                                                                          kind="stable")][:MAX_SLACK_LABELS]
                               for c in (1, -1)])
        cand = cand[np.lexsort((cand, -s.slack[cand]))]
        lab_idx.extend(cand.tolist())
        lab_xi.extend(s.slack[cand].tolist())
        lab_ptr[k + 1] = len(lab_idx)
    path = path or {"C": [], "width": [], "support": [], "slack": []}
    run = {"kernel": kernel,
           "kernel_params": {k: int(v) if k == "degree" else float(v) for k, v in sols[0].kernel_params},
           "perceptron": None if perceptron is None or not np.any(perceptron[0]) else
           [float(perceptron[0][0]), float(perceptron[0][1]), float(perceptron[1])]}
    return SvmScene(
        X=X, y=y.astype(np.int8), Cs=np.array([s.C for s in sols], dtype=float),
        W=np.array([s.w for s in sols], dtype=float).reshape(K, 2) if linear else np.zeros((0, 2)),
        B=np.array([s.b for s in sols], dtype=float),
        coef=np.zeros((0, N)) if linear else np.array([s.alpha * y for s in sols], dtype=float),
        flags=flags, margin=np.array([s.margin for s in sols], dtype=float),
        objective=np.array([s.objective for s in sols], dtype=float),
        slack_sum=np.array([float(s.slack.sum()) for s in sols]),
        iterations=np.array([s.iterations for s in sols], dtype=np.uint32),
        converged=np.array([s.converged for s in sols], dtype=np.uint8), kernel_max=kmax, kernel_max_std=kstd,
        lab_ptr=lab_ptr, lab_idx=np.asarray(lab_idx, dtype=_index_dtype(N)), lab_xi=np.asarray(lab_xi, dtype=float),
        path_C=np.asarray(path["C"], dtype=float), path_width=np.asarray(path["width"], dtype=float),
        path_support=np.asarray(path["support"], dtype=float), path_slack=np.asarray(path["slack"], dtype=float),
        run=run, box=box, follow=follow, view=view or View(),
    )


# ---------------------------------------------------------------------------------------------------
# the Compare page
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HingeRunRecord:
    """One hinge-SGD run of a Compare scene: its state after every step (arrays named ``<field>.<j>``).

    Every step of hinge SGD moves w (the shrink by 1 − ηλ), so every step is a state: state s is the one after
    step s, and no update steps travel.

    Attributes
    ----------
    W : ndarray of shape (S + 1, 2), float64
    B : ndarray of shape (S + 1,), float64
        w and b after each step (s = 0: w = 0, b = 0).
    order : ndarray of shape (S,), uint16 or uint32
        The point drawn at steps 1..S.
    active : ndarray of shape (S,), uint8
        1 where step s's hinge was active, yᵢ(w·xᵢ + b) < 1 (its data term entered: the chart draws the
        boundary before it, dashed).
    etas : ndarray of shape (S,), float64
        η of steps 1..S, as the core stepped (the formula writes it with the step's numbers).
    m_ptr, m_idx : ndarray of shape (S + 2,) and (total,)
        The ringed points of each state (the active hinges, yᵢ(w·xᵢ + b) < 1) as the rule evaluated in the
        renderer's order (:func:`rule_margins`) plus the states' exceptions, where the core's own sums
        (``core.snapshot.activation``) decide otherwise, as for the Perceptron's M.
    e_ptr, e_idx : ndarray of shape (S + 2,) and (total,)
        The same for the misclassified points, yᵢ(w·xᵢ + b) ≤ 0 (the state line names them).
    run : dict
        ``kind`` ("hinge"), ``n_steps`` S, ``C``, ``lam``, ``schedule``, ``order_of``.
    """

    W: np.ndarray
    B: np.ndarray
    order: np.ndarray
    active: np.ndarray
    etas: np.ndarray
    m_ptr: np.ndarray
    m_idx: np.ndarray
    e_ptr: np.ndarray
    e_idx: np.ndarray
    run: dict

    ARRAYS = ("W", "B", "order", "active", "etas", "m_ptr", "m_idx", "e_ptr", "e_idx")


def _exceptions(core: np.ndarray, rule: np.ndarray, ptr: np.ndarray, start: int, total: int) -> tuple[np.ndarray, int]:
    """Where the core's masks (k, N) differ from the rule's, as the points of each state; ``ptr`` filled from
    ``start + 1`` on. Returns the points and the new total."""
    rows, cols = np.nonzero(core ^ rule)
    counts = np.bincount(rows, minlength=core.shape[0])
    ptr[start + 1:start + 1 + core.shape[0]] = total + np.cumsum(counts)
    return cols, total + int(counts.sum())


def hinge_record(run: HingeRun) -> HingeRunRecord:
    """A hinge-SGD run's record: its states, the rings and the mistakes as rule plus exceptions."""
    X, y = run.X, run.y
    N, S = len(y), run.n_steps
    ix = _index_dtype(N)
    m_ptr, e_ptr = np.zeros(S + 2, dtype=np.uint32), np.zeros(S + 2, dtype=np.uint32)
    rings, wrong, m_tot, e_tot = [], [], 0, 0
    chunk = max(1, PAIRS // max(N, 1))
    for a in range(0, S + 1, chunk):
        k = np.arange(a, min(a + chunk, S + 1))
        core = y * activation(X, run.W[k], run.B[k])  # yᵢ(w·xᵢ + b), as the core sums it
        rule = rule_margins(X, y, run.W[k], run.B[k])
        cols, m_tot = _exceptions(core < 1.0, rule < 1.0, m_ptr, a, m_tot)
        rings.append(cols)
        cols, e_tot = _exceptions(core <= 0.0, rule <= 0.0, e_ptr, a, e_tot)
        wrong.append(cols)
    return HingeRunRecord(
        W=np.ascontiguousarray(run.W, dtype=float), B=np.ascontiguousarray(run.B, dtype=float),
        order=np.asarray(run.order).astype(ix), active=np.asarray(run.active).astype(np.uint8),
        etas=np.ascontiguousarray(run.etas, dtype=float), m_ptr=m_ptr, m_idx=np.concatenate(rings).astype(ix),
        e_ptr=e_ptr, e_idx=np.concatenate(wrong).astype(ix),
        run={"kind": "hinge", "n_steps": S, "C": float(run.C), "lam": float(run.lam), "schedule": run.schedule,
             "order_of": 0})


@dataclass(frozen=True)
class CompareScene:
    """The Compare page's scene: the points once and two runs on them, stepped together by one slider.

    The common step goes from 0 to the longer run's last step; the run that ends first holds its last state.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
    y : ndarray of shape (N,), int8
    runs : tuple of PerceptronRun or HingeRunRecord
        Every run either panel may show (two, or each side's family); each ``run["kind"]`` says which
        ("perceptron" or "hinge"). A perceptron's M travels as on the Perceptron page (:class:`PerceptronRun`).
        Runs that examine the same points share one ``order`` (``run["order_of"]``).
    titles : tuple of str
        Each run's panel title and how it ended (:func:`viz.compare.run_label`, :func:`viz.compare.run_summary`).
    sides : (dict, dict) or None
        What each panel may show: ``runs``, the indices of its runs (differing in ``key`` only: "tau",
        "batch_size" or, for hinge runs, "C"), and ``follow``, the label of the page's control for that value: the
        panel shows the run whose value that control shows, and follows it as it moves, in the browser (without a
        control, the view's ``pair``, else the side's first run). None: the two runs, left and right.
    reference : list of dict or None
        The exact SVM for each C of the hinge runs (``w``, ``b``, ``C``): a hinge panel draws the one of its run's C
        dashed.
    box : tuple of 4 floats
    view : View
        ``start`` is the common step to open at.
    partial : bool
        The record holds the runs of the values the controls show alone, sent before the whole family (the
        renderer then asks for the rest, and is dimmed while a control shows a value it does not hold).
    """

    X: np.ndarray
    y: np.ndarray
    runs: tuple
    titles: tuple[str, ...]
    reference: list | None
    box: tuple[float, float, float, float]
    view: View = field(default_factory=View)
    sides: tuple[dict, dict] | None = None
    partial: bool = False

    def to_bytes(self) -> bytes:
        """The scene as the renderer reads it (the wire format of this module)."""
        header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": "compare",
                  "runs": [r.run for r in self.runs], "titles": list(self.titles), "reference": self.reference,
                  "box": list(self.box), "bound": None, "view": asdict(self.view), "sides": self.sides,
                  "follow": [s["follow"] for s in self.sides] if self.sides else None, "partial": self.partial}
        return pack(header, {"X": self.X, "y": self.y, **_run_arrays(self.runs)})

    @classmethod
    def from_bytes(cls, blob: bytes) -> CompareScene:
        """The scene a record holds (ValueError, naming what is wrong, if it is not a Compare scene of this
        version)."""
        r = _Reader(blob, "compare", "a Compare")
        sides = r.get("sides", (list, _NONE), None)
        return cls(X=r.array("X"), y=r.array("y"), runs=r.runs(), titles=tuple(r.get("titles", (list,))),
                   reference=r.get("reference", (list, _NONE)), box=r.box(), view=r.view(),
                   sides=None if sides is None else tuple(sides), partial=bool(r.get("partial", (object,), False)))


def compare_record(run) -> HingeRunRecord | PerceptronRun:
    """A compared run's record: a hinge-SGD run's (:func:`hinge_record`) or a perceptron run's (:func:`run_record`)."""
    return hinge_record(run) if isinstance(run, HingeRun) else run_record(run)


def compare_scene(left, right, *, reference=None, view: View | None = None, follow=(None, None),
                  key: str = "tau", partial: bool = False, made: dict | None = None) -> CompareScene:
    """The scene of two runs on the same 2-D points (the Compare page): the core's states, nothing drawn.

    Parameters
    ----------
    left, right : core.perceptron.Trajectory or core.svm.HingeRun, or a sequence of them
        The runs, on the same X of shape (N, 2) and y of shape (N,); a sequence is the family a panel picks from
        by ``key`` (a run given to both sides travels once).
    follow : (str or None, str or None)
        The labels of the page's controls each side's family follows (see :class:`CompareScene`).
    key : {"tau", "batch_size", "C"}
        What the runs of a family differ in ("C": hinge runs).
    reference : SVMSolution or (w, b), or a sequence of SVMSolution, optional
        The exact soft-margin SVM for each C of the hinge runs, drawn dashed on the hinge panel (an error with no
        hinge run, or where a hinge run's C has no solution; a pair (w, b) is the one hinge run's).
    view : View, optional
    partial : bool
        See :class:`CompareScene`.
    made : dict, optional
        Records made already ({id(run): :func:`compare_record` of it}, as worker processes make them at once).

    Raises
    ------
    ValueError
        When the runs are on different or not 2-D data, or the reference does not fit.
    TypeError
        When a run is neither a Trajectory nor a HingeRun.
    """
    lefts, rights = ([r] if isinstance(r, Trajectory | HingeRun) else list(r) for r in (left, right))
    if not lefts or not rights:
        raise ValueError("each side of a comparison needs a run")
    runs = list({id(r): r for r in lefts + rights}.values())  # a run on both sides travels once
    X, y = check_pair(lefts[0], rights[0])
    for r in runs:
        check_pair(lefts[0], r)
    if key not in ("tau", "batch_size", "C"):
        raise ValueError(f"key must be 'tau', 'batch_size' or 'C', got {key!r}")
    hinge = [r for r in runs if isinstance(r, HingeRun)]
    ref = None
    if reference is not None:
        if not hinge:
            raise ValueError("reference (the exact SVM) is drawn on a hinge-SGD panel, but neither run is a HingeRun")
        many = isinstance(reference, list | tuple) and len(reference) > 0 and all(hasattr(s, "w") for s in reference)
        sols = list(reference) if many else [reference]
        if not many and len({r.C for r in hinge}) > 1:
            raise ValueError("hinge-SGD runs of several C need an exact SVM for each C: give a list of solutions")
        ref = []
        for sol in sols:
            w, b = reference_of(sol)
            ref.append({"w": [float(v) for v in w], "b": float(b), "C": float(getattr(sol, "C", hinge[0].C))})
        fitted = ", ".join(f"{d['C']:g}" for d in ref)
        for r in hinge:
            if not any(np.isclose(d["C"], r.C) for d in ref):
                raise ValueError(f"reference was fitted with C = {fitted}, but a hinge-SGD run has C = {r.C:g}: "
                                 "fit the exact SVM with the run's C")
    made = made or {}
    records = [made.get(id(r)) or compare_record(r) for r in runs]
    records = [replace(r, run={**r.run, "kind": r.run.get("kind", "perceptron")}) for r in records]
    shared = _share_orders(records)
    at = {id(r): j for j, r in enumerate(runs)}
    sides = None
    if (len(lefts), len(rights)) != (1, 1) or any(follow) or len(runs) != 2:  # (one run on both sides: len 1)
        sides = tuple({"runs": [at[id(r)] for r in side], "follow": f, "key": key}
                      for side, f in zip((lefts, rights), follow, strict=True))
    return CompareScene(X=np.ascontiguousarray(X, dtype=float), y=np.asarray(y).astype(np.int8), runs=shared,
                        titles=tuple(f"{run_label(r)}\n{run_summary(r)}" for r in runs), reference=ref,
                        box=view_box(X), view=view or View(), sides=sides, partial=partial)


# ---------------------------------------------------------------------------------------------------
# the SVM page's hinge-SGD tab
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SgdScene:
    """The hinge-SGD tab's scene: the points once, hinge-SGD runs for one C (one run, or one for each constant η of
    the page's η control) and the exact SVM they approach.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
    y : ndarray of shape (N,), int8
    runs : tuple of HingeRunRecord
        Each run's states, rings (yᵢ(w·xᵢ + b) < 1) and mistakes (≤ 0) as on the Compare page; run j's arrays are
        named ``<field>.<j>`` and its ``run`` dict travels as ``runs[j]``, with ``eta``: its constant η (None for a
        decaying schedule). Runs that draw the same points share one ``order`` (``run["order_of"]``).
    objectives : tuple of ndarray of shape (S_j + 1,), float64
        J = ½‖w‖² + C Σξᵢ after each step of run j (the core's ``HingeRun.objective``), named ``objective.<j>``.
        The step sizes ηₜ travel with each run (``etas``).
    exact : dict
        The exact SVM for the runs' C: ``w``, ``b`` and ``objective`` J*.
    box : tuple of 4 floats
    view : View
        ``eta``: the η whose run to open where no control of the page gives η (the offline file).
    follow : str or None
        The label of the page's η control: the chart shows the run of the η it shows, and follows it as it moves,
        in the browser (else the view's ``eta``, else the run shown before, else the first).
    partial : bool
        The record holds the run of the η the page showed alone, sent before every η's (app_pages.svm): the chart
        draws it and asks for the rest.
    """

    X: np.ndarray
    y: np.ndarray
    runs: tuple[HingeRunRecord, ...]
    objectives: tuple[np.ndarray, ...]
    exact: dict
    box: tuple[float, float, float, float]
    view: View = field(default_factory=View)
    follow: str | None = None
    partial: bool = False

    def to_bytes(self) -> bytes:
        """The scene as the renderer reads it (the wire format of this module)."""
        header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": "sgd", "runs": [r.run for r in self.runs],
                  "exact": self.exact, "box": list(self.box), "bound": None, "view": asdict(self.view),
                  "follow": self.follow, "partial": self.partial}
        return pack(header, {"X": self.X, "y": self.y, **{f"objective.{j}": J for j, J in enumerate(self.objectives)},
                             **_run_arrays(self.runs)})

    @classmethod
    def from_bytes(cls, blob: bytes) -> SgdScene:
        """The scene a record holds (ValueError, naming what is wrong, if it is not a hinge-SGD scene of this
        version)."""
        r = _Reader(blob, "sgd", "a hinge-SGD")
        runs = r.runs()
        return cls(X=r.array("X"), y=r.array("y"), runs=runs,
                   objectives=tuple(r.array(f"objective.{j}") for j in range(len(runs))), exact=r.get("exact", (dict,)),
                   box=r.box(), view=r.view(), follow=r.get("follow", (str, _NONE), None),
                   partial=bool(r.get("partial", (object,), False)))


def sgd_scene(runs, exact: SVMSolution, view: View | None = None, *, follow: str | None = None,
              partial: bool = False, made: dict | None = None) -> SgdScene:
    """The scene of hinge-SGD runs on 2-D points and the exact SVM for their C (linear kernel): nothing drawn.

    Parameters
    ----------
    runs : core.svm.HingeRun, or a sequence of them
        One run, or the family the page's η control picks from (the same points, C, schedule and seed; a constant
        η each).
    exact : SVMSolution
        The exact linear SVM for the runs' C.
    view : View, optional
    follow, partial : as for :class:`SgdScene`
    made : dict, optional
        Records made already ({id(run): :func:`hinge_record` of it}, as worker processes make them at once).

    Raises
    ------
    ValueError
        When there is no run, the data are not 2-D or differ between runs, several runs do not each have a constant
        η of their own, or ``exact`` is not the linear SVM for the runs' C.
    """
    runs = [runs] if isinstance(runs, HingeRun) else list(runs)
    if not runs:
        raise ValueError("the hinge-SGD chart needs a run")
    X = np.ascontiguousarray(runs[0].X, dtype=float)
    if X.shape[1] != 2:
        raise ValueError(f"the hinge-SGD chart draws 2-D data, got d = {X.shape[1]}")
    for r in runs:
        if r.X.shape != X.shape or not (np.array_equal(r.X, X) and np.array_equal(r.y, runs[0].y)):
            raise ValueError("the hinge-SGD runs of one chart must be on the same points")
        if exact.w is None or not np.isclose(exact.C, r.C):
            raise ValueError(f"the exact SVM must be the linear one for the run's C = {r.C:g}, got "
                             f"{exact.kernel} with C = {exact.C:g}")
    if len(runs) > 1 and (any(r.schedule != "constant" for r in runs) or len({float(r.etas[0]) for r in runs}) < len(runs)):
        raise ValueError("the hinge-SGD runs of one chart differ in their constant η: each needs the constant schedule "
                         "and an η of its own")
    made = made or {}
    records = [made.get(id(r)) or hinge_record(r) for r in runs]
    records = [replace(rec, run={**rec.run, "eta": float(r.etas[0]) if r.schedule == "constant" and len(r.etas) else None})
               for r, rec in zip(runs, records, strict=True)]
    return SgdScene(X=X, y=np.asarray(runs[0].y).astype(np.int8), runs=_share_orders(records),
                    objectives=tuple(np.ascontiguousarray(r.objective, dtype=float) for r in runs),
                    exact={"w": [float(v) for v in exact.w], "b": float(exact.b), "objective": float(exact.objective)},
                    box=view_box(X), view=view or View(), follow=follow, partial=partial)


# ---------------------------------------------------------------------------------------------------
# the Loss surface page: the (w₁, w₂) slices at every b of its slider
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LossScene(_FlatRecord):
    """The Loss surface page's scene: the points and what defines the (w₁, w₂) slices at each b of its slider and each
    λ of the page's λ control.

    No surface travels: the renderer samples each loss on the grid ``us`` × ``vs`` for the b shown, from the
    points, as a picture (the 0-1, perceptron and hinge losses of ``core.losses``, each the mean over the points;
    the tests hold it to ``core.losses.surface``), adds the hinge's λ/2‖w‖² for the λ shown, and draws its filled
    level bands, each point's line yᵢ(w·xᵢ + b) = 0, the cone of weights that classify every point correctly, the
    optimiser's path and the chosen weight with each loss's subgradient there (sent, from ``core``). b and λ move
    in the browser.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
    y : ndarray of shape (N,), int8
    us, vs : ndarray of shape (G,), float64
        The w₁ and w₂ grid of every panel.
    bs : ndarray of shape (m,), float64
        The b of each slice, increasing.
    drawn : ndarray of shape (L,), uint16 or uint32
        The points whose lines are drawn (evenly chosen, at most ``viz.losses.MAX_LINES`` over the panels).
    path_W, path_B : ndarray of shape (P, 2) and (P,), float64
        The optimiser's paths (thinned) one after another: path d is ``[path_ptr[d]:path_ptr[d + 1]]``.
    path_ptr : ndarray of shape (D + 1,), uint32
        Where each distinct path starts (D = 0: no path).
    run : dict
        ``names`` (the losses, one panel each), ``titles`` and ``formulas`` (each loss's name and formula in words),
        ``lams`` (the λ values; the one shown is the page's λ control's, else the view's ``lam``, else the one the
        chart showed before, else the first),
        ``tops`` and ``levels`` ({name: [top per λ]}, {name: [[first, step] per λ]}: the colour scale and its
        bands, :func:`viz.losses.colour_tops`, :func:`viz.losses.band_levels`), ``path_of`` (the path of each λ,
        or None) and ``path_labels`` (each path's name), ``lit`` (a point whose line is drawn thick, or None),
        ``chosen`` (``w``, ``b`` and ``grads``: {name: [the subgradient's w part at (w, b) per λ]}, or None).
    box : tuple of 4 floats
        The data's view (the chosen weight's boundary is drawn in the data chart beside it).
    follow : str or None
        The label of the page's λ control: the chart shows the λ it shows and follows it as it moves.
    view : View
        ``start`` is the index of the b to open at.
    """

    X: np.ndarray
    y: np.ndarray
    us: np.ndarray
    vs: np.ndarray
    bs: np.ndarray
    drawn: np.ndarray
    path_W: np.ndarray
    path_B: np.ndarray
    path_ptr: np.ndarray
    run: dict
    box: tuple[float, float, float, float]
    follow: str | None = None
    view: View = field(default_factory=View)

    KIND, NAME = "loss", "a Loss surface"
    ARRAYS = ("X", "y", "us", "vs", "bs", "drawn", "path_W", "path_B", "path_ptr")


def loss_scene(X, y, names, us, vs, bs, *, lams=(0.0,), paths=None, lit: int | None = None, chosen=None,
               view: View | None = None, follow: str | None = None, tops: dict | None = None) -> LossScene:
    """The scene of the losses ``names`` over (w₁, w₂) at each b of ``bs`` and each λ of ``lams``: what defines the
    picture, no surface.

    Parameters
    ----------
    X : ndarray of shape (N, 2)
    y : ndarray of shape (N,)
    names : sequence of {"zero_one", "perceptron", "hinge"}
    us, vs : ndarray
        The (w₁, w₂) grid.
    bs : ndarray of shape (m,)
    lams : sequence of float
        The λ values of the hinge's λ/2‖w‖² the chart can show.
    paths : sequence of tuple (W (P, 2), B (P,), label), optional
        The optimiser's path for each λ (the same object for every λ where it does not depend on λ).
    lit : int, optional
    chosen : tuple ((w₁, w₂), b), optional
    view : View, optional
    follow : str, optional
        The label of the page's λ control.
    tops : dict, optional
        {name: :func:`viz.losses.colour_tops` for ``lams``}, when already computed (a page caches them: a click
        changes only the chosen weight).
    """
    from viz.losses import FORMULAS, MAX_LINES, NAMES, band_levels, colour_tops, subgradient

    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y)
    if X.shape[1] != 2:
        raise ValueError(f"the loss chart draws 2-D data, got d = {X.shape[1]}")
    names, lams = list(names), [float(v) for v in lams]
    if not lams or not all(np.isfinite(lams)) or min(lams) < 0:
        raise ValueError(f"λ values must be finite and ≥ 0, got {lams}")
    if paths is not None and len(paths) != len(lams):
        raise ValueError(f"one path per λ: {len(lams)} λ values, {len(paths)} paths")
    n = len(y)
    if tops is None:
        tops = {nm: colour_tops(nm, X, y, us, vs, bs, lams) for nm in names}
    if any(len(tops[nm]) != len(lams) for nm in names):
        raise ValueError(f"one colour-scale top per λ: {len(lams)} λ values")
    tops = {nm: [float(t) for t in tops[nm]] for nm in names}
    distinct, path_of = [], None  # each path once: a λ whose path is another's (the same object) shares it
    if paths is not None:
        path_of = []
        for p in paths:
            d = next((i for i, q in enumerate(distinct) if q is p), None)
            if d is None:
                distinct.append(p)
                d = len(distinct) - 1
            path_of.append(d)
    run = {"names": names, "titles": {nm: NAMES[nm] for nm in names}, "formulas": {nm: FORMULAS[nm] for nm in names},
           "lams": lams, "tops": tops,
           "levels": {nm: [list(band_levels(nm, t, n)) for t in tops[nm]] for nm in names},
           "path_of": path_of, "path_labels": [str(p[2]) for p in distinct],
           "lit": int(lit) if lit is not None and 0 <= lit < n else None, "chosen": None}
    if chosen is not None:
        w, b = np.asarray(chosen[0], dtype=float), float(chosen[1])
        run["chosen"] = {"w": w.tolist(), "b": b,
                         "grads": {nm: [subgradient(nm, w, b, X, y, lv).tolist() for lv in lams] for nm in names}}
    drawn = np.unique(np.linspace(0, n - 1, min(n, MAX_LINES // len(names))).round().astype(int))
    Ws = [np.ascontiguousarray(p[0], dtype=float).reshape(-1, 2) for p in distinct]
    Bs = [np.ascontiguousarray(p[1], dtype=float).reshape(-1) for p in distinct]
    return LossScene(
        X=X, y=y.astype(np.int8), us=np.asarray(us, dtype=float), vs=np.asarray(vs, dtype=float),
        bs=np.asarray(bs, dtype=float), drawn=drawn.astype(_index_dtype(n)),
        path_W=np.concatenate(Ws) if Ws else np.zeros((0, 2)), path_B=np.concatenate(Bs) if Bs else np.zeros(0),
        path_ptr=np.concatenate([[0], np.cumsum([len(b) for b in Bs])]).astype(np.uint32),
        run=run, box=view_box(X), follow=follow, view=view or View())


@dataclass(frozen=True)
class LossDataScene(_FlatRecord):
    """The Loss surface page's data chart: the points and the weight chosen on the surface beside it.

    The renderer (``viz/js/lossdata.js``) draws the points, the chosen weight's boundary w·x + b = 0 and its two
    sides, M's rings (as the core judged them: ``mis``), the lit point and, in words, the state (w, b, M, each loss
    there: ``data_state`` in tests/oracles.py, the tests' reference); a weight picked on the surface is drawn at once,
    ahead of this record, until the page's record made after it (``view.seen``) replaces it.

    Attributes (the header's fields and arrays carry the same names)
    ----------
    X : ndarray of shape (N, 2), float64
    y : ndarray of shape (N,), int8
    mis : ndarray of shape (k,), uint16 or uint32
        M at the chosen weight: the points with yᵢ(w·xᵢ + b) ≤ 0 (none where no weight is chosen).
    run : dict
        ``chosen`` (``w``, ``b``, or None), ``names``, ``titles`` and ``shorts`` (the losses, as on the surface, and
        their short names where the state names several), ``lams`` (the
        λ values of the page's λ control) and ``losses`` ({name: [its value at the chosen weight for each λ]}, or
        None), ``lit`` (a point drawn lit, or None), ``clickable`` (whether weights are chosen by a click beside it),
        ``clip`` (the box a boundary is clipped to: beyond the view).
    box : tuple of 4 floats
        The data's view.
    follow : str or None
        The label of the page's λ control: the losses written are the λ it shows.
    view : View
        ``height`` the most the chart takes; ``seen`` the last pick the page had received when it made this.
    """

    X: np.ndarray
    y: np.ndarray
    mis: np.ndarray
    run: dict
    box: tuple[float, float, float, float]
    follow: str | None = None
    view: View = field(default_factory=View)

    KIND, NAME = "lossdata", "a Loss data"
    ARRAYS = ("X", "y", "mis")


def loss_data_scene(X, y, names, lams=(0.0,), *, chosen=None, lit: int | None = None, clickable: bool = True,
                    follow: str | None = None, view: View | None = None) -> LossDataScene:
    """The Loss page's data chart for the weight ``chosen`` ((w₁, w₂), b), or none: M there and each loss of
    ``names`` there for each λ of ``lams``, from ``core``.

    Parameters
    ----------
    X : ndarray of shape (N, 2)
    y : ndarray of shape (N,)
    names : sequence of {"zero_one", "perceptron", "hinge"}
    lams : sequence of float
    chosen : tuple ((w₁, w₂), b), optional
    lit : int, optional
    clickable : bool
    follow : str, optional
        The label of the page's λ control.
    view : View, optional
    """
    from viz.losses import NAMES, SHORT, losses_at, misclassified

    X = np.ascontiguousarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"the data chart draws 2-D data, got shape {X.shape}")
    n, names, lams = len(y), list(names), [float(v) for v in lams]
    run = {"chosen": None, "names": names, "titles": {nm: NAMES[nm] for nm in names},
           "shorts": {nm: SHORT[nm] for nm in names}, "lams": lams, "losses": None,
           "lit": int(lit) if lit is not None and 0 <= lit < n else None, "clickable": bool(clickable),
           "clip": [float(v) for v in widened(view_box(X), 4.0)]}  # (past any range plotly.js widens the view to)
    mis = np.zeros(0, dtype=int)
    if chosen is not None:
        w, b = np.asarray(chosen[0], dtype=float), float(chosen[1])
        run["chosen"] = {"w": w.tolist(), "b": b}
        each = [losses_at(names, w, b, X, y, lv) for lv in lams]
        run["losses"] = {nm: [e[nm] for e in each] for nm in names}
        mis = misclassified(X, y, w, b)
    return LossDataScene(X=X, y=y.astype(np.int8), mis=mis.astype(_index_dtype(n)), run=run, box=view_box(X),
                         follow=follow, view=view or View())


# ---------------------------------------------------------------------------------------------------
# a still figure (the Loss page's θ slice and 3-D view; the points alone where a page cannot run)
# ---------------------------------------------------------------------------------------------------


def figure_scene(fig: dict | Chart, alt: str = "") -> bytes:
    """A Plotly figure that nothing steps, as a scene record (kind ``figure``): the renderer draws it as it is.

    The figure's JSON travels as the array ``figure`` (UTF-8 bytes); a :class:`~viz.common.Chart` sends the JSON it
    was serialized to where it was built. ``alt`` describes the chart for screen readers.
    """
    text = fig.json if isinstance(fig, Chart) else serialized(fig).json
    header = {"format": "dbl-scene", "version": SCENE_VERSION, "kind": "figure", "alt": str(alt), "view": {}}
    return pack(header, {"figure": np.frombuffer(text.encode("utf-8"), dtype=np.uint8)})


