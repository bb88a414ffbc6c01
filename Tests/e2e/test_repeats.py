"""A repeating form, "add another" (docs/repeats-and-grids.md#repeating-forms): the step
`medications` of Examples/medication-list.json (minimum 1, maximum 20, "Medicine").

In Chromium without JavaScript: an instance's pages (its numbered caption, the name piped into
the next page's question), the list page, Change (the answers come back and the change is
kept), Remove with its confirmation and "No, keep it", removing the only instance, the list's
error without a choice (422), an error inside an instance named after it, Back from an instance
and from the list, Save for later and resume in another browser session, the review and the
result's `instances`. Firefox ESR and lynx add, remove and finish. A survey of the test's own
(a tmp folder served by another server) shows the bounds: a list that opens empty (minimum 0),
"Add at least 2" and no more offered at the maximum."""
from __future__ import annotations

import json
import re
import shutil

import pytest

from support import Http, start_path
from support.expectations import comparable
from support.tools import need, need_module

need_module("selenium")

from selenium.webdriver.common.by import By

from survey_pages import (choose, error_summary_text, fill_page, hidden_value, page_text_json, press, step_form,
                          wait_for_new_page)

SURVEY = "medication-list"
TITLE = "Your medicines"                       # the step's title, under each instance's caption
INTRO = "The medicines you take"               # the step before it


# --- pages, read in a Selenium browser --------------------------------------------------------

def heading(driver) -> str:
    return " ".join(driver.find_element(By.CSS_SELECTOR, "main h1").text.split())


def caption(driver) -> str | None:
    found = driver.find_elements(By.CSS_SELECTOR, "main h1 .caption")
    return found[0].text.strip() if found else None


def rows(driver) -> list[tuple[str, str]]:
    """The list page's rows: (numbered label, summary)."""
    return [(row.find_element(By.CSS_SELECTOR, "dt").text.strip(),
             row.find_element(By.CSS_SELECTOR, "dd.summary-list__value").text.strip())
            for row in driver.find_elements(By.CSS_SELECTOR, "main dl.instance-list .summary-list__row")]


def is_list_page(driver) -> bool:
    form = step_form(driver)
    return bool(form and form.find_elements(By.CSS_SELECTOR, "input[name=_another]"))


def value_of(driver, name: str) -> str:
    return step_form(driver).find_element(By.CSS_SELECTOR, f"input[name='{name}']").get_attribute("value")


def checked(driver, name: str) -> list[str]:
    return [r.get_attribute("value") for r in step_form(driver).find_elements(By.CSS_SELECTOR, f"input[name='{name}']")
            if r.is_selected()]


def assert_instance_page(driver, number: int, page: int = 0):
    """On instance `number` (from 1), page `page` of its form."""
    assert caption(driver) == f"Medicine {number}", f"{driver.title}: caption {caption(driver)!r}"
    assert heading(driver) == f"Medicine {number} {TITLE}", heading(driver)
    assert hidden_value(driver, "_instance") == str(number - 1)
    assert hidden_value(driver, "_page") == str(page)
    assert error_summary_text(driver) is None, error_summary_text(driver)


def start(driver, base_url):
    """A new run, past the intro: Medicine 1's first page (minimum 1 opens on it)."""
    driver.get(base_url + start_path(SURVEY))
    assert heading(driver) == INTRO
    press(driver, "next")
    assert_instance_page(driver, 1)
    assert not is_list_page(driver)


def add(driver, number: int, name: str, dose: str, unit: str = "mg", started: tuple | None = None):
    """From instance `number`'s first page to the list page, the instance answered."""
    assert_instance_page(driver, number)
    assert value_of(driver, "name") == "", "a new instance starts empty"
    fill_page(driver, {"name": name})
    press(driver, "next")
    assert_instance_page(driver, number, page=1)
    label = driver.find_element(By.CSS_SELECTOR, "main label[for='dose']").text.strip()
    assert label == f"How much of {name} do you take each time?", label
    values = {"dose": dose, "unit": unit}
    if started:
        values.update(zip(("started.day", "started.month", "started.year"), started))
    fill_page(driver, values)
    press(driver, "next")
    assert error_summary_text(driver) is None, error_summary_text(driver)
    assert is_list_page(driver), f"no list page after {name}: {driver.title}"


def another(driver, answer: str):
    choose(driver, "_another", answer)
    press(driver, "next")


