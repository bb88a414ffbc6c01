"""The researchers' dashboard on the built server, against the export of the same runs.

Six participants walk every-format over raw HTTP: one as scripted, one pressing every
"I don't know" and skipping (with other answers, so that the bars and bins differ), one saving
for later part-way, one going Back to change two answers, one leaving the run in progress, and
one discarding its run, which must then be gone from the export and from every chart but the
runs by day, where its erasure in the audit log counts it as discarded on the day it began. For
every question of the survey the dashboard's CSV holds the counts the wide export (with missing
codes) gives: each choice's count, each histogram bin's count of the values exported, the
answered count and each missing reason; the runs by day and status and the funnel's reach and
stops hold the export's statuses. The pages (the list, two surveys' dashboards and one with a
filter it cannot read) pass axe-core and the Nu HTML checker, opened in Chromium signed in
through the preview's form; at 320 CSS px the dashboard does not scroll sideways, and each
chart's SVG is named by its <title> (aria-labelledby) with a table beside it. Every SVG
download parses as SVG (xml.etree) and every CSV download as CSV."""
from __future__ import annotations

import csv
import io
import json
import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass
from datetime import date

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from checkers import axe_findings
from support import (EXAMPLES_DIR, FIXTURES, MAX_PAGES, Http, Repeats, controls_of, field_values, page_answers,
                     run_ended, start_path)
from survey_pages import type_into
from test_accessibility import report
from test_html_valid import check_with_vnu
from test_reflow import WIDTH, overflow

TOKEN = "dashboard-api-token-0123456789"
PREVIEW_TOKEN = "dashboard-preview-token-0123456789"
SURVEY = "every-format"
SVG = "{http://www.w3.org/2000/svg}"

# The wide export's missing codes, and the dashboard's rows for them.
MISSING = {"-91": "not shown", "-92": "skipped", "-93": "don't know", "-94": "not reached"}
REASON_ROWS = {code: f"Missing, because {reason}" for code, reason in MISSING.items()}
# The exports' statuses as the dashboard names them.
STATUS_LABELS = {"completed": "completed", "inProgress": "in progress", "saved": "saved", "discarded": "discarded",
                 "declined": "declined", "screenedOut": "screened out", "quotaFull": "quota full",
                 "earlyTermination": "ended early", "failed": "failed"}

SCRIPTED = field_values(json.loads((FIXTURES / f"{SURVEY}.answers.json").read_text()))
# Other answers than the scripted ones, so that the choices and bins are not all one.
OTHER = {**SCRIPTED, "contact-ok": "false", "handedness": "left", "transport": ["bike", "car"], "transport.other": "",
         "country": "AT",
         "mood-face": "good", "pain": "7.5", "sitting": "25", "height": "185", "weight": "92", "age": "67",
         "daily-steps": "12000", "wake-time": "05:10", "exercise.hours": "1", "exercise.minutes": "30",
         "last-checkup.day": "20", "last-checkup.month": "11", "last-checkup.year": "2023",
         "participant-code": "AB-1234", "hometown": "Graz", "ladder": "3"}
DONT_KNOW = {"stress.dontKnow", "sleep-quality.dontKnow", "water.dontKnow", "last-painkiller.dontKnow"}


# --- the server, a participant, a researcher -------------------------------------------------

@pytest.fixture(scope="module")
def server(start_server):
    """The examples served with an API token and a preview token (the dashboard's two doors)."""
    return start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN, "--preview-token", PREVIEW_TOKEN))


