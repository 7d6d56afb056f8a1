"""The loss-surface explorer: a loss over a 2-D slice of weight space, and the data beside it.

- The (w₁, w₂) slices at each b are drawn in the browser from a scene record (:func:`viz.scene.loss_scene`,
  ``viz/js/loss.js``); here is what that record sends (:func:`colour_tops`, :func:`band_levels`, the chosen
  weight's :func:`subgradient`); the Python references of what the renderer draws (``cone_polygon``,
  ``lines_in_box``, the tests' yardsticks) are in tests/oracles.py.
- The data chart beside them is drawn in the browser too, from its own record (:func:`viz.scene.loss_data_scene`,
  ``viz/js/lossdata.js``): the points, the chosen (w, b)'s boundary, its sides and M (:func:`misclassified`), the
  state in words (its Python twin, ``data_state``, in tests/oracles.py).
- Still Plotly figures: the loss over (θ, b) at a fixed ‖w‖ = r (:func:`theta_figure`) and a 3-D surface of one loss
  (:func:`surface3d_figure`).

Plain dicts, no Streamlit.
"""

from __future__ import annotations

import numpy as np

from core.losses import hinge, hinge_subgradient, perceptron, perceptron_subgradient, zero_one
from core.snapshot import activation
from viz.common import (
    FONT,
    gaps,
    num,
    sub,
    typed_array,
)

NAMES = {"zero_one": "0-1 loss", "perceptron": "perceptron loss", "hinge": "hinge loss"}
SHORT = {"zero_one": "0-1", "perceptron": "perceptron", "hinge": "hinge"}
MODEBAR_PX = 34  # the 3-D view's row of buttons over its title (plotly.js's mode bar: 26 px and its margin)
FORMULAS = {
    "zero_one": "(1/N) Σ [yᵢ(w·xᵢ + b) ≤ 0]",
    "perceptron": "(1/N) Σ max(0, −yᵢ(w·xᵢ + b))",
    "hinge": "(1/N) Σ max(0, 1 − yᵢ(w·xᵢ + b)) + λ/2‖w‖²",
}
COLOURSCALE = [[0.0, "#ffffff"], [0.15, "#fde0c5"], [0.4, "#f59e72"], [0.7, "#d1495b"], [1.0, "#5c1a33"]]
LINE_COLOUR = "rgba(30, 30, 30, 0.28)"
CONE_COLOUR = "rgba(0, 158, 115, 0.30)"  # Okabe–Ito bluish green
PATH_COLOUR = "#0072B2"
CHOSEN_COLOUR = "#E69F00"
MAX_LINES = 300  # point lines drawn at most (evenly chosen); more would hide the surface
N_BANDS = 10  # colours of the filled level bands


def _direct(loss: str, W, b, X, y, lam: float):
    if loss == "zero_one":
        return zero_one(W, b, X, y)
    if loss == "perceptron":
        return perceptron(W, b, X, y)
    return hinge(W, b, X, y, lam=lam)


def subgradient(loss: str, w, b: float, X, y, lam: float) -> np.ndarray:
    """The subgradient's w part at (w, b) (0 for the 0-1 loss, whose gradient is 0 wherever it exists)."""
    if loss == "zero_one":
        return np.zeros(2)
    if loss == "perceptron":
        return perceptron_subgradient(np.asarray(w, dtype=float), b, X, y)[0]
    return hinge_subgradient(np.asarray(w, dtype=float), b, X, y, lam=lam)[0]


def _round(a, nd: int = 4) -> list:
    return np.round(np.asarray(a, dtype=float), nd).tolist()


