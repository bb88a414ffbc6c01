"""The published XLSForm workbooks of Tests/Fixtures/xlsform-corpus, as they were published,
through the built binary:

- `survey import xlsform FILE.xlsx` accepts or refuses each workbook exactly as ACCEPTANCE says,
  a refusal with the words its first error must contain (a geopoint, image, audio, barcode, osm or
  select_one_external question, pulldata(), a repeat in a repeat: what a page without JavaScript
  cannot ask); a change in what the importer accepts fails;
- every accepted workbook is served from one folder, at /surveys/{form_id, else the file's name};
- a participant over raw HTTP answers everything each page shows (the first choice, a low number;
  then again the last choice, a high number, so that `relevant` goes both ways), adds one instance
  of each repeat and then says No to another, until the done page;
- an evaluator of XLSForm expressions written here, from the workbook read with openpyxl and the
  answers given, decides what is shown: exactly the questions and notes whose `relevant` (and
  their groups') holds, in order, each with its label (English, else the default language); each
  select offers its list's labels in order less those its choice_filter hides (all of them when
  the filter names a question of the same page); result.json holds every answer under the
  question's name, a calculate's value, and nothing for what was left out.
A walk that fails through the importer's fault, not the form's, is an expected failure (BUGS).
"""
from __future__ import annotations

import json
import operator
import re
import shutil
import subprocess

import pytest

from support import BINARY, FIXTURES, MAX_PAGES, Http, Server, checked_page, parse_form, squash

openpyxl = pytest.importorskip("openpyxl")

CORPUS = FIXTURES / "xlsform-corpus"
NO_JS = "column type: A{} {} question cannot be asked on a page without JavaScript"

ACCEPTANCE = {   # None: accepted; else words of the first error
    "01-pyxform-group-english-en.xlsx": None,
    "02-pyxform-widgets-media-geo.xlsx": "row 11 (my_geopoint), " + NO_JS.format("", "geopoint"),
    "03-pyxform-case-insensitive-external-osm.xlsx": "row 3 (q2), " + NO_JS.format("", "select_one_external"),
    "04-pyxform-nested-repeats-groups-relevant.xlsx": 'row 26 (sectionc), column type: A repeat inside the page or repeat "section3"',
    "05-pyxform-choice-filter-in-repeat.xlsx": None,
    "06-pyxform-indexed-repeat-nested.xlsx": 'row 3 (rep2), column type: A repeat inside the page or repeat "rep"',
    **dict.fromkeys(["07-pyxform-or-other-translations-nested-repeat.xlsx", "08-pyxform-cyrillic-translations-media-required.xlsx",
                     "09-pyxform-range-parameters.xlsx", "10-pyxform-field-list-group.xlsx",
                     "11-pyxform-note-instance-lookups.xlsx", "12-pyxform-hint-guidance-hint-french.xlsx",
                     "13-pyxform-trigger-setvalue-select.xlsx"]),
    "14-pyxform-audio-quality.xlsx": "row 2 (audio), " + NO_JS.format("n", "audio"),
    **dict.fromkeys(["15-xlsformorg-multilang-en-es-constraint.xlsx", "16-xlsformorg-conditional-repeat.xlsx",
                     "17-xlsformorg-dynamic-repeat-count.xlsx", "18-xlsformorg-tip-calculation-note.xlsx"]),
    "19-xlsformorg-gps-store-geopoint.xlsx": "row 3 (store_gps), " + NO_JS.format("", "geopoint"),
    "20-xlsformorg-pulldata-fruits.xlsx": "row 2 (fruit), column calculation: pulldata() reads a CSV file",
    "21-xlsformorg-image-max-pixels.xlsx": "row 2 (img), " + NO_JS.format("n", "image"),
    **dict.fromkeys(["22-kobo-acknowledge-group-relevant.xlsx", "23-kobo-cascading-choice-filter.xlsx",
                     "24-kobo-select-multiple-choice-filter-selected.xlsx", "25-kobo-translations-single-colon-quirk.xlsx"]),
}
ACCEPTED = [name for name, refusal in ACCEPTANCE.items() if refusal is None]
BUGS: dict[str, str] = {}   # accepted, but the walk shows the importer's mistake: none known

