"""Replicas: two servers on one PostgreSQL, sharing the cookie secret, serve the same
participants with no sticky sessions. Each participant alternates between them at every
request; one server is killed mid-run; every run still finishes with a complete result. A
request may fail only by a network error from the killed replica after its kill: any other
error, or any failure before the kill, fails the test with the participant and the error.
The audit log both wrote then verifies (`survey audit verify`), with every answer in it."""
import http.client
import json
import os
import random
import threading
import time
import urllib.error

import subprocess

import pytest

from support import BINARY, EXAMPLES_DIR, Server
from test_durability import SURVEY, Participant, describe, failed_before_kill

PARTICIPANTS = 60


class Alternating(Participant):
    """A participant whose every request goes to the next live server in turn."""

    def __init__(self, index: int, servers: list):
        super().__init__(index, servers[0].url)
        self.servers, self.turn = servers, index

    def next_url(self):
        live = [s for s in self.servers if s.process.poll() is None]
        self.turn += 1
        return live[self.turn % len(live)].url

    def page(self):
        self.url = self.next_url()
        return super().page()

    def step(self, page):
        self.url = self.next_url()
        return super().step(page)

    def walk(self, stop, killed, victim):
        while not self.finished and not stop.is_set():
            try:
                if not self.step(self.page()):
                    raise ValueError("an answer was not acknowledged with a 303")
            except (OSError, http.client.HTTPException) as error:
                if not isinstance(error, urllib.error.HTTPError) and killed.is_set() and self.url == victim.url:
                    time.sleep(0.01)   # that replica went away: the next request goes to another
                    continue
                self.errors.append((f"{describe(error)} from {self.url}", killed.is_set()))
                return
            except Exception as error:  # noqa: BLE001 - every failure is reported by the test
                self.errors.append((f"{describe(error)} from {self.url}", killed.is_set()))
                return


def test_two_replicas_share_participants_and_survive_losing_one(tmp_path):
    url = os.environ.get("SURVEY_TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("REQUIRE_POSTGRES=1 but SURVEY_TEST_POSTGRES_URL is not set")
        pytest.skip("no PostgreSQL server (SURVEY_TEST_POSTGRES_URL)")
    store = ("--store", f"{url}?schema=replicas_{random.randrange(1 << 40)}")
    shared = tmp_path / "shared"        # both replicas read the same cookie secret from here
    first = Server(EXAMPLES_DIR, shared, store).start()
    second = Server(EXAMPLES_DIR, shared, store).start()
    try:
        people = [Alternating(i, [first, second]) for i in range(PARTICIPANTS)]
        stop, killed = threading.Event(), threading.Event()
        threads = [threading.Thread(target=p.walk, args=(stop, killed, second), daemon=True) for p in people]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 30
        while sum(len(p.acked) for p in people) < PARTICIPANTS * 2 and time.monotonic() < deadline and not failed_before_kill(people):
            time.sleep(0.001)
        acknowledged = sum(len(p.acked) for p in people)
        killed.set()
        second.process.kill()
        for thread in threads:
            thread.join(60)
        stop.set()
        assert not failed_before_kill(people), f"requests failed before the kill: {failed_before_kill(people)[:10]}"
        failed_after = [(p.index, what) for p in people for what, after_kill in p.errors if after_kill]
        assert not failed_after, f"requests failed after the kill other than at the killed replica: {failed_after[:10]}"
        assert acknowledged >= PARTICIPANTS * 2, f"only {acknowledged} answers acknowledged within 30 s, before the kill"
        assert all(p.finished for p in people), [p.index for p in people if not p.finished]
        for person in people:
            person.url = first.url
            with person.opener().open(f"{first.url}/surveys/{SURVEY}/result.json", timeout=20) as response:
                result = json.loads(response.read())
            assert result["finishReason"] == "completed"
            answers = {q["identifier"]: q for s in result["results"] for q in s["results"]}
            assert answers["comments"]["textAnswer"] == f"participant {person.index} was here"
            assert [s["identifier"] for s in result["results"]] == ["intro", "mood", "sleep", "activities", "comments", "review", "done"]
    finally:
        first.stop()
        second.stop()
    verify = subprocess.run([str(BINARY), "audit", "verify", "--anchor", "--store", store[1]], capture_output=True, text=True, timeout=120)
    assert verify.returncode == 0 and "Every chain verifies." in verify.stdout, verify.stdout + verify.stderr
    entries = int(verify.stdout.split("Checked ")[1].split(" ")[0])
    assert entries >= PARTICIPANTS * 7, verify.stdout
