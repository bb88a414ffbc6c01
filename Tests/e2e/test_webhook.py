"""The completion webhook: a completed run's result is posted to the configured URL, signed
with HMAC-SHA256, from an outbox, retried with backoff, so a receiver that is down loses nothing;
and once a post is taken, it is not posted again."""
import contextlib
import hashlib
import hmac
import http.server
import json
import os
import sqlite3
import threading
import time

from support import EXAMPLES_DIR, Server, free_port
from test_durability import SURVEY, Participant

SECRET = "webhook-secret-0123456789"
# The server waits 1, 2, 4… seconds after each failed post (WebhookDelivery.backoff) and looks
# for due events every half second when it has none.
BACKOFF = [1, 2, 4]
POLL = 0.5
# A post taken by the receiver and counted as failed anyway would come again after the backoff
# of a third failure; the wait for it leaves as much again for a busy machine.
REPOST_WAIT = 2 * (BACKOFF[2] + POLL)


class Receiver(http.server.BaseHTTPRequestHandler):
    """Refuses the first `refusals` deliveries (as a receiver that is down would), then accepts;
    notes what each post carried and when it came."""
    calls = []
    arrivals = []
    refusals = 2
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with Receiver.lock:
            Receiver.calls.append((dict(self.headers), body))
            Receiver.arrivals.append(time.monotonic())
            count = len(Receiver.calls)
        self.send_response(503 if count <= Receiver.refusals else 204)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_completion_webhook_is_signed_retried_and_delivered(tmp_path):
    port = free_port()
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", port), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    os.environ["SURVEY_WEBHOOK_SECRET"] = SECRET
    server = Server(EXAMPLES_DIR, tmp_path / "data", ("--webhook-url", f"http://127.0.0.1:{port}/hook")).start()
    try:
        person = Participant(7, server.url)
        while not person.finished:
            assert person.step(person.page())
        deadline = time.time() + 30
        while len(Receiver.calls) < 3 and time.time() < deadline:
            time.sleep(0.1)
        assert len(Receiver.calls) == 3, f"{len(Receiver.calls)} delivery attempts"
        gaps = [later - earlier for earlier, later in zip(Receiver.arrivals, Receiver.arrivals[1:])]
        for gap, backoff in zip(gaps, BACKOFF):
            assert gap >= backoff * 0.9, f"a retry came {gap:.2f} s after a failed post, before the backoff of {backoff} s: {gaps}"
        time.sleep(max(0.0, REPOST_WAIT - (time.monotonic() - Receiver.arrivals[-1])))
        assert len(Receiver.calls) == 3, \
            f"a delivered event was posted again, {Receiver.arrivals[3] - Receiver.arrivals[2]:.2f} s after it was taken"
        events = {headers["X-Survey-Event"] for headers, _ in Receiver.calls}
        assert len(events) == 1, "the retries carry the same event id"
        headers, body = Receiver.calls[-1]
        expected = "sha256=" + hmac.new(SECRET.encode(), body, hashlib.sha256).hexdigest()
        assert headers["X-Survey-Signature"] == expected
        event = json.loads(body)
        assert event["event"] == "run.completed" and event["survey"] == SURVEY
        assert event["result"]["finishReason"] == "completed"
        answers = {q["identifier"]: q for s in event["result"]["results"] for q in s["results"]}
        assert answers["comments"]["textAnswer"] == "participant 7 was here"
    finally:
        server.stop()
        receiver.shutdown()
        os.environ.pop("SURVEY_WEBHOOK_SECRET", None)
    # Nothing is left to post again later either: a claimed event whose delivery was not noted
    # would come back once its lease (60 s) ran out.
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "runs.sqlite")) as database:
        left = database.execute("SELECT id, attempts FROM outbox").fetchall()
    assert not left, f"the outbox still holds {left} after the receiver took the event"
