"""Every page's state through the URL (AppTest): written as the widgets write it, read back exactly; bad values named.

The widgets bind to query parameters (Streamlit writes them in the browser, which
the e2e tests check); here each page's whole non-default state is written the way
:func:`glue.options.url_spelling` says the widgets write it, and a fresh session
opened with that query string must show the same values in every widget.
"""

from __future__ import annotations

import pytest
from apptest_helpers import chart_shown
from test_views import page_from_url

from core.svm import C_GRID
from glue.options import parse_url, url_spelling

DATA = {"ds": "blobs", "n_blobs": 60, "blobs_noise": 0.35, "data_seed": 4}
STATES = {
    "app_pages/perceptron.py": {
        "variant": "minibatch", "tau": 0.5, "B": 3, "rule": "negative", "frames": "updates", "bias": False,
        "w01": 1.5, "w02": -0.5, "b0": 1.0, "seed": 7, "max_steps": 500, "reduction": "sum", "height": 560},
    "app_pages/dual.py": {"kernel": "rbf", "gamma": 3.0, "eta": 0.5, "order": "random", "frames": "updates", "seed": 3,
                      "max_steps": 400, "height": 900},
    "app_pages/svm.py": {"C": float(C_GRID[20]), "kernel": "poly", "degree": 3, "coef0": 2.0, "overlay": False,
                     "height": 900},
    "app_pages/losses.py": {"loss": "hinge", "slice": "theta", "lam": 0.1, "path": "hinge_sgd", "radius": 2.0,
                        "height": 780, "path_seed": 5, "lit": 3},
}


def _query(state: dict) -> dict[str, str]:
    return {k: url_spelling(k, v) for k, v in state.items()}


@pytest.mark.parametrize("page", list(STATES))
def test_a_pages_whole_state_round_trips_through_the_url(page):
    state = {**DATA, **STATES[page]}
    at = page_from_url(_query(state), page)
    assert not [w.value for w in at.warning if "Ignored URL" in w.value]
    for key, value in state.items():
        assert at.session_state[key] == value, key
    assert chart_shown(at)


@pytest.mark.parametrize("page", list(STATES))
def test_the_choices_written_are_the_ones_read(page):
    for key, value in {**DATA, **STATES[page]}.items():
        spelled = url_spelling(key, value)
        parsed = parse_url({key: spelled})
        assert parsed.get(key, value) == value, key  # keys Streamlit reads itself (numbers) are not parsed here


@pytest.mark.parametrize("page, key", [(p, k) for p, state in STATES.items() for k in state])
def test_every_parameter_with_a_bad_value_is_named_and_the_rest_of_the_link_still_used(page, key):
    state = {**DATA, **STATES[page]}
    at = page_from_url({**_query(state), key: "nonsense"}, page)
    warned = " ".join(w.value for w in at.warning)
    assert f"{key}='nonsense'" in warned
    for other, value in state.items():
        if other != key and (key, other) not in DEPENDS:
            assert at.session_state[other] == value, other
    assert chart_shown(at) and not at.exception


DEPENDS = {("variant", "B"), ("kernel", "gamma"), ("kernel", "degree"), ("kernel", "coef0")}  # drawn only for a choice
