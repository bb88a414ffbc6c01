import Foundation
import Mustache
import SurveyCore
import SurveyImport
import SurveyRendering

/// The surveys the server presents, loaded and checked at start, with their pages built.
public struct SurveyCatalog: Sendable {
    public let surveys: [String: SurveyPages]
    public let library: MustacheLibrary
    /// What the checker warned about, a line per warning with its file, for the log at start.
    public var warnings: [String] = []

    /// Loads every `*.json` in the folder; any error in any file stops the start with all messages.
    /// With `kiosk` timing, each survey's kiosk pages are built too. The templates are the
    /// binary's own, or those of `templatesDirectory`, which must hold every one of them.
    /// The folder's ValueSets and CodeSystems, and those of the FHIR packages in `fhirPackages`,
    /// are terminology a Questionnaire may name, not surveys.
    public static func load(surveysDirectory: String, templatesDirectory: String?, fhirPackages: String? = nil,
                            kiosk: KioskTiming? = nil) async throws -> SurveyCatalog {
        let library: MustacheLibrary
        do {
            library = try ServerTemplates.load(folder: templatesDirectory)
        } catch {
            throw error.startupError
        }
        let folder = URL(fileURLWithPath: surveysDirectory)
        guard let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil) else {
            throw StartupError(messages: ["The surveys folder \(surveysDirectory) cannot be read."])
        }
        let checker = MarkupChecker(allowlist: MarkupChecker.templateAllowlist)
        var surveys: [String: SurveyPages] = [:]
        let (terminology, problems) = FHIRTerminology.load(surveysFolder: surveysDirectory, packagesFolder: fhirPackages)
        var messages = problems
        var warnings: [String] = []
        for file in files.filter(SurveyFiles.isSurveyFile).sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            // Read once already, as terminology.
            if terminology.files.contains(file.standardizedFileURL.path) { continue }
            do {
                // A REDCap dictionary holds a survey per instrument; another CSV file holds none.
                let found = try SurveyFiles.load(contentsOf: file, terminology: terminology)
                if found.isEmpty {
                    warnings.append("\(file.path): neither a REDCap data dictionary nor an XLSForm; it is not read as a survey.")
                }
                for loaded in found {
                    warnings += loaded.warnings.map { "\(file.path): \($0)" }
                    if surveys[loaded.task.identifier] != nil {
                        messages.append("\(file.path): the identifier \"\(loaded.task.identifier)\" is used by another survey.")
                        continue
                    }
                    surveys[loaded.task.identifier] = try SurveyPages(task: loaded.task, library: library, checker: checker,
                                                                   kiosk: kiosk)
                }
            } catch let error as SurveyLoadError {
                messages += error.errors.map { "\(file.path): \($0)" }
            } catch let error as TemplateError {
                messages.append("\(file.path): template fault: \(error)")
            }
        }
        if !messages.isEmpty { throw StartupError(messages: messages) }
        if surveys.isEmpty { throw StartupError(messages: ["The surveys folder \(surveysDirectory) holds no survey."]) }
        return SurveyCatalog(surveys: surveys, library: library, warnings: warnings)
    }
}
