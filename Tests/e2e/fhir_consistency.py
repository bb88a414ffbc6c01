"""What an EHR checks when it files a QuestionnaireResponse against its Questionnaire, beyond
what the R4 models (fhir_check.py) read from the response alone:

- `questionnaire` is the Questionnaire's canonical: its `url`, with `|version` equal to the
  Questionnaire's version when the canonical names one;
- every item's linkId is an item of the Questionnaire, at the same place in the tree (a
  response item's parents are the Questionnaire item's parents), and its text, when it has
  one, is the Questionnaire item's (as the FHIR validator requires);
- a group or display item carries no answer; a question carries answers only of the type its
  item has (valueCoding for a choice, valueQuantity for a quantity…), a Coding or value that
  is one of the item's answerOptions, and more than one answer only when the item repeats;
- an item given more than once among its siblings (a repeating group's instances) repeats in
  the Questionnaire, and is given no more often than its maxOccurs;
- each answer keeps the item's limits: maxLength, regex, minValue and maxValue (SDC's
  minQuantity and maxQuantity), maxDecimalPlaces, and a unit among the item's unitOptions;
- an item present is enabled: each of its enableWhen conditions, judged on the response's
  answers as R4 defines them, holds (all or any, as enableBehavior says);
- a `completed` response holds every required item that is enabled and whose parent is in it.

Every check raises AssertionError naming the linkId.
"""
from __future__ import annotations

import datetime
import re
from decimal import Decimal

from fhir_check import validate_questionnaire, validate_questionnaire_response

# The answer types R4 allows for each item type (Questionnaire.item.type, QuestionnaireResponse.item.answer.value[x]).
ANSWER_TYPES = {
    "boolean": {"valueBoolean"}, "decimal": {"valueDecimal"}, "integer": {"valueInteger"},
    "date": {"valueDate"}, "dateTime": {"valueDateTime"}, "time": {"valueTime"},
    "string": {"valueString"}, "text": {"valueString"}, "url": {"valueUri"},
    "choice": {"valueCoding", "valueString", "valueInteger", "valueDate", "valueTime"},
    "open-choice": {"valueCoding", "valueString", "valueInteger", "valueDate", "valueTime"},
    "attachment": {"valueAttachment"}, "reference": {"valueReference"}, "quantity": {"valueQuantity"},
}


def value_of(element: dict) -> tuple[str, object]:
    """The (value[x] key, value) of an answer, an answerOption or an enableWhen's answer[x]."""
    found = [(key, value) for key, value in element.items()
             if key.startswith("value") or (key.startswith("answer") and key != "answer")]
    assert len(found) == 1, f"not exactly one value: {element}"
    return found[0]


def _questionnaire_items(questionnaire: dict) -> dict:
    """{linkId: (item, (the linkIds above it, outermost first))}."""
    found = {}

    def walk(siblings, above):
        for item in siblings:
            found[item["linkId"]] = (item, above)
            walk(item.get("item", []), above + (item["linkId"],))

    walk(questionnaire.get("item", []), ())
    return found


def _response_items(response: dict) -> list[tuple[dict, tuple]]:
    """[(item, (the linkIds above it))] of every response item at any depth."""
    found = []

    def walk(siblings, above):
        for item in siblings:
            found.append((item, above))
            walk(item.get("item", []), above + (item["linkId"],))
            for answer in item.get("answer", []):
                walk(answer.get("item", []), above + (item["linkId"],))

    walk(response.get("item", []), ())
    return found


def check_canonical(response: dict, questionnaire: dict):
    canonical = response.get("questionnaire")
    assert canonical, "the response names no questionnaire"
    url, _, version = canonical.partition("|")
    assert url == questionnaire.get("url"), f"questionnaire {canonical!r} is not the Questionnaire's url {questionnaire.get('url')!r}"
    if version:
        assert version == questionnaire.get("version"), \
            f"questionnaire {canonical!r} names version {version!r}, the Questionnaire is {questionnaire.get('version')!r}"


def _option_matches(kind: str, value, option: dict) -> bool:
    option_kind, option_value = value_of(option)
    if option_kind != kind:
        return False
    if kind == "valueCoding":
        same = value.get("system") == option_value.get("system") and value.get("code") == option_value.get("code")
        return same and ("display" not in option_value or value.get("display") == option_value["display"])
    return value == option_value