class Participant:
    """One participant over raw HTTP (support.Http, its own cookie jar), on the page the server
    showed it last."""

    def __init__(self, base_url: str, survey: str = SURVEY):
        self.http = Http(base_url)
        self.status, self.page, self.url = self.http.get(start_path(survey))
        self.check("the first page")

    def check(self, what: str):
        assert self.status == 200 and b'class="error-summary"' not in self.page, (
            f"{what}: {self.url} answered {self.status}:\n{self.page.decode('utf-8', 'replace')[-3000:]}")

    def shows(self, name: str) -> bool:
        return name in controls_of(self.page).controls

    def press(self, action: str, fields: dict | None = None):
        """Post the step form with `fields` (and its hidden fields) and the button _action=action."""
        self.status, self.page, self.url = self.http.post_form(self.page, self.url, fields or {}, action=action)
        self.check(f"_action={action}")

    def answer(self, values: dict, dont_know: set = frozenset(), skip: set = frozenset()):
        """Answer this page from `values` and press Next; on a page with one of the `dont_know`
        buttons press it instead, the page's other answers sent with it, as a browser sends
        them; on a page with a control named in `skip`, press Skip."""
        form = controls_of(self.page)
        fields = page_answers(form, values, Repeats({}))
        pressed = [name for name, _ in form.buttons if name in dont_know]
        if set(form.controls) & set(skip):
            self.press("skip")
        elif pressed:
            question = pressed[0].removesuffix(".dontKnow")
            fields = {name: value for name, value in fields.items()
                      if name != question and not name.startswith(question + ".")}
            self.status, self.page, self.url = self.http.post_form(self.page, self.url, {**fields, pressed[0]: "1"},
                                                                   action=None)
            self.check(pressed[0])
        else:
            self.press("next", fields)

    def answer_until(self, values: dict, field: str | None = None, **how):
        """Answer page after page until one shows the control `field` (left unanswered), or,
        with none, until the run ends."""
        for _ in range(MAX_PAGES):
            if run_ended(self.url):
                assert field is None, f"the run ended before a page with {field!r}"
                return
            if field is not None and self.shows(field):
                return
            self.answer(values, **how)
        raise AssertionError(f"no end after {MAX_PAGES} pages")


def researcher_get(server, path: str, token: str = TOKEN) -> tuple[int, dict, bytes]:
    """GET with the API token as a bearer: (status, headers, body), an error status included."""
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def export_rows(server, survey: str = SURVEY) -> list[dict]:
    status, _, body = researcher_get(server, f"/api/v1/surveys/{survey}/export?format=csv&missing=codes")
    assert status == 200, body[:2000]
    return list(csv.DictReader(io.StringIO(body.decode("utf-8"), newline="")))


def dashboard_csv(server, path: str, survey: str = SURVEY) -> list[list[str]]:
    """A CSV download of the dashboard: UTF-8 with a byte-order mark, read with the csv module."""
    status, headers, body = researcher_get(server, f"/dashboard/{survey}/{path}.csv")
    assert status == 200, f"{path}.csv: {status} {body[:500]!r}"
    assert headers["Content-Type"].startswith("text/csv"), headers["Content-Type"]
    assert body.startswith(b"\xef\xbb\xbf"), f"{path}.csv has no byte-order mark"
    table = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
    assert table and all(len(row) == len(table[0]) for row in table), f"{path}.csv: ragged rows {table}"
    return table


def runs_counted(server, survey: str = SURVEY) -> int:
    """The runs the dashboard counts: the sum of runs.csv's All column."""
    return sum(int(row[-1]) for row in dashboard_csv(server, "runs", survey)[1:])


def signed_in_http(server) -> Http:
    """A raw-HTTP browser signed in through the preview's form: its cookie `survey_preview`."""
    client = Http(server.url)
    status, form, url = client.get("/preview/sign-in")
    assert status == 200 and controls_of(form).hidden.get("_csrf"), status
    status, _, url = client.post_form(form, url, {"token": PREVIEW_TOKEN}, action=None)
    assert status == 200 and url.endswith("/preview"), (status, url)
    assert any(cookie.name == "survey_preview" for cookie in client.jar), "no preview cookie"
    return client


def sign_in(driver, server):
    """Sign Chromium in as a researcher through the preview's form: the dashboard first sends
    it to the sign-in, and after it lets it in."""
    driver.get(f"{server.url}/dashboard")
    assert driver.current_url.endswith("/preview/sign-in"), f"the dashboard let in a stranger: {driver.current_url}"
    type_into(driver.find_element(By.ID, "token"), PREVIEW_TOKEN)
    driver.find_element(By.CSS_SELECTOR, "form[action='/preview/sign-in'] button[type='submit']").click()
    WebDriverWait(driver, 10).until(lambda d: d.current_url.endswith("/preview"))
    assert driver.get_cookie("survey_preview"), "signed in, but no preview cookie"


