"""The built `survey` binary on a free loopback port: `serve` or `preview` started with the
given arguments, waited for until it answers, stopped cleanly, its output kept in a log."""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from support.http import get

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "survey"
RELEASE_BINARY = ROOT / ".build" / "release" / "survey"
# SURVEY_TEST_EXAMPLES serves (and simulates) the surveys of another folder instead: an altered
# copy of an example shows that the hand-written expectations catch a change of its rules or scores.
EXAMPLES_DIR = Path(os.environ.get("SURVEY_TEST_EXAMPLES") or ROOT / "Examples")
EXAMPLES = sorted(EXAMPLES_DIR.glob("*.json"))
FIXTURES = ROOT / "Tests" / "Fixtures"
TEMPLATES = ROOT / "Templates"
PUBLIC = ROOT / "Public"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def stop_process(process: subprocess.Popen):
    """SIGTERM, then SIGKILL if it has not exited 10 s later."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


class Launched:
    """`binary command *arguments --port P` started in `cwd` on a free port, its standard output
    and error in `log_path`; `wait(path)` until it answers, `stop()` when done."""

    def __init__(self, binary: Path, command: str, arguments=(), cwd: Path = ROOT, log_path: Path | None = None,
                 env: dict | None = None):
        self.binary, self.command, self.arguments = Path(binary), command, [str(a) for a in arguments]
        self.cwd, self.env = cwd, None if env is None else {**os.environ, **env}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path or Path(cwd) / f"{command}-{self.port}.log"
        self.process = None

    def launch(self):
        if not self.binary.exists():
            import pytest  # here, so that scripts outside pytest can use this module
            pytest.fail(f"{self.binary} is missing: build it with `swift build` (`-c release` for the release one)", pytrace=False)
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen([str(self.binary), self.command, *self.arguments, "--port", str(self.port)],
                                        cwd=self.cwd, stdin=subprocess.DEVNULL, stdout=self.log,
                                        stderr=subprocess.STDOUT, env=self.env)
        return self

    def wait(self, path: str = "/", timeout: float = 60, status: int | None = None):
        """(status, body) of the first GET of `path` that gets an answer (with `status`, when
        given); fails the test when the process exits or nothing answers in time."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                self.fail(f"survey {self.command} exited with {self.process.returncode}:\n{self.log_text()}")
            try:
                answer = get(self.url + path, timeout=1 if status else 10)
                if status is None or answer[0] == status:
                    return answer
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        self.fail(f"survey {self.command} did not answer on {self.url}{path} within {timeout} s:\n{self.log_text()}")

    def fail(self, message: str):
        import pytest
        pytest.fail(message, pytrace=False)

    def log_text(self) -> str:
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")[-4000:]
        return ""

    def stop(self):
        if self.process:
            stop_process(self.process)
        with contextlib.suppress(Exception):
            self.log.close()


class Server(Launched):
    """`survey serve` on a free loopback port, with its own data folder and the repository's
    templates and static files; `start()` returns once / answers 200."""

    def __init__(self, surveys: Path, data: Path, extra: tuple = (), binary: Path = BINARY, env: dict | None = None):
        self.surveys, self.data, self.extra = surveys, data, tuple(extra)
        super().__init__(binary, "serve",
                         ["--host", "127.0.0.1", "--data", data, "--surveys", surveys,
                          "--templates", TEMPLATES, "--public", PUBLIC, *self.extra],
                         cwd=ROOT, log_path=data / "server.log", env=env)

    def fail(self, message: str):
        raise RuntimeError(message)

    def start(self, timeout: float = 30):
        self.data.mkdir(parents=True, exist_ok=True)
        self.launch()
        self.wait("/", timeout=timeout, status=200)
        return self


class ServerPool:
    """Servers started for a fixture and all stopped at its end:
    `pool.start(surveys, data, extra=..., binary=..., env=...)` returns a started Server."""

    def __init__(self):
        self.started = []

    def start(self, surveys: Path, data: Path, extra: tuple = (), binary: Path = BINARY, env: dict | None = None) -> Server:
        server = Server(surveys, data, extra=extra, binary=binary, env=env)
        self.started.append(server)
        return server.start()

    def stop(self):
        for server in self.started:
            server.stop()
