"""Graceful shutdown: on SIGTERM the server stops taking connections, lets the requests in
flight finish, and exits cleanly; the runs are all there when it starts again."""
import signal
import threading
import time
import urllib.error

from e2e_support import EXAMPLES_DIR, Server
from test_durability import Participant


def test_sigterm_lets_requests_in_flight_finish(tmp_path):
    server = Server(EXAMPLES_DIR, tmp_path / "data").start()
    people = [Participant(i, server.url) for i in range(40)]
    outcomes = []
    lock = threading.Lock()

    def answer(person):
        try:
            person.step(person.page())
            result = "answered"
        except (urllib.error.URLError, ConnectionError, OSError):
            result = "refused"          # arrived after the server stopped listening
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=answer, args=(p,)) for p in people]
    for thread in threads:
        thread.start()
    time.sleep(0.05)
    server.process.send_signal(signal.SIGTERM)
    for thread in threads:
        thread.join(30)
    assert server.process.wait(15) == 0, server.log_text()
    assert len(outcomes) == len(people)
    answered = [p for p in people if p.acked]
    assert answered, "no request finished before the shutdown"

    restarted = Server(EXAMPLES_DIR, tmp_path / "data")
    restarted.port, restarted.url = server.port, server.url
    restarted.start()
    try:
        for person in answered:
            page = person.page()
            assert 'name="_visit" value="1"' in page, f"participant {person.index} lost the answer acknowledged before SIGTERM"
    finally:
        restarted.stop()
