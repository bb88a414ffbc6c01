"""The package's arrows: every `import` of a target is declared in Package.swift, every
declared dependency is imported, and the targets of the project depend only on targets in a
lower layer (docs/architecture.md draws the layers)."""

import json
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The project's own targets, bottom to top. A target may depend only on targets of a lower
# layer; two targets in one layer know nothing of each other.
LAYERS = [
    {"JSON", "CLibXML2", "CPangoCairo", "SurveyDefaults", "embed-defaults"},
    {"FHIRPath", "SurveyPDF"},
    {"SurveyCore"},
    {"SurveyFHIR", "SurveyAnalysis", "SurveyImport", "SurveyFuzzing", "SurveyTestSupport"},
    {"SurveyRendering", "SurveyStorage"},
    {"SurveyServer"},
    {"survey", "survey-fuzz"},
]
# Targets that must know nothing of surveys: they import no Survey* module.
KNOW_NOTHING_OF_SURVEYS = {"JSON", "FHIRPath", "SurveyPDF"}
# Modules that come with the toolchain rather than from Package.swift.
TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc",
             "Musl", "Darwin", "Testing", "XCTest", "Synchronization", "PackagePlugin", "_FoundationICU"}

IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|package|private|fileprivate)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


def package():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def dependency_names(target):
    names = []
    for dependency in target["dependencies"]:
        (kind, value), = dependency.items()
        names.append(value[0])
    return names


def imports_of(folder):
    found = {}
    for source in sorted(folder.rglob("*.swift")):
        for module in IMPORT.findall(source.read_text()):
            found.setdefault(module, source.relative_to(ROOT))
    return found


def faults(targets, imports):
    """Every broken arrow, as sentences. `targets` maps a target to its declared
    dependencies; `imports` maps a target to {module: first file importing it}."""
    layer = {name: index for index, names in enumerate(LAYERS) for name in names}
    found = []
    for name, declared in sorted(targets.items()):
        imported = imports.get(name, {})
        for module, where in sorted(imported.items()):
            if module in TOOLCHAIN or module == name:
                continue
            if module not in declared:
                found.append(f"{where} imports {module}, which the target {name} does not declare.")
            if name in KNOW_NOTHING_OF_SURVEYS and module.startswith("Survey"):
                found.append(f"{where} imports {module}, but {name} must know nothing of surveys.")
        for dependency in declared:
            if dependency not in imported:
                found.append(f"The target {name} declares {dependency} and never imports it.")
            if name in layer and dependency in layer and layer[dependency] >= layer[name]:
                found.append(f"The target {name} depends on {dependency}, which is not in a lower layer.")
        if not name.endswith("Tests") and name not in layer:
            found.append(f"The target {name} is in no layer of Tests/architecture/test_arrows.py.")
    return found


def folder_of(target):
    if target.get("path"):
        return ROOT / target["path"]
    return ROOT / ("Tests" if target["type"] == "test" else "Sources") / target["name"]


def test_every_arrow_is_declared_and_points_down():
    targets, imports = {}, {}
    for target in package()["targets"]:
        if target["type"] in ("plugin", "system"):
            continue
        targets[target["name"]] = dependency_names(target)
        imports[target["name"]] = imports_of(folder_of(target))
    assert set(targets) >= {"JSON", "FHIRPath", "SurveyCore", "SurveyAnalysis", "SurveyServer"}
    found = faults(targets, imports)
    assert found == [], "\n".join(found)


def test_an_undeclared_import_is_named():
    found = faults({"SurveyCore": ["JSON"]},
                   {"SurveyCore": {"JSON": "a.swift", "GRDB": "b.swift"}})
    assert found == ["b.swift imports GRDB, which the target SurveyCore does not declare."]


def test_a_declared_dependency_never_imported_is_named():
    found = faults({"survey": ["SurveyCore", "SurveyStorage"]}, {"survey": {"SurveyCore": "a.swift"}})
    assert found == ["The target survey declares SurveyStorage and never imports it."]


def test_an_arrow_pointing_up_or_sideways_is_named():
    found = faults({"SurveyCore": ["SurveyRendering"], "SurveyRendering": ["SurveyStorage"]},
                   {"SurveyCore": {"SurveyRendering": "a.swift"},
                    "SurveyRendering": {"SurveyStorage": "b.swift"}})
    assert found == [
        "The target SurveyCore depends on SurveyRendering, which is not in a lower layer.",
        "The target SurveyRendering depends on SurveyStorage, which is not in a lower layer.",
    ]


def test_fhirpath_may_not_know_surveys():
    found = faults({"FHIRPath": ["JSON", "SurveyCore"]},
                   {"FHIRPath": {"JSON": "a.swift", "SurveyCore": "b.swift"}})
    assert "b.swift imports SurveyCore, but FHIRPath must know nothing of surveys." in found
