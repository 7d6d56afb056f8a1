"""Perceptron step-through: read widgets -> cached core run -> figure -> render.

Stepping, scrubbing and playing happen in the browser (Plotly frames); only a
parameter change reruns this script.
"""

from __future__ import annotations

import streamlit as st

from core.bounds import is_separable
from core.perceptron import run_perceptron, validate_data
from views.shared import current_dataset
from viz.common import PrebuiltFigure
from viz.perceptron import conventions, perceptron_figure, run_summary, step_table

LAST_GOOD = "_perceptron_last_good"
VARIANT_LABELS = {"cyclic": "cyclic", "random": "random", "minibatch": "mini-batch", "batch": "batch"}
VARIANT_HELP = ("cyclic: the points in order, epoch after epoch (PerceptronTrain). random: one uniformly chosen "
                "point per step. mini-batch: a random subset I of B points, w ← w + τ/B Σ over the mistakes in I. "
                "batch: all points at once, a gradient step on the perceptron loss.")
RULE_LABELS = {"nonpositive": "y·a ≤ 0", "negative": "y·a < 0"}
TAUS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]
MAX_FRAMES = 500


@st.cache_data(max_entries=32, show_spinner="Running the perceptron…")
def compute(X, y, params: tuple, mode: str, title: str):
    """Run the perceptron and build everything the page shows (cached on the inputs)."""
    traj = run_perceptron(X, y, **dict(params))
    fig = perceptron_figure(traj, max_frames=MAX_FRAMES, mode=mode, title=title)
    p = traj.problem
    # separability decides "never converges"; with a fixed b₀ ≠ 0 it is another question: say nothing
    separable = None if (not p.fit_intercept and traj.B[0] != 0) else is_separable(X, y, fit_intercept=p.fit_intercept)
    return fig, run_summary(traj, separable), step_table(traj), traj.n_steps, conventions(traj)


st.title("Perceptron: step through the updates")
ds = current_dataset()
N = max(len(ds.y), 1)

c1, c2, c3, c4, c5 = st.columns([2.2, 2, 1.4, 1.3, 1.4])
variant = c1.selectbox("Variant", list(VARIANT_LABELS), format_func=VARIANT_LABELS.get, key="variant",
                       bind="query-params", help=VARIANT_HELP)
tau = c2.select_slider("Step size τ", TAUS, value=1.0, key="tau", bind="query-params")
batch = c3.number_input("Batch size B", 1, max(N, 1), min(max(N // 4, 1), N), key="B", bind="query-params",
                        disabled=variant != "minibatch", help="Only the mini-batch variant uses B (1 ≤ B ≤ N).")
rule = c4.radio("Update when", list(RULE_LABELS), format_func=RULE_LABELS.get, key="rule", bind="query-params")
mode = c5.radio("Frames", ["all", "updates"], format_func={"all": "every step", "updates": "updates only"}.get,
                key="frames", bind="query-params")
with st.expander("More settings: bias, start, seed, max steps"):
    d1, d2, d3, d4, d5, d6, d7 = st.columns(7)
    fit_b = d1.toggle("Learn bias b", True, key="bias", bind="query-params")
    w01 = d2.number_input("w₀ (1st)", -100.0, 100.0, 0.0, 0.5, key="w01", bind="query-params")
    w02 = d3.number_input("w₀ (2nd)", -100.0, 100.0, 0.0, 0.5, key="w02", bind="query-params")
    b0 = d4.number_input("b₀", -100.0, 100.0, 0.0, 0.5, key="b0", bind="query-params")
    seed = d5.number_input("Order seed", 0, 2**31 - 1, 0, 1, key="seed", bind="query-params",
                           help="Seeds the random order (random and mini-batch variants).")
    max_steps = d6.number_input("Max steps", 1, 100_000, 1000, 100, key="max_steps", bind="query-params")
    reduction = d7.radio("Batch step", ["mean", "sum"], format_func={"mean": "τ/B Σ", "sum": "τ Σ"}.get,
                         key="reduction", bind="query-params",
                         help="Mini-batch and batch: gradient of the mean loss (τ/B Σ) or of the sum (τ Σ).")

params = (
    ("variant", variant), ("tau", float(tau)), ("batch_size", int(batch)), ("w0", (float(w01), float(w02))),
    ("b0", float(b0)), ("update_on", rule), ("fit_intercept", bool(fit_b)), ("max_steps", int(max_steps)),
    ("seed", int(seed)), ("reduction", reduction),
)
result, problem = None, None
try:
    validate_data(ds.X, ds.y)
    if ds.X.shape[1] != 2:
        raise ValueError(f"the page draws 2-D points, the dataset has d = {ds.X.shape[1]}")
    result = compute(ds.X, ds.y, params, mode, ds.label)
    st.session_state[LAST_GOOD] = result
except ValueError as exc:
    problem = f"Cannot run the perceptron: {exc}."
if problem:
    result = st.session_state.get(LAST_GOOD)
    st.error(problem + (" Showing the last good run." if result else ""))
if result is not None:
    fig, (kind, status), table, n_steps, conv = result
    getattr(st, kind)(status)
    st.caption(conv)
    if fig["layout"]["meta"]["thinned"]:
        st.info(fig["layout"]["meta"]["thinned"])
    st.plotly_chart(PrebuiltFigure(fig), key="perceptron_chart",
                    config={"displaylogo": False, "scrollZoom": False, "doubleClick": False})
    st.caption("Step with ◀ Back / Next ▶ or drag the slider; Play runs the steps in the browser. Rings mark the "
               "misclassified set M after the step; the yellow disc marks the point(s) examined; the dashed line "
               "is the boundary before the update.")
    with st.expander(f"Every step as a table ({len(table['step']):,} of {n_steps + 1:,} rows)"):
        st.dataframe(table, hide_index=True, width="stretch")
