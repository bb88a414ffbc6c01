"""Informed consent end to end, on the built server: a participant signs with scripts off and
with them on (drawing the signature), in English and in Arabic, certifies, and downloads the
signed PDF, which pdftotext reads (the name, the version, the sections, Arabic in logical
order) and qpdf checks; the kept SHA-256 is the hash of those bytes. Disagree ends the run as
declined; staff countersign on a kiosk (behind its PIN) and through the API; the participant
withdraws with the code and with the link; the R4 Consent validates with fhir.resources. The
consent pages that the example walks do not reach are checked by the Nu checker and axe, and
the signing page with its pad at 320 px."""
from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
import subprocess
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from checkers import assert_valid_pages, axe_findings, format_findings
from fhir_walks import TOKEN, api
from support import EXAMPLES_DIR, Http
from support.http import StepForm
from support.tools import need
from survey_pages import press, type_into

SURVEY = "study-consent"
PIN = "135791"
NAME = {"en": ("Ana", "García Núñez"), "ar": ("سلمى", "الحداد")}
# Words the copy must hold, in the order a reader meets them: the document's title, a section's
# text, and the version.
DOCUMENT = json.loads((EXAMPLES_DIR / f"{SURVEY}.json").read_text(encoding="utf-8"))["consentDocument"]


def plain(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def comparable(text: str) -> str:
    """Text as pdftotext and the survey file can both be compared in: no spaces (poppler splits
    Arabic words at marks and puts spaces in a smaller font's runs), no Arabic marks (tanwīn,
    shadda), and each lam-alef ligature's two letters in the order poppler writes them (it
    swaps them: لأ comes out as أل)."""
    text = re.sub(r"[\s\u064b-\u065f\u0670]", "", text)
    return re.sub(r"ل([اأإآ])", r"\1ل", text)


@pytest.fixture(scope="module")
def consent_server(start_server):
    return start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN, "--kiosk-pin", PIN))


# --- helpers ---------------------------------------------------------------------------------

def pdf_text(data: bytes, tmp_path) -> str:
    need(shutil.which("pdftotext") and shutil.which("qpdf"), "poppler-utils and qpdf")
    path = tmp_path / "copy.pdf"
    path.write_bytes(data)
    check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True, timeout=60, check=True).stdout
    # pdftotext marks each right-to-left line and each left-to-right run in it with embedding marks.
    return re.sub("[\u202a-\u202e]", "", text)


def browser_get(driver, url: str) -> tuple[int, dict, bytes]:
    """GET with the browser's cookies (the copy is a download, which headless Chromium keeps
    out of reach): the status, headers and bytes."""
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in driver.get_cookies())
    request = urllib.request.Request(url, headers={"Cookie": cookies})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers), response.read()


def sign_in_browser(driver, base: str, language: str, draw: bool) -> None:
    """Walks the study consent to its end page in `driver`: every section page, sharing broadly,
    the typed names (and a drawing), Agree, then certification."""
    driver.get(f"{base}/surveys/{SURVEY}?lang={language}")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("dir") == ("rtl" if language == "ar" else "ltr")
    for _ in range(6):
        assert driver.find_elements(By.CSS_SELECTOR, "details.details"), driver.title
        press(driver, "next")
    driver.find_element(By.CSS_SELECTOR, "input[name='sharing'][value='true']").click()
    press(driver, "next")
    pad = driver.find_element(By.CSS_SELECTOR, ".signature-pad")
    canvases = pad.find_elements(By.TAG_NAME, "canvas")
    if draw:
        assert pad.is_displayed() and canvases, "with scripts on the pad shows"
        canvas = canvases[0]
        ActionChains(driver).move_to_element_with_offset(canvas, -60, 0).click_and_hold() \
            .move_by_offset(30, 15).move_by_offset(30, -25).move_by_offset(40, 20).release().perform()
        assert driver.find_element(By.NAME, "signatureDrawing").get_attribute("value").startswith("M")
    else:
        assert not pad.is_displayed() and not canvases, "with scripts off the pad stays hidden and empty"
    given, family = NAME[language]
    type_into(driver.find_element(By.ID, "givenName"), given)
    type_into(driver.find_element(By.ID, "familyName"), family)
    press(driver, "next")
    shown = driver.find_element(By.TAG_NAME, "main").text
    assert given in shown and family in shown, "the certification page shows what was entered"
    assert bool(driver.find_elements(By.CSS_SELECTOR, "svg.signature-drawing path")) == draw
    press(driver, "next")
    assert driver.current_url.endswith(f"/surveys/{SURVEY}/done"), driver.current_url


