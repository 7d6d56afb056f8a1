"""Read a 2D labelled data set from CSV, and write data sets and perceptron runs as CSV.

The format read by :func:`parse_csv` is the one a spreadsheet exports: three
columns per row, two numeric features then a label, an optional header row,
comma, semicolon or tab as the delimiter, UTF-8 (with or without a BOM) and
any line ends. Every rejection raises :class:`CsvError` with a message meant
for the user, naming the file line (1-based, header and blank lines counted)
where there is one.

Examples
--------
>>> d = parse_csv("x1,x2,label\\n1.5,2,cat\\n-1,0.5,dog\\n")
>>> d.X.tolist(), d.y.tolist(), d.labels
([[1.5, 2.0], [-1.0, 0.5]], [-1, 1], (('cat', -1), ('dog', 1)))
>>> dataset_csv(d.X, d.y)
'x1,x2,y\\n1.5,2.0,-1\\n-1.0,0.5,1\\n'
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

import numpy as np

from core.validate import X_LIMIT

__all__ = ["MAX_BYTES", "MAX_ROWS", "CsvData", "CsvError", "dataset_csv", "parse_csv", "trajectory_csv"]

MAX_ROWS = 5000
MAX_BYTES = 1_000_000

_DELIMITERS = (",", ";", "\t")
_DELIM_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
_COLUMNS = ("x1", "x2", "label")
_SHOW = 40  # longest value quoted in a message


class CsvError(ValueError):
    """A CSV file that cannot be read as a 2D two-class data set; the message is for the user."""


@dataclass(frozen=True, eq=False)
class CsvData:
    """A data set read from CSV.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
        Features, float64, finite, read-only.
    y : ndarray of shape (n,)
        Labels in {-1, +1}, int64, read-only.
    header : tuple of 3 str, or None
        The header row's fields as written in the file (surrounding whitespace
        stripped, quotes removed, not escaped), or None when the file has none.
    labels : tuple of 2 (str, int) pairs
        The mapping of the file's label text to ±1, the −1 class first, e.g.
        ``(("0", -1), ("1", 1))`` or ``(("cat", -1), ("dog", 1))``. The text is
        the class's first occurrence in the file ("1" and "1.0" are one class).
    delimiter : str
        The delimiter found: ",", ";" or "\\t".
    """

    X: np.ndarray
    y: np.ndarray
    header: tuple[str, str, str] | None
    labels: tuple[tuple[str, int], tuple[str, int]]
    delimiter: str

    @property
    def n(self) -> int:
        """Number of data rows n."""
        return int(self.X.shape[0])


# ----------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------


def _q(s: str) -> str:
    """``s`` quoted for a message, shortened when long."""
    if len(s) > _SHOW:
        s = s[: _SHOW - 1] + "…"
    return repr(s)


def _plural(k: int, word: str) -> str:
    return f"{k:,} {word}" + ("" if k == 1 else "s")


def _sizes(n: int, limit: int) -> tuple[str, str]:
    """The file size and the limit as text ("10.0 MB", "1 MB"), exact bytes when rounding would hide the excess."""
    if limit >= 100_000 and round(n / 1e6, 1) > limit / 1e6:
        return f"{n / 1e6:.1f} MB", f"{limit / 1e6:g} MB"
    return _plural(n, "byte"), _plural(limit, "byte")


def _number(s: str) -> float | None:
    """float(s), or None when ``s`` is not a number (inf and nan count as numbers here)."""
    try:
        return float(s)
    except (ValueError, OverflowError):
        return None


def _numeric(s: str) -> bool:
    """Whether ``s`` reads as a number, with a dot or a decimal comma (so such a row is data, not a header)."""
    return _number(s) is not None or ("," in s and _number(s.replace(",", ".", 1)) is not None)


# what a file that is not a CSV usually is, by its first bytes
_NOT_CSV = (
    (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (an Excel .xlsx workbook is one: save the sheet as CSV)"),
    (b"\xd0\xcf\x11\xe0", "an old Office document (.xls: save the sheet as CSV)"),
)


def _decode(data: bytes | bytearray | memoryview | str, max_bytes: int) -> str:
    """The file's text: size checked before decoding, UTF-8 with an optional BOM, no NUL."""
    if isinstance(data, str):
        # a str is checked as the UTF-8 bytes it stands for (lone surrogates stay undecodable)
        data = data.encode("utf-8", "surrogatepass")
    elif isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    elif not isinstance(data, bytes):
        raise CsvError(f"expected the file's bytes or text, got {type(data).__name__}")
    if len(data) > max_bytes:
        size, limit = _sizes(len(data), max_bytes)
        raise CsvError(f"the file is {size}; the limit is {limit}")
    for magic, kind in _NOT_CSV:
        if data.startswith(magic):
            raise CsvError(f"the file is not text: it is {kind}")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise CsvError("the file is not text (it is UTF-16; save it as UTF-8 CSV)")
    if b"\x00" in data:
        raise CsvError("the file is not text (it contains NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise CsvError(
            f"the file is not text (it is not UTF-8: byte 0x{data[e.start]:02x} at offset {e.start:,}; "
            "save it as UTF-8 CSV)"
        ) from None


