"""A clinic's kiosk in a real browser, with JavaScript off: staff enter the PIN, three
participants answer one after another, each end page returns to the start screen by itself,
a fourth walks away and the idle pages end the turn; then Back ten times and the browser's
history show nothing any participant answered. axe and the Nu checker on every kiosk page."""
import json
import re
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from checkers import axe_findings, format_findings, vnu
from e2e_support import EXAMPLES_DIR
from survey_http import Http
from survey_pages import fill_page, press, step_form

PIN = "246810"
SURVEY = "wellbeing-check"


@pytest.fixture(scope="module")
def kiosk(start_server):
    """A server with kiosk mode on and its clocks shortened: idle 4 s, grace 3 s, return 2 s."""
    return start_server(EXAMPLES_DIR, extra=("--kiosk-pin", PIN, "--kiosk-idle", "4", "--kiosk-grace", "3",
                                             "--kiosk-return", "2"))


def set_up(driver, url):
    driver.get(url)
    box = driver.find_element(By.ID, "pin")
    box.send_keys(PIN)
    box.submit()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".button--start"))


def start(driver, language="en"):
    driver.find_element(By.CSS_SELECTOR, f".button--start[value='{language}']").click()
    WebDriverWait(driver, 10).until(lambda d: step_form(d) is not None)


def answers_of(number: int) -> dict:
    """What participant `number` types: a comment no other page could hold by chance."""
    return {"mood": str(number), "sleep.hours": str(4 + number), "sleep.minutes": "15",
            "activities": ["walk"], "comments": f"Participant {number} private note kiosk-secret-{number}"}


def answer_to_the_end(driver, values: dict):
    for _ in range(20):
        if "/done" in driver.current_url:
            return
        fill_page(driver, values)
        press(driver, "next")
    raise AssertionError("no done page")


def wait_for_start_screen(driver, timeout=15):
    WebDriverWait(driver, timeout).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".button--start"))


def test_three_participants_then_back_and_history_show_nothing(kiosk, chromium, artifacts):
    driver = chromium
    url = f"{kiosk.url}/kiosk/{SURVEY}"
    set_up(driver, url)
    for number in (1, 2, 3):
        start(driver)
        answer_to_the_end(driver, answers_of(number))
        assert "Thank you" in driver.page_source or "panel--confirmation" in driver.page_source
        wait_for_start_screen(driver)                      # the refresh after 2 s, no script
    driver.save_screenshot(str(artifacts / "kiosk-start-screen.png"))

    # A fourth participant answers one step and walks away: "Are you still there?" after 4 s
    # of nothing, then the start screen after 3 s more; the run is discarded.
    start(driver)
    fill_page(driver, {})
    press(driver, "next")
    fill_page(driver, answers_of(4))
    press(driver, "next")
    WebDriverWait(driver, 15).until(lambda d: "/idle" in d.current_url)
    assert "Are you still there?" in driver.page_source
    driver.save_screenshot(str(artifacts / "kiosk-idle.png"))
    wait_for_start_screen(driver)

    secrets = [f"kiosk-secret-{n}" for n in (1, 2, 3, 4)]
    seen = []
    for _ in range(10):
        driver.back()
        time.sleep(0.3)
        source = driver.page_source
        seen.append(driver.current_url)
        for secret in secrets:
            assert secret not in source, f"{secret} is shown again at {driver.current_url} after Back"
        for box in driver.find_elements(By.CSS_SELECTOR, "input, textarea"):
            value = box.get_attribute("value") or ""
            assert not any(secret in value for secret in secrets), f"a field holds {value!r} at {driver.current_url}"
        assert not driver.find_elements(By.CSS_SELECTOR, "input[checked], option[selected]:not([value=''])"), \
            f"a choice of an earlier participant is checked at {driver.current_url}"

    # The browser's history lists pages by address and title: neither holds an answer.
    driver.get("chrome://history")
    time.sleep(1)
    history = driver.execute_script(
        "const app = document.querySelector('history-app');"
        "return app && app.shadowRoot ? app.shadowRoot.textContent : document.body.textContent;") or ""
    (artifacts / "kiosk-history.txt").write_text(history + "\n" + "\n".join(seen))
    for secret in secrets:
        assert secret not in history
    assert not re.search(r"[?&](mood|comments|sleep)=", " ".join(seen))


def test_server_side_deadline_whatever_the_browser_shows(kiosk, tmp_path):
    """A browser that ignores the refresh (raw HTTP here) still gets the start screen once the
    turn is idle past idle + grace, and its answer is not stored."""
    client = Http(kiosk.url)
    status, body, url = client.get(f"/kiosk/{SURVEY}")
    status, body, url = client.post_form(body, url.replace(f"/kiosk/{SURVEY}", f"/kiosk/{SURVEY}/setup"), {"pin": PIN}, action=None)
    assert b"button--start" in body
    status, body, url = client.post_form(body, f"{kiosk.url}/kiosk/{SURVEY}/start", {"lang": "en"}, action=None)
    status, body, url = client.post_form(body, url, {})
    assert b'name="mood"' in body
    time.sleep(8.5)
    status, body, url = client.post_form(body, url, {"mood": "3"})
    assert status == 200 and b"button--start" in body


