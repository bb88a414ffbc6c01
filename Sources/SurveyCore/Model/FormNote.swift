import Foundation
import JSON

/// A form's paragraph of text between questions (a Questionnaire's display item in a group).
public struct FormNote: Sendable, Hashable {
    public var note: LocalizedText
    public var visibleIf: Predicate?
    public var fhir: JSONObject?

    public init(note: LocalizedText, visibleIf: Predicate? = nil, fhir: JSONObject? = nil) {
        self.note = note
        self.visibleIf = visibleIf
        self.fhir = fhir
    }
}
