"""Panel and lab studies end to end, against the built server (docs/panels.md): links that carry
a panel's parameters, piped answers, shuffled choices, a block taken in a per-run order, random
assignment to arms, completion and screen-out redirects, and quotas.

Chromium without JavaScript walks Examples/panel-study.json as a participant (Chromium with
it runs axe-core on the new pages, the Nu checker reads them); participants over raw HTTP, each with their own cookies, make the many runs the arm and quota checks need;
the researcher API shows what each run stored. The server serves panel-study itself and copies
of it under other identifiers, so that each test has its own run list, arm sequences and quota
counts. The copy walked in Chromium sends participants back to a small study site on the
loopback instead of Prolific, since the tests run offline.
"""
from __future__ import annotations

import copy
import html
import http.server
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from checkers import assert_valid_pages, axe_findings, format_findings
from support import EXAMPLES_DIR, Http, get, parse_form
from survey_pages import _click_choice, press

TOKEN = "e2e-panels-token-0123456789"
PANEL = json.loads((EXAMPLES_DIR / "panel-study.json").read_text(encoding="utf-8"))
NAMES = ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")
PETS = {"cat", "dog", "fish", "bird", "none"}
ANSWERS = {"age": "18to34", "pet": "dog", "enjoy": "2", "worry": "1", "cost": "true", "mood": "7"}
BLOCK_QUESTIONS = {"enjoy": "How much do you enjoy time with {}?", "worry": "How often do you worry about {}?",
                   "cost": "Does looking after {} cost more than you expected?"}


def block_titles(animal: str) -> dict:
    """{the block question's title, piped with the animal's text: its step}"""
    return {question.format(animal): step for step, question in BLOCK_QUESTIONS.items()}


BLOCK_TITLES = block_titles("a dog")
TASKS = {"walk": "A short walk", "control": "A short read"}
DONE_CODE, OUT_CODE = "LABDONE7", "LABOUT7"


# --- the surveys, the study site and the server ---------------------------------------------

def variant(identifier: str, parameters: dict | None = None, **keys) -> dict:
    """panel-study under another identifier, with some keys replaced (None removes one) and
    some parameters' declarations changed ({name: {key: value}})."""
    survey = copy.deepcopy(PANEL)
    survey["identifier"] = identifier
    survey.update(keys)
    for key in [key for key, value in keys.items() if value is None]:
        del survey[key]
    for declared in survey["parameters"]:
        declared.update((parameters or {}).get(declared["name"], {}))
    return survey


def surveys(site: str) -> list[dict]:
    return [
        PANEL,
        # SESSION_ID's length is limited by maxLength alone, so a long value fails on that.
        variant("panel-links", {"SESSION_ID": {"pattern": "[A-Za-z0-9]+"}}),
        variant("panel-arms"),
        # Back to the local site; SESSION_ID takes characters that must be percent-encoded.
        variant("panel-local", {"SESSION_ID": {"pattern": "[A-Za-z0-9 &=]{1,64}"}},
                redirectHosts=["127.0.0.1"],
                completionRedirect={"url": site + "/complete?cc={code}&pid={PROLIFIC_PID}&session={SESSION_ID}&run={runId}",
                                    "code": DONE_CODE},
                screenOutRedirect={"url": site + "/screened?cc={code}&pid={PROLIFIC_PID}&run={runId}",
                                   "code": OUT_CODE}),
        variant("panel-quota", redirectHosts=None, completionRedirect=None, screenOutRedirect=None,
                quotas=[{"identifier": "q", "limit": 1, "when": {"result": "age", "choice": "55plus"}}]),
    ]


class StudySite(http.server.BaseHTTPRequestHandler):
    """The panel's site, where participants land when they are sent back."""

    def do_GET(self):  # noqa: N802 (the standard library's name)
        body = b"<!DOCTYPE html><html lang='en'><title>Study site</title><h1>Back at the panel</h1></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def study_site():
    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), StudySite)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{site.server_port}"
    site.shutdown()
    site.server_close()


@pytest.fixture(scope="module")
def lab(start_server, study_site, tmp_path_factory):
    """The server on the surveys above, with the researcher API turned on."""
    folder = tmp_path_factory.mktemp("panel-surveys")
    for survey in surveys(study_site):
        (folder / f"{survey['identifier']}.json").write_text(json.dumps(survey, indent=1), encoding="utf-8")
    for attempt in range(6):   # the binary may be being relinked: try again a little later
        try:
            return start_server(folder, extra=("--api-token", TOKEN))
        except (RuntimeError, OSError, pytest.fail.Exception):
            if attempt == 5:
                raise
            time.sleep(5)


# --- HTTP: links, pages, participants, the API ----------------------------------------------

