"""The HTTP fuzzer's wire: requests as bytes, kept-alive connections to 127.0.0.1, and a strict
reader of responses (anything that is not an HTTP/1.x response is reported, never guessed at)."""
from __future__ import annotations

import re
import socket
from dataclasses import dataclass

HOST = "127.0.0.1"
STATUS_LINE = re.compile(rb"HTTP/1\.[01] (\d{3})(?: [^\r\n]*)?")
MAX_HEAD = 256 * 1024
MAX_BODY = 8 * 1024 * 1024


class NotHttp(Exception):
    """The server sent bytes that are not an HTTP response (or cut one short)."""


class NoResponse(Exception):
    """The connection ended before any byte of a response."""


@dataclass
class Probe:
    """One request (or a few pipelined) as bytes, with what the fuzzer may expect of it.

    well_formed: it deserves an HTTP response, so silence or a hang is a failure.
    fresh: sent on a connection of its own (its leftovers would confuse a kept-alive one).
    half_close: the client ends its stream after it, so the server sees nothing more comes.
    methods: the method of each pipelined request, in order (HEAD answers carry no body).
    may_reset: too large; the server may answer and close before reading it all.
    own_cookie: it carries the participant's cookie, so a new Set-Cookie is the participant's.
    """
    data: bytes
    label: str
    well_formed: bool = True
    fresh: bool = False
    half_close: bool = False
    methods: tuple = (b"GET",)
    may_reset: bool = False
    own_cookie: bool = True


@dataclass
class Response:
    status: int
    headers: dict
    cookies: list
    body: bytes
    raw: bytes
    close: bool


def request_bytes(method: bytes, target: bytes, headers: list, body: bytes = b"", version: bytes = b"HTTP/1.1",
                  length: bool = True) -> bytes:
    """A request; Content-Length is added for a body (or any POST) unless `length` is false."""
    lines = [method + b" " + target + b" " + version]
    lines += [name + b": " + value for name, value in headers]
    if length and (body or method == b"POST"):
        lines.append(b"Content-Length: " + str(len(body)).encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class Reader:
    """Reads responses one at a time from a socket, keeping what arrived past each."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self.buffer = b""

    def _fill(self, during: str) -> None:
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError as error:
            chunk, reset = b"", error
        else:
            reset = None
        if not chunk:
            if self.buffer or during != "head":
                raise NotHttp(f"the connection ended inside a response's {during}: {self.buffer[:200]!r}")
            raise NoResponse("connection reset" if reset else "connection closed")
        self.buffer += chunk

    def response(self, method: bytes = b"GET") -> Response:
        while True:
            response = self._one(method)
            if not 100 <= response.status < 200 or response.status == 101:
                return response

    def _one(self, method: bytes) -> Response:
        while b"\r\n\r\n" not in self.buffer:
            if not b"HTTP/1."[:len(self.buffer)] == self.buffer[:7]:
                raise NotHttp(f"not a status line: {self.buffer[:200]!r}")
            if len(self.buffer) > MAX_HEAD:
                raise NotHttp("a response head over 256 KiB")
            self._fill("head")
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.split(b"\r\n")
        match = STATUS_LINE.fullmatch(lines[0])
        if not match:
            raise NotHttp(f"not a status line: {lines[0][:200]!r}")
        status = int(match.group(1))
        headers: dict = {}
        cookies: list = []
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon or not name or name != name.strip():
                raise NotHttp(f"a bad header line: {line[:200]!r}")
            name, value = name.lower(), value.strip()
            if name == b"set-cookie":
                cookies.append(value)
            if name == b"content-length" and name in headers and headers[name] != value:
                raise NotHttp("two different Content-Length headers")
            headers[name] = value
        body = self._body(method, status, headers)
        close = headers.get(b"connection", b"").lower() == b"close" or lines[0].startswith(b"HTTP/1.0")
        return Response(status, headers, cookies, body, head + b"\r\n\r\n" + body, close)

    def _body(self, method: bytes, status: int, headers: dict) -> bytes:
        if method == b"HEAD" or 100 <= status < 200 or status in (204, 304):
            return b""
        if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
            return self._chunked()
        if b"content-length" in headers:
            text = headers[b"content-length"]
            if not text.isdigit() or int(text) > MAX_BODY:
                raise NotHttp(f"a bad Content-Length: {text[:40]!r}")
            return self._exactly(int(text))
        if status == 101:
            return b""
        while True:  # no length: the body runs to the end of the connection
            try:
                self._fill("body")
            except NotHttp:
                body, self.buffer = self.buffer, b""
                return body
            if len(self.buffer) > MAX_BODY:
                raise NotHttp("an unbounded body over 8 MiB")

    def _exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            self._fill("body")
        body, self.buffer = self.buffer[:size], self.buffer[size:]
        return body

    def _line(self) -> bytes:
        while b"\r\n" not in self.buffer:
            if len(self.buffer) > 4096:
                raise NotHttp("a chunk size line over 4 KiB")
            self._fill("body")
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _chunked(self) -> bytes:
        body = b""
        while True:
            size_text = self._line().split(b";")[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise NotHttp(f"a bad chunk size: {size_text[:40]!r}") from None
            if size == 0:
                while self._line():
                    pass  # trailers
                return body
            body += self._exactly(size)
            if self._exactly(2) != b"\r\n":
                raise NotHttp("a chunk not followed by CRLF")
            if len(body) > MAX_BODY:
                raise NotHttp("a chunked body over 8 MiB")


class Wire:
    """One kept-alive connection to 127.0.0.1, opened again whenever the server closed it."""

    def __init__(self, port: int, timeout: float):
        self.port, self.timeout = port, timeout
        self.sock: socket.socket | None = None
        self.reader: Reader | None = None
        self.used = False

    def open(self) -> None:
        self.close()
        self.sock = socket.create_connection((HOST, self.port), timeout=self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = Reader(self.sock)
        self.used = False

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.close()
            finally:
                self.sock, self.reader = None, None

    def exchange(self, data: bytes, methods: tuple) -> list:
        """Sends `data` and reads one response per method. A connection the server closed while
        it sat idle (the request met only its end) is opened again once, as browsers do."""
        for attempt in (0, 1):
            if self.sock is None:
                self.open()
            reused = self.used
            try:
                self.sock.sendall(data)
                responses = [self.reader.response(method) for method in methods]
            except (NoResponse, BrokenPipeError, ConnectionResetError) as error:
                self.close()
                if reused and attempt == 0:
                    continue
                raise NoResponse(str(error) or type(error).__name__) from error
            except BaseException:
                self.close()
                raise
            self.used = True
            if responses[-1].close:
                self.close()
            return responses
        raise AssertionError("unreachable")
