"""(a) Chromium with JavaScript disabled completes every example survey from the scripted
answers, and the result the server records is the one `survey simulate` computes."""
import pytest
from e2e_support import need_module

need_module("selenium")

from selenium.webdriver.common.by import By

from e2e_support import EXAMPLES_DIR, assert_same_result, examples, load_answers, simulate
from survey_pages import page_text_json, walk


def test_javascript_is_really_disabled(chromium):
    chromium.get("data:text/html,<title>off</title><script>document.title='on'</script>")
    assert chromium.title == "off"


@pytest.mark.parametrize("survey_id", examples())
def test_completes_every_example_without_javascript(chromium, base_url, survey_id, tmp_path):
    answers = load_answers(survey_id)
    walk(chromium, base_url, survey_id, answers)
    assert chromium.current_url == f"{base_url}/surveys/{survey_id}/done"
    assert chromium.find_element(By.CSS_SELECTOR, "main h1").text.strip()

    chromium.get(f"{base_url}/surveys/{survey_id}/result.json")
    result = page_text_json(chromium)
    expected = simulate(EXAMPLES_DIR / f"{survey_id}.json", answers, tmp_path)

    assert result["identifier"] == survey_id
    assert_same_result(result, expected)