# --- the participants -----------------------------------------------------------------------

@dataclass
class Walked:
    discarded: str            # the run id of the discarded run, seen in the export before
    discarded_day: str        # the day it started, as the export wrote it before
    counted_with_it: int      # the runs the dashboard counted while it was there


@pytest.fixture(scope="module")
def walked(server) -> Walked:
    """Six participants of every-format (the discarding one last) and two of wellbeing-check."""
    Participant(server.url).answer_until(SCRIPTED)

    Participant(server.url).answer_until(OTHER, dont_know=DONT_KNOW, skip={"blood-group.0", "comments"})

    saver = Participant(server.url)
    saver.answer_until(SCRIPTED, "sleep-quality")
    saver.press("save")
    assert saver.url.endswith("/saved"), saver.url

    changer = Participant(server.url)
    changer.answer_until(SCRIPTED, "handedness")            # contact-ok: yes
    changer.press("back")
    assert changer.shows("contact-ok"), changer.url
    changer.answer({"contact-ok": "false"})                # no: the email item is not shown
    changes = {**SCRIPTED, "stress": "9", "ladder": "10", "wake-time": "08:20", "last-checkup.year": "2025"}
    changer.answer_until(changes, "stress")                # mood-face: okay
    changer.press("back")
    assert changer.shows("mood-face"), changer.url
    changer.answer({"mood-face": "bad"})
    changer.answer_until(changes)

    Participant(server.url).answer_until(SCRIPTED, "transport")   # left in progress

    before = {row["run_id"] for row in export_rows(server)}
    discarder = Participant(server.url)
    discarder.answer_until(OTHER, "country")
    rows = export_rows(server)
    made = {row["run_id"] for row in rows} - before
    assert len(made) == 1, f"{len(made)} new runs in the export"
    counted = runs_counted(server)
    assert counted == len(rows), f"before the discard the dashboard counts {counted} runs, the export has {len(rows)}"
    discarder.press("discard")
    assert discarder.url.endswith("/discarded"), discarder.url

    wellbeing = field_values(json.loads((FIXTURES / "wellbeing-check.answers.json").read_text()))
    Participant(server.url, "wellbeing-check").answer_until(wellbeing)
    later = Participant(server.url, "wellbeing-check")
    later.answer_until(wellbeing, "sleep.hours")
    later.press("save")
    assert later.url.endswith("/saved"), later.url
    discarded = made.pop()
    day = next(row["started"][:10] for row in rows if row["run_id"] == discarded)
    return Walked(discarded=discarded, discarded_day=day, counted_with_it=counted)


# --- what the survey asks -------------------------------------------------------------------

def survey_questions(survey: str = SURVEY) -> dict[str, dict]:
    """{dashboard key: answer format} of every question, in the survey's order: a question
    step's identifier, a form item's `step.item`."""
    document = json.loads((EXAMPLES_DIR / f"{survey}.json").read_text())
    questions = {}
    for step in document["steps"]:
        if step["type"] == "question":
            questions[step["identifier"]] = step["answerFormat"]
        elif step["type"] == "form":
            for item in step["items"]:
                if "identifier" in item:
                    questions[f"{step['identifier']}.{item['identifier']}"] = item["answerFormat"]
    return questions


def choice_labels(answer_format: dict) -> dict[str, str]:
    """{row label: value} of a question's choices as the dashboard labels them: "Text (value)"."""
    if answer_format["type"] == "boolean":
        pairs = [(answer_format.get("yes", "Yes"), "true"), (answer_format.get("no", "No"), "false")]
    else:
        pairs = [(choice["text"], str(choice["value"])) for choice in answer_format.get("choices", [])]
    return {(text if text == value else f"{text} ({value})"): value for text, value in pairs}


