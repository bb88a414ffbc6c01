import Foundation
import JSON

/// How a question gets its answer besides the participant typing it: read-only and hidden
/// questions, initial values and FHIRPath expressions (additions to format v1, see docs/fhir.md).
public struct QuestionBehaviour: Sendable, Hashable {
    /// Shown with its value but not editable.
    public var readOnly: Bool?
    /// Not shown; its answer is recorded as a read-only question's is.
    public var hidden: Bool?
    /// The answer before the participant gives one, in the shape the result records it.
    public var initial: JSONValue?
    /// FHIRPath giving the initial answer when the question first shows.
    public var initialExpression: String?
    /// FHIRPath giving the answer, always; the question is read-only.
    public var calculatedExpression: String?
    /// Named FHIRPath values in scope for this question.
    public var variables: [NamedExpression]
    /// What a FHIR Questionnaire item said that the survey does not show (`linkId`, `code`, `prefix`, `type`, `within`, `extension`).
    public var fhir: JSONObject?
    /// What a REDCap data dictionary's row said that the survey does not show (docs/redcap-and-xlsform.md).
    public var redcap: JSONObject?
    /// The answer identifies the participant (REDCap's "Identifier?"): the exports leave it out unless asked.
    public var identifying: Bool?

    public init(readOnly: Bool? = nil, hidden: Bool? = nil, initial: JSONValue? = nil, initialExpression: String? = nil,
                calculatedExpression: String? = nil, variables: [NamedExpression] = [], fhir: JSONObject? = nil, identifying: Bool? = nil) {
        self.identifying = identifying
        self.readOnly = readOnly
        self.hidden = hidden
        self.initial = initial
        self.initialExpression = initialExpression
        self.calculatedExpression = calculatedExpression
        self.variables = variables
        self.fhir = fhir
    }

    /// The participant does not type this answer: the server works it out.
    public var isComputed: Bool { readOnly == true || hidden == true || calculatedExpression != nil }

    /// Not shown on the page at all.
    public var isHidden: Bool { hidden == true }

    public var isIdentifying: Bool { identifying == true }

    /// Every FHIRPath expression, with the key that holds it.
    public var expressions: [(key: String, source: String)] {
        [("initialExpression", initialExpression), ("calculatedExpression", calculatedExpression)].compactMap { entry in
            entry.1.map { (entry.0, $0) }
        }
    }
}