def finish_from_list(driver, base_url) -> dict:
    """No on the list, then through the review to the done page; the run's result."""
    another(driver, "no")
    assert heading(driver) == "Check your answers", heading(driver)
    press(driver, "next")
    assert driver.current_url == f"{base_url}/surveys/{SURVEY}/done", driver.current_url
    driver.get(f"{base_url}/surveys/{SURVEY}/result.json")
    return page_text_json(driver)


def medication_step(result: dict) -> dict:
    steps = [step for step in result["results"] if step["identifier"] == "medications"]
    assert len(steps) == 1, [step["identifier"] for step in result["results"]]
    return steps[0]


def instance_answers(result: dict) -> list[dict]:
    """{item: answer} of each instance, in order; checks the numbering from 1."""
    step = medication_step(result)
    assert step["results"] == [], "a repeating form's own results are empty"
    assert [instance["index"] for instance in step["instances"]] == list(range(1, len(step["instances"]) + 1))
    answers = []
    for instance in step["instances"]:
        answers.append({q["identifier"]: next((v for k, v in q.items() if k.endswith("Answer") or k == "choiceAnswers"), None)
                        for q in instance["results"]})
    return answers


# --- Chromium ---------------------------------------------------------------------------------

def test_add_two_change_the_first_and_the_result(chromium, base_url):
    """Two instances; Change on the first brings back every answer it held, the changes are
    kept; the review has a section per instance; result.json holds the instances in order."""
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75", "mg", ("1", "3", "2020"))
    assert rows(driver) == [("Medicine 1", "Aspirin")]
    change = driver.find_element(By.CSS_SELECTOR, "main button[name=_action][value='repeat-change-0']")
    remove = driver.find_element(By.CSS_SELECTOR, "main button[name=_action][value='repeat-remove-0']")
    assert (change.accessible_name, remove.accessible_name) == ("Change Medicine 1", "Remove Medicine 1")
    assert "link-button" in change.get_attribute("class").split()
    assert [r.get_attribute("value") for r in step_form(driver).find_elements(By.CSS_SELECTOR, "input[name=_another]")] == ["yes", "no"]
    another(driver, "yes")
    add(driver, 2, "Ibuprofen", "200", "mg")
    assert rows(driver) == [("Medicine 1", "Aspirin"), ("Medicine 2", "Ibuprofen")]

    press(driver, "repeat-change-0")
    assert_instance_page(driver, 1)
    assert value_of(driver, "name") == "Aspirin"
    fill_page(driver, {"name": "Aspirin dispersible"})
    press(driver, "next")
    assert_instance_page(driver, 1, page=1)
    assert driver.find_element(By.CSS_SELECTOR, "main label[for='dose']").text.strip() == \
        "How much of Aspirin dispersible do you take each time?"
    assert (value_of(driver, "dose"), checked(driver, "unit")) == ("75", ["mg"])
    assert [value_of(driver, f"started.{part}") for part in ("day", "month", "year")] == ["1", "3", "2020"]
    fill_page(driver, {"dose": "150"})
    press(driver, "next")
    assert is_list_page(driver), f"saving a changed instance did not return to the list: {driver.title}"
    assert rows(driver) == [("Medicine 1", "Aspirin dispersible"), ("Medicine 2", "Ibuprofen")]

    another(driver, "no")
    assert heading(driver) == "Check your answers", f"No with 2 instances did not leave the step: {heading(driver)}"
    sections = [" ".join(h.text.split()) for h in driver.find_elements(By.CSS_SELECTOR, "main h2")]
    assert [s for s in sections if s.startswith(TITLE)] == [f"{TITLE} – Medicine 1", f"{TITLE} – Medicine 2"], sections
    assert "Five medicines or more" not in driver.page_source
    press(driver, "next")
    driver.get(f"{base_url}/surveys/{SURVEY}/result.json")
    result = page_text_json(driver)
    assert result["finishReason"] == "completed"
    assert [step["identifier"] for step in result["results"]] == ["intro", "medications", "review", "done"], \
        "the skip rule passes over 'many' with 2 instances"
    assert comparable(medication_step(result)) == {"identifier": "medications", "results": [], "instances": [
        {"index": 1, "results": [
            {"type": "text", "identifier": "name", "textAnswer": "Aspirin dispersible"},
            {"type": "numeric", "identifier": "dose", "numericAnswer": 150},
            {"type": "choice", "identifier": "unit", "choiceAnswers": ["mg"]},
            {"type": "date", "identifier": "started", "timeZone": "Etc/UTC", "dateAnswer": "2020-03-01"}]},
        {"index": 2, "results": [
            {"type": "text", "identifier": "name", "textAnswer": "Ibuprofen"},
            {"type": "numeric", "identifier": "dose", "numericAnswer": 200},
            {"type": "choice", "identifier": "unit", "choiceAnswers": ["mg"]},
            {"type": "date", "identifier": "started", "timeZone": "Etc/UTC"}]}]}
    assert {"startDate", "endDate"} <= set(medication_step(result)), "the step result has its dates"


