"""Shared pytest fixtures: a real Chromium for Playwright and a live Streamlit server.

End-to-end tests (files named ``test_e2e*.py``) get the ``e2e`` marker automatically, so
``python -m pytest -m "not e2e"`` runs everything else without a browser.

Fixtures for e2e tests:

- ``chromium_executable`` (session): path of the Chromium that Playwright launches.
- ``browser_type_launch_args`` / ``browser_context_args`` (session): pytest-playwright's fixtures,
  extended with that executable, flags for a sandboxless offline machine, and a 1400x900 viewport.
- ``page``: one browser tab shared by the whole-app tests (a new page per test boots Streamlit's frontend in a new
  renderer process: its cost is in bench/RESULTS.md, the test suite's time), at the 1400x900 viewport when each test starts and left on
  about:blank after it; a test that listens to the page's events, routes its requests, adds init scripts or closes it
  takes ``fresh_page`` instead (a new tab of the same browser context, closed after it).
- ``context``: pytest-playwright's, overridden so that its pages have ``dbl(el)`` (e2e_helpers.STATE_OF), as the
  shared tab's have.
- ``app_server`` (session): base URL (``http://127.0.0.1:PORT``, no trailing slash) of
  ``streamlit run app.py`` started from the repository root.

Use them with the ``page`` fixture above and the helpers in ``tests/e2e_helpers.py``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import with_state_of

REPO_ROOT = Path(__file__).resolve().parent.parent
APP_SCRIPT = "app.py"

# Names of a system Chromium / Chrome on PATH, in order of preference.
SYSTEM_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# Flags for a root user on a machine with no GPU, a small /dev/shm and no network but loopback.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

VIEWPORT = {"width": 1400, "height": 900}

SERVER_START_TIMEOUT_S = 60.0
BROWSER_FIX = (
    "Install a Chromium: `apt-get install -y chromium` (Debian/Ubuntu), or "
    "`python -m playwright install chromium`, or set CHROMIUM_PATH to a Chromium/Chrome executable."
)


# --------------------------------------------------------------------------- markers


def pytest_configure(config: pytest.Config) -> None:
    # pyproject.toml registers it too; registering again is harmless and keeps this file self-contained.
    config.addinivalue_line("markers", "e2e: drives the app in a real Chromium through Playwright")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name.startswith("test_e2e") and item.path.suffix == ".py":
            item.add_marker(pytest.mark.e2e)


# --------------------------------------------------------------------------- browser


def _playwright_own_chromium(playwright: Any) -> str | None:
    path = playwright.chromium.executable_path
    return path if path and Path(path).is_file() else None


@pytest.fixture(scope="session")
def chromium_executable(playwright: Any) -> str:
    """Path of the Chromium to launch; installs Playwright's own as a last resort, never skips.

    Order: ``$CHROMIUM_PATH``, then ``chromium`` / ``chromium-browser`` / ``google-chrome`` on PATH,
    then the browser of ``python -m playwright install chromium`` (running that install if needed).
    """
    env_path = os.environ.get("CHROMIUM_PATH")
    if env_path:
        resolved = shutil.which(env_path) or (env_path if Path(env_path).is_file() else None)
        if not resolved or not os.access(resolved, os.X_OK):
            pytest.fail(f"CHROMIUM_PATH={env_path!r} is not an executable file. {BROWSER_FIX}", pytrace=False)
        return resolved

    for name in SYSTEM_BROWSERS:
        found = shutil.which(name)
        if found:
            return found

    own = _playwright_own_chromium(playwright)
    if own:
        return own

    print("No Chromium found; running `python -m playwright install chromium` ...", file=sys.stderr)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        output = (proc.stdout + proc.stderr).strip()
        ok = proc.returncode == 0
    except (OSError, subprocess.TimeoutExpired) as exc:
        output, ok = str(exc), False
    own = _playwright_own_chromium(playwright) if ok else None
    if not own:
        lines = output.splitlines()
        tail = "\n".join([ln for ln in lines if ln.lstrip().startswith("Error")][:3] or lines[-5:])
        pytest.fail(
            f"No Chromium for the e2e tests, and `python -m playwright install chromium` failed:\n{tail}\n\n{BROWSER_FIX}",
            pytrace=False,
        )
    return own


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any],
    browser_name: str | None,
    playwright: Any,
    request: pytest.FixtureRequest,
) -> dict[str, Any]:
    """pytest-playwright's launch args plus the found Chromium, offline/sandboxless flags, headless."""
    args = dict(browser_type_launch_args)
    args.setdefault("headless", True)  # pytest-playwright sets False for --headed
    if browser_name in (None, "chromium") and "channel" not in args:
        executable = request.getfixturevalue("chromium_executable")
        if executable != _playwright_own_chromium(playwright):
            # A system browser; Playwright's own is found without a path (and may use its headless shell).
            args["executable_path"] = executable
        args["args"] = [*args.get("args", []), *CHROMIUM_ARGS]
    return args


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config) -> str | None:
    """``--base-url`` / ini ``base_url`` as pytest-playwright reads it (None by default; use ``app_server``).

    Defined here because pytest-playwright's fallback for this fixture (used when pytest-base-url is
    not installed) is an instance method, which pytest >= 9.1 warns about on every run.
    """
    return pytestconfig.getoption("--base-url", None) or pytestconfig.getini("base_url") or None


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's context args with a projector-sized 1400x900 viewport."""
    return {**browser_context_args, "viewport": dict(VIEWPORT)}


