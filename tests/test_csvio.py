"""Tests for ``datasets.csvio``: reading data sets from CSV, writing data sets and perceptron runs."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.perceptron import run_perceptron
from datasets import make_dataset
from datasets.csvio import (
    MAX_BYTES,
    MAX_ROWS,
    CsvChoice,
    CsvData,
    CsvError,
    CsvTable,
    choose,
    dataset_csv,
    default_choice,
    parse_csv,
    read_table,
    signed,
    trajectory_csv,
)

H = ("x1", "x2", "label")
PM = (("-1", -1), ("1", 1))
ZO = (("0", -1), ("1", 1))

# ----------------------------------------------------------------------------
# good files
# ----------------------------------------------------------------------------

# (id, data, X, y, header, labels, delimiter)
GOOD = [
    ("header-comma", "x1,x2,label\n1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("no-header", "1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1], None, PM, ","),
    ("semicolon", "a;b;c\n1.5;-2;1\n0;4e3;-1\n", [[1.5, -2], [0, 4000]], [1, -1], ("a", "b", "c"), PM, ";"),
    ("tab", "x1\tx2\ty\n1\t2\t0\n3\t4\t1\n", [[1, 2], [3, 4]], [-1, 1], ("x1", "x2", "y"), ZO, "\t"),
    ("tab-no-header", "1\t2\t0\n3\t4\t1", [[1, 2], [3, 4]], [-1, 1], None, ZO, "\t"),
    ("bom-bytes", b"\xef\xbb\xbfx1,x2,label\n1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("bom-str", "\ufeff1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1], None, PM, ","),
    ("crlf", b"x1,x2,label\r\n1,2,1\r\n3,4,-1\r\n", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("cr", b"x1,x2,label\r1,2,1\r3,4,-1\r", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("mixed-line-ends", "1,2,1\r\n3,4,-1\r5,6,1\n", [[1, 2], [3, 4], [5, 6]], [1, -1, 1], None, PM, ","),
    ("quoted", '"x1","x2","label"\n"1.5","2","1"\n"3","-4","0"\n', [[1.5, 2], [3, -4]], [1, -1], H, ZO, ","),
    ("quoted-with-comma", 'x1,x2,label\n1,2,"a, b"\n3,4,c\n', [[1, 2], [3, 4]], [-1, 1], H,
     (("a, b", -1), ("c", 1)), ","),
    ("quoted-spaces", ' "1" , "2" , "1"\n3,4,0\n', [[1, 2], [3, 4]], [1, -1], None, ZO, ","),
    ("quoted-semicolon", '"x1";"x2";"y"\n"1";"2";"cat"\n"3";"4";"dog"\n', [[1, 2], [3, 4]], [-1, 1],
     ("x1", "x2", "y"), (("cat", -1), ("dog", 1)), ";"),
    ("blank-lines", "\n\n  \nx1,x2,label\n\n1,2,1\n \t \n3,4,-1\n\n", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("no-trailing-newline", "x1,x2,label\n1,2,1\n3,4,-1", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("labels-0-1", "1,2,0\n3,4,1\n5,6,0\n", [[1, 2], [3, 4], [5, 6]], [-1, 1, -1], None, ZO, ","),
    ("labels-float", "1,2,1.0\n3,4,-1\n5,6,1\n", [[1, 2], [3, 4], [5, 6]], [1, -1, 1], None,
     (("-1", -1), ("1.0", 1)), ","),
    ("labels-0.0-1.00", "1,2,0.0\n3,4,1.00\n5,6,0\n", [[1, 2], [3, 4], [5, 6]], [-1, 1, -1], None,
     (("0.0", -1), ("1.00", 1)), ","),
    ("labels-cat-dog", "x,y,animal\n1,2,dog\n3,4,cat\n", [[1, 2], [3, 4]], [1, -1], ("x", "y", "animal"),
     (("cat", -1), ("dog", 1)), ","),
    ("labels-2-5", "1,2,5\n3,4,2\n", [[1, 2], [3, 4]], [1, -1], None, (("2", -1), ("5", 1)), ","),
    ("labels-10-9-numeric", "1,2,10\n3,4,9\n", [[1, 2], [3, 4]], [1, -1], None, (("9", -1), ("10", 1)), ","),
    ("labels-mixed-text", "1,2,b\n3,4,1\n", [[1, 2], [3, 4]], [1, -1], None, (("1", -1), ("b", 1)), ","),
    ("spaces", "  x1 ,  x2 , label  \n 1 ,\t2 ,  1 \n3,4 , -1\n", [[1, 2], [3, 4]], [1, -1], H, PM, ","),
    ("spaces-label", "1,2, cat \n3,4,dog\n", [[1, 2], [3, 4]], [-1, 1], None, (("cat", -1), ("dog", 1)), ","),
    ("exponents", "1e-300,-2.5E+5,1\n.5,-0.0,-1\n", [[1e-300, -2.5e5], [0.5, -0.0]], [1, -1], None, PM, ","),
    ("header-one-numeric", "1,x2,label\n1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1], ("1", "x2", "label"), PM, ","),
    ("header-empty-name", ",,\n1,2,1\n3,4,-1\n", [[1, 2], [3, 4]], [1, -1], ("column 1", "column 2", "column 3"), PM,
     ","),
    ("trailing-delimiter", "1,2,1,\n3,4,-1,\n", [[1, 2], [3, 4]], [1, -1], None, PM, ","),
    ("decimal-comma", "1,5;2,0;1\n3,5;4,0;0\n", [[1.5, 2], [3.5, 4]], [1, -1], None, ZO, ";"),
    ("decimal-comma-tab", "a\tb\tc\n-1,25\t2\tx\n3\t4,5e1\ty\n", [[-1.25, 2], [3, 45]], [-1, 1], ("a", "b", "c"),
     (("x", -1), ("y", 1)), "\t"),
    ("three-classes-first-two", "x1,x2,label\n1,2,a\n3,4,b\n5,6,b\n7,8,c\n", [[1, 2], [3, 4], [5, 6]], [-1, 1, 1], H,
     (("a", -1), ("b", 1)), ","),
    ("five-columns-species", "sl,sw,pl,pw,species\n5.1,3.5,1.4,0.2,setosa\n7.0,3.2,4.7,1.4,versicolor\n",
     [[5.1, 3.5], [7.0, 3.2]], [-1, 1], ("sl", "sw", "species"), (("setosa", -1), ("versicolor", 1)), ","),
    ("semicolon-decimal-comma-many", "5,1;3,5;1,4;setosa\n7;3,2;4,7;versicolor\n", [[5.1, 3.5], [7, 3.2]], [-1, 1],
     None, (("setosa", -1), ("versicolor", 1)), ";"),
    ("bytearray", bytearray(b"1,2,1\n3,4,-1\n"), [[1, 2], [3, 4]], [1, -1], None, PM, ","),
    ("windows-1252", "Länge;Breite;Art\n1,5;2;café\n3;4,25;thé\n".encode("cp1252"), [[1.5, 2], [3, 4.25]], [-1, 1],
     ("Länge", "Breite", "Art"), (("café", -1), ("thé", 1)), ";"),
    ("utf16-excel-unicode-text", "x1\tx2\ty\r\n1\t2\t0\r\n3\t4\t1\r\n".encode("utf-16"), [[1, 2], [3, 4]], [-1, 1],
     ("x1", "x2", "y"), ZO, "\t"),
]


@pytest.mark.parametrize(("data", "X", "y", "header", "labels", "delimiter"), [g[1:] for g in GOOD],
                         ids=[g[0] for g in GOOD])
def test_good_files(data, X, y, header, labels, delimiter):
    d = parse_csv(data)
    assert isinstance(d, CsvData)
    assert d.X.dtype == np.float64 and d.X.shape == (len(X), 2)
    assert d.y.dtype == np.int64 and d.y.shape == (len(y),)
    np.testing.assert_array_equal(d.X, np.array(X, dtype=float))
    assert np.signbit(d.X).tolist() == np.signbit(np.array(X, dtype=float)).tolist()
    assert d.y.tolist() == y
    assert d.header == header
    assert d.labels == labels
    assert d.delimiter == delimiter
    assert d.n == len(y)


def test_str_and_bytes_agree():
    text = "x1;x2;label\n1.25;-3;a\n2;2;b\n"
    a, b = parse_csv(text), parse_csv(text.encode())
    np.testing.assert_array_equal(a.X, b.X)
    assert a.y.tolist() == b.y.tolist() and a.labels == b.labels and a.header == b.header


def test_result_is_read_only_and_frozen():
    d = parse_csv("1,2,1\n3,4,-1\n")
    with pytest.raises(ValueError):
        d.X[0, 0] = 5.0
    with pytest.raises(AttributeError):
        d.y = None  # type: ignore[misc]


def test_limits_at_the_boundary():
    rows = "".join(f"{i},{i},{i % 2}\n" for i in range(MAX_ROWS))
    assert parse_csv("x1,x2,y\n" + rows).n == MAX_ROWS  # the header does not count
    small = "1,2,1\n3,4,-1\n"
    assert parse_csv(small, max_bytes=len(small)).n == 2
    with pytest.raises(CsvError, match="limit"):
        parse_csv(small, max_bytes=len(small) - 1)


def test_unicode_labels_and_header():
    d = parse_csv("größe,höhe,klasse\n1,2,ä\n3,4,ö\n".encode())
    assert d.header == ("größe", "höhe", "klasse")
    assert d.labels == (("ä", -1), ("ö", 1))


# ----------------------------------------------------------------------------
# bad files
# ----------------------------------------------------------------------------

HDR = "x1,x2,label\n"
TEN_MB = b"1,2,1\n" * (10_000_000 // 6 + 1)

# (id, data, words the message must contain); a line number is among the words where there is one
BAD = [
    ("not-a-number", HDR + "1,2,1\n\n3,4,-1\n\n\n5,abc,1\n", ["line 7", "'abc'", "column 'x2'", "not a number"]),
    ("not-a-number-header-name", "a,b,c\n1,2,1\nzz,4,-1\n", ["line 3", "'zz'", "column 'a'", "not a number"]),
    ("missing-value", HDR + "1,2,1\n,4,-1\n", ["line 3", "missing value", "column 'x1'"]),
    ("missing-value-x2", "1,2,1\n3, ,-1\n", ["line 2", "missing value", "column 'column 2'"]),
    ("missing-label", HDR + "1,2,1\n3,4,\n", ["line 3", "missing value", "label column 'label'"]),
    ("missing-label-quoted", '1,2,1\n3,4," "\n', ["line 2", "missing value", "label column"]),
    ("nan", HDR + "1,2,1\n3,nan,-1\n", ["line 3", "'nan'", "column 'x2'", "not finite"]),
    ("inf", "1,2,1\n\n-inf,4,-1\n", ["line 3", "'-inf'", "column 'column 1'", "not finite"]),
    ("overflow", HDR + "1,2,1\n3,4,-1\n1e999,0,1\n", ["line 4", "'1e999'", "column 'x1'", "not finite"]),
    ("one-class", HDR + "1,2,a\n3,4,a\n", ["only one class", "'a'", "two are needed"]),
    ("one-class-numeric", "1,2,1\n3,4,1.0\n", ["only one class", "'1'"]),
    ("empty-file", "", ["no data rows"]),
    ("empty-bytes", b"", ["no data rows"]),
    ("bom-only", b"\xef\xbb\xbf", ["no data rows"]),
    ("header-only", "x1,x2,label\n", ["no data rows"]),
    ("header-and-blank-lines", "x1,x2,label\n\n \n\r\n", ["no data rows"]),
    ("only-blank-lines", "\n\n   \n\t\n\r\n", ["no data rows"]),
    ("two-columns", HDR + "1,2,1\n3,4,-1\n5,6\n", ["line 4 has 2 fields", "expected 3", "as the header: x1, x2, label"]),
    ("four-columns", "1,2,1\n3,4,-1,9\n", ["line 2 has 4 fields", "expected 3"]),
    ("one-column", "1\n2\n", ["line 1: it has 1 field;", "expected 3"]),
    ("two-columns-no-header", "1,2\n3,4\n", ["line 1: it has 2 fields;", "expected 3 or more"]),  # the line named once
    ("header-two-columns", "\nx1,x2\n1,2\n", ["line 2", "header has 2 fields", "expected 3 or more"]),
    ("header-four-columns", "a,b,c,d\n1,2,3,1\n", ["only one class", "column 'd'"]),
    ("decimal-comma-in-comma-file", '3,4,0\n"1,5",2,1\n', ["line 2", "'1,5'", "not a number", "decimal mark"]),
    ("unclosed-quote", '1,2,1\n"3,4,-1\n', ["line 2", "quote is not closed"]),
    ("too-many-rows", "x1,x2,y\n" + "".join(f"{i},{i},{i % 2}\n" for i in range(MAX_ROWS + 1)),
     [f"the file has {MAX_ROWS + 1:,} rows", f"the limit is {MAX_ROWS:,}"]),
    ("ten-mb", TEN_MB, ["the file is 10.0 MB", "the limit is 1 MB"]),
    ("ten-mb-str", TEN_MB.decode(), ["the file is 10.0 MB", "the limit is 1 MB"]),
    ("just-over", b"1,2,1\n" * (MAX_BYTES // 6 + 1), ["1,000,002 bytes", "1,000,000 bytes"]),
    ("png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["not text"]),
    ("too-large", b"x1,x2,y\n1,2,1\n3,-2e7,-1\n", ["line 3", "'-2e7'", "larger than 1,000,000"]),
    ("png-no-nul", b"\x89PNG\r\n\x1a\n", ["not text", "a PNG image"]),
    ("utf16-nul", "x1,x2,y\n1,2\x00,1\n".encode("utf-16"), ["not text", "NUL"]),
    ("ff-fe-junk", b"\xff\xfe\xfd\x00\x01", ["not text"]),
    ("nul-bytes", b"1,2,1\n3,4\x00,-1\n", ["not text", "NUL"]),
    ("nul-str", "1,2,1\n3,4\x00,-1\n", ["not text", "NUL"]),
    ("lone-surrogate", "1,2,a\n3,4,\ud800\n", ["not valid Unicode"]),
    ("not-bytes", 12345, ["int"]),
]


@pytest.mark.parametrize(("data", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_files(data, words):
    with pytest.raises(CsvError) as e:
        parse_csv(data)
    msg = str(e.value)
    for w in words:
        assert w in msg, (w, msg)


def test_csv_error_is_a_value_error():
    assert issubclass(CsvError, ValueError)


def test_custom_row_limit():
    with pytest.raises(CsvError, match="the file has 4 rows; the limit is 3"):
        parse_csv("1,2,1\n\n3,4,-1\n5,6,1\n7,8,1\n", max_rows=3)
    assert parse_csv("1,2,1\n3,4,-1\n5,6,1\n", max_rows=3).n == 3


def test_too_many_rows_stops_before_bad_rows():
    # rows past the limit are counted, not parsed
    text = "".join(f"{i},{i},{i % 2}\n" for i in range(10)) + "junk\n" * 5
    with pytest.raises(CsvError, match="the file has 15 rows; the limit is 10"):
        parse_csv(text, max_rows=10)


def test_huge_file_rejected_before_decoding():
    # 10 MB that would not even decode: the size is what is reported
    with pytest.raises(CsvError, match="10.0 MB"):
        parse_csv(b"\xff" * 10_000_000)


# ----------------------------------------------------------------------------
# round trip
# ----------------------------------------------------------------------------


def test_dataset_csv_format():
    text = dataset_csv(np.array([[1.0, -0.5], [1e-300, 2.5e300]]), np.array([1, -1]))
    assert text == "x1,x2,y\n1.0,-0.5,1\n1e-300,2.5e+300,-1\n"
    assert dataset_csv([[1, 2]], [-1], header=None) == "1.0,2.0,-1\n"
    assert dataset_csv([[1, 2]], [1], header=("a,b", "c", 'd"e')).splitlines()[0] == '"a,b",c,"d""e"'


def test_dataset_csv_rejects_bad_input():
    for X, y in [([[1, 2, 3]], [1]), ([[np.nan, 1]], [1]), ([[1, 2]], [0]), ([[1, 2]], [1, 1])]:
        with pytest.raises(ValueError):
            dataset_csv(X, y)


@pytest.mark.parametrize("name", ["separable", "blobs", "xor", "circles", "moons", "outlier", "textbook"])
def test_round_trip_registry(name):
    X, y = make_dataset(name, 40 if name != "textbook" else 3, 1)
    d = parse_csv(dataset_csv(X, y))
    assert d.X.tobytes() == np.asarray(X, dtype=np.float64).tobytes()
    assert d.y.tolist() == np.asarray(y).tolist()
    assert d.header == ("x1", "x2", "y") and d.labels == PM


finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)  # the pages take |x| ≤ 1e6 (X_LIMIT)
special = st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e6, -1e6, 0.1, 1 / 3,
                           999999.9999999999])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(finite | special, finite | special), min_size=2, max_size=40), st.data())
def test_round_trip_exact(points, data):
    n = len(points)
    y = data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n).filter(lambda v: len(set(v)) == 2))
    X = np.array(points, dtype=np.float64)
    header = data.draw(st.sampled_from([("x1", "x2", "y"), None, ("a b", "c;d", "e,f")]))
    d = parse_csv(dataset_csv(X, y, header=header))
    assert d.X.tobytes() == X.tobytes()  # bit for bit, -0.0 included
    assert d.y.tolist() == y
    assert d.header == header
    assert d.labels == PM


# ----------------------------------------------------------------------------
# fuzz: a CsvData with the invariants, or a CsvError, never anything else
# ----------------------------------------------------------------------------


def _check(data, max_rows=MAX_ROWS):
    try:
        d = parse_csv(data, max_rows=max_rows)
    except CsvError as e:
        assert str(e)
        return
    n = d.X.shape[0]
    assert d.X.dtype == np.float64 and d.X.shape == (n, 2)
    assert np.isfinite(d.X).all()
    assert d.y.dtype == np.int64 and d.y.shape == (n,)
    assert set(d.y.tolist()) == {-1, 1}
    assert 1 <= n <= max_rows
    assert [v for _, v in d.labels] == [-1, 1]
    assert d.delimiter in (",", ";", "\t")
    assert d.header is None or (len(d.header) == 3 and all(isinstance(h, str) for h in d.header))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_binary(data):
    _check(data)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_fuzz_text(text):
    _check(text)


TOKENS = st.sampled_from(["1", "-2.5", "0", "1e3", "1e999", "nan", "inf", "-inf", "", " ", "a", "b", "c", "cat",
                          '"1"', '"x,y"', '"', '""', "1,5", "x1", "-1", "1.0", "0.0", "\ufeff", "é", "\x00",
                          "  3 ", "\t", "1_0", "0x10", "1.5.2"])
DELIMS = st.sampled_from([",", ";", "\t", ", ", " ; "])
ENDS = st.sampled_from(["\n", "\r\n", "\r", "\n\n", "\n  \n"])


NUMS = st.sampled_from(["1", "-2.5", "0", "1e3", "  3 ", '"4"', ".5", "-0.0", "7E-3"])
LABELS = st.sampled_from(["0", "1", "-1", "1.0", "cat", "dog", '"a"'])


@st.composite
def near_csv(draw):
    """Rows of random tokens or well-formed rows, joined by random delimiters and line ends."""
    good = st.tuples(NUMS, NUMS, LABELS).map(list)
    junk = st.lists(TOKENS, min_size=1, max_size=5) | st.lists(TOKENS, min_size=3, max_size=3)
    rows = draw(st.lists(st.integers(0, 29).flatmap(lambda k: junk if k == 0 else good), max_size=12))
    delim = draw(DELIMS)
    lines = [draw(DELIMS) if draw(st.integers(0, 19)) == 0 else delim for _ in rows]
    text = "".join(d.join(r) + draw(ENDS) for d, r in zip(lines, rows, strict=True))
    if draw(st.booleans()):
        header = draw(st.sampled_from([delim.join(["x1", "x2", "y"]), "x1,x2,y", "a;b;c", "x\ty\tz", "", "a,b"]))
        text = header + draw(ENDS) + text
    return text


@settings(max_examples=300, deadline=None)
@given(near_csv(), st.sampled_from([3, MAX_ROWS]), st.booleans())
def test_fuzz_near_csv(text, max_rows, as_bytes):
    _check(text.encode("utf-8") if as_bytes else text, max_rows=max_rows)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["1", "2.5", "-3", "0", "1e-5"]), st.sampled_from(["4", "-0.5", "7"]),
                          st.sampled_from(["0", "1", "1.0", "-1"])), min_size=1, max_size=20))
def test_fuzz_valid_numeric(rows):
    # well-formed rows: read exactly, or one class
    text = "".join(",".join(r) + "\n" for r in rows)
    keys = sorted({float(r[2]) for r in rows})
    if len(keys) == 1:
        with pytest.raises(CsvError, match="only one class"):
            parse_csv(text)
        return
    d = parse_csv(text)  # the two smallest classes: −1 and +1; the others' rows are left out
    kept = [r for r in rows if float(r[2]) in keys[:2]]
    assert d.X.tolist() == [[float(a), float(b)] for a, b, _ in kept]
    assert d.y.tolist() == [-1 if float(r[2]) == keys[0] else 1 for r in kept]
    assert d.dropped == len(rows) - len(kept)


# ----------------------------------------------------------------------------
# trajectory_csv
# ----------------------------------------------------------------------------


def _rows(text):
    assert text.endswith("\n") and "\r" not in text
    return list(csv.reader(io.StringIO(text)))


def test_trajectory_csv_textbook():
    X, y = make_dataset("textbook", 3)
    traj = run_perceptron(X, y)
    rows = _rows(trajectory_csv(traj))
    assert rows[0] == ["step", "examined", "updated", "w1", "w2", "b", "mistakes"]
    body = rows[1:]
    assert len(body) == traj.n_steps + 1
    assert all(len(r) == 7 for r in body)
    assert [int(r[0]) for r in body] == list(range(traj.n_steps + 1))
    W, B = traj.states()
    assert np.array([[float(r[3]), float(r[4])] for r in body]).tobytes() == W.tobytes()
    assert np.array([float(r[5]) for r in body]).tobytes() == B.tobytes()
    # cyclic: point (s - 1) mod N + 1 at step s, nothing at step 0
    n = len(y)
    assert body[0][1] == "" and body[0][2] == ""
    assert [r[1] for r in body[1:]] == [str((s - 1) % n + 1) for s in range(1, traj.n_steps + 1)]
    for s, r in enumerate(body):
        assert r[2] == " ".join(str(i + 1) for i in traj.updated(s))
        assert (r[2] != "") == (s in set(traj.update_steps.tolist()))
    errors, _ = traj.curves()
    assert [int(r[6]) for r in body] == errors.tolist()
    assert body[-1][6] == "0" and traj.converged


def test_trajectory_csv_textbook_known_start():
    # the textbook run: w0 = 0 misclassifies all 3 points; step 1 examines x1 and updates with it
    X, y = make_dataset("textbook", 3)
    rows = _rows(trajectory_csv(run_perceptron(X, y)))
    assert rows[1] == ["0", "", "", "0.0", "0.0", "0.0", "3"]
    assert rows[2][:3] == ["1", "1", "1"]


@pytest.mark.parametrize("variant", ["random", "minibatch", "batch"])
def test_trajectory_csv_other_variants(variant):
    X, y = make_dataset("blobs", 30, 2)
    traj = run_perceptron(X, y, variant=variant, batch_size=4, max_steps=200, seed=1)
    body = _rows(trajectory_csv(traj))[1:]
    assert len(body) == traj.n_steps + 1
    for s, r in enumerate(body):
        if s == 0:
            assert r[1] == ""
        elif variant == "batch":
            assert r[1] == "all"
        else:
            assert r[1].split() == [str(i + 1) for i in traj.examined(s)]
        upd = r[2].split()
        assert upd == [str(i + 1) for i in traj.updated(s)]
        assert variant == "batch" or set(upd) <= set(r[1].split())
    W, B = traj.states()
    assert np.array([[float(r[3]), float(r[4]), float(r[5])] for r in body]).tobytes() == \
        np.column_stack([W, B]).tobytes()


def test_trajectory_csv_max_rows():
    X, y = make_dataset("textbook", 3)
    traj = run_perceptron(X, y)
    body = _rows(trajectory_csv(traj, max_rows=4))[1:]
    assert [r[0] for r in body] == ["0", "1", "2", "3"]
    assert body == _rows(trajectory_csv(traj))[1:5]


def test_trajectory_csv_no_steps():
    X, y = make_dataset("textbook", 3)
    traj = run_perceptron(X, y, max_steps=0)
    rows = _rows(trajectory_csv(traj))
    assert rows[1:] == [["0", "", "", "0.0", "0.0", "0.0", "3"]]
    assert not math.isnan(float(rows[1][3]))


@pytest.mark.parametrize("head, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "a PNG image"),
    (b"PK\x03\x04\x14\x00\x06\x00", "Excel .xlsx"),
    (b"%PDF-1.7\n", "a PDF document"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "a JPEG image"),
])
def test_common_non_csv_files_are_named(head, words):
    with pytest.raises(CsvError, match=words):
        parse_csv(head + b"\x00" * 64)


def test_trajectory_csv_of_a_random_run_cut_to_its_start():
    X, y = make_dataset("textbook", 3)
    for variant in ("random", "minibatch"):
        text = trajectory_csv(run_perceptron(X, y, variant=variant, batch_size=2), max_rows=1)
        assert text.splitlines()[1].startswith("0,,,")


# ----------------------------------------------------------------------------
# real-shaped files: read_table, the default choice, choose
# ----------------------------------------------------------------------------

DATA = Path(__file__).with_name("data")


def _table(name: str) -> CsvTable:
    return read_table((DATA / name).read_bytes())


def test_sklearn_iris_description_line():
    t = _table("sklearn_iris.csv")  # scikit-learn's own copy: "150,4,setosa,versicolor,virginica" first
    assert t.columns == ("column 1", "column 2", "column 3", "column 4", "class")
    assert len(t.rows) == 150 and t.lines[0] == 2 and not t.header
    assert t.class_names == {"0": "setosa", "1": "versicolor", "2": "virginica"}
    assert any("scikit-learn's description" in n and "setosa, versicolor, virginica" in n for n in t.notes)
    assert t.classes(4) == [("0", 50), ("1", 50), ("2", 50)]
    choice = default_choice(t)
    assert (choice.x1, choice.x2, choice.label, choice.negative, choice.positive) == (0, 1, 4, "0", "1")
    d = choose(t, choice)
    assert d.n == 100 and d.dropped == 50
    assert d.labels == (("0 (setosa)", -1), ("1 (versicolor)", 1))
    assert d.X[0].tolist() == [5.1, 3.5] and d.y[:50].tolist() == [-1] * 50


def test_sklearn_wine_fourteen_columns():
    t = _table("sklearn_wine.csv")
    assert len(t.columns) == 14 and len(t.rows) == 178 and all(t.numeric)
    d = choose(t, CsvChoice(x1=0, x2=12, label=13, positive="2", negative=None))  # class 2 against the rest
    assert d.n == 178 and d.dropped == 0
    assert int((d.y == 1).sum()) == 48 and d.labels == (("every other class", -1), ("2 (class_2)", 1))


def test_five_columns_with_species_names():
    t = _table("iris_species.csv")
    assert t.header and t.columns[-1] == "species" and t.numeric == (True, True, True, True, False)
    assert [c for c, _ in t.classes(4)] == ["setosa", "versicolor", "virginica"]
    d = choose(t, CsvChoice(x1=0, x2=1, label=4, positive="virginica", negative="versicolor"))
    assert d.n == 100 and d.columns == ("sepal_length", "sepal_width")
    assert d.header == ("sepal_length", "sepal_width", "species")


def test_semicolons_and_decimal_commas():
    t = _table("iris_de.csv")
    assert (t.delimiter, t.decimal) == (";", ",") and "semicolon-separated, decimal comma" in t.notes
    d = parse_csv((DATA / "iris_de.csv").read_bytes())
    assert d.columns == ("Kelchblatt Länge", "Kelchblatt Breite") and d.X[0].tolist() == [5.1, 3.5]
    same = parse_csv((DATA / "iris_species.csv").read_bytes())
    assert np.array_equal(d.X, same.X) and np.array_equal(d.y, same.y)


def test_quoted_header_with_commas_inside():
    t = _table("quoted_header.csv")
    assert t.columns == ("id", "height, cm", "weight, kg", "group") and t.header
    d = choose(t, CsvChoice(x1=1, x2=2, label=3, positive="A", negative="B"))
    assert d.n == 40 and d.columns == ("height, cm", "weight, kg") and int((d.y == 1).sum()) == 20


@pytest.mark.parametrize(("choice", "words"), [
    (CsvChoice(0, 0, 4, "versicolor", "setosa"), ["x₁ and x₂ are the same column", "'sepal_length'"]),
    (CsvChoice(0, 4, 4, "versicolor", "setosa"), ["x₂ and the label are the same column", "'species'"]),
    (CsvChoice(0, 4, 3, "0.2", "1.4"), ["line 2", "'setosa'", "column 'species'", "not a number"]),
    (CsvChoice(0, 1, 4, "setosa", "setosa"), ["+1 and −1 are the same class", "'setosa'"]),
    (CsvChoice(0, 1, 4, "rose", "setosa"), ["'rose'", "+1", "not in the column 'species'"]),
    (CsvChoice(0, 1, 9, "setosa", None), ["the label is not one of the file's 5 columns"]),
])
def test_bad_choices_name_the_problem(choice, words):
    t = _table("iris_species.csv")
    with pytest.raises(CsvError) as e:
        choose(t, choice)
    for w in words:
        assert w in str(e.value), (w, str(e.value))


def test_a_label_column_with_one_class_after_the_choice():
    t = read_table("a,b,c,d\n1,2,x,k\n3,4,y,k\n")
    with pytest.raises(CsvError, match="only one class in the column 'd'"):
        choose(t, default_choice(t))
    assert choose(t, CsvChoice(0, 1, 2, "y", "x")).y.tolist() == [-1, 1]


def test_one_against_the_rest():
    t = read_table("a,b,c\n1,2,x\n3,4,x\n5,6,y\n7,8,z\n")
    d = choose(t, CsvChoice(0, 1, 2, "x", None))
    assert d.y.tolist() == [1, 1, -1, -1] and d.dropped == 0


def test_an_excel_export_in_windows_1252_says_how_it_was_read():
    t = read_table("Kelchblatt Länge;Kelchblatt Breite;Art\n5,1;3,5;setosa\n7;3,2;versicolor\n".encode("cp1252"))
    assert t.columns[0] == "Kelchblatt Länge" and t.notes[0] == "semicolon-separated, decimal comma, Windows-1252 (not UTF-8)"
    assert read_table(b"a,b,c\n1,2,\x81x\n3,4,y\n").notes[0] == "comma-separated, Latin-1 (not UTF-8)"  # 0x81: no cp1252
    assert read_table("a,b,c\n1,2,x\n3,4,y\n".encode("utf-16")).notes[0] == "comma-separated, UTF-16"


@pytest.mark.parametrize(("text", "x1", "x2"), [
    ("id,a,b,label\n7,0.5,1.5,0\n3,1.5,0.5,1\n9,2.5,2.0,0\n", 1, 2),  # an id column: distinct whole numbers, named so
    (",a,b,label\n0,0.5,1.5,0\n1,1.5,0.5,1\n2,2.5,2.0,0\n", 1, 2),  # pandas' index: an empty header, 0, 1, 2
    ("n,a,b,label\n1,0.5,1.5,0\n2,1.5,0.5,1\n3,2.5,2.0,0\n4,1.0,1.0,1\n", 1, 2),  # 1, 2, 3, … in order, any name
    ("a,id,b,label\n0.5,1,1.5,0\n1.5,2,0.5,1\n2.5,3,2.0,0\n", 0, 2),  # wherever it stands
    ("id,a,label\n1,0.5,0\n2,1.5,1\n3,2.5,0\n", 0, 1),  # one measurement only: the row numbers are taken after all
    ("a,b,label\n1,2,0\n2,3,1\n3,1,0\n", 0, 1),  # a counts 1, 2, 3, but two numeric columns only: both taken
])
def test_the_default_columns_leave_out_a_row_number(text, x1, x2):
    """An ``id`` or index column numbers the rows; it measures nothing, so x₁ and x₂ are by default the first two
    numeric columns that are not one (the tester's file opened on x₁ = id)."""
    t = read_table(text.encode())
    choice = default_choice(t)
    assert (choice.x1, choice.x2) == (x1, x2), t.columns


def test_the_import_message_writes_minus_one_with_the_minus_sign():
    """Issue 38: the mapping the CSV import reports wrote "→ -1" (a hyphen); everything else writes −1 (U+2212)."""
    assert (signed(-1), signed(1), signed(np.int64(-1))) == ("−1", "+1", "−1")
    iris = "sepal_length,sepal_width,species\n5.1,3.5,setosa\n7.0,3.2,versicolor\n6.3,3.3,virginica\n"
    data = choose(read_table(iris), CsvChoice(x1=0, x2=1, label=2, positive="versicolor", negative="setosa"))
    assert data.classes == ("setosa", "versicolor")
    assert data.mapping() == "“setosa” → −1, “versicolor” → +1"
    assert "-" not in data.mapping()
    rest = choose(read_table(iris), CsvChoice(x1=0, x2=1, label=2, positive="virginica", negative=None))
    assert rest.mapping(lambda t: t.upper()) == "“EVERY OTHER CLASS” → −1, “VIRGINICA” → +1"
    assert parse_csv("x1,x2,y\n1,2,-1\n3,4,1\n").mapping() == "“-1” → −1, “1” → +1"  # (the file's own text kept)
