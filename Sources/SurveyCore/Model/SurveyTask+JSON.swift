import Foundation
import JSON

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
        object["variables"] = NamedExpression.json(variables)
        object["fhir"] = fhir.map(JSONValue.object)
        object["redcap"] = redcap.map(JSONValue.object)
        object["consentDocument"] = consentDocument?.json
        if !parameters.isEmpty { object["parameters"] = .array(parameters.map(\.json)) }
        object["completionRedirect"] = completionRedirect?.json
        object["screenOutRedirect"] = screenOutRedirect?.json
        if !redirectHosts.isEmpty { object["redirectHosts"] = .array(redirectHosts.map(JSONValue.string)) }
        if !blocks.isEmpty { object["blocks"] = .array(blocks.map(\.json)) }
        if !quotas.isEmpty {
            object["quotas"] = .array(quotas.map {
                .object(JSONObject([("identifier", .string($0.identifier)), ("limit", .number(Double($0.limit))), ("when", $0.when.json)]))
            })
        }
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
        object["variables"] = NamedExpression.json(variables)
        object["fhir"] = fhir.map(JSONValue.object)
        object["redcap"] = redcap.map(JSONValue.object)
        switch kind {
        case .instruction:
            break
        case .completion:
            object["screensOut"] = screensOut.map(JSONValue.bool)
        case .allocation(let content):
            object["arms"] = .array(content.arms.map { arm in
                var entry = JSONObject([("value", .string(arm.value))])
                entry["weight"] = arm.weight == 1 ? nil : .number(Double(arm.weight))
                entry["text"] = arm.text?.json
                return .object(entry)
            })
            object["method"] = .string(content.method.rawValue)
            object["blockSize"] = content.blockSize.map { .number(Double($0)) }
            if !content.strata.isEmpty { object["strata"] = .array(content.strata.map { .string($0.raw) }) }
            object["participantParameter"] = content.participantParameter.map(JSONValue.string)
        case .question(let content):
            object["question"] = content.question?.json
            object["placeholder"] = content.placeholder?.json
            object["answerFormat"] = content.answerFormat.json
            content.behaviour.write(into: &object)
        case .form(let content):
            object["items"] = .array(content.items.map(\.json))
            object["footerText"] = content.footerText?.json
            object["repeat"] = content.repeating.map { repeating in
                .object(["label": repeating.label.json, "minimum": repeating.minimum == 0 ? nil : .number(Double(repeating.minimum)),
                         "maximum": .number(Double(repeating.maximum)), "summary": repeating.summary.map(JSONValue.string),
                         "addAnother": repeating.addAnother?.json])
            }
            object["grid"] = content.grid.map(JSONValue.bool)
        case .review(let content):
            object["excludeInstructionSteps"] = content.excludeInstructionSteps.map(JSONValue.bool)
        case .videoInstruction(let content):
            object["videoURL"] = content.videoURL.map(JSONValue.string)
            object["captionsURL"] = content.captionsURL.map(JSONValue.string)
        case .visualConsent:
            break
        case .consentSharing(let content):
            object["investigatorShortDescription"] = content.investigatorShortDescription.json
            object["investigatorLongDescription"] = content.investigatorLongDescription.json
        case .consentReview(let content):
            object["signature"] = .string(content.signature)
            object["reasonForConsent"] = content.reasonForConsent?.json
        }
        return .object(object)
    }
}

extension ConsentDocument {
    var json: JSONValue {
        var object = JSONObject()
        object["title"] = title.json
        object["version"] = .string(version)
        object["reviewText"] = reviewText?.json
        object["sections"] = .array(sections.map { section in
            .object(["type": .string(section.type.rawValue), "title": section.title?.json, "summary": section.summary?.json,
                     "content": section.content?.json, "learnMoreTitle": section.learnMoreTitle?.json])
        })
        object["signatures"] = .array(signatures.map { signature in
            .object(["identifier": .string(signature.identifier), "title": signature.title?.json,
                     "countersignature": signature.isCountersignature ? .bool(true) : nil])
        })
        return .object(object)
    }
}

extension FormItem {
    var json: JSONValue {
        switch self {
        case .section(let header):
            return .object(["sectionTitle": header.sectionTitle.json, "detailText": header.detailText?.json, "fhir": header.fhir.map(JSONValue.object)])
        case .note(let note):
            return .object(["note": note.note.json, "visibleIf": note.visibleIf?.json, "fhir": note.fhir.map(JSONValue.object)])
        case .question(let question):
            var object = JSONObject()
            object["identifier"] = .string(question.identifier)
            object["text"] = question.text?.json
            object["detailText"] = question.detailText?.json
            object["placeholder"] = question.placeholder?.json
            object["optional"] = question.optional.map(JSONValue.bool)
            object["answerFormat"] = question.answerFormat.json
            object["visibleIf"] = question.visibleIf?.json
            question.behaviour.write(into: &object)
            object["variables"] = NamedExpression.json(question.behaviour.variables)
            object["fhir"] = question.behaviour.fhir.map(JSONValue.object)
            object["redcap"] = question.behaviour.redcap.map(JSONValue.object)
            return .object(object)
        }
    }
}


extension QuestionBehaviour {
    /// The keys of a question's behaviour but its variables and FHIR details, which the caller writes.
    func write(into object: inout JSONObject) {
        object["readOnly"] = readOnly.map(JSONValue.bool)
        object["hidden"] = hidden.map(JSONValue.bool)
        object["initial"] = initial
        object["initialExpression"] = initialExpression.map(JSONValue.string)
        object["calculatedExpression"] = calculatedExpression.map(JSONValue.string)
        object["identifying"] = identifying.map(JSONValue.bool)
    }
}

extension NamedExpression {
    /// The list as the file writes it; none at all when empty.
    static func json(_ list: [NamedExpression]) -> JSONValue? {
        list.isEmpty ? nil : .array(list.map(\.json))
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

extension ExpectedValue {
    var json: JSONValue {
        switch self {
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .number(number)
        case .string(let text): return .string(text)
        }
    }
}

extension Predicate {
    /// The predicate as the survey file writes it.
    public var json: JSONValue {
        switch self {
        case .equals(let selector, let expected):
            return .object(["result": .string(selector.raw), "equals": expected.json])
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
        case .answered(let selector, let flag):
            return .object(["result": .string(selector.raw), "answered": .bool(flag)])
        case .compare(let selector, let operation, let expected):
            return .object(["result": .string(selector.raw), "compare": .string(operation.rawValue), "value": expected.json])
        case .expression(let source):
            return .object(["expression": .string(source)])
        case .not(let inner):
            return .object(["not": inner.json])
        case .everyInstance(let inner):
            guard case .object(var object) = inner.json else { return inner.json }
            object["instances"] = .string("all")
            return .object(object)
        case .all(let list):
            return .object(["all": .array(list.map(\.json))])
        case .any(let list):
            return .object(["any": .array(list.map(\.json))])
        }
    }
}
