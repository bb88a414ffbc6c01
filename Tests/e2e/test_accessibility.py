"""(c) axe-core (WCAG 2.0/2.1/2.2 A and AA, and best practices) finds no violation, of any
impact, on any page a participant meets: every step page of every example, the page
re-rendered with errors after a required question is submitted empty, the cancel, saved,
discarded and done pages, the survey list and the not-found page; and the same pages in
German, French and Arabic (the surveys of languages.py)."""
import json
import time

import pytest

from checkers import axe_findings, format_findings
from support.expectations import examples, load_answers
from languages import LANGUAGE_SURVEYS, OTHER_LANGUAGES, answers_in
from support import Repeats
from survey_pages import (MAX_PAGES, answer_and_go_on, error_summary_text, field_values,
                          has_answer_controls, press, run_has_ended, start_run, step_form, walk)


def report(findings, artifacts, name):
    (artifacts / f"axe-{name}.json").write_text(json.dumps(findings, indent=1))
    if findings:
        pytest.fail(f"axe found {len(findings)} violation(s):\n" + format_findings(findings), pytrace=False)


@pytest.mark.parametrize("survey_id", examples())
def test_axe_every_step_page_and_the_done_page(chromium_js, base_url, survey_id, artifacts):
    findings = []
    pages = walk(chromium_js, base_url, survey_id, load_answers(survey_id),
                 on_page=lambda d: findings.extend(axe_findings(d, d.title)))
    assert len(pages) >= 2            # gad-7: its grid and one question
    findings += axe_findings(chromium_js, "done page")
    report(findings, artifacts, f"steps-{survey_id}")


@pytest.mark.parametrize("survey_id", examples())
def test_axe_pages_with_errors_after_an_empty_submit(chromium_js, base_url, survey_id, artifacts):
    """On every page with controls, first press Next without answering: a required question
    comes back with an error summary and messages (checked with axe), then it is answered."""
    driver = chromium_js
    values = field_values(load_answers(survey_id))
    repeats = Repeats(values)
    start_run(driver, base_url, survey_id)
    findings, error_pages = [], 0
    for _ in range(MAX_PAGES):
        if run_has_ended(driver, base_url, survey_id):
            break
        form = step_form(driver)
        assert form is not None, f"{driver.title}: no step form"
        if has_answer_controls(form) and error_summary_text(driver) is None:
            press(driver, "next")            # empty submit: an optional step simply moves on
            if error_summary_text(driver) is not None:
                error_pages += 1
                findings += axe_findings(driver, "error page: " + driver.title)
            continue
        answer_and_go_on(driver, values, repeats)
    else:
        raise AssertionError("no done page")
    assert error_pages >= 1, "no required question was found to submit empty"
    report(findings, artifacts, f"errors-{survey_id}")


def test_axe_cancel_saved_discarded_list_and_not_found_pages(chromium_js, base_url, artifacts):
    driver = chromium_js
    findings = []
    driver.get(f"{base_url}/")
    findings += axe_findings(driver, "survey list")
    driver.get(f"{base_url}/surveys/no-such-survey")
    findings += axe_findings(driver, "not found")

    driver.get(f"{base_url}/surveys/wellbeing-check")
    press(driver, "next")                                   # intro -> mood
    press(driver, "save")
    assert step_form(driver) is None, f"Save for later did not leave the step: {driver.title}"
    findings += axe_findings(driver, "saved page")

    driver.get(f"{base_url}/surveys/wellbeing-check")
    press(driver, "cancel")
    buttons = driver.find_elements("css selector", "button[name='_action'][value='discard']")
    assert buttons, f"the cancel page has no discard button: {driver.title}"
    findings += axe_findings(driver, "cancel page")
    press(driver, "discard")
    findings += axe_findings(driver, "discarded page")

    driver.get(f"{base_url}/resume")
    findings += axe_findings(driver, "resume form")
    field = driver.find_element("css selector", "input[name='code']")
    field.send_keys("not a code")
    driver.find_element("css selector", "form[action='/resume'] button[type='submit']").click()
    deadline = time.time() + 10
    while not driver.title.startswith("Error: ") and time.time() < deadline:
        time.sleep(0.05)
    assert driver.title.startswith("Error: "), driver.title
    findings += axe_findings(driver, "resume form with an error")
    report(findings, artifacts, "other-pages")


def page_language(driver) -> str:
    return driver.find_element("tag name", "html").get_attribute("lang")


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("survey_id", LANGUAGE_SURVEYS)
def test_axe_pages_in_german_french_and_arabic(chromium_js, language_server, survey_id, language, artifacts):
    """Every step page in the language, the page re-rendered with errors after an empty submit
    of each page with controls, and the done page."""
    driver = chromium_js
    values = answers_in(survey_id, language)
    driver.get(f"{language_server.url}/surveys/{survey_id}?lang={language}")
    findings, languages, step_pages, error_pages = [], set(), 0, 0
    for _ in range(MAX_PAGES):
        languages.add(page_language(driver))
        if driver.current_url.endswith("/done"):
            break
        form = step_form(driver)
        assert form is not None, f"{driver.title}: no step form"
        errors = error_summary_text(driver)
        if errors is None:
            step_pages += 1
            findings += axe_findings(driver, f"{language}: {driver.title}")
        else:
            error_pages += 1
            findings += axe_findings(driver, f"{language}: error page: {driver.title}")
        if has_answer_controls(form) and errors is None:
            press(driver, "next")            # empty submit: an optional step simply moves on
            continue
        answer_and_go_on(driver, values)
    else:
        raise AssertionError("no done page")
    findings += axe_findings(driver, f"{language}: done page")
    assert languages == {language}, f"pages in {languages}, not only {language}"
    assert step_pages >= 4 and error_pages >= 1, f"{step_pages} step pages, {error_pages} pages with errors"
    report(findings, artifacts, f"{language}-{survey_id}")


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_axe_not_found_cancel_saved_and_discarded_pages_in_german_french_and_arabic(
        chromium_js, language_server, language, artifacts):
    driver = chromium_js
    base = language_server.url
    findings, languages = [], set()

    def check(where):
        languages.add(page_language(driver))
        findings.extend(axe_findings(driver, f"{language}: {where}"))

    driver.get(f"{base}/surveys/no-such-survey?lang={language}")
    check("not found")
    driver.get(f"{base}/surveys/sleep-ar?lang={language}")
    press(driver, "next")                                   # intro -> the first question
    press(driver, "save")
    assert step_form(driver) is None, f"Save for later did not leave the step: {driver.title}"
    check("saved page")
    driver.get(f"{base}/surveys/sleep-ar?lang={language}")
    press(driver, "cancel")
    assert driver.find_elements("css selector", "button[name='_action'][value='discard']"), driver.title
    check("cancel page")
    press(driver, "discard")
    check("discarded page")
    assert languages == {language}, f"pages in {languages}, not only {language}"
    report(findings, artifacts, f"{language}-other-pages")


def test_axe_really_runs_and_reports(chromium_js):
    """Guard: the same checker on a page with known faults reports them."""
    chromium_js.get("data:text/html,<html><body><img src='x.png'><input type='text'>"
                    "<button></button><p style='color:%23ccc;background:%23fff'>faint</p></body></html>")
    rules = {f["rule"] for f in axe_findings(chromium_js, "known-bad page")}
    assert {"image-alt", "label", "button-name", "html-has-lang", "color-contrast"} <= rules, rules
