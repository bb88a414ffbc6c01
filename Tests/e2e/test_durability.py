"""Nothing acknowledged is lost: 200 scripted participants answer concurrently, the server is
killed with SIGKILL at a random moment and restarted on the same SQLite file, and every answer
that had been acknowledged (its 303 received) is there and every run resumes at the right step."""
import http.cookiejar
import json
import os
import random
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from e2e_support import EXAMPLES_DIR, Server


def stores():
    """SQLite always; PostgreSQL when the test command started a server for it."""
    kinds = [pytest.param((), id="sqlite")]
    url = os.environ.get("SURVEY_TEST_POSTGRES_URL")
    if url or os.environ.get("REQUIRE_POSTGRES") == "1":
        kinds.append(pytest.param(("--store", f"{url}?schema=crash_{random.randrange(1 << 40)}" if url else ""), id="postgres"))
    return kinds

SURVEY = "wellbeing-check"
PARTICIPANTS = 200


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def answer_for(page: str, index: int):
    """The fields a participant sends for the step shown, and what the result must then hold."""
    if 'name="mood"' in page:
        return [("mood", str(1 + index % 5))], ("mood", "scaleAnswer", 1 + index % 5)
    if 'name="sleep.hours"' in page:
        return [("sleep.hours", "7"), ("sleep.minutes", "30")], ("sleep", "intervalAnswer", 27000)
    if 'name="activities"' in page:
        return [("activities", "walk")], ("activities", "choiceAnswers", ["walk"])
    if 'name="comments"' in page:
        text = f"participant {index} was here"
        return [("comments", text)], ("comments", "textAnswer", text)
    return [], None


class Participant:
    def __init__(self, index: int, url: str):
        self.index, self.url = index, url
        self.jar = http.cookiejar.CookieJar()
        self.acked = []          # expectations of every acknowledged answer, in order
        self.finished = False

    def opener(self):
        return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def page(self):
        with self.opener().open(f"{self.url}/surveys/{SURVEY}", timeout=20) as response:
            return response.read().decode()

    def step(self, page: str):
        """Submits the page; True when the server acknowledged it with a 303."""
        csrf = re.search(r'name="_csrf" value="([^"]*)"', page).group(1)
        visit = re.search(r'name="_visit" value="([^"]*)"', page).group(1)
        fields, expectation = answer_for(page, self.index)
        data = urllib.parse.urlencode([("_csrf", csrf), ("_visit", visit), ("_action", "next")] + fields).encode()
        try:
            self.opener().open(f"{self.url}/surveys/{SURVEY}", data, timeout=20)
        except urllib.error.HTTPError as error:
            if error.code != 303:
                raise
            self.acked.append(expectation)
            if error.headers["Location"].endswith("/done"):
                self.finished = True
            return True
        return False

    def walk(self, stop: threading.Event):
        try:
            while not self.finished and not stop.is_set():
                self.step(self.page())
        except (OSError, urllib.error.URLError, AttributeError):
            pass  # the server went away mid-request


@pytest.mark.parametrize("store", stores())
def test_sigkill_loses_no_acknowledged_answer(tmp_path, store):
    if store and not store[1]:
        pytest.fail("REQUIRE_POSTGRES=1 but SURVEY_TEST_POSTGRES_URL is not set")
    data = tmp_path / "data"
    server = Server(EXAMPLES_DIR, data, store).start()
    people = [Participant(i, server.url) for i in range(PARTICIPANTS)]
    stop = threading.Event()
    threads = [threading.Thread(target=p.walk, args=(stop,), daemon=True) for p in people]
    for thread in threads:
        thread.start()
    # Kill at a random moment in the middle of the answering: after a random share of the answers.
    target = random.randint(PARTICIPANTS, PARTICIPANTS * 4)
    deadline = time.time() + 60
    while sum(len(p.acked) for p in people) < target and time.time() < deadline:
        time.sleep(0.001)
    server.process.kill()                      # SIGKILL: no chance to flush anything
    server.process.wait(10)
    stop.set()
    for thread in threads:
        thread.join(30)
    acknowledged = sum(len(p.acked) for p in people)
    assert acknowledged > 0, "no answer was acknowledged before the kill"
    unfinished = sum(not p.finished for p in people)
    assert unfinished > 0, "every participant had finished before the kill: it proved nothing"
    print(f"killed after {acknowledged} acknowledged answers, {unfinished} runs unfinished")

    restarted = Server(EXAMPLES_DIR, data, store)
    restarted.port, restarted.url = server.port, server.url
    restarted.start()
    try:
        for person in people:
            finished_result = None
            try:
                with person.opener().open(f"{server.url}/surveys/{SURVEY}/result.json", timeout=20) as response:
                    finished_result = json.loads(response.read())
            except urllib.error.HTTPError as error:
                assert error.code == 404
            if person.finished or finished_result is not None:
                # Finished, or the last answer (the one completing the run) committed unacknowledged.
                assert finished_result is not None, f"participant {person.index} finished but has no result"
                assert person.finished or len(person.acked) >= 5, (person.index, len(person.acked))
                result = finished_result
                assert result["finishReason"] == "completed"
            else:
                page = person.page()
                visit = int(re.search(r'name="_visit" value="([^"]*)"', page).group(1))
                # Acknowledged steps moved the run on; one more may have committed unacknowledged.
                assert visit in (len(person.acked), len(person.acked) + 1), (person.index, visit, len(person.acked))
                while not person.finished:
                    assert person.step(person.page()), f"participant {person.index} could not go on"
                with person.opener().open(f"{server.url}/surveys/{SURVEY}/result.json", timeout=20) as response:
                    result = json.loads(response.read())
            answers = {q["identifier"]: q for s in result["results"] for q in s["results"]}
            for expectation in person.acked:
                if expectation is None:
                    continue
                identifier, key, value = expectation
                assert answers[identifier].get(key) == value, (person.index, identifier, answers.get(identifier))
    finally:
        restarted.stop()