def unguarded(cell: str) -> str:
    """An export cell without the quote that keeps a spreadsheet from reading it as a formula."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") else cell


# --- reading a question's CSV and counting the export --------------------------------------

def split_question_csv(table: list[list[str]]) -> tuple[list[str], list[list[str]], dict[str, int]]:
    """(header, the answers' rows, {"Answered" or a missing reason's row: count})."""
    header, rows = table[0], table[1:]
    at = next((i for i, row in enumerate(rows) if row[0] == "Answered"), None)
    assert at is not None, f"no Answered row: {table}"
    tail = rows[at:]
    assert [row[0] for row in tail] == ["Answered", *REASON_ROWS.values()], tail
    return header, rows[:at], {row[0]: int(row[1]) for row in tail}


def bin_value(text: str):
    """A bin's edge or an exported value, comparable: a day, minutes of a time of day, or a number."""
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}(T.*)?", text):
        return date.fromisoformat(text[:10])
    if re.fullmatch(r"\d{2}:\d{2}(:\d{2})?", text):
        return int(text[:2]) * 60 + int(text[3:5])
    return float(text)


def question_mismatches(key: str, answer_format: dict, table: list[list[str]], export: list[dict]) -> list[str]:
    """Where the dashboard's CSV of one question differs from the counts of the export."""
    columns = [name for name in export[0] if name == key or name.startswith(key + "__")]
    assert columns, f"{key}: no column of the export"
    cells = [row[columns[0]] for row in export]
    answered = [row for row, cell in zip(export, cells) if cell not in MISSING]
    header, rows, tail = split_question_csv(table)
    wrong = []

    def compare(what: str, shown, counted):
        if shown != counted:
            wrong.append(f"{key}: {what}: the dashboard says {shown}, the export gives {counted}")

    compare("answered", tail["Answered"], len(answered))
    for code, label in REASON_ROWS.items():
        compare(label, tail[label], cells.count(code))

    if header == ["Answer", "Count", "Share"]:
        labels = choice_labels(answer_format)
        missing_labels = [label for label in labels if label not in [row[0] for row in rows]]
        if missing_labels:
            wrong.append(f"{key}: no row for the choices {missing_labels}")
        for label, count, share in rows:
            value = labels.get(label, label)     # a value outside the list is its own label
            if answer_format["type"] == "multipleValuePicker":   # "A Rhesus positive (+) (A / +)": the pickers' texts, then the values
                value = re.search(r"\(([^()]*)\)$", label).group(1)
            if f"{key}__{value}" in columns:      # multiple choice: a 0/1 column per choice
                exported = sum(row[f"{key}__{value}"] == "1" for row in answered)
            elif key in columns:                  # one choice: its value in the cell (a boolean's 1/0)
                cell = {"true": "1", "false": "0"}.get(value, value) if answer_format["type"] == "boolean" else value
                exported = sum(row[key] == cell for row in answered)
            else:                                 # several pickers: a column each, joined
                exported = sum(" / ".join(unguarded(row[c]) for c in columns) == value for row in answered)
            compare(f"choice {label!r}", int(count), exported)
            compare(f"share of {label!r}", share,
                    f"{int(exported * 100 / len(answered) + 0.5)}%" if answered else "–")
    elif header == ["From", "To (not including)", "Count"]:
        values = [bin_value(row[key]) for row in answered]
        bins = [(bin_value(low), bin_value(high), int(count)) for low, high, count in rows]
        compare("the bins' sum", sum(count for *_, count in bins), len(answered))
        for low, high, count in bins:
            compare(f"bin [{low}, {high})", count, sum(low <= value < high for value in values))
        outside = [value for value in values if not any(low <= value < high for low, high, _ in bins)]
        if outside:
            wrong.append(f"{key}: the exported values {outside} fall in no bin {[(low, high) for low, high, _ in bins]}")
    elif header == ["Answer", "Count"]:
        if rows:
            wrong.append(f"{key}: text answers shown: {rows}")
    else:
        wrong.append(f"{key}: a header the test does not know: {header}")
    return wrong


# --- 1. counts ------------------------------------------------------------------------------

