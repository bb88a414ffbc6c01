import Foundation
import JSON

/// A date answer: a calendar day for the `date` style, an instant for `dateAndTime`.
public enum DateAnswer: Sendable, Hashable, Codable {
    case day(CalendarDate)
    case instant(Date)
}
