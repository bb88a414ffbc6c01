"""(f) WCAG 1.4.10 Reflow: at a 320 CSS px wide viewport no page of any example scrolls
sideways (document.documentElement.scrollWidth <= 320)."""
import pytest

from support.expectations import examples, load_answers
from survey_pages import walk

WIDTH = 320


def overflow(driver) -> dict | None:
    """None, or where the page is wider than the viewport and which elements stick out."""
    width = driver.execute_script("return document.documentElement.scrollWidth")
    if width <= WIDTH:
        return None
    culprits = driver.execute_script("""
        const out = [];
        for (const e of document.querySelectorAll('body *')) {
            const r = e.getBoundingClientRect();
            if (r.right > arguments[0] + 0.5 && out.length < 5)
                out.push(e.outerHTML.slice(0, 160) + ' (right edge ' + Math.round(r.right) + ' px)');
        }
        return out;""", WIDTH)
    return {"page": driver.title, "url": driver.current_url, "scrollWidth": width, "elements": culprits}


@pytest.mark.parametrize("survey_id", examples())
def test_no_horizontal_scrolling_at_320_px(chromium, base_url, survey_id):
    chromium.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": WIDTH, "height": 640, "deviceScaleFactor": 1, "mobile": False})
    chromium.get(f"{base_url}/")
    assert chromium.execute_script("return window.innerWidth") == WIDTH
    problems = []
    walk(chromium, base_url, survey_id, load_answers(survey_id),
         on_page=lambda d: problems.append(overflow(d)))
    problems.append(overflow(chromium))          # the done page
    problems = [p for p in problems if p]
    assert not problems, "pages wider than 320 px:\n" + "\n".join(map(str, problems))


def test_the_check_sees_a_page_that_scrolls_sideways(chromium):
    """Guard: a 400 px wide element at a 320 px viewport is reported."""
    chromium.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                             {"width": WIDTH, "height": 640, "deviceScaleFactor": 1, "mobile": False})
    chromium.get("data:text/html,<meta name=viewport content='width=device-width'>"
                 "<div style='width:400px'>wide</div>")
    found = overflow(chromium)
    assert found and found["scrollWidth"] >= 400 and found["elements"], found