def test_remove_asks_first_and_no_keeps_it(chromium, base_url):
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    another(driver, "yes")
    add(driver, 2, "Ibuprofen", "200")
    another(driver, "yes")
    add(driver, 3, "Omeprazole", "20")

    press(driver, "repeat-remove-1")
    assert heading(driver) == "Are you sure you want to remove Medicine 2?", heading(driver)
    assert "Ibuprofen" in driver.find_element(By.TAG_NAME, "main").text
    buttons = {b.get_attribute("value"): b.text.strip()
               for b in step_form(driver).find_elements(By.CSS_SELECTOR, "button[name=_action]")}
    assert buttons == {"repeat-removeYes-1": "Yes, remove it", "repeat-removeNo-1": "No, keep it"}, buttons
    press(driver, "repeat-removeNo-1")
    assert rows(driver) == [("Medicine 1", "Aspirin"), ("Medicine 2", "Ibuprofen"), ("Medicine 3", "Omeprazole")]

    press(driver, "repeat-remove-0")
    assert heading(driver) == "Are you sure you want to remove Medicine 1?", heading(driver)
    press(driver, "repeat-removeYes-0")
    assert is_list_page(driver), driver.title
    assert rows(driver) == [("Medicine 1", "Ibuprofen"), ("Medicine 2", "Omeprazole")], "the others move up a number"
    result = finish_from_list(driver, base_url)
    assert [a["name"] for a in instance_answers(result)] == ["Ibuprofen", "Omeprazole"]


def test_removing_the_only_instance_opens_a_new_one(chromium, base_url):
    """minimum 1: with the last instance removed the list would be too short, so the step
    opens a new, empty Medicine 1 at once."""
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    press(driver, "repeat-remove-0")
    press(driver, "repeat-removeYes-0")
    assert not is_list_page(driver), "an empty list page with minimum 1"
    add(driver, 1, "Paracetamol", "1", "tablets")
    assert rows(driver) == [("Medicine 1", "Paracetamol")]
    result = finish_from_list(driver, base_url)
    assert instance_answers(result) == [{"name": "Paracetamol", "dose": 1, "unit": ["tablets"], "started": None}]


def test_the_list_without_a_choice_asks_for_one(chromium, base_url):
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    press(driver, "next")
    assert is_list_page(driver), driver.title
    assert error_summary_text(driver) and "Select yes if you need to add another" in error_summary_text(driver)
    group = driver.find_element(By.XPATH, "//main//fieldset[.//input[@name='_another']]")
    message = group.find_element(By.CSS_SELECTOR, ".error-message")
    assert "Select yes if you need to add another" in message.text
    assert rows(driver) == [("Medicine 1", "Aspirin")], "the list is still there"
    another(driver, "yes")
    assert_instance_page(driver, 2)


