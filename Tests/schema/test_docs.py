"""Checks the documentation: every relative link in README.md, docs/, bench/README.md and
deploy/ha/README.md names a file or folder inside the repository (and a `#…` anchor names a
heading of the page it points at), no link leaves the repository except to a web address,
and docs/survey-format.md documents every key of the JSON Schema, every step type and every
answer format."""

import json
import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "schema" / "survey-v1.schema.json"
FORMAT_PAGE = ROOT / "docs" / "survey-format.md"
PAGES = sorted(
    [ROOT / "README.md", ROOT / "bench" / "README.md", ROOT / "deploy" / "ha" / "README.md"]
    + list((ROOT / "docs").glob("*.md"))
)
WEB_SCHEMES = ("http://", "https://", "mailto:")

FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def without_code(text):
    """The page with its fenced blocks and code spans blanked, so examples are not read as links."""
    return CODE_SPAN.sub("``", FENCE.sub("", text))


def links(page):
    """Every link target of a Markdown page, images included, in order."""
    return LINK.findall(without_code(page.read_text(encoding="utf-8")))


def slug(heading):
    """The anchor GitHub gives a heading: lower case, code marks and punctuation dropped, spaces
    made hyphens; letters, digits and marks of every script are kept."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").lower()
    kept = "".join(
        char for char in text
        if char in " -_" or unicodedata.category(char)[0] in "LMN"
    )
    return kept.replace(" ", "-")


def anchors(page):
    """The anchors of a page's headings, with -1, -2… for repeated headings, as GitHub makes them."""
    seen = {}
    result = set()
    for _, title in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = slug(title)
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def problems_with_link(page, target):
    """Why a link of `page` is wrong, or None when it resolves inside the repository."""
    if target.startswith(WEB_SCHEMES):
        return None
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", target):
        return f"{target}: only http, https and mailto links may leave the repository"
    path_part, _, anchor = target.partition("#")
    path_part = unquote(path_part)
    if path_part.startswith("/"):
        return f"{target}: an absolute path; write it relative to {page.relative_to(ROOT)}"
    resolved = (page.parent / path_part).resolve() if path_part else page.resolve()
    if not resolved.is_relative_to(ROOT):
        return f"{target}: points outside the repository ({resolved})"
    if not resolved.exists():
        return f"{target}: no such file or folder in the repository"
    if anchor:
        if resolved.suffix != ".md":
            return f"{target}: an anchor into a file that is not Markdown"
        if unquote(anchor) not in anchors(resolved):
            return f"{target}: {resolved.relative_to(ROOT)} has no heading with the anchor #{anchor}"
    return None


def schema_property_names(node):
    """Every key named under `properties` anywhere in a JSON Schema, $defs included."""
    names = set()
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            names.update(properties)
        for value in node.values():
            names |= schema_property_names(value)
    elif isinstance(node, list):
        for value in node:
            names |= schema_property_names(value)
    return names


@pytest.fixture(scope="module")
def schema():
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def format_page():
    return FORMAT_PAGE.read_text(encoding="utf-8")


def code_spans(text):
    return {span.strip("`") for span in CODE_SPAN.findall(text)}


def test_the_pages_exist():
    names = {str(page.relative_to(ROOT)) for page in PAGES}
    assert {"README.md", "docs/survey-format.md", "bench/README.md", "deploy/ha/README.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(page):
    found = [problem for target in links(page) if (problem := problems_with_link(page, target))]
    assert not found, f"{page.relative_to(ROOT)}:\n" + "\n".join(found)


def test_the_link_reader_finds_links_and_refuses_bad_ones():
    readme = ROOT / "README.md"
    assert "docs/survey-format.md" in links(readme)
    assert problems_with_link(readme, "docs/survey-format.md#answer-formats") is None
    assert problems_with_link(readme, "https://hl7.org/fhir/R4/") is None
    assert "outside the repository" in problems_with_link(readme, "../shared/spec/survey-format.md")
    assert "no such file" in problems_with_link(readme, "docs/no-such-page.md")
    assert "no heading" in problems_with_link(readme, "docs/survey-format.md#no-such-heading")
    assert "absolute path" in problems_with_link(readme, "/etc/passwd")
    assert "only http" in problems_with_link(readme, "file:///etc/passwd")


def test_slugs_follow_github():
    assert slug("The `survey` command") == "the-survey-command"
    assert slug("Health, metrics, shutdown and retention") == "health-metrics-shutdown-and-retention"
    assert slug("Sizing on paper: 10⁵ participants") == "sizing-on-paper-10⁵-participants"
    assert slug('"I don\'t know"') == "i-dont-know"


def test_every_schema_key_is_documented(schema, format_page):
    names = schema_property_names(schema)
    assert len(names) > 100, "the schema walk found too few keys"
    documented = code_spans(format_page)
    missing = sorted(names - documented)
    assert not missing, "docs/survey-format.md documents no `key` for: " + ", ".join(missing)


def test_every_answer_format_has_a_section(schema, format_page):
    types = schema["$defs"]["answerFormat"]["properties"]["type"]["enum"]
    assert len(types) == 19
    headings = {title.strip() for _, title in HEADING.findall(FENCE.sub("", format_page))}
    missing = [name for name in types if name not in headings or f"`{name}`" not in format_page]
    assert not missing, "docs/survey-format.md has no section and no `name` for: " + ", ".join(missing)


def test_every_step_type_is_documented(schema, format_page):
    types = schema["$defs"]["step"]["properties"]["type"]["enum"]
    missing = [name for name in types if name not in code_spans(format_page)]
    assert not missing, "docs/survey-format.md does not name the step types: " + ", ".join(missing)


def test_readme_headline_is_the_committed_benchmark_run():
    """The README's speed figures are the ones bench/headline.py makes from bench/results/, so
    they name the run they come from and cannot be edited apart from it."""
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    import headline
    made = headline.current()
    assert made is not None
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert made in readme, "README.md's headline differs from bench/results/: run python3 bench/headline.py"
