"""The hostile-client suite: the release build of `survey serve` on a free loopback port,
spoken to with raw sockets as an attacker or a broken client would.

Build the server first with `swift build -c release --product survey`; scripts/test does.
Every request goes to 127.0.0.1 only, and every loop here is bounded in count and time.
"""
from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from support import EXAMPLES_DIR, RELEASE_BINARY, Server, ServerPool

RELEASE = RELEASE_BINARY


@pytest.fixture(scope="module")
def release_server_factory(tmp_path_factory):
    """start(*flags, surveys=Examples, env=None) -> a started release server; all stopped after
    the module."""
    pool = ServerPool()

    def start(*flags: str, surveys: Path = EXAMPLES_DIR, env: dict | None = None) -> Server:
        return pool.start(surveys, tmp_path_factory.mktemp("hostile-data"), extra=flags, binary=RELEASE, env=env)

    yield start
    pool.stop()


@pytest.fixture(scope="module")
def release_server(release_server_factory):
    """One release server on the examples with default settings."""
    return release_server_factory()


def raw_request(port: int, data: bytes, timeout: float = 5.0) -> bytes:
    """Sends bytes on a fresh connection and returns everything the server sends back until it
    closes the connection or `timeout` passes with nothing more arriving."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        chunks = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            chunks.append(chunk)
            if b"\r\n\r\n" in b"".join(chunks) and _complete(b"".join(chunks)):
                break
        return b"".join(chunks)


def _complete(response: bytes) -> bool:
    """True when a response with a Content-Length has all of its body."""
    head, _, body = response.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip() or b"0")
    return False


def status_of(response: bytes) -> int:
    """The status code of a raw HTTP response, or 0 when there is none."""
    parts = response.split(b" ", 2)
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
