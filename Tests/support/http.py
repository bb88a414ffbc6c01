"""A participant's browser as raw HTTP (urllib with a cookie jar), for the checks that need the
exact bytes and status codes the server sent; and the scripted answers as form fields."""
from __future__ import annotations

import http.cookiejar
import urllib.error
import urllib.parse
import urllib.request

from support.forms import parse_form

MAX_PAGES = 80


class FieldValues(dict):
    """{field name: str | list[str]} of a scripted-answers file's steps, and in `repeats`
    {step: [each instance's fields]} of its repeating forms (docs/repeats-and-grids.md), whose
    field names come back in every instance and so cannot be merged with the rest."""

    def __init__(self, *args, repeats: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.repeats = dict(repeats or {})


def field_values(answers: dict) -> FieldValues:
    """All fields of a scripted-answers file, {field name: str | list[str]}; a step given as a
    list (a repeating form, one dict of fields per instance) goes into `.repeats` instead."""
    merged = FieldValues()
    for step, fields in answers.items():
        if isinstance(fields, list):
            merged.repeats[step] = fields
            continue
        for name, value in fields.items():
            assert name not in merged, f"field {name!r} appears in two steps of the fixture"
            merged[name] = value
    for step, instances in merged.repeats.items():
        for fields in instances:
            shared = set(fields) & set(merged)
            assert not shared, f"the fields {sorted(shared)} of the repeating step {step!r} appear in another step too"
    return merged


class Repeats:
    """Answers the pages of repeating forms from the list entries of scripted answers, for a
    walk that knows a page only by its form: an instance's page (its hidden `_instance`, the
    instance's index from 0) is filled from that instance's fields of the entry that has fields
    on the page; the list page (its `_another` Yes/No) is answered yes while the entry has
    instances the list does not hold yet, else no. The list page does not name its step: it is
    the entry of the instance page last answered, else the first entry not finished yet (a form
    with minimum 0 opens on its list)."""

    def __init__(self, values: dict):
        self.entries = dict(getattr(values, "repeats", {}) or {})
        self.current: str | None = None
        self.finished: set[str] = set()

    def instance_fields(self, instance: int, names) -> dict:
        names = set(names)
        found = [step for step, instances in self.entries.items()
                 if any(names & set(fields) for fields in instances)]
        assert found, f"an instance page with the fields {sorted(names)}: no repeating step of the answers has them"
        step = self.current if self.current in found else found[0]
        self.current = step
        instances = self.entries[step]
        assert 0 <= instance < len(instances), (f"the page asks for instance {instance + 1} of {step!r}; "
                                                 f"the answers give {len(instances)}")
        return instances[instance]

    def another(self, rows: int) -> str:
        """"yes" or "no" for a list page holding `rows` instances."""
        step = self.current or next((s for s in self.entries if s not in self.finished), None)
        assert step is not None, "a list page of a repeating form, and the answers have no list entry for it"
        if rows < len(self.entries[step]):
            return "yes"
        assert rows == len(self.entries[step]), f"{step!r}: the list holds {rows} instances, the answers give {len(self.entries[step])}"
        self.finished.add(step)
        self.current = None
        return "no"


def page_answers(form: "StepForm", values: dict, repeats: Repeats) -> dict:
    """The fields a participant answering from `values` posts on a page: each of its controls
    the values have; on a repeating form's instance page that instance's fields, on its list
    page Yes or No (support.http.Repeats)."""
    names = [name for name in form.controls if not name.startswith("_")]
    page_values = dict(values)
    if "_instance" in form.hidden:
        page_values.update(repeats.instance_fields(int(form.hidden["_instance"]), names))
    answers = {name: page_values[name] for name in names if name in page_values}
    if "_another" in form.controls:
        answers["_another"] = repeats.another(sum(1 for name, value in form.buttons
                                                  if name == "_action" and value.startswith("repeat-remove-")))
    return answers


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
