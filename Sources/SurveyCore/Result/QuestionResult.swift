import Foundation
import JSON

/// One question's result: its answer (none when skipped or left empty) and when it was given.
public struct QuestionResult: Sendable, Hashable, Codable {
    public var identifier: String
    public var type: QuestionResultType
    public var startDate: Date
    public var endDate: Date
    public var answer: Answer?
    /// Numeric results: the format's unit (`cm` and `kg` for height and weight).
    public var unit: String?
    public var displayUnit: String?
    /// Date results: the IANA zone the answer was read in.
    public var timeZone: String?
    /// Multiple value picker results.
    public var separator: String?

    public init(identifier: String, type: QuestionResultType, startDate: Date, endDate: Date, answer: Answer?,
                unit: String? = nil, displayUnit: String? = nil, timeZone: String? = nil, separator: String? = nil) {
        self.identifier = identifier
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.answer = answer
        self.unit = unit
        self.displayUnit = displayUnit
        self.timeZone = timeZone
        self.separator = separator
    }
}
