"""The published REDCap data dictionaries of Tests/Fixtures/redcap-corpus, as they were published,
through the built binary:

- `survey import redcap FILE --instrument NAME` accepts or refuses each instrument exactly as
  ACCEPTANCE below says, a refusal with the words its first error must contain (a file, signature
  or sql field, logic naming another instrument's field, a function with no equivalent); a change
  in what the importer accepts fails. A refusal that is the importer's fault, not the
  dictionary's, is written as a Bug: an expected failure until the instrument is accepted;
- every accepted instrument is served: a dictionary whose instruments are all accepted as its
  .csv, one with a refused instrument (which stops the whole file from loading) as the JSON files
  of its accepted instruments. Instruments of different files share names (text_validation,
  completion_data), and a server refuses two surveys of one identifier, so the files are put in as
  few folders as keep each folder's names apart, one server each;
- a participant over raw HTTP answers every question of every page with a valid answer (the
  first choice, the lower bound, an early date; then again the last choice, the upper bound, a
  late date, so that branching logic goes both ways) until the done page;
- an evaluator of REDCap's branching logic written here, from the dictionary read with Python's
  csv module and the answers given, decides which fields are shown (not the first field, the
  record id; not @HIDDEN; logic that holds): exactly those fields' pages were shown, in order,
  each with its label; each radio, checkbox and dropdown offers the dictionary's choices (codes
  and labels, in order); and the run's result.json holds every answer given under the field's
  name, and none for a field its logic left out.
"""
from __future__ import annotations

import contextlib
import csv
import datetime
import json
import operator
import re
import shutil
import subprocess
from decimal import Decimal

import pytest

from support import BINARY, FIXTURES, MAX_PAGES, Http, Server, checked_page, parse_form, squash

CORPUS = FIXTURES / "redcap-corpus"

FILE = 'column "Field Type": A file upload field'
SIGNATURE = 'column "Field Type": A signature field'
NO_QUESTION = "holds only the record's identifier"   # a warning: the instrument makes no survey


class Bug(str):
    """A refusal that is the importer's fault: the instrument should be accepted; until it is, the
    case is an expected failure with this reason."""


ACCEPTANCE = {
    "01-redcapr-validation-types.csv": {"form_1": "Row 7 (f_file_upload), " + FILE},
    "02-redcapr-survey-project.csv": dict.fromkeys(
        ["prescreening_survey", "participant_info_survey", "participant_morale_questionnaire", "completion_data"]),
    "03-cypress-field-validation-ranges.csv": {"text_validation": None, "data_types": None},
    "04-cypress-draft-mode-field-types.csv": {"text_validation": None, "data_types": "Row 16 (signature), " + SIGNATURE},
    "05-phpcap-longitudinal-api-header.csv": {
        "demographics": "Row 4 (patient_document), " + FILE,
        **dict.fromkeys(["contact_info", "lab_data", "patient_morale_questionnaire", "completion_data"])},
    "06-tlfb-scoring-readonly-action-tags.csv": {"tlfb_scoring_module": None},
    "07-scid5-score-sheet-branching.csv": {"scid_score_sheet": None},   # a library instrument: no record id
    "08-rios-matrix-ranking-mojibake-bom.csv": {"matrixranking": None},   # a BOM read as Latin-1 in the header
    "09-rios-legacy-15-column-dialysis.csv": {
        "demographics": None,
        "dialysis_info": None},
    "10-redcapapi-all-types-checkbox-branching.csv": {
        "record_id": NO_QUESTION, **dict.fromkeys(["randomization", "text_fields", "dates_and_times", "numbers",
                                                   "slider_fields", "multiple_choice"]),
        "files_notes_descriptions": "Row 35 (file_upload_test), " + FILE,
        **dict.fromkeys(["calculated_fields", "branching_logic", "repeating_instrument"])},
    "11-redcap2omop-slider-labels-piping.csv": dict.fromkeys(
        ["demographics", "visit_information", "visit_data", "mri_information"]),
    "12-uvalidator-module-action-tags-json.csv": {"uv_range_test": None},
    "13-cypress-default-today-now-action-tags.csv": {
        "text_validation": None, "data_types": "Row 17 (signature), " + SIGNATURE, "survey": None,
        "consent": "Row 55 (signature_consent), " + SIGNATURE},
    "14-uvalidator-tb-crossform-fully-quoted.csv": dict.fromkeys(
        ["tb_screening", "tb_diagnosis", "tb_treatment", "tb_outcome"]),
    "15-reading-consent-hidden-action-tag.csv": {"consent": None},
    "16-redcapr-api-header-r-na-cells.csv": {
        "demographics": None,
        "health": "Row 15 (mugshot), " + FILE, "race_and_ethnicity": None},
    "17-redcapr-api-header-comma-decimal-calc.csv": {"demographics": None},
}
ACCEPTED = [(name, instrument) for name, table in ACCEPTANCE.items()
            for instrument, refusal in table.items() if refusal is None]

