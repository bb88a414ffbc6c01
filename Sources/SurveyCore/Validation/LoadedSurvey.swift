import Foundation
import JSON

/// A survey that loaded: the task, ready to run, with the warnings the checker found.
public struct LoadedSurvey: Sendable {
    public let task: SurveyTask
    public let warnings: [Diagnostic]

    public init(task: SurveyTask, warnings: [Diagnostic]) {
        self.task = task
        self.warnings = warnings
    }
}
