"""Each status a QuestionnaireResponse of the product can have, for every example survey, each
response valid R4 (fhir_check.py) and fitting the survey's Questionnaire (fhir_consistency.py):
- `in-progress` for a run saved for later, a run left unfinished, and a run made through the
  API that nobody has started (no items at all);
- a run discarded on the cancel page is deleted, so nothing FHIR is left of it: the API
  answers 404 and the export's Bundle has no entry for it;
- `stopped` for a run the store holds as discarded (the finish reasons other than completed
  and saved, which the server itself never writes: a store written by hand or by another
  program may hold them), through `survey export --format fhir` and the API.
The product has no `amended` status: a completed run cannot be changed.
"""
from __future__ import annotations

import html
import json
import re
import sqlite3
import subprocess
import urllib.parse

import pytest

from support import BINARY, EXAMPLES_DIR, Server
from fhir_check import validate_bundle
from fhir_consistency import validate_response_for
from fhir_walks import (EXAMPLE_IDS, TOKEN, api, api_post, example_values, exported_questionnaire, fhir_of_run,
                        new_run_id, run_ids, run_request, walk)


@pytest.fixture(scope="module")
def status_server(start_server):
    return start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN))


@pytest.fixture(scope="module")
def questionnaires():
    return {survey_id: exported_questionnaire(survey_id) for survey_id in EXAMPLE_IDS}


def save_after(server, survey_id: str, pages: int) -> str:
    """A participant answers `pages` pages and presses "Save for later"; the run's id."""
    before = run_ids(server, survey_id)
    client, body, url = walk(server.url, survey_id, example_values(survey_id), pages=pages)
    status, body, url = client.post_form(body, url, {}, action="save")
    assert status == 200 and url.endswith("/saved"), (status, url)
    return new_run_id(server, survey_id, before)


# The consent's six section pages hold no question: its first answer is on the seventh page.
# gad-7 has two pages before its end: saved after the first, as every other run part-way is.
PAGES_TO_AN_ANSWER = {"study-consent": 7, "gad-7": 1}


@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_a_saved_run_is_in_progress_with_its_answers(survey_id, status_server, questionnaires):
    run_id = save_after(status_server, survey_id, pages=PAGES_TO_AN_ANSWER.get(survey_id, 2))
    assert run_id in run_ids(status_server, survey_id, status="saved")
    response = fhir_of_run(status_server, run_id)
    validate_response_for(response, questionnaires[survey_id])
    assert response["status"] == "in-progress"
    assert response.get("item"), "the answers given before saving are in the response"


@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_an_unfinished_run_is_in_progress(survey_id, status_server, questionnaires):
    before = run_ids(status_server, survey_id)
    walk(status_server.url, survey_id, example_values(survey_id), pages=1)
    run_id = new_run_id(status_server, survey_id, before)
    assert run_id in run_ids(status_server, survey_id, status="inProgress")
    response = fhir_of_run(status_server, run_id)
    validate_response_for(response, questionnaires[survey_id])
    assert response["status"] == "in-progress"


@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_a_run_made_through_the_api_and_not_started_is_in_progress_without_items(survey_id, status_server,
                                                                                questionnaires):
    made = api_post(status_server, "/api/v1/runs", run_request(survey_id, participantId="P-007"))
    response = fhir_of_run(status_server, made["id"])
    validate_response_for(response, questionnaires[survey_id])
    assert response["status"] == "in-progress"
    assert "item" not in response, "no answers: no item (FHIR allows no empty array)"


@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_a_discarded_run_leaves_no_response(survey_id, status_server):
    before = run_ids(status_server, survey_id)
    client, body, url = walk(status_server.url, survey_id, example_values(survey_id), pages=1)
    run_id = new_run_id(status_server, survey_id, before)
    status, cancel_page, url = client.post_form(body, url, {}, action="cancel")
    assert status == 200 and url.endswith("/cancel"), (status, url)
    action = re.search(rb'<form method="post" action="([^"]+)"', cancel_page).group(1).decode()
    status, body, url = client.post_form(cancel_page, urllib.parse.urljoin(url, html.unescape(action)), {}, action="discard")
    assert status == 200 and url.endswith("/discarded"), (status, url)

    api(status_server, f"/api/v1/runs/{run_id}?format=fhir", expect=404)
    _, bundle = api(status_server, f"/api/v1/surveys/{survey_id}/export?format=fhir")
    validate_bundle(bundle)
    assert run_id not in {entry["resource"]["id"] for entry in bundle.get("entry", [])}


# --- stopped ---------------------------------------------------------------------------------------

def mark_discarded(database, run_ids_to_mark: set[str]):
    """Rewrite these runs in the SQLite store as discarded: the finish reason in its column and
    in the run's header JSON, finished, no longer saved."""
    with sqlite3.connect(database) as db:
        for run_id in run_ids_to_mark:
            (state, updated) = db.execute("SELECT state, updated_at FROM runs WHERE lower(id) = ?", (run_id,)).fetchone()
            header = json.loads(state)
            header["finishReason"] = "discarded"
            header["endDate"] = updated
            db.execute("UPDATE runs SET finished = 1, finish_reason = 'discarded', state = ?, saved_at = NULL, "
                       "resume_code = NULL, resume_token = NULL, resume_expires_at = NULL WHERE lower(id) = ?",
                       (json.dumps(header).encode(), run_id))


@pytest.mark.parametrize("survey_id", ["every-format", "phq-9"])
def test_a_run_stored_as_discarded_is_stopped(survey_id, tmp_path, questionnaires):
    data = tmp_path / "data"
    server = Server(EXAMPLES_DIR, data, ("--api-token", TOKEN)).start()
    try:
        stopped = {save_after(server, survey_id, pages=2), save_after(server, survey_id, pages=1)}
        walk(server.url, survey_id, example_values(survey_id))
    finally:
        server.stop()
    mark_discarded(data / "runs.sqlite", stopped)

    run = subprocess.run([str(BINARY), "export", survey_id, "--format", "fhir", "--status", "discarded",
                          "--surveys", str(EXAMPLES_DIR), "--data", str(data)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    bundle = json.loads(run.stdout)
    validate_bundle(bundle)
    assert {entry["resource"]["id"] for entry in bundle["entry"]} == stopped
    for index, entry in enumerate(bundle["entry"]):
        validate_response_for(entry["resource"], questionnaires[survey_id], f"$.entry[{index}].resource")
        assert entry["resource"]["status"] == "stopped"

    server = Server(EXAMPLES_DIR, data, ("--api-token", TOKEN)).start()
    try:
        assert run_ids(server, survey_id, status="discarded") == stopped
        for run_id in stopped:
            response = fhir_of_run(server, run_id)
            validate_response_for(response, questionnaires[survey_id])
            assert response["status"] == "stopped"
        (completed,) = run_ids(server, survey_id, status="completed")
        assert fhir_of_run(server, completed)["status"] == "completed"
    finally:
        server.stop()
