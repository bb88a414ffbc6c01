"""What the HTTP fuzzer sends beyond a step's form: every route of the participant controllers and
ResearcherAPI (and the operations and static ones) with mutated methods, segments and queries;
the researcher API's JSON; resume and start links; pipelined requests; mutated headers;
garbage request lines and raw noise."""
from __future__ import annotations

import json
import random
import re
import urllib.parse
import uuid

from http_fuzz_wire import HOST, Probe, request_bytes

SURVEY_IDS = ("every-format", "wellbeing-check", "fever-triage")
ROUTES = [("GET", "/"), ("GET", "/health"), ("GET", "/metrics"), ("GET", "/resume"), ("POST", "/resume"),
          ("GET", "/surveys/{s}"), ("POST", "/surveys/{s}"), ("GET", "/surveys/{s}/change/{n}"),
          ("GET", "/surveys/{s}/cancel"), ("GET", "/surveys/{s}/done"), ("GET", "/surveys/{s}/return"),
          ("GET", "/surveys/{s}/saved"), ("GET", "/surveys/{s}/discarded"), ("GET", "/surveys/{s}/result.json"),
          ("GET", "/surveys/{s}/answers"), ("GET", "/resume/{t}"), ("POST", "/resume/{t}"), ("GET", "/start/{t}"),
          ("POST", "/start/{t}"), ("GET", "/api/v1/runs"), ("POST", "/api/v1/runs"), ("GET", "/api/v1/runs/{id}"),
          ("DELETE", "/api/v1/runs/{id}"), ("GET", "/survey.css"), ("GET", "/images/face-happy.svg")]
METHODS = [b"GET", b"HEAD", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS", b"TRACE", b"get", b"FOO", b"M-SEARCH",
           b"PROPFIND", b"G" * 300]
SEGMENTS = ["", ".", "..", "%2e%2e", "%00", "%", "%zz", "x" * 5000, "%C3%BCberleben", "%F0%9F%98%80", "EVERY-FORMAT",
            "every-format%20", "a%2Fb", "..%2F..%2Fetc%2Fpasswd", "%FF%FE", "%ED%A0%80", "-1", "99999999999999999999",
            "abc", "1.5", "0x1", "%30", "1e2", "every-format;x=1", "%252e"]
QUERIES = ["lang=es", "lang=ar", "lang=", "lang=xx-YY", "lang=" + "e" * 3000, "lang=es&lang=en", "lang=%00",
           "format=researchkit", "format=junk", "format=researchkit&format=", "?", "&&&", "=&==", "a=%G1", "%",
           "x=%FF", "lang=../../etc", "&".join(f"p{i}=v" for i in range(500)), "q=" + "%41" * 2000,
           "survey=every-format&status=completed", "status=%00", "since=2024-13-45T99:99:99Z", "since=yesterday",
           "since=99999999999", "limit=-1", "limit=0", "limit=99999999999999999999", "limit=abc", "limit=1e3",
           "survey=" + "s" * 4000, "status=active&status=saved"]
JSON_VALUES = [None, True, 0, -1, 1e308, 10 ** 40, "", "x" * 200, "x" * 201, "x" * 3000, "\u0000", "\u202e", "😀",
               [], {}, ["every-format"], {"survey": "every-format"}, "javascript:alert(1)", "https://example.org/back",
               "https://user:pw@example.org/", "http://[::1", "https://example.org/\t", "HTTPS://EXAMPLE.ORG/A",
               "https://example.org/" + "a" * 2000, "//example.org", "https://example.org\\@evil"]


def _pick(rng: random.Random, shared, bag: str, fallback: str) -> str:
    item = shared.pick(rng, bag)
    return (item.decode("latin-1") if isinstance(item, bytes) else item) if item else fallback


def _fill(rng: random.Random, template: str, participant, shared) -> str:
    mutate = rng.random() < 0.5
    values = {"{s}": participant.survey if rng.random() < 0.7 else rng.choice(SURVEY_IDS),
              "{n}": str(rng.randrange(0, 8)),
              "{t}": _pick(rng, shared, rng.choice(["resume-tokens", "start-tokens"]), "A" * 43),
              "{id}": _pick(rng, shared, "runs", str(uuid.UUID(int=rng.getrandbits(128))))}
    path = template
    for key, value in values.items():
        if key in path:
            path = path.replace(key, rng.choice(SEGMENTS) if mutate and rng.random() < 0.6 else value)
    return path


