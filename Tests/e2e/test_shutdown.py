"""Graceful shutdown: on SIGTERM the server stops listening at once, answers in full every
request it had begun to read, closes connections with nothing in flight, and exits 0; the
answers it acknowledged are there when it starts again.

How: Hummingbird's server quiesces its connections when the service group it runs in receives
SIGTERM. The listening socket closes; a connection that has sent a whole request head keeps
going until its response has been written, then closes; every other connection closes at once
(one that has sent only part of a head is closed unanswered, as if it had not arrived). A
request whose body is still arriving is held to `--body-timeout` from the end of its head: a
client that never sends the rest is answered 408 when it runs out, and the server exits then.
No deadline runs while the server owes an answer, so a client that never reads its answers
would hold the server forever: `survey serve` waits at most --body-timeout + 30 s after the
signal, then cuts the connections left and exits. That is the bound these tests rely on."""
import json
import signal
import time

from support import EXAMPLES_DIR, Server
from held_requests import Connection, HeldRequest, closed_by_server, refused, tcp_queues
from test_durability import SURVEY, Participant

HELD = 6                # requests in flight when the signal arrives
READ_WITHIN = 20        # s for the server to read a head sent to it, however busy the machine
FILL_WITHIN = 90        # s to send requests one at a time until the server stops reading them
STOP_LISTENING = 10     # s from the signal until new connections are refused
EXIT_AFTER_LAST = 10    # s from the last held response until the process has exited


