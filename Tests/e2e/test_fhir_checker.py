"""The FHIR checks the suites rely on (validate_response_for, validate_questionnaire and
validate_bundle) refuse what an EHR would refuse, so that a suite passing means something:
for a valid Questionnaire, response and Bundle (each first shown to pass), every breakage
below must raise AssertionError with the words that name it."""
from __future__ import annotations

import copy

import pytest

from fhir_check import validate_bundle, validate_questionnaire
from fhir_consistency import validate_response_for

KINDS = "http://example.org/fhir/CodeSystem/smoking-kinds"
SD = "http://hl7.org/fhir/StructureDefinition"
UCUM = "http://unitsofmeasure.org"
QUESTIONNAIRE = {
    "resourceType": "Questionnaire", "id": "smoking", "url": "http://example.org/fhir/Questionnaire/smoking",
    "version": "2", "status": "active",
    "item": [
        {"linkId": "smokes", "text": "Do you smoke?", "type": "boolean", "required": True},
        {"linkId": "habits", "text": "Your habits", "type": "group", "item": [
            {"linkId": "per-day", "text": "Cigarettes a day", "type": "integer", "required": True,
             "enableWhen": [{"question": "smokes", "operator": "=", "answerBoolean": True}],
             "extension": [{"url": f"{SD}/minValue", "valueInteger": 1}, {"url": f"{SD}/maxValue", "valueInteger": 100}]},
            {"linkId": "kinds", "text": "What do you smoke?", "type": "open-choice", "repeats": True, "answerOption": [
                {"valueCoding": {"system": KINDS, "code": "cig", "display": "Cigarettes"}},
                {"valueCoding": {"system": KINDS, "code": "pipe", "display": "Pipe"}}]},
        ]},
        {"linkId": "weight", "text": "Weight", "type": "quantity", "extension": [
            {"url": f"{SD}/questionnaire-unitOption", "valueCoding": {"system": UCUM, "code": "kg", "display": "kg"}},
            {"url": f"{SD}/maxDecimalPlaces", "valueInteger": 1}]},
        {"linkId": "seen", "text": "Last seen by a doctor", "type": "date", "extension": [
            {"url": f"{SD}/maxValue", "_valueDate": {"extension": [{"url": f"{SD}/cqf-expression", "valueExpression": {
                "language": "text/fhirpath", "expression": "today()"}}]}}]},
        {"linkId": "code", "text": "Your study code", "type": "string", "maxLength": 7,
         "extension": [{"url": f"{SD}/regex", "valueString": "[A-Z]{2}-[0-9]{4}"}]},
        {"linkId": "note", "text": "Thank you.", "type": "display"},
    ],
}
RUN = "3f2b1c9e-8a47-4d1e-9c55-0b6a2e7d4f10"
PATIENT = "9b1f6a2c-2d3e-4f50-8a61-7c8d9e0f1a2b"
RESPONSE = {
    "resourceType": "QuestionnaireResponse", "id": RUN, "questionnaire": f"{QUESTIONNAIRE['url']}|2",
    "status": "completed", "authored": "2026-01-05T10:20:00+01:00",
    "item": [
        {"linkId": "smokes", "text": "Do you smoke?", "answer": [{"valueBoolean": True}]},
        {"linkId": "habits", "text": "Your habits", "item": [
            {"linkId": "per-day", "answer": [{"valueInteger": 10}]},
            {"linkId": "kinds", "answer": [{"valueCoding": {"system": KINDS, "code": "cig", "display": "Cigarettes"}},
                                           {"valueString": "Cigars"}]},
        ]},
        {"linkId": "weight", "answer": [{"valueQuantity": {"value": 70.5, "unit": "kg", "system": UCUM, "code": "kg"}}]},
        {"linkId": "seen", "answer": [{"valueDate": "2025-11-03"}]},
        {"linkId": "code", "answer": [{"valueString": "KL-4821"}]},
    ],
}


def response_with(change) -> dict:
    document = copy.deepcopy(RESPONSE)
    change(document)
    return document


def item(document: dict, link_id: str) -> dict:
    def find(items):
        for candidate in items:
            if candidate["linkId"] == link_id:
                return candidate
            found = find(candidate.get("item", []))
            if found:
                return found
        return None
    return find(document["item"])


def test_the_valid_documents_pass():
    validate_questionnaire(QUESTIONNAIRE)
    validate_response_for(RESPONSE, QUESTIONNAIRE)
    validate_bundle(collection(RESPONSE))
    validate_bundle(transaction())