# --- the workbook, read here ------------------------------------------------------------------------

ALIASES = {"list name": "list_name", "calculate": "calculation", "relevance": "relevant"}
TYPES = {"string": "text", "int": "integer", "trigger": "acknowledge", "phone number": "phone"}   # pyxform's names


def canonical(column: str) -> str:
    """`LABEL::EN` → `label::EN`, `label:English (en)` (one colon, as pyxform reads it) → `label::English (en)`."""
    base, _, language = column.partition("::") if "::" in column else column.partition(":")
    base = ALIASES.get(base.strip().lower(), base.strip().lower().replace(" ", "_"))
    return f"{base}::{language.strip()}" if language else base


def workbook(name: str) -> dict[str, list[dict]]:
    """{sheet: [row {column: text}]}, sheet and column names as XLSForm reads them, cells trimmed, blank rows left out."""
    book, sheets = openpyxl.load_workbook(CORPUS / name, read_only=True), {}
    for sheet in book.worksheets:
        rows = [["" if cell is None else str(cell).strip() for cell in row] for row in sheet.iter_rows(values_only=True)]
        header = [canonical(cell) for cell in rows[0]] if rows else []
        sheets[sheet.title.strip().lower()] = [{c: v for c, v in zip(header, row) if c and v} for row in rows[1:] if any(row)]
    return sheets


def english(row: dict, column: str = "label") -> str:
    """A text in English (a `label::English (en)`, `label::eng` column), else in the default language."""
    for key, text in row.items():
        language = key.partition("::")[2].lower()
        if key.startswith(column + "::") and (language in ("en", "eng") or language.startswith("english") or "(en)" in language):
            return text
    return row.get(column, "")


class Survey:
    """A workbook's questions and notes in order, each {name, type, list, or_other, row, relevant: [its own and
    its groups'], page: the repeat or field-list group it is asked in, title: the label of a plain group it
    opens}; and each list's choice rows."""

    def __init__(self, name: str):
        self.sheets = workbook(name)
        self.choices = {}
        for row in self.sheets.get("choices", []):
            self.choices.setdefault(row.get("list_name"), []).append(row)
        settings = (self.sheets.get("settings") or [{}])[0]
        self.identifier = settings.get("form_id") or name.removesuffix(".xlsx")
        self.items, groups, title = [], [], None
        for row in self.sheets["survey"]:
            words = re.sub(r"^(begin|end) ", r"\1_", row.get("type", "").lower()).split()
            kind = TYPES.get(" ".join(words), words[0] if words else "")
            if kind in ("begin_group", "begin_repeat"):
                page = kind == "begin_repeat" or "field-list" in row.get("appearance", "")
                groups.append({**row, "page": page})
                title = english(row) if not page and english(row) and not any(g["page"] for g in groups) else None
            elif kind in ("end_group", "end_repeat"):
                groups.pop()
            elif kind:
                pages = [g["name"] for g in groups if g["page"]]
                self.items.append({"name": row["name"], "type": kind, "row": row, "title": title, "page": (pages or [None])[0],
                                   "list": words[1] if kind.startswith("select_") else None, "or_other": words[-1] == "or_other",
                                   "relevant": [g["relevant"] for g in groups + [row] if "relevant" in g]})
                title = None
        self.by_name = {item["name"]: item for item in self.items}

    def shown(self, answers: dict) -> list[str]:
        """What the participant should see, in order: every question and note whose relevance holds, but calculates."""
        return [item["name"] for item in self.items if item["type"] != "calculate"
                and all(holds(expression, answers) for expression in item["relevant"])]

    def options(self, item: dict, answers: dict) -> list[tuple[str, str]]:
        """A select's [(name, label)], less what its choice_filter hides; all when it names an answer of the same page."""
        rows, choice_filter = self.choices.get(item["list"], []), item["row"].get("choice_filter")
        if choice_filter and not (item["page"] and any(self.by_name.get(name, {}).get("page") == item["page"]
                                                         for name in re.findall(r"\$\{\s*([^}\s]+)\s*\}", choice_filter))):
            rows = [row for row in rows if holds(choice_filter, answers, columns=row)]
        return [(row["name"], english(row) or row["name"]) for row in rows] + [("other", "Other")][:item["or_other"]]