def wait_for(condition, timeout: float) -> float | None:
    """Polls until the condition holds; the time it took, or None when it never did."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.01)
    return None


def exit_time(server, within: float, what: str) -> float:
    """Waits for the server to exit 0 within the given seconds; how long it took."""
    exited = wait_for(lambda: server.process.poll() is not None, within)
    assert exited is not None, f"the server was still running {within} s after {what}"
    assert server.process.returncode == 0, server.log_text()
    return exited


def cookie_header(person: Participant) -> str:
    return "; ".join(f"{cookie.name}={cookie.value}" for cookie in person.jar)


def test_sigterm_answers_requests_in_flight_and_refuses_new_ones(tmp_path):
    server = Server(EXAMPLES_DIR, tmp_path / "data").start()
    people = [Participant(i, server.url) for i in range(HELD + 1)]
    for person in people:
        assert person.step(person.page()), f"participant {person.index} could not leave the first page"
    # Where an answer sends a participant when nothing is stopping: the held ones must go there too.
    control = people.pop()
    assert control.step(control.page())
    pages = [person.page() for person in people]

    # A kept-alive connection that has finished its request: nothing is in flight on it.
    idle = Connection(server.port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    assert idle.response(READ_WITHIN).status == 200

    # Half the requests have sent their head only, half their head and part of the body.
    held = []
    for person, page in zip(people, pages):
        body, expectation = person.submission(page)
        request = HeldRequest(server.port, "POST", f"/surveys/{SURVEY}", body,
                              {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie_header(person)},
                              sent=0 if person.index % 2 == 0 else len(body) // 2)
        held.append((person, request, expectation))
    for _, request, _ in held:
        request.wait_until_read(READ_WITHIN)

    signalled = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        stopped_listening = wait_for(lambda: refused(server.port), STOP_LISTENING)
        assert stopped_listening is not None, f"new connections were still accepted {STOP_LISTENING} s after SIGTERM"
        assert server.process.poll() is None, (
            f"the server exited ({server.process.returncode}) with {HELD} requests it had begun to read unanswered:\n"
            + server.log_text())
        assert closed_by_server(idle.sock, STOP_LISTENING), "a connection with nothing in flight was kept open after SIGTERM"

        for _, request, _ in held:
            request.finish()
        responses = [request.response() for _, request, _ in held]
        answered = time.monotonic()
        for (person, request, expectation), response in zip(held, responses):
            assert response.status == 303, (person.index, response.status, response.body[:300])
            assert response.headers.get("location") == control.location, (person.index, response.headers)
            person.acknowledge(expectation, response.headers["location"])
            assert closed_by_server(request.sock, EXIT_AFTER_LAST), f"participant {person.index}'s connection stayed open"

        exited = exit_time(server, EXIT_AFTER_LAST, "the last held request was answered")
        print(f"SIGTERM: refused new connections after {stopped_listening:.3f} s, answered {HELD} held requests "
              f"{answered - signalled:.3f} s after the signal, exited {exited:.3f} s after the last answer")
    finally:
        for _, request, _ in held:
            request.close()
        idle.close()
        server.stop()

    restarted = Server(EXAMPLES_DIR, tmp_path / "data")
    restarted.port, restarted.url = server.port, server.url
    restarted.start()
    try:
        for person, _, expectation in held:
            page = person.page()
            assert 'name="sleep.hours"' in page and 'name="_visit" value="2"' in page, (
                f"participant {person.index} is not past the answer acknowledged during the shutdown")
            while not person.finished:
                assert person.step(person.page()), f"participant {person.index} could not go on after the restart"
            with person.opener().open(f"{restarted.url}/surveys/{SURVEY}/result.json", timeout=20) as response:
                result = json.load(response)
            answers = {q["identifier"]: q for s in result["results"] for q in s["results"]}
            identifier, key, value = expectation
            assert answers[identifier].get(key) == value, (person.index, identifier, answers.get(identifier))
    finally:
        restarted.stop()


def test_a_client_that_never_finishes_its_request_holds_shutdown_only_until_its_body_timeout(tmp_path):
    body_timeout = 4
    server = Server(EXAMPLES_DIR, tmp_path / "data", ("--body-timeout", str(body_timeout))).start()
    person = Participant(0, server.url)
    page = person.page()
    body, _ = person.submission(page)
    sent = time.monotonic()             # the head arrives after this
    stalled = HeldRequest(server.port, "POST", f"/surveys/{SURVEY}", body,
                          {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie_header(person)},
                          sent=len(body) // 2)
    # Part of a head: not a request yet, so nothing the server owes an answer.
    partial = Connection(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    try:
        stalled.wait_until_read(READ_WITHIN)
        partial.wait_until_read(READ_WITHIN)
        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert wait_for(lambda: refused(server.port), STOP_LISTENING) is not None, "still listening after SIGTERM"
        assert closed_by_server(partial.sock, STOP_LISTENING), "a connection with part of a head held the server"

        response = stalled.response(timeout=body_timeout + EXIT_AFTER_LAST)
        timed_out = time.monotonic()
        assert response.status == 408, (response.status, response.body[:300])
        assert timed_out - sent >= body_timeout, f"answered 408 {timed_out - sent:.3f} s after the head was sent"
        exited = exit_time(server, EXIT_AFTER_LAST, "the stalled request ended")
        print(f"a stalled body held the shutdown {timed_out - signalled:.3f} s (--body-timeout {body_timeout}); "
              f"exit {exited:.3f} s later")
    finally:
        stalled.close()
        partial.close()
        server.stop()


def test_a_client_that_never_reads_its_answers_holds_shutdown_only_for_a_bounded_time(tmp_path):
    # `survey serve` waits for the requests in flight at most --body-timeout + 30 s after SIGTERM.
    body_timeout = 1
    limit = body_timeout + 30
    server = Server(EXAMPLES_DIR, tmp_path / "data", ("--body-timeout", str(body_timeout), "--no-access-log")).start()
    # Pipelined requests for an 11 KB file, each sent once the server has read the last, and
    # not a byte of the answers read, until the server stops reading: it owes answers it cannot
    # write, it holds no part of a request, and no connection deadline runs while it owes one.
    reader = Connection(server.port, b"", receive_buffer=4096)
    try:
        owed = reader.send_until_not_read(b"GET /survey.css HTTP/1.1\r\nHost: x\r\n\r\n", settle=5, timeout=FILL_WITHIN)
        assert tcp_queues(server.port, reader.client_port) is not None, "the server closed the connection"
        assert not reader.read_by_server(), f"the server read request {owed + 1} after all: it was slow, not stuck"

        signalled = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert wait_for(lambda: refused(server.port), STOP_LISTENING) is not None, "still listening after SIGTERM"
        exited = exit_time(server, limit + EXIT_AFTER_LAST, "SIGTERM, held by a client that never reads")
        assert exited >= limit * 0.9, f"the server gave up on the requests in flight after {exited:.3f} s, not {limit} s"
        print(f"a client that never reads {owed} answers held the shutdown {exited:.3f} s (bound {limit} s)")
    finally:
        reader.close()
        server.stop()
