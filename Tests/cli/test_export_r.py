"""The R syntax of `survey export` read by R itself: runs made through a real `survey serve` on
loopback, the wide CSV exported with missing codes, and `Rscript` sourcing the R file and
printing what it made of each column (class, label, levels, values, missing reasons), which
the assertions below check against the survey and the answers given.

Skipped when Rscript is missing; with REQUIRE_R=1 that fails instead."""
import datetime
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from export_support import FIXTURES, answer, codebook, need_binary, need_program, serving, survey, survey_folder

RSCRIPT = shutil.which("Rscript")

# Prints, as JSON, what sourcing the syntax made of the data frame, and any warning it gave.
DRIVER = r'''
args <- commandArgs(trailingOnly = TRUE)
warned <- character(0)
d <- withCallingHandlers(source(args[1], encoding = "UTF-8")$value,
                         warning = function(w) { warned <<- c(warned, conditionMessage(w)); invokeRestart("muffleWarning") })
str <- function(s) {
  if (is.null(s)) return("null")
  s <- enc2utf8(as.character(s))
  out <- paste0("\"", gsub("\t", "\\t", gsub("\r", "\\r", gsub("\n", "\\n", gsub("\"", "\\\"", gsub("\\", "\\\\", s, fixed = TRUE),
                fixed = TRUE), fixed = TRUE), fixed = TRUE), fixed = TRUE), "\"")
  ifelse(is.na(s), "null", out)
}
arr <- function(v) paste0("[", paste(v, collapse = ","), "]")
column <- function(i) {
  x <- d[[i]]
  m <- attr(x, "missing")
  values <- if (is.numeric(x)) ifelse(is.na(x), "null", as.character(x)) else str(as.character(x))
  paste0("{\"name\":", str(names(d)[i]), ",\"class\":", str(class(x)[1]), ",\"label\":", str(attr(x, "label")),
         ",\"levels\":", if (is.factor(x)) arr(str(levels(x))) else "null", ",\"values\":", arr(values),
         ",\"missing\":", if (is.null(m)) "null" else arr(str(as.character(m))),
         ",\"missing_levels\":", if (is.null(m)) "null" else arr(str(levels(m))), "}")
}
con <- file(args[2], open = "w", encoding = "UTF-8")
writeLines(paste0("{\"rows\":", nrow(d), ",\"warnings\":", arr(str(warned)), ",\"columns\":",
                  arr(vapply(seq_along(d), column, "")), "}"), con)
close(con)
'''

REASONS = ["not shown", "skipped", "don't know", "not reached"]

# A survey whose texts and values R must read back exactly: quotes, backslashes, a line break,
# accents, choice values a spreadsheet would take for formulas, and a "don't know" button.
LABELS_SURVEY = {
    "identifier": "export-labels",
    "title": "Export labels",
    "steps": [
        {"identifier": "pick", "type": "question", "optional": False,
         "title": {"en": "Say \"hi\" to C:\\temp\\new — café\nthen pick"},
         "answerFormat": {"type": "textChoice", "style": "singleChoice", "choices": [
             {"text": {"en": "Plus \"+\""}, "value": "+"},
             {"text": {"en": "Back\\slash"}, "value": "\\"},
             {"text": {"en": "Minus five"}, "value": "-5"}]}},
        {"identifier": "note", "type": "question", "optional": True, "title": {"en": "Anything to add?"},
         "answerFormat": {"type": "text", "showDontKnowButton": True}},
        {"identifier": "level", "type": "question", "optional": True, "title": {"en": "A level below zero"},
         "answerFormat": {"type": "numeric", "style": "integer", "minimum": -100, "maximum": 100}},
    ],
}

# Typed texts that the export protects or must not take for codes, each read back as stored.
TEXTS_SURVEY = {
    "identifier": "export-texts",
    "steps": [{"identifier": "typed", "type": "question", "optional": True, "title": {"en": "Type anything"},
               "answerFormat": {"type": "text", "multipleLines": True}}],
}
TEXTS = ["=1+1", "'=x", "''=x", "-91", "-94", "@home", "+1", "'x", "=\u0301x", "'\u0301=", "café",
         "a,b \"c\"", "line one\nline two", "'\r\n=x", "\t=tab", " =space", "==", "'"]


def need_rscript():
    need_program(RSCRIPT, "Rscript", "r-base-core", "REQUIRE_R")


