"""A question grid (docs/repeats-and-grids.md#grids), GAD-7's step `gad7` in Chromium at 320,
768 and 1280 px wide: at 320 the rows stack as ordinary questions with no sideways scrolling
and no header row; from 641 px the header row shows each choice once, above the column of
radios it names, and the choices' own labels are hidden visually. At every width each row is a
group named by its question, each radio is named by its choice (read from Chromium's
accessibility tree), and the header row is not in that tree. A row left empty comes back with
its error inside its own fieldset. axe-core finds no violation at each width on the grid and
on the pages of a repeating form (medication-list: an instance's page, the list page, the list
with its error, the removal page), with and without errors, and the Nu checker finds no error
in the bytes the server sends for them."""
from __future__ import annotations

import json

import pytest

from checkers import axe_findings, format_findings, vnu
from support import EXAMPLES_DIR, Http, start_path
from support.tools import need_module

need_module("selenium")

from selenium.webdriver.common.by import By

from survey_pages import error_summary_text, fill_page, press

WIDTHS = (320, 768, 1280)
NARROW = 320
GAD7 = json.loads((EXAMPLES_DIR / "gad-7.json").read_text(encoding="utf-8"))
GRID = next(step for step in GAD7["steps"] if step["identifier"] == "gad7")
ROWS = [(item["identifier"], item["text"]) for item in GRID["items"]]
CHOICES = [(str(choice["value"]), choice["text"]) for choice in GRID["items"][0]["answerFormat"]["choices"]]
ANSWERS = {"nervous": "1", "control": "2", "worrying": "1", "relaxing": "0", "restless": "0", "irritable": "3",
           "afraid": "1"}
LEFT_EMPTY = "irritable"


def set_width(driver, width: int):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    assert driver.execute_script("return window.innerWidth") == width


def open_grid(driver, base_url: str, width: int):
    set_width(driver, width)
    driver.get(base_url + start_path("gad-7"))
    assert driver.find_elements(By.CSS_SELECTOR, "main form .grid"), f"no grid on {driver.title!r}"


def row_fieldset(driver, identifier: str):
    """The fieldset of the row whose radios are named `identifier`."""
    return driver.find_element(By.XPATH, f"//main//fieldset[.//input[@type='radio' and @name='{identifier}']]")


def scrolls_sideways(driver) -> bool:
    return driver.execute_script(
        "return document.documentElement.scrollWidth > document.documentElement.clientWidth")


def rect(driver, element) -> dict:
    return driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                 "return {left: r.left, right: r.right, top: r.top, width: r.width, height: r.height};",
                                 element)