def post_json(server, path: str, payload: dict) -> tuple[int, dict]:
    """POST JSON to an API path with the bearer token: the status and the JSON body."""
    request = urllib.request.Request(server.url + path, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def run_id_of(driver, base: str) -> str:
    _, _, body = browser_get(driver, f"{base}/surveys/{SURVEY}/result.json")
    return json.loads(body)["taskRunUUID"]


def walk_http(client: Http, base: str, prefix: str = "/surveys") -> tuple[bytes, str]:
    """A participant over raw HTTP up to the review's signing page: (page, url)."""
    status, page, url = client.get(f"{prefix}/{SURVEY}")
    for _ in range(6):
        status, page, url = client.post_form(page, url, {})
    status, page, url = client.post_form(page, url, {"sharing": "false"})
    assert b'name="givenName"' in page, page[:500]
    return page, url


def sign_http(client: Http, page: bytes, url: str) -> tuple[int, bytes, str]:
    status, page, url = client.post_form(page, url, {"givenName": "Ines", "familyName": "Okafor"})
    assert b'value="1"' in page and b"Okafor" in page, "the certification page"
    return client.post_form(page, url, {})


# --- signing -----------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("scripts", [False, True], ids=["scripts-off", "scripts-on"])
def test_a_participant_signs_certifies_and_downloads_the_copy(consent_server, chromium, chromium_js, language, scripts, tmp_path):
    driver = chromium_js if scripts else chromium
    base = consent_server.url
    sign_in_browser(driver, base, language, draw=scripts)
    link = driver.find_element(By.CSS_SELECTOR, "a[href$='/consent.pdf']")
    status, headers, data = browser_get(driver, link.get_attribute("href"))
    assert status == 200 and headers["Content-Type"] == "application/pdf" and headers["Cache-Control"] == "no-store"
    assert data.startswith(b"%PDF-")
    text = pdf_text(data, tmp_path)
    given, family = NAME[language]
    flat = comparable(text)
    assert comparable(f"{given} {family}") in flat
    # The version is isolated left to right in an Arabic line; pdftotext moves its closing
    # bracket, a neutral at the isolate's edge, to where it is drawn.
    assert DOCUMENT["version"].rstrip(")") in text
    # Logical order: the title's words as they were written, before the sections. Each of a
    # section's words is there as written too; pdftotext may split a line of Arabic where a
    # mark sits at its end, so the words are looked for one by one, not as a run.
    title = comparable(plain(DOCUMENT["title"][language]))
    section = plain(DOCUMENT["sections"][2]["content"][language])
    # Words with a mark (tanwīn, shadda) are left out: pdftotext may cut such a word in two.
    words = [comparable(word) for word in re.findall(r"[^\s.,،()]{4,}", section) if not re.search(r"[\u064b-\u065f]", word)][:12]
    assert title in flat, text[:800]
    missing = [word for word in words if word not in flat[flat.index(title):]]
    assert not missing, f"{missing} not in the copy after its title:\n{text[:1500]}"
    run_id = run_id_of(driver, base)
    assert run_id in text, "the run's identifier is in the footer"
    _, summary = api(consent_server, f"/api/v1/runs/{run_id}")
    assert summary["consent"]["copySHA256"] == hashlib.sha256(data).hexdigest(), "the kept hash is the hash of the copy"
    # The copy was made once: the API serves the same bytes.
    request = urllib.request.Request(f"{base}/api/v1/runs/{run_id}/consent.pdf", headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.read() == data
    _, full = api(consent_server, f"/api/v1/runs/{run_id}?includeIdentifiers=1")
    review = next(step for step in full["result"]["results"] if step["identifier"] == "review")
    drawing = next(result for result in review["results"] if result["identifier"] == "signatureDrawing")
    assert ("textAnswer" in drawing) == scripts
    if scripts:
        assert re.fullmatch(r"M\d+ \d+( [ML]\d+ \d+)*", drawing["textAnswer"]), drawing["textAnswer"]


def test_only_the_signing_page_allows_a_script(consent_server):
    client = Http(consent_server.url)
    page, url = walk_http(client, consent_server.url)
    status, headers, _, _ = client.request(f"/surveys/{SURVEY}")
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    assert headers.get_all("Content-Security-Policy") == [headers["Content-Security-Policy"]], "one policy"
    status, certify, url = client.post_form(page, url, {"givenName": "A", "familyName": "B"})
    status, headers, _, _ = client.request(f"/surveys/{SURVEY}")
    assert "script-src" not in headers["Content-Security-Policy"], "the certification page runs no script"


def post_drawing(client: Http, page: bytes, url: str, fields: dict, drawing: str) -> tuple[int, bytes]:
    """The signing page sent as the pad's script sends it: its hidden drawing field filled in."""
    data = [(name, value) for name, value in StepForm(page).hidden.items() if name != "signatureDrawing"]
    data += list(fields.items()) + [("signatureDrawing", drawing), ("_action", "next")]
    status, _, body, _ = client.request(url, data)
    return status, body


def test_a_drawing_the_server_cannot_read_comes_back_with_the_names_kept(consent_server):
    client = Http(consent_server.url)
    page, url = walk_http(client, consent_server.url)
    status, page = post_drawing(client, page, url, {"givenName": "Ana", "familyName": "Ruiz"}, "M700 20 L1 1")
    assert status == 422
    assert b"could not be read" in page and b'value="Ruiz"' in page


def test_disagree_ends_the_run_as_declined(consent_server):
    client = Http(consent_server.url)
    page, url = walk_http(client, consent_server.url)
    status, page, url = client.post_form(page, url, {"givenName": "Not kept"}, action="decline")
    assert status == 200 and url.endswith("/done")
    assert b"You chose not to take part" in page
    status, _, body, _ = client.request(f"/surveys/{SURVEY}/result.json")
    result = json.loads(body)
    assert result["finishReason"] == "declined"
    assert "Not kept" not in body.decode()
    status, _, _, _ = client.request(f"/surveys/{SURVEY}/consent.pdf")
    assert status == 404
    _, listed = api(consent_server, f"/api/v1/runs?survey={SURVEY}&status=declined")
    assert result["taskRunUUID"] in [run["id"] for run in listed["runs"]]


# --- countersignature, the kiosk's copy code, withdrawal -----------------------------------------

def test_staff_countersign_on_the_kiosk_and_the_participant_fetches_the_copy_elsewhere(consent_server, tmp_path):
    base = consent_server.url
    kiosk = Http(base)
    status, page, url = kiosk.get(f"/kiosk/{SURVEY}")
    status, page, url = kiosk.post_form(page, f"{base}/kiosk/{SURVEY}/setup", {"pin": PIN}, action=None)
    status, page, url = kiosk.post_form(page, f"{base}/kiosk/{SURVEY}/start", {"lang": "en"}, action=None)
    for _ in range(6):
        status, page, url = kiosk.post_form(page, url, {})
    status, page, url = kiosk.post_form(page, url, {"sharing": "true"})
    status, done, url = sign_http(kiosk, page, url)
    assert url.endswith(f"/kiosk/{SURVEY}/done"), url
    assert b"consent.pdf" not in done, "the tablet never offers the copy itself"
    code = re.search(rb'<p class="resume-code">([A-Z0-9]{4} [A-Z0-9]{4})</p>', done).group(1).decode()
    # Staff press Countersign, then send a wrong PIN, then the right one with their name.
    status, form, url = kiosk.post_form(done, f"{base}/kiosk/{SURVEY}/countersign", {}, action=None)
    assert status == 200 and b'name="pin"' in form
    status, wrong, url = kiosk.post_form(form, url, {"pin": "000000", "name": "Dr Mensah"}, action=None)
    assert status == 422
    status, signed, url = kiosk.post_form(wrong, url, {"pin": PIN, "name": "Dr Mensah"}, action=None)
    assert status == 200 and b"countersigned" in signed
    # On the participant's own phone: the copy with both signatures.
    phone = Http(base)
    status, page, url = phone.get("/copy")
    status, headers, data, _ = phone.request("/copy", list(StepForm(page).hidden.items()) + [("code", code.lower().replace(" ", "-"))])
    assert status == 200 and headers["Content-Type"] == "application/pdf"
    text = pdf_text(data, tmp_path)
    assert "Ines Okafor" in text and "Dr Mensah" in text
    run_id = re.search(r"run ([0-9a-f-]{36})", " ".join(text.split())).group(1)
    _, summary = api(consent_server, f"/api/v1/runs/{run_id}")
    assert summary["consent"]["countersignature"]["copySHA256"] == hashlib.sha256(data).hexdigest()
    status, again, _ = kiosk.post_form(signed, f"{base}/kiosk/{SURVEY}/countersign", {}, action=None)
    assert b'name="pin"' not in again, "no second countersignature"


def test_staff_countersign_through_the_api(consent_server):
    client = Http(consent_server.url)
    page, url = walk_http(client, consent_server.url)
    sign_http(client, page, url)
    status, _, body, _ = client.request(f"/surveys/{SURVEY}/result.json")
    run_id = json.loads(body)["taskRunUUID"]
    status, refused = post_json(consent_server, f"/api/v1/runs/{run_id}/countersign", {"name": " "})
    assert status == 400, refused
    status, signed = post_json(consent_server, f"/api/v1/runs/{run_id}/countersign", {"name": "R. Staff", "language": "es"})
    assert status == 200 and signed["consent"]["countersignature"]["name"] == "R. Staff"
    status, again = post_json(consent_server, f"/api/v1/runs/{run_id}/countersign", {"name": "Again"})
    assert status == 409, again


@pytest.mark.parametrize("way", ["code", "link"])
def test_a_participant_withdraws_and_every_door_says_so(consent_server, way):
    client = Http(consent_server.url)
    page, url = walk_http(client, consent_server.url)
    status, done, url = sign_http(client, page, url)
    status, _, body, _ = client.request(f"/surveys/{SURVEY}/result.json")
    run_id = json.loads(body)["taskRunUUID"]
    phone = Http(consent_server.url)
    if way == "code":
        code = re.search(rb'<p class="resume-code">([A-Z0-9]{4} [A-Z0-9]{4})</p>', done).group(1).decode()
        status, form, url = phone.get("/withdraw")
        status, wrong, url = phone.post_form(form, url, {"code": "AAAA-AAAA"}, action=None)
        assert status == 422
        status, gone, url = phone.post_form(wrong, url, {"code": code}, action=None)
    else:
        link = re.search(rb'href="(http[^"]+/withdraw/[^"]+)"', done).group(1).decode()
        status, form, url = phone.get(link)
        assert status == 200 and b"withdraw" in form.lower()
        status, gone, url = phone.post_form(form, link, {}, action=None)
    assert status == 200 and b"You have withdrawn your consent" in gone
    _, summary = api(consent_server, f"/api/v1/runs/{run_id}")
    assert summary["consent"]["withdrawnAt"]
    _, consent = api(consent_server, f"/api/v1/runs/{run_id}?format=fhir-consent")
    assert consent["status"] == "inactive"
    request = urllib.request.Request(f"{consent_server.url}/api/v1/surveys/{SURVEY}/export?format=csv",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        rows = response.read().decode().splitlines()
    header = rows[0].split(",")
    row = next(line.split(",") for line in rows if line.startswith(run_id))
    assert row[header.index("consent_withdrawn_at")]
    # The code and the link work once.
    status, again, _ = phone.get(f"/withdraw")
    status, refused, _ = phone.post_form(again, f"{consent_server.url}/withdraw", {"code": "ZZZZ-ZZZZ"}, action=None)
    assert status == 422


def test_the_consent_is_a_valid_r4_consent_with_its_copy_inline(consent_server):
    from fhir.resources.R4B import get_fhir_model_class
    client = Http(consent_server.url)
    page, url = walk_http(client, consent_server.url)
    sign_http(client, page, url)
    status, _, body, _ = client.request(f"/surveys/{SURVEY}/result.json")
    run_id = json.loads(body)["taskRunUUID"]
    content_type, consent = api(consent_server, f"/api/v1/runs/{run_id}?format=fhir-consent")
    assert content_type.startswith("application/fhir+json")
    get_fhir_model_class("Consent").model_validate(consent)
    assert consent["status"] == "active" and consent["scope"]["coding"][0]["code"] == "research"
    attachment = consent["sourceAttachment"]
    data = base64.b64decode(attachment["data"])
    assert attachment["contentType"] == "application/pdf" and attachment["size"] == len(data)
    assert base64.b64decode(attachment["hash"]) == hashlib.sha1(data).digest()
    assert attachment["extension"][0]["valueString"] == hashlib.sha256(data).hexdigest()
    assert consent["provision"]["type"] == "permit" and consent["provision"]["provision"][0]["type"] == "deny"


# --- the pages the example walk does not reach -----------------------------------------------------

def extra_pages(base: str) -> list[tuple[str, bytes]]:
    pages = []
    client = Http(base)
    page, url = walk_http(client, base)
    status, error = post_drawing(client, page, url, {"givenName": ""}, "L1")
    pages.append(("signing page with errors", error))
    status, declined, _ = client.post_form(error, url, {}, action="decline")
    pages.append(("declined", declined))
    for path in ("/copy", "/withdraw"):
        status, form, _ = client.get(path)
        pages.append((path, form))
        status, wrong, _ = client.post_form(form, base + path, {"code": "AAAA"}, action=None)
        pages.append((path + " with an error", wrong))
    kiosk = Http(base)
    status, page, url = kiosk.get(f"/kiosk/{SURVEY}")
    status, page, url = kiosk.post_form(page, f"{base}/kiosk/{SURVEY}/setup", {"pin": PIN}, action=None)
    status, page, url = kiosk.post_form(page, f"{base}/kiosk/{SURVEY}/start", {"lang": "ar"}, action=None)
    for _ in range(6):
        status, page, url = kiosk.post_form(page, url, {})
    status, page, url = kiosk.post_form(page, url, {"sharing": "true"})
    status, done, url = sign_http(kiosk, page, url)
    pages.append(("kiosk end page", done))
    status, form, url = kiosk.post_form(done, f"{base}/kiosk/{SURVEY}/countersign", {}, action=None)
    pages.append(("countersignature form", form))
    status, wrong, url = kiosk.post_form(form, url, {"pin": PIN, "name": ""}, action=None)
    pages.append(("countersignature form with an error", wrong))
    return pages


def test_the_other_consent_pages_are_valid_html(consent_server, tmp_path, artifacts):
    pages = extra_pages(consent_server.url)
    assert_valid_pages([body for _, body in pages], tmp_path, artifacts, "consent")


def test_axe_on_the_signing_page_with_its_pad_and_no_sideways_scroll_at_320_px(consent_server, chromium_js, artifacts):
    driver = chromium_js
    findings = []
    for language in ("en", "ar"):
        driver.get(f"{consent_server.url}/surveys/{SURVEY}?lang={language}")
        driver.delete_all_cookies()
        driver.get(f"{consent_server.url}/surveys/{SURVEY}?lang={language}")
        for _ in range(6):
            press(driver, "next")
        driver.find_element(By.CSS_SELECTOR, "input[name='sharing'][value='false']").click()
        press(driver, "next")
        assert driver.find_elements(By.CSS_SELECTOR, ".signature-pad canvas")
        findings += axe_findings(driver, f"signing page with its pad ({language})")
        driver.set_window_size(320, 800)
        try:
            width = driver.execute_script("return document.documentElement.scrollWidth")
            assert width <= 320, f"{language}: the signing page is {width} px wide at 320"
        finally:
            driver.set_window_size(1280, 900)
    for path in ("/copy", "/withdraw"):
        driver.get(consent_server.url + path)
        findings += axe_findings(driver, path)
    # Disagree's page, from the signing page the loop left open.
    driver.get(f"{consent_server.url}/surveys/{SURVEY}")
    press(driver, "decline")
    assert "/done" in driver.current_url
    findings += axe_findings(driver, "declined")
    (artifacts / "axe-consent.json").write_text(json.dumps(findings, indent=1))
    assert not findings, format_findings(findings)


# --- the same machinery for "your answers" ----------------------------------------------------------

def test_a_survey_that_shows_its_answers_offers_them_as_a_pdf(consent_server, tmp_path):
    from fhir_walks import example_values, walk
    client, done, _ = walk(consent_server.url, "wellbeing-check", example_values("wellbeing-check"))
    assert b"/surveys/wellbeing-check/answers.pdf" in done
    status, headers, data, _ = client.request("/surveys/wellbeing-check/answers.pdf")
    assert status == 200 and headers["Content-Type"] == "application/pdf"
    text = comparable(pdf_text(data, tmp_path))
    status, _, page, _ = client.request("/surveys/wellbeing-check/answers")
    # Every answer the answers page shows is in the PDF.
    shown = re.findall(rb'<dd class="summary-list__value">([^<]+)</dd>', page)
    assert len(shown) >= 4
    for answer in shown:
        assert comparable(answer.decode()) in text, answer.decode()
    stranger = Http(consent_server.url)
    status, _, _, _ = stranger.request("/surveys/wellbeing-check/answers.pdf")
    assert status == 404
