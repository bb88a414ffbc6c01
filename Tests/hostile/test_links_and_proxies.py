"""Links and proxies, spoken to as an attacker would: a forged Host, X-Forwarded-Proto or
X-Forwarded-For from a client that is not a trusted proxy changes nothing, and from a trusted
proxy it counts."""
from __future__ import annotations

import re
import urllib.parse

from conftest import raw_request, status_of


def _head_and_body(response: bytes) -> tuple[str, str]:
    head, _, body = response.partition(b"\r\n\r\n")
    return head.decode("latin-1"), body.decode("utf-8", "replace")


def _cookie(head: str) -> str:
    match = re.search(r"(?im)^set-cookie: ([^;\r\n]+)", head)
    assert match, head
    return match.group(1)


def _get(port: int, path: str, cookie: str = "", headers: str = "") -> tuple[str, str]:
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}"
    if cookie:
        request += f"Cookie: {cookie}\r\n"
    return _head_and_body(raw_request(port, (request + "Connection: close\r\n\r\n").encode()))


def _post(port: int, path: str, cookie: str, fields: dict, headers: str = "") -> tuple[str, str]:
    body = urllib.parse.urlencode(fields).encode()
    request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Cookie: {cookie}\r\n"
               f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    return _head_and_body(raw_request(port, request.encode() + body))


def _saved_run(port: int, headers: str = "") -> str:
    """Starts and saves a run of wellbeing-check; returns the session cookie."""
    head, body = _get(port, "/surveys/wellbeing-check", headers=headers)
    cookie = _cookie(head)
    token = re.search(r'name="_csrf" value="([^"]+)"', body).group(1)
    head, _ = _post(port, "/surveys/wellbeing-check", cookie, {"_csrf": token, "_visit": "0", "_action": "save"}, headers)
    assert status_of(head.encode()) == 303, head
    return cookie


def test_a_forged_host_does_not_reach_the_resume_link(release_server):
    port = release_server.port
    cookie = _saved_run(port)
    request = (f"GET /surveys/wellbeing-check/saved HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n"
               f"X-Forwarded-Proto: https\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n")
    head, body = _head_and_body(raw_request(port, request.encode()))
    assert status_of(head.encode()) == 200, head
    links = re.findall(r'href="([^"]*/resume/[^"]+)"', body)
    assert links and all(link.startswith(f"http://127.0.0.1:{port}/resume/") for link in links), links
    assert "evil.example" not in body


def test_a_forged_proto_does_not_make_the_cookie_secure(release_server):
    head, _ = _get(release_server.port, "/surveys/fever-triage", headers="X-Forwarded-Proto: https\r\n")
    cookie_line = re.search(r"(?im)^set-cookie: .*$", head).group(0)
    assert cookie_line.lower().startswith("set-cookie: survey_session=")
    assert "secure" not in cookie_line.lower()


def test_the_start_warns_when_links_have_no_public_address(release_server):
    assert "Neither --public-url nor --trusted-proxy is set" in release_server.log_text()


def test_a_trusted_proxy_forwards_host_scheme_and_client(release_server_factory):
    srv = release_server_factory("--trusted-proxy", "127.0.0.1,::1")
    forwarded = "X-Forwarded-Host: survey.example.org\r\nX-Forwarded-Proto: https\r\nX-Forwarded-For: 198.51.100.7\r\n"
    head, _ = _get(srv.port, "/surveys/fever-triage", headers=forwarded)
    assert re.search(r"(?im)^set-cookie: __Host-survey_session=.*; secure", head), head
    # The whole save over the proxy, with the __Host- cookie it hands out.
    head, body = _get(srv.port, "/surveys/wellbeing-check", headers=forwarded)
    cookie = _cookie(head)
    assert cookie.startswith("__Host-survey_session=")
    token = re.search(r'name="_csrf" value="([^"]+)"', body).group(1)
    head, _ = _post(srv.port, "/surveys/wellbeing-check", cookie, {"_csrf": token, "_visit": "0", "_action": "save"}, forwarded)
    assert status_of(head.encode()) == 303, head
    _, body = _get(srv.port, "/surveys/wellbeing-check/saved", cookie=cookie, headers=forwarded)
    assert re.search(r'href="https://survey\.example\.org/resume/', body), body[:2000]
    assert "Neither --public-url nor --trusted-proxy is set" not in srv.log_text()
