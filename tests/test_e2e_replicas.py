"""Two app replicas behind Debian's nginx on loopback (deploy/cluster.py): sessions spread over both, each sticks.

Needs nginx (CI installs Debian's nginx-light; without it the tests fail with a message naming the fix).
"""

from __future__ import annotations

import http.cookiejar
import sys
import urllib.request
from collections import Counter
from pathlib import Path

import pytest
from e2e_helpers import wait_for_rerun
from playwright.sync_api import Page

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from deploy.cluster import cluster, find_nginx  # noqa: E402


@pytest.fixture(scope="module")
def two_replicas():
    try:
        find_nginx()
    except FileNotFoundError as exc:
        pytest.fail(str(exc), pytrace=False)
    with cluster(2) as c:
        yield c


def _browser(route: str | None = None):
    """A urllib opener with its own cookie jar (one browser); optionally with a dbl_route cookie already set."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    if route is not None:
        opener.addheaders = [("Cookie", f"dbl_route={route}")]
    return opener


def test_browsers_spread_over_both_replicas_and_each_stays_on_its_own(two_replicas) -> None:
    c = two_replicas
    first = Counter()
    for i in range(12):  # new browsers: no cookie yet, nginx gives each a random route
        b = _browser()
        up = b.open(c.url + "/").headers["X-DBL-Upstream"]
        assert up in c.replicas
        first[up] += 1
        later = {b.open(c.url + "/_stcore/health").headers["X-DBL-Upstream"] for _ in range(4)}
        assert later == {up}, f"browser {i} moved from {up} to {later}"
    # routes chosen here so the spread is certain: both replicas serve some browsers
    chosen = {_browser(f"student-{i}").open(c.url + "/").headers["X-DBL-Upstream"] for i in range(12)}
    assert chosen == set(c.replicas)
    assert sum(first.values()) == 12


def test_a_session_through_nginx_works_and_its_upload_reaches_its_own_replica(two_replicas, page: Page) -> None:
    c = two_replicas
    page.goto(c.url + "/perceptron?ds=XOR")
    wait_for_rerun(page)
    page.wait_for_function("() => !!document.querySelector('.st-key-perceptron_chart .js-plotly-plot')?._fullLayout",
                           timeout=60_000)
    route = {k["name"]: k["value"] for k in page.context.cookies()}.get("dbl_route")
    assert route, "nginx set no dbl_route cookie"
    # the file upload is a separate HTTP request: it must reach the replica that holds this tab's session
    page.get_by_text("CSV: import, export").click()
    page.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(
        files=[{"name": "ok.csv", "mimeType": "text/csv", "buffer": b"x,y,l\n0,0,0\n1,1,1\n2,0,0\n3,2,1\n"}])
    page.wait_for_function("() => document.body.innerText.includes('Loaded 4 points')", timeout=30_000)
    # the sidebar's notice is drawn before the page below it has rerun on the new points: wait for the page too
    page.wait_for_function("() => document.body.innerText.includes('Your points: n = 4')", timeout=30_000)
