"""The completion webhook: a completed run's result is posted to the configured URL, signed
with HMAC-SHA256, from an outbox, retried with backoff, so a receiver that is down loses nothing."""
import hashlib
import hmac
import http.server
import json
import os
import threading
import time

from e2e_support import EXAMPLES_DIR, Server, free_port
from test_durability import SURVEY, Participant

SECRET = "webhook-secret-0123456789"


class Receiver(http.server.BaseHTTPRequestHandler):
    """Refuses the first two deliveries (as a receiver that is down would), then accepts."""
    calls = []
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        with Receiver.lock:
            Receiver.calls.append((dict(self.headers), body))
            count = len(Receiver.calls)
        self.send_response(503 if count <= 2 else 204)
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
        time.sleep(1.5)
        assert len(Receiver.calls) == 3, "a delivered event was posted again"
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
