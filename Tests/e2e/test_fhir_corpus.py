"""The public FHIR Questionnaires of Tests/Fixtures/fhir-corpus (SOURCES.md says where each comes
from), as they were published, through the built binary:

- `survey validate` accepts or refuses each file exactly as ACCEPTANCE below says, a refusal
  with the words its first error must contain; a change in what the importer accepts fails;
- every accepted file is served (one server for them all, each under the Questionnaire's `id`,
  else its file's name) and a participant over raw HTTP answers every question each page shows
  with a valid answer (an option, a number within minValue and maxValue, a date, text within
  maxLength and regex) until the end page; where a Questionnaire has enableWhen, it is walked
  twice, once choosing the answers that enable the conditional items and once those that
  disable them;
- the run's QuestionnaireResponse (result.json?format=fhir) is valid R4 (fhir.resources) and
  fits the published Questionnaire (fhir_consistency.py);
- an evaluator of enableWhen written here, from the published Questionnaire and the response's
  answers, decides which items are enabled (operators, answer types, enableBehavior, disabled
  ancestors): every enabled question the participant answered is in the response with the
  answer given, every enabled question that takes an answer was shown, and no disabled item is
  in the response. Items whose condition is an SDC enableWhenExpression (FHIRPath) are not
  judged here; for the one file that has them, what each answer should show is written by hand
  (marked as an expected failure until the product shows it).
"""
from __future__ import annotations

import copy
import datetime
import json
import re
import shutil
import subprocess
from decimal import Decimal

import pytest

from support import BINARY, FIXTURES, MAX_PAGES, Http, Server, parse_form
from fhir_check import answers as response_answers, items_by_link_id
from fhir_consistency import answer_value, comparable_value, condition_holds, validate_response_for
from fhir_walks import browser_fhir

CORPUS = FIXTURES / "fhir-corpus"

TERMINOLOGY = "would need a terminology server"
REPEATING_GROUP = "is a repeating group"
ITEMS_UNDER_QUESTION = "has a question or group under it"

# Each corpus file: None when `survey validate` accepts it, else words its first error contains.
ACCEPTANCE = {
    "01-sdc-phq9.json": None,
    "02-sdc-test-enablewhen.json": "is used by more than one item",            # duplicate linkIds as published
    "03-sdc-test-repeatable-nested-groups.json": REPEATING_GROUP,
    "04-sdc-weight-height-bmi.json": None,
    "05-sdc-hunger-vital-sign.json": None,
    "06-sdc-test-required-field.json": TERMINOLOGY,                           # answerValueSet by URL, not contained
    "07-sdc-test-initial-value.json": TERMINOLOGY,
    "08-android-fhir-quantity.json": None,
    "09-hl7-bluebook-via-android-fhir.json": ITEMS_UNDER_QUESTION,
    "10-android-fhir-open-choice.json": None,
    "11-android-fhir-repeated-group.json": None,                              # a top-level repeating group: a repeating form
    "12-android-fhir-skip-logic.json": None,
    "13-android-fhir-calculated-expression.json": None,
    "14-android-fhir-date-picker.json": None,
    "15-android-fhir-multi-select-choice.json": None,
    "16-android-fhir-slider.json": None,
    "17-smart-forms-bmi-calculator.json": None,
    "18-smart-forms-simple-bp.json": None,
    "19-sdc-test-all-data-types.json": "asks for an attachment",
    "20-sdc-rxterms-answer-expression.json": "application/x-fhir-query",     # its repeating group alone would be read
    "21-fhir-r4-example-gcs.json": None,
    "22-sdc-test-prepop-initial-expression.json": ITEMS_UNDER_QUESTION,
    "23-sdc-test-initial-value-multiple.json": TERMINOLOGY,
    "24-android-fhir-enable-when-expression.json": None,
    "25-android-fhir-date-time-picker.json": None,
    "26-researchkitonfhir-gad7.json": None,
    "27-researchkitonfhir-contained-valueset.json": None,
    "28-researchkitonfhir-multiple-enablewhen.json": "is not valid JSON",
    "29-researchkitonfhir-number-validation.json": None,
    "30-researchkitonfhir-date-time.json": None,
    "31-lhc-forms-weight-height.json": None,
    "32-fhir-test-cases-group-nesting.json": None,
    "33-smart-forms-aucore-body-weight.json": "application/x-fhir-query",
}
ACCEPTED = [name for name, refusal in ACCEPTANCE.items() if refusal is None]

