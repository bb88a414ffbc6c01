"""Walking a survey as a participant through a Selenium browser.

The scripted answers (Tests/Fixtures/{survey}.answers.json) map a step identifier to the form
fields of that step. The pages don't name their step, so a page is filled from every field of
the file that it has a control for (the fixtures never use one field name in two steps): the
order of shuffled choices and of a block's steps, drawn per run, does not matter, and an
allocation step shows no page. A run starts at the survey's link (support.links, with the
parameters it declares) and ends on its done page, or on the return page of a survey that sends
its participants back to a panel."""
from __future__ import annotations

import json
import urllib.parse

from support.tools import need_module

need_module("selenium")

from selenium.common.exceptions import (ElementNotInteractableException, StaleElementReferenceException,
                                        WebDriverException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from support import MAX_PAGES, Repeats, done_path, field_values, run_ended, sends_back, start_path

STEP_FORM = "main form[method=post]"      # the step's form; the Back form sits before <main>


# --- Selenium ------------------------------------------------------------------------------

def error_summary_text(driver) -> str | None:
    boxes = driver.find_elements(By.CSS_SELECTOR, ".error-summary")
    return boxes[0].text if boxes else None


def step_form(driver):
    forms = driver.find_elements(By.CSS_SELECTOR, STEP_FORM)
    return forms[0] if forms else None


def _click_choice(driver, element):
    """Click a radio/checkbox; if the input itself is visually hidden (custom styling),
    click its label, as a person would."""
    try:
        element.click()
    except ElementNotInteractableException:
        driver.find_element(By.CSS_SELECTOR, f"label[for='{element.get_attribute('id')}']").click()


def time_keystrokes(text: str) -> list[str]:
    """Ways to type HH:MM into a native time control: its segments advance by themselves, and
    whether it has an AM/PM segment depends on the browser's locale (Debian's chromium without
    chromium-l10n is always en-US, 12-hour), so try 24-hour digits, then 12-hour with A/P."""
    hours, minutes = (int(part) for part in text.split(":"))
    return [f"{hours:02d}{minutes:02d}", f"{(hours % 12) or 12:02d}{minutes:02d}{'AP'[hours >= 12]}"]


def type_into(box, text: str):
    """Clear a text control and type into it, as a person would."""
    box.clear()
    if (box.get_attribute("type") or "").lower() != "time":
        box.send_keys(text)
        return
    for keys in time_keystrokes(text):
        box.clear()
        box.send_keys(keys)
        if box.get_attribute("value") == text:
            return
    raise AssertionError(f"could not type {text} into the time control: it holds {box.get_attribute('value')!r}")


def fill_page(driver, values: dict) -> list[str]:
    """Fill every control of the step form that the scripted answers have a value for.
    Returns the field names filled."""
    form = step_form(driver)
    if form is None:
        return []
    filled = []
    names = []
    # A hidden field is the page's own (the consent review's Agree), never typed.
    for control in form.find_elements(By.CSS_SELECTOR, "input[name]:not([type=hidden]), select[name], textarea[name]"):
        name = control.get_attribute("name")
        if not name.startswith("_") and name in values and name not in names:
            names.append(name)
    for name in names:
        wanted = values[name]
        wanted_list = wanted if isinstance(wanted, list) else [wanted]
        controls = [c for c in form.find_elements(By.CSS_SELECTOR, "input, select, textarea")
                    if c.get_attribute("name") == name]
        kind = controls[0].tag_name.lower()
        input_type = (controls[0].get_attribute("type") or "text").lower()
        if kind == "input" and input_type in ("radio", "checkbox"):
            for control in controls:
                should_be_on = control.get_attribute("value") in wanted_list
                if control.is_selected() != should_be_on and (should_be_on or input_type == "checkbox"):
                    _click_choice(driver, control)
            chosen = sorted(c.get_attribute("value") for c in controls if c.is_selected())
            assert chosen == sorted(wanted_list), f"{name}: chose {chosen}, wanted {wanted_list}"
        elif kind == "select":
            Select(controls[0]).select_by_value(str(wanted))
        else:
            assert not isinstance(wanted, list), f"{name}: a list for a {kind}"
            type_into(controls[0], str(wanted))
        filled.append(name)
    return filled


def has_answer_controls(form) -> bool:
    """The step form has a control a participant answers (not only hidden fields and buttons)."""
    return any(not (c.get_attribute("name") or "_").startswith("_")
               for c in form.find_elements("css selector", "input:not([type=hidden]), select, textarea"))


def answer_and_go_on(driver, values: dict, repeats: Repeats | None = None):
    """Fills the page with `values`, presses Next and checks the page took them. A repeating
    form's pages are answered from its list entry: pass the walk's `repeats` (a new one is
    right for a survey with one repeating form)."""
    fill_repeat_page(driver, values, repeats if repeats is not None else Repeats(values))
    press(driver, "next")
    assert error_summary_text(driver) is None, f"{driver.title}: {error_summary_text(driver)}"


def press(driver, action: str):
    """Click the visible submit button name=_action value=action. The form's hidden default
    button (.default-action, for Enter) sits far off the start edge: on a right-to-left page
    that is to the right, where Selenium counts it as displayed, but nobody can click it."""
    buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, f"button[name='_action'][value='{action}']:not(.default-action)")
               if b.is_displayed()]
    assert buttons, f"no visible {action!r} button on {driver.current_url}"
    old_page = driver.find_element(By.TAG_NAME, "html")
    buttons[0].click()
    wait_for_new_page(driver, old_page)


