"""ValueSets a Questionnaire names by canonical URL without containing them, through the built
binary: one in a file beside it in the surveys folder, one whose CodeSystem is in a FHIR
package (the npm-style package/ layout) given with --fhir-packages.
- `survey validate` accepts the Questionnaire with its ValueSet beside it and the ValueSet
  file itself, and refuses the one whose ValueSet is only in the package until
  --fhir-packages names the folder, naming the item and the ValueSet;
- `survey serve` does the same at start: without the packages it stops with the message,
  with them it serves both, the options read from the terminology, and the ValueSet file is
  no survey;
- `survey import fhir --fhir-packages` writes the options into the survey file.
"""
import json
import subprocess
import urllib.error
import urllib.request

import pytest

from support import BINARY, Server

TRANSLATION = "http://hl7.org/fhir/StructureDefinition/translation"


def questionnaire(identifier: str, value_set: str) -> dict:
    return {"resourceType": "Questionnaire", "id": identifier, "status": "active", "item": [
        {"linkId": "pick", "type": "choice", "text": "Pick one", "answerValueSet": value_set}]}


@pytest.fixture
def folders(tmp_path):
    surveys, packages = tmp_path / "surveys", tmp_path / "packages"
    package = packages / "example.terminology#0.1.0" / "package"
    surveys.mkdir()
    package.mkdir(parents=True)
    (surveys / "beside.json").write_text(json.dumps(questionnaire("beside", "http://example.org/ValueSet/yes-no")))
    (surveys / "packaged.json").write_text(json.dumps(questionnaire("packaged", "http://example.org/ValueSet/severity|1.0")))
    (surveys / "yes-no.json").write_text(json.dumps({
        "resourceType": "ValueSet", "url": "http://example.org/ValueSet/yes-no", "status": "active",
        "compose": {"include": [{"system": "http://example.org/yn", "concept": [
            {"code": "Y", "display": "Yes"}, {"code": "N", "display": "No"}]}]}}))
    (package / "package.json").write_text(json.dumps({"name": "example.terminology", "version": "0.1.0"}))
    (package / "ValueSet-severity.json").write_text(json.dumps({
        "resourceType": "ValueSet", "url": "http://example.org/ValueSet/severity", "version": "1.0", "status": "active",
        "compose": {"include": [{"system": "http://example.org/CodeSystem/severity"}]}}))
    (package / "CodeSystem-severity.json").write_text(json.dumps({
        "resourceType": "CodeSystem", "url": "http://example.org/CodeSystem/severity", "status": "active",
        "content": "complete", "concept": [{"code": "mild", "display": "Mild"}, {"code": "severe", "display": "Severe"}]}))
    return surveys, packages


def survey(*args):
    return subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, timeout=60)


def test_validate_reads_the_terminology_beside_and_in_packages(folders):
    surveys, packages = folders
    done = survey("validate", surveys / "beside.json", surveys / "yes-no.json")
    assert done.returncode == 0, done.stdout + done.stderr
    refused = survey("validate", surveys / "packaged.json")
    assert refused.returncode == 1
    assert "$.item[0].answerValueSet" in refused.stdout and "http://example.org/ValueSet/severity|1.0" in refused.stdout, refused.stdout
    accepted = survey("validate", surveys / "packaged.json", "--fhir-packages", packages)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    imported = survey("import", "fhir", surveys / "packaged.json", "--fhir-packages", packages)
    assert imported.returncode == 0, imported.stderr
    choices = json.loads(imported.stdout)["steps"][0]["answerFormat"]["choices"]
    assert [(c["value"], c["text"]) for c in choices] == [("mild", "Mild"), ("severe", "Severe")]


def test_serve_stops_without_the_packages_and_serves_with_them(folders, tmp_path):
    surveys, packages = folders
    stopped = subprocess.run([str(BINARY), "serve", "--port", "0", "--surveys", surveys, "--data", tmp_path / "data0"],
                             capture_output=True, text=True, timeout=60)
    assert stopped.returncode == 1
    assert "packaged.json" in stopped.stderr and "severity|1.0" in stopped.stderr, stopped.stderr

    server = Server(surveys, tmp_path / "data", ("--fhir-packages", packages)).start()
    try:
        for path, options in (("/surveys/beside", ("Yes", "No")), ("/surveys/packaged", ("Mild", "Severe"))):
            with urllib.request.urlopen(server.url + path, timeout=10) as response:
                page = response.read().decode()
            assert all(f">{option}</label>" in page for option in options), page[:3000]
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(server.url + "/surveys/yes-no", timeout=10)
        assert missing.value.code == 404, "a ValueSet file is terminology, not a survey"
    finally:
        server.stop()
