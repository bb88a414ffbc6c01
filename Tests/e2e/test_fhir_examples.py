"""Every example survey, native or a FHIR Questionnaire, answered over HTTP on a real server:
every FHIR document the product emits for it is valid R4 (fhir.resources, fhir_check.py) and
fits the Questionnaire that `survey export-definition` writes for the survey
(fhir_consistency.py: canonical, linkIds and their places, answer types and options,
enableWhen, required items):
- the Questionnaire itself, for each example (and, for the PHQ-9, the EHR's own file too);
- the browser's result.json?format=fhir, the API's ?format=fhir and the body the webhook posts
  with --webhook-format fhir, which are one and the same response;
- the export route's Bundle, whose entries are those responses, one per run;
- other paths through the native examples: "I don't know", a question hidden by its
  condition, an optional one left empty, a branch not taken.
"""
from __future__ import annotations

import copy
import hashlib
import hmac
import json

import pytest

from support import EXAMPLES_DIR, Server, free_port
from support.links import survey_document
from fhir_check import all_items, answers, items_by_link_id, load_json, validate_bundle
from fhir_consistency import validate_response_for
from fhir_walks import (EXAMPLE_IDS, FHIR_JSON, SECRET, TOKEN, WebhookReceiver, api, browser_fhir, example_values,
                        exported_questionnaire, fhir_of_run, new_run_id, run_ids, walk)

ANSWER_KEYS = ("booleanAnswer", "choiceAnswers", "scaleAnswer", "numericAnswer", "dateComponentsAnswer", "dateAnswer",
               "intervalAnswer", "textAnswer", "rungPicked", "componentsAnswer", "locationAnswer")


@pytest.fixture(scope="module")
def receiver():
    hook = WebhookReceiver(free_port())
    yield hook
    hook.stop()


@pytest.fixture(scope="module")
def examples_server(receiver, tmp_path_factory):
    port = receiver.server.server_address[1]
    server = Server(EXAMPLES_DIR, tmp_path_factory.mktemp("fhir-examples-data"),
                    ("--api-token", TOKEN, "--webhook-url", f"http://127.0.0.1:{port}/hook", "--webhook-format", "fhir"),
                    env={"SURVEY_WEBHOOK_SECRET": SECRET}).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def questionnaires():
    return {survey_id: exported_questionnaire(survey_id) for survey_id in EXAMPLE_IDS}


def allocation_steps(survey_id: str) -> set[str]:
    """A native survey's allocation steps. One shows nothing and has no FHIR equivalent, so
    `survey export-definition` leaves it out of the Questionnaire (saying so) and the arm it
    records is no item of a response."""
    survey = survey_document(survey_id) or {}
    return {step["identifier"] for step in survey.get("steps", []) if step.get("type") == "allocation"}


def answered_in_result(result: dict, left_out: set[str] = frozenset()) -> int:
    """How many questions the run's result (spec §5) records an answer or "don't know" for,
    counting each step once, as it was last answered; the steps `left_out` not counted."""
    last = {}
    for step in result["results"]:
        if step["identifier"] not in left_out:
            last[step["identifier"]] = step
    count = 0
    for step in last.values():
        # a repeating form's answers are in its instances (docs/repeats-and-grids.md#results)
        questions = step.get("results", []) + [q for instance in step.get("instances", []) for q in instance["results"]]
        for question in questions:
            recorded = [key for key in ANSWER_KEYS if question.get(key) not in (None, [], "")]
            count += bool(recorded) or question.get("noAnswerType") == "dontKnow"
    return count


def answered_in_response(response: dict) -> int:
    """Items answered (or marked absent) at any depth; each instance of a repeating group is an
    item of its own with the group's linkId, so items are counted, not linkIds."""
    return sum(1 for item in all_items(response)
               if "answer" in item or any(e["url"].endswith("data-absent-reason") for e in item.get("extension", [])))


# --- the Questionnaires ------------------------------------------------------------------------