def kiosk_pages(base: str) -> list:
    """[(description, status, bytes)] of every kind of kiosk page, fetched as raw HTTP."""
    pages = []
    client = Http(base)
    status, body, url = client.get("/kiosk/fever-triage")
    pages.append(("PIN form", status, body))
    status, body, url = client.post_form(body, f"{base}/kiosk/fever-triage/setup", {"pin": "000000"}, action=None)
    pages.append(("PIN form with an error", status, body))
    status, body, url = client.post_form(body, f"{base}/kiosk/fever-triage/setup", {"pin": PIN}, action=None)
    pages.append(("start screen in two languages", status, body))
    status, signout, _ = client.get("/kiosk/fever-triage/signout")
    pages.append(("sign-out form", status, signout))
    for language in ("en", "es"):
        status, step, url = client.post_form(body, f"{base}/kiosk/fever-triage/start", {"lang": language}, action=None)
        pages.append((f"first step ({language})", status, step))
        status, step, url = client.post_form(step, url, {})
        pages.append((f"question ({language})", status, step))
        status, error, url = client.post_form(step, url, {})
        pages.append((f"question with an error ({language})", status, error))
        status, idle, _ = client.get("/kiosk/fever-triage/idle")
        pages.append((f"are you still there ({language})", status, idle))
        status, saved, url = client.post_form(step, url, {}, action="save")
        pages.append((f"saved ({language})", status, saved))
        status, body, url = client.get("/kiosk/fever-triage")
    status, step, url = client.post_form(body, f"{base}/kiosk/fever-triage/start", {"lang": "en"}, action=None)
    status, cancel, url = client.post_form(step, url, {}, action="cancel")
    pages.append(("cancel", status, cancel))
    status, discarded, url = client.post_form(cancel, f"{base}/kiosk/fever-triage", {}, action="discard")
    pages.append(("discarded", status, discarded))
    client = Http(base)
    status, body, url = client.get(f"/kiosk/{SURVEY}")
    status, body, url = client.post_form(body, f"{base}/kiosk/{SURVEY}/setup", {"pin": PIN}, action=None)
    status, step, url = client.post_form(body, f"{base}/kiosk/{SURVEY}/start", {"lang": "en"}, action=None)
    for values in ({}, {"mood": "4"}, {"sleep.hours": "7", "sleep.minutes": "30"}, {"activities": ["walk"]}, {"comments": "fine"}):
        status, step, url = client.post_form(step, url, values)
    pages.append(("review", status, step))
    status, done, url = client.post_form(step, url, {})
    pages.append(("done", status, done))
    return pages


def test_kiosk_pages_are_valid_html(kiosk, tmp_path, artifacts):
    pages = kiosk_pages(kiosk.url)
    statuses = {kind: status for kind, status, _ in pages}
    assert statuses["PIN form with an error"] == 422 and statuses["question with an error (es)"] == 422
    plain = [kind for kind, _, body in pages if b"<body class=\"kiosk\">" not in body]
    assert not plain, f"pages without the kiosk theme: {plain}"
    for index, (kind, status, body) in enumerate(pages):
        (tmp_path / f"kiosk-{index:02d}.html").write_bytes(body)
    messages = vnu(sorted(tmp_path.glob("kiosk-*.html")))
    (artifacts / "vnu-kiosk.json").write_text(json.dumps(messages, indent=1))
    errors = [m for m in messages if m["type"] in ("error", "non-document-error")]
    assert not errors, "\n".join(f"{m.get('url', '?')}: {m.get('message')}" for m in errors)


def test_axe_on_kiosk_pages(kiosk, chromium_js, artifacts):
    driver = chromium_js
    findings = []
    driver.get(f"{kiosk.url}/kiosk/fever-triage")
    findings += axe_findings(driver, "PIN form")
    box = driver.find_element(By.ID, "pin")
    box.send_keys("000000")
    box.submit()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "pin:error"))
    findings += axe_findings(driver, "PIN form with an error")
    driver.find_element(By.ID, "pin").send_keys(PIN)
    driver.find_element(By.ID, "pin").submit()
    wait_for_start_screen(driver)
    findings += axe_findings(driver, "start screen")
    start(driver, "es")
    findings += axe_findings(driver, "first step (es)")
    press(driver, "next")
    press(driver, "next")
    findings += axe_findings(driver, "question with an error (es)")
    driver.get(f"{kiosk.url}/kiosk/fever-triage/idle")
    findings += axe_findings(driver, "are you still there")
    (artifacts / "axe-kiosk.json").write_text(json.dumps(findings, indent=1))
    # The step pages' refresh to "Are you still there?" is the kiosk's time limit, which WCAG
    # 2.2.1 allows when the participant is warned and can extend it with a simple action: the
    # idle page's Continue, for --kiosk-grace seconds (30 by default; 3 in this test). axe's
    # meta-refresh rule cannot see that page, so it is the one finding set aside, on step and
    # idle pages only.
    assert driver.find_elements(By.CSS_SELECTOR, f"a.button[href='/kiosk/fever-triage']")
    timed = [f for f in findings if f["rule"] == "meta-refresh" and re.search(r"url=/kiosk/fever-triage/(idle|timeout)", f["html"])]
    others = [f for f in findings if f not in timed]
    assert not others, format_findings(others)
    assert timed, "the step pages' refresh to the idle page was not seen"
