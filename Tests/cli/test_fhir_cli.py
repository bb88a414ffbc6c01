"""The FHIR commands of `survey`, through the built binary, with their output checked by a
third-party validator (fhir.resources, see Tests/e2e/fhir_check.py):
- `survey import fhir` turns each fixture Questionnaire into a survey file that `survey
  validate` accepts; an attachment item is refused naming its linkId, with a non-zero exit and
  nothing written; an extension the mapping ignores is a warning with its JSON path;
- `survey export-definition --format fhir` writes a valid Questionnaire for the every-format
  example and lists on stderr, with JSON paths, what FHIR cannot say;
- `survey export --format fhir` writes a valid Bundle of the runs that participants made
  through a real server, each entry fitting the Questionnaire (fhir_consistency.py), for
  every example survey and each `--status`;
- `survey export-definition --format fhir` writes a valid Questionnaire for every example;
- an imported PHQ-9 exported again is a valid Questionnaire with the same items, codes,
  options, scores and expressions.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The FHIR checkers live beside the browser suites, which use them too.
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from support import BINARY, Server  # noqa: E402
from fhir_check import (FIXTURES, PHQ9, PHQ9_DIFFICULTY, PHQ9_QUESTIONS, PHQ9_TOTAL, answers,  # noqa: E402
                        items_by_link_id, load_json, parents, phq9_by_http, validate_bundle,
                        validate_questionnaire)
from fhir_consistency import validate_response_for  # noqa: E402
from fhir_walks import EXAMPLE_IDS, example_values, walk  # noqa: E402

FHIR_FIXTURES = ["phq-9", "height-weight-bmi", "nested-groups", "stu3-options"]
EXAMPLES = ROOT / "Examples"


def survey(*args):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)
    return subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, timeout=120)


def succeeds(*args):
    run = survey(*args)
    assert run.returncode == 0, f"survey {' '.join(map(str, args))}:\n{run.stdout}{run.stderr}"
    return run


def diagnostics(stderr: str, severity: str) -> list[tuple[str, str]]:
    """[(JSON path, message)] of the lines `severity: $.path: message`."""
    found = []
    for line in stderr.splitlines():
        match = re.match(rf"{severity}: (\$[^:]*): (.*)", line)
        if match:
            found.append((match.group(1), match.group(2)))
    return found


def questionnaire(items: list) -> dict:
    return {"resourceType": "Questionnaire", "id": "made-here", "status": "active", "item": items}


# --- import -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", FHIR_FIXTURES)
def test_import_of_each_fixture_writes_a_survey_file_that_validates(name, tmp_path):
    source = load_json(FIXTURES / f"{name}.json")
    target = tmp_path / f"{name}.survey.json"
    run = succeeds("import", "fhir", FIXTURES / f"{name}.json", "--output", target)
    assert not diagnostics(run.stderr, "error"), run.stderr
    written = load_json(target)
    assert written["identifier"] == source.get("id", name)
    check = succeeds("validate", target)
    assert check.stdout.strip().endswith(": ok"), check.stdout

    to_stdout = succeeds("import", "fhir", FIXTURES / f"{name}.json")
    assert json.loads(to_stdout.stdout) == written, "standard output holds the same survey file"


def kept_link_ids(value) -> list[str]:
    """The `fhir.linkId` of every step, item and section of a survey file, in document order."""
    found = []
    if isinstance(value, dict):
        if isinstance(value.get("fhir"), dict) and "linkId" in value["fhir"]:
            found.append(value["fhir"]["linkId"])
        for child in value.values():
            found += kept_link_ids(child)
    elif isinstance(value, list):
        for child in value:
            found += kept_link_ids(child)
    return found


def test_import_keeps_each_linkid_and_the_phq9_scores(tmp_path):
    target = tmp_path / "phq-9.survey.json"
    succeeds("import", "fhir", FIXTURES / "phq-9.json", "--output", target)
    written = load_json(target)
    assert kept_link_ids(written) == list(items_by_link_id(PHQ9))
    assert written["fhir"]["url"] == PHQ9["url"]
    text = json.dumps(written)
    assert "ordinalValue" in text and "calculatedExpression" in text


def test_an_attachment_item_is_refused_naming_its_linkid_and_nothing_is_written(tmp_path):
    source = tmp_path / "with-attachment.json"
    source.write_text(json.dumps(questionnaire([
        {"linkId": "visit", "text": "Your visit", "type": "group", "item": [
            {"linkId": "reason", "text": "Why did you come?", "type": "string"},
            {"linkId": "wound-photo", "text": "A photo of the wound", "type": "attachment"},
        ]},
    ])))
    target = tmp_path / "out" / "with-attachment.survey.json"
    target.parent.mkdir()
    run = survey("import", "fhir", source, "--output", target)
    assert run.returncode != 0
    errors = diagnostics(run.stderr, "error")
    assert errors and errors[0][0].startswith("$.item[0].item[1]"), run.stderr
    assert "wound-photo" in errors[0][1] and "attachment" in errors[0][1]
    assert not target.exists() and not any(target.parent.iterdir()), "nothing written"

    to_stdout = survey("import", "fhir", source)
    assert to_stdout.returncode != 0 and to_stdout.stdout == "", "nothing on standard output either"
    assert "wound-photo" in to_stdout.stderr


def test_an_ignored_extension_is_a_warning_with_its_json_path(tmp_path):
    # The fixture's choiceOrientation, and one made up here after an honoured extension.
    run = succeeds("import", "fhir", FIXTURES / "nested-groups.json", "--output", tmp_path / "intake.json")
    warnings = diagnostics(run.stderr, "warning")
    assert ("$.item[1].item[0].extension[0]", ) == tuple(path for path, _ in warnings), run.stderr
    assert "questionnaire-choiceOrientation" in warnings[0][1] and "smoking" in warnings[0][1]

    unknown = "http://example.org/fhir/StructureDefinition/made-up"
    source = tmp_path / "made-up.json"
    source.write_text(json.dumps(questionnaire([
        {"linkId": "g", "text": "A group", "type": "group", "item": [
            {"linkId": "q1", "text": "A number", "type": "integer"},
            {"linkId": "q2", "text": "Another number", "type": "integer", "extension": [
                {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueInteger": 0},
                {"url": unknown, "valueString": "ignored"},
            ]},
        ]},
    ])))
    target = tmp_path / "made-up.survey.json"
    run = succeeds("import", "fhir", source, "--output", target)
    warnings = diagnostics(run.stderr, "warning")
    assert [path for path, _ in warnings] == ["$.item[0].item[1].extension[1]"], run.stderr
    assert unknown in warnings[0][1]
    assert target.exists() and succeeds("validate", target).stdout.strip().endswith(": ok")


# --- export-definition ------------------------------------------------------------------------

def test_export_definition_of_every_format_is_a_valid_questionnaire_with_notes(tmp_path):
    target = tmp_path / "every-format.questionnaire.json"
    run = succeeds("export-definition", "every-format", "--format", "fhir", "--surveys", EXAMPLES, "--output", target)
    written = load_json(target)
    validate_questionnaire(written)
    assert written["id"] == "every-format" and written["status"] == "active"

    source = load_json(EXAMPLES / "every-format.json")
    top = [item["linkId"] for item in written["item"]]
    kept = [step["identifier"] for step in source["steps"] if step["type"] != "review"]
    assert top == kept, "every step but the review step, in order, by its identifier"
    above = parents(written)
    form = next(step for step in source["steps"] if step["type"] == "form")
    for item in form["items"]:
        if item.get("identifier"):
            link_id = f"{form['identifier']}.{item['identifier']}"
            assert above[link_id][0] == form["identifier"], link_id

    notes = diagnostics(run.stderr, "warning")
    assert len(notes) >= 10, run.stderr
    assert all(line.startswith("warning: $") for line in run.stderr.splitlines() if line.strip()), run.stderr
    review = next(i for i, step in enumerate(source["steps"]) if step["type"] == "review")
    assert any(path == f"$.steps[{review}]" and "Review" in message for path, message in notes), run.stderr
    assert any(path.endswith(".learnMore") for path, _ in notes)

    to_stdout = succeeds("export-definition", "every-format", "--format", "fhir", "--surveys", EXAMPLES)
    assert json.loads(to_stdout.stdout) == written


def test_round_trip_of_phq9_keeps_its_items_codes_options_scores_and_expressions(tmp_path):
    folder = tmp_path / "surveys"
    folder.mkdir()
    succeeds("import", "fhir", FIXTURES / "phq-9.json", "--output", folder / "phq-9.json")
    run = succeeds("export-definition", "phq-9", "--format", "fhir", "--surveys", folder)
    back = json.loads(run.stdout)
    validate_questionnaire(back)
    assert back["url"] == PHQ9["url"] and back["code"] == PHQ9["code"]

    (group,) = back["item"]
    (original,) = PHQ9["item"]
    assert group["linkId"] == original["linkId"] and group["type"] == "group"
    assert [item["linkId"] for item in group["item"]] == [item["linkId"] for item in original["item"]]
    assert len([i for i in group["item"] if i["linkId"] in {q["linkId"] for q in PHQ9_QUESTIONS}]) == 9
    for mine, theirs in zip(group["item"], original["item"]):
        assert mine["type"] == theirs["type"], mine["linkId"]
        assert mine.get("code") == theirs.get("code"), mine["linkId"]
        assert mine.get("prefix") == theirs.get("prefix"), mine["linkId"]
        assert mine.get("required", False) == theirs.get("required", False), mine["linkId"]
        assert mine.get("answerOption") == theirs.get("answerOption"), f"{mine['linkId']}: options and ordinalValues"
    total = next(item for item in group["item"] if item["linkId"] == PHQ9_TOTAL)
    original_total = next(item for item in original["item"] if item["linkId"] == PHQ9_TOTAL)
    assert expressions(total, "calculatedExpression") == expressions(original_total, "calculatedExpression")
    assert total.get("readOnly") is True
    difficulty = next(item for item in group["item"] if item["linkId"] == PHQ9_DIFFICULTY)
    assert difficulty["enableWhen"] == [{"question": PHQ9_TOTAL, "operator": ">", "answerInteger": 0}]
    assert expressions(back, "/variable") == expressions(PHQ9, "/variable")


def expressions(element: dict, url_end: str) -> list[tuple]:
    """(name, language, expression) of the element's Expression extensions whose url ends so
    (an Expression's description is prose for people, not compared)."""
    return [(e["valueExpression"].get("name"), e["valueExpression"]["language"], e["valueExpression"]["expression"])
            for e in element.get("extension", []) if e["url"].endswith(url_end)]


# --- export of runs ------------------------------------------------------------------------------

def test_export_of_runs_is_a_valid_bundle(tmp_path):
    surveys = tmp_path / "surveys"
    surveys.mkdir()
    shutil.copy(FIXTURES / "phq-9.json", surveys / "phq-9.json")
    data = tmp_path / "data"
    server = Server(surveys, data).start()
    try:
        phq9_by_http(server.url, [2] * 9, difficulty="LA6574-3")
        phq9_by_http(server.url, [0] * 9)
        phq9_by_http(server.url, [1] * 9, stop="save")
    finally:
        server.stop()

    target = tmp_path / "phq-9.bundle.json"
    succeeds("export", "phq-9", "--format", "fhir", "--surveys", surveys, "--data", data, "--output", target)
    bundle = load_json(target)
    validate_bundle(bundle)
    assert bundle["type"] == "collection"
    resources = [entry["resource"] for entry in bundle["entry"]]
    assert len(resources) == 3
    for resource in resources:
        validate_response_for(resource, PHQ9)
    for entry in bundle["entry"]:
        assert entry["fullUrl"] == "urn:uuid:" + entry["resource"]["id"]
    assert all(r["questionnaire"] == PHQ9["url"] for r in resources)
    completed = sorted(answers(r)[PHQ9_TOTAL][0]["valueInteger"] for r in resources if r["status"] == "completed")
    assert completed == [0, 18]
    (saved,) = [r for r in resources if r["status"] != "completed"]
    assert saved["status"] == "in-progress"
    saved_answers = answers(saved)
    assert all(saved_answers[item["linkId"]][0]["valueCoding"]["code"] == "LA6569-3" for item in PHQ9_QUESTIONS)

    only = json.loads(succeeds("export", "phq-9", "--format", "fhir", "--status", "completed",
                               "--surveys", surveys, "--data", data).stdout)
    validate_bundle(only)
    assert sorted(e["resource"]["status"] for e in only["entry"]) == ["completed", "completed"]


# --- every example ------------------------------------------------------------------------------

@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_export_definition_of_each_example_is_a_valid_questionnaire(survey_id):
    written = json.loads(succeeds("export-definition", survey_id, "--format", "fhir", "--surveys", EXAMPLES).stdout)
    validate_questionnaire(written)
    source = load_json(EXAMPLES / f"{survey_id}.json")
    if source.get("resourceType") == "Questionnaire":
        assert written["url"] == source["url"]
        assert list(items_by_link_id(written)) == list(items_by_link_id(source))
    else:
        assert written["url"] == f"urn:survey-presenter:questionnaire:{survey_id}"


@pytest.fixture(scope="module")
def example_runs(tmp_path_factory):
    """A store holding, for every example, a completed run, a saved one and an unfinished one,
    made by participants over HTTP on a real server (stopped before the CLI reads the store)."""
    data = tmp_path_factory.mktemp("fhir-cli-examples") / "data"
    server = Server(EXAMPLES, data, ("--api-token", "fhir-cli-token-0123456789")).start()
    try:
        for survey_id in EXAMPLE_IDS:
            walk(server.url, survey_id, example_values(survey_id))
            # Saved on the second page, its first answered: gad-7 has only two pages before its end.
            client, body, url = walk(server.url, survey_id, example_values(survey_id), pages=1)
            status, _, url = client.post_form(body, url, {}, action="save")
            assert status == 200 and url.endswith("/saved"), (survey_id, status, url)
            walk(server.url, survey_id, example_values(survey_id), pages=1)
    finally:
        server.stop()
    return data


@pytest.mark.parametrize("status", ["all", "completed", "saved", "inProgress"])
@pytest.mark.parametrize("survey_id", EXAMPLE_IDS)
def test_export_of_each_example_is_a_valid_bundle_fitting_its_questionnaire(survey_id, status, example_runs):
    questionnaire = json.loads(succeeds("export-definition", survey_id, "--format", "fhir", "--surveys", EXAMPLES).stdout)
    bundle = json.loads(succeeds("export", survey_id, "--format", "fhir", "--status", status, "--surveys", EXAMPLES,
                                 "--data", example_runs).stdout)
    validate_bundle(bundle)
    responses = [entry for entry in bundle["entry"] if entry["resource"]["resourceType"] == "QuestionnaireResponse"]
    for index, entry in enumerate(bundle["entry"]):
        assert entry["fullUrl"] == "urn:uuid:" + entry["resource"]["id"]
        if entry in responses:
            validate_response_for(entry["resource"], questionnaire, f"$.entry[{index}].resource")
        else:
            # A consent given in the run: certified ones active, with the copy the API serves.
            assert entry["resource"]["resourceType"] == "Consent", entry["resource"]["resourceType"]
            assert entry["resource"]["status"] in ("active", "proposed"), entry["resource"]["status"]
    statuses = sorted(entry["resource"]["status"] for entry in responses)
    expected = {"all": ["completed", "in-progress", "in-progress"], "completed": ["completed"],
                "saved": ["in-progress"], "inProgress": ["in-progress"]}[status]
    assert statuses == expected, statuses