def theta_figure(X, y, panels: dict[str, np.ndarray], thetas, bs, *, r: float, trajectory=None,
                 lit: int | None = None, height: int = 640) -> dict:
    """The loss over (θ, b) with ‖w‖ = r fixed: direction against bias, one panel per loss.

    Point i's line is the curve b = −r(cos θ xᵢ₁ + sin θ xᵢ₂); the band between the highest such curve of
    the +1 points and the lowest of the −1 points is where every point is correct.

    Parameters
    ----------
    panels : dict loss name -> ndarray of shape (len(bs), len(thetas))
    thetas : ndarray of shape (p,), radians
    bs : ndarray of shape (q,), increasing
    r : float
    trajectory : tuple (W, B, label), optional
    lit : int, optional
    height : int
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    thetas, bs = np.asarray(thetas, dtype=float), np.asarray(bs, dtype=float)
    names = list(panels)
    k = len(names)
    gap = 0.06 if k == 1 else 0.14  # room for each colour bar and the next panel's b title
    width = (1 - gap * (k - 1)) / k
    deg = np.degrees(thetas)
    n = len(y)
    drawn = np.unique(np.linspace(0, n - 1, min(n, 80)).round().astype(int))
    curves = -r * (np.cos(thetas)[None, :] * X[:, :1] + np.sin(thetas)[None, :] * X[:, 1:2])  # (n, p)
    lo_band = np.where((y > 0)[:, None], curves, -np.inf).max(axis=0)  # b above every +1 curve
    hi_band = np.where((y < 0)[:, None], curves, np.inf).min(axis=0)  # and below every −1 curve
    ok = lo_band < hi_band
    data, layout = [], {}
    for p, name in enumerate(names):
        ax = "" if p == 0 else str(p + 1)
        xa, ya = f"x{ax}", f"y{ax}"
        Z = panels[name]
        data.append({"type": "heatmap", "x": _round(deg, 2), "y": _round(bs), "z": typed_array(np.asarray(Z, np.float32)),
                     "zmin": 0.0, "zmax": float(np.percentile(Z, 99)) if name != "zero_one" else 1.0,
                     "colorscale": COLOURSCALE, "zsmooth": False, "xaxis": xa, "yaxis": ya,
                     "colorbar": {"len": 0.8, "thickness": 12, "x": (p + 1) * (width + gap) - gap + 0.005},
                     "hovertemplate": "θ = %{x:.1f}°, b = %{y:.3g}: " + NAMES[name] + " = %{z:.4g}<extra></extra>"})
        cx = np.column_stack([np.broadcast_to(deg, (drawn.size, deg.size)), np.full((drawn.size, 1), np.nan)])
        cy = np.column_stack([curves[drawn], np.full((drawn.size, 1), np.nan)])
        data.append({"type": "scatter", "mode": "lines", "name": "a point's curve yᵢ(w·xᵢ + b) = 0",
                     "x": gaps(cx.ravel(), 2), "y": gaps(np.clip(cy, bs[0], bs[-1]).ravel()),
                     "line": {"color": LINE_COLOUR, "width": 1}, "hoverinfo": "skip", "showlegend": p == 0,
                     "xaxis": xa, "yaxis": ya})
        bx = np.r_[deg[ok], deg[ok][::-1]]
        by = np.r_[np.clip(lo_band[ok], bs[0], bs[-1]), np.clip(hi_band[ok], bs[0], bs[-1])[::-1]]
        data.append({"type": "scatter", "mode": "lines", "fill": "toself", "fillcolor": CONE_COLOUR,
                     "name": "every point correct", "x": _round(bx, 2), "y": _round(by),
                     "line": {"color": "rgba(0,158,115,0.9)", "width": 1.5}, "hoverinfo": "skip",
                     "showlegend": p == 0, "xaxis": xa, "yaxis": ya})
        if trajectory is not None:
            W, B = np.asarray(trajectory[0], dtype=float), np.asarray(trajectory[1], dtype=float)
            norms = np.linalg.norm(W, axis=1)
            moving = norms > 0
            # (w, b) and (r·w/‖w‖, r·b/‖w‖) are the same classifier: the state on this slice
            data.append({"type": "scatter", "mode": "lines+markers", "name": f"{trajectory[2]}, scaled to ‖w‖ = r",
                         "x": _round(np.degrees(np.arctan2(W[moving, 1], W[moving, 0])), 2),
                         "y": _round(np.clip(r * B[moving] / norms[moving], bs[0], bs[-1])),
                         "line": {"color": PATH_COLOUR, "width": 1.5}, "marker": {"size": 5, "color": PATH_COLOUR},
                         "hoverinfo": "skip", "showlegend": p == 0, "xaxis": xa, "yaxis": ya})
        if lit is not None and 0 <= lit < n:
            data.append({"type": "scatter", "mode": "lines", "name": f"x{sub(lit + 1)}'s curve",
                         "x": _round(deg, 2), "y": _round(np.clip(curves[lit], bs[0], bs[-1])),
                         "line": {"color": CHOSEN_COLOUR, "width": 4}, "hoverinfo": "skip", "showlegend": p == 0,
                         "xaxis": xa, "yaxis": ya})
        lo = p * (width + gap)
        axis = {"fixedrange": True, "tickfont": {"size": 14}, "showgrid": False}
        layout[f"xaxis{ax}"] = {**axis, "domain": [lo, lo + width - 0.01], "range": [-180, 180], "anchor": ya,
                                "title": {"text": "direction θ of w (degrees)", "font": {"size": 16}},
                                "tickvals": [-180, -90, 0, 90, 180]}
        layout[f"yaxis{ax}"] = {**axis, "range": [float(bs[0]), float(bs[-1])], "anchor": xa,
                                "title": {"text": "b", "font": {"size": 17}}}
    layout.update({
        "height": height, "font": FONT, "margin": {"l": 60, "r": 40, "t": 40, "b": 110},
        "paper_bgcolor": "white", "plot_bgcolor": "white", "hovermode": "closest", "dragmode": False,
        "legend": {"orientation": "h", "x": 0.0, "y": -0.14, "xanchor": "left", "yanchor": "top",
                   "font": {"size": 14}},
        "annotations": [{"text": f"<b>{NAMES[nm]}</b> at ‖w‖ = {num(r)}", "xref": "paper", "yref": "paper",
                         "x": p * (width + gap) + width / 2, "y": 1.0, "yshift": 6, "xanchor": "center",
                         "yanchor": "bottom", "showarrow": False, "font": {"size": 16}} for p, nm in enumerate(names)],
        "meta": {"view": "loss_surface", "slice": "theta", "losses": names, "r": r, "n_points": n},
    })
    return {"data": data, "layout": layout}


def surface3d_figure(name: str, Z: np.ndarray, us, vs, *, xlabel: str, ylabel: str, where: str = "",
                     height: int = 640) -> dict:
    """One loss as a 3-D surface over the slice (drag to turn it); ``where`` names the slice (b = …, ‖w‖ = …)."""
    return {
        "data": [{"type": "surface", "x": _round(us), "y": _round(vs), "z": typed_array(np.asarray(Z, np.float32)),
                  "colorscale": COLOURSCALE, "showscale": True,
                  "contours": {"z": {"show": True, "usecolormap": True, "project": {"z": True}}},
                  "hovertemplate": f"{xlabel} = %{{x:.3g}}, {ylabel} = %{{y:.3g}}: loss = %{{z:.4g}}<extra></extra>"}],
        # (the title under the row of 3-D buttons plotly.js shows at the figure's top right on hover, which would lie
        # over a long title in a narrow column: MODEBAR_PX for them, the title under)
        "layout": {"height": height, "font": FONT, "margin": {"l": 40, "r": 10, "t": 50 + MODEBAR_PX, "b": 10},
                   "title": {"text": f"{NAMES[name]} {FORMULAS[name]}" + (f", {where}" if where else ""),
                             "font": {"size": 17}, "yref": "container", "y": 1, "yanchor": "top",
                             "pad": {"t": MODEBAR_PX}},
                   "scene": {"xaxis": {"title": {"text": xlabel}}, "yaxis": {"title": {"text": ylabel}},
                             "zaxis": {"title": {"text": "loss"}}, "aspectmode": "manual",
                             "aspectratio": {"x": 1, "y": 1, "z": 0.6}},
                   "meta": {"view": "loss_surface_3d", "loss": name}},
    }


def misclassified(X, y, w, b: float) -> np.ndarray:
    """M at (w, b): the points with yᵢ(w·xᵢ + b) ≤ 0 (those the 0-1 loss counts), their margins summed as the core
    sums them (``core.snapshot.activation``).

    Parameters
    ----------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    w : ndarray of shape (2,)
    b : float

    Returns
    -------
    ndarray of shape (k,), int
        The indices of M, increasing.
    """
    return np.flatnonzero(np.asarray(y) * activation(np.asarray(X, dtype=float), w, b) <= 0)


def losses_at(names, w, b: float, X, y, lam: float) -> dict[str, float]:
    """Each loss's value at one (w, b)."""
    return {nm: float(_direct(nm, np.asarray(w, dtype=float), b, X, y, lam)) for nm in names}