def text_of(body: bytes) -> str:
    """The words of a page's <main>, tags taken out."""
    main = body.decode("utf-8").split("<main", 1)[-1].split(">", 1)[-1].split("</main>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def test_the_list_without_a_choice_is_a_422(base_url):
    client = Http(base_url)
    status, body, url = client.get(start_path(SURVEY))
    status, body, url = client.post_form(body, url, {})
    status, body, url = client.post_form(body, url, {"name": "Aspirin"})
    status, body, url = client.post_form(body, url, {"dose": "75", "unit": "mg"})
    assert status == 200 and b'name="_another"' in body
    status, body, url = client.post_form(body, url, {})
    assert status == 422, status
    assert b"Select yes if you need to add another" in body


def test_five_instances_reach_the_step_the_skip_rule_keeps_for_them(base_url):
    """'many' is skipped while there are at most 4 instances; with 5 it shows, piping the count."""
    client = Http(base_url)
    status, body, url = client.get(start_path(SURVEY))
    status, body, url = client.post_form(body, url, {})
    names = ["Metformin", "Ramipril", "Levothyroxine", "Lactulose", "Paracetamol"]
    for number, name in enumerate(names, start=1):
        if number > 1:
            status, body, url = client.post_form(body, url, {"_another": "yes"})
        status, body, url = client.post_form(body, url, {"name": name})
        status, body, url = client.post_form(body, url, {"dose": "1", "unit": "mg"})
        assert status == 200 and f"Medicine {number} {name}" in text_of(body), text_of(body)
    status, body, url = client.post_form(body, url, {"_another": "no"})
    assert "Five medicines or more" in text_of(body) and "You take 5 medicines." in text_of(body), text_of(body)
    status, body, url = client.post_form(body, url, {})
    assert text_of(body).startswith("Check your answers"), text_of(body)
    assert re.findall(r"Your medicines – Medicine (\d+)", text_of(body).replace("Change Your medicines", "")) == \
        ["1", "2", "3", "4", "5"], text_of(body)


def test_an_error_inside_an_instance_is_named_after_it(chromium, base_url):
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    another(driver, "yes")
    fill_page(driver, {"name": "Ibuprofen"})
    press(driver, "next")
    fill_page(driver, {"dose": "a few", "unit": "mg"})
    press(driver, "next")
    summary = error_summary_text(driver) or ""
    assert "Medicine 2: Enter a number" in summary, summary
    inline = driver.find_element(By.CSS_SELECTOR, "main #dose\\:group .error-message").text
    assert "Medicine 2: Enter a number" in inline, inline
    assert caption(driver) == "Medicine 2" and value_of(driver, "dose") == "a few"
    fill_page(driver, {"dose": "200"})
    press(driver, "next")
    assert rows(driver) == [("Medicine 1", "Aspirin"), ("Medicine 2", "Ibuprofen")]


def test_back_from_an_instance_goes_to_the_list_and_from_the_list_leaves_the_step(chromium, base_url):
    driver = chromium
    start(driver, base_url)
    press(driver, "back")                                   # Medicine 1 with no list yet: leaves
    assert heading(driver) == INTRO, heading(driver)
    press(driver, "next")
    add(driver, 1, "Aspirin", "75")
    another(driver, "yes")
    fill_page(driver, {"name": "Ibuprofen"})
    press(driver, "next")
    assert_instance_page(driver, 2, page=1)
    press(driver, "back")                                   # Back walks the instance's pages
    assert_instance_page(driver, 2, page=0)
    assert value_of(driver, "name") == "Ibuprofen"
    press(driver, "back")                                   # its first page: to the list
    assert is_list_page(driver), driver.title
    assert rows(driver) == [("Medicine 1", "Aspirin")], "the unsaved instance was dropped"
    press(driver, "back")                                   # the list: out of the step
    assert heading(driver) == INTRO, heading(driver)
    press(driver, "next")                                   # forward again: the list, kept
    assert is_list_page(driver), driver.title
    assert rows(driver) == [("Medicine 1", "Aspirin")]
    another(driver, "yes")
    assert_instance_page(driver, 2)
    assert value_of(driver, "name") == "", "the dropped instance's answers came back"


def test_save_for_later_and_resume_keeps_the_instances_and_the_place(chromium, base_url):
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    another(driver, "yes")
    add(driver, 2, "Ibuprofen", "200")
    another(driver, "yes")
    fill_page(driver, {"name": "Omeprazole"})
    press(driver, "next")
    assert_instance_page(driver, 3, page=1)
    press(driver, "save")
    assert driver.current_url.endswith(f"/surveys/{SURVEY}/saved"), driver.current_url
    link = driver.find_element(By.CSS_SELECTOR, "main .resume-link a").get_attribute("href")
    code = driver.find_element(By.CSS_SELECTOR, "main .resume-code").text.strip()
    assert re.fullmatch(r"[A-Z0-9]{4} [A-Z0-9]{4}", code), code

    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})   # another browser session
    driver.get(link)
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_for_new_page(driver, old)
    assert_instance_page(driver, 3, page=1)
    assert driver.find_element(By.CSS_SELECTOR, "main label[for='dose']").text.strip() == \
        "How much of Omeprazole do you take each time?"
    fill_page(driver, {"dose": "20", "unit": "mg"})
    press(driver, "next")
    assert rows(driver) == [("Medicine 1", "Aspirin"), ("Medicine 2", "Ibuprofen"), ("Medicine 3", "Omeprazole")]
    result = finish_from_list(driver, base_url)
    assert [(a["name"], a["dose"]) for a in instance_answers(result)] == [
        ("Aspirin", 75), ("Ibuprofen", 200), ("Omeprazole", 20)]