ENABLE_WHEN_EXPRESSION = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-enableWhenExpression"
CALCULATED_EXPRESSION = "http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-calculatedExpression"
HIDDEN = "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden"
QUESTION_TYPES = {"boolean", "decimal", "integer", "date", "dateTime", "time", "string", "text", "url",
                  "choice", "open-choice", "quantity"}


def load(name: str) -> dict:
    return json.loads((CORPUS / name).read_text(encoding="utf-8-sig"))


def survey_id(name: str) -> str:
    """The Questionnaire's id, else the file's name without .json (docs/fhir.md)."""
    return load(name).get("id") or name.removesuffix(".json")


def all_items(questionnaire: dict):
    """(item, its ancestors outermost first) for every item at any depth, in document order."""
    def walk(siblings, above):
        for item in siblings:
            yield item, above
            yield from walk(item.get("item", []), above + (item,))
    yield from walk(questionnaire.get("item", []), ())


def has_enable_when(questionnaire: dict) -> bool:
    return any("enableWhen" in item for item, _ in all_items(questionnaire))


# --- 1. what the importer accepts ---------------------------------------------------------------

def test_the_table_names_every_corpus_file():
    assert sorted(ACCEPTANCE) == sorted(path.name for path in CORPUS.glob("*.json"))


@pytest.mark.parametrize("name", list(ACCEPTANCE))
def test_validate_accepts_or_refuses_each_file_as_the_table_says(name):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build it with `swift build`", pytrace=False)
    run = subprocess.run([str(BINARY), "validate", str(CORPUS / name)], capture_output=True, text=True, timeout=60)
    output = run.stdout + run.stderr
    errors = [line for line in output.splitlines() if ": error: " in line]
    refusal = ACCEPTANCE[name]
    if refusal is None:
        assert run.returncode == 0 and not errors, f"{name} is no longer accepted:\n{output}"
    else:
        assert run.returncode != 0 and errors, f"{name} is now accepted, the table says refused ({refusal!r}):\n{output}"
        assert refusal in errors[0], f"{name}: the first error is not about {refusal!r}:\n{output}"


# --- which items enableWhen enables, judged by fhir_consistency's evaluator, independent of the product ---

def own_conditions_hold(item: dict, given: dict) -> bool:
    results = [condition_holds(condition, given) for condition in item["enableWhen"]]
    return any(results) if item.get("enableBehavior") == "any" else all(results)


def enabled_items(questionnaire: dict, given: dict) -> dict:
    """{linkId: True (enabled), False (disabled) or None (not judged here)} for every item: an item
    is disabled when its own enableWhen fails or any ancestor is disabled. An item with an
    enableWhenExpression is not judged, nor is anything under it: the test evaluates no FHIRPath."""
    state = {}
    for item, above in all_items(questionnaire):
        parent = state[above[-1]["linkId"]] if above else True
        if parent is False:
            state[item["linkId"]] = False
        elif parent is None or any(e["url"] == ENABLE_WHEN_EXPRESSION for e in item.get("extension", [])):
            state[item["linkId"]] = None
        elif "enableWhen" in item:
            state[item["linkId"]] = own_conditions_hold(item, given)
        else:
            state[item["linkId"]] = True
    return state


def takes_an_answer(item: dict) -> bool:
    """A question the participant is asked: not read-only, hidden or calculated."""
    urls = {e["url"] for e in item.get("extension", [])}
    hidden = any(e["url"] == HIDDEN and e.get("valueBoolean") for e in item.get("extension", []))
    return item["type"] in QUESTION_TYPES and not item.get("readOnly") and not hidden and CALCULATED_EXPRESSION not in urls


