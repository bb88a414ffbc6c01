"""A run made through the researcher API sends its participant back to the researcher's
return address when it is completed, in a real browser: the CSP's `form-action 'self'` would
stop a redirect from the last form post to another site, so the server answers that post with
a page of its own that moves on by a refresh (and a link)."""
from __future__ import annotations

import http.server
import json
import threading
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from support import EXAMPLES_DIR, free_port
from survey_pages import _click_choice, press, wait_for_new_page

TOKEN = "e2e-api-token-0123456789"


class _Receiver(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 (the standard library's name)
        _Receiver.hits.append(self.path)
        body = b"<!DOCTYPE html><html lang='en'><head><title>Study home</title></head><body><h1>Back at the study</h1></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def study_site():
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()


def test_completed_api_run_returns_to_the_study(start_server, chromium, study_site):
    srv = start_server(EXAMPLES_DIR, extra=("--api-token", TOKEN))
    request = urllib.request.Request(
        srv.url + "/api/v1/runs", method="POST",
        data=json.dumps({"survey": "fever-triage", "returnURL": study_site + "/back?participant=P-7"}).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        link = json.load(response)["startLink"]

    chromium.get(link)
    old_page = chromium.find_element(By.TAG_NAME, "html")
    chromium.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()   # the link's Continue page
    wait_for_new_page(chromium, old_page)
    press(chromium, "next")                                                            # Get Started
    _click_choice(chromium, chromium.find_element(By.CSS_SELECTOR, "input[name=fever][value=false]"))
    press(chromium, "next")
    chromium.find_element(By.CSS_SELECTOR, "[name=other-symptoms]").send_keys("Tired")
    chromium.find_element(By.CSS_SELECTOR, "button[name=_action][value=next]").click()

    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(chromium, 10).until(lambda d: d.current_url.startswith(study_site))
    assert chromium.current_url == study_site + "/back?participant=P-7"
    assert chromium.find_element(By.TAG_NAME, "h1").text == "Back at the study"
    assert "/back?participant=P-7" in _Receiver.hits