def test_every_question_s_counts_match_the_export(server, walked):
    export = export_rows(server)
    statuses = Counter(row["status"] for row in export)
    assert statuses == {"completed": 3, "saved": 1, "inProgress": 1}, statuses
    assert walked.discarded not in {row["run_id"] for row in export}, "the discarded run is still exported"
    # The walks did what they meant to: the export has each kind of answer the check is about.
    assert {row["stress"] for row in export} >= {"4", "9", "-93", "-94"}
    assert {row["about-you.email"] for row in export} >= {"participant@example.com", "-91", "-94"}
    assert {row["blood-group__1"] for row in export} >= {"A", "-92"}
    assert {row["mood-face"] for row in export} >= {"okay", "good", "bad"}
    assert {row["transport__other"] for row in export} >= {"0", "1", "-94"}

    status, _, page = researcher_get(server, f"/dashboard/{SURVEY}")
    assert status == 200
    questions = survey_questions()
    linked = re.findall(rf'href="/dashboard/{SURVEY}/questions/([^"?]+)\.csv"', page.decode("utf-8"))
    assert linked == list(questions), f"the dashboard's questions {linked}, the survey's {list(questions)}"

    wrong = []
    for key, answer_format in questions.items():
        wrong += question_mismatches(key, answer_format, dashboard_csv(server, f"questions/{key}"), export)
    assert not wrong, "the dashboard and the export differ:\n" + "\n".join(wrong)


def test_runs_and_funnel_match_the_export_and_the_discarded_run_is_counted_only_by_day(server, walked):
    export = export_rows(server)
    runs = dashboard_csv(server, "runs")
    header = runs[0]
    assert header[0] == "Period" and header[-1] == "All", header
    shown = Counter()
    for period, *counts, total in runs[1:]:
        assert sum(map(int, counts)) == int(total), f"{period}: {counts} do not add up to {total}"
        for label, count in zip(header[1:-1], counts):
            if int(count):
                shown[(period, label)] += int(count)
    # The runs by the day they started (in the survey's time zone, as the export writes it).
    # The discarded run is not exported; the runs chart counts it from the audit log.
    exported = Counter((row["started"][:10], STATUS_LABELS[row["status"]]) for row in export)
    exported[(walked.discarded_day, "discarded")] += 1
    assert shown == exported, f"runs.csv {dict(shown)}, the export and the discard {dict(exported)}"
    assert sum(int(row[-1]) for row in runs[1:]) == len(export) + 1 == walked.counted_with_it, (
        "the discarded run is counted as something else, or another run appeared")

    funnel = dashboard_csv(server, "funnel")
    assert funnel[0][:3] == ["Step", "Reached", "Stopped here"], funnel[0]
    steps = {row[0]: row for row in funnel[1:]}
    assert int(funnel[1][1]) == len(export), f"{funnel[1][0]} reached by {funnel[1][1]} of {len(export)} runs"
    unfinished = Counter(STATUS_LABELS[row["status"]] for row in export if row["status"] != "completed")
    assert sum(int(row[2]) for row in funnel[1:]) == sum(unfinished.values()), funnel
    for column, label in enumerate(funnel[0][3:], start=3):
        status = label.removeprefix("Stopped here: ")
        assert sum(int(row[column]) for row in funnel[1:]) == unfinished[status], (label, funnel)
    assert steps["thanks"][1] == str(Counter(row["status"] for row in export)["completed"]), steps["thanks"]


# --- 2. axe and the Nu checker ------------------------------------------------------------

DASHBOARD_PAGES = [("the list", "/dashboard", 200),
                   ("wellbeing-check", "/dashboard/wellbeing-check", 200),
                   ("every-format", f"/dashboard/{SURVEY}", 200),
                   ("a filter it cannot read", f"/dashboard/{SURVEY}?from=yesterday", 400)]


def test_axe_on_the_dashboard_signed_in_through_the_preview(server, walked, chromium_js, artifacts):
    driver = chromium_js
    sign_in(driver, server)
    findings = []
    for what, path, _ in DASHBOARD_PAGES:
        driver.get(server.url + path)
        assert driver.current_url == server.url + path, f"{path}: went to {driver.current_url}"
        assert driver.find_elements(By.CSS_SELECTOR, "main h1"), f"{path}: no heading: {driver.title}"
        findings += axe_findings(driver, what)
    error = driver.find_element(By.ID, "from-error").text
    assert "Enter a date" in error and driver.title.startswith("Error: "), (driver.title, error)
    assert "from-error" in driver.find_element(By.ID, "from").get_attribute("aria-describedby")
    report(findings, artifacts, "dashboard")


