"""The scripted answers and the results worked out by hand in Tests/Fixtures, `survey simulate`,
and the comparison of a recorded result with them, for the command-line and browser tests."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from support.server import BINARY, EXAMPLES, FIXTURES as ANSWERS_DIR


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
    """A task result without what differs between runs: dates and the run's UUID, and a
    consent's signed copy (made by a server from the run and its time, never by `simulate`)."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items()
                    if k not in ("startDate", "endDate", "taskRunUUID")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    return strip({k: v for k, v in result.items() if k != "consent"})


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
    wanted = case.get("finishReason", "completed")
    assert result["finishReason"] == wanted, f"{where}: {recorder} recorded {result['finishReason']!r}, not {wanted!r}"
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
