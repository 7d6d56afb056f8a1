"""Tests for the ``datasets`` package: generators and registry."""

from __future__ import annotations

import dataclasses
import inspect
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

import datasets
from datasets import (
    REGISTRY,
    DatasetSpec,
    ParamSpec,
    make_blobs,
    make_circles,
    make_dataset,
    make_moons,
    make_outlier,
    make_separable,
    make_textbook,
    make_xor,
)
from datasets.generators import _hidden_line

NAMES = list(REGISTRY)
RANDOM_NAMES = [name for name in NAMES if name != "textbook"]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _make(name: str, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Call the registry's generator directly with its default parameters."""
    spec = REGISTRY[name]
    return spec.make(n, seed=seed, **spec.defaults())


def _check_xy(X: np.ndarray, y: np.ndarray, n: int) -> None:
    assert isinstance(X, np.ndarray) and isinstance(y, np.ndarray)
    assert X.shape == (n, 2)
    assert y.shape == (n,)
    assert X.dtype == np.float64
    assert y.dtype == np.int64
    assert X.flags.c_contiguous and y.flags.c_contiguous
    assert np.all(np.isfinite(X))
    assert set(np.unique(y).tolist()) == {-1, 1}  # both classes, nothing else


def _strictly_separable(X: np.ndarray, y: np.ndarray) -> bool:
    """Exact LP check: is there (w, b) with y_i (w . x_i + b) >= 1 for all i?"""
    A_ub = -y[:, None] * np.column_stack([X, np.ones(len(y))])
    res = linprog(
        np.zeros(3),
        A_ub=A_ub,
        b_ub=-np.ones(len(y)),
        bounds=[(None, None)] * 3,
        method="highs",
    )
    assert res.status in (0, 2), res.message  # 0 feasible, 2 infeasible
    return res.status == 0


def _hard_margin_svc(X: np.ndarray, y: np.ndarray) -> SVC:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return SVC(kernel="linear", C=1e10, tol=1e-8, max_iter=200_000).fit(X, y)


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------


def test_registry_order_and_types():
    assert NAMES == [
        "separable",
        "blobs",
        "xor",
        "circles",
        "moons",
        "outlier",
        "textbook",
    ]
    for name, spec in REGISTRY.items():
        assert isinstance(spec, DatasetSpec)
        assert spec.name == name
        assert spec.label and spec.description.endswith(".")
        assert all(isinstance(p, ParamSpec) for p in spec.params)
        assert spec.n_min <= spec.default_n <= spec.n_max
        assert spec.fixed_n == (name == "textbook")
        # the make_* functions are exported from the package
        assert getattr(datasets, spec.make.__name__) is spec.make
    assert REGISTRY["separable"].label == "Separable (margin γ)"


def test_registry_separable_flags():
    flags = {name: spec.separable for name, spec in REGISTRY.items()}
    assert flags == {
        "separable": True,
        "textbook": True,
        "xor": False,
        "circles": False,
        "outlier": False,
        "blobs": None,
        "moons": False,
    }


def test_registry_is_frozen():
    spec = REGISTRY["blobs"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.default_n = 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.params[0].max = 99


@pytest.mark.parametrize("name", NAMES)
def test_param_specs_match_generator_signature(name):
    spec = REGISTRY[name]
    sig = inspect.signature(spec.make)
    keyword_only = [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]
    assert list(sig.parameters)[0] == "n"
    assert keyword_only == [p.name for p in spec.params] + ["seed"]
    assert sig.parameters["seed"].default == 0
    for p in spec.params:
        assert sig.parameters[p.name].default == p.default
        assert p.min <= p.default <= p.max
        assert 0 < p.step <= p.max - p.min


# ---------------------------------------------------------------------------
# shapes, dtypes, labels, reproducibility -- every registry entry
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_default_output(name):
    spec = REGISTRY[name]
    X, y = make_dataset(name, spec.default_n, 0)
    _check_xy(X, y, spec.default_n)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), data=st.data(), seed=SEEDS)
def test_shapes_dtypes_labels_any_n(name, data, seed):
    spec = REGISTRY[name]
    n = data.draw(st.integers(spec.n_min, min(spec.n_max, 150)), label="n")
    X, y = _make(name, n, seed)
    _check_xy(X, y, n)
    # same seed, same data
    X2, y2 = _make(name, n, seed)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    if name != "textbook":  # classes balanced to within one point
        assert abs(int(np.sum(y == 1)) - int(np.sum(y == -1))) <= 1


