"""Answers written to cost the server time: a pattern that backtracks without end must refuse
them quickly, and the rest of the server must not notice."""
from __future__ import annotations

import json
import statistics
import threading
import time
import urllib.request

from support import Http

HOSTILE = "a" * 40 + "!"

SURVEY = {
    "identifier": "regex-trap",
    "title": "A code",
    "steps": [
        {
            "identifier": "code",
            "type": "question",
            "title": "Your code",
            "answerFormat": {
                "type": "text",
                "validationRegularExpression": "^(a+)+$",
                "invalidMessage": "Only the letter a",
            },
        }
    ],
}


def test_a_backtracking_pattern_refuses_hostile_answers_at_once_and_health_stays_fast(release_server_factory, tmp_path):
    surveys = tmp_path / "surveys"
    surveys.mkdir()
    (surveys / "regex-trap.json").write_text(json.dumps(SURVEY))
    server = release_server_factory(surveys=surveys)
    assert "repeats a group that itself repeats" in server.log_text(), "the pattern is warned about at load"

    answer_times: list[float] = []
    statuses: list[int] = []
    lock = threading.Lock()
    stop = threading.Event()

    def attacker():
        browser = Http(server.url)
        status, page, url = browser.get("/surveys/regex-trap")
        assert status == 200
        for _ in range(200):
            if stop.is_set():
                break
            started = time.monotonic()
            status, page, url = browser.post_form(page, url, {"code": HOSTILE})
            with lock:
                answer_times.append(time.monotonic() - started)
                statuses.append(status)

    threads = [threading.Thread(target=attacker) for _ in range(2)]
    for thread in threads:
        thread.start()
    health_times: list[float] = []
    deadline = time.monotonic() + 6
    try:
        time.sleep(0.5)
        while time.monotonic() < deadline and len(health_times) < 60:
            started = time.monotonic()
            with urllib.request.urlopen(server.url + "/health", timeout=10) as response:
                assert response.status == 200
            health_times.append(time.monotonic() - started)
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)

    assert statuses and set(statuses) == {422}, "every hostile answer is refused, none is a 5xx"
    assert len(answer_times) >= 10, f"only {len(answer_times)} answers were sent"
    assert max(answer_times) < 1.0, f"the slowest refusal took {max(answer_times):.2f} s"
    assert statistics.median(health_times) <= 0.05, f"/health median {statistics.median(health_times) * 1000:.0f} ms"

    browser = Http(server.url)
    status, page, url = browser.get("/surveys/regex-trap")
    status, page, url = browser.post_form(page, url, {"code": "aaaa"})
    assert status == 200 and b"Your code" not in page, "a matching answer is taken"
