"""(b) The text browser lynx (no CSS, no JavaScript, HTTP/1.0) completes fever-triage on its
simplest path, typing and submitting real forms from a -cmd_script, and the server records the
result worked out by hand for that path (the no-fever case of Tests/Fixtures/fever-triage.expected.json),
which `survey simulate` computes too."""
import json
import shutil
import socket
import subprocess
import time

import pytest

from support import EXAMPLES_DIR
from support.expectations import assert_expected_result, assert_same_result, expected_case, simulate
from support.tools import need


def test_http_1_0_request_gets_its_response_and_the_connection_closed(base_url):
    """lynx (and other HTTP/1.0 clients: wget --no-http-keep-alive, ab, proxies) read a
    response until the server closes the connection. RFC 9112 §9.3: a server MUST close an
    HTTP/1.0 connection after the response unless the request said keep-alive."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        sock.sendall(f"GET /surveys/fever-triage HTTP/1.0\r\nHost: {host}:{port}\r\n"
                     "Accept: text/html\r\nUser-Agent: e2e\r\n\r\n".encode())
        sock.settimeout(5)
        received, closed, start = b"", False, time.time()
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    closed = True
                    break
                received += chunk
        except socket.timeout:
            pass
    head = received.split(b"\r\n", 1)[0].decode(errors="replace")
    assert head.endswith(" 200 OK"), head
    assert closed, (f"the server answered an HTTP/1.0 request ({len(received)} bytes, '{head}') but kept "
                    f"the connection open for {time.time() - start:.0f} s: lynx waits for the close and "
                    "never shows the page")


def lynx_script(*items) -> str:
    """A lynx -cmd_script: plain strings are typed character by character, <Name> are keys."""
    special = {"<Down>": "Down Arrow", "<Up>": "Up Arrow", "<Enter>": "^J", "<C-u>": "^U"}
    lines = []
    for item in items:
        if item in special:
            lines.append(f"key {special[item]}")
        elif len(item) > 1 and item.startswith("<") and item.endswith(">"):
            lines.append(f"key {item[1:-1]}")
        else:
            lines += ["key <space>" if c == " " else f"key {c}" for c in item]
    return "\n".join(lines) + "\n"


def run_lynx(keys, url: str, tmp_path):
    """Runs lynx on `url` with the keys as its -cmd_script, in a home of its own; its process."""
    script = tmp_path / "keys.cmd"
    script.write_text(lynx_script(*keys))
    home = tmp_path / "home"
    home.mkdir()
    return subprocess.run(
        ["lynx", "-nopause", "-accept_all_cookies", "-noreferer", "-read_timeout=5", f"-cmd_script={script}", url],
        env={"TERM": "vt100", "HOME": str(home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=180)


def lynx_print(path) -> tuple:
    """p (print) -> 'Save to a local file' -> clear the suggested name, type ours -> Enter."""
    return ("<p>", "<Enter>", "<C-u>", str(path), "<Enter>")


def test_lynx_completes_fever_triage_on_its_simplest_path(base_url, tmp_path):
    """No fever -> other symptoms (typed into the textarea) -> 'look after yourself' -> done.
    lynx shows every control and moves from control to control with the Down arrow."""
    need(shutil.which("lynx"), "lynx (Debian package lynx)")
    case = expected_case("fever-triage", "no-fever")
    typed = case["answers"]["other-symptoms"]["other-symptoms"]
    pages = [tmp_path / f"page-{n}.txt" for n in range(5)]
    result_file = tmp_path / "result.json"
    keys = (
        # intro: [skip link] [Get Started] ...
        *lynx_print(pages[0]), "<Down>", "<Enter>",
        # fever: [skip link] [Back] (*) Yes ( ) No [Next] ...  (lynx pre-selects Yes)
        *lynx_print(pages[1]), "<Down>", "<Down>", "<Down>", "<Enter>", "<Down>", "<Enter>",
        # other-symptoms: [skip link] [Back] [textarea: 5 lines] [Next] [Skip] ...
        *lynx_print(pages[2]), "<Down>", "<Down>", typed,
        "<Down>", "<Down>", "<Down>", "<Down>", "<Down>", "<Enter>",
        # done page (the completion step 'self-care')
        *lynx_print(pages[3]),
        # the result, served as application/json: D)ownload -> [help] [Save to disk] -> file name
        "<g>", "<C-u>", f"{base_url}/surveys/fever-triage/result.json", "<Enter>",
        "<d>", "<Down>", "<Enter>", "<C-u>", str(result_file), "<Enter>",
        "<Q>",
    )
    run = run_lynx(keys, f"{base_url}/surveys/fever-triage", tmp_path)
    seen = "\n".join(f"--- {p.name}:\n{p.read_text(errors='replace')[:400]}" for p in pages if p.exists())
    hint = ("\n(lynx speaks HTTP/1.0 and reads each response until the server closes the connection; "
            "see test_http_1_0_request_gets_its_response_and_the_connection_closed)")
    expected_pages = ["Check your symptoms", "Do you have a fever?", "What other symptoms do you have?",
                      "Look after yourself at home"]
    for page, text in zip(pages, expected_pages):
        if not (page.exists() and text in page.read_text()):
            pytest.fail(f"lynx did not reach the page '{text}' (exit {run.returncode}, "
                        f"{run.stderr.decode(errors='replace')[-300:]!r}); pages it saved:\n{seen}{hint}",
                        pytrace=False)
    assert "(*) Yes" in pages[1].read_text(), seen
    assert result_file.exists(), seen

    result = json.loads(result_file.read_text())
    assert_expected_result(result, "fever-triage", case)
    assert_same_result(result, simulate(EXAMPLES_DIR / "fever-triage.json", case["answers"], tmp_path))
