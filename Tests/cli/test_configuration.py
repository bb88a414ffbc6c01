"""`survey serve`'s settings: a malformed value stops the start with a sentence naming it, and a
config file's setting takes effect (flag over environment over config file over default)."""
import json
import os
import re
import subprocess

import pytest

from support import BINARY, ROOT, free_port, stop_process


def serve(*arguments, env=None, tmp_path):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SURVEY_")}
    environment.update(env or {})
    return subprocess.run([str(BINARY), "serve", "--data", str(tmp_path / "data"), *map(str, arguments)],
                          cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60)


@pytest.fixture(autouse=True)
def built():
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)


def test_a_port_that_is_not_a_number_stops_the_start_naming_the_setting(tmp_path):
    run = serve(env={"SURVEY_PORT": "abc"}, tmp_path=tmp_path)
    assert run.returncode != 0
    assert '--port must be a port number from 0 to 65535, not "abc"' in run.stderr, run.stderr
    assert "SURVEY_PORT" in run.stderr


@pytest.mark.parametrize("text, message", [
    ("{not json", "is not valid JSON"),
    ('{"prot": 8081}', 'unknown key "prot": did you mean "port"?'),
    ('[1, 2]', "must be one JSON object of settings"),
])
def test_a_bad_config_file_stops_the_start_with_a_sentence(tmp_path, text, message):
    config = tmp_path / "survey.json"
    config.write_text(text)
    run = serve("--config", config, tmp_path=tmp_path)
    assert run.returncode != 0
    assert message in run.stderr, run.stderr


def test_a_config_files_port_is_the_one_the_server_listens_on(tmp_path):
    port = free_port()
    config = tmp_path / "survey.json"
    config.write_text(json.dumps({"port": port, "accessLog": False}))
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SURVEY_")}
    environment["SURVEY_CONFIG"] = str(config)
    process = subprocess.Popen([str(BINARY), "serve", "--data", str(tmp_path / "data")], cwd=ROOT, env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        import time
        import urllib.request
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode()
                assert time.monotonic() < deadline, "the server never answered on the config file's port"
                time.sleep(0.2)
    finally:
        stop_process(process)


def test_help_names_each_settings_environment_variable():
    run = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, timeout=60)
    help_text = " ".join(run.stdout.split())
    for name in ["SURVEY_PORT", "SURVEY_HOST", "SURVEY_HEADER_TIMEOUT", "SURVEY_KIOSK_PIN", "SURVEY_CONFIG", "SURVEY_TRUSTED_PROXY"]:
        assert f"env: {name}" in help_text, name


def test_the_settings_table_lists_every_setting_the_help_names():
    """docs/operations.md's Settings table has a row for each flag `survey serve --help` shows,
    with the same environment variable and config key."""
    run = subprocess.run([str(BINARY), "serve", "--help"], capture_output=True, text=True, timeout=60)
    # One entry per option: the help starts each on a line of its own, indented two spaces.
    options = [" ".join(("--" + part).split()) for part in re.split(r"\n  --", run.stdout)[1:]]
    shown = [re.match(r"(--[a-z-]+).*?\(env: (SURVEY_[A-Z_]+)(?:; config: (\w+))?", option) for option in options]
    shown = [match.groups(default="") for match in shown if match]
    assert len(shown) == run.stdout.count("(env:") >= 20, run.stdout[:500]
    rows = {}
    for line in (ROOT / "docs" / "operations.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        flag = re.match(r"--[a-z][a-z-]*", cells[0])
        if len(cells) >= 3 and flag:
            rows[flag.group(0)] = (cells[1], cells[2])
    for flag, variable, key in shown:
        assert flag in rows, f"{flag} is not in docs/operations.md's Settings table"
        assert rows[flag] == (variable, key), f"{flag}: the table says {rows[flag]}, the help says {(variable, key)}"
