"""(g) Script injection: a survey whose texts carry classic XSS payloads, walked in Chromium
with JavaScript ENABLED while typing payloads as answers too. No payload may run, no alert
may open, and no page may contain a live <script> element, event-handler attribute or
javascript: URL.

The server's Content-Security-Policy (default-src 'none') would stop inline scripts by
itself, which would hide an escaping bug; so the walk runs with CSP bypassed (CDP
Page.setBypassCSP), testing the escaping and sanitising on their own, and the CSP header
is checked separately."""
import json
import time
import urllib.request

import pytest
from support.tools import need_module

need_module("selenium")

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

from survey_pages import error_summary_text, fill_page, press, step_form

PAYLOADS = {
    "s1": "<script>window.__xss='s1';document.title='XSS-s1'</script>",
    "i2": "<img src=x onerror=\"window.__xss='i2';document.title='XSS-i2'\">",
    "j3": "<a href=\"javascript:window.__xss='j3'\">link j3</a>",
    "v4": "\"><svg onload=\"window.__xss='v4';document.title='XSS-v4'\">",
    "q5": "'><script>window.__xss='q5'</script>",
    "f6": "<iframe srcdoc=\"<script>parent.__xss='f6'</script>\"></iframe>",
    "d7": "<details open ontoggle=\"window.__xss='d7'\">d7</details>",
    "t8": "</textarea><script>window.__xss='t8'</script>",
    "t9": "</title><script>window.__xss='t9'</script>",
    "a10": "<img src=x onerror=alert('a10')>",
    "m11": "{{csrf}}{{{action}}}",
}
ALL = " ".join(PAYLOADS.values())
P = PAYLOADS


def xss_survey() -> dict:
    return {
        "identifier": "xss-lab",
        "title": "XSS lab " + P["t9"] + P["i2"],
        "steps": [
            {"identifier": "intro", "type": "instruction", "title": "Intro " + P["s1"] + P["i2"],
             "text": "<p>Mustache " + P["m11"] + "</p><p>Text " + ALL + "</p>", "detailText": "Detail " + P["v4"] + P["j3"],
             "footnote": "Foot " + P["q5"],
             "learnMore": {"title": "More " + P["d7"], "text": "<p>" + P["f6"] + P["a10"] + "</p>"}},
            {"identifier": "pick", "type": "question", "title": "Pick " + P["s1"], "text": "Hint " + P["i2"],
             "optional": False,
             "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [
                 {"text": "Choice " + P["i2"] + P["s1"], "value": "a", "detailText": "Detail " + P["v4"]},
                 {"text": "Other " + P["q5"], "value": "other", "other": {"placeholder": P["v4"]}}]}},
            {"identifier": "free", "type": "question", "title": "Free " + P["t9"], "placeholder": P["v4"],
             "optional": False,
             "answerFormat": {"type": "text", "validationRegularExpression": "^ok$",
                              "invalidMessage": "Invalid " + P["i2"] + P["s1"]}},
            {"identifier": "note", "type": "question", "title": "Note " + P["t8"],
             "answerFormat": {"type": "text", "multipleLines": True}},
            {"identifier": "review", "type": "review", "title": "Review " + P["s1"]},
            {"identifier": "end", "type": "completion", "title": "End " + P["i2"], "text": "Bye " + ALL},
        ],
    }


INSPECT = """
const bad = [];
for (const e of document.querySelectorAll('*')) {
  for (const a of e.attributes) {
    const v = a.value.trim().toLowerCase();
    if (a.name.toLowerCase().startsWith('on')) bad.push('handler ' + a.name + ' on <' + e.localName + '>');
    if (['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'srcdoc'].includes(a.name.toLowerCase())
        && (v.startsWith('javascript:') || a.name.toLowerCase() === 'srcdoc'))
      bad.push(a.name + '=' + a.value.slice(0, 60) + ' on <' + e.localName + '>');
  }
}
return {
  xss: window.__xss === undefined ? null : String(window.__xss),
  title: document.title,
  scripts: Array.from(document.querySelectorAll('script')).map(s => s.outerHTML.slice(0, 120)),
  embedded: Array.from(document.querySelectorAll('iframe, frame, object, embed, svg, math, base, meta[http-equiv]'))
                 .map(e => e.outerHTML.slice(0, 120)),
  bad: bad,
};"""


def assert_inert(driver, where: str, seen: list):
    time.sleep(0.3)                               # let an onerror/onload/ontoggle fire if there is one
    try:
        alert = driver.switch_to.alert
        text = alert.text
        alert.dismiss()
        raise AssertionError(f"{where}: an alert opened: {text!r}")
    except NoAlertPresentException:
        pass
    state = driver.execute_script(INSPECT)
    seen.append((where, state["title"]))
    assert state["xss"] is None, f"{where}: payload {state['xss']} ran"
    assert "XSS-" not in state["title"], f"{where}: a payload set the title: {state['title']!r}"
    assert not state["scripts"], f"{where}: live <script> elements: {state['scripts']}"
    assert not state["embedded"], f"{where}: injected elements: {state['embedded']}"
    assert not state["bad"], f"{where}: {state['bad']}"
    source = driver.page_source.lower()
    assert "<script" not in source, f"{where}: the page source has a <script> element"


