"""Read a 2D labelled data set from CSV, and write data sets and perceptron runs as CSV.

Reading is two steps, as the page does it: :func:`read_table` reads any
table a spreadsheet or a course's data set exports (commas, semicolons or
tabs; decimal commas; a header or none; scikit-learn's description line;
UTF-8, UTF-16 or Windows-1252; any line ends) as text, and :func:`choose`
makes a two-class 2D data set of it from a :class:`CsvChoice` of x₁, x₂, the
label column and the +1 and −1 classes (:func:`default_choice`: the first two
numeric columns and the last one). :func:`parse_csv` does both with the
default choice. Every rejection raises :class:`CsvError` with a message
meant for the user, naming the file line (1-based, header and blank lines
counted) where there is one.

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
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.validate import X_LIMIT

__all__ = ["MAX_BYTES", "MAX_ROWS", "CsvChoice", "CsvData", "CsvError", "CsvTable", "choose", "dataset_csv", "default_choice",
           "parse_csv", "read_table", "signed", "trajectory_csv"]

MAX_ROWS = 10_000  # datasets.points.MAX_POINTS
MAX_BYTES = 1_000_000

_DELIMITERS = (",", ";", "\t")
_DELIM_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
QUOTE_CHARS = 40  # longest value quoted in a message


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
        The names of the chosen columns (x₁, x₂, the label) as the file's
        header writes them (stripped, quotes removed, not escaped), or None
        when the file has no header.
    labels : tuple of 2 (str, int) pairs
        The classes chosen as −1 and +1, the −1 class first, e.g.
        ``(("0", -1), ("1", 1))``, ``(("cat", -1), ("dog", 1))`` or
        ``(("every other class", -1), ("0 (setosa)", 1))``. The text is the
        class's first occurrence in the file ("1" and "1.0" are one class).
    delimiter : str
        The delimiter found: ",", ";" or "\\t".
    columns : tuple of 2 str
        The names of the x₁ and x₂ columns ("column 1" where the file has no header).
    dropped : int
        Rows left out because their class was not chosen.
    """

    X: np.ndarray
    y: np.ndarray
    header: tuple[str, str, str] | None
    labels: tuple[tuple[str, int], tuple[str, int]]
    delimiter: str
    columns: tuple[str, str] = ("x1", "x2")
    dropped: int = 0

    @property
    def n(self) -> int:
        """Number of data rows n."""
        return int(self.X.shape[0])

    @property
    def classes(self) -> tuple[str, str]:
        """The names of the −1 and +1 classes as :attr:`labels` writes them, e.g. ``("setosa", "versicolor")``."""
        return (self.labels[0][0], self.labels[1][0])

    def mapping(self, escape: Callable[[str], str] = str) -> str:
        """Which class became which label, in words: ``“setosa” → −1, “versicolor” → +1`` (the −1 class first).

        The labels are written with the minus sign U+2212, as every other message writes −1. ``escape`` is applied to
        each class's name (text from the file: a page showing it as Markdown passes its escaping).
        """
        return ", ".join(f"“{escape(name)}” → {signed(v)}" for name, v in self.labels)


def signed(label: int) -> str:
    """A label as a message writes it: "+1" or "−1" (U+2212, not the hyphen-minus)."""
    return f"{int(label):+d}".replace("-", "−")


# ----------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------


def quote(s: str) -> str:
    """``s`` quoted for a message, shortened when long."""
    if len(s) > QUOTE_CHARS:
        s = s[: QUOTE_CHARS - 1] + "…"
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


