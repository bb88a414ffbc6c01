"""The Dockerfile, proven as far as a machine without a Docker engine can: hadolint finds
nothing in it, what it copies exists, its runtime stage runs as a user other than root, and
that stage installs every Debian package whose shared library the release binary loads.

Not proven here: that the image builds (the swift:6.3-bookworm image and the network it
needs are out of reach), nor that the server starts inside it.

Run with the release binary built (`swift build -c release --product survey`), or name
another with SURVEY_DOCKER_BINARY:
    .venv-e2e/bin/python -m pytest -q Tests/docker
"""
from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dockerfile_support import (  # noqa: E402
    BOOKWORM_SLIM, DOCKERFILE, ROOT, copy_sources, libraries_outside_toolchain, owning_packages,
    read_stages, toolchain_usr, uncovered_libraries,
)

HADOLINT = Path(sys.executable).parent / "hadolint"
HADOLINT_CONFIG = ROOT / ".hadolint.yaml"
BINARY = Path(os.environ.get("SURVEY_DOCKER_BINARY", ROOT / ".build" / "release" / "survey"))


def hadolint(text: str) -> subprocess.CompletedProcess:
    """hadolint (from the venv of scripts/install-e2e-deps.sh) on a Dockerfile's text, with the
    project's settings."""
    if not HADOLINT.exists():
        pytest.fail(f"{HADOLINT} is missing: run scripts/install-e2e-deps.sh, use .venv-e2e/bin/python")
    return subprocess.run([str(HADOLINT), "--no-color", "--config", str(HADOLINT_CONFIG), "-"],
                          input=text, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def dockerfile() -> str:
    return DOCKERFILE.read_text()


@pytest.fixture(scope="module")
def binary_libraries() -> dict[str, str]:
    """The shared libraries the release binary would load in the image, each with the Debian
    package that has it (soname → package)."""
    if not BINARY.exists():
        pytest.fail(f"{BINARY} is missing: build it with `swift build -c release --product survey`")
    return owning_packages(libraries_outside_toolchain(BINARY, toolchain_usr()))


def test_hadolint_finds_nothing(dockerfile):
    run = hadolint(dockerfile)
    assert run.returncode == 0 and not run.stdout.strip(), run.stdout + run.stderr


def test_hadolint_reports_a_known_fault(dockerfile):
    """The linter runs with the settings that the test above relies on: an apt-get install
    without --no-install-recommends (DL3015) and a runtime stage left as root (DL3002) are
    reported."""
    faulty = dockerfile.replace("--no-install-recommends ", "").replace("USER 10001", "USER root")
    assert faulty != dockerfile
    run = hadolint(faulty)
    assert run.returncode != 0
    assert "DL3015" in run.stdout and "DL3002" in run.stdout, run.stdout


def test_every_rule_hadolint_ignores_says_why():
    """Each ignored rule in .hadolint.yaml has a comment of its own right above it."""
    lines = HADOLINT_CONFIG.read_text().splitlines()
    ignored = [i for i, line in enumerate(lines) if re.match(r"\s*-\s*(DL|SC)\d{4}\s*$", line)]
    for index in ignored:
        above = lines[index - 1].strip() if index else ""
        assert above.startswith("#") and len(above) > 20, f"{lines[index].strip()} has no reason above it"


def test_the_build_stage_makes_a_static_stdlib_release_binary(dockerfile):
    """The library test below leaves out the Swift toolchain's libraries because of this."""
    build = read_stages(dockerfile)[0]
    commands = " ".join(build.arguments("RUN"))
    assert re.search(r"swift build -c release --product survey\b[^&;]*--static-swift-stdlib", commands)


def test_the_build_stage_copies_all_the_package_builds_from_before_it_builds(dockerfile):
    """The targets, the build-tool plugin and the folders that plugin builds into the binary
    (Templates and Public): without them the build fails, as the runtime stage has no templates."""
    build = read_stages(dockerfile)[0]
    copied = set()
    for kind, args in build.instructions:
        if kind == "RUN" and "swift build" in args:
            break
        if kind == "COPY":
            copied |= {source.rstrip("/") for source in copy_sources(args) or []}
    plugin = (ROOT / "Plugins" / "EmbedDefaults" / "plugin.swift").read_text()
    embedded = set(re.findall(r'\("(\w+)", root\.appending', plugin))
    assert embedded == {"Templates", "Public"}
    assert {"Package.swift", "Sources", "Tests", "Plugins"} | embedded <= copied


def test_what_the_dockerfile_copies_from_the_repository_exists_and_is_sent():
    """Every COPY source is in the repository and not excluded by .dockerignore (which keeps
    .build and the venvs, gigabytes, out of the build context)."""
    ignored = [p.strip().rstrip("/") for p in (ROOT / ".dockerignore").read_text().splitlines()
               if p.strip() and not p.startswith("#")]
    assert {".build", ".venv*"} <= set(ignored)
    sources = [s for stage in read_stages(DOCKERFILE.read_text())
               for args in stage.arguments("COPY") for s in copy_sources(args) or []]
    assert "Package.swift" in sources and "Sources" in sources
    for source in sources:
        assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
        assert not any(fnmatch.fnmatch(source.rstrip("/"), pattern) for pattern in ignored), \
            f"COPY {source}: excluded by .dockerignore"
    if not (ROOT / ".git").exists():
        return
    tracked = subprocess.run(["git", "ls-files", "--", *sources], cwd=ROOT, capture_output=True, text=True)
    assert tracked.returncode == 0 and all(
        any(line == s or line.startswith(s.rstrip("/") + "/") for line in tracked.stdout.splitlines())
        for s in sources), f"a COPY source is not committed: {sources}"


def test_the_runtime_stage_runs_as_a_user_it_creates_other_than_root(dockerfile):
    runtime = read_stages(dockerfile)[-1]
    users = runtime.arguments("USER")
    assert users, "the runtime stage has no USER: the container would run as root"
    user, _, group = users[-1].partition(":")
    assert user not in ("root", "0") and group not in ("root", "0")
    created = " ".join(runtime.arguments("RUN"))
    assert re.search(rf"useradd\b[^&;]*--uid {re.escape(user)}\b", created), \
        f"USER {users[-1]}: no useradd --uid {user} in the runtime stage"
    if group:
        assert re.search(rf"groupadd\b[^&;]*--gid {re.escape(group)}\b", created)


def test_the_runtime_image_has_the_package_of_every_library_the_binary_loads(dockerfile, binary_libraries):
    assert binary_libraries["libxml2.so.2"] == "libxml2" and binary_libraries["libc.so.6"] == "libc6"
    missing = uncovered_libraries(dockerfile, binary_libraries)
    assert not missing, f"packages missing from the runtime stage's apt-get install: {missing}"


def test_the_library_check_fails_without_a_package_the_binary_needs(dockerfile, binary_libraries):
    """Taken out of the runtime stage's apt-get install, libxml2 (which bookworm-slim lacks)
    is reported missing."""
    assert "libxml2" not in BOOKWORM_SLIM
    runtime_start = dockerfile.rindex("FROM ")
    head, runtime = dockerfile[:runtime_start], dockerfile[runtime_start:]
    without = head + re.sub(r" libxml2(?= |$)", "", runtime, flags=re.M)
    assert without != dockerfile
    missing = uncovered_libraries(without, binary_libraries)
    assert missing.get("libxml2.so.2") == "libxml2", missing
