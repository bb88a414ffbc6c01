import Foundation
import JSON

/// The two functions Structured Data Capture adds to FHIRPath for scoring: `answers()` and
/// `ordinal()`.
extension FHIRPathEvaluator {
    /// Every answer of the input (a QuestionnaireResponse or its items) and of the items below
    /// it, those under answers included, in document order.
    mutating func answers(of input: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        var result: [FHIRPathValue] = []
        var pending = input[...]
        while let item = pending.popFirst() {
            try charge(1, at: position)
            guard case .node(.object) = item else { continue }
            let answers = FHIRPathNavigation.child("answer", of: item)
            try admit(result.count + answers.count, at: position)
            result += answers
            var below = FHIRPathNavigation.child("item", of: item)
            for answer in answers { below += FHIRPathNavigation.child("item", of: answer) }
            pending.append(contentsOf: below)
        }
        return result
    }

    /// The score of each coded input: the score extension on the Coding itself, else on the
    /// `answerOption` of `%questionnaire` (or the concept of a ValueSet it contains) with the
    /// same system and code. A Coding with no score gives nothing.
    mutating func ordinals(of input: [FHIRPathValue], at position: Int) throws(FHIRPathError) -> [FHIRPathValue] {
        var result: [FHIRPathValue] = []
        for item in input {
            try charge(1, at: position)
            guard case .node(.object(let coding)) = item, case .string(let code)? = coding["code"] else { continue }
            if let own = Self.score(in: coding) {
                result.append(own)
                continue
            }
            let system = coding["system"]
            if let found = try scoreInQuestionnaire(code: code, system: system, at: position) { result.append(found) }
        }
        return result
    }

    private mutating func scoreInQuestionnaire(code: String, system: JSONValue?, at position: Int) throws(FHIRPathError) -> FHIRPathValue? {
        guard let questionnaire = environment.questionnaire else { return nil }
        func matches(_ candidate: JSONObject, system candidateSystem: JSONValue?) -> Bool {
            guard candidate["code"] == .string(code) else { return false }
            guard let system, let candidateSystem else { return true }
            return system == candidateSystem
        }
        var pending: [JSONValue] = [questionnaire]
        while let node = pending.popLast() {
            try charge(1, at: position)
            switch node {
            case .object(let object):
                if case .object(let option)? = object["valueCoding"], matches(option, system: option["system"]) {
                    if let score = Self.score(in: object) ?? Self.score(in: option) { return score }
                }
                if object["valueCoding"] == nil, object["resourceType"] == nil, matches(object, system: object["system"]),
                   let score = Self.score(in: object) {
                    return score
                }
                pending.append(contentsOf: object.entries.map(\.value).reversed())
            case .array(let elements):
                pending.append(contentsOf: elements.reversed())
            default:
                break
            }
        }
        return nil
    }

    /// The value of the first score extension on an element.
    static func score(in object: JSONObject) -> FHIRPathValue? {
        guard case .array(let extensions)? = object["extension"] else { return nil }
        for url in FHIRScoreExtensions.urls {
            for case .object(let entry) in extensions where entry["url"] == .string(url) {
                for key in ["valueDecimal", "valueInteger"] {
                    if let value = entry[key] { return FHIRPathNavigation.values(of: value, key: key).first }
                }
            }
        }
        return nil
    }
}
