"""Right-to-left layout: Arabic pages mirror. Every page of an Arabic survey (and the page with
errors after a form is sent empty), at 320 CSS px and at 1280 px wide: the page says dir="rtl",
the Back link and the progress line sit on the right, nothing scrolls sideways, and no two
text-bearing boxes (the header, the progress line, the Back link, the heading, labels, hints,
inputs and buttons) overlap. Screenshots of every page go to the artifacts folder.

The survey is Tests/Fixtures/rtl/sleep-ar.json (Arabic first, English second); the browser asks
for Arabic, and types its numbers in Arabic-Indic digits."""
import re

import pytest

from support import ROOT
from survey_pages import error_summary_text, fill_page, press, step_form

SURVEYS = ROOT / "Tests" / "Fixtures" / "rtl"
SURVEY = "sleep-ar"
ANSWERS = {
    "slept-well": "false",
    "hours": "\u0666\u066b\u0665",                                    # ٦٫٥
    "since.day": "\u0661\u0665", "since.month": "\u0663", "since.year": "\u0662\u0660\u0662\u0665",   # ١٥ ٣ ٢٠٢٥
    "disturbances": ["noise", "pain"],
    "notes": "\u0623\u0633\u062a\u064a\u0642\u0638 \u0645\u0628\u0643\u0631\u064b\u0627 \u0641\u064a \u0627\u0644\u0635\u064a\u0641.",
}
WIDTHS = [(320, 640), (1280, 900)]
EDGE = 2        # px: how far from the container's right edge "on the right" may be

# The boxes that carry text a participant reads or types into, each with the rectangles its
# text (or, for a control, the control itself) occupies. Elements inside another candidate are
# measured on their own and never compared with their ancestor.
BOXES_JS = r"""
const selectors = ['.header__title', '.progress', '.back-link', 'h1', 'main label', 'main .hint', 'main .input__suffix',
                   'main .error-message', 'main .error-summary__title', 'main .error-summary__list a', 'main p', 'main .body', 'main .panel__body',
                   'main input:not([type=hidden])', 'main select', 'main textarea', 'button'];
const controls = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON']);
const seen = new Set(), boxes = [];
function visible(e) {
  const style = getComputedStyle(e);
  if (style.visibility === 'hidden' || style.display === 'none') return false;
  if (e.closest('.visually-hidden, .default-action, .skip-link')) return false;
  return e.getClientRects().length > 0;
}
for (const selector of selectors) {
  for (const e of document.querySelectorAll(selector)) {
    if (seen.has(e) || !visible(e)) continue;
    seen.add(e);
    let rects;
    if (controls.has(e.tagName)) {
      rects = [e.getBoundingClientRect()];
    } else {
      const range = document.createRange();
      range.selectNodeContents(e);
      rects = Array.from(range.getClientRects());
    }
    rects = rects.filter(r => r.width > 1 && r.height > 1)
                 .map(r => ({left: r.left + scrollX, right: r.right + scrollX, top: r.top + scrollY, bottom: r.bottom + scrollY}));
    if (rects.length) boxes.push({element: e, name: selector + ' ' + (e.id || e.name || e.textContent.trim().slice(0, 30)), rects});
  }
}
const overlaps = [];
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
  const a = boxes[i], b = boxes[j];
  if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
  for (const p of a.rects) for (const q of b.rects) {
    const width = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const height = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (width > 1 && height > 1) overlaps.push(a.name + ' / ' + b.name + ' (' + Math.round(width) + 'x' + Math.round(height) + ' px)');
  }
}
return {count: boxes.length, overlaps: Array.from(new Set(overlaps))};
"""

# Where the Back link and the progress line sit against the page's column (the width-container
# around <main>): the right edge of the link's box and of the progress line's text.
PLACES_JS = r"""
const main = document.querySelector('main');
const box = main.parentElement.getBoundingClientRect();
function text(e) { const range = document.createRange(); range.selectNodeContents(e); return range.getBoundingClientRect(); }
function place(rect) { return rect && {left: rect.left, right: rect.right, centre: (rect.left + rect.right) / 2}; }
const back = document.querySelector('.back-link'), progress = document.querySelector('.progress');
return {container: {left: box.left, right: box.right, centre: (box.left + box.right) / 2},
        back: back && place(back.getBoundingClientRect()), progress: progress && place(text(progress))};
"""


