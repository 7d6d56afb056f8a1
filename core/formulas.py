"""The seeds' formulas, each written once.

Every path of the core computes these here: the online, block and batch perceptron, the run's stored loss, the
loss surfaces, the exact SVM and hinge SGD, and the scene records the pages draw from. Where speed needs a second
form (the perceptron's scalar loop, the loss surfaces' exact runs), a test holds it equal to the formula here.

Notation (the seeds'): w, b the weights and bias; τ the step size; B the batch size; M the set of mistakes;
α, η the dual coefficients and step; ξ the slacks; C the SVM's penalty; m = yᵢ(w·xᵢ + b) a point's margin
(``core.snapshot.activation`` sums w·x + b).
"""

from __future__ import annotations

import numpy as np


def perceptron_update(w: np.ndarray, b: float, scale: float, ys: np.ndarray, Xs: np.ndarray,
                      fit_intercept: bool) -> tuple[np.ndarray, float]:
    """One perceptron update on the points of M.

    Parameters
    ----------
    w : ndarray of shape (d,)
    b : float
    scale : float
        τ online; τ/B (mini-batch) or τ/N (batch) for the mean loss's gradient, τ for the sum's.
    ys : ndarray of shape (k,)
        The labels ±1 (as floats) of the k points of M updated on.
    Xs : ndarray of shape (k, d)
        Those points.
    fit_intercept : bool
        Learn b, or keep it.

    Returns
    -------
    w : ndarray of shape (d,)
    b : float
    """
    # w ← w + s·Σ_{i∈M} yᵢxᵢ, b ← b + s·Σ_{i∈M} yᵢ, s = τ (online), τ/B or τ/N (mean) or τ (sum)
    w = w + scale * (ys @ Xs)
    if fit_intercept:
        b = b + scale * ys.sum()
    return w, b


def perceptron_loss(m: np.ndarray) -> np.ndarray:
    """The mean perceptron loss of margins ``m`` of shape (..., N): shape (...)."""
    # (1/N) Σᵢ max(0, −mᵢ), m = yᵢ(w·xᵢ + b)
    return np.maximum(0.0, -m).mean(axis=-1)


def slacks(m: np.ndarray) -> np.ndarray:
    """The slacks (hinge terms) of margins ``m``, same shape."""
    # ξᵢ = max(0, 1 − mᵢ), m = yᵢ f(xᵢ)
    return np.maximum(0.0, 1.0 - m)


def hinge_loss(m: np.ndarray) -> np.ndarray:
    """The mean hinge loss of margins ``m`` of shape (..., N), without a regulariser: shape (...)."""
    # (1/N) Σᵢ max(0, 1 − mᵢ) = (1/N) Σᵢ ξᵢ
    return slacks(m).mean(axis=-1)


def l2_penalty(w_sq, lam: float):
    """The regulariser of the hinge loss's objective, for ‖w‖² ``w_sq`` (float or array): same shape."""
    # λ/2 ‖w‖²
    return 0.5 * lam * w_sq


def soft_margin_objective(w_sq, C: float, xi: np.ndarray):
    """The soft-margin SVM's objective.

    Parameters
    ----------
    w_sq : float or ndarray of shape (...)
        ‖w‖² (in feature space for a kernel).
    C : float
        The penalty; math.inf for the hard margin, where every ξ is 0 and only ½‖w‖² counts.
    xi : ndarray of shape (..., N)
        The slacks ξ.

    Returns
    -------
    float or ndarray of shape (...)
    """
    # ½‖w‖² + C Σᵢ ξᵢ
    return 0.5 * w_sq + (0.0 if np.isinf(C) else C * xi.sum(axis=-1))


def dual_alpha(counts: np.ndarray, eta: float) -> np.ndarray:
    """α of the dual perceptron after its updates, from the number of updates on each point.

    Parameters
    ----------
    counts : ndarray of shape (..., N)
        cᵢ, the updates on xᵢ so far.
    eta : float

    Returns
    -------
    ndarray of shape (..., N)
    """
    # each update on a mistake yᵢf(xᵢ) ≤ 0 is αᵢ ← αᵢ + η (and b ← b + η·yᵢ); from α = 0 that is αᵢ = η·cᵢ,
    # formed as one product (η added cᵢ times would round differently from run to run)
    return eta * counts
