import Foundation

// Writing the model back as format v1. Keys the author left out stay out, so a file
// that is read and written again keeps its meaning and its defaults.

extension SurveyTask {
    /// The survey as a format v1 JSON document.
    public var json: JSONValue {
        var object = JSONObject()
        object["identifier"] = .string(identifier)
        object["title"] = title?.json
        object["shouldReportProgress"] = shouldReportProgress.map(JSONValue.bool)
        object["languages"] = languages.map { .array($0.map(JSONValue.string)) }
        object["timeZone"] = timeZone.map(JSONValue.string)
        object["showAnswersOnCompletion"] = showAnswersOnCompletion.map(JSONValue.bool)
        object["kioskIdle"] = kioskIdle.map { .string($0.rawValue) }
        object["steps"] = .array(steps.map(\.json))
        if !navigationRules.isEmpty {
            object["navigationRules"] = .object(JSONObject(navigationRules.map { ($0.stepIdentifier, $0.rule.json) }))
        }
        if !skipRules.isEmpty {
            object["skipRules"] = .object(JSONObject(skipRules.map { ($0.stepIdentifier, $0.predicate.json) }))
        }
        return .object(object)
    }
}

extension Step {
    var json: JSONValue {
        var object = JSONObject()
        object["identifier"] = .string(identifier)
        object["type"] = .string(kind.typeName)
        object["title"] = title?.json
        object["text"] = text?.json
        object["detailText"] = detailText?.json
        object["footnote"] = footnote?.json
        object["image"] = image.map(JSONValue.string)
        object["imageAlt"] = imageAlt?.json
        object["optional"] = optional.map(JSONValue.bool)
        object["showsProgress"] = showsProgress.map(JSONValue.bool)
        if let learnMore {
            object["learnMore"] = .object(["title": learnMore.title?.json, "text": learnMore.text.json])
        }
        switch kind {
        case .instruction, .completion:
            break
        case .question(let content):
            object["question"] = content.question?.json
            object["placeholder"] = content.placeholder?.json
            object["answerFormat"] = content.answerFormat.json
        case .form(let content):
            object["items"] = .array(content.items.map(\.json))
            object["footerText"] = content.footerText?.json
        case .review(let content):
            object["excludeInstructionSteps"] = content.excludeInstructionSteps.map(JSONValue.bool)
        case .videoInstruction(let content):
            object["videoURL"] = content.videoURL.map(JSONValue.string)
            object["captionsURL"] = content.captionsURL.map(JSONValue.string)
        }
        return .object(object)
    }
}

extension FormItem {
    var json: JSONValue {
        switch self {
        case .section(let header):
            return .object(["sectionTitle": header.sectionTitle.json, "detailText": header.detailText?.json])
        case .question(let question):
            return .object([
                "identifier": .string(question.identifier), "text": question.text?.json, "detailText": question.detailText?.json,
                "placeholder": question.placeholder?.json, "optional": question.optional.map(JSONValue.bool),
                "answerFormat": question.answerFormat.json, "visibleIf": question.visibleIf?.json,
            ])
        }
    }
}


extension AnswerFormat {
    var json: JSONValue {
        var object = JSONObject([("type", .string(typeName))])
        for entry in rules.jsonKeys.entries { object[entry.key] = entry.value }
        if let dontKnow {
            object["showDontKnowButton"] = dontKnow.show.map(JSONValue.bool)
            object["customDontKnowButtonText"] = dontKnow.buttonText?.json
        }
        return .object(object)
    }
}

extension NavigationRule {
    var json: JSONValue {
        switch self {
        case .direct(let destination):
            return .object(["type": .string("direct"), "destination": .string(destination.description)])
        case .predicate(let rules, let fallback):
            return .object([
                "type": .string("predicate"),
                "rules": .array(rules.map { .object(["if": $0.predicate.json, "destination": .string($0.destination.description)]) }),
                "default": fallback.map { .string($0.description) },
            ])
        }
    }
}

extension Predicate {
    /// The predicate as the survey file writes it.
    public var json: JSONValue {
        switch self {
        case .equals(let selector, let expected):
            let value: JSONValue
            switch expected {
            case .bool(let flag): value = .bool(flag)
            case .number(let number): value = .number(number)
            case .string(let text): value = .string(text)
            }
            return .object(["result": .string(selector.raw), "equals": value])
        case .choice(let selector, let value):
            return .object(["result": .string(selector.raw), "choice": value.json])
        case .choices(let selector, let values):
            return .object(["result": .string(selector.raw), "choices": .array(values.map(\.json))])
        case .matches(let selector, let pattern):
            return .object(["result": .string(selector.raw), "matches": .string(pattern)])
        case .range(let selector, let minimum, let maximum):
            func bound(_ bound: RangeBound?) -> JSONValue? {
                switch bound {
                case .number(let number)?: return .number(number)
                case .date(let text)?: return .string(text)
                case nil: return nil
                }
            }
            return .object(["result": .string(selector.raw), "minimum": bound(minimum), "maximum": bound(maximum)])
        case .timeRange(let selector, let minimum, let maximum):
            return .object(["result": .string(selector.raw), "minimumTime": minimum.map(JSONValue.string), "maximumTime": maximum.map(JSONValue.string)])
        case .isNil(let selector, let flag):
            return .object(["result": .string(selector.raw), "isNil": .bool(flag)])
        case .dontKnow(let selector, let flag):
            return .object(["result": .string(selector.raw), "dontKnow": .bool(flag)])
        case .not(let inner):
            return .object(["not": inner.json])
        case .all(let list):
            return .object(["all": .array(list.map(\.json))])
        case .any(let list):
            return .object(["any": .array(list.map(\.json))])
        }
    }
}
