"""Where a participant's run of a survey starts and where it ends, for every suite that walks
the examples.

A survey that declares `parameters` (docs/panels.md) is opened by a link that names each of them:
without a required one the server answers 400 and starts no run. The start address here gives
each declared parameter an example value that its pattern and maxLength take. A run ends on the
done page; a survey that sends its participants back to a panel (a completion or screen-out
redirect) ends instead on the return page, whose refresh leads at once to the panel's address."""
from __future__ import annotations

import json
import re
import urllib.parse
from pathlib import Path

from support.server import EXAMPLES_DIR

# Tried in turn for each declared parameter: the first its pattern matches whole, and not too long.
EXAMPLE_VALUES = ("P1e2e", "1", "a", "A")
DEFAULT_MAX_LENGTH = 100


def survey_document(survey_id: str, surveys: Path = EXAMPLES_DIR) -> dict | None:
    """The survey file `surveys/<id>.json` read, or None when that folder has no such file (a
    survey a test writes into a folder of its own)."""
    path = Path(surveys) / f"{survey_id}.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def example_value(declared: dict) -> str:
    """A value the declared parameter takes: its pattern matches the whole of it, within its maxLength."""
    pattern = declared.get("pattern")
    longest = declared.get("maxLength", DEFAULT_MAX_LENGTH)
    try:
        takes = re.compile(pattern).fullmatch if pattern is not None else (lambda value: True)
    except re.error as error:   # ICU syntax that Python's re does not read
        raise AssertionError(f"parameter {declared['name']!r}: its pattern {pattern!r} cannot be tried here ({error})") from None
    for value in EXAMPLE_VALUES:
        if len(value) <= longest and takes(value):
            return value
    raise AssertionError(f"parameter {declared['name']!r}: none of {EXAMPLE_VALUES} matches its pattern "
                         f"{pattern!r} within {longest} characters; add a value to support/links.py")


def link_parameters(survey_id: str, surveys: Path = EXAMPLES_DIR) -> dict[str, str]:
    """{name: value} for every parameter the survey declares, as a panel's link gives them."""
    survey = survey_document(survey_id, surveys) or {}
    return {declared["name"]: example_value(declared) for declared in survey.get("parameters", [])}


def start_path(survey_id: str, surveys: Path = EXAMPLES_DIR, query: str = "") -> str:
    """The address (a path) that starts a run of the survey: /surveys/<id>, with its parameters
    percent-encoded, then `query` ("?lang=es" or "lang=es") if given."""
    parts = []
    parameters = link_parameters(survey_id, surveys)
    if parameters:
        parts.append(urllib.parse.urlencode(parameters, quote_via=urllib.parse.quote))
    if query.lstrip("?"):
        parts.append(query.lstrip("?"))
    return f"/surveys/{survey_id}" + ("?" + "&".join(parts) if parts else "")


def done_path(survey_id: str) -> str:
    """The page a finished run shows the browser that finished it."""
    return f"/surveys/{survey_id}/done"


def sends_back(survey_id: str, surveys: Path = EXAMPLES_DIR) -> bool:
    """Whether the survey sends a finished participant back to a panel's address."""
    survey = survey_document(survey_id, surveys) or {}
    return bool(survey.get("completionRedirect") or survey.get("screenOutRedirect"))


def run_ended(url: str) -> bool:
    """Whether an address of this server is where a run ends: the done page, or the return page
    that sends the participant on to a panel."""
    return re.search(r"/surveys/[^/]+/(done|return)$", urllib.parse.urlsplit(url).path.rstrip("/")) is not None