def test_the_evaluator_on_cases_worked_out_by_hand():
    """The evaluator itself, on a Questionnaire written here, before it judges the product."""
    def when(question, operator, **answer):
        return {"question": question, "operator": operator, **answer}

    questionnaire = {"item": [
        {"linkId": "n", "type": "decimal"}, {"linkId": "d", "type": "date"}, {"linkId": "c", "type": "choice"},
        {"linkId": "t", "type": "time"}, {"linkId": "s", "type": "string"}, {"linkId": "b", "type": "boolean"},
        {"linkId": "gt", "type": "string", "enableWhen": [when("n", ">", answerDecimal=37.5)]},
        {"linkId": "le-date", "type": "string", "enableWhen": [when("d", "<=", answerDate="2024-03-15")]},
        {"linkId": "coding", "type": "string", "enableWhen": [when("c", "=", answerCoding={"system": "x", "code": "Y"})]},
        {"linkId": "other-system", "type": "string", "enableWhen": [when("c", "=", answerCoding={"system": "z", "code": "Y"})]},
        {"linkId": "not-answered", "type": "string", "enableWhen": [when("s", "exists", answerBoolean=False)]},
        {"linkId": "ne-empty", "type": "string", "enableWhen": [when("s", "!=", answerString="a")]},
        {"linkId": "lt-empty", "type": "string", "enableWhen": [when("s", "<", answerString="a")]},
        {"linkId": "any", "type": "string", "enableBehavior": "any",
         "enableWhen": [when("b", "=", answerBoolean=True), when("t", ">=", answerTime="09:30:00")]},
        {"linkId": "all", "type": "string", "enableWhen": [when("b", "=", answerBoolean=True), when("t", ">=", answerTime="09:30:00")]},
        {"linkId": "group", "type": "group", "enableWhen": [when("n", "<", answerInteger=37)], "item": [
            {"linkId": "inside", "type": "string"},
            {"linkId": "inside-enabled-alone", "type": "string", "enableWhen": [when("b", "exists", answerBoolean=True)]}]},
        {"linkId": "by-expression", "type": "string",
         "extension": [{"url": ENABLE_WHEN_EXPRESSION, "valueExpression": {"expression": "true"}}]},
    ]}
    given = {"n": [{"valueDecimal": 38}], "d": [{"valueDate": "2024-03-15"}],
             "c": [{"valueCoding": {"system": "x", "code": "N"}}, {"valueCoding": {"system": "x", "code": "Y"}}],
             "t": [{"valueTime": "09:00:00"}], "b": [{"valueBoolean": False}]}
    state = enabled_items(questionnaire, given)
    assert {link_id: state[link_id] for link_id in state if link_id not in {"n", "d", "c", "t", "s", "b"}} == {
        "gt": True, "le-date": True, "coding": True, "other-system": False, "not-answered": True,
        "ne-empty": True, "lt-empty": False, "any": False, "all": False, "group": False, "inside": False,
        "inside-enabled-alone": False, "by-expression": None}
    given["t"] = [{"valueTime": "10:15:00"}]
    state = enabled_items(questionnaire, given)
    assert (state["any"], state["all"]) == (True, False)

# --- the participant ------------------------------------------------------------------------------------

def field_name(link_id: str) -> str:
    """A linkId as the page names its control (docs/fhir.md, Identifiers): every character outside
    [A-Za-z0-9_-] made -, a dot _, and what comes before the first letter or digit left out."""
    return re.sub(r"^[^A-Za-z0-9]+", "", re.sub(r"[^A-Za-z0-9_-]", "-", link_id.replace(".", "_")))


def _extension_value(item: dict, name: str):
    for extension in item.get("extension", []):
        if extension["url"].rsplit("/", 1)[-1] == name:
            values = [v for k, v in extension.items() if k.startswith("value")]
            if values:
                return values[0]
    return None


def _options(questionnaire: dict, item: dict) -> list[dict]:
    """The item's options as answers ({"valueCoding": …} or {"valueString": …}…), from answerOption
    or the contained ValueSet its answerValueSet names."""
    if "answerOption" in item:
        return [{k: v for k, v in option.items() if k.startswith("value")} for option in item["answerOption"]]
    reference = item["answerValueSet"]
    value_sets = [vs for vs in questionnaire.get("contained", [])
                  if "#" + vs.get("id", "") == reference or vs.get("url") == reference.split("|")[0]]
    assert len(value_sets) == 1, f"{item['linkId']}: no contained ValueSet {reference}"
    value_set = value_sets[0]
    if "expansion" in value_set:
        return [{"valueCoding": {k: c[k] for k in ("system", "code", "display") if k in c}}
                for c in value_set["expansion"]["contains"]]
    return [{"valueCoding": {k: v for k, v in (("system", include.get("system")), ("code", concept["code"]),
                                               ("display", concept.get("display"))) if v is not None}}
            for include in value_set["compose"]["include"] for concept in include.get("concept", [])]


