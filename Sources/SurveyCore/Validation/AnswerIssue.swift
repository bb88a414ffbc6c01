import Foundation

/// A problem with what a participant entered: data for the page, never an exception.
///
/// `field` is the form field to link to and mark (`temp`, `bed.hours`, `dob.day`);
/// `message` says what to do, in words a participant understands.
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

    public let field: String
    public let code: Code
    public let message: String

    public init(field: String, code: Code, message: String) {
        self.field = field
        self.code = code
        self.message = message
    }

    public var description: String { "\(field): \(code.rawValue): \(message)" }
}

/// The fields of a submitted form: each name with its values in the order sent
/// (checkboxes send one name several times).
public struct FormFields: Sendable, Hashable {
    public private(set) var values: [String: [String]]

    public init(_ values: [String: [String]] = [:]) {
        self.values = values
    }

    /// Fields written as JSON, `{"name": "value", "boxes": ["a", "b"]}`, as scripts and fixtures hold them.
    public init(json: JSONValue?) {
        var pairs: [(String, String)] = []
        if case .object(let fields)? = json {
            for (name, value) in fields.entries {
                switch value {
                case .string(let text): pairs.append((name, text))
                case .array(let values): for case .string(let text) in values { pairs.append((name, text)) }
                case .number(let number): pairs.append((name, JSONWriter.number(number)))
                case .bool(let flag): pairs.append((name, flag ? "true" : "false"))
                default: break
                }
            }
        }
        self.init(pairs: pairs)
    }

    public init(pairs: [(String, String)]) {
        var values: [String: [String]] = [:]
        for (name, value) in pairs { values[name, default: []].append(value) }
        self.values = values
    }

    /// The first value of a field, as a browser sends it.
    public subscript(name: String) -> String? { values[name]?.first }

    public func all(_ name: String) -> [String] { values[name] ?? [] }

    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The first value with surrounding white space removed; nil when absent or blank.
    public func trimmed(_ name: String) -> String? {
        guard let value = self[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }
}
