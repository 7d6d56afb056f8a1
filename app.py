"""Decision Boundary Lab: the entry point.

Sets up navigation over ``views/`` and draws the shared dataset sidebar. The
dataset lives in ``st.session_state`` under a key no widget owns, so it
survives page switches and every page reads the same points.
"""

from __future__ import annotations

import streamlit as st

from views.shared import dataset_sidebar

st.set_page_config(page_title="Decision Boundary Lab", page_icon=":material/timeline:", layout="wide")

nav = st.navigation(
    [
        st.Page("views/home.py", title="Home", icon=":material/home:", default=True, url_path="home"),
        st.Page("views/perceptron.py", title="Perceptron", icon=":material/timeline:", url_path="perceptron"),
    ]
)
dataset_sidebar()
nav.run()
