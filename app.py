"""Decision Boundary Lab: the entry point.

Sets up navigation over the page scripts in ``app_pages/`` and draws the shared dataset sidebar. The
dataset lives in ``st.session_state`` under a key no widget owns, so it
survives page switches and every page reads the same points.
"""

from __future__ import annotations

import os

# One BLAS thread per computation: many sessions share two cores, and a Gram matrix or a QP solve that
# spreads over both only makes the other sessions wait (set before NumPy is first imported in the server).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import streamlit as st  # noqa: E402

from glue.controls import page_shown  # noqa: E402
from glue.present import narrow_screen_style, part, presentation_sidebar, presentation_style  # noqa: E402
from glue.scene_chart import preload_renderer, serve_assets  # noqa: E402
from glue.server import tune_once  # noqa: E402
from glue.shared import dataset_sidebar, remember_url, report_dropped_link, report_url_problems  # noqa: E402
from glue.userdata import note_link_read, points_table  # noqa: E402

tune_once()  # once per server: TCP_NODELAY on its sockets, and the build workers started (glue/server.py)
serve_assets()  # once per server: plotly.js, KaTeX and the scene renderer, served by this app (static/)
st.set_page_config(page_title="Decision Boundary Lab", layout="wide")
pages = [
        st.Page("app_pages/home.py", title="Home", default=True),
        st.Page("app_pages/perceptron.py", title="Perceptron", url_path="perceptron"),
        st.Page("app_pages/dual.py", title="Dual / Gram", url_path="dual"),
        st.Page("app_pages/svm.py", title="SVM margin", url_path="svm"),
        st.Page("app_pages/losses.py", title="Loss surface", url_path="losses"),
        st.Page("app_pages/compare.py", title="Compare", url_path="compare"),
]
nav = st.navigation(pages)
note_link_read()  # first, before the page or the URL's tidying writes a parameter
page_shown(nav.url_path)  # (a page come to anew: its chart's controls written into the address again)
remember_url()  # after the page is known (a rerun from here stays on it), before any widget
preload_renderer()  # first: plotly.js starts loading before the page's script has built its scene (evaluated once sketched)
dataset_sidebar()
presentation_sidebar()
narrow_screen_style()  # rows of columns fold on a narrow screen (1024 px with the sidebar open)
presentation_style(pages)  # in presentation mode: larger type, the chosen parts hidden
url_notes = st.container()  # above the page; filled once the page has drawn its widgets
nav.run()
with part("tables", "points"):
    points_table()  # under every page: the shared points as an editable table
report_dropped_link(url_notes)  # (the address Streamlit dropped, as TOOLS last reported it)
report_url_problems(url_notes)
