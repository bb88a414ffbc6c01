"""Slow and numerous clients against the release server with short limits: a trickled head,
a slow body, an idle kept-alive connection, and more connections than the cap.

Every connection goes to 127.0.0.1; every loop stops after a bounded number of rounds.
"""
from __future__ import annotations

import selectors
import socket
import time

import pytest

from conftest import _complete, raw_request, status_of

HEADER_TIMEOUT = 2
BODY_TIMEOUT = 3
IDLE_TIMEOUT = 3
CAP = 64


@pytest.fixture(scope="module")
def server(release_server_factory):
    return release_server_factory("--header-timeout", str(HEADER_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT),
                                  "--idle-timeout", str(IDLE_TIMEOUT))


@pytest.fixture(scope="module")
def capped_server(release_server_factory):
    return release_server_factory("--header-timeout", str(HEADER_TIMEOUT), "--max-connections", str(CAP))


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setblocking(False)
    return sock


def read_until_closed(sock: socket.socket, seconds: float) -> tuple[bytes, bool]:
    """What the server sends on a blocking read until it closes the connection (True), or until
    `seconds` pass with the connection still open (False)."""
    sock.setblocking(True)
    sock.settimeout(seconds)
    received = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            return received, False
        except ConnectionResetError:
            return received, True
        if not chunk:
            return received, True
        received += chunk
    return received, False