def prolific(pid: str, **more) -> dict:
    return {"PROLIFIC_PID": pid, "STUDY_ID": "study1", "SESSION_ID": "sess1", **more}


def link(survey: str, parameters: dict) -> str:
    """A space as %20, as a panel writes it (the server reads a '+' as a plus sign)."""
    return f"/surveys/{survey}?" + urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote)


def heading_of(page: bytes) -> str:
    match = re.search(rb"<h1[^>]*>(.*?)</h1>", page, re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1).decode())).strip() if match else ""


def refresh_of(page: bytes) -> str | None:
    """Where a page's meta refresh leads."""
    match = re.search(rb'<meta http-equiv="refresh" content="0; url=([^"]*)"', page)
    return html.unescape(match.group(1).decode()) if match else None


class Participant:
    """A participant's browser as raw HTTP (its own cookies), on the page it was last shown."""

    def __init__(self, server, survey: str, parameters: dict):
        self.http, self.survey = Http(server.url), survey
        self.status, self.body, self.url = self.http.get(link(survey, parameters))

    @property
    def heading(self) -> str:
        return heading_of(self.body)

    def answer(self, **fields) -> Participant:
        form = parse_form(self.body)
        assert form is not None, f"{self.heading!r} has no step form"
        self.status, self.body, self.url = self.http.post_form(self.body, urllib.parse.urljoin(self.url, form.action), fields)
        assert self.status == 200, (self.status, self.heading)
        return self

    def answer_all(self, answers: dict = ANSWERS) -> list[str]:
        """Answers page after page until one has no step form; the headings seen."""
        seen = [self.heading]
        while (form := parse_form(self.body)) is not None and len(seen) < 20:
            self.answer(**{name: answers[name] for name in form.controls if name in answers})
            seen.append(self.heading)
        return seen

    def result(self) -> dict:
        status, body, _ = self.http.get(f"/surveys/{self.survey}/result.json")
        assert status == 200, status
        return json.loads(body)


def api(server, path: str) -> dict:
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {TOKEN}"})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise AssertionError(f"GET {path}: {error.code} {error.read()[:300]!r}") from None


def runs(server, survey: str) -> list[dict]:
    return api(server, f"/api/v1/runs?survey={survey}&limit=1000")["runs"]


def answer_of(result: dict, step: str):
    """The one choice answer of a step in a result."""
    [step_result] = [r for r in result["results"] if r["identifier"] == step]
    [choice] = step_result["results"]
    return choice["choiceAnswers"][0]


# --- Chromium -------------------------------------------------------------------------------

def h1(driver) -> str:
    return driver.find_element(By.TAG_NAME, "h1").text


def choose(driver, name: str, value: str):
    _click_choice(driver, driver.find_element(By.CSS_SELECTOR, f"main input[name='{name}'][value='{value}']"))


def order_shown(driver, name: str) -> list[str]:
    return [box.get_attribute("value") for box in driver.find_elements(By.CSS_SELECTOR, f"main input[name='{name}']")]


def submit_last_page(driver, site: str) -> urllib.parse.SplitResult:
    """Next on the last page; the address the participant lands on at the study site."""
    driver.find_element(By.CSS_SELECTOR, "main button[name=_action][value=next]").click()
    WebDriverWait(driver, 20).until(lambda d: d.current_url.startswith(site))
    assert h1(driver) == "Back at the panel"
    return urllib.parse.urlsplit(driver.current_url)


# --- the tests ------------------------------------------------------------------------------

BAD_LINKS = {  # what is wrong with the link: (its query, the parameter the page must name)
    "leaves one out": ("STUDY_ID=study1&SESSION_ID=sess1", "PROLIFIC_PID"),
    "leaves one empty": ("PROLIFIC_PID=&STUDY_ID=study1&SESSION_ID=sess1", "PROLIFIC_PID"),
    "breaks a pattern": ("PROLIFIC_PID=p1&STUDY_ID=study%201&SESSION_ID=sess1", "STUDY_ID"),
    "is too long": ("PROLIFIC_PID=p1&STUDY_ID=study1&SESSION_ID=" + "a" * 65, "SESSION_ID"),
    "repeats one": ("PROLIFIC_PID=p1&STUDY_ID=study1&SESSION_ID=sess1&PROLIFIC_PID=p1", "PROLIFIC_PID"),
}