def overlaps(driver) -> dict:
    return driver.execute_script(BOXES_JS)


def check_page(driver, width: int, shots: list, artifacts, expect_back: bool, expect_progress: bool) -> list[str]:
    """Every layout problem of the page shown, after saving its screenshot."""
    name = f"rtl-{width}-{len(shots):02d}-{re.sub(r'[^a-z0-9]+', '-', driver.current_url.split('/')[-1].lower()) or 'page'}"
    path = artifacts / f"{name}.png"
    driver.save_screenshot(str(path))
    shots.append(path)
    page = f"{driver.title!r} at {width} px ({path.name})"
    problems = []
    html = driver.find_element("tag name", "html")
    if html.get_attribute("dir") != "rtl" or html.get_attribute("lang") != "ar":
        problems.append(f"{page}: <html lang={html.get_attribute('lang')} dir={html.get_attribute('dir')}>")
    scroll = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    if scroll[0] > scroll[1]:
        problems.append(f"{page}: scrolls sideways, {scroll[0]} px wide in a {scroll[1]} px viewport")
    places = driver.execute_script(PLACES_JS)
    container = places["container"]
    for what, expected in (("back", expect_back), ("progress", expect_progress)):
        spot = places[what]
        if spot is None:
            if expected:
                problems.append(f"{page}: no {what} on the page")
            continue
        if container["right"] - spot["right"] > EDGE or spot["centre"] <= container["centre"]:
            problems.append(f"{page}: the {what} is not on the right: {spot} in the column {container}")
    found = overlaps(driver)
    if found["count"] < 3:
        problems.append(f"{page}: only {found['count']} text boxes measured")
    problems += [f"{page}: overlap {overlap}" for overlap in found["overlaps"]]
    return problems


@pytest.fixture
def arabic_chromium(chromium_factory):
    """A Chromium of its own that asks for Arabic pages (Accept-Language: ar), without JavaScript."""
    driver = chromium_factory(javascript=False)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "ar"}})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    return driver


@pytest.mark.parametrize("width,height", WIDTHS, ids=[f"{w}px" for w, _ in WIDTHS])
def test_arabic_pages_mirror_without_overlap(arabic_chromium, start_server, artifacts, width, height):
    server = start_server(SURVEYS)
    driver = arabic_chromium
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.get(f"{server.url}/surveys/{SURVEY}")
    assert driver.execute_script("return window.innerWidth") == width
    problems, shots, sent_empty = [], [], False
    for index in range(12):
        if driver.current_url.rstrip("/").endswith("/done"):
            break
        first = index == 0
        problems += check_page(driver, width, shots, artifacts, expect_back=not first, expect_progress=not first)
        assert step_form(driver) is not None, f"{driver.title!r} has no form"
        if not sent_empty and driver.find_elements("css selector", "main input[name='hours']"):
            # The form page once more, with its errors: summary, messages and red borders.
            press(driver, "next")
            assert error_summary_text(driver), "an empty form was accepted"
            problems += check_page(driver, width, shots, artifacts, expect_back=True, expect_progress=True)
            sent_empty = True
        fill_page(driver, ANSWERS)
        press(driver, "next")
        errors = error_summary_text(driver)
        assert errors is None, f"the Arabic answers were refused on {driver.title!r}:\n{errors}"
    else:
        pytest.fail(f"no done page after 12 pages: {driver.current_url}")
    problems += check_page(driver, width, shots, artifacts, expect_back=False, expect_progress=False)
    assert sent_empty, "the form page with the numbers was never reached"
    assert len(shots) >= 7, [p.name for p in shots]
    assert not problems, "right-to-left layout problems:\n" + "\n".join(problems)


def test_the_overlap_check_sees_overlapping_text(chromium):
    """Guard: a button drawn over the heading's text is reported, and text beside it is not."""
    chromium.get("data:text/html;charset=utf-8,<html dir=rtl><body><main style='position:relative'>"
                 "<h1 style='margin:0'>A heading long enough</h1><button style='position:absolute;top:0;right:0'>Next</button>"
                 "<p class='caption progress'>1 of 3</p></main></body></html>")
    found = overlaps(chromium)
    assert found["count"] >= 3, found
    assert any("button" in overlap and "h1" in overlap for overlap in found["overlaps"]), found
    assert not any(".progress" in overlap for overlap in found["overlaps"]), found
