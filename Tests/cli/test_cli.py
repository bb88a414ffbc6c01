"""The `survey` command as a researcher uses it: validate and simulate, through the built binary."""
import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
from support import EXAMPLES_DIR
from support.expectations import assert_expected_result, expectations, expected_case, expected_cases

BINARY = ROOT / ".build" / "debug" / "survey"
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
FIXTURES = ROOT / "Tests" / "SurveyCoreTests" / "Fixtures"
ANSWERS = ROOT / "Tests" / "Fixtures"


def survey(*args, check=False):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first")
    return subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, check=check, timeout=60)


def test_there_are_three_examples_or_more():
    names = {path.stem for path in EXAMPLES}
    assert {"wellbeing-check", "fever-triage", "every-format"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_validates_strictly(path):
    run = survey("validate", "--strict", path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip().endswith(": ok")


def test_validate_reports_every_error_with_its_path_and_fails(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({
        "identifier": "t",
        "steps": [
            {"identifier": "a", "type": "question", "answerFormat": {"type": "scale", "minimum": 0, "maximum": 10, "step": 3}},
            {"identifier": "a", "type": "question", "titel": "x", "answerFormat": {"type": "boolean"}},
        ],
        "navigationRules": {"a": {"type": "direct", "destination": "nowhere"}},
    }))
    run = survey("validate", bad)
    assert run.returncode == 1
    lines = [line for line in run.stdout.splitlines() if ": error: " in line]
    paths = {line.split(": error: ")[1].split(":")[0] for line in lines}
    assert paths == {"$.steps[0].answerFormat.step", "$.steps[1].identifier", "$.steps[1].titel", "$.navigationRules.a.destination"}
    assert any('Did you mean "title"?' in line for line in lines)


def test_validate_json_output_matches_the_fixture_cases(tmp_path):
    cases = json.loads((FIXTURES / "invalid-surveys.json").read_text())
    files = []
    for index, case in enumerate(cases):
        path = tmp_path / f"case{index}.json"
        path.write_text(json.dumps(case["survey"]))
        files.append(path)
    run = survey("validate", "--json", *files)
    assert run.returncode == 1
    report = json.loads(run.stdout)
    assert len(report) == len(cases)
    for case, entry in zip(cases, report):
        assert entry["valid"] is False, case["name"]
        errors = {d["path"] for d in entry["diagnostics"] if d["severity"] == "error"}
        assert set(case["errors"]) <= errors, case["name"]


def test_a_file_that_is_not_json_is_refused_with_its_position(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"identifier": "t",\n "steps": [}\n')
    run = survey("validate", bad)
    assert run.returncode == 1
    assert "line 2, column" in run.stdout


def test_a_missing_file_is_an_error_not_a_crash(tmp_path):
    run = survey("validate", tmp_path / "absent.json")
    assert run.returncode == 1
    assert "cannot be read" in run.stdout


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_runs_to_completion_with_its_scripted_answers(path):
    answers = ANSWERS / f"{path.stem}.answers.json"
    assert answers.exists(), f"no scripted answers for {path.name}"
    assert (ANSWERS / f"{path.stem}.expected.json").exists(), f"no hand-written expected results for {path.name}"
    run = survey("simulate", path, "--answers", answers)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    written = json.loads(path.read_text())
    # A FHIR Questionnaire is named by its id.
    assert result["identifier"] == written.get("identifier", written.get("id"))
    assert_expected_result(result, path.stem, expected_case(path.stem), recorder="survey simulate")


@pytest.mark.parametrize("survey_id, case_name", expected_cases())
def test_simulate_gives_the_hand_written_result(tmp_path, survey_id, case_name):
    """Every branch of the triage, PHQ-9's score in several bands and at its boundaries, every
    answer format: what `survey simulate` records is what was worked out by hand."""
    case = expected_case(survey_id, case_name)
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(case["answers"]))
    run = survey("simulate", EXAMPLES_DIR / f"{survey_id}.json", "--answers", answers)
    assert run.returncode == 0, run.stderr
    assert_expected_result(json.loads(run.stdout), survey_id, case, recorder="survey simulate")


def _top_level_steps(written: dict) -> list[str]:
    """The step identifiers of a survey file; a Questionnaire's top-level items are its steps."""
    if written.get("resourceType") == "Questionnaire":
        return [item["linkId"] for item in written["item"]]
    return [step["identifier"] for step in written["steps"]]


def _phq_total(written: dict, answers: dict) -> int:
    """PHQ-9's score from the Questionnaire's own ordinalValues: the sum over the nine items."""
    def ordinal(option):
        return next((e["valueDecimal"] for e in option.get("extension", []) if e["url"].endswith("/ordinalValue")), None)

    scored = [item for item in written["item"][0]["item"]
              if item.get("answerOption") and all(ordinal(o) is not None for o in item["answerOption"])]
    assert len(scored) == 9, [item["linkId"] for item in scored]
    total = 0
    for item in scored:
        chosen = [o for o in item["answerOption"] if o["valueCoding"]["code"] == answers[item["linkId"]]]
        assert len(chosen) == 1, item["linkId"]
        total += ordinal(chosen[0])
    return total


@pytest.mark.parametrize("survey_id", sorted(p.name.removesuffix(".expected.json") for p in ANSWERS.glob("*.expected.json")))
def test_the_hand_written_expectations_agree_with_the_survey_files(survey_id):
    """The fixtures themselves: each case's path and results name the same steps, every step of
    the shipped survey is either on the path or named as not visited, and each PHQ-9 total is
    the sum of the ordinalValues the Questionnaire gives the chosen options."""
    written = json.loads((ROOT / "Examples" / f"{survey_id}.json").read_text())
    steps = _top_level_steps(written)
    cases = expectations(survey_id)
    assert len({case["name"] for case in cases}) == len(cases)
    for case in cases:
        assert [step["identifier"] for step in case["results"]] == case["path"], case["name"]
        assert sorted(case["path"] + case["notVisited"]) == sorted(steps), case["name"]
        for check in case.get("derived", []):
            if check["check"] == "total score":
                assert check["numericAnswer"] == _phq_total(written, case["answers"]["44249-1"]), case["name"]


def test_simulate_reports_a_refused_answer_and_stops(tmp_path):
    answers = tmp_path / "a.json"
    answers.write_text(json.dumps({"fever": {"fever": "true"}, "temperature": {"celsius": "45"}}))
    run = survey("simulate", ROOT / "Examples" / "fever-triage.json", "--answers", answers)
    assert run.returncode == 2
    assert "outOfRange" in run.stderr
    assert "Enter a number between 34 and 43" in run.stderr


def test_simulate_exports_the_researchkit_shape():
    path = ROOT / "Examples" / "wellbeing-check.json"
    run = survey("simulate", path, "--answers", ANSWERS / "wellbeing-check.answers.json", "--researchkit")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["_class"] == "ORKTaskResult"
    classes = {q["_class"] for step in result["results"] for q in step["results"]}
    assert "ORKScaleQuestionResult" in classes


@pytest.mark.parametrize("target", ["urgent", "see-gp", "self-care", "other-symptoms"])
def test_simulate_to_prints_answers_that_lead_to_the_step(tmp_path, target):
    triage = ROOT / "Examples" / "fever-triage.json"
    run = survey("simulate", triage, "--to", target)
    assert run.returncode == 0, run.stderr
    answers = json.loads(run.stdout)
    assert target not in answers
    assert list(answers)[0] == "intro"
    script = tmp_path / "answers.json"
    script.write_text(run.stdout)
    walked = survey("simulate", triage, "--answers", script)
    assert walked.returncode == 0, walked.stderr
    path = [step["identifier"] for step in json.loads(walked.stdout)["results"]]
    assert path[: len(answers)] == list(answers)
    assert target in path


def test_simulate_to_says_in_one_line_why_a_step_cannot_be_reached(tmp_path):
    survey_file = tmp_path / "gated.json"
    survey_file.write_text(json.dumps({
        "identifier": "gated",
        "steps": [
            {"identifier": "smoker", "type": "question", "optional": False, "answerFormat": {"type": "boolean"}},
            {"identifier": "both", "type": "instruction"},
            {"identifier": "skipped", "type": "instruction"},
            {"identifier": "after-end", "type": "instruction"},
        ],
        "navigationRules": {
            "smoker": {"type": "predicate", "default": "skipped", "rules": [
                {"if": {"all": [{"result": "smoker", "equals": True}, {"result": "smoker", "equals": False}]},
                 "destination": "both"}]},
            "skipped": {"type": "direct", "destination": "$end"},
        },
        "skipRules": {"skipped": {"not": {"result": "smoker", "isNil": True}}},
    }))
    reasons = {
        "both": "no answers meet all the conditions on the way to it together",
        "skipped": "its skip rule (not (smoker has no answer)) holds whenever a participant arrives there",
        "after-end": "no rule or step order leads to it, whatever the answers",
    }
    for step, reason in reasons.items():
        run = survey("simulate", survey_file, "--to", step)
        assert run.returncode == 1, run.stdout
        assert run.stdout == ""
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1, run.stderr
        assert lines[0].startswith(f'The step "{step}" cannot be reached: ')
        assert reason in lines[0]


def test_simulate_to_a_step_the_survey_does_not_have_is_refused():
    run = survey("simulate", ROOT / "Examples" / "fever-triage.json", "--to", "nowhere")
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == ['The survey ' + str(ROOT / "Examples" / "fever-triage.json") + ' has no step "nowhere".']


def test_validate_reports_what_the_sanitizer_removes(tmp_path):
    survey_file = tmp_path / "markup.json"
    survey_file.write_text(json.dumps({
        "identifier": "markup",
        "steps": [{"identifier": "a", "type": "instruction", "title": "Hi <script>alert(1)</script>",
                   "text": "<p onclick=\"x()\">Hello <a href=\"javascript:alert(1)\">link</a> <strong>kept</strong></p>"}],
    }))
    run = survey("validate", survey_file)
    assert run.returncode == 0, run.stdout
    warnings = [line for line in run.stdout.splitlines() if ": warning: " in line]
    assert any("$.steps[0].title" in line and "<script>" in line for line in warnings)
    assert any("$.steps[0].text" in line and "onclick" in line for line in warnings)
    assert any("$.steps[0].text" in line and "javascript:" in line for line in warnings)
    assert not any("strong" in line for line in warnings)
    strict = survey("validate", "--strict", survey_file)
    assert strict.returncode == 1


@pytest.mark.parametrize("args, message", [
    (["--kiosk-pin", "12345"], "6 digits or more"),
    (["--kiosk-pin", "12345a"], "digits only"),
    (["--kiosk-pin", "123456", "--kiosk-idle", "0"], "--kiosk-idle must be a whole number of seconds from 1 to 3600"),
    (["--kiosk-grace", "30"], "need --kiosk-pin"),
])
def test_serve_refuses_a_bad_kiosk_setting_with_a_sentence(tmp_path, args, message):
    run = survey("serve", "--port", "0", "--data", tmp_path, *args, check=False)
    assert run.returncode != 0
    assert message in run.stderr


def test_a_kiosk_idle_policy_outside_the_two_is_refused_with_its_path(tmp_path):
    survey_file = tmp_path / "kiosk.json"
    survey_file.write_text(json.dumps({"identifier": "k", "kioskIdle": "keep",
                                       "steps": [{"identifier": "s", "type": "instruction"}]}))
    run = survey("validate", survey_file, check=False)
    assert run.returncode != 0
    assert "$.kioskIdle" in run.stdout + run.stderr
    assert '"kioskIdle" must be one of "discard", "save", not "keep".' in run.stdout + run.stderr


def test_export_refuses_a_missing_database_an_unknown_survey_and_a_bad_format(tmp_path):
    missing = survey("export", "wellbeing-check", "--format", "csv", "--data", tmp_path / "none")
    assert missing.returncode != 0
    assert "There is no database at" in missing.stderr
    # The codebook and the syntax files describe the survey file: they need no runs.
    syntax = survey("export", "wellbeing-check", "--format", "spss", "--data", tmp_path / "none")
    assert syntax.returncode == 0, syntax.stderr
    assert "VARIABLE LABELS" in syntax.stdout
    database = tmp_path / "runs.sqlite"
    assert survey("migrate", "--database", database).returncode == 0
    unknown = survey("export", "nope", "--format", "csv", "--database", database)
    assert unknown.returncode != 0
    assert 'No survey in Examples has the identifier "nope"' in unknown.stderr
    bad = survey("export", "wellbeing-check", "--format", "xlsx", "--database", database)
    assert bad.returncode != 0
    assert "--format must be one of: csv, long, codebook, r, spss, json, researchkit" in bad.stderr
    wrong_store = survey("export", "wellbeing-check", "--format", "csv", "--store", "mysql://localhost/runs")
    assert wrong_store.returncode != 0
    assert "--store takes a postgres:// URL" in wrong_store.stderr
    since = survey("export", "wellbeing-check", "--format", "csv", "--since", "last week", "--database", database)
    assert since.returncode != 0
    assert "--since must be an ISO 8601 date" in since.stderr


def test_export_of_an_empty_store_is_a_header_a_codebook_and_an_empty_array(tmp_path):
    database = tmp_path / "runs.sqlite"
    assert survey("migrate", "--database", database).returncode == 0
    csv_run = survey("export", "wellbeing-check", "--format", "csv", "--database", database, check=True)
    assert csv_run.stdout.startswith("run_id,participant_id,status,survey_version,started,ended,duration_seconds,mood,sleep,")
    wide = tmp_path / "wide.csv"
    survey("export", "wellbeing-check", "--format", "csv", "--database", database, "--output", wide, check=True)
    assert wide.read_bytes().count(b"\r\n") == 1, "a header row alone, ended as RFC 4180 says"
    book = tmp_path / "codebook.csv"
    survey("export", "wellbeing-check", "--format", "codebook", "--database", database, "--output", book, "--bom", check=True)
    text = book.read_bytes().decode("utf-8")
    assert text.startswith("\ufeffcolumn,label,type,storage,values,range,unit,optional,shown_when,missing_codes,identifying,note\r\n")
    assert "-91 = not shown; -92 = skipped; -93 = don't know; -94 = not reached" in text
    json_run = survey("export", "wellbeing-check", "--format", "json", "--database", database, check=True)
    assert json.loads(json_run.stdout) == []
