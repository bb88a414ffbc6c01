import Foundation
import JSON

/// What a participant's request carries besides the fields: their language, the time and
/// the zone in which dates are read.
public struct AnswerContext: Sendable {
    public var language: String?
    public var now: Date
    public var timeZone: TimeZone

    public init(language: String? = nil, now: Date = Date(), timeZone: TimeZone = .current) {
        self.language = language
        self.now = now
        self.timeZone = timeZone
    }
}
