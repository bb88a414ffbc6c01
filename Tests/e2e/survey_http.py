"""A participant's browser as raw HTTP (urllib with a cookie jar), for the checks that need the
exact bytes and status codes the server sent; and the scripted answers as form fields."""
from __future__ import annotations

import html.parser
import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

MAX_PAGES = 80


def field_values(answers: dict) -> dict:
    """All fields of a scripted-answers file, {field name: str | list[str]}."""
    merged = {}
    for step, fields in answers.items():
        for name, value in fields.items():
            assert name not in merged, f"field {name!r} appears in two steps of the fixture"
            merged[name] = value
    return merged


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


class FormParser(html.parser.HTMLParser):
    """The step form of a page (the form inside <main>): its hidden fields and control names."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_main = False
        self.in_form = False
        self.done = False
        self.hidden = {}
        self.controls = {}     # name -> (tag, type)
        self.buttons = []      # (name, value)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "main":
            self.in_main = True
        elif tag == "form" and self.in_main and not self.done and a.get("method") == "post":
            self.in_form = True
        elif self.in_form:
            name = a.get("name")
            if tag == "input" and a.get("type") == "hidden" and name:
                self.hidden[name] = a.get("value", "")
            elif tag == "button" and name:
                self.buttons.append((name, a.get("value", "")))
            elif tag in ("input", "select", "textarea") and name:
                self.controls.setdefault(name, (tag, a.get("type", "text")))

    def handle_endtag(self, tag):
        if tag == "form" and self.in_form:
            self.in_form, self.done = False, True
        elif tag == "main":
            self.in_main = False


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
        parser = FormParser()
        parser.feed(page.decode("utf-8"))
        data = list(parser.hidden.items())
        for name, value in fields.items():
            for item in (value if isinstance(value, list) else [value]):
                data.append((name, item))
        if action is not None:
            data.append(("_action", action))
        status, headers, body, url = self.request(url, data)
        if status == 303:
            return self.get(urllib.parse.urljoin(url, headers["Location"]))
        return status, body, url


def controls_of(page: bytes) -> FormParser:
    parser = FormParser()
    parser.feed(page.decode("utf-8"))
    return parser
