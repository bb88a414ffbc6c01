import Foundation
import JSON

/// An item's condition in FHIR terms: `enableWhen` entries and their `enableBehavior`, or an
/// SDC `enableWhenExpression`.
struct FHIRExportCondition {
    var enableWhen: [JSONValue] = []
    /// `all` or `any`, when there is more than one entry.
    var behavior: String?
    var expression: String?

    /// The enableWhenExpression extension, when the condition is an expression.
    var extensions: [JSONValue] {
        expression.map { [FHIRJSON.extensionValue(FHIRExtensionURL.enableWhenExpression, "Expression", FHIRJSON.expression($0))] } ?? []
    }
}

// Predicates as enableWhen. A skip rule becomes its negation (the step is enabled when it is
// not skipped); a visibleIf is taken as it is. `not` is pushed inward: an operator turns into
// its inverse (= and !=, > and <=, < and >=, exists true and false), `all` into `any` and back.
// A condition that does not fit (dontKnow, matches, timeRange, several `choices`, an `any`
// inside an `all` or the reverse, an expression inside a compound) is left out with a note.

extension QuestionnaireExport.Builder {
    /// The enableWhen entries of a predicate, joined by one behaviour.
    private struct Clauses {
        var entries: [JSONValue]
        /// `all` or `any`; nil for one entry, which joins either way.
        var behavior: String?
    }

    /// Why a predicate cannot map, and where.
    private struct Refusal: Error {
        let path: JSONPath
        let reason: String
    }

    func enableCondition(_ predicate: JSONValue, at path: JSONPath, negated: Bool) -> FHIRExportCondition? {
        if let source = expressionSource(predicate, negated: negated) {
            return FHIRExportCondition(expression: source)
        }
        do {
            let clauses = try self.clauses(predicate, at: path, negated: negated)
            return FHIRExportCondition(enableWhen: clauses.entries, behavior: clauses.entries.count > 1 ? clauses.behavior : nil)
        } catch {
            note(error.path, "This condition cannot map to FHIR: \(error.reason); the item is left without it.")
            return nil
        }
    }

    /// The FHIRPath of a predicate that is an expression, or `not` of one.
    private func expressionSource(_ predicate: JSONValue, negated: Bool) -> String? {
        if let inner = predicate[fx: "not"] { return expressionSource(inner, negated: !negated) }
        guard let source = predicate[fx: "expression"]?.fxText else { return nil }
        return negated ? "(\(source)).not()" : source
    }

    private func clauses(_ predicate: JSONValue, at path: JSONPath, negated: Bool) throws(Refusal) -> Clauses {
        if let inner = predicate[fx: "not"] { return try clauses(inner, at: path / "not", negated: !negated) }
        for key in ["all", "any"] {
            guard let list = predicate[fx: key]?.fxArray else { continue }
            let behavior = (key == "all") != negated ? "all" : "any"
            guard !list.isEmpty else { throw Refusal(path: path / key, reason: "an empty \"\(key)\" has no enableWhen") }
            var entries: [JSONValue] = []
            for (index, element) in list.enumerated() {
                let elementPath = path / key / index
                if element[fx: "expression"] != nil {
                    throw Refusal(path: elementPath, reason: "an expression inside \"\(key)\" does not fit enableWhen")
                }
                let inner = try clauses(element, at: elementPath, negated: negated)
                if let innerBehavior = inner.behavior, innerBehavior != behavior {
                    throw Refusal(path: elementPath, reason: "\"\(innerBehavior)\" inside \"\(behavior)\" does not fit one enableBehavior")
                }
                entries += inner.entries
            }
            return Clauses(entries: entries, behavior: behavior)
        }
        if predicate[fx: "expression"] != nil {
            throw Refusal(path: path, reason: "an expression inside a compound does not fit enableWhen")
        }
        return try leaf(predicate, at: path, negated: negated)
    }

    /// A predicate on one question.
    private func leaf(_ predicate: JSONValue, at path: JSONPath, negated: Bool) throws(Refusal) -> Clauses {
        guard let selector = predicate[fx: "result"]?.fxText else { throw Refusal(path: path, reason: "the predicate names no question") }
        guard let target = survey.target(selector) else {
            throw Refusal(path: path / "result", reason: "\"\(selector)\" is no question of the Questionnaire")
        }
        func one(_ operation: String, _ value: JSONValue, _ key: String) throws(Refusal) -> JSONValue {
            try entry(target, operation: negated ? Self.inverse[operation]! : operation, value: value, at: path / key)
        }
        if let flag = predicate[fx: "answered"]?.fxBool {
            return Clauses(entries: [exists(target, flag != negated)])
        }
        if let flag = predicate[fx: "isNil"]?.fxBool {
            return Clauses(entries: [exists(target, flag == negated)])
        }
        if let operation = predicate[fx: "compare"]?.fxString, let value = predicate[fx: "value"] {
            guard Self.inverse[operation] != nil else { throw Refusal(path: path / "compare", reason: "\"\(operation)\" is no enableWhen operator") }
            return Clauses(entries: [try one(operation, value, "value")])
        }
        for key in ["equals", "choice"] {
            if let value = predicate[fx: key] { return Clauses(entries: [try one("=", value, key)]) }
        }
        if let values = predicate[fx: "choices"]?.fxArray {
            guard values.count == 1 else { throw Refusal(path: path / "choices", reason: "\"choices\" with several values has no single enableWhen") }
            return Clauses(entries: [try one("=", values[0], "choices")])
        }
        if predicate[fx: "minimum"] != nil || predicate[fx: "maximum"] != nil {
            var entries: [JSONValue] = []
            if let minimum = predicate[fx: "minimum"] { entries.append(try one(">=", minimum, "minimum")) }
            if let maximum = predicate[fx: "maximum"] { entries.append(try one("<=", maximum, "maximum")) }
            return Clauses(entries: entries, behavior: entries.count > 1 ? (negated ? "any" : "all") : nil)
        }
        for key in ["dontKnow", "matches", "minimumTime", "maximumTime"] where predicate[fx: key] != nil {
            throw Refusal(path: path / key, reason: "\"\(key)\" has no enableWhen operator")
        }
        throw Refusal(path: path, reason: "the predicate has no enableWhen equivalent")
    }

    /// Each operator and the one that holds when it does not.
    private static let inverse: [String: String] = ["=": "!=", "!=": "=", ">": "<=", "<=": ">", "<": ">=", ">=": "<"]

    private func exists(_ target: FHIRExportSurvey.Target, _ flag: Bool) -> JSONValue {
        .object(["question": .string(target.linkId), "operator": .string("exists"), "answerBoolean": .bool(flag)])
    }

    /// One enableWhen with its answer typed as the target question's answers are.
    private func entry(_ target: FHIRExportSurvey.Target, operation: String, value: JSONValue, at path: JSONPath) throws(Refusal) -> JSONValue {
        let kind = FHIRExportKind(question: target.question, path: target.path, text: text)
        guard let typed = kind.values(for: value).first, value.fxArray == nil else {
            throw Refusal(path: path, reason: "\(JSONWriter.string(value, pretty: false)) does not fit the \(kind.itemType) question \"\(target.linkId)\"")
        }
        return .object(JSONObject([
            ("question", .string(target.linkId)), ("operator", .string(operation)), ("answer" + typed.type, typed.value),
        ]))
    }
}