def exposed(driver, selector: str, names) -> list[str]:
    """Those of `names` that Chromium's accessibility tree exposes (not ignored) inside the
    first element matching `selector` (CDP Accessibility.queryAXTree)."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"no {selector}"
    found = []
    for name in names:
        nodes = driver.execute_cdp_cmd("Accessibility.queryAXTree", {"nodeId": node, "accessibleName": name})["nodes"]
        if any(not n.get("ignored") for n in nodes):
            found.append(name)
    return found


# --- layout at each width ------------------------------------------------------------------------

@pytest.mark.parametrize("width", WIDTHS)
def test_grid_layout_at_each_width(chromium, base_url, width):
    open_grid(chromium, base_url, width)
    assert not scrolls_sideways(chromium), (
        f"the grid scrolls sideways at {width} px: scrollWidth "
        f"{chromium.execute_script('return document.documentElement.scrollWidth')}")
    head = chromium.find_element(By.CSS_SELECTOR, "main .grid__head")
    assert head.get_attribute("aria-hidden") == "true"
    columns = head.find_elements(By.CSS_SELECTOR, ".grid__column")
    assert [c.get_attribute("textContent").strip() for c in columns] == [text for _, text in CHOICES]
    if width == NARROW:
        assert not head.is_displayed(), "the header row shows at 320 px"
        for identifier, _ in ROWS:
            items = row_fieldset(chromium, identifier).find_elements(By.CSS_SELECTOR, ".radios__item")
            tops = [rect(chromium, item)["top"] for item in items]
            assert tops == sorted(tops) and len(set(tops)) == len(tops), (
                f"{identifier}: the choices are not listed one under another at 320 px: tops {tops}")
            for label in row_fieldset(chromium, identifier).find_elements(By.CSS_SELECTOR, "label"):
                assert label.is_displayed() and rect(chromium, label)["width"] > 20, (
                    f"{identifier}: the label {label.text!r} is not shown beside its radio at 320 px")
    else:
        assert head.is_displayed(), f"the header row is hidden at {width} px"
        spans = [rect(chromium, column) for column in columns]
        for identifier, _ in ROWS:
            radios = row_fieldset(chromium, identifier).find_elements(By.CSS_SELECTOR, "input[type=radio]")
            assert len(radios) == len(CHOICES)
            for radio, span, (value, text) in zip(radios, spans, CHOICES):
                assert radio.get_attribute("value") == value
                box = rect(chromium, radio)
                middle = box["left"] + box["width"] / 2
                assert span["left"] <= middle <= span["right"], (
                    f"{identifier}={value} at x {middle:.0f} is not under its header {text!r} "
                    f"({span['left']:.0f}-{span['right']:.0f}) at {width} px")
            tops = {round(rect(chromium, radio)["top"]) for radio in radios}
            assert len(tops) == 1, f"{identifier}: the radios are not on one line at {width} px: {tops}"
            for label in row_fieldset(chromium, identifier).find_elements(By.CSS_SELECTOR, "label"):
                assert rect(chromium, label)["width"] <= 1, (
                    f"{identifier}: the label {label.get_attribute('textContent')!r} shows at {width} px, "
                    "where the header row names the column")


@pytest.mark.parametrize("width", WIDTHS)
def test_each_radio_is_named_by_its_choice_and_each_row_by_its_question(chromium, base_url, width):
    open_grid(chromium, base_url, width)
    texts = [text for _, text in CHOICES]
    assert exposed(chromium, "main .grid__head", texts) == [], "the header row is in the accessibility tree"
    assert exposed(chromium, "main .grid .form-group", texts) == texts, "the query sees no label of the first row"
    for identifier, question in ROWS:
        fieldset = row_fieldset(chromium, identifier)
        assert (fieldset.aria_role, fieldset.accessible_name) == ("group", question), identifier
        radios = fieldset.find_elements(By.CSS_SELECTOR, "input[type=radio]")
        names = [(radio.aria_role, radio.accessible_name) for radio in radios]
        assert names == [("radio", text) for _, text in CHOICES], f"{identifier} at {width} px: {names}"


def test_the_name_check_sees_a_radio_without_a_label(chromium):
    """Guard: a radio whose only text is a header cell has no accessible name of its own."""
    chromium.get("data:text/html,<fieldset><legend>Q</legend><span>Never</span>"
                 "<input type=radio name=q value=0></fieldset>")
    radio = chromium.find_element(By.CSS_SELECTOR, "input")
    assert radio.accessible_name == ""
    assert chromium.find_element(By.CSS_SELECTOR, "fieldset").accessible_name == "Q"


# --- a row left empty ----------------------------------------------------------------------------

@pytest.mark.parametrize("width", [NARROW, 1280])
def test_a_row_left_empty_shows_its_error_inside_its_fieldset(chromium, base_url, width):
    open_grid(chromium, base_url, width)
    fill_page(chromium, {k: v for k, v in ANSWERS.items() if k != LEFT_EMPTY})
    press(chromium, "next")
    summary = error_summary_text(chromium)
    assert summary is not None, f"the grid moved on with {LEFT_EMPTY} empty: {chromium.title}"
    links = chromium.find_elements(By.CSS_SELECTOR, ".error-summary a")
    assert [link.get_attribute("href").rsplit("#", 1)[-1] for link in links] == [LEFT_EMPTY]
    empty = row_fieldset(chromium, LEFT_EMPTY)
    messages = empty.find_elements(By.CSS_SELECTOR, ".error-message")
    assert len(messages) == 1 and messages[0].is_displayed(), "no error inside the empty row's fieldset"
    assert messages[0].get_attribute("id") in (empty.get_attribute("aria-describedby") or "").split()
    assert len(chromium.find_elements(By.CSS_SELECTOR, "main .error-message")) == 1, "errors on answered rows"
    for identifier, value in ANSWERS.items():
        chosen = [r.get_attribute("value") for r in row_fieldset(chromium, identifier).find_elements(
            By.CSS_SELECTOR, "input[type=radio]") if r.is_selected()]
        assert chosen == ([] if identifier == LEFT_EMPTY else [value]), f"{identifier}: {chosen} after the error"
    assert not scrolls_sideways(chromium), f"the grid with an error scrolls sideways at {width} px"
    # and the row answered, the step moves on
    fill_page(chromium, {LEFT_EMPTY: ANSWERS[LEFT_EMPTY]})
    press(chromium, "next")
    assert error_summary_text(chromium) is None
    assert not chromium.find_elements(By.CSS_SELECTOR, "main .grid"), f"still on the grid: {chromium.title}"


# --- axe on the grid and the repeating form's pages ------------------------------------------

def axe_at_each_width(driver, where: str) -> list[dict]:
    findings = []
    for width in WIDTHS:
        set_width(driver, width)
        findings += axe_findings(driver, f"{where} at {width} px")
    return findings


def fail_on(findings):
    if findings:
        pytest.fail(f"axe found {len(findings)} violation(s):\n" + format_findings(findings), pytrace=False)


def test_axe_on_the_grid_with_and_without_errors(chromium_js, base_url):
    driver = chromium_js
    open_grid(driver, base_url, 1280)
    findings = axe_at_each_width(driver, "grid")
    fill_page(driver, {k: v for k, v in ANSWERS.items() if k not in (LEFT_EMPTY, "nervous")})
    press(driver, "next")
    assert len(driver.find_elements(By.CSS_SELECTOR, "main .error-message")) == 2, driver.title
    findings += axe_at_each_width(driver, "grid with two rows' errors")
    fail_on(findings)


def test_axe_on_the_pages_of_a_repeating_form(chromium_js, base_url):
    driver = chromium_js
    set_width(driver, 1280)
    driver.get(base_url + start_path("medication-list"))
    press(driver, "next")                                           # intro -> Medicine 1
    assert driver.find_elements(By.CSS_SELECTOR, "main input[type=hidden][name=_instance]"), driver.title
    findings = axe_at_each_width(driver, "instance page")
    fill_page(driver, {"name": "Aspirin"})
    press(driver, "next")
    fill_page(driver, {"dose": "lots", "unit": "mg"})
    press(driver, "next")
    assert "Medicine 1: " in (error_summary_text(driver) or ""), driver.title
    findings += axe_at_each_width(driver, "instance page with an error")
    fill_page(driver, {"dose": "75"})
    press(driver, "next")
    assert driver.find_elements(By.CSS_SELECTOR, "main input[name=_another]"), f"no list page: {driver.title}"
    findings += axe_at_each_width(driver, "list page")
    press(driver, "next")
    assert error_summary_text(driver), "the list page took no answer"
    findings += axe_at_each_width(driver, "list page with an error")
    press(driver, "repeat-remove-0")
    assert "Are you sure you want to remove Medicine 1?" in driver.find_element(By.CSS_SELECTOR, "main h1").text
    findings += axe_at_each_width(driver, "removal page")
    fail_on(findings)


# --- the Nu checker ------------------------------------------------------------------------------

def test_the_nu_checker_accepts_the_grid_and_the_repeating_form_pages(base_url, tmp_path, artifacts):
    pages = []                                          # (what, status, bytes)
    grid = Http(base_url)
    status, body, url = grid.get(start_path("gad-7"))
    pages.append(("grid", status, body))
    status, body, url = grid.post_form(body, url, {k: v for k, v in ANSWERS.items() if k != LEFT_EMPTY})
    pages.append(("grid with an error", status, body))

    meds = Http(base_url)
    status, body, url = meds.get(start_path("medication-list"))
    status, body, url = meds.post_form(body, url, {})
    pages.append(("instance page", status, body))
    status, body, url = meds.post_form(body, url, {"name": "Aspirin"})
    pages.append(("instance's second page", status, body))
    status, body, url = meds.post_form(body, url, {"dose": "lots", "unit": "mg"})
    pages.append(("instance page with an error", status, body))
    status, body, url = meds.post_form(body, url, {"dose": "75", "unit": "mg"})
    pages.append(("list page", status, body))
    status, body, url = meds.post_form(body, url, {})
    pages.append(("list page with an error", status, body))
    status, body, url = meds.post_form(body, url, {}, action="repeat-remove-0")
    pages.append(("removal page", status, body))

    assert [status for _, status, _ in pages] == [200, 422, 200, 200, 422, 200, 422, 200], [
        (what, status) for what, status, _ in pages]
    assert b'class="grid__head"' in pages[0][2] and b'name="_another"' in pages[5][2]
    assert b"repeat-removeYes-0" in pages[7][2]
    files = {}
    for index, (what, status, body) in enumerate(pages):
        path = tmp_path / f"page-{index:02d}.html"
        path.write_bytes(body)
        files[path.name] = what
    messages = vnu(sorted(tmp_path.glob("page-*.html")))
    (artifacts / "vnu-grids-and-repeats.json").write_text(json.dumps(messages, indent=1))
    errors = [m for m in messages if m["type"] in ("error", "non-document-error")]
    assert not errors, "\n".join(f"{files.get(m.get('url', '').rsplit('/', 1)[-1], '?')} line {m.get('lastLine')}: "
                                 f"{m.get('message')}" for m in errors)
