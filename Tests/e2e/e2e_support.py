"""The e2e suite's names for the helpers of Tests/support (paths, tool look-ups, the server
process and result comparison), kept for the modules and scripts that import them from here."""
from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:  # a script run outside pytest (bench/, deploy/ha/)
    sys.path.insert(0, _TESTS)

from support.expectations import (ANSWERS_DIR, assert_expected_result, assert_same_result,  # noqa: E402,F401
                                  comparable, examples, expectations, expected_case, expected_cases,
                                  load_answers, simulate)
from support.server import (BINARY, EXAMPLES, EXAMPLES_DIR, PUBLIC, RELEASE_BINARY, ROOT, TEMPLATES,  # noqa: E402,F401
                            Launched, Server, ServerPool, free_port, stop_process)
from support.tools import (ARTIFACTS, CHROMEDRIVER, CHROMIUM, FIREFOX, REQUIRE_BROWSERS,  # noqa: E402,F401
                           geckodriver_path, need, need_module, shipped_file)
