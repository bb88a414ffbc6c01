"""The researcher's doors to the responses of a FHIR Questionnaire served as it is (a copy of
the LOINC PHQ-9), each document valid R4 (fhir_check.py) and fitting the Questionnaire
(fhir_consistency.py):
- the export route's Bundle holds one valid entry per run, each the run's own response from
  the API, a saved run in progress with the answers given before it was saved, and no entry
  at all for a survey without runs;
- --webhook-format fhir posts a valid QuestionnaireResponse, signed, once.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import time

import pytest

from support import Server, free_port
from fhir_check import (FIXTURES, PHQ9, PHQ9_DIFFICULTY, PHQ9_QUESTIONS, PHQ9_TOTAL, answers, items_by_link_id,
                        phq9_by_http, validate_bundle)
from fhir_consistency import validate_response_for
from fhir_walks import FHIR_JSON, TOKEN, WebhookReceiver, api, run_ids

SECRET = "fhir-webhook-secret-0123456789"


@pytest.fixture(scope="module")
def surveys(tmp_path_factory):
    """Copies of the Questionnaires, as an EHR would hand them over."""
    folder = tmp_path_factory.mktemp("fhir-researcher-surveys")
    for name in ("phq-9.json", "stu3-options.json"):
        shutil.copy(FIXTURES / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def fhir_server(start_server, surveys):
    return start_server(surveys, extra=("--api-token", TOKEN))


def test_export_route_gives_a_valid_bundle_with_one_entry_per_run(fhir_server):
    before = run_ids(fhir_server, "phq-9")
    phq9_by_http(fhir_server.url, [0] * 9)
    phq9_by_http(fhir_server.url, [3] * 9, difficulty="LA6575-0")
    phq9_by_http(fhir_server.url, [1] * 9, stop="save")
    made = run_ids(fhir_server, "phq-9") - before
    assert len(made) == 3

    content_type, bundle = api(fhir_server, "/api/v1/surveys/phq-9/export?format=fhir")
    assert content_type.startswith(FHIR_JSON), content_type
    validate_bundle(bundle)
    assert bundle["type"] == "collection"
    entries = bundle["entry"]
    for index, entry in enumerate(entries):
        validate_response_for(entry["resource"], PHQ9, f"$.entry[{index}].resource")
    assert sorted(e["resource"]["id"] for e in entries) == sorted(run_ids(fhir_server, "phq-9"))
    for entry in entries:
        assert entry["fullUrl"] == "urn:uuid:" + entry["resource"]["id"]
        _, alone = api(fhir_server, f"/api/v1/runs/{entry['resource']['id']}?format=fhir")
        assert alone == entry["resource"], "the Bundle's entry is the run's own QuestionnaireResponse"

    mine = sorted((e["resource"] for e in entries if e["resource"]["id"] in made),
                  key=lambda r: r["status"] + json.dumps(answers(r).get(PHQ9_TOTAL)))
    zero, top, saved = mine
    assert zero["status"] == top["status"] == "completed"
    assert answers(zero)[PHQ9_TOTAL] == [{"valueInteger": 0}]
    assert PHQ9_DIFFICULTY not in items_by_link_id(zero)
    assert answers(top)[PHQ9_TOTAL] == [{"valueInteger": 27}]
    assert answers(top)[PHQ9_DIFFICULTY][0]["valueCoding"]["code"] == "LA6575-0"
    assert saved["status"] == "in-progress", "a saved run is in the Bundle, in progress"
    saved_answers = answers(saved)
    assert all(saved_answers[item["linkId"]][0]["valueCoding"]["code"] == "LA6569-3" for item in PHQ9_QUESTIONS), \
        "with the answers given before it was saved"

    _, empty = api(fhir_server, "/api/v1/surveys/stu3-sleep/export?format=fhir")
    validate_bundle(empty)
    assert empty["type"] == "collection" and "entry" not in empty, "no runs: no entry (FHIR has no empty array)"


def test_webhook_posts_the_questionnaire_response_signed(surveys, tmp_path):
    receiver = WebhookReceiver(free_port())
    port = receiver.server.server_address[1]
    server = Server(surveys, tmp_path / "data",
                    ("--webhook-url", f"http://127.0.0.1:{port}/fhir-hook", "--webhook-format", "fhir"),
                    env={"SURVEY_WEBHOOK_SECRET": SECRET}).start()
    try:
        phq9_by_http(server.url, [1] * 9, difficulty="LA6572-7")
        deadline = time.time() + 30
        while not receiver.bodies and time.time() < deadline:
            time.sleep(0.1)
        assert len(receiver.bodies) == 1, f"{len(receiver.bodies)} deliveries"
        headers, body = receiver.bodies[0]
        expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Survey-Signature"] == expected
        assert headers["X-Survey-Event"]
        assert headers["Content-Type"] == "application/fhir+json"
        response = json.loads(body)
        validate_response_for(response, PHQ9)
        assert response["status"] == "completed"
        assert response["questionnaire"] == PHQ9["url"]
        given = answers(response)
        assert given[PHQ9_TOTAL] == [{"valueInteger": 9}]
        assert given[PHQ9_DIFFICULTY][0]["valueCoding"]["code"] == "LA6572-7"
        time.sleep(1.0)
        assert len(receiver.bodies) == 1, "a delivered event was posted again"
    finally:
        server.stop()
        receiver.stop()
