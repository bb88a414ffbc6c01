"""Surveys in German, French and Arabic for the checkers, and the answers a participant in each
language types into them.

No example declares German or French, so a folder is written for them:
- sleep-ar (Tests/Fixtures/rtl/sleep-ar.json) with a German and a French text next to each of
  its Arabic and English texts, so every word on its pages is in the page's language;
- every-format (Examples/every-format.json) listing the five languages the server has words
  for: its own texts stay English (plain strings), the server's words around every format
  follow the language.
A page is asked for in a language with `?lang=` on the first address of a run; the run keeps it."""
from __future__ import annotations

import json
from pathlib import Path

from support import EXAMPLES_DIR, ROOT, field_values
from support.expectations import load_answers

OTHER_LANGUAGES = ["de", "fr", "ar"]
LANGUAGE_SURVEYS = ["sleep-ar", "every-format"]

SLEEP = ROOT / "Tests" / "Fixtures" / "rtl" / "sleep-ar.json"

# The English texts of sleep-ar, in German and in French.
SLEEP_TRANSLATIONS = {
    "Sleep and health questionnaire": ("Fragebogen zu Schlaf und Gesundheit", "Questionnaire sur le sommeil et la santé"),
    "About your sleep": ("Über Ihren Schlaf", "À propos de votre sommeil"),
    "We ask a few questions about your sleep last week.": (
        "Wir stellen Ihnen einige Fragen zu Ihrem Schlaf in der letzten Woche.",
        "Nous vous posons quelques questions sur votre sommeil de la semaine dernière."),
    "Did you sleep well last night?": ("Haben Sie letzte Nacht gut geschlafen?", "Avez-vous bien dormi la nuit dernière\u00a0?"),
    "Yes": ("Ja", "Oui"),
    "No": ("Nein", "Non"),
    "Your last night": ("Ihre letzte Nacht", "Votre dernière nuit"),
    "How many hours did you sleep?": ("Wie viele Stunden haben Sie geschlafen?", "Combien d’heures avez-vous dormi\u00a0?"),
    "Since when have you slept like this?": ("Seit wann schlafen Sie so?", "Depuis quand dormez-vous ainsi\u00a0?"),
    "What woke you in the night?": ("Was hat Sie in der Nacht geweckt?", "Qu’est-ce qui vous a réveillé pendant la nuit\u00a0?"),
    "Noise": ("Lärm", "Le bruit"),
    "Heat or cold": ("Hitze oder Kälte", "La chaleur ou le froid"),
    "Pain": ("Schmerzen", "Une douleur"),
    "Any pain in the body": ("Schmerzen irgendwo im Körper", "Une douleur quelque part dans le corps"),
    "Nothing": ("Nichts", "Rien"),
    "Is there anything you want to add?": ("Möchten Sie noch etwas hinzufügen?", "Voulez-vous ajouter quelque chose\u00a0?"),
    "Thank you": ("Vielen Dank", "Merci"),
    "Your answers are saved.": ("Ihre Antworten sind gespeichert.", "Vos réponses sont enregistrées."),
}

SLEEP_NOTES = {
    "de": "Im Sommer wache ich früh auf.",
    "fr": "En été, je me réveille tôt.",
    "ar": "\u0623\u0633\u062a\u064a\u0642\u0638 \u0645\u0628\u0643\u0631\u064b\u0627 \u0641\u064a \u0627\u0644\u0635\u064a\u0641.",
}


def _translated(value):
    """Every localized text ({"ar": ..., "en": ...}) of the survey with "de" and "fr" added."""
    if isinstance(value, list):
        return [_translated(item) for item in value]
    if not isinstance(value, dict):
        return value
    if "en" in value and "ar" in value and all(isinstance(text, str) for text in value.values()):
        german, french = SLEEP_TRANSLATIONS[value["en"]]     # a new text in the fixture needs its translation here
        return {**value, "de": german, "fr": french}
    return {key: _translated(item) for key, item in value.items()}


def write_language_surveys(folder: Path) -> Path:
    """The two surveys, in a folder of their own for `survey serve --surveys`."""
    folder.mkdir(parents=True, exist_ok=True)
    sleep = _translated(json.loads(SLEEP.read_text(encoding="utf-8")))
    sleep["languages"] = ["ar", "en", "de", "fr"]
    (folder / "sleep-ar.json").write_text(json.dumps(sleep, ensure_ascii=False, indent=1), encoding="utf-8")
    every = json.loads((EXAMPLES_DIR / "every-format.json").read_text(encoding="utf-8"))
    every = {"languages": ["en", "es", "de", "fr", "ar"], **every}
    (folder / "every-format.json").write_text(json.dumps(every, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder


def typed(text: str, language: str) -> str:
    """A number as a participant in `language` types it: "2,5" in German and French."""
    if language in ("de", "fr") and text.replace(".", "", 1).isdigit() and "." in text:
        return text.replace(".", ",")
    return text


def answers_in(survey_id: str, language: str) -> dict:
    """{field name: value} that a participant reading `language` gives on every page."""
    if survey_id == "sleep-ar":
        return {"slept-well": "false", "hours": typed("6.5", language),
                "since.day": "15", "since.month": "3", "since.year": "2025",
                "disturbances": ["noise", "pain"], "notes": SLEEP_NOTES[language]}
    return {name: typed(value, language) if isinstance(value, str) else value
            for name, value in field_values(load_answers(survey_id)).items()}