# --- XLSForm's expressions, evaluated here ----------------------------------------------------------

TOKEN = re.compile(r"""\s*(\$\{\s*[^}]+?\s*\}|'[^']*'|"[^"]*"|\d+(?:\.\d+)?|!=|<=|>=|=|<|>|\(|\)|,|\*|\+|-|[A-Za-z_][\w.:-]*)""")
COMPARE = {"=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul, "div": operator.truediv}
FUNCTIONS = {"not": lambda a: not truth(a), "selected": lambda a, b: str(b) in str(a).split(),
             "count-selected": lambda a: len(str(a).split()), "string-length": lambda a: len(text(a)),
             "true": lambda: True, "false": lambda: False}


def number(value):
    return float(value) if re.fullmatch(r"\s*-?\d+(\.\d+)?\s*", text(value)) else None


def text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else \
        (format(value, "g") if isinstance(value, float) else str(value))


def truth(value) -> bool:
    return value if isinstance(value, bool) else (value != 0 if isinstance(value, float) else value != "")


def evaluate(expression: str, answers: dict, columns: dict | None = None):
    """${name} (its answer, '' when blank), 'text', numbers, = != < <= > >=, + - * div, and, or, not(),
    selected(), count-selected(), string-length(), parentheses; a bare name is the choice row's column."""
    tokens, at = [], 0
    while at < len(expression.rstrip()):
        match = TOKEN.match(expression, at)
        assert match, f"the test's evaluator cannot read {expression!r} from {expression[at:]!r}"
        tokens.append(match.group(1))
        at = match.end()

    def take(expected=None):
        token = tokens.pop(0)
        assert expected is None or token == expected, f"{expected!r} expected in {expression!r}, not {token!r}"
        return token

    def operand():
        token = take()
        if token == "(":
            value = either()
            take(")")
            return value
        if token == "-":
            return -number(operand())
        if token.startswith("${"):
            return answers.get(token[2:-1].strip(), "")
        if token[0] in "'\"":
            return token[1:-1]
        if token[0].isdigit():
            return float(token)
        if tokens and tokens[0] == "(":
            take("(")
            arguments = []
            while tokens[0] != ")":
                arguments.append(either())
                if tokens[0] == ",":
                    take(",")
            take(")")
            return FUNCTIONS[token](*arguments)
        return (columns or {}).get(token, "")

    def arithmetic(part, words):
        value = part()
        while tokens and tokens[0] in words:
            value = ARITHMETIC[take()](number(value) or 0.0, number(part()) or 0.0)
        return value

    def comparison():
        left = arithmetic(lambda: arithmetic(operand, ("*", "div")), ("+", "-"))
        if not (tokens and tokens[0] in COMPARE):
            return left
        compare, right = COMPARE[take()], arithmetic(lambda: arithmetic(operand, ("*", "div")), ("+", "-"))
        if number(left) is not None and number(right) is not None and "" not in (left, right):
            return compare(number(left), number(right))
        return compare(text(left), text(right))

    def chain(word, part):
        value = part()
        while tokens and tokens[0] == word:
            take()
            other = part()
            value = (truth(value) and truth(other)) if word == "and" else (truth(value) or truth(other))
        return value

    def either():
        return chain("or", lambda: chain("and", comparison))

    value = either()
    assert not tokens, f"the test's evaluator stopped early in {expression!r} at {tokens}"
    return value


def holds(expression: str, answers: dict, columns: dict | None = None) -> bool:
    return truth(evaluate(expression, answers, columns))


def test_the_evaluator_on_cases_worked_out_by_hand():
    answers = {"yn": "yes", "many": "fridge tv", "n": "12", "consent": "OK", "blank": ""}
    assert holds("${yn} = 'yes' and selected(${many}, 'tv') and count-selected(${many}) = 2", answers)
    assert holds('${consent} = "OK" and not(${n} < 9) and ${n} >= 12.0 and ${n} != 3', answers)
    assert not holds("(${yn} = 'no' or ${blank} != '') and ${n} > 1", answers)
    assert holds("string-length(${yn}) = 3 and ${blank} = '' and ${missing} = ''", answers)
    assert holds("continent = ${continent}", {"continent": "asia"}, columns={"continent": "asia"})
    assert not holds("selected(${many}, name)", answers, columns={"name": "fan"})
    assert evaluate("${n} * 0.5 + 1", answers) == 7.0 and holds("${n} div 4 = 3", answers)


# --- 1. what the importer accepts --------------------------------------------------------------------

def test_the_table_names_every_workbook_of_the_corpus():
    assert sorted(ACCEPTANCE) == sorted(path.name for path in CORPUS.glob("*.xlsx"))
    assert set(BUGS) <= set(ACCEPTED)


def import_xlsform(name: str, output) -> subprocess.CompletedProcess:
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build it with `swift build`", pytrace=False)
    return subprocess.run([str(BINARY), "import", "xlsform", str(CORPUS / name), "--output", str(output)],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", list(ACCEPTANCE), ids=lambda name: name[:2])
def test_import_accepts_or_refuses_each_workbook_as_the_table_says(name, tmp_path):
    run, refusal, output = import_xlsform(name, tmp_path / "out.json"), ACCEPTANCE[name], tmp_path / "out.json"
    if refusal is None:
        assert run.returncode == 0, f"{name} is refused:\n{run.stderr}"
        assert "error:" not in run.stderr.lower(), run.stderr
        assert json.loads(output.read_text(encoding="utf-8"))["identifier"] == Survey(name).identifier
    else:
        assert run.returncode == 1 and not output.exists(), f"{name} is now accepted, the table says refused"
        first = next((line for line in run.stderr.splitlines() if "error:" in line.lower()), run.stderr)
        assert f"Sheet survey, {refusal}" in first, f"{name}: the first error is not about {refusal!r}:\n{run.stderr}"


@pytest.mark.parametrize("name", list(ACCEPTANCE), ids=lambda name: name[:2])
def test_pyxform_accepts_each_workbook(name, tmp_path):
    """The corpus is valid XLSForm: pyxform (ODK Validate not run) converts every workbook, refused ones too."""
    xls2xform = pytest.importorskip("pyxform.xls2xform")
    xls2xform.xls2xform_convert(str(CORPUS / name), str(tmp_path / "form.xml"), validate=False)
    assert "<h:html" in (tmp_path / "form.xml").read_text(encoding="utf-8")


# --- 2. every accepted workbook served ----------------------------------------------------------------

@pytest.fixture(scope="module")
def server(tmp_path_factory):
    identifiers = [Survey(name).identifier for name in ACCEPTED]
    assert len(set(identifiers)) == len(identifiers), f"two workbooks share an identifier: {identifiers}"
    surveys = tmp_path_factory.mktemp("xlsform-corpus-surveys")
    for name in ACCEPTED:
        shutil.copy(CORPUS / name, surveys / name)
    started = Server(surveys, tmp_path_factory.mktemp("xlsform-corpus-data")).start()
    try:
        yield started
    finally:
        started.stop()


def test_the_server_lists_every_accepted_workbook(server):
    status, body, _ = Http(server.url).get("/")
    assert status == 200
    listed = set(re.findall(r'href="/surveys/([^"/?]+)"', body.decode("utf-8")))
    assert listed == {Survey(name).identifier for name in ACCEPTED}


# --- 3-4. a participant on every accepted workbook, twice ----------------------------------------------

def on_page(label: str, main: str) -> bool:
    """Whether a label is on the page: its words around each ${…} (piped answers) in order."""
    pieces = [re.escape(squash(piece)) for piece in re.split(r"\$\{[^}]*\}", label)]
    return bool(re.search(".*?".join(pieces), main, re.S))


def labels(page: str, name: str) -> list[str]:
    """The labels of a control's choices: each radio's or checkbox's <label for>, or its <select>'s options."""
    select = re.search(rf'<select[^>]*name="{re.escape(name)}".*?</select>', page, re.S)
    found = re.findall(r'<option value="[^"]+"[^>]*>(.*?)</option>', select[0], re.S) if select else \
        re.findall(rf'<label[^>]*for="{re.escape(name)}(?::\d+)?"[^>]*>(.*?)</label>', page, re.S)
    return [squash(label) for label in found]


class Walk:
    """A participant answering everything each page shows until the done page: the first choice (every
    checkbox but the last), a low number; or, `last`, the last choice (the last checkbox alone, "Other"
    with a text), a high number (a constraint's upper bound); one instance of each repeat."""

    def __init__(self, server, name: str, last: bool, language: str = "en"):
        self.survey, self.last = Survey(name), last
        self.client = Http(server.url)
        self.client.opener.addheaders = [("Accept-Language", language)]
        self.pages, self.given, self.recorded = [], {}, {}   # shown names; answers for the logic; for the result

    def run(self) -> "Walk":
        survey = self.survey
        status, body, url = self.client.get(f"/surveys/{survey.identifier}")
        for _ in range(MAX_PAGES):
            if url.endswith("/done"):
                return self
            page, main = checked_page(status, body, url, f"{survey.identifier}, given {self.given}")
            form = parse_form(page, url)
            if "_another" in form.controls:   # a repeat's list page: one instance, then no more
                added = any(n == "_action" and v.startswith("repeat-remove-") for n, v in form.buttons)
                status, body, url = self.client.post_form(body, url, {"_another": "no" if added else "yes"})
                continue
            controls = {name.partition(".")[0] for name in form.controls if not name.startswith("_")}
            unknown = controls - set(survey.by_name)
            assert not unknown, f"{survey.identifier}: the page has controls {unknown} that name no question"
            notes = {item["name"] for item in survey.items if item["type"] == "note" and on_page(english(item["row"]), main)}
            names = [item["name"] for item in survey.items if item["name"] in controls | notes]
            assert names, f"{survey.identifier}: a page shows no question or note of the workbook:\n{main[:800]}"
            values = {}
            for name in names:
                item = survey.by_name[name]
                label = english(item["row"])
                assert on_page(label, main), f"{survey.identifier}: {name}'s page lacks its label {label!r}:\n{main[:800]}"
                if item["title"] and name == names[0]:
                    assert on_page(item["title"], main), f"{name}'s page lacks its group's label {item['title']!r}"
                if item["type"] != "note":
                    values.update(self.answer(item, form, page))
            self.pages += names
            status, body, url = self.client.post_form(body, url, values)
        raise AssertionError(f"{survey.identifier}: no done page after {MAX_PAGES} pages")

    def answer(self, item: dict, form, page: str) -> dict:
        """The form fields answering one question, noting what the logic and the result should see."""
        name, kind, last = item["name"], item["type"], self.last
        if kind in ("select_one", "select_multiple", "acknowledge", "range"):
            offered = [value for value in form.controls[name].options if value]
            if kind.startswith("select_"):
                wanted = self.survey.options(item, self.given)
                assert offered == [code for code, _ in wanted], f"{name}: the page offers {offered}, the workbook {wanted}"
                assert labels(page, name) == [squash(label) for _, label in wanted], \
                    f"{name}: the page labels its choices {labels(page, name)}, the workbook {wanted}"
            elif kind == "acknowledge":
                assert offered == ["OK"], f"{name}: an acknowledge offers {offered}"
            picked = (offered[-1:] if last else offered[:-1] or offered) if kind == "select_multiple" else \
                [offered[-1] if last else offered[0]]
            self.given[name] = " ".join(picked)
            if kind == "range":
                self.recorded[name] = float(picked[0])
                return {name: picked}
            if picked == ["other"]:
                self.recorded[name] = [f"Other answer to {name}"]
                return {name: picked, f"{name}.other": self.recorded[name][0]}
            self.recorded[name] = picked
            return {name: picked}
        if kind in ("integer", "decimal"):
            bound = re.search(r"\.\s*<=\s*(\d+(?:\.\d+)?)", item["row"].get("constraint", ""))
            typed = (bound[1] if bound else "99") if last else ("1" if kind == "integer" else "1.5")
            self.given[name], self.recorded[name] = typed, float(typed)
            return {name: typed}
        if kind == "phone":   # pyxform's "phone number": digits only
            self.given[name] = self.recorded[name] = "0161555" + ("9999" if last else "0100")
            return {name: self.given[name]}
        assert kind == "text", f"{name}: the walk does not answer a {kind} question"
        self.given[name] = self.recorded[name] = f"{'Last' if last else 'First'} answer to {name}"
        return {name: self.given[name]}

    def result(self) -> dict:
        """{question identifier: its answer} from the run's result.json, repeats' instances included."""
        status, _, body, _ = self.client.request(f"/surveys/{self.survey.identifier}/result.json")
        assert status == 200, (status, body[:2000])
        answers = {}

        def collect(results):
            for result in results:
                collect(result.get("results", []))
                for instance in result.get("instances", []):
                    collect(instance.get("results", []))
                value = next((v for k, v in result.items() if k.endswith("Answer") or k == "choiceAnswers"), None)
                if "identifier" in result and value not in (None, [], ""):
                    answers[result["identifier"]] = value

        collect(json.loads(body)["results"])
        return answers


def same(recorded, got) -> bool:
    """Whether the result holds the answer: a number as a number, choices in any order (a number's as "1")."""
    if isinstance(recorded, float):
        return isinstance(got, (int, float)) and abs(float(got) - recorded) < 1e-9
    if isinstance(recorded, list):
        return isinstance(got, list) and sorted(recorded) == sorted(text(float(v)) if isinstance(v, (int, float)) else v for v in got)
    return got == recorded


def walk_cases():
    for name in ACCEPTED:
        marks = [pytest.mark.xfail(reason=BUGS[name], strict=True)] if name in BUGS else []
        yield pytest.param(name, marks=marks, id=name[:2])


@pytest.mark.parametrize("last", [False, True], ids=["first", "last"])
@pytest.mark.parametrize("name", list(walk_cases()))
def test_each_workbook_answered_shows_what_its_relevance_shows_and_keeps_the_answers(name, last, server):
    walk = Walk(server, name, last).run()
    survey, expected = walk.survey, walk.survey.shown(walk.given)
    assert walk.pages == expected, (f"{survey.identifier}: the pages showed {walk.pages},\nthe workbook's relevance "
                                    f"shows {expected}\non the answers {walk.given}")
    result = walk.result()
    for field, recorded in walk.recorded.items():
        assert field in result, f"{survey.identifier}: {field} was answered {recorded!r}, the result has no answer for it"
        assert same(recorded, result[field]), f"{survey.identifier}: {field} was answered {recorded!r}, the result holds {result[field]!r}"
    for item in survey.items:
        if item["type"] == "calculate" and all(holds(e, walk.given) for e in item["relevant"]):
            value = evaluate(item["row"]["calculation"], walk.given)
            assert same(value, result.get(item["name"])), f"{item['name']}: {value!r} worked out, the result holds {result.get(item['name'])!r}"
    left_out = [item["name"] for item in survey.items if item["name"] not in expected and item["name"] in result
                and item["type"] != "calculate"]
    assert not left_out, f"{survey.identifier}: the result answers {left_out}, which relevance leaves out"


# --- 5. a second language ------------------------------------------------------------------------------

def test_the_multilingual_form_in_spanish_shows_the_spanish_label(server):
    name = "15-xlsformorg-multilang-en-es-constraint.xlsx"
    row = Survey(name).by_name["age"]["row"]
    for language, shown, other in (("es", "label::Español (es)", "label::English (en)"),
                                   ("en", "label::English (en)", "label::Español (es)")):
        client = Http(server.url)
        client.opener.addheaders = [("Accept-Language", f"{language},de;q=0.5")]
        status, body, _ = client.get(f"/surveys/{Survey(name).identifier}")
        page = body.decode("utf-8")
        main = squash(page[page.find("<main"):page.find("</main>")])
        assert status == 200 and row[shown] in main and row[other] not in main, f"{language}: {main[:600]}"
        assert f'<html lang="{language}"' in page
