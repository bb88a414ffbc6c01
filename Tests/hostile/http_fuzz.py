"""An HTTP fuzzer for `survey serve`: standard library only, and only ever 127.0.0.1.

It starts like a browser: participants with a cookie each open the example surveys, read the
step forms from the HTML (every control, the hidden `_csrf`, `_visit`, `_page`, the buttons)
and answer them with the answers of Tests/Fixtures, so the runs walk deep into every survey.
Between those valid posts it sends what http_fuzz_cases makes of them: forms with fields
dropped, duplicated, reordered or given hostile values, bodies with broken encodings, wrong
tokens, content types and lengths, chunked bodies, mutated headers, every route with mutated
paths and queries, the researcher API, garbage request lines and raw noise.

Every response is read and parsed. A failure is any 5xx, bytes that are not an HTTP response,
or no response at all to a request well-formed enough to deserve one (a hang counts: each read
has a time limit). Each failure's request bytes are saved for replay. Everything is bounded:
a count of requests, a wall-time limit, and a time limit on every read.

Deterministic from its seed: worker i draws from random.Random(f"{seed}:{i}") and sends a fixed
share of the count (the server's tokens and cookies differ from run to run, so the bytes do).

    python Tests/hostile/http_fuzz.py --port 8080 --count 100000 --seconds 600 --seed 1
    python Tests/hostile/http_fuzz.py --port 8080 --replay /tmp/http-fuzz-findings/00001-form.request
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import socket
import sys
import threading
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # Tests/, for support

import http_fuzz_cases as cases  # noqa: E402
from http_fuzz_wire import HOST, NoResponse, NotHttp, Probe, Reader, Response, Wire, request_bytes  # noqa: E402
from support.forms import Form, parse_form  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SURVEYS = {"every-format": 5, "wellbeing-check": 2, "fever-triage": 2}
FINDINGS_KEPT = 100


def fixture_answers(survey: str) -> dict:
    """The valid answers of Tests/Fixtures/<survey>.answers.json, {field name: str | [str]}."""
    path = ROOT / "Tests" / "Fixtures" / f"{survey}.answers.json"
    merged: dict = {}
    for fields in json.loads(path.read_text(encoding="utf-8")).values():
        merged.update(fields)
    return merged


class Shared:
    """What the workers learn and lend each other: tokens, cookies, recorded valid posts, links."""

    def __init__(self, port: int, api_token: str | None):
        self.port, self.api_token = port, api_token
        self.lock = threading.Lock()
        self.bags: dict[str, collections.deque] = collections.defaultdict(lambda: collections.deque(maxlen=300))

    def add(self, bag: str, item) -> None:
        with self.lock:
            self.bags[bag].append(item)

    def pick(self, rng: random.Random, bag: str, default=None):
        with self.lock:
            items = self.bags.get(bag)
            return items[rng.randrange(len(items))] if items else default


class Fuzzer:
    """Runs the workers and keeps the score: statuses, labels, failures (saved for replay)."""

    def __init__(self, port: int, count: int, seconds: float, seed: int = 1, workers: int = 8,
                 findings_dir: Path | str = "/tmp/http-fuzz-findings", api_token: str | None = None,
                 read_timeout: float = 10.0):
        if not 0 < port < 65536:
            raise ValueError(f"bad port {port}")
        self.port, self.count, self.seconds, self.seed, self.workers = port, count, seconds, seed, workers
        self.findings_dir, self.read_timeout = Path(findings_dir), read_timeout
        self.shared = Shared(port, api_token)
        self.lock = threading.Lock()
        self.statuses: collections.Counter = collections.Counter()
        self.labels: collections.Counter = collections.Counter()
        self.failures: list[dict] = []
        self.sent = 0
        self.worker_counts: collections.Counter = collections.Counter()
        self.slowest = (0.0, "")
        self.by_kind: dict = collections.defaultdict(collections.Counter)
        self.completed_runs = 0
        self.valid_accepted = 0
        self.fuzzed_controls: set[str] = set()
        self.crashes: list[str] = []
        self.elapsed = 0.0
        self.deadline = 0.0

    # MARK: Sending and judging

    def send(self, wire: Wire, probe: Probe) -> Response | None:
        """Sends one probe, judges every response it gets, and returns the first (or None)."""
        responses: list[Response] = []
        problem = None
        began = time.monotonic()
        try:
            if probe.fresh or not probe.well_formed:
                responses = self._one_shot(probe)
            else:
                responses = wire.exchange(probe.data, probe.methods)
        except NotHttp as error:
            problem = f"not HTTP: {error}"
        except NoResponse as error:
            if probe.well_formed and not (probe.may_reset and "reset" in str(error)):
                problem = f"no response: {error}"
        except socket.timeout:
            if probe.well_formed:
                problem = f"no response within {self.read_timeout} s"
        except OSError as error:  # refused or reset before a byte was sent: the server is not there
            problem = f"connection failed: {error!r}"
        took = time.monotonic() - began
        with self.lock:
            self.sent += 1
            if took > self.slowest[0]:
                self.slowest = (took, probe.label)
            self.labels[probe.label] += 1
            if not responses and problem is None:
                self.statuses["closed" if probe.well_formed else "closed (malformed)"] += 1
            for response in responses:
                status = "503 (API off)" if self._api_off(response) else response.status
                self.statuses[status] += 1
                self.by_kind[probe.label.split("/")[0]][status] += 1
                if isinstance(status, int) and status >= 500:
                    problem = problem or f"status {status}"
            if problem:
                self.statuses["failure"] += 1
                self._keep(probe, responses, problem)
        return responses[0] if responses else None

    def _one_shot(self, probe: Probe) -> list[Response]:
        """A probe on a connection of its own: kept-alive connections stay clean of its leftovers.
        A malformed one is followed by the end of the client's stream, so the server sees no
        more is coming; whatever it answers before closing is read and judged."""
        with socket.create_connection((HOST, self.port), timeout=self.read_timeout) as sock:
            try:
                sock.sendall(probe.data)
                if probe.half_close:
                    sock.shutdown(socket.SHUT_WR)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered (or gave up) before reading all of it: read what it sent
            reader = Reader(sock)
            responses: list[Response] = []
            wanted = probe.methods if probe.well_formed else (b"GET",) * 8
            try:
                for method in wanted:
                    responses.append(reader.response(method))
            except (NoResponse, socket.timeout, OSError) as error:
                if probe.well_formed and not responses:
                    if isinstance(error, socket.timeout):
                        raise
                    raise NoResponse(str(error)) from error
            return responses

    def _api_off(self, response: Response) -> bool:
        """Without an API token the researcher API answers 503 by design: not a failure then."""
        return (self.shared.api_token is None and response.status == 503
                and b"researcher API is off" in response.body)

    def _keep(self, probe: Probe, responses: list[Response], problem: str) -> None:
        number = len(self.failures) + 1
        entry = {"number": number, "label": probe.label, "problem": problem, "request": probe.data[:2000],
                 "response": b"\n".join(r.raw[:2000] for r in responses)}
        self.failures.append(entry)
        if number > FINDINGS_KEPT:
            return
        self.findings_dir.mkdir(parents=True, exist_ok=True)
        stem = self.findings_dir / f"{number:05d}-{probe.label.replace('/', '_')}"
        stem.with_suffix(".request").write_bytes(probe.data)
        stem.with_suffix(".response").write_bytes(
            f"problem: {problem}\nport: {self.port}\n\n".encode() + b"\n".join(r.raw for r in responses))

    # MARK: Running

    def run(self) -> "Fuzzer":
        start = time.monotonic()
        self.deadline = start + self.seconds
        shares = [self.count // self.workers + (1 if i < self.count % self.workers else 0) for i in range(self.workers)]
        threads = [threading.Thread(target=self._worker, args=(i, share), daemon=True) for i, share in enumerate(shares) if share]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(max(0.0, self.deadline - time.monotonic()) + 2 * self.read_timeout + 5)
        self.elapsed = time.monotonic() - start
        return self

    def _worker(self, index: int, share: int) -> None:
        rng = random.Random(f"{self.seed}:{index}")
        wire = Wire(self.port, self.read_timeout)
        participant = None
        try:
            while self.sent_by(index) < share and time.monotonic() < self.deadline:
                if participant is None or participant.retired:
                    survey = rng.choices(list(SURVEYS), weights=list(SURVEYS.values()))[0]
                    participant = Participant(self, wire, survey, index)
                    participant.refresh()
                    continue
                cases.one_case(rng, self, participant)
        except Exception:  # a fault of the fuzzer itself: reported, so a run that stopped short is not a pass
            with self.lock:
                self.crashes.append(traceback.format_exc())
        finally:
            wire.close()

    def sent_by(self, index: int) -> int:
        return self.worker_counts[index]

    def probe(self, wire: Wire, probe: Probe, worker: int) -> Response | None:
        self.worker_counts[worker] += 1
        return self.send(wire, probe)

    def report(self) -> str:
        rate = self.sent / self.elapsed if self.elapsed else 0.0
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(self.statuses.items(), key=lambda kv: str(kv[0])))
        kinds: collections.Counter = collections.Counter()
        for label, number in self.labels.items():
            kinds[label.split("/")[0]] += number
        labels = "\n".join(f"  {kind} {number}: " + " ".join(f"{s}×{n}" for s, n in sorted(self.by_kind[kind].items(), key=lambda kv: str(kv[0])))
                           for kind, number in kinds.most_common())
        return (f"{self.sent} requests in {self.elapsed:.1f} s ({rate:.0f}/s), {len(self.failures)} failures\n"
                f"statuses: {statuses}\ncases (statuses of their responses):\n{labels}\n"
                f"valid answers accepted: {self.valid_accepted}, runs completed: {self.completed_runs}, "
                f"controls fuzzed: {len(self.fuzzed_controls)}, slowest case: {self.slowest[0] * 1000:.0f} ms ({self.slowest[1]})"
                + "".join(f"\nthe fuzzer itself failed:\n{crash}" for crash in self.crashes))


class Participant:
    """A browser's view of one survey: one session cookie, the current step's form, and the
    answers of the fixture to fill it with."""

    def __init__(self, fuzzer: Fuzzer, wire: Wire, survey: str, worker: int):
        self.fuzzer, self.wire, self.survey, self.worker = fuzzer, wire, survey, worker
        self.answers = fixture_answers(survey)
        self.cookie: bytes | None = None
        self.form: Form | None = None
        self.path = f"/surveys/{survey}"
        self.retired = False
        self.rejected = 0

    def headers(self, content_type: bytes | None = None, cookie: bytes | None = None) -> list[tuple[bytes, bytes]]:
        headers = [(b"Host", f"{HOST}:{self.fuzzer.port}".encode()), (b"User-Agent", b"http-fuzz"),
                   (b"Accept", b"text/html")]
        cookie = cookie if cookie is not None else self.cookie
        if cookie:
            headers.append((b"Cookie", cookie))
        if content_type:
            headers.append((b"Content-Type", content_type))
        return headers

    def send(self, probe: Probe) -> Response | None:
        response = self.fuzzer.probe(self.wire, probe, self.worker)
        if response is not None and probe.own_cookie:
            for value in response.cookies:
                if value.startswith(b"survey_session="):
                    self.cookie = value.split(b";")[0]
                    self.fuzzer.shared.add("cookies", self.cookie)
        return response

    def get(self, path: str, label: str = "browse") -> Response | None:
        """GET, following the server's 303s like a browser; the last response."""
        response = None
        for _ in range(6):
            data = request_bytes(b"GET", path.encode(), self.headers())
            response = self.send(Probe(data, label))
            if response is None or response.status not in (301, 302, 303, 307):
                break
            path = response.headers.get(b"location", b"/").decode("latin-1")
            if not path.startswith("/"):
                break  # an absolute address: the fuzzer never leaves 127.0.0.1
        return response

    def refresh(self, response: Response | None = None) -> None:
        """Reads the step the run is at (following a 303 when given one)."""
        if response is not None and response.status in (301, 302, 303, 307):
            location = response.headers.get(b"location", b"").decode("latin-1")
            if location.startswith("/") and "/saved" in location:
                saved = self.get(location)
                if saved is not None:
                    cases.harvest_links(self.fuzzer.shared, saved.body)
        page = self.get(self.path)
        self.form = parse_form(page.body, self.path) if page is not None and page.status == 200 else None
        if self.form is None:
            self.retired = True
        else:
            self.fuzzer.shared.add("tokens", self.form.value("_csrf"))

    def post(self, pairs: list[tuple[bytes, bytes]], label: str = "valid") -> Response | None:
        body = cases.encode(pairs)
        data = request_bytes(b"POST", self.form.action.encode(), self.headers(b"application/x-www-form-urlencoded"), body)
        return self.send(Probe(data, label, methods=(b"POST",)))

    def advance(self) -> None:
        """Answers the current step validly (or skips it, or starts over when it will not go)."""
        pairs = cases.valid_pairs(self.form, self.answers)
        if self.rejected >= 2:
            pairs = [p for p in pairs if p[0] != b"_action"] + [(b"_action", b"skip" if self.rejected == 2 else b"discard")]
        response = self.post(pairs)
        if response is None:
            self.retired = True
            return
        if response.status == 303:
            self.fuzzer.shared.add("posts", (self.form.action, pairs, self.cookie))
            with self.fuzzer.lock:
                self.fuzzer.valid_accepted += 1
                if response.headers.get(b"location", b"").endswith(b"/done"):
                    self.fuzzer.completed_runs += 1
            self.rejected = 0
            if response.headers.get(b"location", b"").endswith((b"/done", b"/discarded")):
                self.retired = True
                return
        else:
            self.rejected += 1
            if self.rejected > 3:
                self.retired = True
                return
        self.refresh(response)


