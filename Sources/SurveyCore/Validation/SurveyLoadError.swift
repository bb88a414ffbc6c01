import Foundation
import JSON

/// A survey file that could not be loaded, with every error and warning found.
public struct SurveyLoadError: Error, Sendable, CustomStringConvertible {
    public let diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var errors: [Diagnostic] { diagnostics.filter(\.isError) }

    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
