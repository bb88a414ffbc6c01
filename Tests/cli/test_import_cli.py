"""`survey import redcap|xlsform`, `survey export-definition --format redcap`, and a dictionary or
a workbook in a folder that `survey validate` and `survey preview` read as they are
(docs/redcap-and-xlsform.md): what each writes, what each refuses and where it says so."""
import csv
import json
import shutil
import subprocess

from support import BINARY, FIXTURES, ROOT, Launched, get

REDCAP = FIXTURES / "redcap-corpus"
XLSFORM = FIXTURES / "xlsform-corpus"

DICTIONARY = """Variable / Field Name,Form Name,Section Header,Field Type,Field Label,"Choices, Calculations, OR Slider Labels",Field Note,Text Validation Type OR Show Slider Number,Text Validation Min,Text Validation Max,Identifier?,Branching Logic (Show field only if...),Required Field?,Custom Alignment,Question Number (surveys only),Matrix Group Name,Matrix Ranking?,Field Annotation
record_id,screening,,text,Record ID,,,,,,,,,,,,,
age,screening,,text,Age,,,integer,0,120,,,y,,,,,
pregnant,screening,,yesno,Are you pregnant?,,,,,,,[age] >= 16,,,,,,
weeks,screening,,text,Weeks,,,integer,1,42,,[pregnant] = '1',,,,,,
mood,follow_up,,radio,How are you?,"1, Well | 2, Unwell",,,,,,,,,,,,
"""


def run(*arguments, cwd=None):
    return subprocess.run([str(BINARY), *map(str, arguments)], capture_output=True, text=True, cwd=cwd, timeout=60)


def test_a_dictionary_of_two_instruments_needs_a_folder_or_an_instrument(tmp_path):
    source = tmp_path / "study.csv"
    source.write_text(DICTIONARY)
    alone = run("import", "redcap", source)
    assert alone.returncode != 0 and "screening, follow_up" in alone.stderr and alone.stdout == ""
    one = run("import", "redcap", source, "--instrument", "screening")
    assert one.returncode == 0, one.stderr
    survey = json.loads(one.stdout)
    assert [step["identifier"] for step in survey["steps"]] == ["age", "pregnant", "weeks"]
    assert survey["skipRules"]["weeks"] == {"not": {"result": "pregnant", "equals": True}}
    folder = tmp_path / "out"
    both = run("import", "redcap", source, "--output", folder)
    assert both.returncode == 0, both.stderr
    assert sorted(path.name for path in folder.iterdir()) == ["follow_up.json", "screening.json"]
    for path in folder.iterdir():
        checked = run("validate", path)
        assert checked.returncode == 0, checked.stdout


def test_a_refused_field_names_its_row_and_column_and_nothing_is_written(tmp_path):
    source = tmp_path / "bad.csv"
    source.write_text(DICTIONARY.replace("mood,follow_up,,radio", "mood,follow_up,,file"))
    target = tmp_path / "out"
    result = run("import", "redcap", source, "--output", target)
    assert result.returncode == 1
    assert 'error: $: Row 6 (mood), column "Field Type": A file upload field' in result.stderr
    assert not target.exists()


def test_validate_reads_a_dictionary_and_a_workbook_at_their_rows(tmp_path):
    good = run("validate", REDCAP / "02-redcapr-survey-project.csv")
    assert good.returncode == 0, good.stdout
    bad = run("validate", XLSFORM / "19-xlsformorg-gps-store-geopoint.xlsx")
    assert bad.returncode == 1
    assert "Sheet survey, row 3 (store_gps), column type: A geopoint question" in bad.stdout


def test_an_xlsform_workbook_and_its_csv_form_import_alike(tmp_path):
    workbook = XLSFORM / "15-xlsformorg-multilang-en-es-constraint.xlsx"
    from_workbook = run("import", "xlsform", workbook)
    assert from_workbook.returncode == 0, from_workbook.stderr
    survey = json.loads(from_workbook.stdout)
    assert survey["languages"] == ["en", "es"]
    # The same form in XLSForm's CSV form: a row naming each sheet, its rows after it.
    import openpyxl  # noqa: PLC0415 - only this test reads a workbook itself
    book = openpyxl.load_workbook(workbook)
    lines = []
    for sheet in book.worksheets:
        rows = [["" if cell is None else str(cell) for cell in row] for row in sheet.iter_rows(values_only=True)]
        lines.append([sheet.title, *rows[0]])
        lines += [["", *row] for row in rows[1:]]
    form = tmp_path / "form.csv"
    with form.open("w", newline="") as file:
        csv.writer(file).writerows(lines)
    from_csv = run("import", "xlsform", form)
    assert from_csv.returncode == 0, from_csv.stderr
    assert json.loads(from_csv.stdout)["steps"] == survey["steps"]


def test_export_definition_writes_a_dictionary_that_imports_back(tmp_path):
    exported = run("export-definition", "fever-triage", "--format", "redcap", "--output", tmp_path / "fever.csv",
                   "--surveys", ROOT / "Examples")
    assert exported.returncode == 0, exported.stderr
    assert "navigation rules are not written" in exported.stderr
    rows = list(csv.reader((tmp_path / "fever.csv").open()))
    assert rows[0][:4] == ["Variable / Field Name", "Form Name", "Section Header", "Field Type"]
    assert rows[1][:5] == ["record_id", "fever_triage", "", "text", "Record ID"]
    assert ["fever", "yesno"] == [rows[3][0], rows[3][3]]
    back = run("import", "redcap", tmp_path / "fever.csv")
    assert back.returncode == 0, back.stderr


def test_preview_lists_a_dictionary_and_a_workbook_with_their_rules_in_words(tmp_path):
    study = tmp_path / "study"
    study.mkdir()
    (study / "study.csv").write_text(DICTIONARY)
    shutil.copy(XLSFORM / "22-kobo-acknowledge-group-relevant.xlsx", study)
    preview = Launched(BINARY, "preview", [study], cwd=tmp_path, env={}).launch()
    try:
        status, body = preview.wait("/preview")
        assert status == 200
        for survey in [b"/preview/screening", b"/preview/follow_up", b"/preview/22-kobo-acknowledge-group-relevant"]:
            assert survey in body, body[:800]
        status, body = get(preview.url + "/preview/screening")
        assert status == 200
        text = body.decode()
        assert "weeks" in text and "skipped when" in text.lower(), text[:2000]
    finally:
        preview.stop()