def _mutate_path(rng: random.Random, path: str, port: int) -> str:
    op = rng.randrange(12)
    if op == 0:
        return path.replace("/", "//")
    if op == 1:
        return path + "/"
    if op == 2:
        return path.replace("/", "/./", 1)
    if op == 3:
        return "/surveys/../" + path.lstrip("/")
    if op == 4:
        return path.replace("/", "%2F")
    if op == 5:
        return path.upper()
    if op == 6:
        return f"http://{HOST}:{port}{path}"
    if op == 7:
        return path + ";jsessionid=1"
    if op == 8:
        return "/" + "a/" * 2000 + path
    return path


def route_case(rng, fuzzer, participant) -> None:
    """A route, maybe with another method, mutated segments, path and query; with the
    participant's cookie, a stranger's, or none; POSTs carry a form."""
    method, template = rng.choice(ROUTES)
    path = _fill(rng, template, participant, fuzzer.shared)
    if rng.random() < 0.3:
        path = _mutate_path(rng, path, fuzzer.port)
    if rng.random() < 0.4:
        path += "?" + rng.choice(QUERIES)
    verb = method.encode() if rng.random() < 0.8 else rng.choice(METHODS)
    cookie_roll = rng.random()
    cookie = None if cookie_roll < 0.6 else b"" if cookie_roll < 0.8 else _pick(rng, fuzzer.shared, "cookies", "").encode()
    body, content_type = b"", None
    if verb in (b"POST", b"PUT", b"PATCH"):
        if template.startswith("/api/"):
            body, content_type = api_body(rng), b"application/json"
        else:
            fields = [("_csrf", participant.form.value("_csrf") if rng.random() < 0.5 else _pick(rng, fuzzer.shared, "tokens", "")),
                      ("_visit", str(rng.randrange(-1, 30))), ("_action", rng.choice(["next", "back", "save", "skip"])),
                      ("code", rng.choice(["ABCD EFGH", "abcd-efgh", "", "0" * 100, _pick(rng, fuzzer.shared, "codes", "X")]))]
            body, content_type = urllib.parse.urlencode(fields).encode(), b"application/x-www-form-urlencoded"
    headers = participant.headers(content_type, cookie=cookie)
    if template.startswith("/api/"):
        headers += auth_header(rng, fuzzer.shared.api_token)
    standard = verb in (b"GET", b"HEAD", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS")
    probe = Probe(request_bytes(verb, path.encode(), headers, body), "route/" + verb.decode("latin-1")[:10],
                  methods=(verb,), fresh=not standard, own_cookie=cookie is None)
    response = participant.send(probe)
    if response is not None and response.status == 303 and cookie is None and verb == b"POST":
        participant.refresh(response)


def auth_header(rng: random.Random, token: str | None) -> list:
    good = (token or "no-token").encode()
    if rng.random() < 0.6:
        return [(b"Authorization", b"Bearer " + good)]
    return rng.choice([
        [], [(b"Authorization", b"Bearer wrong")], [(b"Authorization", b"bearer " + good)],
        [(b"Authorization", b"Bearer  " + good)], [(b"Authorization", b"Bearer " + good + b" ")],
        [(b"Authorization", b"Bearer " + good[:-1])], [(b"Authorization", b"Basic Og==")],
        [(b"Authorization", b"Bearer " + good + b"\xc3\xa4")], [(b"Authorization", b"Bearer " + good)] * 2,
        [(b"Authorization", b"Bearer " + b"\xff" * 40)], [(b"Authorization", b"Bearer " + b"t" * 10000)]])


def api_body(rng: random.Random) -> bytes:
    """A body for POST /api/v1/runs: valid, mutated, or not JSON at all."""
    roll = rng.random()
    if roll < 0.3:
        body = {"survey": rng.choice(SURVEY_IDS)}
        if rng.random() < 0.5:
            body["participantId"] = rng.choice(["p-1", "ü" * 150, "x" * 200])
        if rng.random() < 0.5:
            body["returnURL"] = "https://example.org/back?x=1"
        return json.dumps(body).encode()
    if roll < 0.7:
        body = {"survey": rng.choice(SURVEY_IDS)}
        for _ in range(rng.randrange(1, 4)):
            key = rng.choice(["survey", "participantId", "returnURL", "extra", "", "survey\u0000", "Survey"])
            body[key] = rng.choice(JSON_VALUES)
        return json.dumps(body, ensure_ascii=rng.random() < 0.5).encode()
    depth = rng.choice([100, 1000, 10000, 30000])
    return rng.choice([b"", b"{", b"[]", b"null", b"1e999", b"\xef\xbb\xbf{\"survey\":\"every-format\"}",
                       b'{"survey":"every-format","survey":"fever-triage"}', b'{"survey":"\\ud800"}', b'{"survey":"\\u0000"}',
                       b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth, b"[" * depth,
                       b'{"survey":"every-format"} trailing', b'{"survey":every-format}', b"\xff\xfe{}",
                       b'{"survey":' + b"9" * 5000 + b"}", b'{"survey":"' + b"\\" * 3001 + b'"}', b"'survey'"])


def api_case(rng, fuzzer, participant) -> None:
    """The researcher API: create runs (their ids and start links feed the other cases), list,
    read and delete, with the right token mostly."""
    shared = fuzzer.shared
    op = rng.choice(["create", "create", "list", "read", "delete"])
    headers = participant.headers(b"application/json" if op == "create" else None, cookie=b"") + auth_header(rng, shared.api_token)
    if op == "create":
        data, method = request_bytes(b"POST", b"/api/v1/runs", headers, api_body(rng)), b"POST"
    elif op == "list":
        data, method = request_bytes(b"GET", b"/api/v1/runs?" + rng.choice(QUERIES).encode(), headers), b"GET"
    else:
        run = _pick(rng, shared, "runs", str(uuid.uuid4())) if rng.random() < 0.8 else rng.choice(SEGMENTS)
        method = b"GET" if op == "read" else b"DELETE"
        query = b"?format=researchkit" if rng.random() < 0.3 else b""
        data = request_bytes(method, b"/api/v1/runs/" + run.encode() + query, headers)
    response = participant.send(Probe(data, "api/" + op, methods=(method,), own_cookie=False))
    if response is not None and response.status == 201:
        try:
            created = json.loads(response.body)
            shared.add("runs", created["id"])
            shared.add("start-tokens", created["startLink"].rsplit("/start/", 1)[1])
        except (ValueError, KeyError, IndexError, TypeError):
            pass


def link_case(rng, fuzzer, participant) -> None:
    """A stranger with a link or a code: GET the page (a new cookie and token), then POST it,
    the form mutated now and then."""
    shared = fuzzer.shared
    kind = rng.choice(["start", "resume", "code"])
    if kind == "code":
        path = "/resume"
    else:
        path = f"/{kind}/" + _pick(rng, shared, f"{kind}-tokens", "B" * 43)
    page = participant.send(Probe(request_bytes(b"GET", path.encode(), participant.headers(cookie=b"")), "link/get",
                                  own_cookie=False))
    if page is None or page.status != 200:
        return
    cookie = next((c.split(b";")[0] for c in page.cookies if c.startswith(b"survey_session=")), b"")
    token = re.search(rb'name="_csrf" value="([^"]*)"', page.body)
    fields = [(b"_csrf", token.group(1) if token else b"")]
    if kind == "code":
        fields.append((b"code", _pick(rng, shared, "codes", "ABCD EFGH").encode()))
    if rng.random() < 0.4:
        fields = [(n, rng.choice([v, v[::-1], b"", b"\xff" * 9, v * 50])) for n, v in fields]
        fields.append((rng.choice([b"_csrf", b"code", b"_action"]), b"x"))
    body = b"&".join(urllib.parse.quote_plus(n).encode() + b"=" + urllib.parse.quote_plus(v).encode() for n, v in fields)
    headers = participant.headers(b"application/x-www-form-urlencoded", cookie=cookie)
    participant.send(Probe(request_bytes(b"POST", path.encode(), headers, body), f"link/post-{kind}",
                           methods=(b"POST",), own_cookie=False))


def pipeline_case(rng, fuzzer, participant) -> None:
    """Two to six requests in one write on a kept-alive connection, answered in order."""
    requests, methods = [], []
    for _ in range(rng.randrange(2, 7)):
        method = rng.choice([b"GET", b"GET", b"HEAD"])
        path = _fill(rng, rng.choice([r for m, r in ROUTES if m == "GET"]), participant, fuzzer.shared)
        requests.append(request_bytes(method, path.encode(), participant.headers(cookie=b"" if rng.random() < 0.5 else None)))
        methods.append(method)
    participant.send(Probe(b"".join(requests), "pipeline", methods=tuple(methods), own_cookie=False))


def mutate_headers(rng: random.Random, headers: list, shared) -> tuple:
    """Returns (headers, label, how): how is "ok", "fresh" (may end the connection), "large"
    (the server may refuse it by closing) or "malformed"."""
    headers = list(headers)
    op = rng.choice(["no-host", "two-hosts", "host", "cookie", "cookie", "language", "forwarded", "many", "huge-value",
                     "syntax", "case", "connection", "upgrade", "encoding", "junk-value"])
    if op == "no-host":
        return [h for h in headers if h[0] != b"Host"], op, "ok"
    if op == "two-hosts":
        return headers + [(b"Host", b"evil.example")], op, "ok"
    if op == "host":
        value = rng.choice([b"evil.example", b"x" * 5000, b"[::1]", b"127.0.0.1:99999", b"\xc3\xbc.example", b"", b"a b"])
        return [h for h in headers if h[0] != b"Host"] + [(b"Host", value)], op, "ok"
    if op == "cookie":
        rest = [h for h in headers if h[0] != b"Cookie"]
        mine = next((v for n, v in headers if n == b"Cookie"), b"survey_session=x")
        value = rng.choice([b"survey_session=" + b"A" * rng.choice([10, 4000, 7000]), mine[:-3], mine + b"x", mine.upper(),
                            b"; ".join(b"c%d=v" % i for i in range(200)), b"survey_session=", b"survey_session",
                            b"survey_session=a.b.c.d", b"__Host-" + mine, _pick_bytes(rng, shared, "cookies"),
                            mine + b"; " + mine.replace(b"=", b"=x"), b"\xff\xfe=x"])
        return rest + [(b"Cookie", value)] + ([(b"Cookie", mine)] if rng.random() < 0.3 else []), op, "ok"
    if op == "language":
        value = rng.choice([b"*;q=abc, en;q=NaN, xx-YY;q=1e999, ,,,;", b"es;q=0.5, ar;q=0.9", b",".join([b"es"] * 2000),
                            b"q=1", b";;;", b"en;q=" + b"9" * 400, b"\xd8\xb9\xd8\xb1"])
        return headers + [(b"Accept-Language", value)], op, "ok"
    if op == "forwarded":
        return headers + [(b"X-Forwarded-For", rng.choice([b"1.2.3.4", b"junk", b"::1, 300.1.1.1", b", , ,"])),
                          (b"X-Forwarded-Proto", rng.choice([b"https", b"gopher", b""])),
                          (b"X-Forwarded-Host", rng.choice([b"evil.example", b"127.0.0.1:1", b""]))], op, "ok"
    if op == "many":
        return headers + [(b"X-H%d" % i, b"v") for i in range(rng.choice([100, 500, 2000]))], op, "large"
    if op == "huge-value":
        return headers + [(b"X-Big", b"v" * rng.choice([16_000, 70_000, 300_000]))], op, "large"
    if op == "syntax":
        line = rng.choice([(b"X-Fold", b"a\r\n continued"), (b"X-No-Colon\r\nX", b"y"), (b"X-Space ", b"y"),
                           (b"X-Nul", b"a\x00b"), (b"X-\xff", b"y"), (b"", b"empty-name"), (b"X-Bare-CR", b"a\rb")])
        return headers + [line], op, "malformed"
    if op == "case":
        return [(n.lower() if rng.random() < 0.5 else n.upper(), v) for n, v in headers], op, "ok"
    if op == "connection":
        return headers + [(b"Connection", rng.choice([b"close", b"keep-alive, close", b"Upgrade", b"\xff"]))], op, "fresh"
    if op == "upgrade":
        return headers + [(b"Connection", b"Upgrade, HTTP2-Settings"), (b"Upgrade", rng.choice([b"h2c", b"websocket"])),
                          (b"HTTP2-Settings", b"AAMAAABkAAQAAP__")], op, "fresh"
    if op == "encoding":
        return headers + [(b"Transfer-Encoding", rng.choice([b"gzip", b"identity", b"chunked, gzip", b"xchunked"]))], op, "malformed"
    return headers + [(b"X-Junk", bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 200))))], op, "ok"