# what a file that is not a CSV usually is, by its first bytes
_NOT_CSV = (
    (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (an Excel .xlsx workbook is one: save the sheet as CSV)"),
    (b"\xd0\xcf\x11\xe0", "an old Office document (.xls: save the sheet as CSV)"),
)


def _decode(data: bytes | bytearray | memoryview | str, max_bytes: int) -> tuple[str, str | None]:
    """The file's text and, when it was not UTF-8, the encoding it was read in (for the page).

    The size is checked before decoding. UTF-8 (with an optional BOM) first; UTF-16 with its BOM (Excel's
    "Unicode text"); bytes that are not UTF-8 are read as Windows-1252, the encoding of a Western
    European Excel's "CSV" (Latin-1 where Windows-1252 leaves a byte undefined). A str is checked as the
    UTF-8 it stands for (a lone surrogate is not text). No NUL outside UTF-16.
    """
    given_text = isinstance(data, str)
    if given_text:
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
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError:
            raise CsvError("the file is not text (it starts like UTF-16 but does not decode as it)") from None
        if "\x00" in text:
            raise CsvError("the file is not text (it contains NUL characters)")
        return text, "UTF-16"
    if b"\x00" in data:
        raise CsvError("the file is not text (it contains NUL bytes)")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as e:
        if given_text:
            raise CsvError(f"the text is not valid Unicode (at offset {e.start:,})") from None
    try:
        return data.decode("cp1252"), "Windows-1252 (not UTF-8)"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "Latin-1 (not UTF-8)"


def _counts(line: str) -> dict[str, int]:
    """How often each delimiter occurs in ``line`` outside quotes."""
    counts = dict.fromkeys(_DELIMITERS, 0)
    quoted = False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif not quoted and c in counts:
            counts[c] += 1
    return counts


def _sniff(lines: list[str]) -> str:
    """The delimiter of a file, from its first non-blank lines (at most 20).

    One that occurs the same number of times (at least once) on every line
    looked at wins, tab before semicolon before comma (so "5,1;3,5;setosa",
    semicolons with decimal commas, reads as semicolons). A first line that
    differs from the rest (scikit-learn's description line) is left out when
    the rest agree. Otherwise the most frequent on the first line (ties:
    comma, semicolon, tab).
    """
    counts = [_counts(line) for line in lines[:20]]
    for sample in (counts, counts[1:]):
        for d in ("\t", ";", ","):
            if sample and len({c[d] for c in sample}) == 1 and sample[0][d] > 0:
                return d
    return max(_DELIMITERS, key=lambda d: counts[0][d])  # max keeps the first of equals


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


def _reader(decimal: str):
    """A field -> float | None reader for the file's decimal mark ("," reads "1,5" as 1.5)."""
    if decimal == ".":
        return _number
    return lambda s: _number(s.replace(",", ".", 1)) if s.count(",") == 1 and "." not in s else _number(s)


def _feature(s: str, lineno: int, name: str, read=_number) -> float:
    """Field ``s`` of the feature column ``name`` as a finite float."""
    v = read(s) if s else None
    if v is not None and math.isfinite(v) and abs(v) <= X_LIMIT:
        return v
    where = f"line {lineno}: "
    column = f"column {quote(name)}"  # written only for a message
    if not s:
        raise CsvError(f"{where}missing value in {column}")
    if v is None:
        hint = ""
        if "," in s and _number(s.replace(",", ".", 1)) is not None:
            hint = " (use a dot as the decimal mark, or separate the columns with semicolons)"
        raise CsvError(f"{where}the value {quote(s)} in {column} is not a number{hint}")
    if not math.isfinite(v):
        raise CsvError(f"{where}the value {quote(s)} in {column} is not finite")
    if abs(v) > X_LIMIT:
        raise CsvError(f"{where}the value {quote(s)} in {column} is larger than {X_LIMIT:,.0f} in size (rescale the data)")
    return v


# ----------------------------------------------------------------------------
# reading: a table of text, then a choice of columns and classes
# ----------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CsvTable:
    """A CSV file read as a table of text, before columns and classes are chosen.

    Attributes
    ----------
    columns : tuple of str
        A name per column: the header's, else "column 1", "column 2", … (the
        last "class" after a scikit-learn description line).
    rows : tuple of tuple of str
        The data rows' fields, stripped, each as long as ``columns``.
    lines : tuple of int
        The file line (1-based) of each data row.
    numeric : tuple of bool
        Per column: every value reads as a finite number.
    header : bool
        Whether the first line was read as a header.
    delimiter, decimal : str
        The delimiter found (",", ";" or "\\t") and the decimal mark ("." or ",").
    class_names : dict of str to str
        Names for the values of the last column, from a scikit-learn
        description line ("0" -> "setosa"); empty otherwise.
    notes : tuple of str
        How the file was read, for the page ("semicolon-separated, decimal comma").
    values : tuple of tuple of (float or None)
        Each field of ``rows`` as a number (None where it is not one).
    """

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...]
    numeric: tuple[bool, ...]
    header: bool
    delimiter: str
    decimal: str
    class_names: dict[str, str]
    notes: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...] = ()

    def number(self, s: str) -> float | None:
        """A field as a number, read with the file's decimal mark (None when it is not one)."""
        return _reader(self.decimal)(s)

    def classes(self, column: int) -> list[tuple[str, int]]:
        """The classes of ``column``: (text of the first occurrence, count), in the order they map to labels.

        Numeric values compare as numbers ("1" and "1.0" are one class) and
        come in ascending order when every class is numeric; otherwise the
        classes are sorted as text.
        """
        found: dict[object, list] = {}
        for row, key in zip(self.rows, self.class_keys(column), strict=True):
            text = row[column]
            if key in found:
                found[key][1] += 1
            else:
                found[key] = [text, 1]
        keys = list(found)
        if all(isinstance(k, float) for k in keys):
            keys.sort()
        else:
            keys.sort(key=lambda k: found[k][0])
        return [(found[k][0], found[k][1]) for k in keys]

    def class_label(self, text: str) -> str:
        """A class as the page names it: its text, with its name from a description line ("0 (setosa)")."""
        name = self.class_names.get(text)
        return f"{text} ({name})" if name else text

    def class_keys(self, column: int) -> list[object]:
        """Each row's class in ``column`` as it compares: a number where the text is one, else the text."""
        cache = self.__dict__.setdefault("_keys", {})  # computed once per column (the table is immutable)
        if column not in cache:
            cache[column] = [v[column] if v[column] is not None and math.isfinite(v[column]) else row[column]
                             for row, v in zip(self.rows, self.values, strict=True)]
        return cache[column]

    def _class_key(self, text: str) -> object:
        v = self.number(text)
        return v if v is not None and math.isfinite(v) else text