def test_incomplete_links_get_400_naming_the_parameter_and_store_no_run(lab):
    for problem, (query, name) in BAD_LINKS.items():
        status, page = get(f"{lab.url}/surveys/panel-links?{query}")
        text = page.decode()
        assert status == 400, f"a link that {problem}: status {status}"
        assert heading_of(page) == "This link is not complete", f"a link that {problem}: {heading_of(page)!r}"
        assert f"“{name}”" in text, f"a link that {problem}: the page does not name {name}"
        assert not [other for other in NAMES if other != name and f"“{other}”" in text], problem
        assert parse_form(page) is None, f"a link that {problem} still offers a form"
    assert runs(lab, "panel-links") == []

    # The list does show runs: a complete link (SESSION_ID at its maxLength) makes one at its first answer.
    complete = prolific("p1", SESSION_ID="a" * 64)
    participant = Participant(lab, "panel-links", complete)
    assert participant.status == 200 and runs(lab, "panel-links") == []
    participant.answer()
    [run] = runs(lab, "panel-links")
    assert api(lab, f"/api/v1/runs/{run['id']}")["result"]["parameters"] == complete


def test_panel_study_in_chromium_pipes_shuffles_blocks_assigns_and_returns(lab, study_site, chromium):
    pid, session = "5f1a2b3c", "s 1&x=y"
    chromium.get(lab.url + link("panel-local", prolific(pid, SESSION_ID=session, source="newsletter")))
    assert h1(chromium) == "Pets and wellbeing"
    press(chromium, "next")
    assert chromium.current_url == f"{lab.url}/surveys/panel-local", "a later address carries the parameters"
    choose(chromium, "age", "18to34")
    press(chromium, "next")

    order = order_shown(chromium, "pet")
    assert set(order) == PETS and len(order) == len(PETS), order
    assert order[-1] == "none", f"'None of these' is not pinned last: {order}"
    assert chromium.find_elements(By.CSS_SELECTOR, "main .radios__item")[-1].text == "None of these"
    chromium.refresh()
    assert order_shown(chromium, "pet") == order, "reloading the page drew another order"
    choose(chromium, "pet", "dog")
    press(chromium, "next")
    first_of_block = h1(chromium)
    press(chromium, "back")
    assert order_shown(chromium, "pet") == order, "going Back drew another order"
    assert chromium.find_element(By.CSS_SELECTOR, "main input[name=pet][value=dog]").is_selected()
    press(chromium, "next")
    assert h1(chromium) == first_of_block, "going Back and on changed the block's order"

    seen = []
    for _ in BLOCK_TITLES:
        assert h1(chromium) in BLOCK_TITLES, f"not a block question piped with 'a dog': {h1(chromium)!r}"
        seen.append(BLOCK_TITLES[h1(chromium)])
        choose(chromium, seen[-1], ANSWERS[seen[-1]])
        press(chromium, "next")
    assert sorted(seen) == sorted(BLOCK_TITLES.values()), seen
    task = h1(chromium)
    assert task in TASKS.values(), task
    press(chromium, "next")
    assert h1(chromium) == "You chose a dog earlier. How do you feel right now?"
    choose(chromium, "mood", "7")
    landed = submit_last_page(chromium, study_site)

    query = urllib.parse.parse_qs(landed.query)
    assert landed.path == "/complete", landed
    assert (query["cc"], query["pid"], query["session"]) == ([DONE_CODE], [pid], [session]), landed.query
    [run_id] = query["run"]
    run = api(lab, f"/api/v1/runs/{run_id}")          # the run's identifier, in lower case
    assert run["id"] == run_id == run_id.lower()
    result = run["result"]
    assert run["status"] == result["finishReason"] == "completed"
    assert result["parameters"] == prolific(pid, SESSION_ID=session), "undeclared 'source' kept, or a parameter lost"
    assert result["choiceOrders"] == {"pet": order}
    assert result["blockOrders"] == {"attitudes": seen}
    assert [r["identifier"] for r in result["results"] if r["identifier"] in seen] == seen
    arm = answer_of(result, "arm")
    assert TASKS.get(arm) == task, f"arm {arm!r}, but the page shown was {task!r}"


def test_each_run_draws_its_own_orders_and_pipes_its_own_answer(lab):
    pet_orders, first_of_block = set(), set()
    for index in range(10):
        participant = Participant(lab, "panel-study", prolific(f"orders{index}")).answer().answer(age="18to34")
        order = tuple(parse_form(participant.body).controls["pet"].options)
        assert order[-1] == "none", order
        pet_orders.add(order)
        animal = ["cat", "fish", "bird", "dog"][index % 4]
        heading = participant.answer(pet=animal).heading
        assert heading in block_titles(f"a {animal}"), f"chose {animal}, then saw {heading!r}"
        first_of_block.add(block_titles(f"a {animal}")[heading])
    assert len(pet_orders) > 1, f"ten runs, one order of the pets: {pet_orders}"
    assert len(first_of_block) > 1, f"ten runs, all began the block with {first_of_block}"


