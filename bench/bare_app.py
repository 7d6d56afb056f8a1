"""The yardstick: a bare Streamlit app with one select_slider and one 3-point Plotly chart.

bench/bench_live.py serves it beside the real app and times it the same way, so the app's figures are
ratios to what any Streamlit rerun costs on this machine.
"""

import plotly.graph_objects as go
import streamlit as st

v = st.select_slider("value", [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0], value=1.0)
st.plotly_chart(go.Figure(go.Scatter(x=[0, 1, 2], y=[0, v, 2 * v], mode="markers+lines"),
                          layout={"meta": {"v": v}, "height": 300}), key="bare")