def complete_survey(port: int, survey: str, timeout: float = 10.0) -> dict:
    """A fresh participant answers every step with the fixture's answers (each must be taken
    with a 303) and returns the finished run's result.json."""
    judge = Fuzzer(port, count=0, seconds=60, read_timeout=timeout)
    wire = Wire(port, timeout)
    try:
        participant = Participant(judge, wire, survey, worker=0)
        participant.refresh()
        for _ in range(100):
            if participant.retired:
                break
            participant.advance()
            assert participant.rejected == 0, f"a valid answer of {survey} was refused"
        assert judge.completed_runs == 1 and not judge.failures, judge.report()
        response = participant.get(f"/surveys/{survey}/result.json")
        assert response is not None and response.status == 200, response
        return json.loads(response.body)
    finally:
        wire.close()


def replay(port: int, path: Path, timeout: float = 10.0) -> bytes:
    """Sends a saved request on a fresh connection and returns what the server answered."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(path.read_bytes())
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except socket.timeout:
            pass
        return b"".join(chunks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Fuzz a survey server on 127.0.0.1 over HTTP.")
    parser.add_argument("--host", default=HOST, help="must be 127.0.0.1: the fuzzer talks to no other host")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--api-token", default=None, help="the server's --api-token, so the API is fuzzed past its check")
    parser.add_argument("--findings", default="/tmp/http-fuzz-findings")
    parser.add_argument("--replay", type=Path, help="send one saved request and print the answer")
    args = parser.parse_args(argv)
    if args.host != HOST:
        parser.error(f"refusing host {args.host!r}: the fuzzer only talks to {HOST}")
    if args.replay:
        sys.stdout.buffer.write(replay(args.port, args.replay) + b"\n")
        return 0
    fuzzer = Fuzzer(args.port, args.count, args.seconds, args.seed, args.workers, args.findings, args.api_token).run()
    print(fuzzer.report())
    for failure in fuzzer.failures[:20]:
        print(f"#{failure['number']} {failure['label']}: {failure['problem']}\n  request: {failure['request'][:300]!r}")
    if fuzzer.failures:
        print(f"the requests of the first {FINDINGS_KEPT} failures are in {args.findings}; replay one with --replay FILE")
    result = complete_survey(args.port, "wellbeing-check")
    print(f"afterwards a fresh participant completed wellbeing-check: {result.get('finishReason')}")
    return 1 if fuzzer.failures or fuzzer.crashes or result.get("finishReason") != "completed" else 0


if __name__ == "__main__":
    sys.exit(main())
