"""(a) Chromium with JavaScript disabled completes every example survey from the scripted
answers, and walks every branch of the hand-written expectations (the triage's endings,
PHQ-9's score bands and boundaries). The result the server records must be the one worked out
by hand from the survey file (Tests/Fixtures/*.expected.json); that it is also what
`survey simulate` computes is a second check, that the browser path and the CLI agree. Where
the server draws (an allocation step's arm, the order of choices and of a block's steps), the
run is held to what it drew (support.expectations)."""
import pytest
from support.tools import need_module

need_module("selenium")

from selenium.webdriver.common.by import By

from support import EXAMPLES_DIR
from support.expectations import (as_drawn, assert_expected_result, assert_same_result, examples, expected_case,
                                  expected_cases, simulate)
from survey_pages import page_text_json, walk


def test_javascript_is_really_disabled(chromium):
    chromium.get("data:text/html,<title>off</title><script>document.title='on'</script>")
    assert chromium.title == "off"


def complete(chromium, base_url, survey_id: str, answers: dict) -> dict:
    """Walk a new run with the answers to its done page; the result the server recorded."""
    walk(chromium, base_url, survey_id, answers)
    assert chromium.current_url == f"{base_url}/surveys/{survey_id}/done"
    assert chromium.find_element(By.CSS_SELECTOR, "main h1").text.strip()
    chromium.get(f"{base_url}/surveys/{survey_id}/result.json")
    return page_text_json(chromium)


@pytest.mark.parametrize("survey_id", examples())
def test_completes_every_example_without_javascript(chromium, base_url, survey_id, tmp_path):
    result = complete(chromium, base_url, survey_id, expected_case(survey_id)["answers"])
    case = as_drawn(survey_id, expected_case(survey_id), result)      # the arms the server drew
    assert_expected_result(result, survey_id, case)
    assert_same_result(result, simulate(EXAMPLES_DIR / f"{survey_id}.json", case["answers"], tmp_path))


@pytest.mark.parametrize("survey_id, case_name",
                         [p for p in expected_cases(browser=True) if p.values[1] != "scripted"])
def test_every_branch_records_the_hand_written_result(chromium, base_url, survey_id, case_name):
    case = expected_case(survey_id, case_name)
    result = complete(chromium, base_url, survey_id, case["answers"])
    assert_expected_result(result, survey_id, as_drawn(survey_id, case, result))
