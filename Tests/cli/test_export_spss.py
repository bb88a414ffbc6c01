"""The SPSS syntax of `survey export` run by GNU PSPP: runs made through a real `survey serve` on
loopback, the wide CSV exported with missing codes, and `pspp` running the syntax with
`DISPLAY DICTIONARY.` and three `SAVE TRANSLATE`s appended (the values as read, the values with
every user-missing value blanked, the value labels in place of the values). The assertions check
what PSPP made of each variable (label, format, missing values, value labels) and of each answer
against tables written here by hand from the survey and the answers given.

Skipped when pspp is missing; with REQUIRE_PSPP=1 that fails instead."""
import csv
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from export_support import FIXTURES, answer, need_binary, need_program, serving, survey, survey_folder

PSPP = shutil.which("pspp")

DRIVER = """
DISPLAY DICTIONARY.
SAVE TRANSLATE /OUTFILE='values.csv' /TYPE=CSV /REPLACE /FIELDNAMES /CELLS=VALUES /MISSING=IGNORE /TEXTOPTIONS FORMAT=PLAIN.
SAVE TRANSLATE /OUTFILE='recoded.csv' /TYPE=CSV /REPLACE /FIELDNAMES /CELLS=VALUES /MISSING=RECODE /TEXTOPTIONS FORMAT=PLAIN.
SAVE TRANSLATE /OUTFILE='labels.csv' /TYPE=CSV /REPLACE /FIELDNAMES /CELLS=LABELS /MISSING=IGNORE /TEXTOPTIONS FORMAT=PLAIN.
"""

# The four reasons an answer is missing, labelled on every question; SPSS declares all four
# missing for a number, and -91, -92 and -94 for a string (which takes three).
REASONS = {-91: "not shown", -92: "skipped", -93: "don't know", -94: "not reached"}
NUMBER_MISSING = "-94 THRU -91"
STRING_MISSING = ["-91", "-92", "-94"]

# Columns of every survey: name, the format PSPP prints them with, label. PSPP widens an input
# format Fw.d with decimals by one column for the point (F12.3 is printed F13.3).
RUN_COLUMNS = [
    ("run_id", "A36", "The run's identifier (a random UUID)"),
    ("participant_id", "A1024", "The researcher's participant identifier, for runs made through the API"),
    ("status", "A16", "completed, saved, discarded or inProgress (left unfinished)"),
    ("survey_version", "A64", "The version of the survey file the run was made with (a hash of its definition)"),
    ("started", "A32", "When the run began, ISO 8601 with the survey's offset"),
    ("ended", "A32", "When the run ended, ISO 8601 with offset; empty while it has not"),
    ("duration_seconds", "F13.3", "Seconds from the start to the end, or to the last answer of a run that has not ended"),
]
TICKED = {1: "ticked", 0: "not ticked"}
WAY = "How did you get around in the last 7 days? — "
TOWN = "Which town or city do you live in?"

