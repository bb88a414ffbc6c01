import Foundation
import JSON

/// A survey ready to run: the checked task, its navigator, its version and the survey as the
/// product writes it, made once when the survey loads. Runs need nothing more; their pages are
/// drawn by the renderer.
public final class RunnableSurvey: Sendable {
    public let task: SurveyTask
    public let navigator: Navigator
    /// ``SurveyTask/version``, worked out once.
    public let version: String
    /// ``SurveyTask/json``, written once.
    public let json: JSONValue

    /// - Parameter timeZone: the zone the navigator reads dates in; the participant's when nil.
    public init(task: SurveyTask, timeZone: TimeZone? = nil) {
        self.task = task
        navigator = Navigator(task: task, timeZone: timeZone)
        version = task.version
        json = task.json
    }
}