def _sniff(line: str) -> str:
    """The delimiter of the first non-blank line, counting only characters outside quotes.

    One that splits the line into exactly 3 fields wins (tab, then semicolon,
    then comma); otherwise the most frequent (ties: comma, semicolon, tab).
    """
    counts = dict.fromkeys(_DELIMITERS, 0)
    quoted = False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif not quoted and c in counts:
            counts[c] += 1
    for d in ("\t", ";", ","):
        if counts[d] == 2:
            return d
    return max(_DELIMITERS, key=lambda d: counts[d])  # max keeps the first of equals


def _fields(line: str, delimiter: str, lineno: int) -> list[str]:
    """The stripped fields of one line."""
    if '"' not in line:
        return [f.strip() for f in line.split(delimiter)]
    try:
        # strict first, to catch an unclosed quote; then lenient ("1.5" , → 1.5)
        row = next(csv.reader((line,), delimiter=delimiter, skipinitialspace=True, strict=True))
    except csv.Error as e:
        if "end of data" in str(e):
            raise CsvError(f"line {lineno}: a quote is not closed") from None
        try:
            row = next(csv.reader((line,), delimiter=delimiter, skipinitialspace=True))
        except csv.Error as e2:
            raise CsvError(f"line {lineno}: cannot read the row ({e2})") from None
    return [f.strip() for f in row]


def _count_error(lineno: int, k: int, header: bool) -> CsvError:
    what = "the header" if header else f"line {lineno}"
    where = f"line {lineno}: " if header else ""
    return CsvError(f"{where}{what} has {_plural(k, 'field')}; expected 3: {', '.join(_COLUMNS)}")


def _feature(s: str, lineno: int, col: int, name: str) -> float:
    """Field ``s`` of column ``col`` (1-based) as a finite float."""
    where = f"line {lineno}: "
    column = f"column {col} ({name})"
    if not s:
        raise CsvError(f"{where}missing value in {column}")
    v = _number(s)
    if v is None:
        hint = ""
        if "," in s and _number(s.replace(",", ".", 1)) is not None:
            hint = " (use a dot as the decimal mark)"
        raise CsvError(f"{where}the value {_q(s)} in {column} is not a number{hint}")
    if not math.isfinite(v):
        raise CsvError(f"{where}the value {_q(s)} in {column} is not finite")
    if abs(v) > X_LIMIT:
        raise CsvError(f"{where}the value {_q(s)} in {column} is larger than {X_LIMIT:,.0f} in size (rescale the data)")
    return v


# ----------------------------------------------------------------------------
# reading
# ----------------------------------------------------------------------------


