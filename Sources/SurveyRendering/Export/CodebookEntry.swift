import Foundation
import JSON
import SurveyAnalysis
import SurveyCore

/// What one column of the wide CSV holds, in words: the codebook's row, and what the R and
/// SPSS syntax declare for the column.
public struct CodebookEntry: Sendable {
    /// How a column's values are read: numbers (with value labels where they are codes), text,
    /// or ISO 8601 dates and times kept as text.
    public enum Storage: String, Sendable {
        case number
        case text
        case date
    }

    public var name: String
    public var label: String
    /// The format's `type` in the survey file, or the run column's kind.
    public var type: String
    public var storage: Storage
    /// Value and label pairs, for codes.
    public var values: [(value: String, label: String)]
    public var range: String
    public var unit: String
    public var optional: Bool?
    public var shownWhen: String
    public var note: String
    /// Whether empty cells carry missing codes in the coded CSV (the question columns).
    public var takesMissingCodes: Bool
    /// The column identifies the participant; it is in an export only when asked for.
    public var identifying = false
}