def test_dashboard_pages_are_valid_html(server, walked, tmp_path, artifacts):
    client = signed_in_http(server)
    pages = []
    for what, path, expected in DASHBOARD_PAGES:
        status, body, url = client.get(path)
        assert status == expected and url == server.url + path, f"{path}: {status} at {url}, wanted {expected}"
        pages.append((what, url, status, body))
    assert b'id="from-error"' in pages[-1][3] and b'value="yesterday"' in pages[-1][3], "no error beside the field"
    check_with_vnu(pages, tmp_path, artifacts, "dashboard")


# --- 3. 320 px, titles and tables ---------------------------------------------------------

def test_the_dashboard_reflows_at_320_px_and_names_every_chart(server, walked, chromium):
    driver = chromium
    sign_in(driver, server)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": 640, "deviceScaleFactor": 1, "mobile": False})
    driver.get(f"{server.url}/dashboard/{SURVEY}")
    assert driver.execute_script("return window.innerWidth") == WIDTH
    assert overflow(driver) is None, f"the dashboard is wider than {WIDTH} px: {overflow(driver)}"

    sections = driver.find_elements(By.CSS_SELECTOR, "section.dashboard-chart")
    assert len(sections) == 3 + len(survey_questions()), f"{len(sections)} charts"
    problems, pictures = [], 0
    for section in sections:
        name = section.get_attribute("id")
        tables = section.find_elements(By.CSS_SELECTOR, ".dashboard-chart__table table")
        if not tables or not tables[0].find_elements(By.CSS_SELECTOR, "caption") \
                or not tables[0].find_elements(By.CSS_SELECTOR, "tbody tr"):
            problems.append(f"{name}: no table with a caption and rows beside the chart")
        for svg in section.find_elements(By.TAG_NAME, "svg"):
            pictures += 1
            labelled_by = svg.get_attribute("aria-labelledby") or ""
            titles = [t for t in svg.find_elements(By.TAG_NAME, "title") if t.get_attribute("id") == labelled_by]
            if not labelled_by or not titles or not titles[0].get_attribute("textContent").strip():
                problems.append(f"{name}: its svg is labelled by {labelled_by!r}, not by a <title> of its own")
            width = svg.rect["x"] + svg.rect["width"]
            if width > WIDTH:
                problems.append(f"{name}: the picture reaches {width} px")
    counted_only = sum(f["type"] in ("text", "email", "location") for f in survey_questions().values())
    assert pictures == len(sections) - counted_only, f"{pictures} pictures for {len(sections)} charts"
    assert not problems, "\n".join(problems)


# --- 4. the downloads ---------------------------------------------------------------------

def test_every_download_parses_as_svg_or_csv(server, walked):
    status, _, page = researcher_get(server, f"/dashboard/{SURVEY}")
    assert status == 200
    links = re.findall(rf'href="(/dashboard/{SURVEY}/[^"]+\.(?:svg|csv))"', page.decode("utf-8"))
    svgs = [link for link in links if link.endswith(".svg")]
    csvs = [link for link in links if link.endswith(".csv")]
    questions = survey_questions()
    assert len(csvs) == 3 + len(questions) and len(svgs) >= 3, links
    for link in svgs:
        status, headers, body = researcher_get(server, link)
        assert status == 200 and headers["Content-Type"].startswith("image/svg+xml"), (link, status, headers["Content-Type"])
        root = ElementTree.fromstring(body)
        assert root.tag == f"{SVG}svg", f"{link}: the root is {root.tag}"
        title = root.find(f"{SVG}title")
        assert title is not None and title.text, f"{link}: no title"
    for link in csvs:
        table = dashboard_csv(server, link.removeprefix(f"/dashboard/{SURVEY}/").removesuffix(".csv"))
        assert len(table) >= 2, f"{link}: {table}"
    # A question only counted has no picture.
    for key, answer_format in questions.items():
        if answer_format["type"] in ("text", "email", "location"):
            assert f"/dashboard/{SURVEY}/questions/{key}.svg" not in svgs
            status, _, _ = researcher_get(server, f"/dashboard/{SURVEY}/questions/{key}.svg")
            assert status == 404, f"{key}.svg: {status}"
