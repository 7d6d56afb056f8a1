"""Home: what the lab is and where to start."""

from __future__ import annotations

import streamlit as st

st.title("Decision Boundary Lab")
st.markdown(
    """
Watch linear classifiers find their decision boundary in 2D, one update at a time.

- **Perceptron**: step through Rosenblatt's rule (cyclic, random, mini-batch or full batch). Every step
  shows the point examined, the misclassified set M, the update vector τ·y·x, the boundary before and
  after, and the arithmetic written out.
- **Dual / Gram**: the same perceptron written as w = Σ αᵢyᵢxᵢ. Watch α grow as halos and bars, the
  Gram matrix row each check reads, the primal w recovered from α, and, with a polynomial or RBF
  kernel, curved boundaries that separate circles no line can.
- **SVM margin**: the maximum-margin separator, its margin lines, support vectors and slack ξ; drag C and
  watch the margin breathe; step through hinge-loss SGD against the exact optimum.
- **Loss surface**: the 0-1, perceptron and hinge losses of your data over weight space, with every point's
  line, the cone of weights that classify every point, an optimiser's path; drag b, click a weight to see
  its boundary and subgradient.
- **Compare**: two runs side by side on the same points, one slider for both: cyclic against random order,
  τ against τ, B against B, or the perceptron against the SVM's hinge-loss SGD.

In class: *Presentation mode* (sidebar, *Classroom*) enlarges everything for a projector and hides the parts
you choose; both go into the link, so you can prepare it before the lecture. Under each chart: PNG and SVG of
the chart as it stands, the animation as an offline HTML file (and a GIF on the Perceptron page), the run as
CSV; the ← → keys step any chart. Students can turn on *Quiz: predict each update* on the Perceptron page.

Pick a dataset in the sidebar; every page uses the same points. Or use your own: turn on *Click the
chart to add or remove points* and click on any page's chart, edit the point table under the page, or
import a CSV; *Copy link to this view* shares exactly what you see. Start with the three-point
*textbook example* and step to convergence, then try *XOR* and watch the perceptron never stop.
"""
)
st.page_link("app_pages/perceptron.py", label="Open the Perceptron page")
st.page_link("app_pages/dual.py", label="Open the Dual / Gram page")
st.page_link("app_pages/svm.py", label="Open the SVM margin page")
st.page_link("app_pages/losses.py", label="Open the Loss surface page")
st.page_link("app_pages/compare.py", label="Open the Compare page")
