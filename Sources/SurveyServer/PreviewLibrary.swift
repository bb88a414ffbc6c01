import Foundation
import Mustache
import SurveyCore
import SurveyRendering

/// The surveys a researcher previews, read again from disk whenever a survey file or a
/// template has changed since the last request, so the next page shows the new version. A
/// file with errors is kept with its messages instead of stopping the preview.
actor PreviewLibrary {
    /// One survey file as it now reads.
    struct Entry: Sendable {
        let file: String
        /// The survey's identifier, or the file's name when it has none that can be read.
        let identifier: String
        /// Its pages, when the file has no error.
        let pages: SurveyPages?
        /// The checker's errors and warnings, with their JSON paths.
        let diagnostics: [Diagnostic]
        /// What the sanitizer took out of the survey's text.
        let removedMarkup: [String]
    }

    /// The survey files and folders given, and the templates folder.
    let paths: [String]
    let templatesDirectory: String
    private var stamp: [String: Date] = [:]
    private var entries: [Entry] = []
    /// Why the templates cannot be used, when they cannot.
    private(set) var templateProblem: String?
    /// The templates as last read, when they could be.
    private(set) var mustache: MustacheLibrary?

    init(paths: [String], templatesDirectory: String) {
        self.paths = paths
        self.templatesDirectory = templatesDirectory
    }

    /// Every survey, read again first if anything changed on disk.
    @discardableResult
    func current() async -> [Entry] {
        let files = surveyFiles()
        let templates = Self.files(in: templatesDirectory, extension: "mustache")
        var now: [String: Date] = [:]
        for file in files + templates { now[file] = Self.modified(file) }
        if now != stamp || entries.isEmpty && !files.isEmpty {
            stamp = now
            await reload(files)
        }
        return entries
    }

    func entry(_ identifier: String) async -> Entry? {
        await current().first { $0.identifier == identifier }
    }

    private func reload(_ files: [String]) async {
        let library: MustacheLibrary
        do {
            library = try await MustacheLibrary(directory: templatesDirectory)
            templateProblem = nil
            mustache = library
        } catch {
            templateProblem = "The templates in \(templatesDirectory) cannot be read: \(error)"
            mustache = nil
            entries = []
            return
        }
        let checker = MarkupChecker(allowlist: MarkupChecker.templateAllowlist)
        var loaded: [Entry] = []
        for file in files {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            guard let data = FileManager.default.contents(atPath: file) else {
                loaded.append(Entry(file: file, identifier: name, pages: nil,
                                    diagnostics: [Diagnostic(.error, .root, "The file cannot be read.")], removedMarkup: []))
                continue
            }
            let (task, diagnostics) = SurveyLoader.diagnose(data, name: name)
            guard let task else {
                loaded.append(Entry(file: file, identifier: name, pages: nil, diagnostics: diagnostics, removedMarkup: []))
                continue
            }
            do {
                let pages = try SurveyPages(task: task, library: library, checker: checker, preview: true)
                loaded.append(Entry(file: file, identifier: task.identifier, pages: pages, diagnostics: diagnostics,
                                    removedMarkup: pages.removedMarkup))
            } catch {
                loaded.append(Entry(file: file, identifier: task.identifier, pages: nil,
                                    diagnostics: diagnostics + [Diagnostic(.error, .root, "Template fault: \(error)")], removedMarkup: []))
            }
        }
        entries = loaded
    }

    /// The `.json` files named, and those in the folders named, in order.
    private func surveyFiles() -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [path] }
            return isFolder.boolValue ? Self.files(in: path, extension: "json") : [path]
        }
    }

    private static func files(in folder: String, extension wanted: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix("." + wanted) }.sorted().map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }

    private static func modified(_ file: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date) ?? .distantPast
    }
}
