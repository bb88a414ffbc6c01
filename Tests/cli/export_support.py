"""What the tests of the R and SPSS syntax share: the `survey` binary run as a researcher runs it,
a participant answering through a real server's pages, the codebook, and the check that the
program reading the syntax is there (skipped without it, failed with its REQUIRE_… variable)."""
import contextlib
import csv
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
from support import BINARY, Http, Server, start_path  # noqa: F401

EXAMPLES = ROOT / "Examples"
FIXTURES = ROOT / "Tests" / "Fixtures"


def need_program(path: str | None, program: str, package: str, variable: str):
    """Skip without `program`; with `variable`=1 in the environment, fail instead."""
    if path:
        return
    if os.environ.get(variable) == "1":
        pytest.fail(f"{program} is missing and {variable}=1: install {package}", pytrace=False)
    pytest.skip(f"{program} is missing (install {package}; {variable}=1 makes this a failure)")


def need_binary():
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)
    help_run = subprocess.run([str(BINARY), "export", "--help"], capture_output=True, text=True, timeout=60)
    assert help_run.returncode == 0, help_run.stderr


def survey(*args):
    run = subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"survey {' '.join(map(str, args))}:\n{run.stdout}{run.stderr}"
    return run


def survey_folder(tmp_path_factory, examples: tuple = (), written: dict | None = None) -> Path:
    """A folder of surveys: copies of `examples` (file names in Examples/) and `written`
    {identifier: survey document}."""
    folder = tmp_path_factory.mktemp("surveys")
    for name in examples:
        shutil.copy(EXAMPLES / name, folder / name)
    for identifier, document in (written or {}).items():
        (folder / f"{identifier}.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return folder


@contextlib.contextmanager
def serving(surveys: Path, tmp_path_factory):
    """(server, data folder): a server on `surveys` with a fresh data folder, stopped at the end,
    for participants to make runs through its pages."""
    folder = tmp_path_factory.mktemp("data")
    server = Server(surveys, folder).start()
    try:
        yield server, folder
    finally:
        server.stop()


def answer(server: Server, survey_id: str, pages: list, stop: str | None = None):
    """One participant: the fields of each page in turn; `stop` leaves the run (or saves it) there."""
    http = Http(server.url)
    status, body, url = http.get(start_path(survey_id, server.surveys))
    for fields in pages:
        assert status == 200, body[:500]
        status, body, url = http.post_form(body, url, fields)
    if stop == "save":
        status, body, url = http.post_form(body, url, {}, action="save")
    assert status == 200, body[:500]
    return url


def codebook(tmp_path: Path, surveys: Path, data: Path, survey_id: str) -> list:
    book = tmp_path / f"{survey_id}.codebook.csv"
    survey("export", survey_id, "--format", "codebook", "--surveys", surveys, "--data", data, "--output", book)
    with open(book, encoding="utf-8", newline="") as file:
        return list(csv.DictReader(file))
