import Foundation
import JSON

/// One finding about a survey file: an error stops it from loading, a warning does not.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
    }

    public let severity: Severity
    public let path: JSONPath
    public let message: String

    public init(_ severity: Severity, _ path: JSONPath, _ message: String) {
        self.severity = severity
        self.path = path
        self.message = message
    }

    public var isError: Bool { severity == .error }

    /// `error: $.steps[1].answerFormat.step: The step must divide …`
    public var description: String { "\(severity.rawValue): \(path): \(message)" }
}

/// Collects every finding while a survey file is read and checked.
final class DiagnosticLog {
    private(set) var diagnostics: [Diagnostic] = []
    /// Every text read, with its path, for the language checks.
    var texts: [(path: JSONPath, text: LocalizedText)] = []
    /// Steps that could not be read whole: references to them are not reported again.
    var brokenSteps: Set<String> = []

    func error(_ path: JSONPath, _ message: String) {
        diagnostics.append(Diagnostic(.error, path, message))
    }

    func warning(_ path: JSONPath, _ message: String) {
        diagnostics.append(Diagnostic(.warning, path, message))
    }

    var hasErrors: Bool { diagnostics.contains(where: \.isError) }
}