@dataclass(frozen=True)
class CsvChoice:
    """Which columns are x₁, x₂ and the label, and which classes are +1 and −1.

    Attributes
    ----------
    x1, x2, label : int
        Column indices (0-based).
    positive : str
        The class (its text, as :meth:`CsvTable.classes` gives it) labelled +1.
    negative : str or None
        The class labelled −1; None: every other class.
    """

    x1: int
    x2: int
    label: int
    positive: str
    negative: str | None


def _metadata(first: list[str], rest: list[list[str]]) -> tuple[int, dict[str, str]] | None:
    """(features d, class names) when ``first`` is scikit-learn's description line, else None.

    Such a line holds the number of rows n, the number of features d, then a
    name per class ("150,4,setosa,versicolor,virginica"); it is taken as one
    when n rows of d + 1 fields follow whose last field takes the values
    0, 1, …, k − 1 for k names.
    """
    if len(first) < 3 or not (first[0].isdigit() and first[1].isdigit()):
        return None
    n, d = int(first[0]), int(first[1])
    if n != len(rest) or d < 1 or any(len(r) != d + 1 for r in rest):
        return None
    names = first[2:]
    if any(_number(name) is not None for name in names) or {r[-1] for r in rest} != {str(j) for j in range(len(names))}:
        return None
    return d, {str(j): name for j, name in enumerate(names)}