@pytest.mark.parametrize("name", RANDOM_NAMES)
def test_different_seed_different_data(name):
    X0, y0 = _make(name, 40, seed=0)
    X1, y1 = _make(name, 40, seed=1)
    assert not np.array_equal(X0, X1)


@pytest.mark.parametrize("name", RANDOM_NAMES)
def test_does_not_touch_global_rng(name):
    np.random.seed(123)
    expected = np.random.random()
    np.random.seed(123)
    _make(name, 50, seed=7)
    assert np.random.random() == expected


@pytest.mark.parametrize("name", RANDOM_NAMES)
def test_roughly_in_box(name):
    for seed in range(5):
        X, _ = _make(name, 200, seed)
        assert np.abs(X).max() <= 4.0
    X, _ = _make(name, 200, seed=0)
    assert np.abs(X).max() >= 0.5  # not collapsed to a point either


def test_textbook_exact():
    X, y = make_textbook()
    np.testing.assert_array_equal(X, [[3.0, 3.0], [4.0, 3.0], [1.0, 1.0]])
    np.testing.assert_array_equal(y, [1, 1, -1])
    X5, y5 = make_textbook(3, seed=5)  # seed ignored
    np.testing.assert_array_equal(X5, X)
    np.testing.assert_array_equal(y5, y)
    Xd, yd = make_dataset("textbook", 3, 0)
    np.testing.assert_array_equal(Xd, X)


# ---------------------------------------------------------------------------
# bad inputs
# ---------------------------------------------------------------------------


BAD_N = [0, 1, -5, 100_001, True, 2.5, math.nan, math.inf, "10", None]


@pytest.mark.parametrize("name", [n for n in RANDOM_NAMES if n != "outlier"])
@pytest.mark.parametrize("n", BAD_N)
def test_bad_n(name, n):
    with pytest.raises(ValueError, match=r"^n must be an integer between 2 and 100000"):
        _make(name, n)


def test_bad_n_message_and_accepted_n():
    with pytest.raises(ValueError) as exc:
        make_blobs(0)
    assert str(exc.value) == "n must be an integer between 2 and 100000, got 0"
    # integral floats and numpy integers are fine
    assert make_blobs(40.0)[0].shape == (40, 2)
    assert make_xor(np.int64(7))[0].shape == (7, 2)
    assert make_separable(100_000)[0].shape == (100_000, 2)


@pytest.mark.parametrize("n", [2, 0, 1, 100_001, 2.5, True])
def test_bad_n_outlier(n):
    with pytest.raises(ValueError, match=r"^n must be an integer between 3 and"):
        make_outlier(n)


@pytest.mark.parametrize("n", [2, 4, 40, 3.5, True, "3"])
def test_bad_n_textbook(n):
    with pytest.raises(ValueError, match=r"^n must be exactly 3.*got"):
        make_textbook(n)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [-1, 1.5, 2.0, True, "0", None])
def test_bad_seed(name, seed):
    with pytest.raises(ValueError, match=r"^seed must be a non-negative integer"):
        REGISTRY[name].make(REGISTRY[name].default_n, seed=seed)


