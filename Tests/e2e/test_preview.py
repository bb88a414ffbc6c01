"""The researcher's preview in a real browser: `survey preview` on the examples, the list,
the map of a branching survey, a jump to a step deep in it and the panel beside it, a change
of an assumed answer, axe and the Nu checker on every kind of preview page, and every map at
320 px."""
import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from checkers import assert_valid_pages, axe_findings, format_findings
from support import BINARY, EXAMPLES_DIR, PUBLIC, ROOT, TEMPLATES, Http, Launched
from test_reflow import WIDTH, overflow


@pytest.fixture(scope="module")
def preview(tmp_path_factory):
    """`survey preview Examples` on a free loopback port."""
    preview = Launched(BINARY, "preview", [EXAMPLES_DIR, "--templates", TEMPLATES, "--public", PUBLIC], cwd=ROOT,
                       log_path=tmp_path_factory.mktemp("preview") / "preview.log").launch()
    preview.wait("/preview", timeout=60, status=200)
    yield preview.url
    preview.stop()


def test_map_jump_and_panel(preview, chromium, artifacts):
    driver = chromium
    driver.get(preview + "/preview")
    driver.find_element(By.CSS_SELECTOR, "a[href='/preview/fever-triage']").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".preview-map"))
    rules = driver.find_element(By.ID, "step-danger-signs").text
    assert "danger-signs do not include “None of these” → step urgent" in rules
    assert "skipped when fever is No" in rules
    # Jump to the question behind the rules: the engine answers the steps before it.
    driver.find_element(By.CSS_SELECTOR, "a[href='/preview/fever-triage/steps/danger-signs']").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".preview-panel"))
    panel = driver.find_element(By.CSS_SELECTOR, ".preview-panel").text
    assert "Why this step is shown" in panel
    assert "fever" in panel and "temperature" in panel
    assert driver.find_elements(By.CSS_SELECTOR, "input[name='danger-signs']"), "the step is shown as a participant sees it"
    driver.save_screenshot(str(artifacts / "preview-jump.png"))
    # Change the assumed answer to "fever": the fever step comes back with its answer.
    driver.find_element(By.CSS_SELECTOR, ".preview-panel a[href='/preview/fever-triage/run/change/1']").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "input[name='fever']"))
    assert driver.find_element(By.CSS_SELECTOR, "input[name='fever'][value='true']").is_selected()
    # Answering carries the preview run on: "No" leads past the danger signs, as the rule says.
    driver.find_element(By.CSS_SELECTOR, "label[for='fever:2']").click()
    driver.find_element(By.CSS_SELECTOR, "button[name='_action'][value='next']").click()
    WebDriverWait(driver, 10).until(lambda d: "Why this step is shown" in d.page_source)
    assert not driver.find_elements(By.CSS_SELECTOR, "input[name='danger-signs']")


def preview_pages(url: str) -> list:
    client = Http(url)
    pages = []
    for kind, path in (("list", "/preview"), ("map", "/preview/fever-triage"), ("map of every format", "/preview/every-format")):
        status, body, _ = client.get(path)
        pages.append((kind, status, body))
    status, body, _ = client.get("/preview/fever-triage/steps/danger-signs")
    pages.append(("jump to a question", status, body))
    status, body, _ = client.get("/preview/fever-triage/steps/see-gp")
    pages.append(("jump to a completion step", status, body))
    status, body, _ = client.get("/preview/wellbeing-check/steps/review")
    pages.append(("jump to a review step", status, body))
    return pages


def test_preview_pages_are_valid_html(preview, tmp_path, artifacts):
    pages = preview_pages(preview)
    assert all(status == 200 for _, status, _ in pages), [(kind, status) for kind, status, _ in pages]
    assert_valid_pages([body for _, _, body in pages], tmp_path, artifacts, "preview")


def test_axe_on_preview_pages(preview, chromium_js, artifacts):
    driver = chromium_js
    findings = []
    for path in ("/preview", "/preview/fever-triage", "/preview/fever-triage/steps/danger-signs",
                 "/preview/wellbeing-check/steps/review"):
        driver.get(preview + path)
        findings += axe_findings(driver, path)
    (artifacts / "axe-preview.json").write_text(json.dumps(findings, indent=1))
    assert not findings, format_findings(findings)


def test_maps_reflow_at_320_px(preview, chromium):
    """Each example's map, its diagram included, fits 320 CSS px without sideways scroll: the
    picture scales down to the column (its boxes stay links, its words are in the list below)."""
    driver = chromium
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": 640, "deviceScaleFactor": 1, "mobile": False})
    try:
        for survey in sorted(path.stem for path in EXAMPLES_DIR.glob("*.json")):
            driver.get(f"{preview}/preview/{survey}")
            assert driver.find_elements(By.CSS_SELECTOR, "figure.preview-diagram svg"), f"{survey}: no diagram"
            assert overflow(driver) is None, f"the map of {survey} is wider than {WIDTH} px: {overflow(driver)}"
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
