"""The release server under 5 × 10⁴ mutated forms and raw requests (Tests/hostile/http_fuzz.py):
no 5xx, no answer that is not HTTP, no silence to a request that deserves an answer; and after
it the server is healthy, a fresh participant completes a survey, and its memory is back.

SURVEY_HTTP_FUZZ_COUNT (50,000) requests from seed SURVEY_HTTP_FUZZ_SEED, every one of them:
SURVEY_HTTP_FUZZ_SECONDS (480) is a time budget, and a run that has not sent the whole count
when it runs out fails with the figures. The count is what the release build sends on these
2 cores with room to spare: 424 requests a second with a debug build compiling beside it,
263 a second with browser suites running beside it (load 20), so 50,000 take 2 to 3 minutes
and the budget fails only a server that has become several times slower. Failures' requests
are saved in /tmp/http-fuzz-findings for `python Tests/hostile/http_fuzz.py --port P --replay FILE`.

Memory: the resident size (VmRSS) is measured after a warm-up of 5,000 requests, sampled through
the run, and must come back to at most baseline × 1.25 + 16 MiB within a settle time. The server
runs with glibc's default allocator settings: measured on the release build, 100,000 requests
took it from 52 MiB to a peak of 62 MiB and 60 MiB after, the same as with MALLOC_ARENA_MAX=2
(51, 61, 60); 300,000 ended at 65 MiB. What grows is bounded by design: the session and CSRF
caches (4,096 each), SQLite's page cache per connection as the database grows, the limiters'
counters (10,000 keys).

Every request goes to 127.0.0.1; the run is bounded in count and time.
"""
from __future__ import annotations

import os
import threading
import time
import urllib.request

from http_fuzz import Fuzzer, complete_survey, fixture_answers

COUNT = int(os.environ.get("SURVEY_HTTP_FUZZ_COUNT", "50000"))
SECONDS = float(os.environ.get("SURVEY_HTTP_FUZZ_SECONDS", "480"))
SEED = int(os.environ.get("SURVEY_HTTP_FUZZ_SEED", "20261123"))
FINDINGS = "/tmp/http-fuzz-findings"
API_TOKEN = "http-fuzz-api-token-for-tests-0123456789"
WARMUP = 5000
WARMUP_SECONDS = 120
SETTLE_SECONDS = 20
MIB = 1024 * 1024


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")


class RssSampler(threading.Thread):
    """The server's resident size every quarter second; keeps the peak."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0, True

    def run(self):
        while self.running:
            self.peak = max(self.peak, rss_bytes(self.pid))
            time.sleep(0.25)

    def stop(self) -> int:
        self.running = False
        self.join(2)
        return self.peak


def settled_rss(pid: int, bound: float, seconds: float) -> int:
    """The resident size after a short settle, or once it is within `bound`, or after `seconds`
    of waiting for that."""
    deadline = time.monotonic() + seconds
    time.sleep(3)
    rss = rss_bytes(pid)
    while rss > bound and time.monotonic() < deadline:
        time.sleep(0.5)
        rss = rss_bytes(pid)
    return rss


def ran_in_full(fuzzer: Fuzzer, what: str) -> str | None:
    """Why `fuzzer` fell short of its count, with its figures; None when it sent all of it."""
    if fuzzer.sent >= fuzzer.count:
        return None
    rate = fuzzer.sent / fuzzer.elapsed if fuzzer.elapsed else 0.0
    return (f"{what}: {fuzzer.sent} of {fuzzer.count} requests (seed {fuzzer.seed}) in {fuzzer.elapsed:.0f} s, "
            f"{rate:.0f}/s, when the budget was {fuzzer.seconds:.0f} s: the count needs "
            f"{fuzzer.count / fuzzer.seconds:.0f}/s\n{fuzzer.report()}")


def test_fifty_thousand_hostile_requests_get_no_5xx_and_leave_the_server_as_it_was(release_server_factory, tmp_path):
    server = release_server_factory("--runs-per-hour", "0", "--api-token", API_TOKEN)
    pid = server.process.pid
    print(f"\nHTTP fuzz: {COUNT} requests from seed {SEED} within {SECONDS:.0f} s, after {WARMUP} to warm up")

    warm = Fuzzer(server.port, WARMUP, WARMUP_SECONDS, seed=SEED + 1, findings_dir=FINDINGS, api_token=API_TOKEN).run()
    assert not warm.failures and not warm.crashes, f"failures in the warm-up, requests in {FINDINGS}:\n{warm.report()}"
    short = ran_in_full(warm, "the warm-up")
    assert short is None, short
    time.sleep(2)
    baseline = rss_bytes(pid)
    sampler = RssSampler(pid)
    sampler.start()

    started = time.monotonic()
    fuzzer = Fuzzer(server.port, COUNT, SECONDS, seed=SEED, findings_dir=FINDINGS, api_token=API_TOKEN).run()
    peak = sampler.stop()
    print(f"\nHTTP fuzz, seed {SEED}: {fuzzer.report()}")

    assert not fuzzer.crashes, fuzzer.crashes[0]
    assert server.process.poll() is None, f"the server exited with {server.process.returncode}:\n{server.log_text()}"
    failures = "\n".join(f"#{f['number']} {f['label']}: {f['problem']}\n  request: {f['request'][:400]!r}\n"
                         f"  response: {f['response'][:400]!r}" for f in fuzzer.failures[:10])
    assert not fuzzer.failures, f"{len(fuzzer.failures)} failures, requests saved in {FINDINGS}:\n{failures}"
    short = ran_in_full(fuzzer, "the run")
    assert short is None, short
    # The valid posts walked deep enough for the mutations to reach every format's parser.
    every_format = {f"every-format:{name}" for name in fixture_answers("every-format")}
    assert every_format <= fuzzer.fuzzed_controls, f"never fuzzed: {sorted(every_format - fuzzer.fuzzed_controls)}"

    with urllib.request.urlopen(server.url + "/health", timeout=5) as response:
        assert response.status == 200
    result = complete_survey(server.port, "wellbeing-check")
    assert result["finishReason"] == "completed", result

    bound = baseline * 1.25 + 16 * MIB
    after = settled_rss(pid, bound, SETTLE_SECONDS)
    total = time.monotonic() - started
    print(f"RSS: baseline {baseline / MIB:.1f} MiB (after {WARMUP} warm-up requests), peak {peak / MIB:.1f} MiB, "
          f"after {after / MIB:.1f} MiB (bound {bound / MIB:.1f} MiB); run and checks {total:.0f} s")
    assert after <= bound, f"RSS {after / MIB:.1f} MiB stayed above {bound / MIB:.1f} MiB (baseline {baseline / MIB:.1f} MiB)"
