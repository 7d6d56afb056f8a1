"""What the pages build from new inputs: pure functions of their arguments, no Streamlit.

The pages cache these results (``st.cache_resource``) and compute them with
:func:`glue.workers.offload`, in a worker process, so a build for one student does not hold up
the other sessions' reruns. Each function here is the body of a page's cached builder.
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np

from core.bounds import mistake_bound, separable_by_run
from core.dual import gram, primal_agreement, run_dual, separable_in_feature_space
from core.losses import grid_around, surface, theta_grid
from core.perceptron import run_perceptron
from core.svm import C_GRID, HingeRun, constant_eta_fits, fit_svm, hinge_sgd, path_of, svm_grid
from glue.options import TAUS, VARIANT_LABELS
from viz.common import num, projector, serialized
from viz.dual import agreement_text, cost_lines, dual_summary, dual_table
from viz.losses import colour_tops, default_bs, surface3d_figure, theta_figure
from viz.perceptron import bound_applies, bound_line, bound_run_kind, conventions, run_summary
from viz.scene import (
    assemble,
    compare_record,
    compare_scene,
    dual_lines_overflow,
    dual_scene,
    loss_data_scene,
    loss_scene,
    run_record,
    sgd_scene,
    svm_scene,
)
from viz.svm import sgd_summary

SCALE = 1.3  # presentation mode: fonts, markers, lines and height of the charts (viz.common.projector)
STILL_GRID = 201  # the loss page's θ slice and 3-D view are one surface each
PATH_STEPS = 120  # states of the loss page's trajectory drawn (each a marker the b slider redraws)


def sized(fig: dict, big: bool) -> dict:
    """``fig`` for a projector when ``big`` (presentation mode), else ``fig`` itself."""
    return projector(fig, SCALE) if big else fig


def perceptron_runs(X, y, params: tuple, taus: tuple):
    """Run the perceptron for each τ of ``taus`` (a share of the page's list, in one worker process).

    Parameters
    ----------
    X : ndarray of shape (N, 2)
    y : ndarray of shape (N,)
    params : tuple of (name, value)
        ``run_perceptron``'s keyword arguments but τ.
    taus : tuple of float

    Returns
    -------
    records : list of viz.scene.PerceptronRun
        Each run's record for the scene.
    words : dict
        {τ: ((kind, status), steps run, (kind, bound text))}.
    bound : core.bounds.MistakeBound or None
        Where it applies to the runs.
    conventions : str
    why : str
        Why the bound does not apply to the runs ("" where it does).
    """
    trajs = [run_perceptron(X, y, tau=float(t), **dict(params)) for t in taus]
    traj = trajs[0]
    points = (np.ascontiguousarray(X, dtype=float).tobytes(), np.ascontiguousarray(y, dtype=float).tobytes(), len(y))
    fit_b = bool(traj.problem.fit_intercept)
    bound = None
    if bound_run_kind(traj)[0]:  # an online run from zero: the bound can speak to it
        try:
            bound = _bound(*points, fit_b)
        except ValueError:  # the max-margin solve failed to floating-point accuracy: the page goes on without it
            bound = None
    applies, why = bound_applies(traj, bound)
    shown = bound if applies else None
    separable = _separable(*points, fit_b, float(traj.B[0]))
    words = {float(t.tau): (run_summary(t, separable), t.n_steps, bound_line(t, bound)) for t in trajs}
    return [run_record(t) for t in trajs], words, shown, conventions(traj), why


# what depends on the points (and whether b is learned, or where it starts) alone, kept by the process that computed
# it (the convex hulls behind both were most of a new variant's first record: bench/RESULTS.md); the last 4 and 8
# inputs
@functools.lru_cache(maxsize=4)
def _bound(xbytes: bytes, ybytes: bytes, n: int, fit_intercept: bool):
    """:func:`core.bounds.mistake_bound` of the points whose float64 bytes are ``xbytes`` and ``ybytes`` (n rows); its
    ``w`` read-only (the one result is shared by every build in this process)."""
    bound = mistake_bound(np.frombuffer(xbytes).reshape(n, -1), np.frombuffer(ybytes), fit_intercept=fit_intercept)
    np.asarray(bound.w).setflags(write=False)
    return bound


@functools.lru_cache(maxsize=8)
def _separable(xbytes: bytes, ybytes: bytes, n: int, fit_intercept: bool, b0: float) -> bool | None:
    """:func:`core.bounds.separable_by_run` of those points."""
    return separable_by_run(np.frombuffer(xbytes).reshape(n, -1), np.frombuffer(ybytes), fit_intercept=fit_intercept,
                            b0=b0)


def perceptron_page(X, y, params: tuple, taus: tuple, follow: str, share=None, labels: tuple[str, str] | None = None,
                    partial: bool = False, ahead: tuple[str, ...] = ()):
    """Run the perceptron for every τ of ``taus`` and build what the Perceptron page shows.

    ``share(fn, X, y, params, chunk)`` runs :func:`perceptron_runs` on a chunk of the τs (in a worker
    process, several at once); None runs them all here. ``labels``: the labels of the page's variant and B controls,
    which the record names with the variant's options (:class:`viz.scene.PerceptronScene`'s ``memo``), so that the
    browser can show it again when those controls come back to its variant and B. ``partial``: ``taus`` is the
    page's τ alone, sent before the others (:class:`viz.scene.PerceptronScene`'s ``partial``). ``ahead``: the variants
    the page makes ahead, when the chart asks (the memo's ``ahead``).

    Returns
    -------
    tuple
        (the scene record as bytes (:mod:`viz.scene`; the page sets how it is shown with
        :func:`viz.scene.with_view`), {τ: ((kind, status), steps run, (kind, bound text))}, conventions text).
    """
    if share is None:
        parts = [perceptron_runs(X, y, params, taus)]
    else:
        parts = share(perceptron_runs, X, y, params, taus)
    records = [r for part in parts for r in part[0]]
    words = {k: v for part in parts for k, v in part[1].items()}
    memo = None if labels is None else {"key": memo_key(X, y, params), "follow": labels[0],
                                        "batch": labels[1], "options": {text: v for v, text in VARIANT_LABELS.items()},
                                        "ahead": list(ahead)}
    scene = assemble(X, y, records, parts[0][2], follow=follow, bound_note=parts[0][4], memo=memo,
                     partial=partial).to_bytes()
    return scene, words, parts[0][3]


def run_params(variant: str, batch: int, settings: tuple) -> tuple:
    """The Perceptron page's settings of a run: the ``variant``, B (``batch``, in 1..N: a mini-batch's alone, 1 for the
    others) and the page's other ``settings`` ((name, value) pairs, in the page's order: the key of its cache)."""
    return ("variant", variant), ("batch_size", batch if variant == "minibatch" else 1), *settings


def settings_key(X, y, params: tuple, leave_out: tuple[str, ...] = ()) -> str:
    """The points and the settings ``params`` ((name, value) pairs) but those named in ``leave_out``, hashed (16 hex
    digits)."""
    if isinstance(leave_out, str):
        raise TypeError("leave_out is a tuple of names")
    h = hashlib.sha256(np.ascontiguousarray(X, dtype=float).tobytes())
    h.update(np.ascontiguousarray(y, dtype=float).tobytes())
    h.update(repr(sorted((k, v) for k, v in params if k not in leave_out)).encode())
    return h.hexdigest()[:16]


def memo_key(X, y, params: tuple) -> str:
    """The key of a Perceptron record's memo: the points and every setting but the variant and B
    (:class:`viz.scene.PerceptronScene`'s ``memo``): the records the chart keeps together, and made ahead together."""
    return settings_key(X, y, params, ("variant", "batch_size"))


@functools.lru_cache(maxsize=2)
def _gram(xbytes: bytes, n: int, kernel: str, kparams: tuple) -> np.ndarray:
    """G for the points whose float64 bytes are ``xbytes`` (n rows), kept by the process that computed it.

    Each worker keeps its last 2 (up to 2,000² entries, 32 MB each), until the server stops; the next run
    on the same points reuses one when it lands on the same worker.
    """
    return gram(np.frombuffer(xbytes, dtype=float).reshape(n, -1), kernel, **dict(kparams))


def dual_page(X, y, kernel: str, kparams: tuple, params: tuple, etas: tuple | None = None, follow: str | None = None):
    """Run the dual perceptron (and, for the linear kernel, the primal one) and build what the Dual page shows.

    With ``etas`` (``params``' η is then 1): one record for every η of ``etas``, the chart following the page's η
    control labelled ``follow`` (:func:`viz.scene.dual_scene`); for the linear kernel the run and the primal run of
    each η are made too. None when that record would not hold the whole run (the page then asks for its η alone).

    Returns
    -------
    tuple or None
        (the scene record as bytes (:func:`viz.scene.dual_scene`; the page sets how it is shown with
        :func:`viz.scene.with_view`), (kind, status), cost lines, {η: agreement or None},
        {"n_steps": S, "shown": the steps the record holds (S, or fewer: viz.scene.DUAL_BYTES),
        "gram_block": the Gram matrix's block size as drawn}).
    """
    X = np.ascontiguousarray(X, dtype=float)
    G = _gram(X.tobytes(), len(X), kernel, kparams)
    run = dict(params)
    traj = run_dual(X, y, kernel=kernel, G=G, **run, **dict(kparams))
    primal = lines = None
    agreements = dict.fromkeys(etas or [run["eta"]])
    if kernel == "linear":
        def primal_of(eta: float):  # the primal perceptron with τ = η on the same order
            return run_perceptron(X, y, variant=run["variant"], tau=eta, max_steps=run["max_steps"], seed=run["seed"])

        if etas and dual_lines_overflow(traj, len(etas)):
            return None  # every η's w would cut the run short: the page sends its η alone
        if etas:
            lines = [(run_dual(X, y, kernel=kernel, G=G, **{**run, "eta": e}), primal_of(e)) for e in etas]
            agreements = {e: agreement_text(primal_agreement(t, pr)) for e, (t, pr) in zip(etas, lines, strict=True)}
        else:
            primal = primal_of(run["eta"])
            agreements = {run["eta"]: agreement_text(primal_agreement(traj, primal))}
    scene = dual_scene(traj, primal, etas=etas, follow=follow, lines=lines)
    if lines is not None and scene.run["cut_from"] is not None:
        return None  # every η's w would cut the run short: the page sends its η alone
    separable = separable_in_feature_space(X, y, kernel, **dict(kparams))
    return (scene.to_bytes(), dual_summary(traj, separable), cost_lines(traj), agreements,
            {"n_steps": traj.n_steps, "shown": scene.run["n_steps"], "gram_block": scene.run["gram_block"]})


def dual_steps(X, y, kernel: str, kparams: tuple, params: tuple) -> dict:
    """The Dual page's run as a table, one row per step (made when its expander is opened; G reused per worker)."""
    X = np.ascontiguousarray(X, dtype=float)
    G = _gram(X.tobytes(), len(X), kernel, kparams)
    return dual_table(run_dual(X, y, kernel=kernel, G=G, **dict(params), **dict(kparams)))


def compare_specs(lefts: tuple, rights: tuple, common: dict, pair: tuple | None, key: str, follow: tuple,
                  budget: int) -> tuple[tuple, tuple, tuple, int | None]:
    """Each side's runs as :func:`compare_page` takes them, the settings ``common`` added to each.

    ``lefts``/``rights``: ("perceptron" | "hinge", keyword arguments); a side's family is picked from by ``key``
    with the value ``pair[side]`` its control shows (None: a side of one run, sent as it is). While runs × max steps stays within ``budget`` every run is
    sent (the controls ``follow`` move in the browser); past it only the runs shown, ``follow`` becomes
    (None, None), and the last value is the most steps that would have kept every run (else None).
    """
    lefts, rights = (tuple((kind, tuple(sorted({**kw, **common}.items()))) for kind, kw in side) for side in (lefts, rights))
    runs = len(set(lefts + rights))
    if pair is None or runs * common["max_steps"] <= budget:
        return lefts, rights, follow, None
    return *shown_specs(lefts, rights, pair, key), (None, None), budget // runs


def shown_specs(lefts: tuple, rights: tuple, pair: tuple, key: str) -> tuple[tuple, tuple]:
    """The runs of each side (as :func:`compare_specs` returns them) whose ``key`` is the value ``pair[side]`` its
    control shows (a side whose ``pair`` is None: all of them)."""
    return tuple(side if pair[j] is None else tuple(s for s in side if dict(s[1])[key] == pair[j])
                 for j, side in enumerate((lefts, rights)))


def shown_run(specs: tuple, key: str, value) -> int:
    """Which of a side's runs ``specs`` has ``key`` = ``value`` (the one its control shows); the first if none (or
    ``value`` is None: a side no control picks from)."""
    if value is None:
        return 0
    return next((j for j, (_, kw) in enumerate(specs) if dict(kw).get(key) == value), 0)


def made_runs(X, y, params: tuple, specs: tuple) -> list:
    """The runs ``specs`` (("perceptron" | "hinge", keyword arguments)) and their records: [(spec, run, record)] (a
    chunk of :func:`compare_page`'s or :func:`sgd_page`'s, in a worker process; ``params`` is unused, as
    ``offload_shared`` passes it)."""
    out = []
    for kind, kw in specs:
        run = run_perceptron(X, y, **dict(kw)) if kind == "perceptron" else hinge_sgd(X, y, **dict(kw))
        out.append(((kind, kw), run, compare_record(run)))
    return out


def compare_page(X, y, lefts: tuple, rights: tuple, follow: tuple = (None, None), key: str = "tau",
                 partial: bool = False, share=None):
    """The runs of the Compare page and their scene record (:func:`viz.scene.compare_scene`, no view).

    ``lefts``/``rights``: each side's runs as ("perceptron" | "hinge", keyword arguments): one, or the family the
    side's control (labelled ``follow[j]``) picks from by ``key``; a run asked for on both sides is run once. Each C
    of the hinge runs gets its exact SVM, which the hinge SGD approaches. ``partial``: the runs the controls show
    alone, sent before the family (:class:`viz.scene.CompareScene`). ``share(fn, X, y, params, chunk)`` makes the
    runs and their records in chunks at once (:func:`glue.workers.offload_shared`); None, here.

    Returns
    -------
    (bytes, [left runs], [right runs])
    """
    specs = tuple(dict.fromkeys(lefts + rights))
    parts = [made_runs(X, y, (), specs)] if share is None else share(made_runs, X, y, (), specs)
    pairs = {spec: (run, rec) for part in parts for spec, run, rec in part}
    cs = sorted({r.C for r, _ in pairs.values() if isinstance(r, HingeRun)})
    reference = [fit_svm(X, y, C=c) for c in cs] or None
    left, right = [pairs[s][0] for s in lefts], [pairs[s][0] for s in rights]
    made = {id(r): rec for r, rec in pairs.values()}
    return (compare_scene(left, right, reference=reference, follow=follow, key=key, partial=partial,
                          made=made).to_bytes(), left, right)


def svm_solutions(X, y, kernel: str, kparams: tuple):
    """The exact SVM for each C of ``C_GRID``: the frames of the SVM page's live C slider."""
    return svm_grid(X, y, C_GRID, kernel, **dict(kparams))


def svm_page(X, y, C: float | None, kernel: str, kparams: tuple, overlay: bool, grid, follow: str) -> bytes:
    """The SVM page's scene record (:func:`viz.scene.svm_scene`, no view): every C of the grid, or one solution.

    ``C`` is None for the grid (``grid``, :func:`svm_solutions` for these points; the chart follows the page's
    C control, labelled ``follow``), else the one C solved (``math.inf``: the hard margin, drawn beside the grid's
    C path when there is a grid).
    """
    if C is None:
        sols = grid
    else:
        sols = [fit_svm(X, y, C=C, kernel=kernel, **dict(kparams))]
    perceptron = None
    if overlay:
        run = run_perceptron(X, y, max_steps=1000)
        perceptron = (run.W[-1], float(run.B[-1]))
    path = path_of(grid) if grid is not None else None
    return svm_scene(X, y, sols, path=path, perceptron=perceptron, follow=follow if C is None else None).to_bytes()


# every η's run is sent (η then moves in the browser) while runs × steps × N stays within this (ten runs of 2,000
# steps at N = 2,000; their size and time: bench/RESULTS.md, figures that stood in code comments)
SGD_FAMILY_WORK = 10 * 2_000 * 2_000


def family_etas(schedule: str, steps: int, n: int, C: float) -> tuple:
    """The η's the SGD tab runs at once (η then moves in the browser): for the constant schedule within
    SGD_FAMILY_WORK, each η of the SGD tab's control that the core takes for these N and C (ηλ < 1); else none."""
    if schedule != "constant" or len(TAUS) * steps * n > SGD_FAMILY_WORK:
        return ()
    return tuple(e for e in TAUS if constant_eta_fits(e, n, C))


def sgd_page(X, y, C: float, schedule: str, etas: tuple, steps: int, seed: int, follow: str | None = None,
             partial: bool = False, share=None):
    """Hinge SGD and the exact SVM for the same C: the SGD tab's scene record (:func:`viz.scene.sgd_scene`, no
    view) and the summary of where each run ended.

    ``etas``: the constant η of each run (the family the page's η control, labelled ``follow``, picks from; one
    η for a decaying schedule, which does not read it). ``partial``: the run of the η shown alone, sent before the
    family. ``share`` as for :func:`compare_page`.

    Returns
    -------
    (bytes, {η: summary})
    """
    specs = tuple(("hinge", (("C", C), ("schedule", schedule), ("eta", eta), ("max_steps", steps), ("seed", seed)))
                  for eta in etas)
    parts = [made_runs(X, y, (), specs)] if share is None else share(made_runs, X, y, (), specs)
    made = {spec: (run, rec) for part in parts for spec, run, rec in part}
    runs = [made[spec][0] for spec in specs]
    exact = fit_svm(X, y, C=C)
    scene = sgd_scene(runs, exact, follow=follow, partial=partial, made={id(r): rec for r, rec in made.values()})
    return scene.to_bytes(), {eta: sgd_summary(run, exact) for eta, run in zip(etas, runs, strict=True)}


def loss_grid(X, y, side: int, scale: float):
    """The loss page's (w₁, w₂) grid, each of side ``side``, and the b of each slice: (us, vs, bs)."""
    us, vs = grid_around(X, y, size=side, scale=scale)
    return us, vs, default_bs(us, X)


def loss_theta(X, y, names: tuple, lam: float, r: float, bmax: float):
    """Every loss over (θ, b) at ‖w‖ = r: ({name: (STILL_GRID, STILL_GRID)}, θs, bs)."""
    thetas = theta_grid(STILL_GRID)
    bs = np.linspace(-bmax, bmax, STILL_GRID)
    return {nm: surface(nm, X, y, thetas, bs, slice="theta", r=r, lam=lam) for nm in names}, thetas, bs


def loss_path(X, y, kind: str, variant: str, tau: float, seed: int, lam: float):
    """The optimiser's (w, b) after each step, thinned to at most PATH_STEPS + 1 states, and its label.

    Returns
    -------
    W : ndarray of shape (k, 2)
    B : ndarray of shape (k,)
    label : str
    """
    if kind == "perceptron":
        run = run_perceptron(X, y, variant=variant, tau=tau, seed=seed, max_steps=2000)
        label = f"perceptron ({VARIANT_LABELS[variant]}, τ = {num(tau)})"
    else:
        C = 1.0 / (len(y) * max(lam, 1e-3))  # λ = 1/(N·C); λ = 0 would have no minimiser: 1e-3 instead
        run = hinge_sgd(X, y, C=C, max_steps=2000, seed=seed)
        label = f"hinge SGD (λ = {num(1.0 / (len(y) * C))})"
    keep = np.unique(np.linspace(0, len(run.B) - 1, min(len(run.B), PATH_STEPS + 1)).round().astype(int))
    return run.W[keep], run.B[keep], label


def loss_data(X, y, names: tuple, lams: tuple, chosen, lit_i, clickable: bool, follow: str) -> bytes:
    """The loss page's data chart as a scene record (:func:`viz.scene.loss_data_scene`, no view): the points, the
    chosen weight's M and each loss there for every λ of ``lams`` (λ is not in it: the chart follows the page's λ
    control, labelled ``follow``). ``chosen`` is the clicked ((w₁, w₂), b) or None."""
    pick = (np.array(chosen[0]), chosen[1]) if chosen else None
    return loss_data_scene(X, y, names, lams, chosen=pick, lit=lit_i, clickable=clickable, follow=follow).to_bytes()


def loss_tops(X, y, names: tuple, lams: tuple, grid) -> dict[str, list[float]]:
    """Each loss's colour-scale top for each λ over the slices of ``grid`` (:func:`viz.losses.colour_tops`)."""
    us, vs, bs = grid
    return {nm: colour_tops(nm, X, y, us, vs, bs, lams) for nm in names}


def loss_scene_page(X, y, names: tuple, lams: tuple, grid, paths, chosen, lit_i, follow: str, tops) -> bytes:
    """The loss page's (w₁, w₂) chart as a scene record (:func:`viz.scene.loss_scene`, no view): every b of the
    slider and every λ of ``lams`` drawn in the browser. ``grid`` is :func:`loss_grid`, ``paths`` one
    :func:`loss_path` per λ (or None), ``tops`` :func:`loss_tops`; the chart follows the page's λ control,
    labelled ``follow``."""
    us, vs, bs = grid
    return loss_scene(X, y, names, us, vs, bs, lams=lams, paths=paths, lit=lit_i, chosen=chosen, follow=follow,
                      tops=tops).to_bytes()


def loss_page(X, y, names: tuple, lam: float, view: str, slc: str, b_at: int, traj, grid, theta, radius: float,
              lit_i, height: int, big: bool):
    """The loss page's still figures (a :class:`~viz.common.Chart`): the 3-D surface, or the θ slice.

    ``grid`` is :func:`loss_grid`, ``theta`` :func:`loss_theta` (or None when the θ slice is not shown), ``traj``
    :func:`loss_path` (or None).
    """
    us, vs, bs = grid
    if view == "surface":
        nm = names[0]
        if slc == "w":
            gu, gv = np.linspace(us[0], us[-1], STILL_GRID), np.linspace(vs[0], vs[-1], STILL_GRID)
            fig = surface3d_figure(nm, surface(nm, X, y, gu, gv, b=float(bs[b_at]), lam=lam), gu, gv,
                                   xlabel="w₁", ylabel="w₂", where=f"b = {bs[b_at]:g}", height=height)
        else:
            th, thetas, tbs = theta
            fig = surface3d_figure(nm, th[nm], np.degrees(thetas), tbs, xlabel="θ (degrees)", ylabel="b",
                                   where=f"‖w‖ = {radius:g}", height=height)
    else:
        th, thetas, tbs = theta
        fig = theta_figure(X, y, th, thetas, tbs, r=radius, trajectory=traj, lit=lit_i, height=height)
    return serialized(sized(fig, big))