def test_panel_study_returns_to_prolific_with_its_completion_code(lab):
    participant = Participant(lab, "panel-study", prolific("retprolific1"))
    assert participant.answer_all()[-1] == "Thank you"
    prolific_url = "https://app.prolific.com/submissions/complete?cc=C7PETS01"
    assert participant.url == f"{lab.url}/surveys/panel-study/return"
    assert refresh_of(participant.body) == prolific_url
    assert f'href="{html.escape(prolific_url)}"' in participant.body.decode()


def test_under_18_is_screened_out_to_the_screen_out_address(lab, study_site, chromium):
    chromium.get(lab.url + link("panel-local", prolific("young01")))
    press(chromium, "next")
    choose(chromium, "age", "under18")
    landed = submit_last_page(chromium, study_site)

    query = urllib.parse.parse_qs(landed.query)
    assert landed.path == "/screened" and query["cc"] == [OUT_CODE] and query["pid"] == ["young01"], landed
    run = api(lab, f"/api/v1/runs/{query['run'][0]}")
    assert run["status"] == run["result"]["finishReason"] == "screenedOut"
    assert "pet" not in [r["identifier"] for r in run["result"]["results"]]


def test_the_same_prolific_pid_is_given_the_same_arm_again(lab):
    def arm_of(pid: str) -> str:
        participant = Participant(lab, "panel-arms", prolific(pid))   # a new cookie jar each time
        seen = participant.answer_all()
        result = participant.result()
        assert result["finishReason"] == "completed" and result["parameters"]["PROLIFIC_PID"] == pid
        arm = answer_of(result, "arm")
        assert TASKS[arm] in seen, f"{pid}: arm {arm}, pages {seen}"
        return arm

    pids = ["armA1", "armB2", "armC3", "armD4"]
    first = {pid: arm_of(pid) for pid in pids}
    # Four runs of one age group fill a permuted block of four: two of each arm.
    assert sorted(first.values()) == ["control", "control", "walk", "walk"], first
    for round_of_returns in (reversed(pids), pids):     # were each return drawn afresh, both would rarely match
        assert {pid: arm_of(pid) for pid in round_of_returns} == first


def test_a_full_quota_ends_the_next_matching_run_as_quota_full(lab):
    def quota() -> int:
        reported = api(lab, "/api/v1/surveys/panel-quota/quotas")
        [q] = reported["quotas"]
        assert (reported["survey"], q["identifier"], q["limit"]) == ("panel-quota", "q", 1), reported
        return q["count"]

    first, second = (Participant(lab, "panel-quota", prolific(pid)) for pid in ("quota1", "quota2"))
    for participant in (first, second):     # both in the quota's group, in progress: no place held
        participant.answer().answer(age="55plus")
        assert participant.heading == "Which animal do you spend the most time with?"
    assert quota() == 0

    assert first.answer_all({**ANSWERS, "age": "55plus"})[-1] == "Thank you"
    assert first.result()["finishReason"] == "completed"
    assert quota() == 1

    second.answer(pet="dog")                # the quota is full now: the run ends at its next page
    assert second.heading == "Thank you for your interest" and parse_form(second.body) is None
    assert second.result()["finishReason"] == "quotaFull"
    statuses = {run["id"]: run["status"] for run in runs(lab, "panel-quota")}
    assert statuses[second.result()["taskRunUUID"]] == "quotaFull"

    younger = Participant(lab, "panel-quota", prolific("quota3"))   # not in the group: completes
    assert younger.answer_all()[-1] == "Thank you"
    assert younger.result()["finishReason"] == "completed"
    assert quota() == 1


def test_link_error_and_piped_shuffled_pages_pass_axe_and_the_html_checker(lab, chromium_js, tmp_path, artifacts):
    bad_link = "/surveys/panel-study?PROLIFIC_PID=p1&STUDY_ID=study1"
    findings = []
    chromium_js.get(lab.url + bad_link)
    assert h1(chromium_js) == "This link is not complete"
    findings += axe_findings(chromium_js, "link not complete")
    chromium_js.get(lab.url + link("panel-study", prolific("axe01")))
    press(chromium_js, "next")
    choose(chromium_js, "age", "18to34")
    press(chromium_js, "next")
    assert order_shown(chromium_js, "pet")[-1] == "none"
    findings += axe_findings(chromium_js, "shuffled choices")
    choose(chromium_js, "pet", "dog")
    press(chromium_js, "next")
    assert h1(chromium_js) in BLOCK_TITLES
    findings += axe_findings(chromium_js, "piped title")
    assert not findings, format_findings(findings)

    error_page = get(lab.url + bad_link)[1]
    participant = Participant(lab, "panel-study", prolific("vnu01"))
    shuffled = participant.answer().answer(age="18to34").body
    piped = participant.answer(pet="dog").body
    assert heading_of(piped) in BLOCK_TITLES
    participant.answer_all()
    assert_valid_pages([error_page, shuffled, piped, participant.body], tmp_path, artifacts, "panels")