# Questions of every-format: name, print format, label, value labels besides the reasons'.
EVERY_FORMAT = [
    ("contact_ok", "F8.0", "May we contact you about future studies?",
     {1: "Yes, you may contact me", 0: "No, please do not contact me"}),
    ("handedness", "A8", "Which hand do you write with?",
     {"left": "Left hand", "right": "Right hand", "both": "Both hands equally"}),
    ("transport__walk", "F8.0", WAY + "Walking", TICKED),
    ("transport__bike", "F8.0", WAY + "Cycling", TICKED),
    ("transport__public", "F8.0", WAY + "Bus, tram or train", TICKED),
    ("transport__car", "F8.0", WAY + "Car or motorbike", TICKED),
    ("transport__other", "F8.0", WAY + "Another way", TICKED),
    ("transport__none", "F8.0", WAY + "I did not leave home", TICKED),
    ("transport__other_text", "A32767", WAY + "other, as typed", {}),
    ("country", "A8", "Which country do you live in?",
     {"DE": "Germany", "AT": "Austria", "CH": "Switzerland", "XX": "Another country"}),
    ("blood_group__1", "A8", "What is your blood group? — part 1", {"A": "A", "B": "B", "AB": "AB", "O": "O"}),
    # The CSV protects "+" and "-" from spreadsheets with an apostrophe, and the labels follow.
    ("blood_group__2", "A8", "What is your blood group? — part 2",
     {"'+": "Rhesus positive (+)", "'-": "Rhesus negative (−)"}),
    ("mood_face", "A8", "Which face best matches how you feel today?", {"good": "Good", "okay": "Okay", "bad": "Not good"}),
    ("stress", "F12.0", "How stressed have you felt in the last 7 days?", {}),
    ("pain", "F13.1", "How strong is any pain you have right now?", {}),
    # A percent scale keeps fractions: 60 % is 0.6, shown with two decimals more than typed.
    ("sitting", "F13.2", "About what share of your waking day do you spend sitting?", {}),
    ("sleep_quality", "F8.0", "How well have you slept in the last 7 days?",
     {1: "Very badly", 2: "Badly", 3: "Neither well nor badly", 4: "Well", 5: "Very well"}),
    ("about_you.height", "F13.2", "How tall are you?", {}),
    ("about_you.weight", "F13.2", "How much do you weigh?", {}),
    ("about_you.age", "F12.0", "How old are you?", {}),
    ("about_you.daily_steps", "F12.0", "About how many steps do you walk on a typical day?", {}),
    ("about_you.water", "F13.1", "How much water do you drink on a typical day?", {}),
    ("about_you.wake_time", "A32", "What time do you usually wake up on a weekday?", {}),
    ("about_you.exercise", "F12.0", "How long do you exercise on a typical day?", {}),
    ("about_you.email", "A32767", "What email address should we use to contact you?", {}),
    ("last_checkup", "A32", "When did you last have a medical check-up?", {}),
    ("last_painkiller", "A32", "When did you last take a painkiller?", {}),
    ("participant_code", "A22", "What is your participant code?", {}),
    ("hometown", "A32767", TOWN, {}),
    ("hometown__latitude", "F13.6", TOWN + " — latitude", {}),
    ("hometown__longitude", "F13.6", TOWN + " — longitude", {}),
    ("ladder", "F12.0", "Where would you place yourself on this ladder?", {}),
    ("comments", "A3001", "Is there anything else you would like to tell us?", {}),
]
COMMENT = 'Nights, twice a week; "mostly" fine — danke schön'

# A survey in Ukrainian first (its labels are the export's), with English second: two-, three-
# and four-byte characters, quotes and a backslash, labels longer than SPSS keeps (256 bytes for
# a variable's, 120 for a value's, cut on a character), and values a spreadsheet would run.
LONG_TITLE = "Скільки годин ви спите? " + "睡眠時間" * 70
LONG_YES = "Так, " + "はい" * 70
UNICODE_SURVEY = {
    "identifier": "export-unicode",
    "languages": ["uk", "en"],
    "title": {"uk": "Опитування", "en": "Survey"},
    "steps": [
        {"identifier": "pick", "type": "question", "optional": False,
         "title": {"uk": "Скажіть \"привіт\" — C:\\temp 🙂", "en": "Say \"hi\""},
         "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [
             {"text": {"uk": "Плюс \"+\"", "en": "Plus"}, "value": "+"},
             {"text": {"uk": "Зворотна\\риска", "en": "Backslash"}, "value": "\\"},
             {"text": {"uk": "Мінус п'ять", "en": "Minus five"}, "value": "-5"}]}},
        {"identifier": "night", "type": "question", "optional": True, "title": {"uk": LONG_TITLE, "en": "Sleep?"},
         "answerFormat": {"type": "boolean", "yes": {"uk": LONG_YES, "en": "Yes"}, "no": {"uk": "Ні", "en": "No"}}},
        {"identifier": "note", "type": "question", "optional": True, "title": {"uk": "Щось додати?", "en": "Anything?"},
         "answerFormat": {"type": "text", "maximumLength": 20, "showDontKnowButton": True}},
        {"identifier": "level", "type": "question", "optional": True, "title": {"uk": "Рівень нижче нуля", "en": "Level"},
         "answerFormat": {"type": "numeric", "style": "integer", "minimum": -100, "maximum": 100}},
    ],
}
UNICODE = [
    ("pick", "A8", "Скажіть \"привіт\" — C:\\temp 🙂", {"'+": "Плюс \"+\"", "\\": "Зворотна\\риска", "'-5": "Мінус п'ять"}),
    # 24 characters of one or two bytes (43 bytes), then 71 of three make 256 bytes; "Так, " is 8
    # bytes, and 37 characters of three more make 119 (a 38th would pass 120).
    ("night", "F8.0", "Скільки годин ви спите? " + ("睡眠時間" * 70)[:71], {1: "Так, " + ("はい" * 70)[:37], 0: "Ні"}),
    # Twenty characters of up to three bytes, and the apostrophe.
    ("note", "A61", "Щось додати?", {}),
    ("level", "F12.0", "Рівень нижче нуля", {}),
]