@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_each_example_is_exported_as_a_valid_questionnaire(survey_id, questionnaires):
    questionnaire = questionnaires[survey_id]
    source = load_json(EXAMPLES_DIR / f"{survey_id}.json")
    assert questionnaire["status"] in ("active", "draft")
    assert questionnaire["item"], f"{survey_id}: a Questionnaire with no items"
    if source.get("resourceType") == "Questionnaire":
        assert questionnaire["url"] == source["url"]
        assert list(items_by_link_id(questionnaire)) == list(items_by_link_id(source)), "the EHR's linkIds, in order"
    else:
        assert questionnaire["url"] == f"urn:survey-presenter:questionnaire:{survey_id}"
        assert questionnaire.get("version"), "a native survey's Questionnaire names its version"


# --- the responses of a run answered to the end --------------------------------------------------

@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_each_example_answered_gives_one_valid_response_at_every_door(survey_id, examples_server, receiver,
                                                                      questionnaires):
    questionnaire = questionnaires[survey_id]
    before = run_ids(examples_server, survey_id)
    client, _, _ = walk(examples_server.url, survey_id, example_values(survey_id))
    run_id = new_run_id(examples_server, survey_id, before)

    from_browser = browser_fhir(client, survey_id)
    validate_response_for(from_browser, questionnaire)
    assert from_browser["status"] == "completed"
    assert from_browser["id"] == run_id
    status, _, body, _ = client.request(f"/surveys/{survey_id}/result.json")
    assert status == 200
    assert answered_in_response(from_browser) == answered_in_result(json.loads(body), allocation_steps(survey_id)) > 0, \
        "every answer the run recorded is in the response"

    from_api = fhir_of_run(examples_server, run_id, identifiers=True)
    validate_response_for(from_api, questionnaire)
    assert from_api == from_browser
    without = fhir_of_run(examples_server, run_id)
    validate_response_for(without, questionnaire)
    if survey_id == "study-consent":
        assert "García" in json.dumps(from_api, ensure_ascii=False)
        assert "García" not in json.dumps(without, ensure_ascii=False), "the API leaves the signature's names out unless asked"

    headers, posted = receiver.response_for(run_id)
    validate_response_for(posted, questionnaire)
    assert headers["Content-Type"] == FHIR_JSON
    assert posted == from_browser, "the webhook posts the same response"

    source = load_json(EXAMPLES_DIR / f"{survey_id}.json")
    if source.get("resourceType") == "Questionnaire":
        validate_response_for(from_browser, source)


def test_the_webhook_signs_each_fhir_body(examples_server, receiver):
    before = run_ids(examples_server, "wellbeing-check")
    walk(examples_server.url, "wellbeing-check", example_values("wellbeing-check"))
    run_id = new_run_id(examples_server, "wellbeing-check", before)
    receiver.response_for(run_id)
    signed = [(headers, body) for headers, body in receiver.bodies if json.loads(body)["id"] == run_id]
    assert len(signed) == 1
    headers, body = signed[0]
    assert headers["X-Survey-Signature"] == "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()


def test_the_checks_refuse_a_real_response_once_broken(examples_server, questionnaires):
    """The every-format response as the server sent it passes; each breakage of it is refused."""
    questionnaire = questionnaires["every-format"]
    client, _, _ = walk(examples_server.url, "every-format", example_values("every-format"))
    response = browser_fhir(client, "every-format")
    validate_response_for(response, questionnaire)

    def top(document, link_id):
        return next(item for item in document["item"] if item["linkId"] == link_id)

    breakages = [
        (lambda d: top(d, "contact-ok").update(answer=[{"valueString": "yes"}]), "valueString answers a boolean item"),
        (lambda d: top(d, "handedness")["answer"][0]["valueCoding"].update(code="left-foot"), "answerOptions"),
        (lambda d: d["item"].append(top(d, "about-you")["item"][0]["item"].pop()), "under []"),
        (lambda d: d.update(questionnaire=d["questionnaire"] + "0"), "names version"),
        (lambda d: top(d, "stress").update(answer=[{"valueInteger": 11}]), "beyond its maxValue"),
        (lambda d: d.pop("status"), "status"),
    ]
    for change, words in breakages:
        broken = copy.deepcopy(response)
        change(broken)
        with pytest.raises(AssertionError) as refusal:
            validate_response_for(broken, questionnaire)
        assert words in str(refusal.value), str(refusal.value)[:2000]


