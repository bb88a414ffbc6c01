"""The binary alone, copied away from the repository and run from another folder: `serve` and
`preview` make their pages and serve the style sheet and images from what the binary carries.
A templates or public folder given instead must exist and hold every template; a symbolic
link to a folder will do."""
import os
import shutil
import subprocess

import pytest

from support import BINARY, ROOT, Launched, free_port, get

SURVEY = ROOT / "Examples" / "wellbeing-check.json"


@pytest.fixture
def lone(tmp_path):
    """The built binary alone in a folder of its own, a study folder holding one survey, and an
    empty working folder to run it from: no Templates, Public or Examples anywhere near."""
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build with `swift build` first", pytrace=False)
    (tmp_path / "bin").mkdir()
    binary = tmp_path / "bin" / "survey"
    shutil.copy2(BINARY, binary)
    (tmp_path / "study").mkdir()
    shutil.copy(SURVEY, tmp_path / "study" / SURVEY.name)
    work = tmp_path / "elsewhere"
    work.mkdir()
    return binary, tmp_path / "study", work


def launch(binary, command, arguments, work, env=None) -> Launched:
    """The binary started with `arguments` in `work`, answering on a loopback port."""
    return Launched(binary, command, arguments, cwd=work, env=env or {}).launch()


def assert_a_real_step_page(status, body):
    assert status == 200, body[:500]
    assert body.startswith(b"<!DOCTYPE html>"), body[:200]
    assert b"Wellbeing check" in body and b'href="/survey.css"' in body


def assert_the_static_files(url):
    for path in ["survey.css", "images/face-sad.svg"]:
        status, body = get(f"{url}/{path}")
        assert status == 200, path
        assert body == (ROOT / "Public" / path).read_bytes(), path


def test_serve_from_another_folder_makes_its_pages_and_serves_its_files(lone):
    binary, study, work = lone
    server = launch(binary, "serve", ["--surveys", study, "--data", work / "data"], work)
    try:
        assert_a_real_step_page(*server.wait("/surveys/wellbeing-check"))
        assert_the_static_files(server.url)
    finally:
        server.stop()


def test_preview_from_another_folder_makes_its_pages_and_serves_its_files(lone):
    binary, study, work = lone
    preview = launch(binary, "preview", [study], work)
    try:
        status, body = preview.wait("/preview")
        assert status == 200 and b"/preview/wellbeing-check" in body, body[:500]
        assert_a_real_step_page(*get(preview.url + "/preview/wellbeing-check/steps/mood"))
        assert_the_static_files(preview.url)
    finally:
        preview.stop()


def incomplete_templates(tmp_path):
    folder = tmp_path / "my-templates"
    shutil.copytree(ROOT / "Templates", folder)
    (folder / "page.mustache").unlink()
    (folder / "format-date.mustache").unlink()
    return folder


@pytest.mark.parametrize("command", ["serve", "preview"])
@pytest.mark.parametrize("problem", ["missing", "incomplete"])
def test_a_templates_folder_that_is_missing_or_lacks_a_template_stops_the_start_naming_it(lone, tmp_path, command, problem):
    binary, study, work = lone
    folder = tmp_path / "no-such-folder" if problem == "missing" else incomplete_templates(tmp_path)
    arguments = ["--surveys", study, "--data", work / "data"] if command == "serve" else [study]
    run = subprocess.run([str(binary), command, *map(str, arguments), "--port", str(free_port()), "--templates", str(folder)],
                         cwd=work, capture_output=True, text=True, timeout=60)
    said = run.stdout + run.stderr
    assert run.returncode != 0, said
    assert str(folder) in said
    if problem == "incomplete":
        assert "page.mustache" in said and "format-date.mustache" in said
        assert "step.mustache" not in said
    else:
        assert "does not exist" in said


def test_the_environment_names_the_templates_and_public_folders_of_serve(lone, tmp_path):
    binary, study, work = lone
    for setting, folder in [("SURVEY_TEMPLATES", incomplete_templates(tmp_path)), ("SURVEY_PUBLIC", tmp_path / "no-public")]:
        run = subprocess.run([str(binary), "serve", "--surveys", str(study), "--data", str(work / "data"), "--port", str(free_port())],
                             cwd=work, capture_output=True, text=True, timeout=60, env={**os.environ, setting: str(folder)})
        assert run.returncode != 0 and str(folder) in run.stdout + run.stderr, setting


@pytest.mark.parametrize("command", ["serve", "preview"])
def test_folders_given_through_symbolic_links_are_used(lone, tmp_path, command):
    binary, study, work = lone
    templates, public = tmp_path / "templates-copy", tmp_path / "public-copy"
    shutil.copytree(ROOT / "Templates", templates)
    shutil.copytree(ROOT / "Public", public)
    (templates / "page.mustache").write_text((templates / "page.mustache").read_text().replace("<body", "<!-- linked -->\n<body", 1))
    (public / "survey.css").write_text("/* linked */\n")
    (work / "templates").symlink_to(templates, target_is_directory=True)
    (work / "public").symlink_to(public, target_is_directory=True)
    folders = ["--templates", "templates", "--public", "public"]
    if command == "serve":
        running = launch(binary, "serve", ["--surveys", study, "--data", work / "data", *folders], work)
        page = "/surveys/wellbeing-check"
    else:
        running = launch(binary, "preview", [study, *folders], work)
        page = "/preview/wellbeing-check/steps/mood"
    try:
        running.wait("/survey.css")
        status, body = get(running.url + page)
        assert_a_real_step_page(status, body)
        assert b"<!-- linked -->" in body
        assert get(running.url + "/survey.css") == (200, b"/* linked */\n")
    finally:
        running.stop()
