"""FHIR Questionnaires served as they are, and the QuestionnaireResponses that come back, checked
from outside with a third-party validator (fhir.resources, see fhir_check.py).

A real server serves copies of the LOINC PHQ-9, height-weight-BMI and clinic-intake (nested
groups) Questionnaires; participants answer them in Chromium without JavaScript, by the
texts on the page. What the tests prove:
- the browser's result.json?format=fhir is a valid R4 QuestionnaireResponse naming the
  Questionnaire's canonical, with the Coding of every option clicked, the calculated PHQ-9
  total (shown read-only before the question that depends on it), nesting as in the
  Questionnaire and the step timings;
- a total of 0 (after Back and a change) leaves the difficulty question out, and the BMI is
  worked out from the quantities typed;
- a nested group enabled and then disabled by Back and a change leaves none of its items
  (and, marked as an expected failure until the product draws it so, no heading either);
- every response fits its Questionnaire (fhir_consistency.py: canonical, linkIds in place,
  answer types and options, limits, enableWhen, required items);
- axe-core and the Nu HTML checker find nothing on the pages these Questionnaires make.
"""
from __future__ import annotations

import json
import shutil
import urllib.request
from decimal import Decimal

import pytest
from selenium.webdriver.common.by import By

from checkers import axe_findings, format_findings
from fhir_check import (FIXTURES, PHQ9, PHQ9_DIFFICULTY, PHQ9_DIFFICULTY_ITEM, PHQ9_GROUP, PHQ9_QUESTIONS,
                        PHQ9_TOTAL, answers, extensions, items_by_link_id, load_json, number, parents,
                        phq9_option)
from fhir_consistency import validate_response_for
from support import Http, controls_of
from survey_pages import error_summary_text, fill_page, press, step_form
from test_html_valid import check_with_vnu

TOKEN = "fhir-token-0123456789abcdef"
FHIR_JSON = "application/fhir+json"
SCORES_11 = [1, 2, 0, 3, 1, 1, 0, 2, 1]
STEP_TIMING = "urn:survey-presenter:fhir:step-timing"
RUN_TIMING = "urn:survey-presenter:fhir:run-timing"
INTAKE = load_json(FIXTURES / "nested-groups.json")
QUESTIONNAIRES = {"phq-9": PHQ9, "height-weight-bmi": load_json(FIXTURES / "height-weight-bmi.json"), "clinic-intake": INTAKE}
ALLERGY_ITEMS = {"allergies", "allergy-kind", "allergy-reaction", "severe", "auto-injector"}


