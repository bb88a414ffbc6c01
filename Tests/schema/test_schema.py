"""Checks schema/survey-v1.schema.json: it is a valid draft 2020-12 schema, every example
survey conforms to it, and typical mistakes are rejected."""

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "schema" / "survey-v1.schema.json"
EXAMPLES = sorted((ROOT / "Examples").glob("*.json"))
FIXTURES = sorted((ROOT / "Tests" / "SurveyCoreTests" / "Fixtures").glob("*/*.json"))


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
    document = json.loads(path.read_text(encoding="utf-8"))
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
}


@pytest.mark.parametrize("change", VALID_VARIANTS.values(), ids=VALID_VARIANTS.keys())
def test_valid_variant_is_accepted(validator, change):
    found = errors(validator, broken(change))
    assert not found, describe(found)
