"""The user's points: a click's edit and the link form of a point set (datasets.points)."""

from __future__ import annotations

import base64
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets import make_dataset
from datasets.points import URL_MAX_POINTS, click_decimals, click_edit, decode_points, encode_points

X3 = np.array([[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
Y3 = np.array([1, 1, -1])


def test_a_click_on_empty_space_adds_a_point_of_the_chosen_class_on_the_pixel_grid():
    X, y, what = click_edit(X3, Y3, (2.01234567, -0.4987654), -1, (0.013, 0.013))
    assert X.shape == (4, 2) and y.tolist() == [1, 1, -1, -1]
    assert X[:3].tolist() == X3.tolist()
    assert X[3].tolist() == [2.01, -0.5]  # 0.013 units per pixel: two decimals resolve a pixel
    assert what == "added x₄ = (2.01, -0.5), y = -1"


def test_a_click_on_a_point_removes_the_nearest_one_in_pixels():
    # x₁ is 0.5 units away but 5 px (0.1 per px); x₂ is 0.3 units away but 30 px along x₂ (0.01 per px)
    X = np.array([[0.5, 0.0], [0.0, 0.3]])
    X2, y2, what = click_edit(X, np.array([1, -1]), (0.0, 0.0), 1, (0.1, 0.01))
    assert X2.tolist() == [[0.0, 0.3]] and y2.tolist() == [-1]
    assert what.startswith("removed x₁ = (0.5, 0)")
    # 10 px away from both: adds
    X3b, _, what = click_edit(X, np.array([1, -1]), (0.0, 0.0), 1, (0.05, 0.03))
    assert len(X3b) == 3 and what.startswith("added")


def test_clicks_on_an_empty_set_add_points():
    X, y, _ = click_edit(np.zeros((0, 2)), np.zeros(0), (1.0, 2.0), 1, (0.01, 0.01))
    assert X.tolist() == [[1.0, 2.0]] and y.tolist() == [1]


@pytest.mark.parametrize("at, label, scale, words", [
    ((float("nan"), 0.0), 1, (0.1, 0.1), "finite"),
    ((0.0, float("inf")), 1, (0.1, 0.1), "finite"),
    (("a", 0.0), 1, (0.1, 0.1), "two numbers"),
    ((None, 0.0), 1, (0.1, 0.1), "two numbers"),
    ((0.0, 0.0), 0, (0.1, 0.1), r"\+1 or −1"),
    ((0.0, 0.0), 1, (0.0, 0.1), "positive"),
    ((0.0, 0.0), 1, (-1.0, 0.1), "positive"),
    ((0.0,), 1, (0.1, 0.1), "two numbers"),
])
def test_a_bad_click_is_named(at, label, scale, words):
    with pytest.raises(ValueError, match=words):
        click_edit(X3, Y3, at, label, scale)


def test_a_full_set_takes_no_more_points_but_can_lose_one():
    with pytest.raises(ValueError, match="at most 3"):
        click_edit(X3, Y3, (10.0, 10.0), 1, (0.01, 0.01), max_points=3)
    X, _, _ = click_edit(X3, Y3, (3.0, 3.0), 1, (0.01, 0.01), max_points=3)
    assert len(X) == 2


@pytest.mark.parametrize("scale, d", [(0.013, 2), (0.001, 3), (0.5, 1), (3.0, 0), (1e-12, 6), (0.0, 6)])
def test_click_decimals_resolve_one_pixel(scale, d):
    assert click_decimals(scale) == d


# ----------------------------------------------------------------------------
# the link form
# ----------------------------------------------------------------------------

def _same(a, b):
    return a.shape == b.shape and np.array_equal(a, b)


@pytest.mark.parametrize("name, n", [("textbook", 3), ("blobs", 40), ("moons", 300), ("xor", URL_MAX_POINTS)])
def test_generated_sets_round_trip_exactly(name, n):
    X, y = make_dataset(name, n, 1)
    code = encode_points(X, y)
    X2, y2 = decode_points(code)
    assert _same(X2, X) and _same(y2, y)
    assert set(code) <= set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.")


def test_clicked_points_are_short_in_a_link():
    rng = np.random.default_rng(0)
    X = np.round(rng.uniform(-5, 5, (300, 2)), 2)
    y = np.where(rng.random(300) < 0.5, -1, 1)
    code = encode_points(X, y)
    assert code.startswith("300.2h.")  # two decimals in 16 bits
    assert len(code) < 1700  # 300 points: about 5.5 characters each
    assert _same(decode_points(code)[0], X)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 60), st.integers(0, 7), st.integers(0, 2**31 - 1), st.sampled_from([1.0, 1e3, 1e6, 1e-3]))
def test_any_set_round_trips_exactly(n, decimals, seed, size):
    rng = np.random.default_rng(seed)
    X = rng.normal(0, size, (n, 2))
    if decimals < 7:
        X = np.round(X, decimals)
    y = np.where(rng.random(n) < 0.5, -1, 1)
    X2, y2 = decode_points(encode_points(X, y))
    assert _same(X2, X) and _same(y2, y)


def _code(n, kind, raw: bytes) -> str:
    return f"{n}.{kind}." + base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@pytest.mark.parametrize("text, words", [
    ("", "form"),
    ("abc", "form"),
    ("3.2h", "form"),
    ("x.2h.AAAA", "form"),
    ("3.2q.AAAA", "form"),
    ("3.22h.AAAA", "form"),
    ("0.2h.AAAA", "1 to 500"),
    ("501.2h.AAAA", "1 to 500"),
    ("3.2h.@@@@", "do not decode"),
    ("3.2h.AAAA", "do not decode"),
    ("3.8h." + "A" * 8, "decimals"),
    (_code(3, "2h", b"\x01" + b"\x00" * 11), "12 bytes where 3 points need 13"),
    (_code(3, "2h", b"\x01" + b"\x00" * 13), "14 bytes where 3 points need 13"),
    (_code(1, "0f", b"\x01" + np.array([np.inf, 0.0]).tobytes()), "not finite"),
    ("3.2h." + "A" * 300_000, "too long"),
])
def test_a_damaged_or_hand_edited_link_is_named(text, words):
    with pytest.raises(ValueError, match=words):
        decode_points(text)


def test_a_link_of_exactly_the_right_bytes_decodes():
    raw = np.packbits([1, 0, 1]).tobytes() + np.array([[1, 2], [3, 4], [5, -6]], "<i2").tobytes()
    X, y = decode_points(_code(3, "1h", raw))
    assert X.tolist() == [[0.1, 0.2], [0.3, 0.4], [0.5, -0.6]] and y.tolist() == [1, -1, 1]


def test_only_finite_labelled_points_are_encoded():
    with pytest.raises(ValueError):
        encode_points(np.array([[np.nan, 0.0]]), np.array([1]))
    with pytest.raises(ValueError):
        encode_points(np.array([[0.0, 0.0]]), np.array([0]))


def test_a_cut_link_is_named_as_damaged():
    X, y = make_dataset("blobs", 40, 0)
    code = encode_points(X, y)
    for cut in (code[:-3], code[:-8], code[: len(code) // 2]):
        with pytest.raises(ValueError, match="damaged"):
            decode_points(cut)


def test_the_points_chart_keeps_a_steady_view_for_the_first_points():
    from viz.common import points_figure

    for X in (np.zeros((0, 2)), np.array([[0.3, 0.2]]), np.array([[0.3, 0.2], [0.5, -0.1]])):
        lay = points_figure(X, np.ones(len(X)))["layout"]
        assert lay["xaxis"]["range"] == [-5.0, 5.0] and lay["yaxis"]["range"] == [-5.0, 5.0]
    lay = points_figure(np.array([[9.0, 0.0]]), np.array([1]))["layout"]
    assert lay["xaxis"]["range"][1] >= 10.0


def test_standardize_gives_mean_0_and_deviation_1():
    from datasets.points import standardize

    rng = np.random.default_rng(3)
    X = rng.normal([5.0, -300.0], [0.2, 80.0], size=(50, 2))
    Z, mu, sigma = standardize(X)
    assert np.allclose(Z.mean(axis=0), 0, atol=1e-12) and np.allclose(Z.std(axis=0), 1)
    assert np.allclose(Z * sigma + mu, X)
    Z, mu, sigma = standardize(np.array([[1.0, 7.0], [3.0, 7.0]]))  # a constant column is only centred
    assert Z.tolist() == [[-1.0, 0.0], [1.0, 0.0]] and sigma.tolist() == [1.0, 1.0]
    Z, mu, sigma = standardize(np.zeros((0, 2)))
    assert Z.shape == (0, 2) and mu.tolist() == [0, 0] and sigma.tolist() == [1, 1]


def test_a_click_on_a_standardized_chart_edits_the_raw_points():
    from datasets.points import click_edit_standardized, standardize

    X = np.array([[100.0, 0.001], [300.0, 0.003], [200.0, 0.002], [200.0, 0.005]])
    y = np.array([1, -1, 1, -1])
    Z, mu, sigma = standardize(X)
    # a click on empty space at the standardized origin adds the raw mean
    X2, y2, what = click_edit_standardized(X, y, (0.0, 0.0), -1, (0.01, 0.01))
    assert X2.shape == (5, 2) and np.array_equal(X2[:4], X) and np.allclose(X2[4], mu) and y2.tolist() == [1, -1, 1, -1, -1]
    assert "(standardized units)" in what
    # a click on the third point (in standardized units) removes it, the others kept bit for bit
    X3, y3, what = click_edit_standardized(X, y, tuple(Z[2]), 1, (0.01, 0.01))
    assert np.array_equal(X3, X[[0, 1, 3]]) and y3.tolist() == [1, -1, -1] and what.startswith("removed x₃")
    X4, y4, _ = click_edit_standardized(X, y, tuple(Z[3]), 1, (0.01, 0.01))  # the last one
    assert np.array_equal(X4, X[:3]) and y4.tolist() == [1, -1, 1]
