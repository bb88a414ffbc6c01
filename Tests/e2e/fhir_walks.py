"""Participants of the example surveys over raw HTTP, the researcher API, a webhook receiver
and the CLI's Questionnaires, for the FHIR suites that go through every example
(test_fhir_examples.py, test_fhir_statuses.py)."""
from __future__ import annotations

import http.server
import json
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from support import (BINARY, EXAMPLES, EXAMPLES_DIR, MAX_PAGES, Http, Repeats, controls_of, field_values,
                     link_parameters, page_answers, run_ended, start_path)
from support.expectations import load_answers
from fhir_check import validate_questionnaire

TOKEN = "fhir-examples-token-0123456789"
SECRET = "fhir-examples-webhook-secret-0123456789"
FHIR_JSON = "application/fhir+json"
EXAMPLE_IDS = [path.stem for path in EXAMPLES]


def example_values(survey_id: str) -> dict:
    """The form fields of the example's scripted answers (Tests/Fixtures/<id>.answers.json)."""
    return field_values(load_answers(survey_id))


def walk(base_url: str, survey_id: str, values: dict, pages: int | None = None,
         buttons: frozenset = frozenset(), query: str = "") -> tuple[Http, bytes, str]:
    """A participant answering each page from `values` (only the fields the page has, so in
    whatever order the run shows choices and a block's steps) and pressing Next, or a button
    named in `buttons` where the page has one (an "I don't know"). Starts at the survey's link
    (with the parameters it declares); stops where the run ends (the done page, or the return
    page of a survey that sends participants back to a panel), or after `pages` pages; `query`
    goes on the first address (?lang=es). A repeating form's pages are answered from the list
    entry of its step (support.http.Repeats). Returns the participant, the last page and its URL."""
    client = Http(base_url)
    repeats = Repeats(values)
    status, body, url = client.get(start_path(survey_id, query=query))
    for count in range(MAX_PAGES):
        if run_ended(url) or count == pages:
            return client, body, url
        assert status == 200, f"{survey_id}: {url} answered {status}:\n{body[:3000]!r}"
        form = controls_of(body)
        pressed = [name for name, _ in form.buttons if name in buttons]
        if pressed:
            data = {pressed[0]: dict(form.buttons)[pressed[0]]}
            status, body, url = client.post_form(body, url, data, action=None)
            continue
        status, body, url = client.post_form(body, url, page_answers(form, values, repeats))
    raise AssertionError(f"{survey_id}: no done page after {MAX_PAGES} pages")


def run_request(survey_id: str, **fields) -> dict:
    """The body of POST /api/v1/runs for the survey: with the parameters its link would give,
    which a run made through the API needs as one made by a link does."""
    parameters = link_parameters(survey_id)
    return {"survey": survey_id, **fields, **({"parameters": parameters} if parameters else {})}


def new_run_id(server, survey_id: str, before: set[str]) -> str:
    """The id of the one run made since `before` was listed."""
    made = run_ids(server, survey_id) - before
    assert len(made) == 1, f"{survey_id}: {len(made)} new runs"
    return made.pop()


def api(server, path: str, expect: int = 200) -> tuple[str, dict | None]:
    """GET an API path with the bearer token: its Content-Type and JSON body."""
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, headers, body = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, body = error.code, error.headers, error.read()
    assert status == expect, f"{path}: {status}, wanted {expect}: {body[:2000]!r}"
    return headers.get("Content-Type", ""), (json.loads(body) if body else None)


def api_post(server, path: str, payload: dict) -> dict:
    request = urllib.request.Request(server.url + path, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201, response.status
        return json.loads(response.read())


def run_ids(server, survey_id: str, status: str | None = None) -> set[str]:
    query = f"/api/v1/runs?survey={survey_id}&limit=1000" + (f"&status={status}" if status else "")
    _, listed = api(server, query)
    return {run["id"] for run in listed["runs"]}


def fhir_of_run(server, run_id: str, identifiers: bool = False) -> dict:
    """The run's QuestionnaireResponse from the API; its identifying answers (a consent's
    signature) only with `identifiers`, as the exports give them."""
    extra = "&includeIdentifiers=1" if identifiers else ""
    content_type, response = api(server, f"/api/v1/runs/{run_id}?format=fhir{extra}")
    assert content_type.startswith(FHIR_JSON), content_type
    return response


def browser_fhir(client: Http, survey_id: str) -> dict:
    """The participant's finished run from result.json?format=fhir."""
    status, headers, body, _ = client.request(f"/surveys/{survey_id}/result.json?format=fhir")
    assert status == 200, (status, body[:2000])
    assert headers["Content-Type"].startswith(FHIR_JSON), headers["Content-Type"]
    return json.loads(body)


def exported_questionnaire(survey_id: str, surveys=EXAMPLES_DIR) -> dict:
    """`survey export-definition SURVEY --format fhir`, validated."""
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)
    run = subprocess.run([str(BINARY), "export-definition", survey_id, "--format", "fhir", "--surveys", str(surveys)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    questionnaire = json.loads(run.stdout)
    validate_questionnaire(questionnaire)
    return questionnaire


class WebhookReceiver:
    """An HTTP server on loopback keeping every body posted to it."""

    def __init__(self, port: int):
        bodies = self.bodies = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                bodies.append((dict(self.headers), self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def response_for(self, run_id: str, timeout: float = 30) -> tuple[dict, dict]:
        """The headers and QuestionnaireResponse posted for this run, waiting for it."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for headers, body in list(self.bodies):
                document = json.loads(body)
                if document.get("id") == run_id:
                    return headers, document
            time.sleep(0.1)
        raise AssertionError(f"no webhook post for run {run_id} within {timeout} s ({len(self.bodies)} posts)")

    def stop(self):
        self.server.shutdown()
