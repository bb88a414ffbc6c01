"""Checks schema/survey-v1.schema.json: it is a valid draft 2020-12 schema, every example
survey conforms to it, the survey files `survey import fhir` writes conform to it, and typical
mistakes are rejected."""

import copy
import json
import os
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "schema" / "survey-v1.schema.json"
EXAMPLES = sorted((ROOT / "Examples").glob("*.json"))
FIXTURE_FOLDER = ROOT / "Tests" / "SurveyCoreTests" / "Fixtures"
# The fhir folder holds FHIR Questionnaires, not survey files: they are checked through the
# survey files they import to (test_imported_questionnaire_conforms).
FIXTURES = sorted(path for path in FIXTURE_FOLDER.glob("*/*.json") if path.parent.name != "fhir")
QUESTIONNAIRES = sorted((FIXTURE_FOLDER / "fhir").glob("*.json"))
BINARY = ROOT / ".build" / "debug" / "survey"
REQUIRE_BINARY = os.environ.get("REQUIRE_BINARY") == "1"


@pytest.fixture(scope="module")
def schema():
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema):
    return Draft202012Validator(schema)


def errors(validator, document):
    return sorted(validator.iter_errors(document), key=lambda error: list(error.absolute_path))


def describe(found):
    return "\n".join(f"{'/'.join(map(str, error.absolute_path)) or '$'}: {error.message}" for error in found)


def test_schema_is_valid(schema):
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_definition_has_a_description(schema):
    missing = [name for name, definition in schema["$defs"].items() if "description" not in definition]
    assert missing == []


def test_there_are_examples():
    assert EXAMPLES, "no Examples/*.json found"


