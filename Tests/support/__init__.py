"""What every Python suite of Tests/ shares, in one place: the repository's paths, the built
`survey` binary started on a free loopback port (`serve` or `preview`) and stopped, the step
form read from a page's HTML, a participant's browser as raw HTTP, where a run of a survey starts
(its link, with the parameters it declares) and ends, and the server fixtures.

Tests/conftest.py puts Tests/ on the import path, so a test of any suite writes
`from support import Server, parse_form, Http`. A script outside pytest (bench/, deploy/ha/)
puts Tests/ on sys.path itself first.
"""
from support.forms import Control, Form, checked_page, parse_form, squash
from support.http import (MAX_PAGES, FieldValues, Http, Repeats, StepForm, controls_of, field_values, get,
                          page_answers)
from support.links import done_path, link_parameters, run_ended, sends_back, start_path
from support.server import (BINARY, EXAMPLES, EXAMPLES_DIR, FIXTURES, PUBLIC, RELEASE_BINARY, ROOT,
                            TEMPLATES, Launched, Server, ServerPool, free_port, stop_process)

__all__ = ["BINARY", "Control", "EXAMPLES", "EXAMPLES_DIR", "FIXTURES", "FieldValues", "Form", "Http", "Launched",
           "MAX_PAGES", "PUBLIC", "RELEASE_BINARY", "ROOT", "Repeats", "Server", "ServerPool", "StepForm",
           "TEMPLATES", "checked_page", "controls_of", "done_path", "field_values", "free_port", "get", "link_parameters", "page_answers",
           "parse_form", "squash",
           "run_ended", "sends_back", "start_path", "stop_process"]
