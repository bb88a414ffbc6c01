import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore

/// A template mistake found when pages are built: the server refuses to start with it.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public let template: String
    public let problems: [String]
    public var description: String { "\(template): " + problems.joined(separator: "; ") }
}