def test_resume_by_code_on_the_list_page(chromium, base_url):
    driver = chromium
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    press(driver, "save")
    code = driver.find_element(By.CSS_SELECTOR, "main .resume-code").text.strip()
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get(f"{base_url}/resume")
    driver.find_element(By.CSS_SELECTOR, "input[name='code']").send_keys(code.lower().replace(" ", "-"))
    old = driver.find_element(By.TAG_NAME, "html")
    driver.find_element(By.CSS_SELECTOR, "form[action='/resume'] button[type='submit']").click()
    wait_for_new_page(driver, old)
    assert is_list_page(driver), f"resumed on {driver.title!r}, not the list it was saved on"
    assert rows(driver) == [("Medicine 1", "Aspirin")]


# --- Firefox ----------------------------------------------------------------------------------

def test_firefox_adds_removes_and_finishes(firefox, base_url):
    driver = firefox
    start(driver, base_url)
    add(driver, 1, "Aspirin", "75")
    another(driver, "yes")
    add(driver, 2, "Salbutamol", "2", "puffs")
    press(driver, "repeat-remove-0")
    assert heading(driver) == "Are you sure you want to remove Medicine 1?"
    press(driver, "repeat-removeYes-0")
    assert rows(driver) == [("Medicine 1", "Salbutamol")]
    result = finish_from_list(driver, base_url)
    assert instance_answers(result) == [{"name": "Salbutamol", "dose": 2, "unit": ["puffs"], "started": None}]


# --- lynx ---------------------------------------------------------------------------------------

def test_lynx_adds_two_removes_one_and_finishes(base_url, tmp_path):
    """Keys typed into lynx (no CSS: the list's Change and Remove are plain buttons, and it
    selects the first radio of a group by itself, so Yes is chosen on the list page until No
    is picked). Each page is printed to a file and checked before the result is read."""
    need(shutil.which("lynx"), "lynx (Debian package lynx)")
    from test_text_browser import lynx_print, run_lynx
    down = lambda n: ("<Down>",) * n                           # noqa: E731
    pages = [tmp_path / f"page-{n}.txt" for n in range(8)]
    result_file = tmp_path / "result.json"
    # an instance's second page: [skip] [Back] [dose] (5 unit radios, mg selected by lynx)
    # [day] [month] [year] [Next]
    dose_page = lambda dose: (*down(2), dose, *down(9), "<Enter>")   # noqa: E731
    keys = (
        *lynx_print(pages[0]), *down(1), "<Enter>",              # intro: [skip] [Get Started]
        *lynx_print(pages[1]), *down(2), "Aspirin", *down(1), "<Enter>",   # [skip] [Back] [name] [Next]
        *dose_page("75"),
        # the list: [skip] [Back] [Next, hidden by CSS] [Change] [Remove] (*) Yes ( ) No [Next]
        *lynx_print(pages[2]), *down(7), "<Enter>",
        *down(2), "Salbutamol", *down(1), "<Enter>",
        *dose_page("2"),
        *lynx_print(pages[3]), *down(4), "<Enter>",              # Remove Medicine 1
        *lynx_print(pages[4]), *down(2), "<Enter>",              # [skip] [Back] [Yes, remove it]
        *lynx_print(pages[5]), *down(6), "<Enter>", *down(1), "<Enter>",   # No, then Next
        *lynx_print(pages[6]), *down(4), "<Enter>",              # review: [skip] [Back] [Change] [Change] [Next]
        *lynx_print(pages[7]),
        "<g>", "<C-u>", f"{base_url}/surveys/{SURVEY}/result.json", "<Enter>",
        "<d>", "<Down>", "<Enter>", "<C-u>", str(result_file), "<Enter>",
        "<Q>",
    )
    run = run_lynx(keys, f"{base_url}{start_path(SURVEY)}", tmp_path)
    seen = "\n".join(f"--- {p.name}:\n{p.read_text(errors='replace')[:700]}" for p in pages if p.exists())
    expected = [
        [INTRO],
        ["Medicine 1 Your medicines", "Name of the medicine"],
        ["Medicine 1", "Aspirin", "Do you need to add another?"],
        ["Medicine 2", "Salbutamol"],
        ["Are you sure you want to remove Medicine 1?", "Yes, remove it", "No, keep it"],
        ["Medicine 1", "Salbutamol"],
        ["Check your answers", "Your medicines – Medicine 1"],
        ["Thank you", "Your list of medicines has been sent."],
    ]
    for page, texts in zip(pages, expected):
        text = " ".join(page.read_text(errors="replace").split()) if page.exists() else ""
        missing = [t for t in texts if t not in text]
        if missing:
            pytest.fail(f"lynx's page {page.name} lacks {missing} (exit {run.returncode}, "
                        f"{run.stderr.decode(errors='replace')[-300:]!r}); pages it saved:\n{seen}", pytrace=False)
    assert "Aspirin" not in " ".join(pages[5].read_text().split()), f"Medicine 1 was not removed:\n{seen}"
    assert "Medicine 2" not in pages[6].read_text(), seen
    result = json.loads(result_file.read_text())
    assert result["finishReason"] == "completed"
    assert instance_answers(result) == [{"name": "Salbutamol", "dose": 2, "unit": ["mg"], "started": None}]