@pytest.mark.parametrize("path", EXAMPLES, ids=[path.name for path in EXAMPLES])
def test_example_conforms(validator, path):
    """A survey file conforms as it is; a FHIR Questionnaire among the examples through the
    survey file it imports as."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if document.get("resourceType") == "Questionnaire":
        run = subprocess.run([str(survey_binary()), "import", "fhir", str(path)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        document = json.loads(run.stdout)
    found = errors(validator, document)
    assert not found, describe(found)


# A small valid survey that each invalid case below breaks in one way.
BASE = {
    "identifier": "mini",
    "steps": [
        {"identifier": "fever", "type": "question", "title": "Do you have a fever?", "answerFormat": {"type": "boolean"}},
        {"identifier": "rest", "type": "instruction", "title": "Rest well"},
        {"identifier": "done", "type": "completion", "title": "Thank you"},
    ],
    "skipRules": {"rest": {"result": "fever", "equals": False}},
}


@pytest.mark.parametrize("path", FIXTURES, ids=[f"{path.parent.name}/{path.name}" for path in FIXTURES])
def test_every_format_and_step_fixture_conforms(validator, path):
    """The per-format and per-step fixtures set every key their kind takes."""
    document = json.loads(path.read_text(encoding="utf-8"))
    found = errors(validator, document)
    assert not found, describe(found)


def test_there_are_questionnaires():
    assert QUESTIONNAIRES, "no Tests/SurveyCoreTests/Fixtures/fhir/*.json found"


def survey_binary():
    if not BINARY.exists():
        message = f"{BINARY} is missing: build with `swift build` first"
        if REQUIRE_BINARY:
            pytest.fail(message)
        pytest.skip(message + " (REQUIRE_BINARY=1 makes this a failure)")
    return BINARY


@pytest.mark.parametrize("path", QUESTIONNAIRES, ids=[path.name for path in QUESTIONNAIRES])
def test_imported_questionnaire_conforms(validator, path):
    """`survey import fhir` writes the survey file on standard output (warnings go to standard error)."""
    run = subprocess.run([str(survey_binary()), "import", "fhir", str(path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    document = json.loads(run.stdout)
    found = errors(validator, document)
    assert not found, describe(found)


def test_base_document_is_valid(validator):
    found = errors(validator, BASE)
    assert not found, describe(found)


def broken(change):
    document = copy.deepcopy(BASE)
    change(document)
    return document


INVALID = {
    "unknown key in a step": lambda d: d["steps"][1].update({"colour": "red"}),
    "key of another step type": lambda d: d["steps"][1].update({"answerFormat": {"type": "boolean"}}),
    "unknown answer format type": lambda d: d["steps"][0].update({"answerFormat": {"type": "slider"}}),
    "unknown key in an answer format": lambda d: d["steps"][0]["answerFormat"].update({"maximumLength": 3}),
    "dont-know button on a boolean": lambda d: d["steps"][0]["answerFormat"].update({"showDontKnowButton": True}),
    "unknown step type": lambda d: d["steps"][1].update({"type": "intro"}),
    "missing step identifier": lambda d: d["steps"][1].pop("identifier"),
    "missing task identifier": lambda d: d.pop("identifier"),
    "bad identifier pattern": lambda d: d["steps"][1].update({"identifier": "-rest"}),
    "reserved identifier": lambda d: d.update({"identifier": "$mini"}),
    "identifier with a space": lambda d: d.update({"identifier": "my survey"}),
    "predicate with no test": lambda d: d["skipRules"].update({"rest": {"result": "fever"}}),
    "predicate with two tests": lambda d: d["skipRules"].update({"rest": {"result": "fever", "equals": False, "isNil": True}}),
    "compound predicate naming a result": lambda d: d["skipRules"].update(
        {"rest": {"result": "fever", "not": {"result": "fever", "equals": True}}}),
    "empty all": lambda d: d["skipRules"].update({"rest": {"all": []}}),
    "unknown top-level key": lambda d: d.update({"version": 1}),
    "empty steps": lambda d: d.update({"steps": []}),
    "rich text with a bad language tag": lambda d: d["steps"][1].update({"title": {"english!": "Rest well"}}),
    "image without imageAlt": lambda d: d["steps"][1].update({"image": "images/rest.png"}),
    "navigation rule of unknown type": lambda d: d.update({"navigationRules": {"fever": {"type": "jump", "destination": "done"}}}),
    "predicate rule without rules": lambda d: d.update({"navigationRules": {"fever": {"type": "predicate", "default": "done"}}}),
    "invalidMessage without an expression": lambda d: d["steps"].insert(1, {
        "identifier": "name", "type": "question", "answerFormat": {"type": "text", "invalidMessage": "Letters only"}}),
    # The keys format v1 gains for FHIR questionnaires (docs/fhir.md).
    "compare with an unknown operator": lambda d: d["skipRules"].update(
        {"rest": {"result": "fever", "compare": "==", "value": False}}),
    "compare without a value": lambda d: d["skipRules"].update({"rest": {"result": "fever", "compare": "="}}),
    "value without a compare": lambda d: d["skipRules"].update({"rest": {"result": "fever", "equals": False, "value": True}}),
    "compare with an array value": lambda d: d["skipRules"].update(
        {"rest": {"result": "fever", "compare": "=", "value": [False]}}),
    "answered not a boolean": lambda d: d["skipRules"].update({"rest": {"result": "fever", "answered": "yes"}}),
    "answered and compare together": lambda d: d["skipRules"].update(
        {"rest": {"result": "fever", "answered": True, "compare": "=", "value": True}}),
    "expression predicate with a result": lambda d: d["skipRules"].update(
        {"rest": {"result": "fever", "expression": "%resource.item.where(linkId = 'fever').answer.value"}}),
    "empty expression predicate": lambda d: d["skipRules"].update({"rest": {"expression": " "}}),
    "note without text": lambda d: d["steps"].insert(1, {"identifier": "form", "type": "form", "items": [
        {"visibleIf": {"result": "fever", "answered": True}, "fhir": {"linkId": "form.note"}},
        {"identifier": "since", "answerFormat": {"type": "date"}}]}),
    "note with an identifier": lambda d: d["steps"].insert(1, {"identifier": "form", "type": "form", "items": [
        {"identifier": "intro", "note": "Answer as best you can."},
        {"identifier": "since", "answerFormat": {"type": "date"}}]}),
    "minimumLength 0": lambda d: d["steps"].insert(1, {
        "identifier": "name", "type": "question", "answerFormat": {"type": "text", "minimumLength": 0}}),
    "variable name starting with a digit": lambda d: d.update({"variables": [{"name": "1st", "expression": "1 + 1"}]}),
    "variable without an expression": lambda d: d.update({"variables": [{"name": "score"}]}),
    "variable with an unknown key": lambda d: d.update({"variables": [{"name": "score", "expression": "1", "type": "integer"}]}),
    "fhir not an object": lambda d: d.update({"fhir": "http://example.org/Questionnaire/mini"}),
    "readOnly not a boolean": lambda d: d["steps"][0].update({"readOnly": "true"}),
    "null initial": lambda d: d["steps"][0].update({"initial": None}),
    "empty calculatedExpression": lambda d: d["steps"][0].update({"calculatedExpression": ""}),
    "question keys on an instruction step": lambda d: d["steps"][1].update({"hidden": True}),
    "fhir on an image choice": lambda d: d["steps"].insert(1, {
        "identifier": "pick", "type": "question", "answerFormat": {"type": "imageChoice", "choices": [
            {"image": "images/a.png", "imageAlt": "A", "value": "a", "fhir": {"code": "a"}}]}}),
}


@pytest.mark.parametrize("change", INVALID.values(), ids=INVALID.keys())
def test_invalid_document_is_rejected(validator, change):
    assert errors(validator, broken(change)), "the schema accepted an invalid survey"


VALID_VARIANTS = {
    "compound predicates": lambda d: d["skipRules"].update(
        {"rest": {"any": [{"not": {"result": "fever", "isNil": True}}, {"all": [{"result": "fever", "equals": True}]}]}}),
    "range predicate with one bound": lambda d: d["steps"].insert(1, {
        "identifier": "temp", "type": "question",
        "answerFormat": {"type": "numeric", "unit": "°C", "showDontKnowButton": True}}) or
        d["skipRules"].update({"rest": {"result": "temp", "minimum": 38.5}}),
    "time range with both bounds": lambda d: d["steps"].insert(1, {
        "identifier": "wake", "type": "question", "answerFormat": {"type": "timeOfDay"}}) or
        d["skipRules"].update({"rest": {"result": "wake", "minimumTime": "09:30", "maximumTime": "10:15"}}),
    "direct rule to $end": lambda d: d.update({"navigationRules": {"rest": {"type": "direct", "destination": "$end"}}}),
    "localized text": lambda d: d["steps"][1].update({"title": {"en": "Rest well", "pt-BR": "Descanse bem"}}),
    "validationRegularExpression without invalidMessage": lambda d: d["steps"].insert(1, {
        "identifier": "postcode", "type": "question", "answerFormat": {"type": "text", "validationRegularExpression": "^[0-9]{5}$"}}),
}


@pytest.mark.parametrize("change", VALID_VARIANTS.values(), ids=VALID_VARIANTS.keys())
def test_valid_variant_is_accepted(validator, change):
    found = errors(validator, broken(change))
    assert not found, describe(found)


# A survey that uses every key format v1 gains for FHIR questionnaires (docs/fhir.md).
FHIR_KEYS = {
    "identifier": "intake",
    "title": "Clinic intake",
    "variables": [{"name": "bmiLimit", "expression": "30"}, {"name": "_twice", "expression": "%bmiLimit * 2"}],
    "fhir": {"url": "http://example.org/fhir/Questionnaire/intake", "version": "2", "name": "Intake", "status": "active",
             "code": [{"system": "http://loinc.org", "code": "44249-1"}]},
    "steps": [
        {"identifier": "welcome", "type": "instruction", "title": "Welcome",
         "variables": [{"name": "greeting", "expression": "'hello'"}], "fhir": {"linkId": "welcome", "type": "display"}},
        {"identifier": "smoker", "type": "question", "question": "Do you smoke?", "answerFormat": {"type": "boolean"},
         "initial": False, "fhir": {"linkId": "smoker", "type": "boolean"}},
        {"identifier": "name", "type": "question", "question": "Your name",
         "answerFormat": {"type": "text", "minimumLength": 2, "maximumLength": 80, "validationRegularExpression": "^[^0-9]*$",
                          "invalidMessage": "Letters only, please"},
         "initialExpression": "'Anonymous'", "fhir": {"linkId": "name", "type": "string"}},
        {"identifier": "score", "type": "question", "question": "Score",
         "answerFormat": {"type": "numeric", "style": "integer"}, "readOnly": True, "hidden": True,
         "calculatedExpression": "%resource.item.answer.value.count()",
         "variables": [{"name": "items", "expression": "%resource.item"}],
         "fhir": {"linkId": "score", "type": "integer", "prefix": "3.", "extension": []}},
        {"identifier": "mood", "type": "question", "question": "How is your mood?",
         "answerFormat": {"type": "textChoice", "style": "multipleChoice", "choices": [
             {"text": "Good", "value": "good", "fhir": {"system": "http://example.org/mood", "code": "good", "display": "Good",
                                                          "valueType": "coding"}},
             {"text": "Low", "value": 2, "fhir": {"valueType": "integer", "extension": [
                 {"url": "http://hl7.org/fhir/StructureDefinition/ordinalValue", "valueDecimal": 2}]}}]},
         "initial": ["good"]},
        {"identifier": "clinic", "type": "question", "question": "Clinic",
         "answerFormat": {"type": "valuePicker", "choices": [
             {"text": "North", "value": "n", "fhir": {"valueType": "string"}},
             {"text": "South", "value": "s"}]}},
        {"identifier": "details", "type": "form", "title": "Details",
         "variables": [{"name": "height", "expression": "%resource.item.where(linkId = 'height').answer.value"}],
         "fhir": {"linkId": "details", "type": "group"},
         "items": [
             {"note": "Answer as best you can.", "visibleIf": {"result": "smoker", "answered": True},
              "fhir": {"linkId": "details.intro"}},
             {"sectionTitle": "Body", "fhir": {"linkId": "body", "within": ["details"]}},
             {"identifier": "height", "text": "Height", "answerFormat": {"type": "numeric", "unit": "cm"},
              "initial": 170, "readOnly": False, "hidden": False,
              "fhir": {"linkId": "height", "type": "decimal", "within": ["body"]}},
             {"identifier": "weight", "text": "Weight", "answerFormat": {"type": "numeric", "unit": "kg"},
              "initialExpression": "70", "fhir": {"linkId": "weight", "type": "quantity", "within": ["body"]}},
             {"identifier": "bmi", "text": "BMI", "answerFormat": {"type": "numeric"},
              "calculatedExpression": "%resource.item.where(linkId = 'weight').answer.value / (%metres * %metres)",
              "variables": [{"name": "metres", "expression": "%height / 100"}],
              "visibleIf": {"expression": "%height.exists()"},
              "fhir": {"linkId": "bmi", "type": "decimal", "within": ["body"], "code": [{"code": "39156-5"}]}},
         ]},
        {"identifier": "packs", "type": "question", "question": "Packs a day",
         "answerFormat": {"type": "numeric", "style": "integer"}},
        {"identifier": "done", "type": "completion", "title": "Thank you", "fhir": {}},
    ],
    "skipRules": {
        "packs": {"any": [
            {"result": "smoker", "compare": "!=", "value": True},
            {"result": "details.height", "compare": ">=", "value": 250},
            {"result": "name", "compare": "=", "value": "test"},
            {"expression": "%resource.item.where(linkId = 'smoker').answer.value.exists().not()"},
        ]},
    },
}

NEW_KEYS = {"variables", "fhir", "readOnly", "hidden", "initial", "initialExpression", "calculatedExpression", "note",
            "minimumLength", "answered", "compare", "value", "expression"}


def keys_in(value):
    if isinstance(value, dict):
        return set(value).union(*(keys_in(inner) for key, inner in value.items() if key != "fhir"))
    if isinstance(value, list):
        return set().union(*(keys_in(inner) for inner in value))
    return set()


def test_document_with_every_fhir_key_is_valid(validator):
    assert NEW_KEYS <= keys_in(FHIR_KEYS)
    found = errors(validator, FHIR_KEYS)
    assert not found, describe(found)