@pytest.mark.parametrize(
    ("func", "kwargs", "pattern"),
    [
        (make_blobs, {"noise": -1}, r"^noise must be >= 0, got -1$"),
        (make_xor, {"noise": -0.1}, r"^noise must be >= 0"),
        (make_circles, {"noise": -1}, r"^noise must be >= 0"),
        (make_moons, {"noise": -1}, r"^noise must be >= 0"),
        (make_blobs, {"noise": math.nan}, r"^noise must be a finite number, got nan"),
        (make_moons, {"noise": math.inf}, r"^noise must be a finite number"),
        (make_xor, {"noise": "0.1"}, r"^noise must be a finite number"),
        (make_circles, {"factor": 0}, r"^factor must be > 0 and < 1, got 0$"),
        (make_circles, {"factor": 1}, r"^factor must be > 0 and < 1"),
        (make_circles, {"factor": math.nan}, r"^factor must be a finite number"),
        (make_separable, {"margin": 0}, r"^margin must be > 0 and <= 1, got 0$"),
        (make_separable, {"margin": 1.5}, r"^margin must be > 0 and <= 1"),
        (make_separable, {"margin": -0.3}, r"^margin must be > 0 and <= 1"),
        (make_separable, {"margin": math.inf}, r"^margin must be a finite number"),
        (make_outlier, {"margin": 2}, r"^margin must be > 0 and <= 1"),
        (make_outlier, {"margin": True}, r"^margin must be a finite number"),
    ],
)
def test_bad_parameters(func, kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        func(20, **kwargs)


def test_make_dataset_unknown_name():
    with pytest.raises(ValueError) as exc:
        make_dataset("foo", 10, 0)
    assert str(exc.value) == (
        "unknown dataset 'foo'; choose one of: separable, blobs, xor, circles, moons, outlier, textbook"
    )


def test_make_dataset_unknown_param():
    with pytest.raises(ValueError, match=r"unknown parameter 'sigma'.*'blobs'.*noise"):
        make_dataset("blobs", 10, 0, sigma=0.3)
    with pytest.raises(ValueError, match=r"unknown parameter 'noise'.*'textbook'"):
        make_dataset("textbook", 3, 0, noise=0.3)


@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("separable", {"margin": 5}, "margin γ must be between 0.05 and 1, got 5"),
        ("outlier", {"margin": 0.01}, "margin γ must be between 0.05 and 1, got 0.01"),
        ("blobs", {"noise": 2.0}, "noise σ must be between 0 and 1.5, got 2.0"),
        ("circles", {"factor": 0.95}, "inner radius ratio must be between 0.1 and 0.9"),
        ("moons", {"noise": math.nan}, "noise σ must be a finite number, got nan"),
    ],
)
def test_make_dataset_out_of_range(name, params, message):
    with pytest.raises(ValueError) as exc:
        make_dataset(name, 20, 0, **params)
    assert str(exc.value).startswith(message)


def test_make_dataset_matches_generators():
    X, y = make_dataset("circles", 30, 4, factor=0.3)
    Xr, yr = make_circles(30, noise=0.1, factor=0.3, seed=4)
    np.testing.assert_array_equal(X, Xr)
    np.testing.assert_array_equal(y, yr)
    X, y = make_dataset("separable", 25, 9)  # defaults filled in
    np.testing.assert_array_equal(X, make_separable(25, margin=0.3, seed=9)[0])


# ---------------------------------------------------------------------------
# separability and margins
# ---------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(
    margin=st.floats(min_value=0.05, max_value=1.0),
    seed=SEEDS,
    n=st.integers(min_value=2, max_value=60),
)
def test_separable_margin(margin, seed, n):
    X, y = make_separable(n, margin=margin, seed=seed)
    # exact: the hidden line has margin exactly `margin`, attained by each class
    u, c = _hidden_line(np.random.default_rng(seed))
    functional = y * (X @ u + c)
    for label in (1, -1):
        assert functional[y == label].min() == pytest.approx(margin, abs=1e-9)
    assert np.linalg.norm(X, axis=1).max() < 3.0
    # reference: hard-margin SVM separates the data with margin >= `margin`
    svc = _hard_margin_svc(X, y)
    assert np.array_equal(svc.predict(X), y)
    assert 1.0 / np.linalg.norm(svc.coef_) >= margin - 1e-6
    assert _strictly_separable(X, y)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [3, 4, 40])
def test_outlier_not_separable(seed, n):
    X, y = make_outlier(n, margin=0.3, seed=seed)
    # the first n - 1 rows are the separable data; the last is a +1 outlier
    Xs, ys = make_separable(n - 1, margin=0.3, seed=seed)
    np.testing.assert_array_equal(X[:-1], Xs)
    np.testing.assert_array_equal(y[:-1], ys)
    assert y[-1] == 1
    # deep on the -1 side of the hidden line, beyond the margin
    u, c = _hidden_line(np.random.default_rng(seed))
    assert X[-1] @ u + c <= -0.3
    # ... and no line separates the data
    assert not _strictly_separable(X, y)
    svc = _hard_margin_svc(X, y)
    assert np.mean(svc.predict(X) == y) < 1.0


@pytest.mark.parametrize("name", ["xor", "circles"])
def test_never_separable_sets(name):
    X, y = _make(name, 40, seed=0)
    assert not _strictly_separable(X, y)


def test_separable_flag_none_depends_on_noise():
    # tiny noise: blobs are separable; large noise: they overlap
    assert _strictly_separable(*make_blobs(40, noise=0.05, seed=0))
    assert not _strictly_separable(*make_blobs(40, noise=1.5, seed=0))
    assert not _strictly_separable(*make_moons(60, noise=0.1, seed=0))
