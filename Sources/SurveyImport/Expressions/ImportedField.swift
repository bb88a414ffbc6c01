import Foundation
/// What an expression needs to know of a field it names: the survey's selector for its result,
/// where its answer sits in the run's QuestionnaireResponse, and the kind of value it holds.
public struct ImportedField: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case boolean
        /// One choice; `numeric` when every value is a whole number.
        case choice(numeric: Bool)
        /// Several choices.
        case choices(numeric: Bool)
        case number
        case text
        case date
        case dateTime
        case time
    }

    /// `step` for a question step, `step.item` for a form's item.
    public let selector: String
    /// The linkIds from the response's top to the field's item.
    public let linkIds: [String]
    public let kind: Kind

    public init(selector: String, linkIds: [String], kind: Kind) {
        self.selector = selector
        self.linkIds = linkIds
        self.kind = kind
    }

    /// The FHIRPath of the field's answers: numbers, booleans, texts and dates as values, a choice
    /// by its value (an integer, or a Coding's code).
    var fhirPath: String {
        let walk = linkIds.map { ".item.where(linkId = \(FHIRPathText.quoted($0)))" }.joined()
        switch kind {
        case .choice(numeric: false), .choices(numeric: false): return "%resource\(walk).answer.value.code"
        default: return "%resource\(walk).answer.value"
        }
    }

    var isNumeric: Bool {
        switch kind {
        case .number, .choice(numeric: true), .choices(numeric: true): return true
        default: return false
        }
    }
}

enum FHIRPathText {
    /// A FHIRPath string literal.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
