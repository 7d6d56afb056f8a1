"""Decision Boundary Lab: the entry point.

Sets up navigation over ``views/`` and draws the shared dataset sidebar. The
dataset lives in ``st.session_state`` under a key no widget owns, so it
survives page switches and every page reads the same points.
"""

from __future__ import annotations

import streamlit as st

from views.shared import dataset_sidebar, remember_url, report_url_problems
from views.userdata import points_table

st.set_page_config(page_title="Decision Boundary Lab", layout="wide")
nav = st.navigation(
    [
        st.Page("views/home.py", title="Home", icon=":material/home:", default=True),
        st.Page("views/perceptron.py", title="Perceptron", icon=":material/timeline:", url_path="perceptron"),
        st.Page("views/dual.py", title="Dual / Gram", icon=":material/grid_on:", url_path="dual"),
        st.Page("views/svm.py", title="SVM margin", icon=":material/width:", url_path="svm"),
        st.Page("views/losses.py", title="Loss surface", icon=":material/landscape:", url_path="losses"),
    ]
)
remember_url()  # after the page is known (a rerun from here stays on it), before any widget
dataset_sidebar()
url_notes = st.container()  # above the page; filled once the page has drawn its widgets
nav.run()
points_table()  # under every page: the shared points as an editable table
report_url_problems(url_notes)
