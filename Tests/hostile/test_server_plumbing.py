"""What the release server writes and where it answers: the modes of the files it makes, its
access log, and /metrics kept off the main port.

Every request goes to 127.0.0.1; every wait is bounded.
"""
from __future__ import annotations

import re
import stat
import time
import urllib.error
import urllib.parse
import urllib.request

from conftest import raw_request, status_of
from support import free_port

ACCESS_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (GET|POST|HEAD) (\S+) (\d{3}) \d+\.\d{3}ms( request=\S+)?$")


def get(url: str, headers: dict | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def start_run(url: str, survey: str) -> None:
    """Opens a survey and presses its first button, which stores the run (a GET stores nothing)."""
    status, page, headers = _open(url + f"/surveys/{survey}")
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    token = re.search(r'name="_csrf" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode({"_csrf": token, "_visit": "0", "_action": "next"}).encode()
    request = urllib.request.Request(url + f"/surveys/{survey}", data=data, headers={"Cookie": cookie})
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        opener.open(request, timeout=5)
    except urllib.error.HTTPError as error:
        assert error.code == 303, error.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def _open(url: str) -> tuple[int, str, dict]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode("utf-8", "replace"), dict(response.headers)


def access_lines(server, expected: int) -> list[str]:
    """The access lines of the server's output, waiting (a bounded while) for `expected` of them."""
    lines: list[str] = []
    for _ in range(50):
        lines = [line for line in server.log_path.read_text(errors="replace").splitlines() if ACCESS_LINE.match(line)]
        if len(lines) >= expected:
            break
        time.sleep(0.1)
    return lines


def test_a_fresh_data_folder_and_every_file_in_it_are_the_owners_alone(release_server_factory, tmp_path_factory):
    fresh = tmp_path_factory.mktemp("modes") / "never-made"
    server = release_server_factory("--data", str(fresh))
    # A run is written, so the database has its WAL and shared-memory files.
    status, _ = get(server.url + "/surveys/wellbeing-check")
    assert status == 200
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o700
    names = sorted(path.name for path in fresh.iterdir())
    assert {"cookie-secret", "runs.sqlite", "runs.sqlite-wal", "runs.sqlite-shm"} <= set(names), names
    for path in fresh.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, f"{path.name} is {oct(stat.S_IMODE(path.stat().st_mode))}"


def test_the_access_log_names_routes_never_paths_queries_or_cookies(release_server):
    before = len(access_lines(release_server, 1))  # the start-up check's GET /
    secret = "QUERYSECRET"
    cookie = "survey_session=COOKIESECRET.abc"
    assert get(release_server.url + f"/surveys/wellbeing-check?lang=es&x={secret}", {"Cookie": cookie})[0] == 200
    get(release_server.url + "/start/TOKENSECRETTOKENSECRET")
    assert status_of(raw_request(release_server.port, b"GET /nowhere/TOKENSECRET?y=QUERYSECRET HTTP/1.1\r\nHost: a\r\n\r\n")) == 404
    lines = access_lines(release_server, before + 3)[before:]
    assert len(lines) == 3, lines
    parsed = [ACCESS_LINE.match(line).groups() for line in lines]
    assert [(method, route, status) for method, route, status, _ in parsed] == [
        ("GET", "/surveys/{survey}", "200"), ("GET", "/start/{token}", parsed[1][2]), ("GET", "-", "404")]
    log = release_server.log_path.read_text(errors="replace")
    for leaked in ("QUERYSECRET", "COOKIESECRET", "TOKENSECRET", "lang=es"):
        assert leaked not in log


def test_no_access_log_when_turned_off(release_server_factory):
    server = release_server_factory("--no-access-log")
    assert get(server.url + "/health")[0] == 200
    time.sleep(0.5)  # longer than the 100 ms between batches
    assert not [line for line in server.log_path.read_text(errors="replace").splitlines() if ACCESS_LINE.match(line)]


def test_metrics_answer_on_the_metrics_port_and_not_on_the_main_one(release_server_factory):
    metrics_port = free_port()
    server = release_server_factory("--metrics-port", str(metrics_port))
    start_run(server.url, "wellbeing-check")
    assert get(server.url + "/metrics")[0] == 404
    assert get(server.url + "/health")[0] == 200
    status, text = get(f"http://127.0.0.1:{metrics_port}/metrics")
    assert status == 200
    assert "survey_runs_started_total 1" in text
    assert "survey_request_duration_seconds_count" in text
    # Both servers stop on SIGTERM, and the access lines still waiting are written first.
    assert get(server.url + "/surveys/wellbeing-check?lang=es")[0] == 200
    server.process.terminate()
    assert server.process.wait(15) == 0, server.log_text()
    lines = [line for line in server.log_path.read_text(errors="replace").splitlines() if ACCESS_LINE.match(line)]
    assert len(lines) >= 4 and " GET /surveys/{survey} 200 " in lines[-1], lines


def test_metrics_on_the_main_port_need_the_token(release_server_factory):
    token = "metrics-token-for-tests"
    server = release_server_factory("--metrics-token", token)
    assert get(server.url + "/metrics")[0] == 401
    assert get(server.url + "/metrics", {"Authorization": "Bearer wrong-token-for-tests"})[0] == 401
    status, text = get(server.url + "/metrics", {"Authorization": f"Bearer {token}"})
    assert status == 200
    assert "survey_runs_started_total" in text
