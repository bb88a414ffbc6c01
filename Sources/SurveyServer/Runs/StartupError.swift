import Foundation
import Mustache
import SurveyCore
import SurveyRendering

/// Why the server cannot start: a survey or template fault, with every message.
public struct StartupError: Error, CustomStringConvertible {
    public let messages: [String]
    public var description: String { messages.joined(separator: "\n") }
}
