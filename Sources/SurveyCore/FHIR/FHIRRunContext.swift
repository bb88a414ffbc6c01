import Foundation
import JSON

/// Whom and which visit a run is about, as an EHR names them: FHIR References given when the
/// run was started through the API. The QuestionnaireResponse and every Observation taken from
/// it carry them as `subject` and `encounter`.
public struct FHIRRunContext: Sendable, Hashable {
    /// The patient (or other subject) the answers are about: a Reference.
    public var subject: JSONObject?
    /// The visit during which the answers were given: a Reference.
    public var encounter: JSONObject?

    public init(subject: JSONObject? = nil, encounter: JSONObject? = nil) {
        self.subject = subject
        self.encounter = encounter
    }

    public var isEmpty: Bool { subject == nil && encounter == nil }

    /// `{"subject": …, "encounter": …}`, as stored and as the API shows it.
    public var json: JSONValue {
        var object = JSONObject()
        if let subject { object["subject"] = .object(subject) }
        if let encounter { object["encounter"] = .object(encounter) }
        return .object(object)
    }

    /// The context stored as `json` wrote it; nil for anything else.
    public init?(json: JSONValue) {
        guard case .object(let object) = json else { return nil }
        if case .object(let subject)? = object["subject"] { self.subject = subject }
        if case .object(let encounter)? = object["encounter"] { self.encounter = encounter }
    }

    /// The keys a Reference may have here.
    static let referenceKeys: Set<String> = ["reference", "type", "identifier", "display"]

    /// A Reference as a client sends it: `"Patient/123"` for short, or an object with
    /// `reference`, `type`, `identifier` (`system` and `value`) and `display`. The error is a
    /// sentence naming `key`.
    public static func reference(_ value: JSONValue, key: String) -> Result<JSONObject, ReferenceError> {
        let shape = "\"\(key)\" must be a FHIR Reference: a string such as \"Patient/123\", or an object with \"reference\", \"identifier\", \"type\" or \"display\"."
        switch value {
        case .string(let text):
            guard isPlainText(text, limit: 500) else { return .failure(ReferenceError(message: shape)) }
            return .success(JSONObject([("reference", .string(text))]))
        case .object(let object):
            guard !object.entries.isEmpty, object.keys.allSatisfy(referenceKeys.contains),
                  object["reference"] != nil || object["identifier"] != nil else { return .failure(ReferenceError(message: shape)) }
            for key in ["reference", "type", "display"] {
                guard let member = object[key] else { continue }
                guard case .string(let text) = member, isPlainText(text, limit: 500) else { return .failure(ReferenceError(message: shape)) }
            }
            if let identifier = object["identifier"] {
                guard case .object(let fields) = identifier, fields.keys.allSatisfy(["system", "value"].contains),
                      case .string(let text)? = fields["value"], isPlainText(text, limit: 500) else {
                    return .failure(ReferenceError(message: "\"\(key).identifier\" must be an object with a \"value\" and, if wanted, a \"system\"."))
                }
                if let system = fields["system"] {
                    guard case .string(let text) = system, isPlainText(text, limit: 500) else {
                        return .failure(ReferenceError(message: "\"\(key).identifier.system\" must be a URI."))
                    }
                }
            }
            return .success(object)
        default:
            return .failure(ReferenceError(message: shape))
        }
    }

    /// One to `limit` characters, none of them control characters, with something besides spaces.
    private static func isPlainText(_ text: String, limit: Int) -> Bool {
        !text.trimmingCharacters(in: .whitespaces).isEmpty && text.count <= limit
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    public struct ReferenceError: Error, Sendable {
        public let message: String
    }
}