@pytest.fixture(scope="session")
def _shared_tab(browser: Any, browser_context_args: dict[str, Any]) -> Iterator[Any]:
    context = with_state_of(browser.new_context(**browser_context_args))
    yield context
    context.close()


@pytest.fixture
def page(_shared_tab: Any) -> Iterator[Any]:
    """The shared tab (see the module's docstring), at the default viewport; a new one where the last was closed.

    Each test starts with ``page.goto`` (a new document and a new Streamlit session), and the tab is left on
    about:blank after it, so nothing of the last test's page survives but the browser's cache and cookies, as for a
    user who opens a second link."""
    pages = [p for p in _shared_tab.pages if not p.is_closed()]
    tab = pages[0] if pages else _shared_tab.new_page()
    for extra in pages[1:]:  # (a popup or a download tab a test opened)
        extra.close()
    tab.set_viewport_size(dict(VIEWPORT))
    yield tab
    if not tab.is_closed():
        tab.goto("about:blank")  # (the page left: nothing of it runs on, a Play or its session, beside the next test)


@pytest.fixture
def context(new_context: Any) -> Any:
    """pytest-playwright's context, its pages given ``dbl`` (e2e_helpers.STATE_OF)."""
    return with_state_of(new_context())


@pytest.fixture
def fresh_page(_shared_tab: Any) -> Iterator[Any]:
    """A page of its own, for a test that listens to its events, routes its requests, adds init scripts or closes it:
    a new tab of the shared tab's browser (its listeners, routes and scripts are the tab's own and go with it; the
    browser's cache is shared, as a user's second tab shares it), closed after the test."""
    tab = _shared_tab.new_page()
    yield tab
    if not tab.is_closed():
        tab.close()


# --------------------------------------------------------------------------- streamlit server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _health_ok(base_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=2) as resp:
            return resp.status == 200 and resp.read().strip() == b"ok"
    except (urllib.error.URLError, OSError):
        return False


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no output)"


def _stop_process_group(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    for sig, wait_s in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


@contextlib.contextmanager
def streamlit_server(script: str = APP_SCRIPT, cwd: Path = REPO_ROOT) -> Iterator[str]:
    """Run ``python -m streamlit run <script>`` in ``cwd``; yield ``http://127.0.0.1:PORT`` once it is healthy."""
    app = cwd / script
    if not app.is_file():
        pytest.fail(f"{app} does not exist: the e2e tests drive the app's entry point.", pytrace=False)

    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "streamlit", "run", script,
        "--server.port", str(port),
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    logdir = Path(tempfile.mkdtemp(prefix="dbl-streamlit-"))
    out_path, err_path = logdir / "stdout.log", logdir / "stderr.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _health_ok(base_url):
            if proc.poll() is not None or time.monotonic() > deadline:
                why = (
                    f"exited with code {proc.returncode}"
                    if proc.poll() is not None
                    else f"did not answer {base_url}/_stcore/health within {SERVER_START_TIMEOUT_S:.0f} s"
                )
                print(f"--- streamlit stdout (tail) ---\n{_tail(out_path)}", file=sys.stderr)
                print(f"--- streamlit stderr (tail) ---\n{_tail(err_path)}", file=sys.stderr)
                pytest.fail(
                    f"Streamlit server {why}: {' '.join(cmd)}\nstderr tail:\n{_tail(err_path, 20)}", pytrace=False
                )
            time.sleep(0.2)
        yield base_url
    finally:
        _stop_process_group(proc)
        shutil.rmtree(logdir, ignore_errors=True)


@pytest.fixture(scope="session")
def app_server() -> Iterator[str]:
    """Run ``python -m streamlit run app.py`` from the repo root; yield ``http://127.0.0.1:PORT``."""
    with streamlit_server() as url:
        yield url