BROKEN_RESPONSES = {
    "no status": (lambda d: d.pop("status"), "status"),
    "a status R4 does not have": (lambda d: d.update(status="done"), "status"),
    "an answer of the wrong type": (lambda d: item(d, "smokes").update(answer=[{"valueString": "yes"}]),
                                    "valueString answers a boolean item"),
    "a quantity as a bare number": (lambda d: item(d, "weight").update(answer=[{"valueDecimal": 70.5}]),
                                    "valueDecimal answers a quantity item"),
    "a text that is not the Questionnaire's": (lambda d: item(d, "smokes").update(text="Do you vape?"),
                                               "is not the Questionnaire's"),
    "a linkId not in the Questionnaire": (lambda d: item(d, "seen").update(linkId="last-seen"),
                                          "no item of the Questionnaire"),
    "an item out of its group": (lambda d: d["item"].append(d["item"][1]["item"].pop(0)), "under []"),
    "a Coding that is no option": (lambda d: item(d, "kinds")["answer"][0]["valueCoding"].update(code="cigar"),
                                   "none of the item's answerOptions"),
    "an option's Coding with another display": (
        lambda d: item(d, "kinds")["answer"][0]["valueCoding"].update(display="Cigarillos"), "answerOptions"),
    "two answers to a question that does not repeat": (
        lambda d: item(d, "per-day")["answer"].append({"valueInteger": 12}), "does not repeat"),
    "an answer on a group": (lambda d: item(d, "habits").update(answer=[{"valueString": "x"}]), "qrs-1"),
    "an answer on a display item": (lambda d: d["item"].append({"linkId": "note", "answer": [{"valueString": "x"}]}),
                                    "a display item has an answer"),
    "an item whose enableWhen does not hold": (lambda d: item(d, "smokes").update(answer=[{"valueBoolean": False}]),
                                               "enableWhen does not hold"),
    "a required item missing when completed": (lambda d: item(d, "habits")["item"].pop(0), "per-day: required"),
    "a canonical naming another Questionnaire": (
        lambda d: d.update(questionnaire="http://example.org/fhir/Questionnaire/other|2"), "not the Questionnaire's url"),
    "a canonical naming another version": (lambda d: d.update(questionnaire=f"{QUESTIONNAIRE['url']}|3"),
                                           "names version '3'"),
    "no canonical at all": (lambda d: d.pop("questionnaire"), "names no questionnaire"),
    "a number under its minValue": (lambda d: item(d, "per-day").update(answer=[{"valueInteger": 0}]),
                                    "beyond its minValue"),
    "a number over its maxValue": (lambda d: item(d, "per-day").update(answer=[{"valueInteger": 101}]),
                                   "beyond its maxValue"),
    "a date after today() as maxValue": (lambda d: item(d, "seen").update(answer=[{"valueDate": "2999-01-01"}]),
                                         "beyond its maxValue"),
    "too many decimal places": (lambda d: item(d, "weight")["answer"][0]["valueQuantity"].update(value=70.25),
                                "decimal places"),
    "a unit that is no unitOption": (lambda d: item(d, "weight")["answer"][0]["valueQuantity"].update(
        code="[lb_av]", unit="lb"), "is none of"),
    "a text longer than maxLength": (lambda d: item(d, "code").update(answer=[{"valueString": "KL-48210"}]), "maxLength"),
    "a text its regex refuses": (lambda d: item(d, "code").update(answer=[{"valueString": "kl-4821"}]), "regex"),
    "a date R4 cannot read": (lambda d: item(d, "seen").update(answer=[{"valueDate": "03/11/2025"}]),
                              "fhir.resources refuses"),
    "a repeated linkId among siblings": (lambda d: d["item"].append(copy.deepcopy(d["item"][3])), "qrs-2"),
    "a group given twice that does not repeat": (lambda d: d["item"].insert(2, copy.deepcopy(d["item"][1])),
                                                 "does not repeat"),
    "an empty array": (lambda d: item(d, "habits").update(item=[]), "empty array"),
    "a null": (lambda d: d.update(authored=None), "null"),
    "a blank string": (lambda d: item(d, "smokes").update(text=" "), "blank string"),
}


@pytest.mark.parametrize("breakage", list(BROKEN_RESPONSES))
def test_a_broken_response_is_refused(breakage):
    change, words = BROKEN_RESPONSES[breakage]
    with pytest.raises(AssertionError) as refusal:
        validate_response_for(response_with(change), QUESTIONNAIRE)
    assert words in str(refusal.value), str(refusal.value)[:2000]


def test_an_in_progress_response_may_lack_a_required_item_but_nothing_else_is_forgiven():
    in_progress = response_with(lambda d: (d.update(status="in-progress"), d["item"].pop(3)))
    validate_response_for(in_progress, QUESTIONNAIRE)
    with pytest.raises(AssertionError, match="no item of the Questionnaire"):
        validate_response_for(response_with(lambda d: (d.update(status="in-progress"), item(d, "seen").update(linkId="x"))),
                              QUESTIONNAIRE)


BROKEN_QUESTIONNAIRES = {
    "a group without items": (lambda q: item(q, "habits").pop("item"), "que-1"),
    "a repeated linkId": (lambda q: item(q, "seen").update(linkId="weight"), "que-2"),
    "a display item with a code": (lambda q: item(q, "note").update(code=[{"system": KINDS, "code": "x"}]), "que-3"),
    "options on a date item": (lambda q: item(q, "seen").update(answerOption=[{"valueDate": "2025-01-01"}]), "que-5"),
    "the abstract type question": (lambda q: item(q, "smokes").update(type="question"), "type"),
    "an enableWhen on no item": (lambda q: item(q, "per-day")["enableWhen"][0].update(question="smoker"),
                                 "enableWhen on no item"),
    "no status": (lambda q: q.pop("status"), "status"),
}


