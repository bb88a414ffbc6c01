"""The step form of a page read from its HTML, the one parser of the suites: its action, hidden
fields, controls (with their choices) and buttons. The HTTP fuzzer mutates what it reads; the
raw-HTTP participant (support.http) posts its hidden fields back."""
from __future__ import annotations

import html
import html.parser
import re
from dataclasses import dataclass, field


@dataclass
class Control:
    kind: str                       # radio, checkbox, select, textarea, or an input's type
    tag: str = "input"              # input, select or textarea
    options: list = field(default_factory=list)
    maxlength: int | None = None


@dataclass
class Form:
    action: str
    hidden: list = field(default_factory=list)      # [(name, value)] in page order
    controls: dict = field(default_factory=dict)    # name -> Control, in page order
    buttons: list = field(default_factory=list)     # [(name, value)]

    def value(self, name: str) -> str:
        return next((v for n, v in self.hidden if n == name), "")


class _FormParser(html.parser.HTMLParser):
    """The first POST form inside <main>."""

    def __init__(self, page_path: str):
        super().__init__(convert_charrefs=True)
        self.page_path = page_path
        self.in_main = self.in_form = self.done = False
        self.form: Form | None = None
        self.select: str | None = None
        self.option: list | None = None

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "main":
            self.in_main = True
        elif tag == "form" and self.in_main and not self.done and a.get("method", "").lower() == "post":
            self.in_form = True
            self.form = Form(action=a.get("action") or self.page_path)
        elif not self.in_form:
            return
        elif tag == "input" and a.get("name"):
            kind = a.get("type", "text").lower()
            if kind == "hidden":
                self.form.hidden.append((a["name"], a.get("value", "")))
            elif kind in ("submit", "image", "button", "reset"):
                self.form.buttons.append((a["name"], a.get("value", "")))
            else:
                control = self.form.controls.setdefault(a["name"], Control(kind))
                if kind in ("radio", "checkbox"):
                    control.options.append(a.get("value", "on"))
                elif a.get("maxlength", "").isdigit():
                    control.maxlength = int(a["maxlength"])
        elif tag == "textarea" and a.get("name"):
            maxlength = a.get("maxlength", "")
            self.form.controls.setdefault(a["name"], Control("textarea", "textarea", maxlength=int(maxlength) if maxlength.isdigit() else None))
        elif tag == "select" and a.get("name"):
            self.select = a["name"]
            self.form.controls.setdefault(self.select, Control("select", "select"))
        elif tag == "option" and self.select:
            self.option = [a["value"]] if "value" in a else [None, ""]
        elif tag == "button" and a.get("name"):
            self.form.buttons.append((a["name"], a.get("value", "")))

    def handle_data(self, data):
        if self.option is not None and self.option[0] is None:
            self.option[1] += data

    def handle_endtag(self, tag):
        if tag == "option" and self.option is not None and self.select:
            value = self.option[0] if self.option[0] is not None else self.option[1].strip()
            self.form.controls[self.select].options.append(value)
            self.option = None
        elif tag == "select":
            self.select = None
        elif tag == "form" and self.in_form:
            self.in_form, self.done = False, True
        elif tag == "main":
            self.in_main = False


def parse_form(page: bytes | str, page_path: str = "") -> Form | None:
    """The step form of a page, or None when it has none (a done or message page). Bytes are
    read as UTF-8 with bad bytes replaced; a caller that must fail on them decodes first."""
    parser = _FormParser(page_path)
    parser.feed(page if isinstance(page, str) else page.decode("utf-8", "replace"))
    parser.close()
    return parser.form


def squash(markup: str) -> str:
    """Text as a reader sees it: tags left out, entities read, white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def checked_page(status: int, body: bytes, url: str, context: str) -> tuple[str, str]:
    """A step page's HTML and its <main> as text, after asserting it answered 200 with no error summary."""
    page = body.decode("utf-8")
    main = squash(page[page.find("<main"):page.find("</main>")])
    assert status == 200 and 'class="error-summary"' not in page, f"{context}: {url} answered {status}:\n{main[:1500]}"
    return page, main
