"""PHQ-9 (Examples/phq-9.json, whose total asks to be extracted) started by an EHR for a
patient and a visit, and its answers sent back as a FHIR transaction: the QuestionnaireResponse
and the total as an Observation, each valid R4 (fhir_check.py), from the API, the export route,
`survey export` and the webhook. The height-weight-BMI fixture, marked for extraction as a
whole, gives height, weight and BMI as Observations with their UCUM units.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest

from support import BINARY, ROOT, Http, Server, free_port
from fhir_check import FIXTURES, PHQ9_TOTAL, answers, load_json, phq9_by_http, validate_bundle
from fhir_walks import FHIR_JSON, TOKEN, WebhookReceiver, api, api_post

SECRET = "fhir-transaction-secret-0123456789"
SUBJECT = {"reference": "Patient/p-17", "display": "Test Patient"}
ENCOUNTER = "Encounter/e-9"


EXTRACT = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-observationExtract"


@pytest.fixture(scope="module")
def surveys(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fhir-transaction-surveys")
    shutil.copy(ROOT / "Examples" / "phq-9.json", folder / "phq-9.json")
    bmi = load_json(FIXTURES / "height-weight-bmi.json")
    bmi["extension"].append({"url": EXTRACT, "valueBoolean": True})
    (folder / "height-weight-bmi.json").write_text(json.dumps(bmi))
    return folder


def answered_for_patient(server, scores: list[int]) -> str:
    """A run the EHR starts for SUBJECT in ENCOUNTER, answered from its start link; its id."""
    created = api_post(server, "/api/v1/runs", {"survey": "phq-9", "subject": "Patient/p-17", "encounter": ENCOUNTER})
    assert created["subject"] == {"reference": "Patient/p-17"}
    client = Http(server.url)
    status, body, url = client.get(created["startLink"])
    assert status == 200, body[:2000]
    status, body, url = client.post_form(body, url, {}, action=None)
    assert status == 200, (status, url)
    phq9_by_http(server.url, scores, client=client)
    return created["id"]


def entries_of(bundle: dict, kind: str) -> list[dict]:
    return [entry for entry in bundle.get("entry", []) if entry["resource"]["resourceType"] == kind]


def check_transaction(bundle: dict, total: int, subject: dict):
    """One response and one Observation per run in the Bundle; the Observation is the total,
    coded 44261-6 in {score}, about the same patient and visit, derived from its response."""
    validate_bundle(bundle)
    assert bundle["type"] == "transaction"
    responses = {e["fullUrl"]: e for e in entries_of(bundle, "QuestionnaireResponse")}
    observations = entries_of(bundle, "Observation")
    assert len(observations) == len(responses) >= 1
    for entry in observations + list(responses.values()):
        assert entry["request"]["method"] == "POST"
        assert entry["request"]["url"] == entry["resource"]["resourceType"]
        assert entry["request"]["ifNoneExist"] == "identifier=urn:ietf:rfc:3986|" + entry["fullUrl"]
    for observation in observations:
        resource = observation["resource"]
        response = responses[resource["derivedFrom"][0]["reference"]]["resource"]
        assert resource["code"]["coding"][0] == {"system": "http://loinc.org", "code": PHQ9_TOTAL,
                                                 "display": "Patient health questionnaire 9 item total score"}
        assert resource["status"] == "final"
        assert resource["valueQuantity"]["value"] == total == answers(response)[PHQ9_TOTAL][0]["valueInteger"]
        assert resource["valueQuantity"]["code"] == "{score}"
        assert resource["valueQuantity"]["system"] == "http://unitsofmeasure.org"
        assert resource["subject"] == response["subject"] == subject
        assert resource["encounter"] == response["encounter"] == {"reference": ENCOUNTER}
        assert resource["effectiveDateTime"] == response["authored"]


def test_api_and_export_give_a_valid_transaction(start_server, surveys, tmp_path):
    server = start_server(surveys, extra=("--api-token", TOKEN))
    run_id = answered_for_patient(server, [2] * 9)
    content_type, bundle = api(server, f"/api/v1/runs/{run_id}?format=fhir-transaction")
    assert content_type.startswith(FHIR_JSON), content_type
    check_transaction(bundle, 18, {"reference": "Patient/p-17"})
    _, alone = api(server, f"/api/v1/runs/{run_id}?format=fhir")
    assert entries_of(bundle, "QuestionnaireResponse")[0]["resource"] == alone

    _, exported = api(server, "/api/v1/surveys/phq-9/export?format=fhir-transaction")
    check_transaction(exported, 18, {"reference": "Patient/p-17"})
    assert exported["entry"] == bundle["entry"]


def test_survey_export_writes_the_transaction(surveys, tmp_path):
    data = tmp_path / "data"
    server = Server(surveys, data, ("--api-token", TOKEN)).start()
    try:
        answered_for_patient(server, [1] * 9)
    finally:
        server.stop()
    out = tmp_path / "phq-9.transaction.json"
    result = subprocess.run([str(BINARY), "export", "phq-9", "--format", "fhir-transaction", "--surveys", str(surveys),
                             "--data", str(data), "--output", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    check_transaction(json.loads(out.read_text()), 9, {"reference": "Patient/p-17"})


def test_webhook_posts_the_transaction(surveys, tmp_path):
    receiver = WebhookReceiver(free_port())
    port = receiver.server.server_address[1]
    server = Server(surveys, tmp_path / "data",
                    ("--api-token", TOKEN, "--webhook-url", f"http://127.0.0.1:{port}/ehr",
                     "--webhook-format", "fhir-transaction"),
                    env={"SURVEY_WEBHOOK_SECRET": SECRET}).start()
    try:
        answered_for_patient(server, [3] * 9)
        deadline = time.time() + 30
        while not receiver.bodies and time.time() < deadline:
            time.sleep(0.1)
        assert len(receiver.bodies) == 1, f"{len(receiver.bodies)} deliveries"
        headers, body = receiver.bodies[0]
        assert headers["Content-Type"] == "application/fhir+json"
        check_transaction(json.loads(body), 27, {"reference": "Patient/p-17"})
    finally:
        server.stop()
        receiver.stop()


def test_a_bmi_and_its_measurements_become_observations_with_their_units(start_server, surveys):
    server = start_server(surveys, extra=("--api-token", TOKEN))
    created = api_post(server, "/api/v1/runs", {"survey": "height-weight-bmi", "subject": {"identifier": {"system": "urn:mrn", "value": "884"}}})
    client = Http(server.url)
    status, body, url = client.get(created["startLink"])
    status, body, url = client.post_form(body, url, {}, action=None)
    status, body, url = client.post_form(body, url, {"8302-2": "180"})
    status, body, url = client.post_form(body, url, {"29463-7": "75"})
    assert b">23.1 kg/m2</output>" in body
    status, body, url = client.post_form(body, url, {})
    assert url.endswith("/done"), url
    _, bundle = api(server, f"/api/v1/runs/{created['id']}?format=fhir-transaction")
    validate_bundle(bundle)
    observations = {e["resource"]["code"]["coding"][0]["code"]: e["resource"] for e in entries_of(bundle, "Observation")}
    assert set(observations) == {"8302-2", "29463-7", "39156-5"}
    assert observations["39156-5"]["valueQuantity"] == {"value": 23.1, "unit": "kg/m2", "system": "http://unitsofmeasure.org", "code": "kg/m2"}
    assert observations["8302-2"]["valueQuantity"]["value"] == 180 and observations["8302-2"]["valueQuantity"]["code"] == "cm"
    assert observations["29463-7"]["valueQuantity"]["code"] == "kg"
    assert all(o["subject"] == {"identifier": {"system": "urn:mrn", "value": "884"}} for o in observations.values())