EXPLAIN = {
    "zero_one": ("The 0-1 loss counts mistakes. It is flat between the points' lines and jumps across each, so "
                 "its gradient is 0 wherever it exists: gradient descent gets no direction from it."),
    "perceptron": ("The perceptron loss is convex and piecewise linear, with a kink on every point's line "
                   "(not differentiable where yᵢ(w·xᵢ + b) = 0). It is 0 on the whole green cone of weights that "
                   "classify every point correctly, so the algorithm does not prefer any one separating w."),
    "hinge": ("The hinge loss max(0, 1 − yᵢ(w·xᵢ + b)) asks for a margin: it is 0 only where every point is "
              "correct by at least 1, so its kinks sit where yᵢ(w·xᵢ + b) = 1, beside each point's line = 0 drawn "
              "here. With λ/2‖w‖² it has one minimiser: the soft-margin SVM's w."),
}


def default_bs(us, X, m: int = 17) -> np.ndarray:
    """The biases of the b slider: m values symmetric about 0, as far out as w·x reaches on the weight grid.

    Parameters
    ----------
    us : ndarray
        The w₁ grid (the w₂ grid is the same).
    X : ndarray of shape (n, 2)
    m : int
    """
    reach = float(np.max(np.abs(us))) * float(np.median(np.linalg.norm(np.asarray(X, dtype=float), axis=1)))
    half = float(f"{max(reach, 1e-3):.2g}")
    return np.round(np.linspace(-half, half, m), 6)


