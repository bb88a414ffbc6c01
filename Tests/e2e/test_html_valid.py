"""(d) The Nu HTML Checker (vnu.jar, offline) finds no error in the bytes the server sends:
every step page of every example, the step re-rendered with errors (422), the cancel, saved
and done pages, the survey list and the not-found page; and the same in German, French and
Arabic (the surveys of languages.py). The pages are fetched with urllib
(one cookie jar per run), not taken from a browser's DOM, which would hide parse errors."""
import json
import re

import pytest

from checkers import vnu
from support import (EXAMPLES, MAX_PAGES, Http, Repeats, controls_of, done_path, field_values, page_answers,
                     run_ended, start_path)
from support.expectations import load_answers
from languages import LANGUAGE_SURVEYS, OTHER_LANGUAGES, answers_in


def title_of(page: bytes) -> str:
    match = re.search(rb"<title>(.*?)</title>", page, re.S)
    return match.group(1).decode("utf-8", "replace").strip() if match else "?"


def survey_pages(base_url: str, survey_id: str, values: dict, query: str = "") -> list:
    """[(description, url, status, bytes)] of one run to its end: every step page, each page
    with controls submitted empty first (a required question comes back as 422), and the done
    page; a survey that sends participants back to a panel ends on its return page, and its
    done page is fetched after it."""
    pages = []
    client = Http(base_url)
    repeats = Repeats(values)
    status, body, url = client.get(start_path(survey_id, query=query))
    tried_empty = set()
    for _ in range(MAX_PAGES):
        error_page = status == 422
        pages.append((f"{survey_id}: {'error page ' if error_page else ''}{title_of(body)}", url, status, body))
        if run_ended(url):
            if not url.endswith("/done"):
                status, body, url = client.get(done_path(survey_id))
                assert status == 200 and url.endswith("/done"), f"{survey_id}: the done page: {status} at {url}"
                pages.append((f"{survey_id}: done page {title_of(body)}", url, status, body))
            break
        assert status in (200, 422), f"{url}: {status} {title_of(body)}"
        form = controls_of(body)
        names = [n for n in form.controls if not n.startswith("_")]
        key = (title_of(body), form.hidden.get("_page"))
        if names and not error_page and key not in tried_empty:
            tried_empty.add(key)
            # submit empty: a required question comes back as 422 with errors; an optional
            # one moves on
            status, body, url = client.post_form(body, url, {})
            continue
        status, body, url = client.post_form(body, url, page_answers(form, values, repeats))
        assert status == 200, f"{url}: {status} {title_of(body)}"
    else:
        raise AssertionError(f"{survey_id}: no done page")
    return pages


def collect_pages(base_url: str):
    """[(description, url, status, bytes)] of every kind of page a participant meets."""
    pages = []
    client = Http(base_url)
    for kind, path in (("survey list", "/"), ("not found", "/surveys/no-such-survey")):
        status, body, url = client.get(path)
        pages.append((kind, url, status, body))

    for survey_file in EXAMPLES:
        survey_id = survey_file.stem
        pages += survey_pages(base_url, survey_id, field_values(load_answers(survey_id)))

    client = Http(base_url)
    status, body, url = client.get("/surveys/wellbeing-check")
    status, cancel, url = client.post_form(body, url, {}, action="cancel")
    pages.append(("cancel page", url, status, cancel))
    status, body, url = client.get("/surveys/wellbeing-check")
    status, saved, url = client.post_form(body, url, {}, action="save")
    pages.append(("saved page", url, status, saved))
    status, resume, url = client.get("/resume")
    pages.append(("resume form", url, status, resume))
    status, refused, url = client.post_form(resume, url, {"code": "nope"}, action=None)
    pages.append(("resume form with an error", url, status, refused))
    return pages


def check_with_vnu(pages: list, tmp_path, artifacts, name: str):
    """Fail with every error the Nu checker finds in the pages, each with its line."""
    files = {}
    for index, (kind, url, status, body) in enumerate(pages):
        path = tmp_path / f"page-{index:03d}.html"
        path.write_bytes(body)
        files[path.name] = (kind, url, status, body)
    messages = vnu(list(tmp_path.glob("page-*.html")))
    (artifacts / f"vnu-{name}.json").write_text(json.dumps(messages, indent=1))
    errors = [m for m in messages if m["type"] in ("error", "non-document-error")]
    lines = []
    for m in errors:
        kind, url, status, body = files.get(m.get("url", "").rsplit("/", 1)[-1], ("?", "?", "?", b""))
        source = body.decode("utf-8", "replace").splitlines()
        line = m.get("lastLine")
        snippet = source[line - 1].strip()[:200] if line and line <= len(source) else m.get("extract", "")
        lines.append(f"- {kind} <{url}> ({status}) line {line}: {m['message']}\n    {snippet}")
    if errors:
        pytest.fail(f"vnu found {len(errors)} error(s) in {len(pages)} pages:\n" + "\n".join(lines), pytrace=False)


def test_served_pages_are_valid_html(base_url, tmp_path, artifacts):
    pages = collect_pages(base_url)
    kinds = " ".join(kind for kind, *_ in pages)
    assert "error page" in kinds and "/done" in " ".join(url for _, url, *_ in pages)
    check_with_vnu(pages, tmp_path, artifacts, "messages")


def html_language(page: bytes) -> str:
    match = re.search(rb"<html[^>]*\blang=\"([^\"]*)\"", page)
    return match.group(1).decode() if match else "?"


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_pages_in_german_french_and_arabic_are_valid_html(language_server, language, tmp_path, artifacts):
    """Both surveys of languages.py walked in the language (each page with controls submitted
    empty first), and the not-found, cancel, saved and resume pages in it."""
    base_url = language_server.url
    query = f"?lang={language}"
    pages = []
    for survey_id in LANGUAGE_SURVEYS:
        pages += survey_pages(base_url, survey_id, answers_in(survey_id, language), query)
    client = Http(base_url)
    status, body, url = client.get(f"/surveys/no-such-survey{query}")
    pages.append(("not found", url, status, body))
    status, body, url = client.get(f"/surveys/sleep-ar{query}")
    status, cancel, url = client.post_form(body, url, {}, action="cancel")
    pages.append(("cancel page", url, status, cancel))
    client = Http(base_url)
    status, body, url = client.get(f"/surveys/sleep-ar{query}")
    status, saved, url = client.post_form(body, url, {}, action="save")
    pages.append(("saved page", url, status, saved))
    status, resume, url = client.get(f"/resume{query}")
    pages.append(("resume form", url, status, resume))
    status, refused, url = client.post_form(resume, url, {"code": "nope"}, action=None)
    pages.append(("resume form with an error", url, status, refused))
    statuses = [status for _, _, status, _ in pages]
    assert statuses.count(422) >= 3 and statuses.count(404) == 1, statuses
    assert sum(url.endswith("/done") for _, url, *_ in pages) == len(LANGUAGE_SURVEYS)
    wrong = [(kind, html_language(body)) for kind, _, _, body in pages if html_language(body) != language]
    assert not wrong, f"pages not in {language}: {wrong}"
    check_with_vnu(pages, tmp_path, artifacts, language)


def test_vnu_really_runs_and_reports(tmp_path):
    """Guard: the same checker finds the faults of a known-invalid page."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html lang=en><title>x</title><img src=a.png><p><span>open</p>")
    text = " ".join(m["message"] for m in vnu([bad]) if m["type"] == "error")
    assert "must have an “alt” attribute" in text and "Unclosed element “span”" in text, text
