"""What the HTTP fuzzer sends about forms: valid answers, mutated forms and bodies, replayed
posts, the ways a body can travel (lengths, chunks, content types) and mutated headers.
Routes, the API, links, request lines and noise are in http_fuzz_routes."""
from __future__ import annotations

import random
import re
import urllib.parse

import http_fuzz_routes as routes
from support.forms import parse_form
from http_fuzz_wire import Probe, request_bytes

FORM_TYPE = b"application/x-www-form-urlencoded"
CONTROL_FIELDS = ("_csrf", "_visit", "_page", "_action", "_return")
NUMBERS = ["9" * 400, "1e308", "-1e309", "1e-400", "NaN", "nan", "inf", "-Infinity", "0x1F", "1_000", "+7", "-0",
           "0000000000000000000007", "7.", ".5", "1,5", "18446744073709551616", "-9223372036854775809",
           "9223372036854775807", "2147483648", " 7 ", "7\t", "½", "1/2", "2e3", "-1", "0", "1e5", "٣", "１２", "𝟕", "Ⅻ"]
TEXTS = ["\u202eevil\u202c", "e\u0301\u0301\u0301\u0301", "😀" * 40, "👨‍👩‍👧‍👦", "\u200b", "\ufeff5", "\u0000", "a\u0000b",
         "\r\n", " ", "\t\t", "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "{{csrf}}", "{{{x}}}",
         "%s%n%x", "${jndi:ldap://127.0.0.1/x}", "' OR 1=1 --", "\x01\x02\x1f\x7f", "２０２４", "ÿ", "\U0010ffff",
         "2024-02-30", "31", "13", "0000", "99999", "24:00", "23:60", "12:30:99", "1:2", "25:61", "T", "-", "a@", "@b",
         "a@b@c", "x" * 300 + "@example.org", "0,0", "91,181", "true", "false", "yes", "null", "[]", "{}", "on"]
BAD_UTF8 = [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\x80", b"\xfe\xff", b"a\xc3"]
ACTIONS = [b"next", b"back", b"skip", b"save", b"cancel", b"discard", b"", b"NEXT", b"next ", b"dontknow", b"\x00",
           b"next\xff", b"submit", b"back" * 1000]
CONTENT_TYPES = [b"text/plain", b"multipart/form-data; boundary=x", b"application/json", b"",
                 b"application/x-www-form-urlencoded; charset=iso-8859-1", b"APPLICATION/X-WWW-FORM-URLENCODED",
                 b"application/x-www-form-urlencodedjunk", b"application/x-www-form-urlencoded;;;;", b"*/*",
                 b"application/x-www-form-urlencoded ; q=\"x\"", b"\xff\xfe", b"text/html; charset=utf-7"]


def encode(pairs: list) -> bytes:
    return b"&".join(urllib.parse.quote_plus(n).encode() + b"=" + urllib.parse.quote_plus(v).encode() for n, v in pairs)


def _b(text) -> bytes:
    return text if isinstance(text, bytes) else str(text).encode("utf-8")


def valid_pairs(form, answers: dict) -> list:
    """The form as a browser posts it with the fixture's answers (else the first choice)."""
    pairs = [(_b(n), _b(v)) for n, v in form.hidden]
    for name, control in form.controls.items():
        if name in answers:
            given = answers[name]
            values = given if isinstance(given, list) else [given]
        elif control.kind == "radio" and control.options:
            values = control.options[:1]
        elif control.kind == "select":
            values = [o for o in control.options if o][:1]
        else:
            values = []
        pairs += [(_b(name), _b(v)) for v in values]
    return pairs + [(b"_action", b"next")]


def hostile_value(rng: random.Random, form=None) -> bytes:
    roll = rng.random()
    if roll < 0.25:
        return _b(rng.choice(NUMBERS))
    if roll < 0.5:
        return _b(rng.choice(TEXTS))
    if roll < 0.55:
        return rng.choice(BAD_UTF8) + _b(rng.choice(NUMBERS))
    if roll < 0.65:
        return rng.choice([b"9", b"\xc3\xa4", b"x", b"\xf0\x9f\x98\x80", b"7,"]) * rng.choice([100, 1000, 5000, 20000])
    if roll < 0.95 and form is not None and form.controls:
        control = form.controls[rng.choice(list(form.controls))]
        options = control.options or [""]
        return _b(rng.choice(options)) if rng.random() < 0.7 else _b(",".join(options))
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))


