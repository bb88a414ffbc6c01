"""FHIR checks shared by the FHIR suites (Tests/e2e/test_fhir.py, Tests/cli/test_fhir_cli.py).

A document is valid here when the R4B models of fhir.resources (pydantic; R4B's Questionnaire,
QuestionnaireResponse and Bundle are R4's) accept it, and it keeps the R4 rules those models
leave out: JSON without null, empty arrays, objects or strings; the required code bindings
(statuses, item types, operators, Bundle type); the invariants of a QuestionnaireResponse
(qrs-1, qrs-2), those of a Questionnaire that read its structure (que-1 to que-7, que-9,
que-11 to que-13; every enableWhen names an item) and those of a Bundle on its entries (bdl-1
to bdl-5, bdl-7, bdl-9 to bdl-12, fullUrls, references resolved inside it). Every check raises
AssertionError naming the JSON path. What a response must keep of its Questionnaire is in
fhir_consistency.py.

Also here: the PHQ-9 fixture's items and options, and a PHQ-9 participant over raw HTTP.
"""
from __future__ import annotations

import copy
import json
import re
from decimal import Decimal
from pathlib import Path

from support import ROOT
from support.tools import need_module

need_module("fhir")
need_module("fhir.resources")

from fhir.resources.R4B import get_fhir_model_class  # noqa: E402
from fhir.resources.R4B.bundle import Bundle  # noqa: E402
from fhir.resources.R4B.element import Element  # noqa: E402
from fhir.resources.R4B.questionnaire import Questionnaire  # noqa: E402
from fhir.resources.R4B.questionnaireresponse import QuestionnaireResponse  # noqa: E402
from pydantic import ValidationError  # noqa: E402

FIXTURES = ROOT / "Tests" / "SurveyCoreTests" / "Fixtures" / "fhir"

QR_STATUS = {"in-progress", "completed", "amended", "entered-in-error", "stopped"}
Q_STATUS = {"draft", "active", "retired", "unknown"}
# R4's item types without the abstract "question", which an item may not have.
ITEM_TYPES = {"group", "display", "boolean", "decimal", "integer", "date", "dateTime", "time", "string",
              "text", "url", "choice", "open-choice", "attachment", "reference", "quantity"}
OPERATORS = {"exists", "=", "!=", ">", "<", ">=", "<="}
BUNDLE_TYPES = {"document", "message", "transaction", "transaction-response", "batch", "batch-response",
                "history", "searchset", "collection"}