@pytest.fixture(scope="module")
def xss_server(start_server, tmp_path_factory):
    folder = tmp_path_factory.mktemp("xss-surveys")
    (folder / "xss-lab.json").write_text(json.dumps(xss_survey(), indent=1), encoding="utf-8")
    return start_server(folder)


@pytest.fixture
def unprotected_chromium(chromium_factory):
    """JavaScript on and the page's CSP bypassed, so only escaping can stop a payload."""
    driver = chromium_factory(javascript=True)
    driver.execute_cdp_cmd("Page.setBypassCSP", {"enabled": True})
    return driver


def test_the_inspection_catches_a_payload_that_runs(unprotected_chromium, xss_server):
    """Guards: on a served page (CSP bypassed) an injected inline handler really runs, and the
    same checks then fail."""
    unprotected_chromium.get(f"{xss_server.url}/")
    unprotected_chromium.execute_script(
        "document.body.insertAdjacentHTML('beforeend', `<img src=x onerror=\"window.__xss='g'\">`)")
    with pytest.raises(AssertionError, match="payload g ran"):
        assert_inert(unprotected_chromium, "guard", [])


def test_pages_send_a_strict_content_security_policy(xss_server):
    with urllib.request.urlopen(f"{xss_server.url}/surveys/xss-lab", timeout=10) as response:
        policy = response.headers.get("Content-Security-Policy", "")
        assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert "default-src 'none'" in policy and "script-src" not in policy, policy


def test_no_payload_runs_anywhere_in_a_walk(unprotected_chromium, xss_server):
    driver, base, seen = unprotected_chromium, xss_server.url, []
    driver.get(f"{base}/")
    assert_inert(driver, "survey list", seen)
    assert "XSS lab" in driver.find_element(By.TAG_NAME, "main").text

    driver.get(f"{base}/surveys/xss-lab")
    assert_inert(driver, "intro", seen)
    assert "Mustache {{csrf}}{{{action}}}" in driver.find_element(By.TAG_NAME, "main").text, \
        "mustache in a survey text must stay literal text"
    press(driver, "next")

    # pick: the 'other' choice, with a payload typed as the other text
    assert_inert(driver, "pick", seen)
    other_text = P["v4"] + P["s1"] + P["i2"]
    fill_page(driver, {"pick": "other", "pick.other": other_text})
    press(driver, "next")

    # free: a typed payload fails the expression and is shown again in the error page
    assert_inert(driver, "free", seen)
    fill_page(driver, {"free": P["v4"] + P["q5"] + P["t9"]})
    press(driver, "next")
    assert error_summary_text(driver), "the payload should fail ^ok$ and come back with an error"
    assert_inert(driver, "free, error page with the typed payload", seen)
    value = driver.find_element(By.CSS_SELECTOR, "main input[name='free']").get_attribute("value")
    assert value == P["v4"] + P["q5"] + P["t9"], f"the typed input was not kept verbatim: {value!r}"
    fill_page(driver, {"free": "ok"})
    press(driver, "next")

    # note: a textarea payload, shown again after Back from the review
    assert_inert(driver, "note", seen)
    note_text = P["t8"] + " " + P["a10"] + " " + P["j3"]
    fill_page(driver, {"note": note_text})
    press(driver, "next")
    assert_inert(driver, "review", seen)
    review = driver.find_element(By.TAG_NAME, "main").text
    assert "</textarea><script>" in review, "the typed answer should be shown as text on the review"
    press(driver, "back")
    assert_inert(driver, "note again, after Back", seen)
    kept = driver.find_element(By.CSS_SELECTOR, "main textarea[name='note']").get_attribute("value")
    assert kept == note_text, f"the textarea did not keep the answer verbatim: {kept!r}"
    press(driver, "next")
    assert_inert(driver, "review again", seen)
    assert step_form(driver) is not None
    press(driver, "next")

    assert driver.current_url.endswith("/surveys/xss-lab/done"), driver.current_url
    assert_inert(driver, "done page", seen)

    driver.get(f"{base}/surveys/xss-lab/result.json")
    assert_inert(driver, "result.json", seen)
    result = json.loads(driver.find_element(By.TAG_NAME, "pre").text)
    answers = {r["identifier"]: r for s in result["results"] for r in s["results"]}
    assert answers["pick"]["choiceAnswers"] == [other_text]
    assert answers["note"]["textAnswer"] == note_text
