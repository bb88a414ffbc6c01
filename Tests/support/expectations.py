"""The scripted answers and the results worked out by hand in Tests/Fixtures, `survey simulate`,
and the comparison of a recorded result with them, for the command-line and browser tests."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from support.links import link_parameters, survey_document
from support.server import BINARY, EXAMPLES, FIXTURES as ANSWERS_DIR

# What a server's run draws and `survey simulate` does not (docs/panels.md): the parameters its
# link gave, and the order of each shuffled question's choices and of each block's steps.
DRAWN = ("parameters", "choiceOrders", "blockOrders")


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


# --- what a run draws ---------------------------------------------------------------------------
# `survey simulate` keeps the written order of choices and blocks and takes the arm its answers
# name (else the first); a server's run draws its own orders and arms. A result is compared with
# one worked out in written order by putting each block's steps in the order the run took them.

def in_run_order(steps: list, block_orders: dict) -> list:
    """Steps in the survey's written order (identifiers, or step results), each block's steps put
    in the order the run took them (`blockOrders`), in the places they hold."""
    def name(step):
        return step if isinstance(step, str) else step["identifier"]
    ordered = list(steps)
    for order in block_orders.values():
        places = [index for index, step in enumerate(ordered) if name(step) in order]
        taken = {name(ordered[index]): ordered[index] for index in places}
        if len(taken) < len(places):
            continue        # a step of the block met twice: no one order to put them in
        for place, step in zip(places, [step for step in order if step in taken]):
            ordered[place] = taken[step]
    return ordered


def _written_choices(survey: dict, selector: str) -> list | None:
    """The choices of the textChoice question `step` or `step.item`, as the survey writes them."""
    step_id, _, item_id = selector.partition(".")
    for step in survey.get("steps", []):
        if step.get("identifier") != step_id:
            continue
        question = next((item for item in step.get("items", []) if item.get("identifier") == item_id), None) if item_id else step
        return (question or {}).get("answerFormat", {}).get("choices")
    return None


def _shuffled_questions(survey: dict) -> dict:
    """{selector: the step it is on} for each textChoice question that shuffles its choices."""
    found = {}
    for step in survey.get("steps", []):
        for question, selector in [(step, step.get("identifier"))] + [
                (item, f"{step.get('identifier')}.{item.get('identifier')}") for item in step.get("items", [])]:
            answer_format = question.get("answerFormat", {})
            if answer_format.get("type") == "textChoice" and answer_format.get("shuffle"):
                found[selector] = step["identifier"]
    return found


def assert_drawn_orders_fit(result: dict, survey_id: str, where: str, recorder: str = "the server"):
    """Each block order a run recorded holds the block's steps, each choice order the question's
    choices, the pinned ones (and those with an "other" box, unless unpinned) in their written places."""
    survey = survey_document(survey_id) or {}
    blocks = {block["identifier"]: block["steps"] for block in survey.get("blocks", [])}
    for block, order in result.get("blockOrders", {}).items():
        assert block in blocks, f"{where}: {recorder} recorded an order of {block!r}, which is no block of the survey"
        assert sorted(order) == sorted(blocks[block]), (f"{where}: {recorder} took block {block!r} as {order}, "
                                                        f"not its steps {blocks[block]} in some order")
    for selector, order in result.get("choiceOrders", {}).items():
        choices = _written_choices(survey, selector)
        assert choices, f"{where}: {recorder} recorded a choice order of {selector!r}, which has no choices"
        values = [choice["value"] for choice in choices]
        assert sorted(order, key=json.dumps) == sorted(values, key=json.dumps), (
            f"{where}: {recorder} showed {selector!r} as {order}, not its choices {values} in some order")
        for place, choice in enumerate(choices):
            if choice.get("pinned", "other" in choice):
                assert order[place] == choice["value"], (f"{where}: {recorder} moved the pinned choice "
                                                         f"{choice['value']!r} of {selector!r}: {order}")


def as_drawn(survey_id: str, case: dict, result: dict) -> dict:
    """The case to check a server's run against. An allocation step's arm is drawn on the server,
    so a run given another arm than the case's answers name (naming none, the first arm) is
    checked against the hand-written case of the same answers with the arm it was given."""
    survey = survey_document(survey_id) or {}
    arms = {step["identifier"]: [arm["value"] for arm in step["arms"]]
            for step in survey.get("steps", []) if step.get("type") == "allocation"}
    if not arms:
        return case

    def named(answers: dict) -> dict:
        return {step: answers.get(step, {}).get(step, values[0]) for step, values in arms.items()}

    def others(answers: dict) -> dict:
        return {step: fields for step, fields in answers.items() if step not in arms}

    given = {step: question["choiceAnswers"][0] for step in arms if (question := _question(result, step))}
    wanted = {**named(case["answers"]), **given}
    if wanted == named(case["answers"]):
        return case
    found = [other for other in expectations(survey_id)
             if others(other["answers"]) == others(case["answers"]) and named(other["answers"]) == wanted]
    assert len(found) == 1, (f"{survey_id} [{case['name']}]: the server gave the arms {given}; {len(found)} "
                             f"hand-written cases have the same answers with those arms")
    return found[0]


def assert_same_result(result: dict, expected: dict):
    """A server's result is what `survey simulate` gives for the same answers (and the arms the
    run was given): the same steps and results, with each block's steps in the order the run
    took them; beside them, the run has the parameters of the link that started it (support.links)
    and orders that fit the survey, one for each block and shuffled question it met."""
    assert result["finishReason"] == "completed", result
    survey_id = result["identifier"]
    assert_drawn_orders_fit(result, survey_id, survey_id)
    assert result.get("parameters") == (link_parameters(survey_id) or None), (
        f"{survey_id}: the run recorded the parameters {result.get('parameters')}, not those of its link")
    survey = survey_document(survey_id) or {}
    path = {step["identifier"] for step in result["results"]}
    met_blocks = {block["identifier"] for block in survey.get("blocks", []) if path & set(block["steps"])}
    assert set(result.get("blockOrders", {})) >= met_blocks, f"{survey_id}: no order recorded for a block the run took"
    met_questions = {selector for selector, step in _shuffled_questions(survey).items() if step in path}
    assert set(result.get("choiceOrders", {})) >= met_questions, f"{survey_id}: no order recorded for a shuffled question"

    run = {key: value for key, value in result.items() if key not in DRAWN}
    simulated = {key: value for key, value in expected.items() if key not in DRAWN}
    simulated["results"] = in_run_order(expected["results"], result.get("blockOrders", {}))
    assert [s["identifier"] for s in run["results"]] == [s["identifier"] for s in simulated["results"]]
    for got, want in zip(comparable(run)["results"], comparable(simulated)["results"]):
        assert got == want, f"step {want['identifier']!r}: the server recorded {got}, simulate says {want}"
    assert comparable(run) == comparable(simulated)


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
    every derived value and every step's results as written. The case is written in the survey's
    order; a run that took a block's steps in an order of its own is held to that order."""
    where = f"{survey_id} [{case['name']}]"
    assert result["identifier"] == survey_id, f"{where}: the result is of {result['identifier']!r}"
    wanted = case.get("finishReason", "completed")
    assert result["finishReason"] == wanted, f"{where}: {recorder} recorded {result['finishReason']!r}, not {wanted!r}"
    assert_drawn_orders_fit(result, survey_id, where, recorder)
    block_orders = result.get("blockOrders", {})
    path = [step["identifier"] for step in result["results"]]
    expected_path = in_run_order(case["path"], block_orders)
    assert path == expected_path, (f"{where}: {recorder} went {path}; by the survey's rules the path is "
                                   f"{expected_path} ({case['why']})"
                                   + (f", with the blocks taken as {block_orders}" if block_orders else ""))
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
    for got, want in zip(comparable(result)["results"], in_run_order(case["results"], block_orders)):
        assert got == want, (f"{where}, step {want['identifier']!r}: {recorder} recorded\n  {got}\n"
                             f"written by hand from the survey:\n  {want}")
