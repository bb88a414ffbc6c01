import Foundation
import JSON

/// A problem with what a participant entered: data for the page, never an exception and
/// never a sentence. `field` is the form field to link to and mark (`temp`, `bed.hours`,
/// `dob.day`); `code` is the kind of problem; `problem` says exactly what to ask for, with its
/// numbers, and the renderer words it in the participant's language.
public struct AnswerIssue: Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A required question has no answer.
        case required
        /// Not a number at all.
        case notANumber
        /// A fraction where a whole number is needed.
        case notAWholeNumber
        /// More fraction digits than the format allows.
        case tooManyFractionDigits
        /// A number, date, time or age outside the allowed bounds.
        case outOfRange
        /// Text longer than `maximumLength`.
        case tooLong
        /// Text shorter than `minimumLength`.
        case tooShort
        /// Text that does not match the author's expression.
        case pattern
        /// Not an email address.
        case email
        /// Not a real date or time.
        case invalidDate
        /// A date outside the allowed dates.
        case dateOutOfRange
        /// A time not on the format's minute interval or step.
        case notOnInterval
        /// A value that is not one of the choices (a tampered or stale form).
        case notAChoice
        /// An exclusive choice sent with other choices.
        case exclusive
        /// "Other" chosen with no text where text is needed, or text with another choice.
        case otherText
        /// Some parts of a multi-part answer given, others not.
        case incomplete
        /// A single choice sent with several values.
        case tooManyChoices
        /// A field that takes one value sent twice with different values.
        case conflictingValues
    }

    /// What a required question asks for when it is left empty.
    public enum MissingAnswer: String, Sendable, Hashable, CaseIterable {
        case choice, date, time, duration, email, address, height, weight, age, number, text
    }

    /// A part of a date typed in three boxes.
    public enum DatePart: String, Sendable, Hashable, CaseIterable {
        case day, month, year
    }

    /// What to ask the participant for, with the values the words need.
    public enum Problem: Sendable, Hashable {
        case missing(MissingAnswer)
        /// Two different values for a field that takes one.
        case conflictingValues
        /// A value that is not one of the options.
        case selectAnOption
        case selectOneOnly
        case selectEveryList
        /// Text typed in the box of an "other" choice that is not chosen.
        case otherNotChosen(choice: LocalizedText)
        /// An exclusive choice chosen with others.
        case exclusiveWithOthers(choice: LocalizedText)
        /// An "other" choice that needs its text.
        case otherTextMissing(choice: LocalizedText)
        /// Not a number: "like 12" for whole numbers, "like 12 or 3.5" otherwise.
        case enterNumber(whole: Bool)
        case fractionDigits(Int)
        /// `unit` is written right after the number (" mg", "%").
        case numberBetween(low: Double, high: Double, unit: String)
        case numberAtLeast(Double, unit: String)
        case numberAtMost(Double, unit: String)
        case scaleValueBetween(low: Int, high: Int)
        case enterTime
        case timeOnInterval(minutes: Int)
        case hoursRange
        case minutesRange
        case minutesInSteps(Int)
        case enterDate
        case realDate
        case datePartMissing(DatePart)
        case yearFourDigits
        case dateBetween(earliest: CalendarDate?, latest: CalendarDate?)
        case momentNotBefore(Date, TimeZone)
        case momentNotAfter(Date, TimeZone)
        case tooLong(limit: Int)
        case tooShort(limit: Int)
        /// The author's `invalidMessage` (with `%@` for the answer), or nil for the default.
        case pattern(message: LocalizedText?, answer: String)
        case email
        case ageWholeYears
        case ageBetween(low: Int, high: Int)
        case heightCentimetres
        case heightBetweenCentimetres
        case heightAboveZero
        case feetRange
        case inchesRange
        case weightNumber(pounds: Bool)
        case weightBetween(low: Double, high: Double, pounds: Bool)
        case poundsWhole
        case ouncesRange
        /// A repeating form left with fewer instances than it needs.
        case instancesAtLeast(Int)
        /// An entry of the renderer's catalog, for forms outside a survey step (the resume code).
        case catalogEntry(String)
    }

    public let field: String
    public let code: Code
    public let problem: Problem

    public init(field: String, code: Code, problem: Problem) {
        self.field = field
        self.code = code
        self.problem = problem
    }

    public var description: String { "\(field): \(code.rawValue): \(problem)" }
}
