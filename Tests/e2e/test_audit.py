"""The audit log seen by staff, end to end on the built server: a participant answers in
Chromium, goes Back and changes the answer; a member of staff opens /staff/history, types the
run and the API token (a wrong one first) and reads the history with the answer before and
after. The form, the form with its error and the history page pass axe and the Nu checker,
and the history table scrolls on its own at 320 px rather than the page."""
from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from checkers import assert_valid_pages, axe_findings, format_findings
from fhir_walks import TOKEN, api
from support import EXAMPLES_DIR, Http
from survey_pages import press, type_into


def answer_change_and_find_the_run(driver, server) -> str:
    before = {run["id"] for run in api(server, "/api/v1/runs?survey=wellbeing-check")[1]["runs"]}
    driver.get(f"{server.url}/surveys/wellbeing-check")
    press(driver, "next")
    driver.find_element(By.CSS_SELECTOR, "input[name='mood'][value='4']").click()
    press(driver, "next")
    press(driver, "back")
    driver.find_element(By.CSS_SELECTOR, "input[name='mood'][value='2']").click()
    press(driver, "next")
    made = {run["id"] for run in api(server, "/api/v1/runs?survey=wellbeing-check")[1]["runs"]} - before
    assert len(made) == 1
    return made.pop()


def test_staff_read_a_run_s_history_with_the_changed_answer(start_server, chromium_js, artifacts):
    server = start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN))
    driver = chromium_js
    run = answer_change_and_find_the_run(driver, server)
    driver.get(f"{server.url}/staff/history")
    findings = axe_findings(driver, "history form")
    type_into(driver.find_element(By.ID, "run"), run)
    type_into(driver.find_element(By.ID, "token"), "not-the-token-0123456789")
    driver.find_element(By.CSS_SELECTOR, "form[action='/staff/history'] button[type='submit']").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "token:error"))
    assert "not one of the API's tokens" in driver.find_element(By.ID, "token:error").text
    assert driver.find_element(By.ID, "run").get_attribute("value") == run
    findings += axe_findings(driver, "history form with an error")
    type_into(driver.find_element(By.ID, "token"), TOKEN)
    driver.find_element(By.CSS_SELECTOR, "form[action='/staff/history'] button[type='submit']").click()
    WebDriverWait(driver, 10).until(lambda d: d.title.startswith("History of run"))
    assert driver.title == f"History of run {run}"
    rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, "tbody tr")]
    changed = [row for row in rows if "answer.changed" in row]
    assert len(changed) == 1 and "mood = 4" in changed[0] and "mood = 2" in changed[0], rows
    assert any("step.back" in row for row in rows) and any("run.created" in row for row in rows)
    findings += axe_findings(driver, "history page")
    driver.set_window_size(320, 800)
    page_width = driver.execute_script("return document.documentElement.scrollWidth")
    assert page_width <= 320, f"the page scrolls sideways at 320 px ({page_width})"
    assert not findings, format_findings(findings)


def test_the_staff_pages_are_valid_html(start_server, tmp_path, artifacts):
    server = start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN))
    participant = Http(server.url)
    status, body, url = participant.get("/surveys/wellbeing-check")
    status, body, url = participant.post_form(body, url, {})
    status, body, url = participant.post_form(body, url, {"mood": "4"})
    run = api(server, "/api/v1/runs?survey=wellbeing-check")[1]["runs"][0]["id"]
    staff = Http(server.url)
    _, form, url = staff.get("/staff/history")
    status, wrong, url = staff.post_form(form, url, {"run": run, "token": "wrong-token-0123456789"}, action=None)
    assert status == 422
    status, history, _ = staff.post_form(wrong, url, {"run": run, "token": TOKEN}, action=None)
    assert status == 200 and b"answer.saved" in history
    assert_valid_pages([form, wrong, history], tmp_path, artifacts, "staff-history")