def need_pspp():
    need_program(PSPP, "pspp", "pspp", "REQUIRE_PSPP")


def export(tmp_path: Path, surveys: Path, data: Path, survey_id: str):
    """The coded wide CSV and the SPSS syntax as `survey export` writes them."""
    survey("export", survey_id, "--format", "csv", "--missing-codes", "--surveys", surveys, "--data", data,
           "--output", tmp_path / f"{survey_id}.csv")
    survey("export", survey_id, "--format", "spss", "--surveys", surveys, "--data", data, "--output", tmp_path / f"{survey_id}.sps")


def run_pspp(folder: Path, survey_id: str) -> dict:
    """PSPP's reading of the syntax and the CSV in `folder`: the tables it printed, anything it
    said outside a table (warnings, errors), and the three files the driver saved."""
    syntax = (folder / f"{survey_id}.sps").read_text(encoding="utf-8")
    (folder / "run.sps").write_text(syntax + DRIVER, encoding="utf-8")
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    run = subprocess.run([PSPP, "-O", "format=csv", "-o", "output.csv", "run.sps"], cwd=folder, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    tables, said, current = {}, [], None
    with open(folder / "output.csv", encoding="utf-8", newline="") as file:
        for row in csv.reader(file):
            if len(row) == 1 and row[0].startswith("Table: "):
                current = tables.setdefault(row[0].removeprefix("Table: "), [])
            elif not row:
                current = None
            elif current is not None:
                current.append(row)
            else:
                said.append(",".join(row))
    saved = {}
    for name in ("values", "recoded", "labels"):
        with open(folder / f"{name}.csv", encoding="utf-8", newline="") as file:
            saved[name] = list(csv.DictReader(file))
    print((folder / "output.csv").read_text(encoding="utf-8"))
    return {"tables": tables, "said": said, **saved}


def dictionary(reading: dict) -> dict:
    """Each variable's label, print format, missing values and value labels ({value: label},
    the user-missing ones apart), as DISPLAY DICTIONARY printed them."""
    head, *rows = reading["tables"]["Variables"]
    variables = {}
    for row in rows:
        fields = dict(zip(head, row))
        # A string's missing values are quoted and padded to its width ("-91     " in an A8).
        missing = fields["Missing Values"]
        if missing.startswith('"'):
            missing = [value.rstrip(" ") for value in re.findall(r'"([^"]*)"', missing)]
        variables[fields["Name"]] = {"label": fields["Label"], "format": fields["Print Format"], "missing": missing,
                                     "labels": {}, "missing_labels": {}}
    # Value labels come under each variable's label, in the dictionary's order.
    order, name = list(variables), None
    for row in reading["tables"].get("Value Labels", [])[1:]:
        if row[0].startswith("Footnote: "):
            continue
        if row[0]:
            name = next(n for n in order[order.index(name) + 1 if name else 0:] if variables[n]["label"] == row[0])
        numeric = variables[name]["format"].startswith("F")
        value, is_missing = re.subn(r"\[a\]$", "", row[1])
        key = float(value) if numeric else value.rstrip(" ")
        variables[name]["missing_labels" if is_missing else "labels"][key] = row[2]
    return variables


def check_dictionary(reading: dict, questions: list):
    """Every column in order with its label and format; the questions' value labels with the
    four reasons', and the reasons declared missing; no missing values or labels elsewhere."""
    assert reading["said"] == []
    variables = dictionary(reading)
    assert list(variables) == [c[0] for c in RUN_COLUMNS] + [q[0] for q in questions]
    for name, print_format, label in RUN_COLUMNS:
        assert variables[name] == {"label": label, "format": print_format, "missing": "", "labels": {}, "missing_labels": {}}
    for name, print_format, label, labels in questions:
        numeric = print_format.startswith("F")
        reasons = {(float(code) if numeric else str(code)): reason for code, reason in REASONS.items()}
        declared = {key: text for key, text in reasons.items() if numeric or key != "-93"}
        labels = {(float(key) if numeric else key): text for key, text in labels.items()}
        if not numeric:
            labels["-93"] = REASONS[-93]
        got = variables[name]
        assert (got["label"], got["format"]) == (label, print_format), name
        assert got["missing"] == (NUMBER_MISSING if numeric else STRING_MISSING), name
        assert (got["labels"], got["missing_labels"]) == (labels, declared), name
    return variables


def cases(reading: dict, variables: dict, key: str) -> dict:
    """The values PSPP read, the same with its missing values blanked, and their labels, by `key`'s
    value, each with the number of decimals PSPP shows of each number."""
    numbers = {name for name, variable in variables.items() if variable["format"].startswith("F")}
    decimals = {name: int(variables[name]["format"].split(".")[1]) for name in numbers}
    def typed(row):
        return {name: (None if not cell.strip() else float(cell)) if name in numbers else cell for name, cell in row.items()}
    rows = {}
    for values, recoded, labels in zip(reading["values"], reading["recoded"], reading["labels"]):
        rows[values[key]] = {"values": typed(values), "recoded": typed(recoded), "labels": labels, "decimals": decimals}
    assert len(rows) == len(reading["values"])
    return rows


def check_case(case: dict, status: str, answers: dict, labels: dict):
    """A case against the answers as given: codes stay in the values and are blank once PSPP
    takes out its missing values (all but a string's -93); labels where the value has one."""
    values, recoded = case["values"], case["recoded"]
    assert values["status"] == status
    assert re.fullmatch(r"[0-9a-f-]{36}", values["run_id"]) and values["duration_seconds"] >= 0
    assert {name: values[name] for name in answers} == answers
    for name, value in answers.items():
        is_code = value in (-91.0, -92.0, -93.0, -94.0) or value in ("-91", "-92", "-94")
        assert recoded[name] == (("" if isinstance(value, str) else None) if is_code else value), name
    assert {name: case["labels"][name] for name in labels} == labels
    # No value shows with fewer decimals than it has.
    for name, value in answers.items():
        assert not isinstance(value, float) or value == round(value, case["decimals"][name]), (name, value)


@pytest.fixture(scope="module")
def surveys(tmp_path_factory):
    return survey_folder(tmp_path_factory, ("every-format.json",), {"export-unicode": UNICODE_SURVEY})


@pytest.fixture(scope="module")
def data(surveys, tmp_path_factory):
    """Runs of each survey, made through the server's pages by a participant's HTTP requests."""
    need_pspp()
    need_binary()
    with serving(surveys, tmp_path_factory) as (server, folder):
        script = json.loads((FIXTURES / "every-format.answers.json").read_text(encoding="utf-8"))
        # One line: SPSS reads a case per line (test_a_line_break_splits_its_case).
        script["comments"] = {"comments": COMMENT}
        answer(server, "every-format", list(script.values()))
        answer(server, "every-format", [{}, {"contact-ok": "false"}, {"handedness": "left"}])
        unicode = "export-unicode"
        answer(server, unicode, [{"pick": "+"}, {"night": "true"}, {"note.dontKnow": "1"}, {"level": "-50"}])
        answer(server, unicode, [{"pick": "\\"}, {}, {"note": "Привіт, 世界 🙂"}, {}])
        answer(server, unicode, [{"pick": "-5"}], stop="save")
    return folder


def test_pspp_reads_every_format_with_labels_formats_missing_values_and_the_answers(tmp_path, surveys, data):
    export(tmp_path, surveys, data, "every-format")
    reading = run_pspp(tmp_path, "every-format")
    rows = cases(reading, check_dictionary(reading, EVERY_FORMAT), "status")
    assert set(rows) == {"completed", "inProgress"}
    check_case(rows["completed"], "completed", {
        "contact_ok": 1.0, "handedness": "right", "transport__walk": 1.0, "transport__bike": 0.0,
        "transport__public": 1.0, "transport__car": 0.0, "transport__other": 1.0, "transport__none": 0.0,
        "transport__other_text": "E-scooter", "country": "DE", "blood_group__1": "A", "blood_group__2": "'+",
        "mood_face": "okay", "stress": 4.0, "pain": 2.5, "sitting": 0.6, "sleep_quality": 4.0,
        "about_you.height": 172.0, "about_you.weight": 68.5, "about_you.age": 42.0, "about_you.daily_steps": 8000.0,
        "about_you.water": 1.5, "about_you.wake_time": "06:45", "about_you.exercise": 45 * 60.0,
        "about_you.email": "participant@example.com", "last_checkup": "2024-05-14",
        "last_painkiller": "2025-01-10T08:30:00+01:00", "participant_code": "KL-4821", "hometown": "Leipzig, Germany",
        # A typed address has no coordinates: empty cells, which PSPP reads as system-missing.
        "hometown__latitude": None, "hometown__longitude": None, "ladder": 6.0, "comments": COMMENT,
    }, labels={"contact_ok": "Yes, you may contact me", "handedness": "Right hand", "transport__walk": "ticked",
               "transport__bike": "not ticked", "country": "Germany", "blood_group__2": "Rhesus positive (+)",
               "mood_face": "Okay", "sleep_quality": "Well", "stress": "4", "comments": COMMENT})
    # Left on the third page: every question after it not reached.
    unreached = {q[0]: (-94.0 if q[1].startswith("F") else "-94") for q in EVERY_FORMAT[2:]}
    check_case(rows["inProgress"], "inProgress", {"contact_ok": 0.0, "handedness": "left", **unreached},
               labels={"contact_ok": "No, please do not contact me", "handedness": "Left hand",
                       "transport__walk": "not reached", "country": "not reached", "pain": "not reached"})
    assert rows["inProgress"]["values"]["ended"] == ""


def test_pspp_reads_a_ukrainian_survey_with_quotes_cut_labels_and_dont_know(tmp_path, surveys, data):
    export(tmp_path, surveys, data, "export-unicode")
    reading = run_pspp(tmp_path, "export-unicode")
    rows = cases(reading, check_dictionary(reading, UNICODE), "pick")
    assert set(rows) == {"'+", "\\", "'-5"}
    check_case(rows["'+"], "completed", {"night": 1.0, "note": "-93", "level": -50.0},
               labels={"pick": "Плюс \"+\"", "night": UNICODE[1][3][1], "note": "don't know", "level": "-50"})
    check_case(rows["\\"], "completed", {"night": -92.0, "note": "Привіт, 世界 🙂", "level": -92.0},
               labels={"pick": "Зворотна\\риска", "night": "skipped", "note": "Привіт, 世界 🙂", "level": "skipped"})
    check_case(rows["'-5"], "saved", {"night": -94.0, "note": "-94", "level": -94.0},
               labels={"pick": "Мінус п'ять", "night": "not reached", "note": "not reached"})
    # "I don't know" in a string stays a valid value: a string takes three missing values.
    assert rows["'+"]["recoded"]["note"] == "-93"


def test_a_line_break_splits_its_case_as_the_syntax_warns(tmp_path, surveys, data):
    """The comment of the syntax says so, and so does PSPP: the rest of the answer starts a case."""
    export(tmp_path, surveys, data, "every-format")
    assert "* GET DATA reads a line as a case" in (tmp_path / "every-format.sps").read_text(encoding="utf-8")
    coded = (tmp_path / "every-format.csv").read_text(encoding="utf-8")
    quoted = '"' + COMMENT.replace('"', '""') + '"'
    assert quoted in coded
    (tmp_path / "every-format.csv").write_text(coded.replace(quoted, '"first line\nsecond line"'), encoding="utf-8")
    reading = run_pspp(tmp_path, "every-format")
    values = reading["values"]
    assert len(values) == 3
    assert sorted(row["comments"] for row in values) == ["", "-94", "first line"]
    assert [row["run_id"][:12] for row in values if not row["status"]] == ['second line"']
    assert any("Quoted string extends beyond end of line" in line for line in reading["said"])
