"""Replicas: two servers on one PostgreSQL, sharing the cookie secret, serve the same
participants with no sticky sessions. Each participant alternates between them at every
request; one server is killed mid-run; every run still finishes with a complete result."""
import json
import os
import random
import threading
import time
import urllib.error

import pytest

from e2e_support import EXAMPLES_DIR, Server
from test_durability import SURVEY, Participant

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

    def walk(self, stop):
        while not self.finished and not stop.is_set():
            try:
                self.step(self.page())
            except (OSError, urllib.error.URLError):
                time.sleep(0.01)   # that replica went away: the next request goes to another


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
        stop = threading.Event()
        threads = [threading.Thread(target=p.walk, args=(stop,), daemon=True) for p in people]
        for thread in threads:
            thread.start()
        deadline = time.time() + 30
        while sum(len(p.acked) for p in people) < PARTICIPANTS * 2 and time.time() < deadline:
            time.sleep(0.001)
        second.process.kill()
        for thread in threads:
            thread.join(60)
        stop.set()
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