# --- the dictionary, read here ---------------------------------------------------------------------

COLUMNS = ("name", "form", "section", "type", "label", "choices", "note", "validation", "min", "max",
           "identifier", "logic", "required", "alignment", "number", "matrix", "ranking", "annotation")
HIDDEN = re.compile(r"(?<!\S)@HIDDEN(?:-SURVEY)?(?![\w-])", re.I)
READ_ONLY = re.compile(r"(?<!\S)@(?:READONLY(?:-SURVEY)?(?![\w-])|CALCTEXT\b)", re.I)


def dictionary(name: str) -> list[dict]:
    """Every field of a dictionary, {column: text} by REDCap's column order, which the API header
    and the older 15-column layout keep too; a bare NA (R's write.csv for a blank) is blank."""
    with open(CORPUS / name, encoding="utf-8-sig", newline="") as file:
        rows = list(csv.reader(file))
    return [dict(zip(COLUMNS, ["" if cell.strip() == "NA" else cell.strip() for cell in row] + [""] * len(COLUMNS)))
            for row in rows[1:] if any(cell.strip() for cell in row)]


def fields_of(name: str, instrument: str) -> list[dict]:
    """The instrument's fields as its survey has them: all but the record id, which is the dictionary's
    first field when that is a plain text field (a library instrument has none: its first field is asked)."""
    fields = dictionary(name)
    first = fields[0]
    is_record = first["type"].lower() == "text" and not first["logic"] and not first["matrix"] and not first["annotation"]
    return [field for field in (fields[1:] if is_record else fields) if field["form"] == instrument]


def choices(field: dict) -> list[tuple[str, str]]:
    """`1, Yes | 0, No` as [(code, label)], in order."""
    return [tuple(part.strip() for part in piece.split(",", 1)) for piece in field["choices"].split("|")]


def asks(field: dict) -> bool:
    """Whether the field's page takes an answer (a descriptive, calc or read-only field's does not)."""
    return field["type"] not in ("descriptive", "calc") and not READ_ONLY.search(field["annotation"])


# --- REDCap's branching logic, evaluated here -------------------------------------------------------