def mutate_pairs(rng: random.Random, pairs: list, form, shared) -> tuple:
    """One to three mutations of a form's fields; returns (pairs, label)."""
    pairs = list(pairs)
    names = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        op = rng.choice(["drop", "duplicate", "duplicate-other", "reorder", "value", "value", "value", "name",
                         "control", "csrf", "extra", "button", "empty"])
        names.append(op)
        answers = [j for j, (name, _) in enumerate(pairs) if not name.startswith(b"_")]
        # Mostly an answer's field (the parsers), else any: a hidden field, the button.
        i = rng.choice(answers) if answers and rng.random() < 0.8 else rng.randrange(len(pairs)) if pairs else 0
        if op == "drop" and pairs:
            del pairs[i]
        elif op == "duplicate" and pairs:
            pairs.insert(rng.randrange(len(pairs) + 1), pairs[i])
        elif op == "duplicate-other" and pairs:
            pairs.insert(rng.randrange(len(pairs) + 1), (pairs[i][0], hostile_value(rng, form)))
        elif op == "reorder":
            rng.shuffle(pairs)
        elif op == "value" and pairs:
            pairs[i] = (pairs[i][0], hostile_value(rng, form))
        elif op == "name" and pairs:
            suffix = rng.choice([b".0", b".1", b".unit", b"[]", b".day", b".", b"\x00", b"\xff", b" ", b".other", b".dontknow"])
            pairs[i] = (rng.choice([pairs[i][0] + suffix, suffix, b"", pairs[i][0].upper()]), pairs[i][1])
        elif op == "control":
            name = _b(rng.choice(CONTROL_FIELDS[1:]))
            value = rng.choice([hostile_value(rng), b"-1", b"99999999999999999999", b"1", b"0", rng.choice(ACTIONS)])
            pairs = [p for p in pairs if p[0] != name or rng.random() < 0.3] + [(name, value)]
        elif op == "csrf":
            pairs = _csrf_mutation(rng, pairs, shared)
        elif op == "extra":
            pairs += [(hostile_value(rng)[:40], hostile_value(rng)[:40]) for _ in range(rng.choice([1, 10, 500, 3000]))]
        elif op == "button" and form.buttons:
            name, value = rng.choice(form.buttons)
            pairs = [p for p in pairs if p[0] != b"_action"] + [(_b(name), _b(value))]
        elif op == "empty":
            pairs = [(n, v if n.startswith(b"_") else b"") for n, v in pairs]
    return pairs, "form/" + "+".join(names)


def _csrf_mutation(rng: random.Random, pairs: list, shared) -> list:
    token = next((v for n, v in pairs if n == b"_csrf"), b"")
    rest = [p for p in pairs if p[0] != b"_csrf"]
    choice = rng.randrange(6)
    if choice == 0:
        return rest  # missing
    if choice == 1:
        other = shared.pick(rng, "tokens", "")
        return rest + [(b"_csrf", _b(other))]  # another run's (or page's)
    if choice == 2:
        return rest + [(b"_csrf", token[: rng.randrange(len(token) + 1)])]
    if choice == 3 and token:
        i = rng.randrange(len(token))
        return rest + [(b"_csrf", token[:i] + bytes([token[i] ^ 1]) + token[i + 1:])]
    if choice == 4:
        return rest + [(b"_csrf", token), (b"_csrf", _b(shared.pick(rng, "tokens", "x")))]
    return rest + [(b"_csrf", hostile_value(rng))]


def mutate_bytes(rng: random.Random, body: bytes) -> tuple:
    """Byte-level damage to an encoded body: flips, broken percent escapes, raw NUL or 8-bit bytes."""
    data = bytearray(body)
    op = rng.choice(["flip", "percent", "nul", "raw8bit", "separators", "truncate"])
    for _ in range(rng.choice([1, 2, 5, 20])):
        i = rng.randrange(len(data) + 1)
        if op == "flip" and data:
            data[min(i, len(data) - 1)] ^= 1 << rng.randrange(8)
        elif op == "percent":
            data[i:i] = rng.choice([b"%", b"%G1", b"%4", b"%%", b"%zz", b"%-1", b"%\xff", b"%00", b"%C0%AF", b"%ED%A0%80"])
        elif op == "nul":
            data[i:i] = b"\x00"
        elif op == "raw8bit":
            data[i:i] = rng.choice(BAD_UTF8 + [b"\xc3\xa4", b"\xe2\x80\xae"])
        elif op == "separators":
            data[i:i] = rng.choice([b"&", b"=", b"&&&", b"===", b"+", b";", b"\r\n"])
        elif op == "truncate":
            del data[i:]
    return bytes(data), op