TOP_SAMPLE = 21  # the colour scale's top is the 99th percentile of the loss on this many weights a side, every b


def colour_tops(name: str, X, y, us, vs, bs, lams=(0.0,)) -> list[float]:
    """The top of a loss's colour scale over the (w₁, w₂) slices at every b, for each λ of ``lams``: the 99th
    percentile of its values on a TOP_SAMPLE × TOP_SAMPLE sample of the grid (1 for the 0-1 loss), so one far
    corner does not wash out the rest. Only the hinge loss depends on λ (its λ/2‖w‖²).

    Parameters
    ----------
    name : {"zero_one", "perceptron", "hinge"}
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,)
    us, vs : ndarray
        The w₁ and w₂ grids.
    bs : ndarray of shape (m,)
    lams : sequence of float
    """
    if name == "zero_one":
        return [1.0] * len(lams)
    pick = lambda g: np.asarray(g, dtype=float)[np.unique(np.linspace(0, len(g) - 1, TOP_SAMPLE).round().astype(int))]  # noqa: E731
    U, V = np.meshgrid(pick(us), pick(vs))
    W = np.stack([U.ravel(), V.ravel()], axis=1)
    base = np.concatenate([_direct(name, W, float(bv), X, y, 0.0) for bv in np.asarray(bs, dtype=float)])
    if name != "hinge":
        return [max(float(np.percentile(base, 99)), 1e-12)] * len(lams)
    sq = np.tile((W * W).sum(axis=1), len(bs))  # ‖w‖² of each sampled weight, at every b
    return [max(float(np.percentile(base + 0.5 * float(lam) * sq, 99)), 1e-12) for lam in lams]  # + λ/2‖w‖²


def band_levels(name: str, top: float, n: int) -> tuple[float, float]:
    """The filled bands' levels as (first, step): N_BANDS equal bands from 0 to ``top``; for the 0-1 loss, whose
    values are k/n, every level lies halfway between two of them, so 0 and 1 mistake always differ."""
    if name == "zero_one":
        q = max(1, round(top * n / N_BANDS))  # mistakes per band
        return (q - 0.5) / n, q / n
    return top / N_BANDS, top / N_BANDS