def check_answers(item: dict, q_item: dict):
    link_id, q_type = item["linkId"], q_item["type"]
    given = item.get("answer", [])
    if q_type in ("group", "display"):
        assert not given, f"{link_id}: a {q_type} item has an answer"
        return
    if len(given) > 1:
        assert q_item.get("repeats") is True, f"{link_id}: {len(given)} answers but the item does not repeat"
    for answer in given:
        kind, value = value_of(answer)
        allowed = ANSWER_TYPES[q_type]
        assert kind in allowed, f"{link_id}: {kind} answers a {q_type} item (allowed: {sorted(allowed)})"
        options = q_item.get("answerOption", [])
        if not options or (q_type == "open-choice" and kind == "valueString"):
            continue
        assert any(_option_matches(kind, value, option) for option in options), \
            f"{link_id}: {kind} {value!r} is none of the item's answerOptions"
    for answer in given:
        check_constraints(link_id, q_item, *value_of(answer))


def _extension(q_item: dict, name: str):
    """The value of the item's extension whose url ends in /name, or None. A date limit given
    as the expression today() (a primitive extension) is tomorrow's date, so that no time
    zone makes today's answer look late; any other expression is no limit here."""
    for extension in q_item.get("extension", []):
        if extension["url"].rsplit("/", 1)[-1] != name:
            continue
        values = {k: v for k, v in extension.items() if k.startswith("value")}
        if values:
            return value_of(values)[1]
        expressions = [e.get("valueExpression", {}).get("expression") for k, v in extension.items()
                       if k.startswith("_value") for e in v.get("extension", [])]
        if expressions == ["today()"]:
            return (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
    return None


def check_constraints(link_id: str, q_item: dict, kind: str, value):
    """What the item's own limits say of an answer, as a Questionnaire validator checks it:
    maxLength and regex on text, minValue and maxValue, SDC's minQuantity and maxQuantity,
    maxDecimalPlaces, and a quantity's unit among the item's unitOptions (or its unit)."""
    if kind == "valueString" and q_item["type"] in ("string", "text"):
        if "maxLength" in q_item:
            assert len(value) <= q_item["maxLength"], f"{link_id}: {len(value)} characters, maxLength {q_item['maxLength']}"
        pattern = _extension(q_item, "regex")
        if pattern is not None:
            assert re.fullmatch(pattern, value), f"{link_id}: {value!r} does not match the regex {pattern!r}"
    number = _comparable(kind, value) if kind in ("valueInteger", "valueDecimal", "valueQuantity") else None
    bounds = [("minValue", lambda limit: number >= limit if number is not None else value >= limit),
              ("maxValue", lambda limit: number <= limit if number is not None else value <= limit)]
    if kind == "valueQuantity":
        bounds = [("minQuantity", lambda limit: number >= Decimal(str(limit["value"]))),
                  ("maxQuantity", lambda limit: number <= Decimal(str(limit["value"])))]
    for name, holds in bounds:
        limit = _extension(q_item, f"sdc-questionnaire-{name}") if kind == "valueQuantity" else _extension(q_item, name)
        if limit is not None:
            limit = Decimal(str(limit)) if number is not None and not isinstance(limit, dict) else limit
            assert holds(limit), f"{link_id}: {value!r} is beyond its {name} {limit!r}"
    places = _extension(q_item, "maxDecimalPlaces")
    if number is not None and places is not None:
        assert -number.as_tuple().exponent <= places or number == number.to_integral(), \
            f"{link_id}: {value!r} has more than {places} decimal places"
    if kind == "valueQuantity":
        units = [e["valueCoding"] for e in q_item.get("extension", []) if e["url"].endswith("/questionnaire-unitOption")]
        units += [e["valueCoding"] for e in q_item.get("extension", []) if e["url"].endswith("/questionnaire-unit")]
        if units:
            assert any(_unit_matches(value, unit) for unit in units), f"{link_id}: the unit of {value!r} is none of {units}"


def _unit_matches(quantity: dict, unit: dict) -> bool:
    if "code" in unit:
        return quantity.get("system") == unit.get("system") and quantity.get("code") == unit["code"]
    return quantity.get("unit") == unit.get("display")


def _comparable(kind: str, value):
    if kind in ("valueDecimal", "valueInteger", "answerDecimal", "answerInteger"):
        return Decimal(str(value))
    if kind in ("valueQuantity", "answerQuantity"):
        return Decimal(str(value["value"]))
    if kind in ("valueCoding", "answerCoding"):
        return (value.get("system"), value.get("code"))
    return value


def answer_value(element: dict) -> tuple[str, object]:
    """The (type, value) of an answer's value[x] or an enableWhen's answer[x], type without prefix."""
    found = [(key, value) for key, value in element.items()
             if (key.startswith("value") or key.startswith("answer")) and key not in ("answer",)]
    assert len(found) == 1, f"not exactly one value in {element}"
    key, value = found[0]
    return key.removeprefix("value").removeprefix("answer"), value


def comparable_value(kind: str, value):
    """A value that Python compares as FHIR orders it, or None when it has no order/equality here."""
    if kind in ("Integer", "Decimal"):
        return Decimal(str(value))
    if kind == "Quantity":
        return Decimal(str(value["value"]))
    if kind == "Boolean":
        return bool(value)
    if kind == "Date":
        return datetime.date.fromisoformat(value) if len(value) == 10 else value
    if kind == "DateTime":
        parsed = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=datetime.timezone.utc)
    if kind == "Time":
        return datetime.time.fromisoformat(value)
    if kind in ("String", "Uri"):
        return value
    if kind == "Coding":
        return ("coding", value.get("system"), value.get("code"))
    raise AssertionError(f"no comparison written for {kind} values")