def read_table(data: bytes | str, *, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES) -> CsvTable:
    """Read a CSV file as a table of text: delimiter, decimal mark, header and description line found.

    Parameters
    ----------
    data : bytes or str
        The file's content. Bytes are read as UTF-8 (a BOM dropped), UTF-16 with its BOM, or else Windows-1252.
    max_rows : int
        Most data rows accepted (a header or description line is not counted).
    max_bytes : int
        Largest file accepted, in bytes (checked before decoding).

    Returns
    -------
    CsvTable
        At least one data row of at least 3 columns.

    Raises
    ------
    CsvError
        For a file that is not such a table (not text, too large, too many
        rows, rows of different lengths, fewer than 3 columns); the message
        names the problem and the line (1-based, blank lines counted).

    Notes
    -----
    Commas, semicolons or tabs separate the fields (:func:`_sniff`); with
    semicolons or tabs, numbers may use a decimal comma ("1,5"), found when
    no field uses a decimal dot. The first line is a header when some column
    is a number on the second line but not on the first (or, in a one-row
    file, when its first two fields are not both numbers); it is scikit-learn's
    description line ("150,4,setosa,versicolor,virginica") when the rows
    after it match it. Blank lines are skipped.
    """
    try:
        max_rows, max_bytes = int(max_rows), int(max_bytes)
    except (TypeError, ValueError):
        raise CsvError(f"max_rows and max_bytes must be integers, got {max_rows!r}, {max_bytes!r}") from None
    text, encoding = _decode(data, max_bytes)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    if not numbered:
        raise CsvError("the file has no data rows")
    delimiter = _sniff([line for _, line in numbered])
    cells = [_fields(line, delimiter, no) for no, line in numbered]
    linenos = [no for no, _ in numbered]

    # the decimal mark: a comma when the columns are not comma-separated and no number uses a dot
    decimal = "."
    if delimiter != ",":
        flat = [f for row in cells[1:] for f in row]
        if any(f.count(",") == 1 and _number(f.replace(",", ".")) is not None for f in flat) and not any(
                "." in f and _number(f) is not None for f in flat):
            decimal = ","
    read = _reader(decimal)
    numeric = [[read(f) is not None for f in row] for row in cells[:2]]  # the header is decided on these

    notes = [f"{_DELIM_NAMES[delimiter]}-separated" + (", decimal comma" if decimal == "," else "")
             + (f", {encoding}" if encoding else "")]
    class_names: dict[str, str] = {}
    meta = _metadata(cells[0], cells[1:])
    header = False
    if meta is not None:
        d, class_names = meta
        columns = [f"column {j + 1}" for j in range(d)] + ["class"]
        notes.append(f"line {linenos[0]} read as scikit-learn's description ({cells[0][0]} rows, {d} features, "
                     "classes " + ", ".join(class_names.values()) + ")")
        start = 1
    else:
        first = cells[0]
        # a header unless its first two fields are numbers; one, when a column has a word above a number
        header = not (numeric[0][0] and (len(first) < 2 or numeric[0][1]))
        if header and len(cells) > 1:
            header = any(not numeric[0][j] and j < len(cells[1]) and numeric[1][j] for j in range(len(first)))
        start = 1 if header else 0
        width = len(first)
        columns = [h if h else f"column {j + 1}" for j, h in enumerate(first)] if header else \
            [f"column {j + 1}" for j in range(width)]
        columns = [c if len(c) <= QUOTE_CHARS else c[: QUOTE_CHARS - 1] + "…" for c in columns]
        if header:
            notes.append(f"line {linenos[0]} read as the header")
    width = len(columns)
    if width < 3:
        where = "the header" if header else "it"
        raise CsvError(f"line {linenos[0]}: {where} has {_plural(width, 'field')}; expected 3 or more: "
                       "two numeric features and a label")
    rows = cells[start:]
    while width > 3 and all(len(r) == width and not r[-1] for r in cells):  # a spreadsheet's trailing delimiters
        width -= 1
        columns.pop()
        cells = [r[:-1] for r in cells]
        rows = cells[start:]
    if not rows:
        raise CsvError("the file has a header but no data rows")
    if len(rows) > max_rows:
        raise CsvError(f"the file has {len(rows):,} rows; the limit is {max_rows:,}")
    for row, no in zip(rows, linenos[start:], strict=True):
        if len(row) != width:
            like = "the header" if header else f"line {linenos[start]}"
            raise CsvError(f"line {no} has {_plural(len(row), 'field')}; expected {width} (as {like}: "
                           + ", ".join(columns[:6]) + (", …" if width > 6 else "") + ")")
    values = tuple(tuple(read(f) for f in row) for row in rows)  # every field read once
    # a column counts as numeric when every value is a finite number
    numeric_cols = tuple(all(v[j] is not None and math.isfinite(v[j]) for v in values) for j in range(width))
    return CsvTable(columns=tuple(columns), rows=tuple(tuple(r) for r in rows), lines=tuple(linenos[start:]),
                    numeric=numeric_cols, header=header, delimiter=delimiter, decimal=decimal,
                    class_names=class_names, notes=tuple(notes), values=values)


