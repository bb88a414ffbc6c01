"""A participant's browser for deploy/ha/failover-test: urllib with a cookie jar and no
redirects followed (so every 303 is seen), what a page shows (its step, its text, the form's
hidden and filled-in fields), and the answers each simulated participant sends.
Standard library only, and the step form's reader of the e2e tests."""
from __future__ import annotations

import html
import html.parser
import http.client
import http.cookiejar
import json
import pathlib
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "Tests"))
from support import parse_form  # noqa: E402  (the step form's hidden fields, as the e2e tests read them)

SURVEY = "wellbeing-check"
REQUEST_TIMEOUT = 20        # a participant's browser gives up on a request after this long

STEP_TITLES = {step["title"]: step["identifier"]
               for step in json.loads((REPO / "Examples" / f"{SURVEY}.json").read_text())["steps"]}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def opener(*handlers):
    # ProxyHandler({}): loopback traffic never goes through a proxy from the environment.
    return urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect, *handlers)


class Browser:
    """One cookie jar, redirects not followed, so every status (303 above all) is seen."""

    def __init__(self, base: str, timings: list | None = None):
        self.base = base
        self.opener = opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.timings = timings      # (seconds taken, status) of every request, when given

    def request(self, path: str, data: list | bytes | None = None, headers: dict | None = None):
        """(status, headers, body). Status is the exception's name when no response came."""
        began = time.monotonic()
        result = self._request(path, data, headers)
        if self.timings is not None:
            self.timings.append((time.monotonic() - began, result[0]))
        return result

    def _request(self, path, data, headers):
        body = urllib.parse.urlencode(data).encode() if isinstance(data, list) else data
        request = urllib.request.Request(urllib.parse.urljoin(self.base, path), data=body, headers=headers or {})
        try:
            with self.opener.open(request, timeout=REQUEST_TIMEOUT) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()
        except (OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", None)
            return type(reason if isinstance(reason, BaseException) else error).__name__, {}, b""


def hidden_fields(page: bytes) -> list:
    form = parse_form(page)
    return list(dict(form.hidden).items()) if form else []


def step_of(page: bytes) -> str | None:
    """The step a page shows, from its heading: the survey's step titles are distinct, and a
    heading is the title, with "(optional)" after it on an optional question."""
    match = re.search(r"<h1[^>]*>(.*?)</h1>", page.decode("utf-8", "replace"), re.S)
    heading = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", match.group(1))).split()) if match else ""
    return next((step for title, step in STEP_TITLES.items() if heading == title or heading.startswith(title + " ")), None)


def page_text(page: bytes, limit: int = 240) -> str:
    """What a person reads in the page's <main>, on one line."""
    text = page.decode("utf-8", "replace")
    main = re.search(r"<main[^>]*>(.*?)</main>", text, re.S)
    text = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", main.group(1) if main else text, flags=re.S)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    return text[:limit] + ("…" if len(text) > limit else "")


class _Filled(html.parser.HTMLParser):
    """The (name, value) pairs a form shows filled in: text typed, radios and boxes checked."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.filled, self.textarea = set(), None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "input" and a.get("name"):
            if a.get("type") in ("radio", "checkbox"):
                if "checked" in a:
                    self.filled.add((a["name"], a.get("value", "on")))
            elif a.get("type") != "hidden":
                self.filled.add((a["name"], a.get("value") or ""))
        elif tag == "textarea":
            self.textarea = [a.get("name"), ""]

    def handle_data(self, data):
        if self.textarea:
            self.textarea[1] += data

    def handle_endtag(self, tag):
        if tag == "textarea" and self.textarea:
            self.filled.add((self.textarea[0], self.textarea[1].strip("\n")))
            self.textarea = None


def filled_in(page: bytes) -> set:
    parser = _Filled()
    parser.feed(page.decode("utf-8", "replace"))
    return parser.filled


def answer(step: str, who: int, run: int):
    """The fields sent for a step, and what the run's result must then hold. A retried step is
    answered the same way, so a retry never changes an answer already acknowledged."""
    key = who * 7 + run
    if step == "mood":
        value = 1 + key % 5
        return [("mood", str(value))], ("mood", "scaleAnswer", value)
    if step == "sleep":
        hours, minutes = 5 + key % 4, (0, 15, 30, 45)[(key // 4) % 4]
        return [("sleep.hours", str(hours)), ("sleep.minutes", str(minutes))], ("sleep", "intervalAnswer", hours * 3600 + minutes * 60)
    if step == "activities":
        chosen = (["walk"], ["social"], ["walk", "creative"], ["none"], ["social", "creative"])[key % 5]
        return [("activities", c) for c in chosen], ("activities", "choiceAnswers", sorted(chosen))
    if step == "comments":
        text = f"participant {who}, run {run}"
        return [("comments", text)], ("comments", "textAnswer", text)
    return [], None
