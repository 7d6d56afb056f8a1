"""Real-shaped CSV files in a real Chromium: upload, the column and class picker, its messages, the axes' titles,
and the *Standardize* switch (on every page, in the link)."""

from __future__ import annotations

import re
from pathlib import Path

from e2e_helpers import assert_no_exception, wait_for_chart, wait_for_rerun
from playwright.sync_api import Page

DATA = Path(__file__).with_name("data")
SIDEBAR = "[data-testid=stSidebar]"


def _settle(page: Page) -> None:
    page.wait_for_timeout(300)  # the rerun a choice starts may not have begun yet
    wait_for_rerun(page)


def _upload(page: Page, path: Path) -> None:
    if not page.locator("[data-testid=stFileUploaderDropzoneInput]").count():
        page.get_by_text("CSV: import, export").click()  # open (a message keeps it open after an upload)
    page.locator("[data-testid=stFileUploaderDropzoneInput]").set_input_files(str(path))
    _settle(page)


def _notice(page: Page, words: str) -> str:
    """Wait for the sidebar's CSV message containing ``words``; return every sidebar message."""
    page.wait_for_function("(w) => [...document.querySelectorAll('[data-testid=stSidebar] [data-testid=stAlert]')]"
                           ".some((e) => e.innerText.includes(w))", arg=words, timeout=30_000)
    return " | ".join(page.locator(f"{SIDEBAR} [data-testid=stAlert]").all_inner_texts())


def _pick(page: Page, box: str, option: str) -> None:
    """Choose ``option`` in the sidebar's select box labelled ``box``."""
    combo = page.locator(SIDEBAR).get_by_role("combobox", name=box, exact=True)
    combo.scroll_into_view_if_needed()  # first: the list closes when the sidebar scrolls under it
    page.wait_for_timeout(300)
    combo.click()
    choice = page.get_by_role("option", name=option, exact=True)
    choice.wait_for(timeout=5_000)
    choice.click()
    _settle(page)


def _axes(page: Page) -> list[str]:
    """The data panel's axis titles (x, y) of the page's first chart."""
    return page.evaluate("() => { const gd = document.querySelector('.js-plotly-plot');"
                         " return [gd.layout.xaxis.title.text, gd.layout.yaxis.title.text]; }")


def _points(page: Page) -> int:
    return page.evaluate("() => document.querySelector('.js-plotly-plot').layout.meta.n_points")


def _wait_points(page: Page, n: int) -> None:
    page.wait_for_function("(n) => { const gd = document.querySelector('.js-plotly-plot');"
                           " return gd && gd.layout && gd.layout.meta && gd.layout.meta.n_points === n; }",
                           arg=n, timeout=30_000)


def test_a_five_column_file_with_species_names_picks_columns_and_classes(page: Page, app_server: str) -> None:
    page.goto(f"{app_server}/perceptron")
    wait_for_rerun(page)
    _upload(page, DATA / "iris_species.csv")
    text = _notice(page, "Loaded 100 points")
    assert "x₁ = sepal_length, x₂ = sepal_width" in text and "“setosa” → −1, “versicolor” → +1" in text
    assert "50 rows of other classes left out" in text and "comma-separated; line 1 read as the header" in text
    _wait_points(page, 100)
    assert _axes(page) == ["x₁: sepal_length", "x₂: sepal_width"]
    # the legend says the file's classes (it said "y = +1 / y = −1"; issue 38)
    page.wait_for_function("() => (document.querySelector('.dbls-legend') || {}).textContent?.includes('setosa')")
    legend = page.locator(".dbls-legend").first.inner_text()
    assert "versicolor (y = +1)" in legend and "setosa (y = −1)" in legend, legend
    # virginica against the rest, petal measurements
    _pick(page, "x₁", "petal_length")
    _pick(page, "x₂", "petal_width")
    _pick(page, "+1 class", "virginica (50)")
    _pick(page, "−1 class", "every other class")
    text = _notice(page, "Loaded 150 points")
    assert "x₁ = petal_length, x₂ = petal_width" in text and "“every other class” → −1, “virginica” → +1" in text
    _wait_points(page, 150)
    assert _axes(page) == ["x₁: petal_length", "x₂: petal_width"]
    assert "Your points: n = 150 (imported from iris_species.csv)" in page.inner_text("body")
    assert_no_exception(page)


