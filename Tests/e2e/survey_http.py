"""The raw-HTTP participant of Tests/support/http.py under the name the e2e tests, bench/export.py
and deploy/ha/failover_browser.py import it by."""
from __future__ import annotations

import sys
from pathlib import Path

_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:  # a script run outside pytest (bench/, deploy/ha/)
    sys.path.insert(0, _TESTS)

from support.http import MAX_PAGES, Http, StepForm, controls_of, field_values  # noqa: E402,F401
