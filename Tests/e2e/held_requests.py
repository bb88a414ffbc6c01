"""Requests held open over a raw socket, and what the kernel says the server has read of them.

A request is in flight once the server process has read its head: the client's kernel has had
every byte sent so far acknowledged by the server's kernel, and the server's socket holds none
of them unread (Linux's /proc/net/tcp). That is a fact the tests can wait for, where a sleep
before a signal is only a guess on a busy machine."""
from __future__ import annotations

import socket
import time
from dataclasses import dataclass, field
from pathlib import Path

TCP_TABLES = [Path("/proc/net/tcp"), Path("/proc/net/tcp6")]


@dataclass
class Response:
    status: int
    headers: dict = field(default_factory=dict)   # lower-cased names
    body: bytes = b""


def tcp_queues(local_port: int, remote_port: int) -> tuple[int, int] | None:
    """(bytes sent and not yet acknowledged, bytes received and not yet read) of the socket
    from local_port to remote_port, or None when there is no such connection."""
    return connection_queues(local_port, remote_port).get((local_port, remote_port))


def connection_queues(port: int, other: int) -> dict:
    """The queues of both ends of the connection between two loopback ports, read in one pass
    (a busy machine lists thousands of sockets), keyed by (local port, remote port)."""
    ends = {(port, other), (other, port)}
    marks = (f":{port:04X} ", f":{other:04X} ")
    found = {}
    for table in TCP_TABLES:
        if not table.exists():
            continue
        for line in table.read_text().splitlines()[1:]:
            if marks[0] not in line or marks[1] not in line:
                continue
            columns = line.split()
            local, remote = int(columns[1].rsplit(":", 1)[1], 16), int(columns[2].rsplit(":", 1)[1], 16)
            if (local, remote) in ends:
                unacknowledged, unread = columns[4].split(":")
                found[(local, remote)] = int(unacknowledged, 16), int(unread, 16)
    return found


class Connection:
    """A loopback TCP connection to the server that has sent some bytes and may send more."""

    def __init__(self, port: int, sent: bytes, receive_buffer: int | None = None):
        if not any(table.exists() for table in TCP_TABLES):
            raise RuntimeError("/proc/net/tcp is missing: these tests read the kernel's socket queues (Linux)")
        self.port = port
        self.sock = socket.socket()
        if receive_buffer is not None:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(30)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(sent)

    @property
    def client_port(self) -> int:
        return self.sock.getsockname()[1]

    def read_by_server(self) -> bool:
        """Every byte sent so far has reached the server's kernel and the server has read it."""
        queues = connection_queues(self.client_port, self.port)
        client, server = queues.get((self.client_port, self.port)), queues.get((self.port, self.client_port))
        return client is not None and server is not None and client[0] == 0 and server[1] == 0

    def wait_until_read(self, timeout: float):
        deadline = time.monotonic() + timeout
        while not self.read_by_server():
            if time.monotonic() > deadline:
                raise AssertionError(f"the server had not read what was sent on port {self.client_port} "
                                     f"within {timeout} s: {tcp_queues(self.client_port, self.port)}, "
                                     f"{tcp_queues(self.port, self.client_port)}")
            time.sleep(0.01)

    def send_until_not_read(self, request: bytes, settle: float, timeout: float) -> int:
        """Sends the request again and again, each time once the server has read the last one,
        until one stays unread for `settle` seconds: the server has stopped reading, and what
        it did read was whole requests. How many it read; raises after `timeout` seconds."""
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        deadline, read = time.monotonic() + timeout, 0
        while True:
            self.sock.sendall(request)
            sent = time.monotonic()
            while not self.read_by_server():
                if time.monotonic() - sent > settle:
                    return read
                if time.monotonic() > deadline:
                    raise AssertionError(f"the server was still reading after {timeout} s and {read} requests")
                time.sleep(0.001)
            read += 1

    def response(self, timeout: float = 30) -> Response:
        return read_response(self.sock, timeout)

    def close(self):
        self.sock.close()


class HeldRequest(Connection):
    """An HTTP/1.1 request whose head, and perhaps part of whose body, has been sent, with the
    rest of the body kept back until `finish`."""

    def __init__(self, port: int, method: str, path: str, body: bytes, headers: dict, sent: int):
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", f"Content-Length: {len(body)}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        super().__init__(port, ("\r\n".join(lines) + "\r\n\r\n").encode() + body[:sent])
        self.body, self.sent = body, sent

    def finish(self, pieces: int = 2, pause: float = 0.05):
        """Sends the rest of the body slowly, in a few pieces."""
        rest = self.body[self.sent:]
        size = max(1, -(-len(rest) // pieces))
        for start in range(0, len(rest), size):
            self.sock.sendall(rest[start:start + size])
            time.sleep(pause)


def read_response(sock: socket.socket, timeout: float) -> Response:
    """One whole response (its Content-Length, or up to the connection's end); raises when the
    connection ends or fails before a whole response arrived."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"the connection ended before a response head: {data[:200]!r}")
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", -1))
    while length < 0 or len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            if length < 0:
                break
            raise ConnectionError(f"the connection ended {length - len(body)} bytes before the body's end")
        body += chunk
    return Response(int(status_line.split()[1]), headers, body)


def closed_by_server(sock: socket.socket, timeout: float) -> bool:
    """The server closed (or reset) this connection within the timeout, sending nothing."""
    sock.settimeout(timeout)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def refused(port: int) -> bool:
    """A new connection to the port is refused (nothing listens there)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            return False
    except ConnectionRefusedError:
        return True
