"""The clinic check-in example as a showroom: one survey in all five catalog languages, each page
in its language and direction, and a kiosk start screen with a Start per language, the whole
turn answerable in Arabic."""

import html
import json
import re

import pytest

from support import EXAMPLES_DIR, Http, Server

SURVEY = "clinic-check-in"
PIN = "482913"
LANGUAGES = ["en", "es", "de", "fr", "ar"]
# What each language's first page must say, written here rather than read from the file.
WELCOME = {"en": "Welcome", "es": "Bienvenido", "de": "Willkommen", "fr": "Bienvenue", "ar": "أهلاً وسهلاً"}
ARABIC_REASON = "ما سبب زيارتك اليوم؟"
ARABIC_NEW_PROBLEM = "مشكلة صحية جديدة"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    started = Server(EXAMPLES_DIR, tmp_path_factory.mktemp("showroom-data"), ("--kiosk-pin", PIN)).start()
    yield started
    started.stop()


@pytest.fixture(scope="module")
def survey():
    return json.loads((EXAMPLES_DIR / f"{SURVEY}.json").read_text(encoding="utf-8"))


def root_element(body: bytes) -> str:
    found = re.search(rb"<html[^>]*>", body)
    assert found, body[:300]
    return found.group(0).decode()


def text_of(body: bytes) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", body.decode("utf-8")))


def test_the_example_declares_every_catalog_language(survey):
    assert survey["languages"] == LANGUAGES
    for step in survey["steps"]:
        assert sorted(step["title"]) == sorted(LANGUAGES), step["identifier"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_gets_its_own_words_and_direction(server, language):
    status, body, _ = Http(server.url).get(f"/surveys/{SURVEY}?lang={language}")
    assert status == 200
    root = root_element(body)
    assert f'lang="{language}"' in root, root
    assert ('dir="rtl"' in root) == (language == "ar"), root
    shown = text_of(body)
    assert WELCOME[language] in shown
    for other, title in WELCOME.items():
        if other != language:
            assert not re.search(rf"\b{title}\b", shown), f"the {other} title on the {language} page"


def test_the_kiosk_offers_a_start_per_language_and_a_turn_in_arabic(server):
    client = Http(server.url)
    status, body, url = client.get(f"/kiosk/{SURVEY}")
    status, body, url = client.post_form(body, f"{server.url}/kiosk/{SURVEY}/setup", {"pin": PIN}, action=None)
    assert status == 200
    starts = re.findall(rb'name="lang"\s+value="([^"]+)"', body) or re.findall(rb'value="([^"]+)"\s+name="lang"', body)
    assert sorted(value.decode() for value in starts) == sorted(LANGUAGES), body.decode()[:2000]
    status, step, url = client.post_form(body, f"{server.url}/kiosk/{SURVEY}/start", {"lang": "ar"}, action=None)
    assert 'dir="rtl"' in root_element(step)
    assert WELCOME["ar"] in text_of(step)
    status, step, url = client.post_form(step, url, {})
    assert ARABIC_REASON in text_of(step)
    assert ARABIC_NEW_PROBLEM in text_of(step)