def _option_field(answer: dict) -> str:
    """The value a page's radio, checkbox or select option carries for an option."""
    kind, value = answer_value(answer)
    return value["code"] if kind == "Coding" else str(value)


def _number_candidates(item: dict, conditions: list[dict]) -> list[tuple[Decimal, str]]:
    low, high = _extension_value(item, "minValue"), _extension_value(item, "maxValue")
    places = _extension_value(item, "maxDecimalPlaces")
    integer = item["type"] == "integer" or places == 0
    low = Decimal(str(low)) if low is not None else None
    high = Decimal(str(high)) if high is not None else None
    if low is not None and high is not None:
        middle = (low + high) / 2
    elif high is not None:
        middle = min(Decimal(70), high)
    elif low is not None:
        middle = max(Decimal(70), low)
    else:
        middle = Decimal(70)
    wanted = [middle if integer else middle.to_integral_value() + Decimal("0.5")]
    for condition in conditions:
        if condition["operator"] != "exists":
            threshold = comparable_value(*answer_value({k: v for k, v in condition.items() if k.startswith("answer")}))
            if isinstance(threshold, Decimal):
                wanted += [threshold - 1, threshold, threshold + 1]
    found = []
    for number in wanted:
        number = number.to_integral_value() if integer else number
        if (low is None or number >= low) and (high is None or number <= high):
            found.append(number)
    return found or [low if low is not None else high]


def _text_candidates(item: dict, conditions: list[dict]) -> list[str]:
    wanted = [c["answerString"] for c in conditions if "answerString" in c]
    wanted += [f"Answer to {item['linkId']}", "Yes", "12345", "A1", "someone@example.org", "2024-03-15"]
    if item["type"] == "url":
        wanted.insert(0, "https://example.org/corpus")
    pattern = _extension_value(item, "regex")
    found = [text[:item["maxLength"]] if "maxLength" in item else text for text in wanted]
    found = [text for text in found if text and (pattern is None or re.fullmatch(pattern, text))]
    assert found, f"{item['linkId']}: write a text matching its regex {pattern!r} into _text_candidates"
    return found


def candidates(questionnaire: dict, item: dict, conditions: list[dict], page_options: list[str]) -> list[tuple[list, dict]]:
    """Valid answers to one question: [(the answers as the response should hold them, {part: field value})],
    the part being "" for the control named after the item, else "day", "month", "year", "time"."""
    kind = item["type"]
    if kind == "boolean":
        return [([{"valueBoolean": value}], {"": "true" if value else "false"}) for value in (True, False)]
    if kind in ("choice", "open-choice"):
        by_field = {_option_field(option): option for option in _options(questionnaire, item)}
        shown = [value for value in page_options if value]
        unknown = [value for value in shown if value not in by_field]
        assert not unknown, f"{item['linkId']}: the page offers {unknown}, which are none of its options {list(by_field)}"
        found = [([by_field[value]], {"": value}) for value in shown]
        if item.get("repeats") and not conditions and len(shown) > 1:
            found.insert(0, ([by_field[shown[0]], by_field[shown[1]]], {"": [shown[0], shown[1]]}))
        return found
    if kind in ("integer", "decimal", "quantity"):
        found = []
        for number in _number_candidates(item, conditions):
            text = str(number)
            if kind == "integer":
                answer = {"valueInteger": int(number)}
            elif kind == "decimal":
                answer = {"valueDecimal": number}
            else:
                answer = {"valueQuantity": {"value": number}}
            found.append(([answer], {"": text}))
        return found
    if kind in ("date", "dateTime"):
        days = [datetime.date(2024, 3, 15)]
        for condition in conditions:
            for key in ("answerDate", "answerDateTime"):
                if key in condition:
                    day = datetime.date.fromisoformat(condition[key][:10])
                    days += [day - datetime.timedelta(days=1), day, day + datetime.timedelta(days=1)]
        found = []
        for day in days:
            parts = {"day": str(day.day), "month": str(day.month), "year": str(day.year)}
            if kind == "date":
                found.append(([{"valueDate": day.isoformat()}], parts))
            else:
                found.append(([{"valueDateTime": f"{day.isoformat()}T09:30"}], {**parts, "time": "09:30"}))
        return found
    if kind == "time":
        times = ["09:30"] + [c["answerTime"][:5] for c in conditions if "answerTime" in c]
        return [([{"valueTime": f"{text}:00"}], {"": text}) for text in times]
    if kind in ("string", "text", "url"):
        key = "valueUri" if kind == "url" else "valueString"
        return [([{key: text}], {"": text}) for text in _text_candidates(item, conditions)]
    raise AssertionError(f"{item['linkId']}: no answer written for a {kind} item")