URN_UUID = re.compile(r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


# --- validation ------------------------------------------------------------------------------

def _model_validate(model, document: dict, what: str):
    try:
        return model.model_validate(_without_extension_value_extensions(document))
    except ValidationError as error:
        shown = json.dumps(document, indent=1)[:4000]
        raise AssertionError(f"fhir.resources refuses the {what}:\n{error}\n{shown}") from None


def _without_extension_value_extensions(document: dict) -> dict:
    """fhir.resources 8.3 has no field for `_valueDate` and its kin on an Extension (its issue
    #204), though R4 JSON allows a primitive extension there: SDC writes a maxValue of
    today() as `"_valueDate": {"extension": [cqf-expression]}`. Each such object is checked
    as the Element it is, then left out of the copy the models see; nothing else changes."""
    document = copy.deepcopy(document)

    def visit(value, path, in_extensions=False):
        if isinstance(value, dict):
            if in_extensions:
                for key in [k for k in value if k.startswith("_value")]:
                    try:
                        Element.model_validate(value[key])
                    except ValidationError as error:
                        raise AssertionError(f"{path}.{key} is not a valid primitive extension:\n{error}") from None
                    del value[key]
            for key, child in value.items():
                visit(child, f"{path}.{key}", key in ("extension", "modifierExtension"))
        elif isinstance(value, list):
            for index, child in enumerate(value):
                visit(child, f"{path}[{index}]", in_extensions)

    visit(document, "$")
    return document


def check_json_rules(document, path: str = "$"):
    """FHIR JSON has no null, no empty array or object, and no empty or blank string."""
    if document is None:
        raise AssertionError(f"{path} is null")
    if isinstance(document, dict):
        assert document, f"{path} is an empty object"
        for key, value in document.items():
            check_json_rules(value, f"{path}.{key}")
    elif isinstance(document, list):
        assert document, f"{path} is an empty array"
        for index, value in enumerate(document):
            check_json_rules(value, f"{path}[{index}]")
    elif isinstance(document, str):
        assert document.strip(), f"{path} is an empty or blank string"


def validate_questionnaire_response(document: dict, path: str = "$") -> QuestionnaireResponse:
    check_json_rules(document, path)
    assert document.get("resourceType") == "QuestionnaireResponse", f"{path}: {document.get('resourceType')!r}"
    assert document.get("status") in QR_STATUS, f"{path}.status: {document.get('status')!r}"

    def items(siblings, where):
        # qrs-2 as R4 writes it: item.where(answer.value.exists()).linkId.isDistinct(). Items
        # holding answers combine them in one item; a repeating group's instances (no answer of
        # their own) are items of their own with the group's linkId.
        link_ids = [item["linkId"] for item in siblings
                    if any(key.startswith("value") for answer in item.get("answer", []) for key in answer)]
        assert len(link_ids) == len(set(link_ids)), f"qrs-2: {where} repeats the linkId of answered items: {link_ids}"
        for index, item in enumerate(siblings):
            at = f"{where}[{index}]"
            assert not ("answer" in item and "item" in item), f"qrs-1: {at} has both answer and item"
            items(item.get("item", []), f"{at}.item")
            for number, answer in enumerate(item.get("answer", [])):
                items(answer.get("item", []), f"{at}.answer[{number}].item")

    items(document.get("item", []), f"{path}.item")
    return _model_validate(QuestionnaireResponse, document, "QuestionnaireResponse")


def validate_questionnaire(document: dict) -> Questionnaire:
    check_json_rules(document)
    assert document.get("resourceType") == "Questionnaire", document.get("resourceType")
    assert document.get("status") in Q_STATUS, f"$.status: {document.get('status')!r}"
    seen = set()

    def items(siblings, where):
        for index, item in enumerate(siblings):
            at, kind = f"{where}[{index}]", item.get("type")
            assert kind in ITEM_TYPES, f"{at}.type: {kind!r}"
            assert item["linkId"] not in seen, f"que-2: {at} repeats the linkId {item['linkId']!r}"
            seen.add(item["linkId"])
            if kind == "group":
                assert item.get("item"), f"que-1: the group {at} has no items"
            if kind == "display":
                assert "item" not in item, f"que-1: the display item {at} has items"
                assert "code" not in item, f"que-3: the display item {at} has a code"
                assert not ({"required", "repeats"} & item.keys()), f"que-6: {at} is a display item"
                assert "readOnly" not in item, f"que-9: the display item {at} is read-only"
            assert not ("answerOption" in item and "answerValueSet" in item), f"que-4: {at}"
            if "answerValueSet" in item or "answerOption" in item:
                assert kind in ("choice", "open-choice"), f"que-5: {at} has options but is {kind}"
            if "answerOption" in item:
                assert "initial" not in item, f"que-11: {at} has answerOption and initial"
            if len(item.get("initial", [])) > 1:
                assert item.get("repeats") is True, f"que-13: {at} has several initial values but does not repeat"
            conditions = item.get("enableWhen", [])
            if len(conditions) > 1:
                assert item.get("enableBehavior") in ("all", "any"), f"que-12: {at} has no enableBehavior"
            for number, condition in enumerate(conditions):
                assert condition.get("operator") in OPERATORS, f"{at}.enableWhen[{number}].operator"
                if condition["operator"] == "exists":
                    assert "answerBoolean" in condition, f"que-7: {at}.enableWhen[{number}]"
            items(item.get("item", []), f"{at}.item")

    items(document.get("item", []), "$.item")
    for item in _all_items(document):
        for condition in item.get("enableWhen", []):
            assert condition["question"] in seen, f"{item['linkId']}: enableWhen on no item {condition['question']!r}"
    return _model_validate(Questionnaire, document, "Questionnaire")


def validate_bundle(document: dict) -> Bundle:
    """A Bundle; each entry's resource is validated as its type (a QuestionnaireResponse or a
    Questionnaire with the checks above, any other by its R4B model), and the entries keep the
    rules of the Bundle's type (see check_bundle_entries)."""
    check_json_rules(document)
    assert document.get("resourceType") == "Bundle", document.get("resourceType")
    assert document.get("type") in BUNDLE_TYPES, f"$.type: {document.get('type')!r}"
    check_bundle_entries(document)
    for index, entry in enumerate(document.get("entry", [])):
        resource = entry.get("resource")
        if resource is None:
            continue
        where = f"$.entry[{index}].resource"
        if resource.get("resourceType") == "QuestionnaireResponse":
            validate_questionnaire_response(resource, where)
        elif resource.get("resourceType") == "Questionnaire":
            validate_questionnaire(resource)
        else:
            _model_validate(get_fhir_model_class(resource.get("resourceType")), resource, where)
    return _model_validate(Bundle, document, "Bundle")


def check_bundle_entries(document: dict):
    """R4's rules on a Bundle's entries: bdl-1 to bdl-5, bdl-7, bdl-9 to bdl-12; a fullUrl on
    every entry with a resource, but for a POST in a transaction or batch; a urn:uuid fullUrl
    well formed and a RESTful one ending in the resource's type and id; and every urn:uuid
    reference inside an entry naming another entry's fullUrl, every `#id` a contained resource."""
    kind, entries = document["type"], document.get("entry", [])
    assert "total" not in document or kind in ("searchset", "history"), f"bdl-1: a {kind} Bundle has a total"
    full_urls = [entry["fullUrl"] for entry in entries if "fullUrl" in entry]
    assert len(full_urls) == len(set(full_urls)), f"bdl-7: repeated fullUrls {full_urls}"
    if kind == "document":
        assert {"system", "value"} <= document.get("identifier", {}).keys(), "bdl-9: a document has no identifier"
        assert "timestamp" in document, "bdl-10: a document has no timestamp"
    for index, entry in enumerate(entries):
        at, resource = f"$.entry[{index}]", entry.get("resource")
        assert "search" not in entry or kind == "searchset", f"bdl-2: {at} has search in a {kind} Bundle"
        needs_request = kind in ("batch", "transaction", "history")
        assert ("request" in entry) == needs_request, \
            f"bdl-3: {at} {'lacks' if needs_request else 'has'} a request in a {kind} Bundle"
        needs_response = kind in ("batch-response", "transaction-response", "history")
        assert ("response" in entry) == needs_response, \
            f"bdl-4: {at} {'lacks' if needs_response else 'has'} a response in a {kind} Bundle"
        assert resource is not None or {"request", "response"} & entry.keys(), f"bdl-5: {at} has no resource"
        posted = needs_request and entry.get("request", {}).get("method") == "POST"
        if resource is not None and not posted:
            assert "fullUrl" in entry, f"{at} has a resource but no fullUrl in a {kind} Bundle"
        full_url = entry.get("fullUrl")
        if full_url is None:
            continue
        if full_url.startswith("urn:uuid:"):
            assert URN_UUID.fullmatch(full_url), f"{at}.fullUrl: {full_url!r}"
        elif not full_url.startswith("urn:oid:") and resource is not None:
            assert full_url.endswith(f"/{resource.get('resourceType')}/{resource.get('id')}"), \
                f"{at}.fullUrl {full_url!r} is not the URL of its {resource.get('resourceType')} {resource.get('id')!r}"
    if kind in ("document", "message") and entries:
        first = {"document": "Composition", "message": "MessageHeader"}[kind]
        assert entries[0].get("resource", {}).get("resourceType") == first, f"bdl-11/12: a {kind} starts with {first}"
    for index, entry in enumerate(entries):
        contained = {c.get("id") for c in entry.get("resource", {}).get("contained", [])}
        for where, reference in _references(entry.get("resource", {}), f"$.entry[{index}].resource"):
            if reference.startswith("urn:uuid:"):
                assert reference in full_urls, f"{where}: {reference!r} is no entry of the Bundle"
            elif reference.startswith("#"):
                assert reference[1:] in contained, f"{where}: {reference!r} is no contained resource"


def _references(value, path):
    """(JSON path, reference) of every Reference.reference at any depth."""
    if isinstance(value, dict):
        if isinstance(value.get("reference"), str):
            yield f"{path}.reference", value["reference"]
        for key, child in value.items():
            yield from _references(child, f"{path}.{key}")
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _references(child, f"{path}[{index}]")


# --- reading responses and questionnaires ----------------------------------------------------

def _all_items(resource: dict):
    """Every item at any depth (under items and under answers), in document order."""
    for item in resource.get("item", []):
        yield item
        yield from _all_items(item)
        for answer in item.get("answer", []):
            yield from _all_items(answer)


def all_items(resource: dict) -> list[dict]:
    """Every item at any depth, in document order: a repeated item once per repeat."""
    return list(_all_items(resource))


def items_by_link_id(resource: dict) -> dict:
    return {item["linkId"]: item for item in _all_items(resource)}


def answers(resource: dict) -> dict:
    """{linkId: [answer, …]} of every answered item at any depth."""
    return {item["linkId"]: item["answer"] for item in _all_items(resource) if "answer" in item}


def parents(resource: dict) -> dict:
    """{linkId: (the linkIds of the items above it, outermost first)}."""
    found = {}

    def walk(siblings, above):
        for item in siblings:
            found[item["linkId"]] = above
            walk(item.get("item", []), above + (item["linkId"],))
            for answer in item.get("answer", []):
                walk(answer.get("item", []), above + (item["linkId"],))

    walk(resource.get("item", []), ())
    return found


def extensions(resource: dict, url: str) -> list[dict]:
    """The resource's own extensions with this url, each as {sub-extension url: value}."""
    found = []
    for extension in resource.get("extension", []):
        if extension["url"] == url:
            found.append({sub["url"]: next(v for k, v in sub.items() if k.startswith("value"))
                          for sub in extension.get("extension", [])})
    return found


def number(answer: dict) -> Decimal:
    """The number of a valueDecimal, valueInteger or valueQuantity answer, exactly."""
    for key in ("valueDecimal", "valueInteger"):
        if key in answer:
            return Decimal(str(answer[key]))
    return Decimal(str(answer["valueQuantity"]["value"]))


def load_json(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


# --- the PHQ-9 fixture ------------------------------------------------------------------------

PHQ9 = load_json(FIXTURES / "phq-9.json")
PHQ9_GROUP = "44249-1"
PHQ9_TOTAL = "44261-6"
PHQ9_DIFFICULTY = "69722-7"
PHQ9_QUESTIONS = [item for item in PHQ9["item"][0]["item"]
                  if item["type"] == "choice" and item["linkId"] != PHQ9_DIFFICULTY]
PHQ9_DIFFICULTY_ITEM = next(item for item in PHQ9["item"][0]["item"] if item["linkId"] == PHQ9_DIFFICULTY)


def phq9_option(item: dict, score: int) -> dict:
    """The valueCoding of the item's option whose ordinalValue is `score`."""
    for option in item["answerOption"]:
        ordinal = next(e["valueDecimal"] for e in option["extension"] if e["url"].endswith("/ordinalValue"))
        if ordinal == score:
            return option["valueCoding"]
    raise AssertionError(f"{item['linkId']} has no option scoring {score}")


def phq9_by_http(base_url: str, scores: list[int], difficulty: str | None = "LA6573-5", stop: str | None = None,
                 client=None):
    """A participant over raw HTTP: the nine answers scoring `scores`, the total page, then the
    difficulty code (when the total is above 0). stop="save" saves the run on the total page
    instead. `client` is a participant already in a run (one who opened a start link).
    Returns the participant (support.Http) and the last URL."""
    from support import Http
    client = client or Http(base_url)
    status, body, url = client.get("/surveys/phq-9")
    fields = {item["linkId"]: phq9_option(item, score)["code"] for item, score in zip(PHQ9_QUESTIONS, scores)}
    status, body, url = client.post_form(body, url, fields)
    assert status == 200 and f">{sum(scores)} points</output>".encode() in body, body[:3000]
    if stop == "save":
        status, body, url = client.post_form(body, url, {}, action="save")
        assert status == 200 and url.endswith("/saved"), (status, url)
        return client, url
    status, body, url = client.post_form(body, url, {})
    if sum(scores) > 0:
        assert PHQ9_DIFFICULTY.encode() in body, body[:3000]
        status, body, url = client.post_form(body, url, {PHQ9_DIFFICULTY: difficulty} if difficulty else {})
    assert status == 200 and url.endswith("/done"), (status, url)
    return client, url
