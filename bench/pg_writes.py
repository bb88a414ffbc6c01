#!/usr/bin/env python3
"""What one answer costs with the PostgreSQL store: bytes of WAL written per answer, early and
late in a long survey, and the server's CPU time per answer.

Starts `survey serve --store URL` on a 40-question survey, walks participants through it over
HTTP (Tests/e2e/survey_http.py), and reads `pg_current_wal_lsn()` and the visit rows before and
after, so the figure is what PostgreSQL wrote, not what the server sent. Run it with two
binaries to compare two versions of the store:

    bench/pg_writes.py --store postgres://survey:survey@127.0.0.1:5432/survey --binary .build/release/survey
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))
from bench import free_port, terminate, wait_port  # noqa: E402
from survey_http import Http  # noqa: E402

QUESTIONS = 40


def survey(folder: Path) -> None:
    steps = [{"identifier": f"q{n}", "type": "question", "title": f"Question {n}", "optional": False,
              "answerFormat": {"type": "numeric", "style": "integer", "minimum": 0, "maximum": 100}}
             for n in range(1, QUESTIONS + 1)]
    steps.append({"identifier": "done", "type": "completion", "title": "Thank you"})
    (folder / "long.json").write_text(json.dumps({"identifier": "long", "steps": steps}))


def cpu_seconds(pid: int) -> float:
    """The process's user and system time so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def psql(url: str, sql: str) -> str:
    return subprocess.run(["psql", url, "-Atc", sql], capture_output=True, text=True, check=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", required=True, help="a postgres:// URL of a database the test may write in")
    parser.add_argument("--binary", default=str(ROOT / ".build" / "release" / "survey"))
    parser.add_argument("--participants", type=int, default=10)
    args = parser.parse_args()
    schema = f"w{int(time.time())}"
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / "surveys").mkdir()
        survey(folder / "surveys")
        port = free_port()
        server = subprocess.Popen([args.binary, "serve", "--port", str(port), "--surveys", str(folder / "surveys"),
                                   "--data", str(folder / "data"), "--store", f"{args.store}?schema={schema}",
                                   "--templates", str(ROOT / "Templates"), "--public", str(ROOT / "Public"),
                                   "--runs-per-hour", "0"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_port(port)
            base = f"http://127.0.0.1:{port}"
            # By position on the path: bytes of WAL per answer for the early and the late questions.
            early, late = [], []
            answers = 0
            cpu = 0.0
            for _ in range(args.participants):
                client = Http(base)
                status, body, url = client.get("/surveys/long")
                for n in range(1, QUESTIONS + 1):
                    before = psql(args.store, "SELECT pg_current_wal_insert_lsn()")
                    started = cpu_seconds(server.pid)
                    status, body, url = client.post_form(body, url, {f"q{n}": str(n)})
                    cpu += cpu_seconds(server.pid) - started
                    answers += 1
                    assert status == 200, status
                    after = psql(args.store, f"SELECT pg_wal_lsn_diff('{psql(args.store, 'SELECT pg_current_wal_insert_lsn()')}', '{before}')")
                    (early if n <= 5 else late if n > QUESTIONS - 5 else []).append(float(after))
            print(f"binary: {args.binary}")
            print(f"WAL bytes per answer, questions 1-5:   {sum(early) / len(early):9.0f}")
            print(f"WAL bytes per answer, questions 36-40: {sum(late) / len(late):9.0f}")
            print(f"server CPU per answer (POST, 303 and GET of the next step): {cpu / answers * 1e3:.2f} ms")
        finally:
            terminate(server)


if __name__ == "__main__":
    main()