# --- the bounds, on surveys of the test's own ------------------------------------------------------

def one_question_list(identifier, title, step, step_title, label, minimum, maximum, item, text):
    """A survey of one repeating form of one required text question, then a completion step."""
    return {
        "identifier": identifier, "title": title,
        "steps": [
            {"identifier": step, "type": "form", "title": step_title,
             "repeat": {"label": label, "minimum": minimum, "maximum": maximum},
             "items": [{"identifier": item, "text": text, "optional": False,
                        "answerFormat": {"type": "text", "maximumLength": 50}}]},
            {"identifier": "done", "type": "completion", "title": "Thank you"}]}


BOUNDS = {
    "repeat-bounds": one_question_list("repeat-bounds", "People at home", "people", "People who live with you",
                                       "Person", 2, 3, "first-name", "First name"),
    "repeat-empty": one_question_list("repeat-empty", "Pets", "pets", "Your pets", "Pet", 0, 5, "kind", "What kind of animal?"),
}


@pytest.fixture(scope="module")
def bounds_server(start_server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("repeat-surveys")
    for name, survey in BOUNDS.items():
        (folder / f"{name}.json").write_text(json.dumps(survey), encoding="utf-8")
    return start_server(folder)




def instances_of(client: Http, survey: str) -> list:
    status, body, _ = client.get(f"/surveys/{survey}/result.json")
    assert status == 200, status
    result = json.loads(body)
    assert result["finishReason"] == "completed"
    return [[q.get("textAnswer") for q in instance["results"]] for instance in result["results"][0]["instances"]]


def test_minimum_0_opens_on_an_empty_list_and_no_leaves_with_no_instances(bounds_server):
    client = Http(bounds_server.url)
    status, body, url = client.get("/surveys/repeat-empty")
    assert status == 200 and b'name="_another"' in body and b'name="_instance"' not in body
    assert "Do you need to add one?" in text_of(body), text_of(body)
    status, body, url = client.post_form(body, url, {"_another": "no"})
    assert url.endswith("/surveys/repeat-empty/done"), (status, url)
    assert instances_of(client, "repeat-empty") == []


def test_fewer_than_the_minimum_is_refused_and_the_maximum_offers_no_more(bounds_server):
    client = Http(bounds_server.url)
    status, body, url = client.get("/surveys/repeat-bounds")
    assert b'name="_instance" value="0"' in body
    for number, name in enumerate(["Ann", "Bob", "Cy"], start=1):
        status, body, url = client.post_form(body, url, {"first-name": name})
        assert status == 200 and b'name="_action" value="repeat-remove-' in body, text_of(body)
        if number == 1:
            status, body, url = client.post_form(body, url, {"_another": "no"})
            assert status == 422 and "Add at least 2 before you continue" in text_of(body), (status, text_of(body))
        if number < 3:
            assert b'name="_another"' in body
            status, body, url = client.post_form(body, url, {"_another": "yes"})
            assert f'name="_instance" value="{number}"'.encode() in body, text_of(body)
    assert b'name="_another"' not in body, "the list at its maximum still asks to add another"
    assert "You cannot add more than 3" in text_of(body), text_of(body)
    status, body, url = client.post_form(body, url, {"_another": "yes"})      # a forged Yes
    assert url.endswith("/surveys/repeat-bounds/done"), (status, url, text_of(body))
    assert instances_of(client, "repeat-bounds") == [["Ann"], ["Bob"], ["Cy"]]