TOKEN = re.compile(r"""\s*(\[[^\]]*\]|'[^']*'|"[^"]*"|-?\d+(?:\.\d+)?|<>|!=|<=|>=|==|=|<|>|\(|\)|and\b|or\b)""", re.I)
COMPARE = {"=": operator.eq, "==": operator.eq, "<>": operator.ne, "!=": operator.ne,
           "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def compare(left: str, op: str, right: str) -> bool:
    """As numbers when both sides look like numbers, else as texts; a blank is neither less nor more."""
    if all(re.fullmatch(r"-?\d+(\.\d+)?", side) for side in (left, right)):
        return COMPARE[op](Decimal(left), Decimal(right))
    if op not in ("=", "==", "<>", "!=") and "" in (left, right):
        return False
    return COMPARE[op](left, right)


def holds(logic: str, answers: dict) -> bool:
    """REDCap logic ([field], [field(code)], = <> != < <= > >=, and/or, parentheses, quoted and
    numeric literals) on the answers as REDCap stores them: a code, '1'/'0' for yes/no, a Y-M-D
    date, the text typed; a checkbox's ticked codes as a set; '' for a blank."""
    logic, tokens, at = logic.strip(), [], 0
    while at < len(logic):
        match = TOKEN.match(logic, at)
        assert match, f"the test's evaluator cannot read {logic!r} from {logic[at:]!r}"
        tokens.append(match.group(1))
        at = match.end()

    def peek():
        return tokens[0].lower() if tokens else None

    def operand():
        token = tokens.pop(0)
        if token == "(":
            value = either()
            assert tokens.pop(0) == ")", logic
            return value
        if token.startswith("["):
            name, _, code = token[1:-1].strip().rstrip(")").partition("(")
            return ("1" if code in answers.get(name, set()) else "0") if code else answers.get(name, "")
        return token[1:-1] if token[0] in "'\"" else token

    def comparison():
        left = operand()
        return compare(left, tokens.pop(0), operand()) if peek() in COMPARE else left

    def chain(word, part, combine):
        value = part()
        while peek() == word:
            tokens.pop(0)
            value = combine(value, part())
        return value

    def either():
        return chain("or", lambda: chain("and", comparison, lambda a, b: a and b), lambda a, b: a or b)

    result = either()
    assert not tokens, f"the test's evaluator stopped early in {logic!r}"
    return bool(result)


def shown(fields: list[dict], answers: dict) -> list[str]:
    """The fields the participant should see, in order: not @HIDDEN, and their logic holding."""
    return [field["name"] for field in fields
            if not HIDDEN.search(field["annotation"]) and (not field["logic"] or holds(field["logic"], answers))]


def test_the_evaluator_on_cases_worked_out_by_hand():
    answers = {"radio": "ABC", "box": {"1", "ABC"}, "n": "5", "yn": "0", "day": "2024-06-30", "blank": ""}
    assert holds("[radio] = 'ABC' and [box(ABC)] = '1'", answers)
    assert not holds("[box(2)] = '1' or [n] = '6'", answers)
    assert holds("([radio] = '2' and [yn] = '0') or [box(1)] = \"1\"", answers)
    assert holds("[n] = '5.0' and [n] < 10 and [n] >= '5'", answers)          # numbers as numbers
    assert holds("[day] > '2024-01-01' and [yn] <> '1' and [yn] != 1", answers)
    assert not holds("[blank] < 0", answers) and holds("[blank] = '' and [missing] = ''", answers)
    assert shown([{"name": "a", "annotation": "@HIDDEN", "logic": ""}, {"name": "b", "annotation": "@HIDDEN-FORM",
                   "logic": ""}, {"name": "c", "annotation": "", "logic": "[n] > 5"}], answers) == ["b"]


# --- 1. what the importer accepts ------------------------------------------------------------------

def test_the_table_names_every_instrument_of_every_corpus_file():
    assert sorted(ACCEPTANCE) == sorted(path.name for path in CORPUS.glob("*.csv"))
    for name, table in ACCEPTANCE.items():
        assert list(table) == list(dict.fromkeys(field["form"] for field in dictionary(name))), name


def import_cases():
    for name, table in ACCEPTANCE.items():
        for instrument, refusal in table.items():
            marks = [pytest.mark.xfail(reason=str(refusal), strict=True)] if isinstance(refusal, Bug) else []
            yield pytest.param(name, instrument, marks=marks, id=f"{name[:2]}-{instrument}")


def import_redcap(name: str, instrument: str, *output) -> subprocess.CompletedProcess:
    """`survey import redcap FILE --instrument NAME [--output FILE]`."""
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build it with `swift build`", pytrace=False)
    return subprocess.run([str(BINARY), "import", "redcap", str(CORPUS / name), "--instrument", instrument, *output],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(("name", "instrument"), list(import_cases()))
def test_import_accepts_or_refuses_each_instrument_as_the_table_says(name, instrument):
    run, refusal = import_redcap(name, instrument), ACCEPTANCE[name][instrument]
    if refusal is None or isinstance(refusal, Bug):
        assert run.returncode == 0, f"{name} {instrument} is refused:\n{run.stderr}"
        assert "error:" not in run.stderr.lower(), run.stderr
        assert json.loads(run.stdout)["identifier"] == instrument
    else:
        assert run.returncode == 1 and not run.stdout, f"{name} {instrument} is now accepted, the table says refused"
        first = next((line for line in run.stderr.splitlines() if "error:" in line.lower()), run.stderr)
        assert refusal in first, f"{name} {instrument}: the first error is not about {refusal!r}:\n{run.stderr}"


# --- 2. every accepted instrument served ------------------------------------------------------------

@pytest.fixture(scope="module")
def servers(tmp_path_factory):
    """{(file, instrument): server} for every accepted instrument."""
    folders, started, where = [], [], {}   # folders: [(path, the instruments in it)]
    for name, table in ACCEPTANCE.items():
        accepted = [instrument for instrument, refusal in table.items() if refusal is None]
        if not accepted:
            continue
        index = next((i for i, (_, held) in enumerate(folders) if not held & set(accepted)), len(folders))
        if index == len(folders):
            folders.append((tmp_path_factory.mktemp("redcap-corpus-surveys"), set()))
        folder, held = folders[index]
        held.update(accepted)
        if len(accepted) == len(table):
            shutil.copy(CORPUS / name, folder / name)
        for instrument in accepted:
            where[(name, instrument)] = index
            if len(accepted) < len(table):
                run = import_redcap(name, instrument, "--output", folder / f"{name.removesuffix('.csv')}.{instrument}.json")
                assert run.returncode == 0, run.stderr
    try:
        for surveys, _ in folders:
            started.append(Server(surveys, tmp_path_factory.mktemp("redcap-corpus-data")).start())
        yield {key: started[index] for key, index in where.items()}
    finally:
        for server in started:
            server.stop()


def test_each_server_lists_its_accepted_instruments(servers):
    for server in set(servers.values()):
        status, body, _ = Http(server.url).get("/")
        assert status == 200
        listed = set(re.findall(r'href="/surveys/([^"/?]+)"', body.decode("utf-8")))
        assert listed == {instrument for (_, instrument), held in servers.items() if held is server}


# --- 3-4. a participant on every accepted instrument, twice --------------------------------------------

SAMPLES = {"email": "someone@example.org", "phone": "615-322-2222", "alpha_only": "Redcap", "zipcode": "37212",
           "time_mm_ss": "04:30"}   # a text each pattern-checked validation takes
NUMBERS = re.compile(r"integer|number.*|float")
BOOLEANS = {"yesno": [("true", "Yes"), ("false", "No")], "truefalse": [("true", "True"), ("false", "False")]}


def labels(page: str, name: str) -> list[str]:
    """The labels of a control's choices on a page: each radio's or checkbox's <label for> (the
    page numbers their ids name, name:2, …), or its <select>'s options but the empty placeholder."""
    select = re.search(rf'<select[^>]*name="{name}".*?</select>', page, re.S)
    found = re.findall(r'<option value="[^"]+"[^>]*>(.*?)</option>', select[0], re.S) if select else \
        re.findall(rf'<label[^>]*for="{name}(?::\d+)?"[^>]*>(.*?)</label>', page, re.S)
    return [squash(label) for label in found]


def _day(bound: str, last: bool) -> datetime.date:
    """The bound's day (written 2019-01-31 or, spreadsheet-mangled, 1/31/19), else an early or a late one."""
    for pattern in ("%Y-%m-%d", "%m/%d/%y", "%m/%d/%Y"):
        with contextlib.suppress(ValueError):
            return datetime.datetime.strptime(bound.split(" ")[0], pattern).date()
    return datetime.date(2024, 6, 30) if last else datetime.date(2019, 1, 15)


def _time(bound: str, last: bool) -> str:
    found = re.search(r"(\d{1,2}):(\d\d)", bound)
    return f"{int(found[1]):02}:{found[2]}" if found else ("17:45" if last else "09:30")


def _number(field: dict, last: bool) -> Decimal:
    """The upper or the lower bound (a slider's are 0 and 100 unless given), else -1 or 5."""
    low, high = (Decimal(field[key].replace(",", ".")) if field[key] else None for key in ("min", "max"))
    if field["type"] == "slider":
        low, high = Decimal(0) if low is None else low, Decimal(100) if high is None else high
    if last:
        return high if high is not None else (low + 7 if low is not None else Decimal(-1))
    return low if low is not None else min(Decimal(5), high if high is not None else Decimal(5))


class Walk:
    """A participant answering every question of every page until the done page: the first
    choice (every checkbox but the last), the lower bound, an early date and time; or, `last`,
    the last choice (the last checkbox alone), the upper bound, a late date and time."""

    def __init__(self, server, name: str, instrument: str, last: bool):
        self.fields, self.instrument, self.last = fields_of(name, instrument), instrument, last
        self.by_name = {field["name"]: field for field in self.fields}
        self.client = Http(server.url)
        self.pages = []      # the field of each page (each row of a matrix), in order
        self.given = {}      # field -> the answer as REDCap stores it, for the logic
        self.recorded = {}   # field -> the answer as result.json should hold it

    def run(self) -> "Walk":
        status, body, url = self.client.get(f"/surveys/{self.instrument}")
        for _ in range(MAX_PAGES):
            if url.endswith("/done"):
                return self
            text, main = checked_page(status, body, url, f"{self.instrument}, given {self.given}")
            form = parse_form(text, url)
            names = list(dict.fromkeys(name.partition(".")[0] for name in form.controls))
            unknown = [name for name in names if name not in self.by_name]
            assert not unknown, f"{self.instrument}: the page has controls {unknown} that name no field"
            if not names:   # a read-only value (calc, @READONLY) names its <output>; a descriptive field is its text
                names = [name for name in re.findall(r'<output id="([^"]+)"', text) if name in self.by_name] or \
                        [f["name"] for f in self.fields if f["type"] == "descriptive" and squash(f["label"]) in main][:1]
                assert names, f"{self.instrument}: a page without controls names no field:\n{main[:800]}"
            values = {}
            for name in names:
                field = self.by_name[name]
                assert squash(field["label"]) in main, f"{self.instrument}: {name}'s page lacks its label {field['label']!r}"
                if asks(field):
                    values.update(self.answer(field, form, text))
            self.pages += names
            status, body, url = self.client.post_form(body, url, values)
        raise AssertionError(f"{self.instrument}: no done page after {MAX_PAGES} pages")

    def answer(self, field: dict, form, page: str) -> dict:
        """The form fields answering one field, noting what the logic and the result should see."""
        name, kind, validation, last = field["name"], field["type"], field["validation"].lower(), self.last
        bound = field["max" if last else "min"]
        if kind in ("radio", "dropdown", "checkbox", "yesno", "truefalse"):
            wanted = BOOLEANS.get(kind) or choices(field)
            offered = [value for value in form.controls[name].options if value]
            assert offered == [code for code, _ in wanted], f"{name}: the page offers {offered}, the dictionary {wanted}"
            on_page = labels(page, name)
            assert on_page == [squash(label) for _, label in wanted], f"{name}: the page labels its choices {on_page}"
            numeric = all(re.fullmatch(r"-?\d+", code) for code in offered)
            picked = (offered[-1:] if last else offered[:-1] or offered) if kind == "checkbox" else \
                     [offered[-1] if last else offered[0]]
            if kind in BOOLEANS:
                self.given[name], self.recorded[name] = "1" if picked == ["true"] else "0", picked == ["true"]
            else:
                self.given[name] = set(picked) if kind == "checkbox" else picked[0]
                self.recorded[name] = [int(code) if numeric else code for code in picked]
            return {name: picked}
        if kind == "slider" or (kind == "text" and NUMBERS.fullmatch(validation)):
            number = format(_number(field, last), "f")
            self.given[name], self.recorded[name] = number, float(number)
            return {name: number}
        if kind == "text" and validation.startswith(("date_", "datetime_")):
            day = _day(bound, last)
            parts = {f"{name}.day": str(day.day), f"{name}.month": str(day.month), f"{name}.year": str(day.year)}
            self.given[name] = self.recorded[name] = day.isoformat()
            if validation.startswith("datetime_"):
                parts[f"{name}.time"] = _time(bound, last)
                self.given[name] += " " + parts[f"{name}.time"]
                self.recorded[name] += "T" + parts[f"{name}.time"]   # the result adds seconds and the zone
            assert set(parts) == {c for c in form.controls if c.startswith(name + ".")}, f"{name}: {list(form.controls)}"
            return parts
        if kind == "text" and validation in ("time", "time_hh_mm_ss"):
            self.given[name] = self.recorded[name] = _time(bound, last)
            return {name: self.given[name]}
        text = SAMPLES.get(validation) or f"{'Last' if last else 'First'} answer to {name}"
        text = text[:form.controls[name].maxlength or len(text)]
        self.given[name] = self.recorded[name] = text
        return {name: text}

    def result(self) -> dict:
        """{question identifier: its answer} from the run's result.json (with the participant's cookie)."""
        status, _, body, _ = self.client.request(f"/surveys/{self.instrument}/result.json")
        assert status == 200, (status, body[:2000])
        answers = {question["identifier"]: next((v for k, v in question.items()
                                                 if k.endswith("Answer") or k == "choiceAnswers"), None)
                   for step in json.loads(body)["results"] for question in step.get("results", [])}
        return {identifier: value for identifier, value in answers.items() if value not in (None, [], "")}


def same(recorded, got) -> bool:
    """Whether the result holds the answer: a number as a number, choices in any order, a date and time to the minute."""
    if isinstance(recorded, float):
        return isinstance(got, (int, float)) and float(got) == recorded
    if isinstance(recorded, list):
        return isinstance(got, list) and sorted(got, key=str) == sorted(recorded, key=str)
    if isinstance(recorded, str) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d", recorded):
        return isinstance(got, str) and got.startswith(recorded)
    return got == recorded


@pytest.mark.parametrize("last", [False, True], ids=["first", "last"])
@pytest.mark.parametrize(("name", "instrument"), [pytest.param(*key, id=f"{key[0][:2]}-{key[1]}") for key in ACCEPTED])
def test_each_instrument_answered_shows_the_fields_its_logic_shows_and_keeps_the_answers(name, instrument, last, servers):
    walk = Walk(servers[(name, instrument)], name, instrument, last).run()
    expected = shown(walk.fields, walk.given)
    assert walk.pages == expected, (f"{instrument}: the pages showed {walk.pages},\nthe dictionary's logic shows "
                                    f"{expected}\non the answers {walk.given}")
    result = walk.result()
    for field, recorded in walk.recorded.items():
        assert field in result, f"{instrument}: {field} was answered {recorded!r}, the result has no answer for it"
        assert same(recorded, result[field]), \
            f"{instrument}: {field} was answered {recorded!r}, the result holds {result[field]!r}"
    left_out = [f["name"] for f in walk.fields if f["name"] not in expected and f["type"] != "calc" and f["name"] in result]
    assert not left_out, f"{instrument}: the result answers {left_out}, which the logic leaves out"
