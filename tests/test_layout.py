"""Why the page scripts live in ``app_pages/``, not ``pages/``: Streamlit (1.67) treats a ``pages/`` folder beside the
entry script as the old multipage layout until ``st.navigation`` has run once in the process, and on a fresh server's
first request for a page it runs that page's script directly, without the entry script (its sidebar, its session
setup). AppTest starts every run as a fresh process would (``PagesManager.uses_pages_directory`` reset)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
ENTRY = """import streamlit as st
st.session_state["entry_ran"] = True
st.navigation([st.Page("{folder}/home.py", default=True), st.Page("{folder}/view.py", url_path="view")]).run()
"""
PAGE = """import streamlit as st
st.write("entry ran" if st.session_state.get("entry_ran") else "entry skipped")
"""


def first_request_for_a_page(tmp_path: Path, folder: str) -> str:
    (tmp_path / folder).mkdir()
    (tmp_path / "app.py").write_text(ENTRY.format(folder=folder))
    (tmp_path / folder / "home.py").write_text("import streamlit as st\nst.write('home')\n")
    (tmp_path / folder / "view.py").write_text(PAGE)
    at = AppTest.from_file(str(tmp_path / "app.py"), default_timeout=30)
    at.switch_page(f"{folder}/view.py").run()  # (before any run: the page asked for by its name, as a URL asks)
    assert not at.exception, at.exception
    return " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize(("folder", "seen"), [("pages", "entry skipped"), ("app_pages", "entry ran")])
def test_a_pages_folder_is_run_without_the_entry_script(tmp_path: Path, folder: str, seen: str) -> None:
    assert first_request_for_a_page(tmp_path, folder) == seen


def test_the_app_has_no_pages_folder_and_every_page_script_is_navigated_to() -> None:
    assert not (ROOT / "pages").exists(), "Streamlit would run pages/*.py without app.py (test above)"
    entry = (ROOT / "app.py").read_text(encoding="utf-8")
    scripts = sorted(p.name for p in (ROOT / "app_pages").glob("*.py"))
    assert scripts and all(f'st.Page("app_pages/{name}"' in entry for name in scripts), scripts
