"""`survey allocation` through the built binary, on a SQLite store that panel participants filled
over HTTP on a real server: eight participants of one age group are split four and four (two
whole permuted blocks of 4), one participant who starts again keeps their arm and is not drawn
twice, and the quota counts the one completed run that meets it."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from support import BINARY, MAX_PAGES, Http, Server, controls_of, run_ended  # noqa: E402

EXAMPLES = ROOT / "Examples"
ANSWERS = {"age": "18to34", "pet": "dog", "enjoy": "1", "worry": "1", "cost": "true", "mood": "5"}


def survey(*args):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)
    return subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, timeout=120)


def take_part(base_url: str, pid: str, answers: dict) -> None:
    """One participant following the panel's link and answering every page they are shown."""
    client = Http(base_url)
    status, body, url = client.get(f"/surveys/panel-study?PROLIFIC_PID={pid}&STUDY_ID=S1&SESSION_ID=X1")
    for _ in range(MAX_PAGES):
        if run_ended(url):
            return
        assert status == 200, f"{pid}: {url} answered {status}:\n{body[:2000]!r}"
        names = [name for name in controls_of(body).controls if not name.startswith("_")]
        status, body, url = client.post_form(body, url, {name: answers[name] for name in names if name in answers})
    raise AssertionError(f"{pid}: the run did not end")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    data = tmp_path_factory.mktemp("allocation-cli") / "data"
    server = Server(EXAMPLES, data).start()
    try:
        for number in range(8):
            take_part(server.url, f"P{number}", ANSWERS)
        take_part(server.url, "P0", ANSWERS)                      # starts again: keeps their arm
        take_part(server.url, "Old1", {**ANSWERS, "age": "55plus"})
    finally:
        server.stop()
    return data


def test_the_report_shows_whole_blocks_balanced_and_the_quota(data):
    run = survey("allocation", "panel-study", "--data", data)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "Allocation step arm:"
    assert "  age=18to34: control 4, walk 4; 8 in all, gap 0" in lines, run.stdout
    assert any(line.startswith("  age=55plus: ") and line.endswith("1 in all, gap 0") for line in lines), run.stdout
    assert "Quota over-55: 1 completed" in lines, run.stdout


def test_a_survey_never_allocated_says_so(data):
    run = survey("allocation", "fever-triage", "--data", data)
    assert run.returncode == 0, run.stderr
    assert run.stdout == "No run of fever-triage has been allocated.\n"


def test_a_missing_store_is_named_not_made(tmp_path):
    run = survey("allocation", "panel-study", "--data", tmp_path / "nothing")
    assert run.returncode != 0
    assert "There is no database at" in run.stderr
    assert not (tmp_path / "nothing").exists()
