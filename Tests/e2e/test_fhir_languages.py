"""A Questionnaire written in English and Spanish (FHIR's translation extension on titles, texts,
prefixes, option displays and a ValueSet's designations; Fixtures/fhir/bilingual-intake.json)
served as it is: a participant in Chromium without JavaScript switches to Spanish with the
language switcher, answers by the Spanish words on the page, and the QuestionnaireResponse
that comes back keeps the Questionnaire's codes and its own English words, valid R4 and
fitting the Questionnaire (fhir_consistency.py).
"""
from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from fhir_check import FIXTURES, answers, load_json
from fhir_consistency import validate_response_for
from survey_pages import _click_choice, press, type_into, wait_for_new_page

BILINGUAL = load_json(FIXTURES / "bilingual-intake.json")


@pytest.fixture(scope="module")
def server(start_server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fhir-languages")
    shutil.copy(FIXTURES / "bilingual-intake.json", folder / "bilingual-intake.json")
    return start_server(folder)


def choose(driver, label: str):
    """Clicks the radio button whose label reads `label`."""
    for box in driver.find_elements(By.CSS_SELECTOR, "main input[type=radio]"):
        text = driver.find_element(By.CSS_SELECTOR, f"label[for='{box.get_attribute('id')}']").text.strip()
        if text == label:
            _click_choice(driver, box)
            return
    raise AssertionError(f"no option reads {label!r} on {driver.current_url}")


def test_a_participant_answers_in_spanish_and_the_response_keeps_the_codes(server, chromium):
    chromium.get(server.url + "/surveys/bilingual-intake")
    assert chromium.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    switch = chromium.find_element(By.CSS_SELECTOR, ".language-switcher button[value=es]")
    assert switch.text == "Español"
    old_page = chromium.find_element(By.TAG_NAME, "html")
    switch.click()
    wait_for_new_page(chromium, old_page)
    assert chromium.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
    main = chromium.find_element(By.TAG_NAME, "main").text
    assert "1. ¿Fuma?" in main and "Cuente cigarrillos, puros y pipas." in main, main
    choose(chromium, "Nunca ha fumado")
    press(chromium, "next")
    assert "¿Tiene alergias?" in chromium.find_element(By.TAG_NAME, "main").text
    choose(chromium, "Sí")
    press(chromium, "next")

    box = chromium.find_element(By.CSS_SELECTOR, "main input[name=postcode]")
    type_into(box, "12AB")
    press(chromium, "next")
    summary = chromium.find_element(By.CSS_SELECTOR, ".error-summary").text
    assert "Esta respuesta no tiene la forma que pide la pregunta" in summary, summary
    box = chromium.find_element(By.CSS_SELECTOR, "main input[name=postcode]")
    assert box.get_attribute("value") == "12AB", "the answer is kept beside the message"
    type_into(box, "28001")
    press(chromium, "next")
    choose(chromium, "Mal")
    press(chromium, "next")

    cookie = "; ".join(f"{c['name']}={c['value']}" for c in chromium.get_cookies())
    request = urllib.request.Request(server.url + "/surveys/bilingual-intake/result.json?format=fhir", headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=20) as response:
        document = json.loads(response.read())
    validate_response_for(document, BILINGUAL)
    given = answers(document)
    assert given["smoking"] == [{"valueCoding": {"system": "http://loinc.org", "code": "LA18978-9", "display": "Never smoker"}}]
    assert given["allergy"][0]["valueCoding"]["code"] == "Y"
    assert given["allergy"][0]["valueCoding"]["display"] == "Yes"
    assert given["postcode"] == [{"valueString": "28001"}]
    assert given["feeling"] == [{"valueString": "Unwell"}]
    texts = {item["linkId"]: item.get("text") for item in document["item"]}
    assert texts["smoking"] == "Do you smoke?" and texts["feeling"] == "How do you feel?", texts