def choose(questionnaire: dict, item: dict, page_options: list[str], enabling: bool) -> tuple[list, dict]:
    """Of the valid answers, the one that satisfies the most (enabling) or the fewest (not
    enabling) of the enableWhen conditions that read this item, so that the conditions change
    what the participant is shown; ties go to the first."""
    conditions = [condition for other, _ in all_items(questionnaire)
                  for condition in other.get("enableWhen", []) if condition["question"] == item["linkId"]]
    found = candidates(questionnaire, item, conditions, page_options)

    def score(candidate):
        held = sum(condition_holds(condition, {item["linkId"]: candidate[0]}) for condition in conditions)
        return held if enabling else -held

    return max(found, key=score)


class Walk:
    """A participant answering every question of every page until the done page."""

    def __init__(self, base_url: str, name: str, enabling: bool):
        self.questionnaire, self.id, self.enabling = load(name), survey_id(name), enabling
        self.items = {field_name(item["linkId"]): item for item, _ in all_items(self.questionnaire)}
        assert len(self.items) == sum(1 for _ in all_items(self.questionnaire)), \
            f"{name}: two linkIds give one field name; the walker does not know the page's -2 suffixes"
        self.client = Http(base_url)
        self.given = {}          # linkId -> the answers given, as the response should hold them
        self.pages = 0

    def run(self) -> "Walk":
        status, body, url = self.client.get(f"/surveys/{self.id}")
        for _ in range(MAX_PAGES):
            if url.endswith("/done"):
                return self
            assert status == 200, f"{self.id}: {url} answered {status}:\n{body[:3000]!r}"
            assert b'class="error-summary"' not in body, \
                f"{self.id}: the page refused the answers {self.given}:\n{_error_text(body)}"
            form = parse_form(body, url)
            assert form is not None, f"{self.id}: {url} has no step form:\n{body[:3000]!r}"
            fields = {}
            controls = {}
            for name, control in form.controls.items():
                base, _, part = name.partition(".")
                controls.setdefault(base, {})[part] = control
            if "_another" in controls:
                # a repeating group's list page (docs/repeats-and-grids.md): one instance, then no more
                listed = any(value.startswith("repeat-remove-") for _, value in form.buttons)
                fields["_another"] = "no" if listed else "yes"
                del controls["_another"]
            for base, parts in controls.items():
                assert base in self.items, f"{self.id}: the page has a control {base!r} that names no item"
                item = self.items[base]
                options = parts.get("", None)
                answer, values = choose(self.questionnaire, item, options.options if options else [], self.enabling)
                assert set(values) == set(parts), f"{self.id}: {item['linkId']} shows the controls {sorted(parts)}"
                for part, value in values.items():
                    fields[f"{base}.{part}" if part else base] = value
                self.given[item["linkId"]] = answer
            self.pages += 1
            status, body, url = self.client.post_form(body, url, fields)
        raise AssertionError(f"{self.id}: no done page after {MAX_PAGES} pages")


