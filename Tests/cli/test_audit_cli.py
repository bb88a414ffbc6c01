"""`survey audit` through the built binary, on a SQLite store that participants filled over HTTP
on a real server (with Back and a changed answer), then tampered with as someone with the file
would: `verify` passes on the log as written and names the entry changed, removed or inserted
(exit status 1); `--anchor` prints a head that `--expect-head` later checks; `export` writes
JSON Lines in which a changed answer keeps its value before and after, and a run deleted
through the API keeps its entries with their content erased."""
import json
import shutil
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from support import BINARY, Server  # noqa: E402
from fhir_walks import walk  # noqa: E402
from support.http import Http  # noqa: E402

EXAMPLES = ROOT / "Examples"
TOKEN = "audit-cli-token-0123456789"


def survey(*args):
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)
    return subprocess.run([str(BINARY), *map(str, args)], capture_output=True, text=True, timeout=120)


def lines(data, *args):
    run = survey("audit", "export", "--data", data, *args)
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A data folder whose runs were answered, changed and one deleted over HTTP."""
    data = tmp_path_factory.mktemp("audit-cli") / "data"
    server = Server(EXAMPLES, data, ("--api-token", TOKEN)).start()
    try:
        client = Http(server.url)
        status, body, url = client.get("/surveys/wellbeing-check")
        status, body, url = client.post_form(body, url, {})
        status, body, url = client.post_form(body, url, {"mood": "4"})
        status, body, url = client.post_form(body, url, {}, action="back")
        status, body, url = client.post_form(body, url, {"mood": "2"})
        assert status == 200, body[:2000]
        _, _, _ = walk(server.url, "wellbeing-check", {"mood": "3"}, pages=3)
        request = urllib.request.Request(f"{server.url}/api/v1/runs?survey=wellbeing-check",
                                         headers={"Authorization": f"Bearer {TOKEN}"})
        runs = json.load(urllib.request.urlopen(request))["runs"]
        assert len(runs) == 2
        deleted = runs[0]["id"]
        request = urllib.request.Request(f"{server.url}/api/v1/runs/{deleted}?reason=withdrawn", method="DELETE",
                                         headers={"Authorization": f"Bearer {TOKEN}"})
        assert urllib.request.urlopen(request).status == 204
    finally:
        server.stop()
    return data, deleted


def copy_of(store, tmp_path):
    data, _ = store
    copy = tmp_path / "data"
    shutil.copytree(data, copy)
    return copy


def test_the_log_keeps_a_changed_answer_before_and_after_and_an_erased_run(store):
    data, deleted = store
    entries = lines(data)
    changed = [entry for entry in entries if entry["action"] == "answer.changed"]
    assert len(changed) == 1
    before, after = changed[0]["content"]["before"], changed[0]["content"]["after"]
    assert before[0]["identifier"] == "mood" and after[0]["identifier"] == "mood"
    assert before != after and "4" in json.dumps(before) and "2" in json.dumps(after)
    assert any(entry["action"] == "step.back" for entry in entries)
    assert all(entry["actor"].startswith("participant:") for entry in entries if entry["action"].startswith("answer."))
    assert any(entry["action"] == "runs.listed" and entry["actor"] == "token:default" for entry in entries)
    erased = [entry for entry in lines(data, "--run", deleted) if entry["chain"] == deleted]
    assert erased[-1]["action"] == "content.erased" and erased[-1]["detail"]["reason"] == "withdrawn"
    # When the run began is kept with the reason (the dashboard counts discarded runs by it).
    created = next(entry for entry in erased if entry["action"] == "run.created")
    assert set(erased[-1]["detail"]) == {"reason", "began"}
    assert erased[-1]["detail"]["began"][:16] <= created["at"][:16], (erased[-1]["detail"], created["at"])
    assert erased[-1]["actor"] == "token:default"
    assert all("content" not in entry for entry in erased)
    assert any(entry.get("erased") for entry in erased)


def test_verify_passes_and_its_head_is_checked_later(store, tmp_path):
    data = copy_of(store, tmp_path)
    run = survey("audit", "verify", "--anchor", "--data", data)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Every chain verifies." in run.stdout
    head = run.stdout.split("Head: ")[1].strip()
    again = survey("audit", "verify", "--expect-head", head, "--data", data)
    assert again.returncode == 0 and "still holds" in again.stdout, again.stdout
    forged = head.split(":")[0] + ":" + "0" * 64
    assert survey("audit", "verify", "--expect-head", forged, "--data", data).returncode == 1


@pytest.mark.parametrize("change, kind", [
    ("UPDATE audit_log SET detail = replace(detail, 'mood', 'mooD') WHERE action = 'answer.changed'", "altered"),
    ("DELETE FROM audit_log WHERE action = 'step.back'", "removed"),
    ("INSERT INTO audit_log (chain, seq, at_ms, actor, action, survey, run, detail, content_hash, previous_hash, hash) "
     "SELECT chain, (SELECT max(seq) FROM audit_log b WHERE b.chain = a.chain) + 1, at_ms, actor, action, "
     "survey, run, detail, content_hash, previous_hash, hash FROM audit_log a WHERE action = 'answer.saved' LIMIT 1", "inserted"),
])
def test_verify_names_what_was_tampered_with(store, tmp_path, change, kind):
    data = copy_of(store, tmp_path)
    database = sqlite3.connect(data / "runs.sqlite")
    with database:
        refused = None
        try:
            database.execute(change)
        except sqlite3.DatabaseError as error:
            refused = error
        if not change.startswith("INSERT"):
            assert refused is not None and "append-only" in str(refused)
        database.execute("DROP TRIGGER IF EXISTS audit_log_no_update")
        database.execute("DROP TRIGGER IF EXISTS audit_log_no_delete")
        if refused is not None:
            database.execute(change)
    database.close()
    run = survey("audit", "verify", "--data", data)
    assert run.returncode == 1, run.stdout
    first = run.stdout.split("the first:\n")[1].splitlines()[0].strip()
    assert first.startswith(kind + ": chain "), run.stdout


def test_a_missing_store_is_named_not_made(tmp_path):
    for command in (("audit", "verify"), ("audit", "export")):
        run = survey(*command, "--data", tmp_path / "nowhere")
        assert run.returncode != 0 and "There is no database at" in run.stderr, run.stderr
    assert not (tmp_path / "nowhere").exists()