def parse_csv(data: bytes | str, *, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES) -> CsvData:
    """Read a two-class 2D data set from CSV text.

    Parameters
    ----------
    data : bytes or str
        The file's content. Bytes must be UTF-8 (a BOM is dropped).
    max_rows : int
        Most data rows accepted (the header is not counted).
    max_bytes : int
        Largest file accepted, in bytes (checked before decoding).

    Returns
    -------
    CsvData
        X of shape (n, 2), y of shape (n,) in {−1, +1}, 1 <= n <= max_rows,
        both classes present.

    Raises
    ------
    CsvError
        For any file that is not such a data set; the message names the
        problem and, where there is one, the line (1-based, header and blank
        lines counted).

    Notes
    -----
    Each non-blank line holds x1, x2, label, separated by commas, semicolons
    or tabs (found from the first non-blank line); fields may be quoted and
    surrounding whitespace is ignored. The first row is a header unless its
    first two fields are numbers. Labels are any two distinct texts; numeric
    labels compare as numbers ("1" and "1.0" are one class). Two numeric
    labels map the smaller to −1 (so −1/1 and 0/1 map as expected, and 2/5
    gives 2 → −1); otherwise the labels are sorted as text, the first → −1.
    """
    try:
        max_rows, max_bytes = int(max_rows), int(max_bytes)
    except (TypeError, ValueError):
        raise CsvError(f"max_rows and max_bytes must be integers, got {max_rows!r}, {max_bytes!r}") from None
    text = _decode(data, max_bytes)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    delimiter = None
    header = None
    names = _COLUMNS
    rows: list[tuple[float, float]] = []
    keys: list[object] = []
    classes: dict[object, tuple[str, int]] = {}  # class key -> (first text, first line), in order seen
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        lineno = i + 1
        first = delimiter is None
        if first:
            delimiter = _sniff(line)
        f = _fields(line, delimiter, lineno)
        # a header unless the first two fields are numbers (a lone number is a short data row)
        if first and not (_numeric(f[0]) and (len(f) < 2 or _numeric(f[1]))):
            if len(f) != 3:
                raise _count_error(lineno, len(f), header=True)
            header = (f[0], f[1], f[2])
            names = tuple(h if h else c for h, c in zip(header, _COLUMNS, strict=True))
            names = tuple(n if len(n) <= _SHOW else n[: _SHOW - 1] + "…" for n in names)
            continue
        if len(rows) == max_rows:
            # one row too many: count the rest without parsing it
            total = max_rows + sum(1 for rest in lines[i:] if rest.strip())
            raise CsvError(f"the file has {total:,} rows; the limit is {max_rows:,}")
        if len(f) != 3:
            raise _count_error(lineno, len(f), header=False)
        x1 = _feature(f[0], lineno, 1, names[0])
        x2 = _feature(f[1], lineno, 2, names[1])
        label = f[2]
        if not label:
            raise CsvError(f"line {lineno}: missing value in column 3 ({names[2]})")
        v = _number(label)
        key: object = v if v is not None and math.isfinite(v) else label  # numeric labels compare as numbers
        if key not in classes:
            classes[key] = (label, lineno)
        rows.append((x1, x2))
        keys.append(key)

    if not rows:
        raise CsvError("the file has a header but no data rows" if header else "the file has no data rows")
    if len(classes) == 1:
        (text1, _), = classes.values()
        raise CsvError(f"only one class: every label is {_q(text1)}; two are needed")
    if len(classes) > 2:
        seen = list(classes.values())
        shown = ", ".join(_q(t) for t, _ in seen[:5]) + (f", … ({len(seen)} in all)" if len(seen) > 5 else "")
        raise CsvError(f"more than two classes: {shown} (the third first appears on line {seen[2][1]}); "
                       "two are needed")

    (ka, (ta, _)), (kb, (tb, _)) = classes.items()
    if isinstance(ka, float) and isinstance(kb, float):
        neg_first = ka < kb  # the smaller number → −1
    else:
        neg_first = ta < tb  # sorted as text, the first → −1
    (kneg, tneg), (_, tpos) = ((ka, ta), (kb, tb)) if neg_first else ((kb, tb), (ka, ta))

    X = np.array(rows, dtype=np.float64).reshape(len(rows), 2)
    y = np.array([-1 if k == kneg else 1 for k in keys], dtype=np.int64)
    X.flags.writeable = False
    y.flags.writeable = False
    return CsvData(X=X, y=y, header=header, labels=((tneg, -1), (tpos, 1)), delimiter=delimiter)


# ----------------------------------------------------------------------------
# writing
# ----------------------------------------------------------------------------


