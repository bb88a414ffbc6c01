"""Exports after participants answer in a real browser: each missing reason lands in its cell
of the wide CSV (with missing codes), and a branch left by Back and a change leaves no trace."""
from __future__ import annotations

import csv
import io
import json
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from support import EXAMPLES_DIR, field_values
from survey_pages import error_summary_text, fill_page, press, step_form, wait_for_new_page

TOKEN = "export-token-0123456789"
FIXTURES = EXAMPLES_DIR.parent / "Tests" / "Fixtures"


@pytest.fixture(scope="module")
def api_server(start_server):
    return start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN))


def export(server, survey: str, fmt: str, extra: str = "") -> str:
    request = urllib.request.Request(f"{server.url}/api/v1/surveys/{survey}/export?format={fmt}{extra}",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
        return response.read().decode("utf-8")


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def answer_until_done(driver, values: dict, buttons: set[str] = frozenset()):
    """Fill each page from values and press Next; where the page has a button named in
    `buttons` (an "I don't know"), press that instead. Stops at the done page."""
    for _ in range(60):
        if driver.current_url.rstrip("/").endswith("/done"):
            return
        assert error_summary_text(driver) is None, error_summary_text(driver)
        form = step_form(driver)
        assert form is not None, driver.current_url
        special = [b for b in form.find_elements(By.CSS_SELECTOR, "button[name]") if b.get_attribute("name") in buttons]
        if special:
            old = driver.find_element(By.TAG_NAME, "html")
            special[0].click()
            wait_for_new_page(driver, old)
            continue
        fill_page(driver, values)
        press(driver, "next")
    raise AssertionError("no done page")


def test_each_missing_reason_reaches_its_cell_after_browser_walks(api_server, chromium):
    driver = chromium
    # Participant 1, every format: contact "No" hides the email item, "I don't know" on the
    # stress scale, the ladder left empty.
    values = field_values(json.loads((FIXTURES / "every-format.answers.json").read_text()))
    values["contact-ok"] = "false"
    for name in ("stress", "ladder", "email"):
        values.pop(name)
    driver.get(f"{api_server.url}/surveys/every-format")
    answer_until_done(driver, values, buttons={"stress.dontKnow"})

    # Participant 2, fever triage: a fever, then "Save for later" on the temperature.
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get(f"{api_server.url}/surveys/fever-triage")
    press(driver, "next")
    fill_page(driver, {"fever": "true"})
    press(driver, "next")
    assert driver.find_elements(By.CSS_SELECTOR, "input[name='celsius']")
    press(driver, "save")

    # Participant 3: a fever of 39.5, then Back twice and "No fever": the temperature's branch is left.
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get(f"{api_server.url}/surveys/fever-triage")
    press(driver, "next")
    fill_page(driver, {"fever": "true"})
    press(driver, "next")
    fill_page(driver, {"celsius": "39.5"})
    press(driver, "next")
    press(driver, "back")
    press(driver, "back")
    fill_page(driver, {"fever": "false"})
    press(driver, "next")
    answer_until_done(driver, {})

    every = rows(export(api_server, "every-format", "csv", "&missing=codes"))
    assert len(every) == 1
    first = every[0]
    assert first["status"] == "completed"
    assert first["contact-ok"] == "0"
    assert first["about-you.email"] == "-91", "hidden by visibleIf: not shown"
    assert first["stress"] == "-93", "don't know"
    assert first["ladder"] == "-92", "left empty: skipped"
    assert first["handedness"] == "right"
    assert first["transport__walk"] == "1" and first["transport__other"] == "1"
    assert first["transport__other_text"] == "E-scooter"
    assert first["comments"] == "I work night shifts twice a week,\nso my sleep varies a lot."
    assert first["about-you.weight"] == "68.5" and first["about-you.height"] == "172"
    assert first["hometown"] == "Leipzig, Germany"
    assert first["last-checkup"] == "2024-05-14"

    fever = {row["status"]: row for row in rows(export(api_server, "fever-triage", "csv", "&missing=codes"))}
    assert set(fever) == {"saved", "completed"}
    saved, changed = fever["saved"], fever["completed"]
    assert saved["fever"] == "1"
    assert saved["temperature.celsius"] == "-94", "shown but not answered when saved: not reached"
    assert all(saved[name] == "-94" for name in saved if name.startswith("danger-signs__"))
    assert saved["other-symptoms"] == "-91", "no move from where the run stopped leads there"
    assert saved["ended"] == ""
    assert changed["fever"] == "0"
    assert changed["temperature.celsius"] == "-91", "the branch left by the change is not exported"
    assert changed["other-symptoms"] == "-92"
    assert changed["survey_version"] == saved["survey_version"] != ""

    plain = {row["status"]: row for row in rows(export(api_server, "fever-triage", "csv"))}
    assert plain["saved"]["temperature.celsius"] == "", "without codes a missing cell is empty"
    long_text = export(api_server, "fever-triage", "long")
    assert "39.5" not in long_text
    reasons = {(row["step"], row["item"], row["missing"]) for row in rows(long_text)}
    assert ("temperature", "celsius", "not_reached") in reasons
    assert ("temperature", "celsius", "not_shown") in reasons
    assert ("other-symptoms", "other-symptoms", "skipped") in reasons