ROW_NUMBER_NAMES = ("id", "index", "#", "row", "no", "unnamed: 0", "")  # a header that names a row number


def row_numbers(table: CsvTable, column: int) -> bool:
    """Whether ``column`` numbers the rows rather than measures them: whole numbers, each one more than the last
    (0, 1, 2, … or 1, 2, 3, …, three rows at least), or distinct whole numbers under a header such as ``id`` or
    ``index`` (pandas writes its index under an empty one)."""
    vals = [v[column] for v in table.values]
    if not vals or any(v is None or not math.isfinite(v) or v != int(v) for v in vals):
        return False
    if len(vals) >= 3 and all(b - a == 1 for a, b in zip(vals, vals[1:], strict=False)):
        return True
    return table.header and table.columns[column].strip().lower() in ROW_NUMBER_NAMES and len(set(vals)) == len(vals)


def default_choice(table: CsvTable) -> CsvChoice:
    """The first two numeric columns that do not number the rows (:func:`row_numbers`: an ``id`` column is no
    measurement) as x₁ and x₂, the label column left out; the last column as the label.

    The label's first two classes (in :meth:`CsvTable.classes` order) are −1
    and +1 (so 0/1 and −1/1 map as expected); with more classes the others'
    rows are left out until the choice changes.
    """
    label = len(table.columns) - 1
    numeric = [j for j, ok in enumerate(table.numeric) if ok and j != label]
    measured = [j for j in numeric if not row_numbers(table, j)]
    features = measured if len(measured) >= 2 else numeric
    features += [j for j in range(label) if j not in features]  # too few numeric ones: choose() says so
    classes = [t for t, _ in table.classes(label)]
    negative = classes[0]
    positive = classes[1] if len(classes) > 1 else classes[0]
    return CsvChoice(x1=features[0], x2=features[1], label=label, positive=positive, negative=negative)