def one_case(rng: random.Random, fuzzer, participant) -> None:
    """Sends the next case: a weighted choice among everything the fuzzer knows how to send."""
    if participant.form is None:
        participant.refresh()
        return
    kinds = [(valid_case, 14), (form_case, 37), (change_case, 3), (replay_case, 5), (transport_case, 9), (header_case, 7),
             (routes.route_case, 12), (routes.api_case, 5), (routes.link_case, 3), (routes.pipeline_case, 2),
             (routes.request_line_case, 3), (routes.noise_case, 3)]
    case = rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]
    case(rng, fuzzer, participant)


def valid_case(rng, fuzzer, participant) -> None:
    participant.advance()


def _after_post(participant, response) -> None:
    """A post that may have moved the run (or a broken connection): read where it stands."""
    if response is None or response.status in (301, 302, 303, 403):
        participant.refresh(response)


def form_case(rng, fuzzer, participant) -> None:
    form = participant.form
    pairs, label = mutate_pairs(rng, valid_pairs(form, participant.answers), form, fuzzer.shared)
    body = encode(pairs)
    if rng.random() < 0.15:
        body, op = mutate_bytes(rng, body)
        label += "/bytes-" + op
    with fuzzer.lock:
        fuzzer.fuzzed_controls.update(f"{participant.survey}:{name}" for name in form.controls)
    data = request_bytes(b"POST", form.action.encode(), participant.headers(FORM_TYPE), body)
    _after_post(participant, participant.send(Probe(data, label, methods=(b"POST",), fresh=len(body) > 65536,
                                                    may_reset=len(body) > 65536)))


def change_case(rng, fuzzer, participant) -> None:
    """A Change page of an earlier step (as the review links to), posted valid or mutated: the
    answer goes through the parsers again, with `_return` set."""
    cursor = int(participant.form.value("_visit") or 0)
    if cursor < 1:
        return form_case(rng, fuzzer, participant)
    page = participant.get(f"{participant.path}/change/{rng.randrange(cursor)}", label="change/get")
    form = parse_form(page.body, participant.path) if page is not None and page.status == 200 else None
    if form is None:
        return participant.refresh()
    pairs = valid_pairs(form, participant.answers)
    label = "change/valid"
    if rng.random() < 0.7:
        pairs, label = mutate_pairs(rng, pairs, form, fuzzer.shared)
        label = "change/" + label
    data = request_bytes(b"POST", form.action.encode(), participant.headers(FORM_TYPE), encode(pairs))
    participant.refresh(participant.send(Probe(data, label, methods=(b"POST",))))


def replay_case(rng, fuzzer, participant) -> None:
    """A real valid post recorded earlier, sent again: as its own browser (an older page, or a
    finished run), or with this participant's cookie (another run's token)."""
    recorded = fuzzer.shared.pick(rng, "posts")
    if recorded is None:
        return participant.advance()
    action, pairs, cookie = recorded
    own = rng.random() < 0.5
    headers = participant.headers(FORM_TYPE, cookie=None if own else (cookie or b""))
    data = request_bytes(b"POST", action.encode(), headers, encode(pairs))
    response = participant.send(Probe(data, "replay/" + ("own-cookie" if own else "recorded-cookie"),
                                      methods=(b"POST",), own_cookie=own))
    if own:
        _after_post(participant, response)


