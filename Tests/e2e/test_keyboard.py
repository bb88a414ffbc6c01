"""(e) A keyboard-only participant finishes wellbeing-check: no element is clicked; the only
input is key presses sent to whatever has the focus: TAB to move, SPACE to tick a checkbox or
a radio, the arrow keys inside a radio group (a radio group is ONE tab stop in every browser,
so arrows are the only keyboard way to choose another radio), typing into text fields, and
ENTER on the focused Next button. Reading the focused element's attributes is only looking."""
from support.tools import need_module

need_module("selenium")

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import EXAMPLES_DIR
from support.expectations import assert_expected_result, assert_same_result, expected_case, simulate
from survey_pages import MAX_PAGES, error_summary_text, field_values, page_text_json, wait_for_new_page

MAX_TABS = 60


def keys(driver, *sequence):
    ActionChains(driver).send_keys(*sequence).perform()


def describe(element) -> str:
    return (f"<{element.tag_name} name={element.get_attribute('name')!r} "
            f"value={element.get_attribute('value')!r} type={element.get_attribute('type')!r}>")


def answer_page_by_keyboard(driver, values: dict) -> list[str]:
    """TAB through the page from the top, answering each control met that the scripted answers
    cover, until the focus reaches the Next button, which ENTER presses. Returns what was done."""
    done, handled = [], set()
    for _ in range(MAX_TABS):
        keys(driver, Keys.TAB)
        focused = driver.switch_to.active_element
        name = focused.get_attribute("name") or ""
        kind = (focused.get_attribute("type") or "").lower()
        if focused.tag_name == "button" and name == "_action" and focused.get_attribute("value") == "next":
            old_page = driver.find_element(By.TAG_NAME, "html")
            keys(driver, Keys.ENTER)
            wait_for_new_page(driver, old_page)
            return done
        if name.startswith("_") or name not in values:
            continue
        wanted = values[name] if isinstance(values[name], list) else [values[name]]
        if kind == "radio" and name not in handled:
            handled.add(name)
            if not focused.is_selected():
                keys(driver, Keys.SPACE)
            for _ in range(30):
                focused = driver.switch_to.active_element
                if focused.get_attribute("value") == wanted[0]:
                    break
                keys(driver, Keys.ARROW_DOWN)        # moves to the next radio and selects it
            assert focused.get_attribute("value") == wanted[0] and focused.is_selected(), describe(focused)
            done.append(f"{name}={wanted[0]}")
        elif kind == "checkbox":
            if (focused.get_attribute("value") in wanted) != focused.is_selected():
                keys(driver, Keys.SPACE)
            assert focused.is_selected() == (focused.get_attribute("value") in wanted), describe(focused)
            if focused.is_selected():
                done.append(f"{name}+={focused.get_attribute('value')}")
        elif focused.tag_name in ("input", "textarea") and kind not in ("radio", "checkbox", "submit"):
            if focused.get_attribute("value") != wanted[0]:
                if focused.get_attribute("value"):
                    keys(driver, Keys.CONTROL + "a")  # select what is there, typing replaces it
                keys(driver, wanted[0])
            assert focused.get_attribute("value") == wanted[0], describe(focused)
            done.append(f"{name}={wanted[0]!r}")
        else:
            raise AssertionError(f"no keyboard recipe for {describe(focused)}")
    raise AssertionError(f"{MAX_TABS} TABs on {driver.title!r} never reached the Next button")


def test_keyboard_only_run_finishes_wellbeing_check(chromium, base_url, tmp_path):
    case = expected_case("wellbeing-check")
    values = field_values(case["answers"])
    chromium.get(f"{base_url}/surveys/wellbeing-check")
    log = []
    for _ in range(MAX_PAGES):
        if chromium.current_url.endswith("/done"):
            break
        title = chromium.title
        log.append((title, answer_page_by_keyboard(chromium, values)))
        assert error_summary_text(chromium) is None, f"{title}: {error_summary_text(chromium)}\n{log}"
    else:
        raise AssertionError(f"no done page: {log}")

    chromium.get(f"{base_url}/surveys/wellbeing-check/result.json")
    result = page_text_json(chromium)
    assert_expected_result(result, "wellbeing-check", case)
    assert_same_result(result, simulate(EXAMPLES_DIR / "wellbeing-check.json", case["answers"], tmp_path))