@pytest.fixture(scope="module")
def surveys(tmp_path_factory):
    """Copies of the Questionnaires, as an EHR would hand them over."""
    folder = tmp_path_factory.mktemp("fhir-surveys")
    for name in ("phq-9.json", "height-weight-bmi.json", "nested-groups.json", "stu3-options.json"):
        shutil.copy(FIXTURES / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def fhir_server(start_server, surveys):
    return start_server(surveys, extra=("--api-token", TOKEN))


# --- helpers ---------------------------------------------------------------------------------

def fetch_with_browser_cookies(driver, url: str) -> tuple[str, dict]:
    """GET url with the browser's cookies (so as the browser's run); its Content-Type and JSON."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    request = urllib.request.Request(url, headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=20) as response:
        assert response.status == 200
        return response.headers["Content-Type"], json.loads(response.read())


def api(server, path: str) -> tuple[str, dict]:
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200, path
        return response.headers["Content-Type"], json.loads(response.read())


def browser_result(driver, server, survey_id: str) -> dict:
    """The finished run of this browser as FHIR, validated."""
    assert driver.current_url.endswith(f"/surveys/{survey_id}/done"), driver.current_url
    url = f"{server.url}/surveys/{survey_id}/result.json?format=fhir"
    content_type, response = fetch_with_browser_cookies(driver, url)
    assert content_type.startswith(FHIR_JSON), content_type
    validate_response_for(response, QUESTIONNAIRES[survey_id])
    return response


def question_text(item: dict) -> str:
    """The question as the page shows it: the prefix, then the text."""
    return f"{item['prefix']} {item['text']}" if item.get("prefix") else item["text"]


def click_option(driver, question: str, option: str):
    """Click, as a person would, the label `option` under the question whose legend starts
    with `question`; the radio or checkbox it labels must then be selected."""
    form = step_form(driver)
    assert form is not None, driver.current_url
    for fieldset in form.find_elements(By.CSS_SELECTOR, "fieldset"):
        legend = fieldset.find_elements(By.XPATH, "./legend")
        if not legend or not legend[0].text.startswith(question):
            continue
        labels = [label for label in fieldset.find_elements(By.CSS_SELECTOR, "label") if label.text.strip() == option]
        assert len(labels) == 1, f"{question!r}: {len(labels)} labels {option!r}"
        labels[0].click()
        assert driver.find_element(By.ID, labels[0].get_attribute("for")).is_selected(), option
        return
    raise AssertionError(f"no question {question!r} on {driver.title!r}")


def type_into_labelled(driver, label_text: str, text: str):
    labels = [label for label in step_form(driver).find_elements(By.TAG_NAME, "label")
              if label.text.strip() == label_text]
    assert len(labels) == 1, f"{len(labels)} labels {label_text!r} on {driver.title!r}"
    box = driver.find_element(By.ID, labels[0].get_attribute("for"))
    box.clear()
    box.send_keys(text)


def read_only_value(driver, label: str) -> str:
    """The text of the read-only value labelled `label`; the page has no control for it."""
    outputs = step_form(driver).find_elements(By.TAG_NAME, "output")
    assert len(outputs) == 1, f"{len(outputs)} read-only values on {driver.title!r}"
    labelled_by = driver.find_element(By.ID, outputs[0].get_attribute("aria-labelledby"))
    assert labelled_by.text.strip() == label
    assert not driver.find_elements(By.CSS_SELECTOR, f"[name='{outputs[0].get_attribute('id')}']"), \
        "a read-only value has no form control"
    return outputs[0].text.strip()


def answer_phq9_questions(driver, scores: list[int]) -> dict:
    """Click the option scoring each score under each of the nine questions; {linkId: Coding}."""
    assert len(step_form(driver).find_elements(By.CSS_SELECTOR, "input[type=radio]")) == 9 * 4
    clicked = {}
    for item, score in zip(PHQ9_QUESTIONS, scores):
        coding = phq9_option(item, score)
        click_option(driver, question_text(item), coding["display"])
        clicked[item["linkId"]] = coding
    return clicked


def controls(driver) -> set[str]:
    return {c.get_attribute("name") for c in step_form(driver).find_elements(By.CSS_SELECTOR, "input, select, textarea")
            if not c.get_attribute("name").startswith("_")}


def check_timings(response: dict, link_ids: list[str]):
    """The run's start and end, and one step timing per step visit on the path, in order."""
    (run,) = extensions(response, RUN_TIMING)
    assert run["start"] <= run["end"], run
    steps = extensions(response, STEP_TIMING)
    assert [step["linkId"] for step in steps] == link_ids
    for step in steps:
        assert run["start"] <= step["start"] <= step["end"] <= run["end"], (run, step)


# --- PHQ-9 -----------------------------------------------------------------------------------

def test_phq9_answered_in_chromium_is_a_valid_response_with_the_clicked_codings_and_the_total(fhir_server, chromium):
    driver = chromium
    driver.get(f"{fhir_server.url}/surveys/phq-9")
    assert driver.find_element(By.TAG_NAME, "h1").text == PHQ9["item"][0]["text"]
    clicked = answer_phq9_questions(driver, SCORES_11)
    press(driver, "next")
    assert error_summary_text(driver) is None, error_summary_text(driver)
    assert read_only_value(driver, "Total score") == "11 points", "the total shows before the question that needs it"
    press(driver, "next")
    difficulty = PHQ9_DIFFICULTY_ITEM["answerOption"][1]["valueCoding"]
    click_option(driver, PHQ9_DIFFICULTY_ITEM["text"], difficulty["display"])
    clicked[PHQ9_DIFFICULTY] = difficulty
    press(driver, "next")

    response = browser_result(driver, fhir_server, "phq-9")
    assert response["status"] == "completed"
    assert response["questionnaire"] == PHQ9["url"] == "http://loinc.org/q/44249-1"
    assert response["id"] == response["identifier"]["value"].removeprefix("urn:uuid:")
    given = answers(response)
    for link_id, coding in clicked.items():
        assert given[link_id] == [{"valueCoding": coding}], link_id
    assert given[PHQ9_TOTAL] == [{"valueInteger": 11}]
    assert set(given) == set(clicked) | {PHQ9_TOTAL}
    assert [item["linkId"] for item in response["item"]] == [PHQ9_GROUP], "one group at the top"
    above = parents(response)
    assert all(above[link_id] == (PHQ9_GROUP,) for link_id in given), above
    expected_order = [item["linkId"] for item in PHQ9["item"][0]["item"]]
    assert [item["linkId"] for item in response["item"][0]["item"]] == expected_order
    texts = {item["linkId"]: item["text"] for item in PHQ9["item"][0]["item"]}
    assert all(item["text"] == texts[item["linkId"]] for item in response["item"][0]["item"])
    check_timings(response, [PHQ9_GROUP])

    # The same run from the researcher API: listed for the survey, and the same resource.
    content_type, listed = api(fhir_server, "/api/v1/runs?survey=phq-9")
    assert response["id"] in {run["id"] for run in listed["runs"]}
    content_type, from_api = api(fhir_server, f"/api/v1/runs/{response['id']}?format=fhir")
    assert content_type.startswith(FHIR_JSON), content_type
    validate_response_for(from_api, PHQ9)
    assert from_api == response


def test_phq9_total_of_0_after_back_and_a_change_leaves_the_difficulty_item_out(fhir_server, chromium):
    driver = chromium
    driver.get(f"{fhir_server.url}/surveys/phq-9")
    answer_phq9_questions(driver, [0, 0, 0, 3, 0, 0, 0, 0, 0])
    press(driver, "next")
    assert read_only_value(driver, "Total score") == "3 points"
    press(driver, "next")
    assert PHQ9_DIFFICULTY in controls(driver), "a total above 0 asks the difficulty question"
    press(driver, "back")
    press(driver, "back")
    clicked = answer_phq9_questions(driver, [0] * 9)
    press(driver, "next")
    assert read_only_value(driver, "Total score") == "0 points", "worked out again after the change"
    press(driver, "next")

    response = browser_result(driver, fhir_server, "phq-9")
    assert response["status"] == "completed"
    given = answers(response)
    assert PHQ9_DIFFICULTY not in items_by_link_id(response), "a disabled item is absent"
    assert given[PHQ9_TOTAL] == [{"valueInteger": 0}]
    assert {link_id: a for link_id, a in given.items() if link_id != PHQ9_TOTAL} == \
        {link_id: [{"valueCoding": coding}] for link_id, coding in clicked.items()}
    assert all(coding["code"] == "LA6568-5" for coding in clicked.values())


# --- height, weight, BMI -----------------------------------------------------------------------

def test_bmi_is_worked_out_from_the_typed_quantities_and_returned(fhir_server, chromium):
    driver = chromium
    driver.get(f"{fhir_server.url}/surveys/height-weight-bmi")
    type_into_labelled(driver, "Body height", "180")
    press(driver, "next")
    type_into_labelled(driver, "Body weight", "75")
    press(driver, "next")
    assert read_only_value(driver, "Body mass index (BMI)") == "23.1 kg/m2"
    press(driver, "next")

    response = browser_result(driver, fhir_server, "height-weight-bmi")
    assert response["questionnaire"] == "http://example.org/fhir/Questionnaire/height-weight-bmi"
    given = answers(response)
    assert list(given) == ["8302-2", "29463-7", "39156-5"]
    ucum = "http://unitsofmeasure.org"
    for link_id, value, unit in (("8302-2", 180, "cm"), ("29463-7", 75, "kg")):
        (answer,) = given[link_id]
        assert number(answer) == value
        assert answer["valueQuantity"]["system"] == ucum and answer["valueQuantity"]["code"] == unit, answer
    (bmi,) = given["39156-5"]
    assert set(bmi) <= {"valueDecimal", "valueQuantity"}, bmi
    assert number(bmi) == Decimal("23.1")
    check_timings(response, ["8302-2", "29463-7", "39156-5"])


# --- nested groups --------------------------------------------------------------------------

ABOUT_YOU = {"full-name": "Ada Lovelace", "birth-date.day": "10", "birth-date.month": "12", "birth-date.year": "1985",
             "postcode": "10115", "household": "2", "best-time": "09:15", "last-visit.day": "3",
             "last-visit.month": "2", "last-visit.year": "2026", "last-visit.time": "10:45"}
ALLERGIES = {"allergy-kind": ["Pollen", "other"], "allergy-kind.other": "Cats", "allergy-reaction": "Hives",
             "auto-injector": "true"}


def fill_exactly(driver, values: dict):
    """Fill the page's controls from values; every value must have found its control."""
    filled = fill_page(driver, values)
    assert sorted(filled) == sorted(values), f"{driver.title}: filled {filled}, wanted {sorted(values)}"


def about_you_page(driver, allergies: str):
    assert driver.find_element(By.TAG_NAME, "h1").text == "About you"
    fill_exactly(driver, ABOUT_YOU)
    click_option(driver, "Do you have any allergies?", "Yes" if allergies == "true" else "No")
    press(driver, "next")
    assert error_summary_text(driver) is None, error_summary_text(driver)


def test_nested_groups_are_nested_in_the_response_when_enabled(fhir_server, chromium):
    driver = chromium
    driver.get(f"{fhir_server.url}/surveys/clinic-intake")
    about_you_page(driver, "true")
    sections = [legend.text for legend in driver.find_elements(By.CSS_SELECTOR, "fieldset.form-section > legend")]
    assert sections == ["Your allergies", "Severe reactions"]
    click_option(driver, "Which best describes your smoking?", "Never smoked tobacco")
    fill_exactly(driver, ALLERGIES)
    press(driver, "next")          # household 2 and never smoked: the follow-up is disabled

    response = browser_result(driver, fhir_server, "clinic-intake")
    assert response["questionnaire"] == f"{INTAKE['url']}|{INTAKE['version']}"
    above = parents(response)
    assert above["auto-injector"] == ("health", "allergies", "severe")
    assert above["allergy-kind"] == ("health", "allergies")
    assert above["best-time"] == ("about-you", "contact")
    given = answers(response)
    assert given["allergy-kind"] == [{"valueString": "Pollen"}, {"valueString": "Cats"}]
    assert given["auto-injector"] == [{"valueBoolean": True}]
    assert given["smoking"] == [{"valueCoding": {"system": "http://snomed.info/sct", "code": "266919005",
                                                 "display": "Never smoked tobacco"}}]
    assert given["birth-date"] == [{"valueDate": "1985-12-10"}]
    assert given["best-time"] == [{"valueTime": "09:15:00"}]
    assert given["last-visit"][0]["valueDateTime"].startswith("2026-02-03T10:45:00")
    assert given["household"] == [{"valueInteger": 2}]
    assert "follow-up" not in above
    check_timings(response, ["about-you", "health"])


def test_a_nested_group_disabled_after_back_and_a_change_leaves_none_of_its_items(fhir_server, chromium):
    driver = chromium
    driver.get(f"{fhir_server.url}/surveys/clinic-intake")
    about_you_page(driver, "true")
    click_option(driver, "Which best describes your smoking?", "Ex-smoker")
    fill_exactly(driver, ALLERGIES)
    press(driver, "next")
    assert controls(driver) == {"follow-up"}, "an ex-smoker is asked what to talk about"
    press(driver, "back")
    assert {"allergy-kind", "auto-injector"} <= controls(driver)
    press(driver, "back")
    about_you_page(driver, "false")
    assert controls(driver) == {"smoking"}, "no allergies: the group and the group inside it are gone"
    press(driver, "next")
    fill_exactly(driver, {"follow-up": "My knee"})
    press(driver, "next")

    response = browser_result(driver, fhir_server, "clinic-intake")
    present = set(items_by_link_id(response))
    assert not present & ALLERGY_ITEMS, f"the disabled group left {present & ALLERGY_ITEMS}"
    assert "Hives" not in json.dumps(response) and "Cats" not in json.dumps(response)
    given = answers(response)
    assert given["has-allergies"] == [{"valueBoolean": False}]
    assert given["follow-up"] == [{"valueString": "My knee"}]
    assert given["smoking"][0]["valueCoding"]["code"] == "8517006"
    assert [item["linkId"] for item in response["item"]] == ["about-you", "health"]
    assert [item["linkId"] for item in response["item"][1]["item"]] == ["smoking", "follow-up"]


def test_a_disabled_nested_group_draws_no_heading(fhir_server):
    client = Http(fhir_server.url)
    status, body, url = client.get("/surveys/clinic-intake")
    status, body, url = client.post_form(body, url, {**ABOUT_YOU, "has-allergies": "false"})
    assert status == 200 and set(controls_of(body).controls) == {"smoking"}
    assert b"Your allergies" not in body and b"Severe reactions" not in body


# --- accessibility and HTML of the pages these Questionnaires make -----------------------------

def test_axe_finds_nothing_on_the_fhir_pages(fhir_server, chromium_js, artifacts):
    """The PHQ-9 questions (also re-shown with an error), its read-only total, the difficulty
    question and the done page; the BMI's read-only value; the clinic intake's nested groups."""
    driver = chromium_js
    findings = []
    driver.get(f"{fhir_server.url}/surveys/phq-9")
    findings += axe_findings(driver, "PHQ-9 questions")
    click_option(driver, question_text(PHQ9_QUESTIONS[0]), "Several days")
    press(driver, "next")
    assert error_summary_text(driver), "eight required questions left empty"
    findings += axe_findings(driver, "PHQ-9 questions with errors")
    answer_phq9_questions(driver, SCORES_11)
    press(driver, "next")
    assert read_only_value(driver, "Total score") == "11 points"
    findings += axe_findings(driver, "PHQ-9 total")
    press(driver, "next")
    findings += axe_findings(driver, "PHQ-9 difficulty")
    click_option(driver, PHQ9_DIFFICULTY_ITEM["text"], "Very difficult")
    press(driver, "next")
    findings += axe_findings(driver, "PHQ-9 done")

    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get(f"{fhir_server.url}/surveys/height-weight-bmi")
    type_into_labelled(driver, "Body height", "180")
    press(driver, "next")
    type_into_labelled(driver, "Body weight", "75")
    press(driver, "next")
    findings += axe_findings(driver, "BMI")

    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get(f"{fhir_server.url}/surveys/clinic-intake")
    findings += axe_findings(driver, "intake: about you")
    about_you_page(driver, "true")
    findings += axe_findings(driver, "intake: health with nested groups")

    (artifacts / "axe-fhir.json").write_text(json.dumps(findings, indent=1))
    if findings:
        pytest.fail(f"axe found {len(findings)} violation(s):\n" + format_findings(findings), pytrace=False)


def test_nu_checker_finds_no_error_on_the_fhir_pages(fhir_server, tmp_path, artifacts):
    """The bytes the server sends for the same pages, fetched over raw HTTP."""
    pages = []
    client = Http(fhir_server.url)
    status, body, url = client.get("/surveys/phq-9")
    pages.append(("PHQ-9 questions", url, status, body))
    first = PHQ9_QUESTIONS[0]
    status, body, url = client.post_form(body, url, {first["linkId"]: phq9_option(first, 1)["code"]})
    assert status == 422
    pages.append(("PHQ-9 questions with errors", url, status, body))
    fields = {item["linkId"]: phq9_option(item, score)["code"] for item, score in zip(PHQ9_QUESTIONS, SCORES_11)}
    status, body, url = client.post_form(body, url, fields)
    assert b">11 points</output>" in body
    pages.append(("PHQ-9 total", url, status, body))
    status, body, url = client.post_form(body, url, {})
    assert PHQ9_DIFFICULTY in controls_of(body).controls
    pages.append(("PHQ-9 difficulty", url, status, body))
    status, body, url = client.post_form(body, url, {PHQ9_DIFFICULTY: "LA6574-3"})
    assert url.endswith("/done")
    pages.append(("PHQ-9 done", url, status, body))

    client = Http(fhir_server.url)
    status, body, url = client.get("/surveys/height-weight-bmi")
    status, body, url = client.post_form(body, url, {"8302-2": "180"})
    status, body, url = client.post_form(body, url, {"29463-7": "75"})
    assert b">23.1 kg/m2</output>" in body
    pages.append(("BMI", url, status, body))

    client = Http(fhir_server.url)
    status, body, url = client.get("/surveys/clinic-intake")
    pages.append(("intake: about you", url, status, body))
    status, body, url = client.post_form(body, url, {**ABOUT_YOU, "has-allergies": "true"})
    assert "auto-injector" in controls_of(body).controls
    pages.append(("intake: health with nested groups", url, status, body))
    assert all(status in (200, 422) for _, _, status, _ in pages)
    check_with_vnu(pages, tmp_path, artifacts, "fhir")
