"""A participant's browser as raw HTTP (urllib with a cookie jar), for the checks that need the
exact bytes and status codes the server sent; and the scripted answers as form fields."""
from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

from support.forms import parse_form

MAX_PAGES = 80


def field_values(answers: dict) -> dict:
    """All fields of a scripted-answers file, {field name: str | list[str]}."""
    merged = {}
    for step, fields in answers.items():
        for name, value in fields.items():
            assert name not in merged, f"field {name!r} appears in two steps of the fixture"
            merged[name] = value
    return merged


def get(url: str, timeout: float = 10):
    """(status, body) of a GET, following redirects, an error status included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


class StepForm:
    """The step form of a page (the first POST form inside <main>) as a participant posts it:
    `hidden` {name: value}, `controls` {name: (tag, type)} and `buttons` [(name, value)]; all
    empty when the page has no step form. The page must be UTF-8."""

    def __init__(self, page: bytes):
        form = parse_form(page.decode("utf-8"))
        self.hidden = dict(form.hidden) if form else {}
        self.controls = {name: (control.tag, control.kind) for name, control in form.controls.items()} if form else {}
        self.buttons = list(form.buttons) if form else []


def controls_of(page: bytes) -> StepForm:
    return StepForm(page)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class Http:
    """A participant's browser as raw HTTP: one cookie jar, redirects not followed (so every
    response's status and bytes are seen)."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def request(self, path: str, data: list | None = None):
        url = path if path.startswith("http") else self.base_url + path
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(url, data=body)
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, response.headers, response.read(), url
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read(), url

    def get(self, path: str):
        """GET, following 303s; returns (status, body bytes, final url)."""
        status, headers, body, url = self.request(path)
        for _ in range(5):
            if status not in (301, 302, 303, 307):
                break
            status, headers, body, url = self.request(urllib.parse.urljoin(url, headers["Location"]))
        return status, body, url

    def post_form(self, page: bytes, url: str, fields: dict, action: str | None = "next"):
        """Submit the step form of `page` with the given control values (and its hidden fields).
        Returns (status, body, url) after following the 303."""
        data = list(StepForm(page).hidden.items())
        for name, value in fields.items():
            for item in (value if isinstance(value, list) else [value]):
                data.append((name, item))
        if action is not None:
            data.append(("_action", action))
        status, headers, body, url = self.request(url, data)
        if status == 303:
            return self.get(urllib.parse.urljoin(url, headers["Location"]))
        return status, body, url