def _error_text(body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    start = text.find('class="error-summary"')
    return re.sub(r"<[^>]+>", " ", text[start:start + 2000])


# --- 2-4. every accepted file answered over HTTP ---------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fhir-corpus-surveys")
    for name in ACCEPTED:
        shutil.copy(CORPUS / name, folder / name)
    server = Server(folder, tmp_path_factory.mktemp("fhir-corpus-data")).start()
    yield server
    server.stop()


def test_the_server_lists_every_accepted_file_under_its_id(corpus_server):
    status, body, _ = Http(corpus_server.url).get("/")
    assert status == 200
    listed = set(re.findall(r'href="/surveys/([^"/?]+)"', body.decode("utf-8")))
    assert listed == {survey_id(name) for name in ACCEPTED}


def walks():
    params = []
    for name in ACCEPTED:
        stem = name.removesuffix(".json")
        try:
            conditional = has_enable_when(load(name))
        except ValueError:   # not JSON: the table is wrong, which the validate test and this walk then say
            conditional = False
        if conditional:
            params += [pytest.param(name, True, id=f"{stem}-enabling"), pytest.param(name, False, id=f"{stem}-disabling")]
        else:
            params.append(pytest.param(name, True, id=stem))
    return params


def same_answers(got: list, wanted: list) -> bool:
    def key(answer):
        kind, value = answer_value(answer)
        if kind == "DateTime":   # as typed, on the server's clock: the date and the minute
            return kind, value[:16]
        return kind, comparable_value(kind, value)
    return sorted(map(key, got), key=repr) == sorted(map(key, wanted), key=repr)


@pytest.mark.parametrize(("name", "enabling"), walks())
def test_each_accepted_file_answered_gives_a_valid_response_that_keeps_enable_when(name, enabling, corpus_server):
    walk = Walk(corpus_server.url, name, enabling).run()
    questionnaire = walk.questionnaire
    response = browser_fhir(walk.client, walk.id)
    assert response["status"] == "completed"

    # Valid R4 and fits the published Questionnaire. One published without a url gets the
    # canonical the presenter gives it (docs/fhir.md, Exports), so the check can compare it; the
    # version there is the Questionnaire's own when it has one.
    checked_against = questionnaire
    if "url" not in questionnaire:
        canonical, _, version = response["questionnaire"].partition("|")
        assert canonical == f"urn:survey-presenter:questionnaire:{walk.id}", response["questionnaire"]
        checked_against = {"version": version, **copy.deepcopy(questionnaire), "url": canonical}
    validate_response_for(response, checked_against)

    given = response_answers(response)
    present = items_by_link_id(response)
    state = enabled_items(questionnaire, given)
    for item, _ in all_items(questionnaire):
        link_id = item["linkId"]
        if state[link_id] is None:
            continue   # an enableWhenExpression (FHIRPath) decides, which this test does not evaluate
        if state[link_id] is False:
            assert link_id not in present, f"{walk.id}: {link_id} is disabled by its enableWhen, yet in the response"
            assert link_id not in walk.given, f"{walk.id}: {link_id} is disabled, yet the participant was asked it"
            continue
        if link_id in walk.given:
            assert link_id in given, f"{walk.id}: {link_id} is enabled and was answered {walk.given[link_id]}, " \
                                     f"but the response has no answer for it"
            assert same_answers(given[link_id], walk.given[link_id]), \
                f"{walk.id}: {link_id} was answered {walk.given[link_id]}, the response holds {given[link_id]}"
        elif takes_an_answer(item):
            raise AssertionError(f"{walk.id}: {link_id} is enabled and takes an answer, but no page asked it")

    conditional = [state[item["linkId"]] for item, _ in all_items(questionnaire) if "enableWhen" in item]
    if conditional:
        wanted = True if enabling else False
        assert wanted in conditional, \
            f"{walk.id}: the answers chosen to {'enable' if enabling else 'disable'} its conditional items did not"


# --- what an enableWhenExpression should show, written by hand ----------------------------------------

# 24-android-fhir-enable-when-expression.json gives each option of its question '1' a follow-up
# whose linkId is the option's display in lower case ("%resource…answer.value.display.lower() =
# %context.linkId"): Yes asks the date of vaccination, No and Unknown each show a note. The texts
# here are read from the file, not worked out by a FHIRPath engine.
FOLLOW_UPS = {"Y": "Date of Vaccination?", "N": "Date of vaccination not provided", "unknown": "Date of vaccination not known"}


@pytest.mark.parametrize("code", list(FOLLOW_UPS))
def test_each_option_of_the_enable_when_expression_file_shows_its_follow_up(code, corpus_server):
    name = "24-android-fhir-enable-when-expression.json"
    client = Http(corpus_server.url)
    status, body, url = client.get(f"/surveys/{survey_id(name)}")
    status, body, url = client.post_form(body, url, {"1": code})
    assert status == 200 and b'class="error-summary"' not in body, (status, url)
    assert FOLLOW_UPS[code].encode() in body, f"after {code!r} the page at {url} does not show {FOLLOW_UPS[code]!r}"
