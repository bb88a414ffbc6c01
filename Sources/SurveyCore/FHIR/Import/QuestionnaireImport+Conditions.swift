import Foundation
import JSON

extension QuestionnaireImport.Reader {
    /// The operators that compare an answer with a value.
    static let comparisonOperators: Set<String> = ["=", "!=", ">", "<", ">=", "<="]

    /// The item's own condition (`enableWhen` with `enableBehavior`, and the SDC
    /// `enableWhenExpression`) as a predicate; nil when it has none.
    func condition(for item: Item) -> JSONValue? {
        let owner = "The item '\(item.linkId)'"
        var parts: [JSONValue] = []
        if let value = item.object["enableWhen"] {
            if case .array(let elements) = value {
                let predicates = elements.enumerated().compactMap { predicate($0.element, at: item.path / "enableWhen" / $0.offset, of: item) }
                var behaviour = "all"
                switch item.object["enableBehavior"] {
                case nil:
                    if elements.count > 1 {
                        warning(item.path / "enableWhen", "\(owner) has \(elements.count) enableWhen conditions but no enableBehavior; all of them must hold.")
                    }
                case .string("all")?:
                    break
                case .string("any")?:
                    behaviour = "any"
                default:
                    error(item.path / "enableBehavior", "\(owner) has an enableBehavior that is neither \"all\" nor \"any\".")
                }
                if predicates.count == 1 {
                    parts.append(predicates[0])
                } else if !predicates.isEmpty {
                    parts.append(.object([behaviour: .array(predicates)]))
                }
            } else {
                error(item.path / "enableWhen", "\(owner) has an enableWhen that is not a list of conditions.")
            }
        }
        if let entry = item.extensions.take(FHIRExtensionURL.enableWhenExpression), let (_, expression) = expression(of: entry, owner: owner) {
            parts.append(.object(["expression": .string(expression)]))
            item.expressionPaths["expression"] = entry.path / "valueExpression" / "expression"
        }
        return Self.allOf(parts)
    }

    /// The predicates joined by "all", nested "all"s flattened; nil for none, the predicate itself for one.
    static func allOf(_ parts: [JSONValue]) -> JSONValue? {
        var flat: [JSONValue] = []
        for part in parts {
            if case .object(let object) = part, object.keys == ["all"], case .array(let inner)? = object["all"] {
                flat += inner
            } else {
                flat.append(part)
            }
        }
        switch flat.count {
        case 0: return nil
        case 1: return flat[0]
        default: return .object(["all": .array(flat)])
        }
    }

    /// One enableWhen condition as a predicate on the result of the question it names.
    private func predicate(_ value: JSONValue, at path: JSONPath, of item: Item) -> JSONValue? {
        let owner = "The item '\(item.linkId)'"
        guard case .object(let condition) = value else {
            error(path, "\(owner) has an enableWhen condition that is not an object.")
            return nil
        }
        guard case .string(let linkId)? = condition["question"] else {
            error(path / "question", "\(owner) has an enableWhen condition that names no question.")
            return nil
        }
        guard let target = items[linkId] else {
            error(path / "question", "\(owner) depends on '\(linkId)', which is not the linkId of any item in this Questionnaire.")
            return nil
        }
        guard let selector = target.selector else {
            error(path / "question", "\(owner) depends on '\(linkId)', an item of type '\(target.type)' with no answer to test.")
            return nil
        }
        if target.order >= item.order {
            warning(path / "question", "\(owner) depends on '\(linkId)', which comes after it; the condition is judged before that answer is given.")
        }
        let answer = condition.entries.first { $0.key.hasPrefix("answer") && $0.key.count > 6 }
        let operation: String
        switch condition["operator"] {
        case .string(let given)?:
            operation = given
        case nil:
            // STU3: `hasAnswer` for exists, and an answer with no operator for equality.
            if case .bool(let flag)? = condition["hasAnswer"] {
                return .object(["result": .string(selector), "answered": .bool(flag)])
            }
            guard answer != nil else {
                error(path, "\(owner) has an enableWhen condition on '\(linkId)' with neither an operator nor an answer.")
                return nil
            }
            operation = "="
        default:
            error(path / "operator", "\(owner) has an enableWhen operator that is not a string.")
            return nil
        }
        if operation == "exists" {
            guard let answer, answer.key == "answerBoolean", case .bool(let flag) = answer.value else {
                error(path, "\(owner) tests whether '\(linkId)' exists but gives no answerBoolean (true or false).")
                return nil
            }
            return .object(["result": .string(selector), "answered": .bool(flag)])
        }
        guard Self.comparisonOperators.contains(operation) else {
            error(path / "operator", "\(owner) has the enableWhen operator '\(operation)', which is not one of exists, =, !=, >, <, >=, <=.")
            return nil
        }
        guard let answer else {
            error(path, "\(owner) compares '\(linkId)' with '\(operation)' but gives no answer to compare with.")
            return nil
        }
        guard let compared = comparedValue(answer.key, answer.value, at: path / answer.key, target: target, of: item) else { return nil }
        return .object(["result": .string(selector), "compare": .string(operation), "value": compared])
    }

    /// The value a condition compares with, in the shape the target's result records it.
    private func comparedValue(_ key: String, _ value: JSONValue, at path: JSONPath, target: Item, of item: Item) -> JSONValue? {
        let owner = "The item '\(item.linkId)'"
        switch (key, value) {
        case ("answerBoolean", .bool), ("answerDecimal", .number), ("answerInteger", .number),
             ("answerDate", .string), ("answerDateTime", .string), ("answerString", .string):
            return value
        case ("answerTime", .string(let time)):
            return .string(String(time.prefix(5)))
        case ("answerQuantity", .object(let quantity)):
            if case .number? = quantity["value"] { return quantity["value"] }
        case ("answerCoding", .object(let coding)):
            if let choice = target.choices.first(where: { $0.matches(coding) }) { return choice.value }
            var named = "a code"
            if case .string(let code)? = coding["code"] { named = "the code '\(code)'" }
            if case .string(let system)? = coding["system"] { named += " of \(system)" }
            error(path, "\(owner) depends on '\(target.linkId)' being \(named), but '\(target.linkId)' offers no option with that code.")
            return nil
        case ("answerReference", _):
            error(path, "\(owner) depends on a reference given as the answer to '\(target.linkId)', which this presenter cannot collect.")
            return nil
        default:
            break
        }
        let article = key.first.map { "aeiou".contains($0.lowercased()) } == true ? "an" : "a"
        error(path, "\(owner) compares '\(target.linkId)' with \(article) \(key) this presenter cannot read.")
        return nil
    }
}