def choose(table: CsvTable, choice: CsvChoice) -> CsvData:
    """The data set a choice of columns and classes makes of ``table``.

    Parameters
    ----------
    table : CsvTable
    choice : CsvChoice

    Returns
    -------
    CsvData
        X of shape (n, 2) from the chosen feature columns, y in {−1, +1}; the
        rows of classes not chosen are left out (``dropped`` counts them).

    Raises
    ------
    CsvError
        When a column is chosen twice, a feature column holds something that
        is not a finite number, the classes are the same or not in the label
        column, or the choice leaves one class only.
    """
    width = len(table.columns)
    picks = {"x₁": choice.x1, "x₂": choice.x2, "the label": choice.label}
    for what, j in picks.items():
        if not (isinstance(j, int) and 0 <= j < width):
            raise CsvError(f"{what} is not one of the file's {width} columns")
    if len(set(picks.values())) < 3:
        a, b = [w for w, j in picks.items() if list(picks.values()).count(j) > 1][:2]
        raise CsvError(f"{a} and {b} are the same column ({quote(table.columns[picks[a]])}); choose different ones")
    classes = table.classes(choice.label)
    if len(classes) < 2:
        raise CsvError(f"only one class in the column {quote(table.columns[choice.label])}: every label is "
                       f"{quote(classes[0][0])}; two are needed (is it the label column?)")
    known = {t for t, _ in classes}
    for what, cls in (("+1", choice.positive), ("−1", choice.negative)):
        if cls is not None and cls not in known:
            raise CsvError(f"the class {quote(cls)} chosen as {what} is not in the column {quote(table.columns[choice.label])}")
    if choice.negative is not None and table._class_key(choice.negative) == table._class_key(choice.positive):
        raise CsvError(f"+1 and −1 are the same class ({quote(choice.positive)}); choose two different ones")
    read = _reader(table.decimal)
    pos = table._class_key(choice.positive)
    neg = None if choice.negative is None else table._class_key(choice.negative)
    X, y, dropped = [], [], 0
    for row, no, key, v in zip(table.rows, table.lines, table.class_keys(choice.label), table.values, strict=True):
        if not row[choice.label]:
            raise CsvError(f"line {no}: missing value in the label column {quote(table.columns[choice.label])}")
        if key == pos:
            label = 1
        elif neg is None or key == neg:
            label = -1
        else:
            dropped += 1
            continue
        a, b = v[choice.x1], v[choice.x2]
        if a is None or b is None or not (abs(a) <= X_LIMIT and abs(b) <= X_LIMIT):  # else finite: say which
            a = _feature(row[choice.x1], no, table.columns[choice.x1], read)
            b = _feature(row[choice.x2], no, table.columns[choice.x2], read)
        X.append((a, b))
        y.append(label)
    if -1 not in y:
        raise CsvError(f"no row is in the −1 class{'' if neg is None else ' ' + quote(choice.negative)}: "
                       "two classes are needed")
    neg_text = "every other class" if choice.negative is None else table.class_label(choice.negative)
    X_arr = np.array(X, dtype=np.float64).reshape(len(X), 2)
    y_arr = np.array(y, dtype=np.int64)
    X_arr.flags.writeable = False
    y_arr.flags.writeable = False
    names = (table.columns[choice.x1], table.columns[choice.x2], table.columns[choice.label])
    return CsvData(X=X_arr, y=y_arr, header=names if table.header else None,
                   labels=((neg_text, -1), (table.class_label(choice.positive), 1)), delimiter=table.delimiter,
                   columns=names[:2], dropped=dropped)


def parse_csv(data: bytes | str, *, max_rows: int = MAX_ROWS, max_bytes: int = MAX_BYTES) -> CsvData:
    """Read a two-class 2D data set from CSV text, with the default choice of columns and classes.

    Parameters
    ----------
    data : bytes or str
        The file's content. Bytes are read as UTF-8 (a BOM dropped), UTF-16 with its BOM, or else Windows-1252.
    max_rows : int
        Most data rows accepted (the header is not counted).
    max_bytes : int
        Largest file accepted, in bytes (checked before decoding).

    Returns
    -------
    CsvData
        X of shape (n, 2), y of shape (n,) in {−1, +1}, both classes present.

    Raises
    ------
    CsvError
        For any file that is not such a data set; the message names the
        problem and, where there is one, the line (1-based, header and blank
        lines counted).

    Notes
    -----
    :func:`read_table` reads the file and :func:`default_choice` chooses: the
    first two numeric columns are x₁ and x₂, the last column the label; its
    two first classes (numbers in ascending order, else texts sorted) are −1
    and +1, so −1/1 and 0/1 map as expected and 2/5 gives 2 → −1.
    """
    table = read_table(data, max_rows=max_rows, max_bytes=max_bytes)
    return choose(table, default_choice(table))


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
    traj : core.perceptron.Trajectory or viz.scene.SceneRun
        A run from :func:`core.perceptron.run_perceptron`, or one read back from the page's scene record.
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