def test_a_choice_that_cannot_be_used_is_named_and_the_points_stay(page: Page, app_server: str) -> None:
    page.goto(f"{app_server}/svm")
    wait_for_rerun(page)
    _upload(page, DATA / "iris_species.csv")
    _notice(page, "Loaded 100 points")
    wait_for_chart(page)
    assert _axes(page) == ["x₁: sepal_length", "x₂: sepal_width"]
    _pick(page, "x₂", "sepal_length")  # x₁'s column: the two swap
    _notice(page, "x₁ = sepal_width, x₂ = sepal_length")
    assert _axes(page) == ["x₁: sepal_width", "x₂: sepal_length"]
    _pick(page, "x₁", "sepal_length")  # and back
    _notice(page, "x₁ = sepal_length, x₂ = sepal_width")
    _pick(page, "x₂", "species (text)")
    text = _notice(page, "the label are the same column")
    assert "x₂ and the label are the same column ('species')" in text
    _pick(page, "x₂", "sepal_width")
    _notice(page, "Loaded 100 points")
    _pick(page, "+1 class", "setosa (50)")  # the same class as −1
    text = _notice(page, "the same class")
    assert "+1 and −1 are the same class ('setosa')" in text
    wait_for_chart(page)
    # the last good points: setosa and versicolor, sepal measurements
    assert "Your points: n = 100 (imported from iris_species.csv)" in page.inner_text("body")
    assert _axes(page) == ["x₁: sepal_length", "x₂: sepal_width"]
    assert_no_exception(page)


def test_scikit_learns_iris_file_and_a_german_export(page: Page, app_server: str) -> None:
    page.goto(f"{app_server}/perceptron")
    wait_for_rerun(page)
    _upload(page, DATA / "sklearn_iris.csv")
    text = _notice(page, "Loaded 100 points")
    assert "line 1 read as scikit-learn's description (150 rows, 4 features, classes setosa, versicolor, " \
           "virginica)" in text
    assert "“0 (setosa)” → −1, “1 (versicolor)” → +1" in text
    _wait_points(page, 100)
    _upload(page, DATA / "iris_de.csv")
    text = _notice(page, "from iris_de.csv")
    assert "semicolon-separated, decimal comma" in text and "x₁ = Kelchblatt Länge, x₂ = Kelchblatt Breite" in text
    page.wait_for_function("() => document.querySelector('.js-plotly-plot').layout.xaxis.title.text"
                           " === 'x₁: Kelchblatt Länge'", timeout=30_000)
    assert_no_exception(page)


def test_a_quoted_header_with_commas_inside_names(page: Page, app_server: str) -> None:
    page.goto(f"{app_server}/dual")
    wait_for_rerun(page)
    _upload(page, DATA / "quoted_header.csv")
    # by default the first two numeric columns that do not number the rows: not id (1, 2, 3, …)
    text = _notice(page, "Loaded 40 points from quoted_header.csv: x₁ = height, cm, x₂ = weight, kg")
    assert "“A” → +1" in text or "“B” → +1" in text
    wait_for_chart(page)
    page.wait_for_function("() => document.querySelector('.js-plotly-plot').layout.xaxis.title.text"
                           " === 'x₁: height, cm'", timeout=30_000)
    assert_no_exception(page)


def test_standardize_goes_into_the_link_and_titles_the_axes(page: Page, app_server: str) -> None:
    page.goto(f"{app_server}/perceptron?ds=XOR&n_xor=40")
    wait_for_rerun(page)
    _wait_points(page, 40)
    raw = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.xaxis.range")
    page.locator(SIDEBAR).get_by_text("Standardize x₁ and x₂").click()
    _settle(page)
    page.wait_for_function("() => document.querySelector('.js-plotly-plot').layout.xaxis.title.text"
                           " === 'x₁ (standardized)'", timeout=30_000)
    assert "std=true" in page.url
    assert re.search(r"XOR: n = 40, [^\n]*seed 0, standardized", page.inner_text("body"))
    std = page.evaluate("() => document.querySelector('.js-plotly-plot').layout.xaxis.range")
    assert std != raw
    # the link opens standardized, on another page too
    page.goto(f"{app_server}/svm?ds=XOR&n_xor=40&std=true")
    wait_for_rerun(page)
    wait_for_chart(page)
    assert _axes(page) == ["x₁ (standardized)", "x₂ (standardized)"]
    assert_no_exception(page)


def test_a_file_over_the_limit_is_named_in_the_page_s_message(page: Page, app_server: str, tmp_path: Path) -> None:
    """A 2 MB file gets the page's own message (its size and the limit), in place of the last one; before, the
    uploader refused it with a tooltip on the file while the last file's message stayed."""
    page.goto(f"{app_server}/perceptron")
    wait_for_rerun(page)
    empty = tmp_path / "empty.csv"
    empty.write_text("x1,x2,y\n", encoding="utf-8")
    _upload(page, empty)
    _notice(page, "empty.csv was not loaded")
    big = tmp_path / "big.csv"
    big.write_text("x1,x2,y\n" + "0.123456789,0.987654321,1\n" * 80_000, encoding="utf-8")  # 2.1 MB
    _upload(page, big)
    text = _notice(page, "big.csv was not loaded")
    assert "the limit is 1 MB" in text and "empty.csv" not in text, text
    assert_no_exception(page)