def _pick_bytes(rng, shared, bag) -> bytes:
    item = shared.pick(rng, bag)
    return item if isinstance(item, bytes) else (item or "").encode()


def header_probe(data: bytes, label: str, how: str, method: bytes) -> Probe:
    malformed = how == "malformed"
    return Probe(data, "headers/" + label, well_formed=not malformed and how != "large", half_close=malformed or how == "large",
                 fresh=how == "fresh", methods=(method,), may_reset=how == "large", own_cookie=False)


def request_line_case(rng, fuzzer, participant) -> None:
    """A request line no browser sends, on a connection of its own that then ends."""
    host = f"Host: {HOST}\r\n".encode()
    lines = [b"GET\r\n\r\n", b"GET /\r\n\r\n", b"GET / HTTP/1.1\r\n", b"GET / HTTP/9.9\r\n" + host + b"\r\n",
             b"GET / HTTP/1.1 extra\r\n" + host + b"\r\n", b"\r\n\r\nGET / HTTP/1.1\r\n" + host + b"\r\n",
             b"GET / FTP/1.0\r\n\r\n", b"get / http/1.1\r\n" + host + b"\r\n", b"GET\t/\tHTTP/1.1\r\n\r\n",
             b"GET / HTTP/1.1\n" + host.replace(b"\r", b"") + b"\n", b"GET /\x00 HTTP/1.1\r\n\r\n",
             b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", b"\x16\x03\x01\x02\x00\x01",
             b"GET /sur veys HTTP/1.1\r\n\r\n", b"GET /\xc3\xbc HTTP/1.1\r\n" + host + b"\r\n", b"OPTIONS * HTTP/1.1\r\n" + host + b"\r\n",
             b"CONNECT 127.0.0.1:1 HTTP/1.1\r\n" + host + b"\r\n", b" GET / HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n\x00\x00\x00",
             b"GET / HTTP/01.1\r\n\r\n", b"GET / HTTP/1.10\r\n\r\n", b"GET / HTTP/1.1\r\nHost: a\r\nHost\r\n\r\n",
             b"GET http://[::1/ HTTP/1.1\r\n\r\n", b"GET / HTTP/0.9\r\n\r\n", b"\xff" * 64 + b"\r\n\r\n"]
    data = rng.choice(lines)
    participant.send(Probe(data, "request-line", well_formed=False, half_close=True, own_cookie=False))


def noise_case(rng, fuzzer, participant) -> None:
    """Random bytes, or a real request flipped, cut or spliced at random."""
    if rng.random() < 0.4:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4096)))
    else:
        body = b"_csrf=" + participant.form.value("_csrf").encode() + b"&_action=next"
        data = bytearray(request_bytes(b"POST", participant.form.action.encode(),
                                       participant.headers(b"application/x-www-form-urlencoded"), body))
        for _ in range(rng.randrange(1, 8)):
            i = rng.randrange(len(data))
            choice = rng.randrange(3)
            if choice == 0:
                data[i] = rng.randrange(256)
            elif choice == 1:
                del data[i:i + rng.randrange(1, 20)]
            else:
                data[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
        data = bytes(data)
    participant.send(Probe(data, "noise", well_formed=False, half_close=True, own_cookie=False))