def transport_case(rng, fuzzer, participant) -> None:
    """The participant's valid (or lightly mutated) answer, carried in a broken way."""
    form = participant.form
    pairs = valid_pairs(form, participant.answers)
    if rng.random() < 0.3:
        pairs, _ = mutate_pairs(rng, pairs, form, fuzzer.shared)
    body, target = encode(pairs), form.action.encode()
    headers = participant.headers(FORM_TYPE)
    how = rng.choice(["content-type", "chunked", "chunked-bad", "short-length", "long-length", "bad-length",
                      "cl-and-te", "expect", "too-large", "no-length", "http10", "gzip"])
    probe = Probe(b"", "transport/" + how, methods=(b"POST",))
    if how == "content-type":
        headers = participant.headers(rng.choice(CONTENT_TYPES)) if rng.random() < 0.9 else participant.headers()
        probe.data = request_bytes(b"POST", target, headers, body)
    elif how in ("chunked", "chunked-bad"):
        probe.data = request_bytes(b"POST", target, headers + [(b"Transfer-Encoding", b"chunked")], b"", length=False)
        probe.data += _chunks(rng, body, broken=how == "chunked-bad")
        probe.well_formed = how == "chunked"
        probe.half_close = not probe.well_formed
    elif how == "short-length":
        cut = rng.randrange(len(body) + 1)
        probe.data = request_bytes(b"POST", target, headers + [(b"Content-Length", str(cut).encode())], body, length=False)
        probe.fresh = True
    elif how in ("long-length", "bad-length", "cl-and-te"):
        lengths = {"long-length": [str(len(body) + rng.choice([1, 100, 60000])).encode()],
                   "bad-length": [rng.choice([b"abc", b"-1", b"1 2", b"+5", b"0x10", b"99999999999999999999", b"", b"5,6"])],
                   "cl-and-te": [str(len(body)).encode()]}[how]
        extra = [(b"Content-Length", v) for v in lengths]
        if how == "cl-and-te":
            extra.append((b"Transfer-Encoding", b"chunked"))
        elif rng.random() < 0.3:
            extra.append((b"Content-Length", str(len(body)).encode()))
        probe.data = request_bytes(b"POST", target, headers + extra, body, length=False)
        probe.well_formed, probe.half_close = False, True
    elif how == "expect":
        probe.data = request_bytes(b"POST", target, headers + [(b"Expect", b"100-continue")], body)
    elif how == "too-large":
        body += b"&pad=" + b"x" * rng.choice([70_000, 200_000, 1_000_000])
        probe.data = request_bytes(b"POST", target, headers, body)
        probe.fresh = probe.may_reset = True
    elif how == "no-length":
        probe.data = request_bytes(b"POST", target, headers, b"", length=False) + body
        probe.fresh = True
    elif how == "http10":
        probe.data = request_bytes(b"POST", target, headers, body, version=b"HTTP/1.0")
        probe.fresh = True
    else:
        probe.data = request_bytes(b"POST", target, headers + [(b"Content-Encoding", b"gzip")], body)
    _after_post(participant, participant.send(probe))


def _chunks(rng: random.Random, body: bytes, broken: bool) -> bytes:
    out, i = b"", 0
    while i < len(body):
        size = rng.randrange(1, 64)
        piece = body[i:i + size]
        extension = b";name=value" if rng.random() < 0.1 else b""
        out += f"{len(piece):x}".encode() + extension + b"\r\n" + piece + b"\r\n"
        i += size
    end = b"0\r\n" + (b"X-Trailer: 1\r\n" if rng.random() < 0.2 else b"") + b"\r\n"
    if not broken:
        return out + end
    damage = rng.randrange(4)
    if damage == 0:
        return out + b"zz\r\nabc\r\n" + end
    if damage == 1:
        return out  # no last chunk
    if damage == 2:
        return b"5\r\nabcdefghij\r\n" + end  # a chunk longer than its size
    return b"ffffffffffffffffffff\r\n" + body


def header_case(rng, fuzzer, participant) -> None:
    """A GET of the step, or the valid post, with mutated headers."""
    post = rng.random() < 0.5
    body = encode(valid_pairs(participant.form, participant.answers)) if post else b""
    headers = participant.headers(FORM_TYPE if post else None)
    headers, label, how = routes.mutate_headers(rng, headers, fuzzer.shared)
    method = b"POST" if post else b"GET"
    target = participant.form.action.encode() if post else participant.path.encode()
    probe = routes.header_probe(request_bytes(method, target, headers, body), label, how, method)
    response = participant.send(probe)
    if post:
        _after_post(participant, response)


def harvest_links(shared, page: bytes) -> None:
    """Resume links and codes from a saved page, for the link cases."""
    for token in re.findall(rb"/resume/([A-Za-z0-9_-]{16,64})", page):
        shared.add("resume-tokens", token)
    for code in re.findall(rb">\s*([A-Z0-9]{4} [A-Z0-9]{4})\s*<", page):
        shared.add("codes", code)