@pytest.mark.parametrize("breakage", list(BROKEN_QUESTIONNAIRES))
def test_a_broken_questionnaire_is_refused(breakage):
    change, words = BROKEN_QUESTIONNAIRES[breakage]
    questionnaire = copy.deepcopy(QUESTIONNAIRE)
    change(questionnaire)
    with pytest.raises(AssertionError) as refusal:
        validate_questionnaire(questionnaire)
    assert words in str(refusal.value), str(refusal.value)[:2000]


# --- Bundles ------------------------------------------------------------------------------------

def collection(*responses) -> dict:
    """A collection Bundle of these responses and the patient they are about."""
    entries = [{"fullUrl": f"urn:uuid:{PATIENT}", "resource": {"resourceType": "Patient", "id": PATIENT}}]
    for response in responses:
        response = copy.deepcopy(response)
        response["subject"] = {"reference": f"urn:uuid:{PATIENT}"}
        entries.append({"fullUrl": f"urn:uuid:{response['id']}", "resource": response})
    return {"resourceType": "Bundle", "type": "collection", "entry": entries}


def transaction() -> dict:
    """The same as a transaction: the patient PUT by its id, the response POSTed."""
    bundle = collection(RESPONSE)
    bundle["type"] = "transaction"
    bundle["entry"][0].update(fullUrl=f"http://example.org/fhir/Patient/{PATIENT}",
                              request={"method": "PUT", "url": f"Patient/{PATIENT}"})
    bundle["entry"][1]["resource"]["subject"] = {"reference": f"Patient/{PATIENT}"}
    bundle["entry"][1].pop("fullUrl")
    bundle["entry"][1]["request"] = {"method": "POST", "url": "QuestionnaireResponse"}
    return bundle


BROKEN_BUNDLES = {
    "an entry without fullUrl": (collection, lambda b: b["entry"][1].pop("fullUrl"), "no fullUrl"),
    "a repeated fullUrl": (collection, lambda b: b["entry"][0].update(fullUrl=b["entry"][1]["fullUrl"]), "bdl-7"),
    "a fullUrl that is no uuid": (collection, lambda b: b["entry"][1].update(fullUrl="urn:uuid:run-1"), "fullUrl"),
    "a reference to no entry": (collection, lambda b: b["entry"][1]["resource"].update(
        subject={"reference": "urn:uuid:00000000-0000-4000-8000-000000000000"}), "is no entry of the Bundle"),
    "a request in a collection": (collection, lambda b: b["entry"][1].update(
        request={"method": "POST", "url": "QuestionnaireResponse"}), "bdl-3"),
    "a total in a collection": (collection, lambda b: b.update(total=2), "bdl-1"),
    "a broken response inside": (collection, lambda b: b["entry"][1]["resource"].update(status="done"), "status"),
    "no type": (collection, lambda b: b.pop("type"), "type"),
    "a transaction entry without request": (transaction, lambda b: b["entry"][0].pop("request"), "bdl-3"),
    "a PUT without fullUrl": (transaction, lambda b: b["entry"][0].pop("fullUrl"), "no fullUrl"),
    "a fullUrl that is not its resource's": (transaction, lambda b: b["entry"][0].update(
        fullUrl="http://example.org/fhir/Patient/someone-else"), "is not the URL of its Patient"),
    "an entry without resource": (collection, lambda b: b["entry"][0].pop("resource"), "bdl-5"),
}


@pytest.mark.parametrize("breakage", list(BROKEN_BUNDLES))
def test_a_broken_bundle_is_refused(breakage):
    make, change, words = BROKEN_BUNDLES[breakage]
    bundle = make(RESPONSE) if make is collection else make()
    change(bundle)
    with pytest.raises(AssertionError) as refusal:
        validate_bundle(bundle)
    assert words in str(refusal.value), str(refusal.value)[:2000]


def test_a_repeating_group_is_an_item_per_repeat_up_to_its_max_occurs():
    """R4 answers a repeating group with an item per repeat, each with the group's linkId (qrs-2
    combines only answers); more than its maxOccurs is refused."""
    questionnaire = copy.deepcopy(QUESTIONNAIRE)
    questionnaire["item"][1].update(repeats=True, extension=[{"url": f"{SD}/questionnaire-maxOccurs", "valueInteger": 2}])
    twice = response_with(lambda d: d["item"].insert(2, copy.deepcopy(d["item"][1])))
    validate_response_for(twice, questionnaire)
    thrice = response_with(lambda d: [d["item"].insert(2, copy.deepcopy(d["item"][1])) for _ in range(2)])
    with pytest.raises(AssertionError, match="more than its maxOccurs 2"):
        validate_response_for(thrice, questionnaire)
