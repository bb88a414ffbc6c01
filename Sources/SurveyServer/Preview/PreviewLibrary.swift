import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore
import SurveyImport
import SurveyRendering

/// The surveys a researcher previews, read again from disk whenever a survey file or a
/// template has changed since the last request, so the next page shows the new version. A
/// file with errors is kept with its messages instead of stopping the preview. The map of
/// each survey's paths is worked out once per version of the survey, on the path workers.
actor PreviewLibrary {
    /// One survey file as it now reads.
    struct Entry: Sendable {
        /// The file as the page shows it: relative to the folder given, so that no page shows
        /// where the researcher's files sit on the machine.
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

    /// The survey files and folders given, and the templates folder (the binary's templates when nil).
    let paths: [String]
    let templatesDirectory: String?
    /// A folder of FHIR packages whose ValueSets and CodeSystems Questionnaires may name.
    let fhirPackages: String?
    private var stamp: [String: Date] = [:]
    private var entries: [Entry] = []
    /// Why the templates cannot be used, when they cannot.
    private(set) var templateProblem: String?
    /// The templates as last read, when they could be.
    private(set) var mustache: MustacheLibrary?
    /// The map of each survey, for the version of its pages it was worked out on.
    private var maps: [String: (pages: SurveyPages, map: Task<PathMap, Never>)] = [:]
    /// The budget of a map or of a search for one step.
    let budget: PathBudget
    /// The threads the searches run on.
    let workers: PreviewPathWorkers

    init(paths: [String], templatesDirectory: String?, fhirPackages: String? = nil, budget: PathBudget = .page,
         workers: PreviewPathWorkers = .shared) {
        self.paths = paths
        self.fhirPackages = fhirPackages
        self.templatesDirectory = templatesDirectory
        self.budget = budget
        self.workers = workers
    }

    /// The map of `pages`' paths: worked out on the first request after the survey was (re)read,
    /// and the same for every request until it changes; requests that come while it is being
    /// worked out wait for the same one.
    func pathMap(of pages: SurveyPages) async -> PathMap {
        let identifier = pages.task.identifier
        if let known = maps[identifier], known.pages === pages { return await known.map.value }
        let (budget, workers) = (budget, workers)
        let map = Task { await workers.run { PathMap(finder: Self.finder(pages), budget: budget) } }
        maps[identifier] = (pages, map)
        return await map.value
    }

    /// The answers that reach one step, or why none do; nil when the search ran out of its budget.
    func reach(_ step: String, of pages: SurveyPages) async -> Reach? {
        let map = await pathMap(of: pages)
        if let entry = map.entries[step] { return entry.reach }
        let budget = budget
        return await workers.run { Self.finder(pages).reach(step, within: budget) }
    }

    private static func finder(_ pages: SurveyPages) -> PathFinder {
        PathFinder(task: pages.task, timeZone: pages.navigator.timeZone)
    }

    /// Every survey, read again first if anything changed on disk.
    @discardableResult
    func current() async -> [Entry] {
        let files = surveyFiles()
        let templates = templatesDirectory.map(ServerTemplates.files(in:)) ?? []
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
            library = try ServerTemplates.load(folder: templatesDirectory)
            templateProblem = nil
            mustache = library
        } catch {
            templateProblem = error.message(showing: URL(fileURLWithPath: error.folder).lastPathComponent)
            mustache = nil
            entries = []
            return
        }
        let checker = MarkupChecker(allowlist: MarkupChecker.templateAllowlist)
        var loaded: [Entry] = []
        // The terminology beside the files: the ValueSets and CodeSystems in their folders.
        var terminology = FHIRTerminology.load(surveysFolder: nil, packagesFolder: fhirPackages).terminology
        for folder in Set(files.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }).sorted() {
            let found = FHIRTerminology.load(surveysFolder: folder, packagesFolder: nil).terminology
            terminology.merge(found)
        }
        for file in files {
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            guard let data = FileManager.default.contents(atPath: file) else {
                loaded.append(Entry(file: shown(file), identifier: name, pages: nil,
                                    diagnostics: [Diagnostic(.error, .root, "The file cannot be read.")], removedMarkup: []))
                continue
            }
            if terminology.files.contains(URL(fileURLWithPath: file).standardizedFileURL.path) { continue }
            // A REDCap dictionary holds a survey per instrument.
            for (task, diagnostics) in SurveyFiles.diagnose(data, name: name, pathExtension: URL(fileURLWithPath: file).pathExtension,
                                                            terminology: terminology) {
                guard let task else {
                    loaded.append(Entry(file: shown(file), identifier: name, pages: nil, diagnostics: diagnostics, removedMarkup: []))
                    continue
                }
                do {
                    let pages = try SurveyPages(task: task, library: library, checker: checker, preview: true)
                    loaded.append(Entry(file: shown(file), identifier: task.identifier, pages: pages, diagnostics: diagnostics,
                                        removedMarkup: pages.removedMarkup))
                } catch {
                    loaded.append(Entry(file: shown(file), identifier: task.identifier, pages: nil,
                                        diagnostics: diagnostics + [Diagnostic(.error, .root, "Template fault: \(error)")], removedMarkup: []))
                }
            }
        }
        entries = loaded
        let kept = Set(loaded.map(\.identifier))
        maps = maps.filter { kept.contains($0.key) }
    }

    /// The `.json` files named, and those in the folders named, in order.
    private func surveyFiles() -> [String] {
        paths.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [path] }
            return isFolder.boolValue ? Self.files(in: path) : [path]
        }
    }

    /// A survey file as the pages show it: relative to the folder given that holds it, or its
    /// name alone when it was given itself.
    private func shown(_ file: String) -> String {
        for path in paths {
            let folder = URL(fileURLWithPath: path).standardizedFileURL.path
            let standard = URL(fileURLWithPath: file).standardizedFileURL.path
            if standard.hasPrefix(folder + "/") { return String(standard.dropFirst(folder.count + 1)) }
        }
        return URL(fileURLWithPath: file).lastPathComponent
    }

    private static func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { SurveyFiles.isSurveyFile(URL(fileURLWithPath: $0)) }.sorted()
            .map { URL(fileURLWithPath: folder).appendingPathComponent($0).path }
    }

    private static func modified(_ file: String) -> Date {
        ((try? FileManager.default.attributesOfItem(atPath: file))?[.modificationDate] as? Date) ?? .distantPast
    }
}