def wait_for_new_page(driver, old_page, timeout=20):
    """Wait until the submitted form's response (a new document) has replaced old_page."""
    def replaced(_):
        try:
            old_page.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as error:     # chromedriver: "Node ... does not belong to the document"
            if "does not belong to the document" in str(error):
                return True
            raise
    WebDriverWait(driver, timeout).until(replaced)
    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return document.readyState") == "complete")


def start_run(driver, base_url: str, survey_id: str):
    """Open the survey's first page, by the link that starts a run of it."""
    driver.get(base_url + start_path(survey_id))


def run_has_ended(driver, base_url: str, survey_id: str) -> bool:
    """Whether the run has ended, the browser then on its done page. A survey that sends its
    participants back to a panel ends on the return page, whose refresh takes the browser at
    once to the panel's address, off this server; from there (or the return page) the browser
    opens the done page, which the finished run shows it."""
    url = driver.current_url
    if urllib.parse.urlsplit(url).netloc == urllib.parse.urlsplit(base_url).netloc:
        if not run_ended(url):
            return False
        if url.rstrip("/").endswith("/done"):
            return True
        # the return page: let its refresh leave first, so that it cannot follow the done page
        WebDriverWait(driver, 20).until(lambda d: d.current_url != url)
    elif not sends_back(survey_id):
        return False                      # somewhere else: the walk fails there, naming the page
    driver.get(base_url + done_path(survey_id))
    assert driver.current_url.rstrip("/").endswith("/done"), (
        f"the run went to {url}, but the done page sent the browser to {driver.current_url}: it has not finished")
    return True


def hidden_value(driver, name: str) -> str | None:
    """The value of the step form's hidden field `name`, or None when it has none."""
    form = step_form(driver)
    fields = form.find_elements(By.CSS_SELECTOR, f"input[type=hidden][name='{name}']") if form else []
    return fields[0].get_attribute("value") if fields else None


def list_rows(driver) -> int:
    """The instances a repeating form's list page holds: one Remove button each."""
    return len(driver.find_elements(By.CSS_SELECTOR, f"{STEP_FORM} button[name='_action'][value^='repeat-remove-']"))


def choose(driver, name: str, value: str):
    """Pick the radio `name` = `value` of the step form."""
    radios = [r for r in step_form(driver).find_elements(By.CSS_SELECTOR, f"input[type=radio][name='{name}']")
              if r.get_attribute("value") == value]
    assert radios, f"no radio {name}={value} on {driver.current_url}"
    _click_choice(driver, radios[0])
    assert radios[0].is_selected(), f"{name}={value} did not take"


def fill_repeat_page(driver, values: dict, repeats: Repeats):
    """Fill a page with the scripted answers: an instance's page of a repeating form from that
    instance's fields, its list page with yes while instances remain to add, else no."""
    instance = hidden_value(driver, "_instance")
    if instance is not None:
        names = {c.get_attribute("name") for c in step_form(driver).find_elements(By.CSS_SELECTOR, "input[name], select[name], textarea[name]")}
        fill_page(driver, {**values, **repeats.instance_fields(int(instance), names - {None})})
        return
    fill_page(driver, values)
    if step_form(driver).find_elements(By.CSS_SELECTOR, "input[type=radio][name='_another']"):
        choose(driver, "_another", repeats.another(list_rows(driver)))


def walk(driver, base_url: str, survey_id: str, answers: dict, on_page=None) -> list[str]:
    """Start a run of the survey in this browser and answer it with the scripted answers until
    the run ends, the browser then on the done page. on_page(driver) is called on every step
    page before it is filled. A repeating form's step is answered from its list entry, one
    instance after another (support.http.Repeats). Returns the titles of the pages seen."""
    values = field_values(answers)
    repeats = Repeats(values)
    start_run(driver, base_url, survey_id)
    seen = []
    for _ in range(MAX_PAGES):
        if run_has_ended(driver, base_url, survey_id):
            return seen
        seen.append(driver.title)
        errors = error_summary_text(driver)
        assert errors is None, f"the server rejected the scripted answers on {driver.title!r}:\n{errors}"
        if on_page:
            on_page(driver)
        if step_form(driver) is None:
            # a completion step has no form: it ends the run
            raise AssertionError(f"page {driver.title!r} at {driver.current_url} has no step form "
                                 "and is not the done page")
        fill_repeat_page(driver, values, repeats)
        press(driver, "next")
    raise AssertionError(f"no done page after {MAX_PAGES} pages: {seen}")


def page_text_json(driver) -> dict:
    """A JSON document as the browser shows it (Chromium wraps it in <pre>)."""
    pres = driver.find_elements(By.TAG_NAME, "pre")
    text = pres[0].text if pres else driver.find_element(By.TAG_NAME, "body").text
    return json.loads(text)