def read_in_r(tmp_path: Path, surveys: Path, data: Path, survey_id: str, *extra: str) -> dict:
    """The wide CSV (with `extra` options) and the R syntax exported to `tmp_path`, and what R made of them."""
    survey("export", survey_id, "--format", "csv", "--missing-codes", *extra, "--surveys", surveys, "--data", data,
           "--output", tmp_path / f"{survey_id}.csv")
    survey("export", survey_id, "--format", "r", "--surveys", surveys, "--data", data, "--output", tmp_path / f"{survey_id}.R")
    (tmp_path / "driver.R").write_text(DRIVER, encoding="utf-8")
    out = tmp_path / f"{survey_id}.json"
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
    run = subprocess.run([RSCRIPT, "--vanilla", "driver.R", f"{survey_id}.R", out.name], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    facts = json.loads(out.read_text(encoding="utf-8"))
    print(json.dumps(facts, ensure_ascii=False, indent=1))
    return facts


def by_name(facts: dict) -> dict:
    return {column["name"]: column for column in facts["columns"]}


def check_common(facts: dict, book: list):
    """What holds for every survey: the columns and labels of the codebook, the reasons only
    where there is no value, and the missing reasons as a factor of the four."""
    assert facts["warnings"] == []
    assert [c["name"] for c in facts["columns"]] == [row["column"] for row in book]
    for column, row in zip(facts["columns"], book):
        assert column["label"] == row["label"], column["name"]
        if not row["missing_codes"]:
            assert column["missing"] is None, column["name"]
            continue
        assert column["missing_levels"] == REASONS, column["name"]
        for value, reason in zip(column["values"], column["missing"]):
            assert reason is None or value is None, (column["name"], value, reason)
        if row["storage"] == "number" and not row["values"]:
            assert column["class"] == "numeric", column["name"]


@pytest.fixture(scope="module")
def surveys(tmp_path_factory):
    return survey_folder(tmp_path_factory, ("fever-triage.json", "every-format.json"),
                         {"export-labels": LABELS_SURVEY, "export-texts": TEXTS_SURVEY})


@pytest.fixture(scope="module")
def data(surveys, tmp_path_factory):
    """Runs of each survey, made through the server's pages by a participant's HTTP requests."""
    need_rscript()
    need_binary()
    with serving(surveys, tmp_path_factory) as (server, folder):
        since = datetime.date.today() - datetime.timedelta(days=3)
        day = {"since.day": str(since.day), "since.month": str(since.month), "since.year": str(since.year)}
        fever = "fever-triage"
        answer(server, fever, [{}, {"fever": "true"}, {"celsius": "38.5"}, {"danger-signs": ["rash", "breathing"]}])
        answer(server, fever, [{}, {"fever": "true"}, {"celsius": "39.4", **day}, {"danger-signs": "none"}])
        answer(server, fever, [{}, {"fever": "false"}, {"other-symptoms": "=SUM(A1:A9)"}])
        answer(server, fever, [{}, {"fever": "false"}, {"other-symptoms": "-91"}])
        answer(server, fever, [{}, {"fever": "false"}, {"other-symptoms": "'@home"}])
        answer(server, fever, [{}, {"fever": "true"}], stop="save")
        script = json.loads((FIXTURES / "every-format.answers.json").read_text(encoding="utf-8"))
        answer(server, "every-format", list(script.values()))
        answer(server, "every-format", [{}, {"contact-ok": "false"}, {"handedness": "left"}])
        labels = "export-labels"
        answer(server, labels, [{"pick": "+"}, {"note.dontKnow": "1"}, {"level": "-50"}])
        answer(server, labels, [{"pick": "\\"}, {"note": "+1 more"}, {}])
        answer(server, labels, [{"pick": "-5"}], stop="save")
        for text in TEXTS:
            answer(server, "export-texts", [{"typed": text}])
        answer(server, "export-texts", [{}])
    return folder


def test_r_reads_the_fever_triage_runs_with_labels_factors_and_reasons(tmp_path, surveys, data):
    facts = read_in_r(tmp_path, surveys, data, "fever-triage", "--bom")
    assert (tmp_path / "fever-triage.csv").read_bytes().startswith(b"\xef\xbb\xbfrun_id,")
    check_common(facts, codebook(tmp_path, surveys, data, "fever-triage"))
    columns = by_name(facts)
    assert facts["rows"] == 6
    status = columns["status"]["values"]
    assert sorted(status) == ["completed"] * 5 + ["saved"]
    rows = sorted(range(6), key=lambda i: (status[i], columns["other-symptoms"]["values"][i] or ""))
    # Completed with a fever (urgent, see-gp), completed without ('@home, -91, =SUM), saved at the temperature.
    pick = lambda name, key="values": [columns[name][key][i] for i in rows]  # noqa: E731

    assert columns["fever"]["class"] == "factor" and columns["fever"]["levels"] == ["Yes", "No"]
    assert columns["fever"]["label"] == "Do you have a fever?"
    assert pick("fever") == ["Yes", "Yes", "No", "No", "No", "Yes"]
    assert pick("fever", "missing") == [None] * 6
    # Text as typed: the formula protection taken off, and "-91" typed is an answer, not a code.
    assert pick("other-symptoms") == [None, None, "'@home", "-91", "=SUM(A1:A9)", None]
    assert pick("other-symptoms", "missing") == ["not shown", "not shown", None, None, None, "not shown"]
    assert columns["temperature.celsius"]["class"] == "numeric"
    assert sorted(pick("temperature.celsius")[:2]) == [38.5, 39.4]
    assert pick("temperature.celsius", "missing") == [None, None, "not shown", "not shown", "not shown", "not reached"]
    assert columns["temperature.since"]["class"] == "character"
    assert sorted(pick("temperature.since", "missing")[:2], key=str) == [None, "skipped"]
    assert [value is None for value in pick("temperature.since")].count(False) == 1
    rash = columns["danger-signs__rash"]
    assert rash["class"] == "factor" and rash["levels"] == ["ticked", "not ticked"]
    assert rash["label"] == "Do you have any of these? — A rash that does not fade under a glass"
    assert sorted(pick("danger-signs__rash")[:2], key=str) == ["not ticked", "ticked"]
    assert pick("danger-signs__none", "missing")[2:] == ["not shown", "not shown", "not shown", "not reached"]
    assert columns["duration_seconds"]["class"] == "numeric"
    assert all(value is not None and value >= 0 for value in columns["duration_seconds"]["values"])
    assert columns["ended"]["class"] == "character"


def test_r_reads_every_format_with_string_factors_and_unprotected_values(tmp_path, surveys, data):
    facts = read_in_r(tmp_path, surveys, data, "every-format")
    check_common(facts, codebook(tmp_path, surveys, data, "every-format"))
    columns = by_name(facts)
    assert facts["rows"] == 2
    complete = columns["status"]["values"].index("completed")
    value = lambda name: columns[name]["values"][complete]  # noqa: E731
    assert columns["handedness"]["levels"] == ["Left hand", "Right hand", "Both hands equally"]
    assert value("handedness") == "Right hand"
    assert columns["blood-group__2"]["levels"] == ["Rhesus positive (+)", "Rhesus negative (−)"]
    assert value("blood-group__2") == "Rhesus positive (+)"
    assert value("transport__other") == "ticked" and value("transport__other_text") == "E-scooter"
    assert value("stress") == 4 and value("about-you.water") == 1.5 and value("about-you.exercise") == 2700
    assert value("participant-code") == "KL-4821"
    assert value("comments") == "I work night shifts twice a week,\nso my sleep varies a lot."
    left = 1 - complete
    assert columns["handedness"]["values"][left] == "Left hand"
    assert columns["about-you.email"]["missing"][left] == "not reached"
    assert columns["mood-face"]["missing"][left] == "not reached"


def test_r_reads_labels_with_quotes_backslashes_and_dont_know(tmp_path, surveys, data):
    facts = read_in_r(tmp_path, surveys, data, "export-labels")
    check_common(facts, codebook(tmp_path, surveys, data, "export-labels"))
    columns = by_name(facts)
    pick = columns["pick"]
    # The codebook's plain text makes the line break a space.
    assert pick["label"] == "Say \"hi\" to C:\\temp\\new — café then pick"
    assert pick["levels"] == ["Plus \"+\"", "Back\\slash", "Minus five"]
    order = sorted(range(3), key=lambda i: pick["values"][i])
    assert [pick["values"][i] for i in order] == ["Back\\slash", "Minus five", "Plus \"+\""]
    assert [columns["note"]["values"][i] for i in order] == ["+1 more", None, None]
    assert [columns["note"]["missing"][i] for i in order] == [None, "not reached", "don't know"]
    assert [columns["level"]["values"][i] for i in order] == [None, None, -50]
    assert [columns["level"]["missing"][i] for i in order] == ["skipped", "not reached", None]


def test_r_reads_typed_text_as_stored_whatever_a_spreadsheet_would_make_of_it(tmp_path, surveys, data):
    facts = read_in_r(tmp_path, surveys, data, "export-texts")
    check_common(facts, codebook(tmp_path, surveys, data, "export-texts"))
    columns = by_name(facts)
    results = json.loads(survey("export", "export-texts", "--format", "json", "--surveys", surveys, "--data", data).stdout)
    stored = {}
    for result in results:
        answers = [q.get("textAnswer") for step in result["results"] for q in step["results"]]
        stored[result["taskRunUUID"]] = answers[0] if answers else None
    read = dict(zip(columns["run_id"]["values"], columns["typed"]["values"]))
    assert read == stored
    assert sum(text is not None for text in read.values()) == len(TEXTS)
    assert {"=1+1", "'=x", "-91", "-94", "=\u0301x", "'\u0301=", "'"} <= set(read.values())
    missing = dict(zip(columns["run_id"]["values"], columns["typed"]["missing"]))
    assert sorted(map(str, missing.values())) == ["None"] * len(TEXTS) + ["skipped"]
