import Foundation
import SurveyCore
import Testing

/// Helpers the Swift suites share: the repository's folders, inline surveys and a run driven
/// page by page.

/// Where the repository's files are, found from this source file.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let examples = root.appendingPathComponent("Examples")
    public static let fixtures = root.appendingPathComponent("Tests/SurveyCoreTests/Fixtures")

    public static func jsonFiles(in folder: URL) -> [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    public static func exampleNames() -> [String] {
        jsonFiles(in: examples).map(\.lastPathComponent)
    }
}

/// Loads a survey written inline, failing the test with every diagnostic when it does not load.
public func loadSurvey(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> SurveyTask {
    do {
        return try SurveyLoader.load(Data(json.utf8)).task
    } catch {
        Issue.record("The survey did not load:\n\(error.description)", sourceLocation: sourceLocation)
        throw error
    }
}

/// A fixed instant for tests: 2026-11-21 10:00:00 UTC.
public let referenceNow = Date(timeIntervalSince1970: 1_795_255_200)
public let utc = TimeZone(identifier: "UTC")!

/// Drives a run the way a browser would, one page at a time, with instants a second apart.
public struct Walker {
    public let navigator: Navigator
    public var run: TaskRun
    public var now: Date

    public init(_ task: SurveyTask, now: Date = referenceNow) {
        navigator = Navigator(task: task, timeZone: utc)
        self.now = now
        run = navigator.start(uuid: UUID(uuidString: "9A1C0000-0000-4000-8000-000000000001")!, now: now)
    }

    public var currentIdentifier: String? { run.isFinished ? nil : run.current?.stepIdentifier }
    public var pathIdentifiers: [String] { run.path.map(\.stepIdentifier) }

    public mutating func tick() -> Date {
        now = now.addingTimeInterval(1)
        return now
    }

    /// Submits the current page; records an issue if it is refused.
    @discardableResult
    public mutating func next(_ fields: [String: String] = [:], multi: [String: [String]] = [:], sourceLocation: SourceLocation = #_sourceLocation) -> [AnswerIssue] {
        var values = fields.mapValues { [$0] }
        for (key, list) in multi { values[key] = list }
        let context = AnswerContext(language: "en", now: tick(), timeZone: utc)
        switch navigator.answer(run, visit: run.cursor, fields: FormFields(values), context: context) {
        case .accepted(let next):
            run = next
            return []
        case .rejected(let issues):
            return issues
        }
    }

    public mutating func edit(visit index: Int, _ fields: [String: String], returnToCurrent: Bool = false) -> [AnswerIssue] {
        let context = AnswerContext(language: "en", now: tick(), timeZone: utc)
        switch navigator.answer(run, visit: index, fields: FormFields(fields.mapValues { [$0] }), context: context, returnToCurrent: returnToCurrent) {
        case .accepted(let next):
            run = next
            return []
        case .rejected(let issues):
            return issues
        }
    }

    public mutating func back() {
        run = navigator.back(run, now: tick())
    }

    public mutating func skip() {
        run = navigator.skip(run, visit: run.cursor, now: tick())
    }

    public var result: TaskResult { navigator.result(of: run, now: now) }
}