# --- other paths through the native examples ------------------------------------------------------

def every_format_unknown_hidden_and_empty() -> dict:
    """Contact "No" hides the email item; the ladder is left empty (stress gets "I don't know")."""
    values = example_values("every-format")
    values["contact-ok"] = "false"
    for name in ("stress", "ladder", "email"):
        values.pop(name)
    return values


PATHS = {
    "every-format, don't know, hidden and empty": ("every-format", every_format_unknown_hidden_and_empty,
                                                   frozenset({"stress.dontKnow"}), ""),
    "fever-triage without a fever": ("fever-triage", lambda: {"fever": "false"}, frozenset(), ""),
    "fever-triage, only what is required": ("fever-triage", lambda: {"fever": "true", "celsius": "38.1",
                                                                     "danger-signs": "none"}, frozenset(), ""),
    "fever-triage in Spanish": ("fever-triage", lambda: example_values("fever-triage"), frozenset(), "?lang=es"),
    "wellbeing-check, only what is required": ("wellbeing-check", lambda: {"mood": "3"}, frozenset(), ""),
}


@pytest.mark.parametrize("path", list(PATHS))
def test_other_paths_give_valid_responses(path, examples_server, questionnaires):
    """The texts and displays stay the Questionnaire's whatever language the participant reads."""
    survey_id, values, buttons, query = PATHS[path]
    client, page, url = walk(examples_server.url, survey_id, values(), buttons=buttons, query=query)
    if query:
        assert b'lang="es"' in page, "the participant read the survey in Spanish"
    response = browser_fhir(client, survey_id)
    validate_response_for(response, questionnaires[survey_id])
    assert response["status"] == "completed"
    given = answers(response)
    if survey_id == "every-format":
        present = items_by_link_id(response)
        assert "stress" in present and "stress" not in given, "don't know: the item without an answer"
        assert any(e["url"].endswith("data-absent-reason") for e in present["stress"]["extension"])
        assert "about-you.email" not in present and "ladder" not in present
        assert given["contact-ok"] == [{"valueBoolean": False}]
    elif path == "fever-triage without a fever":
        assert given["fever"] == [{"valueBoolean": False}]
        assert "temperature" not in items_by_link_id(response), "the branch not taken leaves nothing"


# --- the export route's Bundle ----------------------------------------------------------------------

@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_export_route_gives_a_valid_bundle_of_the_runs(survey_id, examples_server, questionnaires):
    walk(examples_server.url, survey_id, example_values(survey_id))
    walk(examples_server.url, survey_id, example_values(survey_id), pages=1)   # gad-7 ends after its second page
    content_type, bundle = api(examples_server, f"/api/v1/surveys/{survey_id}/export?format=fhir")
    assert content_type.startswith(FHIR_JSON), content_type
    validate_bundle(bundle)
    assert bundle["type"] == "collection"
    # A survey that takes consent adds a Consent beside the response of each run that reached it.
    consents = [entry for entry in bundle["entry"] if entry["resource"]["resourceType"] == "Consent"]
    entries = [entry for entry in bundle["entry"] if entry["resource"]["resourceType"] != "Consent"]
    assert sorted(entry["resource"]["id"] for entry in entries) == sorted(run_ids(examples_server, survey_id))
    for consent in consents:
        assert consent["fullUrl"] == "urn:uuid:" + consent["resource"]["id"]
        assert consent["resource"]["id"] not in run_ids(examples_server, survey_id), "a Consent has an id of its own"
    assert bool(consents) == (survey_id == "study-consent")
    statuses = set()
    for index, entry in enumerate(entries):
        resource = entry["resource"]
        validate_response_for(resource, questionnaires[survey_id], f"$.entry[{index}].resource")
        assert entry["fullUrl"] == "urn:uuid:" + resource["id"]
        assert resource == fhir_of_run(examples_server, resource["id"]), "the entry is the run's own response"
        statuses.add(resource["status"])
    assert {"completed", "in-progress"} <= statuses, statuses