def condition_holds(condition: dict, given: dict) -> bool:
    """One enableWhen on {linkId: [answer, …]} as R4 defines it: `exists` asks whether the
    question has an answer; with no answer every other operator is false except `!=`; with
    several answers one that satisfies the condition is enough. Codings are equal by system and
    code and have no order; values of different kinds are not equal."""
    found = given.get(condition["question"], [])
    operator = condition["operator"]
    if operator == "exists":
        return bool(found) == condition["answerBoolean"]
    if not found:
        return operator == "!="
    want_kind, want = answer_value({k: v for k, v in condition.items() if k.startswith("answer")})
    expected = comparable_value(want_kind, want)
    numeric = {"Integer", "Decimal", "Quantity"}
    for answer in found:
        kind, value = answer_value(answer)
        same_kind = kind == want_kind or (kind in numeric and want_kind in numeric)
        got = comparable_value(kind, value) if same_kind else None
        if operator == "=":
            holds = same_kind and got == expected
        elif operator == "!=":
            holds = not same_kind or got != expected
        else:
            if not same_kind or want_kind in ("Coding", "Boolean"):
                holds = False
            else:
                holds = {">": got > expected, "<": got < expected,
                         ">=": got >= expected, "<=": got <= expected}[operator]
        if holds:
            return True
    return False


def enabled(q_item: dict, given: dict) -> bool:
    conditions = q_item.get("enableWhen", [])
    if not conditions:
        return True
    results = [condition_holds(condition, given) for condition in conditions]
    return any(results) if q_item.get("enableBehavior") == "any" else all(results)


def check_response_matches(response: dict, questionnaire: dict):
    """The response keeps its Questionnaire's canonical, tree, types, options, enableWhen and
    required items (see the module's text)."""
    check_canonical(response, questionnaire)
    q_items = _questionnaire_items(questionnaire)
    given = {}
    for item, _ in _response_items(response):
        if "answer" in item:
            given.setdefault(item["linkId"], []).extend(item["answer"])
    present = set()
    for item, above in _response_items(response):
        link_id = item["linkId"]
        assert link_id in q_items, f"{link_id}: no item of the Questionnaire has this linkId"
        q_item, q_above = q_items[link_id]
        assert above == q_above, f"{link_id}: under {list(above)} in the response, under {list(q_above)} in the Questionnaire"
        if "text" in item:
            assert item["text"] == q_item.get("text"), \
                f"{link_id}: the text {item['text']!r} is not the Questionnaire's {q_item.get('text')!r}"
        check_answers(item, q_item)
        assert enabled(q_item, given), f"{link_id}: present, but its enableWhen does not hold on the response's answers"
        present.add(link_id)
    check_repeated_items(response, q_items)
    if response.get("status") != "completed":
        return
    for link_id, (q_item, above) in q_items.items():
        parent_present = not above or above[-1] in present
        if q_item.get("required") and parent_present and enabled(q_item, given):
            assert link_id in present, f"{link_id}: required and enabled, but missing from a completed response"


def check_repeated_items(response: dict, q_items: dict):
    """An item given more than once among its siblings is one that repeats (R4: a repeating
    group is answered by an item per repeat, each with the group's linkId), no more often
    than its maxOccurs."""
    def walk(siblings):
        counts = {}
        for item in siblings:
            counts[item["linkId"]] = counts.get(item["linkId"], 0) + 1
        for link_id, count in counts.items():
            q_item = q_items.get(link_id, ({}, ()))[0]
            if count > 1:
                assert q_item.get("repeats") is True, f"{link_id}: given {count} times but the item does not repeat"
            most = _extension(q_item, "questionnaire-maxOccurs")
            if most is not None:
                assert count <= most, f"{link_id}: given {count} times, more than its maxOccurs {most}"
        for item in siblings:
            walk(item.get("item", []))
            for answer in item.get("answer", []):
                walk(answer.get("item", []))

    walk(response.get("item", []))


def validate_response_for(response: dict, questionnaire: dict, path: str = "$"):
    """The response is valid R4 (fhir_check) and fits its Questionnaire."""
    validate_questionnaire_response(response, path)
    check_response_matches(response, questionnaire)


def validate_questionnaire_and_response(questionnaire: dict, response: dict):
    validate_questionnaire(questionnaire)
    validate_response_for(response, questionnaire)