def _rows_text(rows) -> str:
    """Rows as comma-separated text with "\\n" line ends, quoting only where needed."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def dataset_csv(X, y, header: tuple[str, str, str] | None = ("x1", "x2", "y")) -> str:
    """A data set as CSV text that :func:`parse_csv` reads back exactly.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        Finite features.
    y : array_like of shape (n,)
        Labels in {−1, +1}.
    header : tuple of 3 str, or None
        The header row; None writes none.

    Returns
    -------
    str
        Comma-separated, one line per point ending in "\\n", floats written
        with ``repr`` (so they read back bit for bit), labels as -1 and 1.

    Raises
    ------
    ValueError
        When X is not finite of shape (n, 2), y is not ±1 of shape (n,), or
        the header does not have 3 fields.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2 or not np.isfinite(X).all():
        raise ValueError(f"X must be finite numbers of shape (n, 2), got shape {X.shape}")
    if y.shape != (X.shape[0],) or not np.isin(y, (-1, 1)).all():
        raise ValueError(f"y must be {X.shape[0]} labels in {{-1, 1}}")
    rows = [] if header is None else [tuple(str(h) for h in header)]
    if rows and len(rows[0]) != 3:
        raise ValueError(f"header must have 3 fields, got {header!r}")
    rows += [(repr(a), repr(b), "1" if c > 0 else "-1") for (a, b), c in zip(X.tolist(), y.tolist(), strict=True)]
    return _rows_text(rows)


def trajectory_csv(traj, max_rows: int | None = None) -> str:
    """A perceptron run as CSV, one row per step (step 0 is the start).

    Parameters
    ----------
    traj : core.perceptron.Trajectory
        A run from :func:`core.perceptron.run_perceptron`.
    max_rows : int, optional
        Write only steps 0..max_rows − 1 (default: every step).

    Returns
    -------
    str
        Columns ``step, examined, updated, w1, w2, b, mistakes`` (``w1..wd``
        for d features): ``examined`` and ``updated`` are 1-based point
        indices joined by spaces ("" at step 0 and where nothing was updated;
        "all" for the full-batch variant's examined points), w and b the state
        after the step (``repr`` floats), ``mistakes`` = |M| after the step.
        Lines end with "\\n".
    """
    S = traj.n_steps if max_rows is None else min(traj.n_steps, max(int(max_rows), 1) - 1)
    steps = np.arange(S + 1)
    W, B = traj.states(steps)
    errors, _ = traj.stats_at(steps)
    n = traj.problem.n
    # examined, 1-based; the full batch examines every point
    if traj.variant == "batch":
        examined = ["all"] * S
    elif traj.order is None:  # cyclic: point (s − 1) mod N at step s
        examined = [str(i) for i in ((steps[1:] - 1) % n + 1).tolist()]
    else:
        order = traj.order[:S].reshape(S, -1) + 1 if S else np.zeros((0, 1), dtype=int)
        examined = [" ".join(map(str, r)) for r in order.tolist()]
    # updated: only steps that changed the state used any point
    updated = dict.fromkeys(traj.update_steps[traj.update_steps <= S].tolist(), "")
    for s in updated:
        updated[s] = " ".join(str(i + 1) for i in traj.updated(s).tolist())
    d = W.shape[1]
    rows = [("step", "examined", "updated", *(f"w{j + 1}" for j in range(d)), "b", "mistakes")]
    for s, w, b, m in zip(steps.tolist(), W.tolist(), B.tolist(), errors.tolist(), strict=True):
        rows.append((str(s), examined[s - 1] if s else "", updated.get(s, ""), *map(repr, w), repr(b), str(m)))
    return _rows_text(rows)


def paired_runs_csv(left, right) -> str:
    """Two runs' (w, b) after every step, side by side: ``step,left_w1,left_w2,left_b,right_w1,right_w2,right_b``.

    Parameters
    ----------
    left, right : core.perceptron.Trajectory or core.svm.HingeRun
        2-D runs; a run that has ended holds its last (w, b) to the longer run's last step.

    Returns
    -------
    str
        max(S_left, S_right) + 1 rows after the header, floats written with ``repr`` (exact); lines end with "\\n".
    """
    S = max(left.n_steps, right.n_steps)
    steps = np.arange(S + 1)
    cols = [steps]
    for run in (left, right):
        at = np.minimum(steps, run.n_steps)  # after its end a run keeps its last (w, b)
        # a Trajectory stores one state per update (states() maps steps to them); a HingeRun one per step
        W, B = run.states(at) if hasattr(run, "states") else (np.asarray(run.W)[at], np.asarray(run.B)[at])
        if W.shape[1] != 2:
            raise ValueError(f"the runs must be 2-D, got d = {W.shape[1]}")
        cols += [W[:, 0], W[:, 1], B]
    out = ["step,left_w1,left_w2,left_b,right_w1,right_w2,right_b\n"]
    for row in zip(*(c.tolist() for c in cols), strict=True):
        out.append(f"{row[0]}," + ",".join(repr(float(v)) for v in row[1:]) + "\n")
    return "".join(out)
