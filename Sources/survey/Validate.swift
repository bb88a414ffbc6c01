import ArgumentParser
import Foundation
import JSON
import SurveyCore
import SurveyImport
import SurveyRendering
import SurveyServer

/// `survey validate FILE…`: every error and warning of each file, with its JSON path.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check survey files against format v1 and ResearchKit's limits.",
        discussion: "Prints every error and warning with its JSON path. Exits with 1 when any file has an error."
    )

    @Argument(help: "Survey files (JSON) to check.")
    var files: [String]

    @Flag(name: .long, help: "Treat warnings as errors.")
    var strict = false

    @Flag(name: .long, help: "Print the findings as JSON.")
    var json = false

    @Option(help: "A folder of FHIR packages whose ValueSets and CodeSystems Questionnaires may name (also those beside each file).")
    var fhirPackages: String?

    /// What the rich-text sanitizer removes from the survey's text, as warnings.
    static func sanitizerFindings(_ data: Data) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (path, text) in SurveyLoader.texts(in: data) {
            let removed = text.allTexts.flatMap { HTMLSanitizer.sanitize($0).removed }
            for item in Set(removed).sorted() {
                findings.append(Diagnostic(.warning, path, "The sanitizer removes \(item); participants will not see it."))
            }
        }
        return findings
    }

    func run() throws {
        var failed = false
        var report: [JSONValue] = []
        let (packages, problems) = FHIRTerminology.load(surveysFolder: nil, packagesFolder: fhirPackages)
        if let problem = problems.first { throw ValidationError(problem) }
        // Each folder's ValueSets and CodeSystems, read once however many of its files are named.
        var folders: [String: FHIRTerminology] = [:]
        for file in files {
            let url = URL(fileURLWithPath: file)
            let diagnostics: [Diagnostic]
            let folder = url.deletingLastPathComponent().path
            if folders[folder] == nil {
                var found = packages
                found.merge(FHIRTerminology.load(surveysFolder: folder, packagesFolder: nil).terminology)
                folders[folder] = found
            }
            let terminology = folders[folder] ?? packages
            if terminology.files.contains(url.standardizedFileURL.path) {
                // A ValueSet or CodeSystem is terminology for the Questionnaires beside it.
                diagnostics = []
            } else if let data = try? Data(contentsOf: url) {
                let results = SurveyFiles.diagnose(data, name: url.deletingPathExtension().lastPathComponent, pathExtension: url.pathExtension,
                                                   terminology: terminology)
                let sanitized = url.pathExtension == "json" && results.first?.task != nil ? Self.sanitizerFindings(data) : []
                diagnostics = results.flatMap(\.diagnostics) + sanitized
            } else {
                diagnostics = [Diagnostic(.error, .root, "The file cannot be read.")]
            }
            let errors = diagnostics.filter(\.isError).count
            let warnings = diagnostics.count - errors
            if errors > 0 || (strict && warnings > 0) { failed = true }
            if json {
                let entries = diagnostics.map { diagnostic -> JSONValue in
                    .object(["severity": .string(diagnostic.severity.rawValue), "path": .string(diagnostic.path.description),
                             "pointer": .string(diagnostic.path.pointer), "message": .string(diagnostic.message)])
                }
                report.append(.object(["file": .string(file), "valid": .bool(errors == 0), "diagnostics": .array(entries)]))
            } else {
                for diagnostic in diagnostics { print("\(file): \(diagnostic)") }
                let summary = errors == 0 ? "ok" : "\(errors) error\(errors == 1 ? "" : "s")"
                print("\(file): \(summary)\(warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "")")
            }
        }
        if json { print(JSONWriter.string(.array(report)), terminator: "") }
        if failed { throw ExitCode(1) }
    }
}