class Crowd:
    """Connections that each sent the start of a request head, watched together: which were
    closed by the server, when, what it sent before, and when each sent its first byte."""

    def __init__(self, port: int, count: int):
        self.selector = selectors.DefaultSelector()
        self.open: dict[socket.socket, bytes] = {}
        self.first_byte: dict[socket.socket, float] = {}
        # (closed at, what the server sent, first byte sent at) of each connection the server closed
        self.closed: list[tuple[float, bytes, float]] = []
        self.opened = time.monotonic()
        for _ in range(count):
            sock = connect(port)
            self.first_byte[sock] = time.monotonic()
            sock.sendall(b"GET /surveys/wellbeing-check HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            self.open[sock] = b""
            self.selector.register(sock, selectors.EVENT_READ)

    def poll(self, seconds: float):
        """Collects what arrives for `seconds`, noting each connection the server closes."""
        end = time.monotonic() + seconds
        while self.open and (left := end - time.monotonic()) > 0:
            for key, _ in self.selector.select(timeout=left):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                except ConnectionResetError:
                    chunk = b""
                if chunk:
                    self.open[sock] += chunk
                else:
                    self.close(sock, server_closed=True)

    def trickle(self, line: int):
        """One more header line on every connection still open."""
        for sock in list(self.open):
            try:
                sock.send(f"X-Trickle-{line}: {line}\r\n".encode())
            except (BrokenPipeError, ConnectionResetError):
                self.close(sock, server_closed=True)

    def close(self, sock: socket.socket, server_closed: bool):
        received = self.open.pop(sock)
        first_byte = self.first_byte.pop(sock)
        self.selector.unregister(sock)
        sock.close()
        if server_closed:
            self.closed.append((time.monotonic(), received, first_byte))

    def close_all(self):
        for sock in list(self.open):
            self.close(sock, server_closed=False)
        self.selector.close()


def health_on(sock: socket.socket, seconds: float = 5) -> tuple[int, float]:
    """GET /health on a kept-alive connection: its status and the time its answer arrived."""
    sock.setblocking(True)
    sock.settimeout(seconds)
    sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = b""
    while not _complete(received):
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return status_of(received), time.monotonic()


def test_trickled_heads_are_all_closed_by_the_header_deadline_while_others_are_served(server):
    crowd = Crowd(server.port, 200)
    started = time.monotonic()
    served_meanwhile = []
    try:
        for line in range(1, 4 * HEADER_TIMEOUT * 2 + 1):  # at most four header timeouts
            crowd.poll(0.5)
            if not crowd.open:
                break
            crowd.trickle(line)
            if line == 2:
                served_meanwhile.append(status_of(raw_request(server.port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n")))
        assert not crowd.open, f"{len(crowd.open)} of 200 trickling connections still open after {time.monotonic() - started:.1f} s"
    finally:
        crowd.close_all()
    assert served_meanwhile == [200]
    assert len(crowd.closed) == 200
    for _, received, _ in crowd.closed:
        # Each was answered 408 with Connection: close, or closed with nothing said.
        assert received == b"" or (status_of(received) == 408 and b"connection: close" in received.lower()), received[:200]
    assert sum(1 for _, received, _ in crowd.closed if status_of(received) == 408) > 0
    # Each connection's deadline counts from its own first byte, which the server saw no sooner
    # than it was sent: none was closed before its header timeout, and a header line every half
    # second did not push it back.
    lived = sorted(closed - first_byte for closed, _, first_byte in crowd.closed)
    print(f"200 trickled heads closed {lived[0]:.3f} to {lived[-1]:.3f} s after their first byte "
          f"(header timeout {HEADER_TIMEOUT} s); opening them took {started - crowd.opened:.2f} s")
    assert lived[0] >= HEADER_TIMEOUT, f"a connection was closed {lived[0]:.3f} s after its first byte, before the header timeout"
    assert status_of(raw_request(server.port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n")) == 200


def test_a_slow_body_is_answered_408_and_closed(server):
    sock = connect(server.port)
    try:
        sock.sendall(b"POST /surveys/wellbeing-check HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: 200\r\n\r\n_action=next")
        received, closed = b"", False
        for _ in range(4 * BODY_TIMEOUT * 2):  # a byte every half second, for at most four body timeouts
            more, closed = read_until_closed(sock, 0.5)
            received += more
            if closed:
                break
            try:
                sock.sendall(b"x")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
        assert closed, "a body trickled a byte every half second was never cut off"
        assert status_of(received) == 408, received[:200]
        assert b"connection: close" in received.lower()
    finally:
        sock.close()


def test_an_idle_kept_alive_connection_is_closed(server):
    sock = connect(server.port)
    try:
        status, answered = health_on(sock)
        assert status == 200
        received, closed = read_until_closed(sock, 4 * IDLE_TIMEOUT)
        assert closed, "an idle kept-alive connection stayed open"
        assert received == b""
        assert time.monotonic() - answered >= IDLE_TIMEOUT * 0.9
    finally:
        sock.close()


def test_past_the_cap_new_connections_wait_while_health_answers_on_an_open_one(capped_server):
    monitor = connect(capped_server.port)
    crowd = None
    probe = None
    try:
        assert health_on(monitor)[0] == 200
        crowd = Crowd(capped_server.port, CAP + 36)
        crowd.poll(0.3)
        # Inside the cap, the monitor's connection is still answered at once.
        status, monitor_answered = health_on(monitor)
        assert status == 200
        # A new connection past the cap is not refused: it waits in the accept queue.
        probe_sent = time.monotonic()
        probe = socket.create_connection(("127.0.0.1", capped_server.port), timeout=5)
        probe.sendall(b"GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        probe.setblocking(False)
        crowd.selector.register(probe, selectors.EVENT_READ)
        probe_answer, probe_answered = b"", None
        for _ in range(int(6 * HEADER_TIMEOUT / 0.25)):
            end = time.monotonic() + 0.25
            while (left := end - time.monotonic()) > 0:
                for key, _ in crowd.selector.select(timeout=left):
                    if key.fileobj is probe:
                        try:
                            chunk = probe.recv(65536)
                        except BlockingIOError:
                            continue
                        except ConnectionResetError:
                            chunk = b""
                        probe_answer += chunk
                        if not chunk:
                            probe_answered = time.monotonic()
                            crowd.selector.unregister(probe)
                    else:
                        try:
                            chunk = key.fileobj.recv(65536)
                        except BlockingIOError:
                            continue
                        except ConnectionResetError:
                            chunk = b""
                        if chunk:
                            crowd.open[key.fileobj] += chunk
                        else:
                            crowd.close(key.fileobj, server_closed=True)
            if probe_answered is not None and not crowd.open:
                break
        assert probe_answered is not None, "the connection past the cap was never served"
        assert status_of(probe_answer) == 200
        first_crowd_closed = min(when for when, _, _ in crowd.closed)
        print(f"a new /health past the cap waited {probe_answered - probe_sent:.2f} s, "
              f"until the first slow head was closed {first_crowd_closed - probe_sent:.2f} s after it was sent")
        # The monitor was answered before any slot freed; the new connection only after one did.
        assert monitor_answered < first_crowd_closed <= probe_answered
        assert not crowd.open, f"{len(crowd.open)} crowd connections still open"
        # Once the crowd is gone, new connections are served at once.
        assert status_of(raw_request(capped_server.port, b"GET /health HTTP/1.1\r\nHost: a\r\n\r\n")) == 200
    finally:
        if crowd:
            if probe is not None:
                try:
                    crowd.selector.unregister(probe)
                except KeyError:
                    pass
            crowd.close_all()
        if probe is not None:
            probe.close()
        monitor.close()
