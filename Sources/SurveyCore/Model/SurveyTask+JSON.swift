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

private func number(_ value: Double?) -> JSONValue? { value.map(JSONValue.number) }
private func integer(_ value: Int?) -> JSONValue? { value.map { .number(Double($0)) } }
private func flag(_ value: Bool?) -> JSONValue? { value.map(JSONValue.bool) }
private func string(_ value: String?) -> JSONValue? { value.map(JSONValue.string) }

extension AnswerFormat {
    var json: JSONValue {
        var object: JSONObject
        switch self {
        case .boolean(let format):
            object = JSONObject([("yes", format.yes?.json), ("no", format.no?.json)].compactMap { pair in pair.1.map { (pair.0, $0) } })
        case .textChoice(let format):
            object = JSONObject([("style", .string(format.style.rawValue)), ("choices", .array(format.choices.map(\.json)))])
        case .valuePicker(let format):
            object = JSONObject([("choices", .array(format.choices.map(\.json)))])
        case .multipleValuePicker(let format):
            object = JSONObject([("pickers", .array(format.pickers.map { .array($0.map(\.json)) }))])
            object["separator"] = string(format.separator)
        case .imageChoice(let format):
            object = JSONObject()
            object["style"] = format.style.map { .string($0.rawValue) }
            object["choices"] = .array(format.choices.map { choice in
                .object(["image": .string(choice.image), "imageAlt": choice.imageAlt.json, "text": choice.text?.json, "value": choice.value.json])
            })
        case .scale(let format):
            object = JSONObject()
            object["minimum"] = integer(format.minimum)
            object["maximum"] = integer(format.maximum)
            object["step"] = integer(format.step)
            object["defaultValue"] = integer(format.defaultValue)
            object["vertical"] = flag(format.vertical)
            object["minimumValueDescription"] = format.minimumValueDescription?.json
            object["maximumValueDescription"] = format.maximumValueDescription?.json
        case .continuousScale(let format):
            object = JSONObject()
            object["minimum"] = number(format.minimum)
            object["maximum"] = number(format.maximum)
            object["maximumFractionDigits"] = integer(format.maximumFractionDigits)
            object["defaultValue"] = number(format.defaultValue)
            object["vertical"] = flag(format.vertical)
            object["numberStyle"] = format.numberStyle.map { .string($0.rawValue) }
            object["minimumValueDescription"] = format.minimumValueDescription?.json
            object["maximumValueDescription"] = format.maximumValueDescription?.json
        case .textScale(let format):
            object = JSONObject([("choices", .array(format.choices.map(\.json)))])
            object["defaultIndex"] = integer(format.defaultIndex)
            object["vertical"] = flag(format.vertical)
        case .numeric(let format):
            object = JSONObject()
            object["style"] = format.style.map { .string($0.rawValue) }
            object["unit"] = string(format.unit)
            object["displayUnit"] = string(format.displayUnit)
            object["minimum"] = number(format.minimum)
            object["maximum"] = number(format.maximum)
            object["maximumFractionDigits"] = integer(format.maximumFractionDigits)
            object["defaultNumericAnswer"] = number(format.defaultNumericAnswer)
        case .timeOfDay(let format):
            object = JSONObject()
            object["defaultComponents"] = string(format.defaultComponents)
            object["minuteInterval"] = integer(format.minuteInterval)
        case .date(let format):
            object = JSONObject()
            object["style"] = format.style.map { .string($0.rawValue) }
            object["minimumDate"] = string(format.minimumDate)
            object["maximumDate"] = string(format.maximumDate)
            object["defaultDate"] = string(format.defaultDate)
            object["daysBeforeCurrentDate"] = integer(format.daysBeforeCurrentDate)
            object["daysAfterCurrentDate"] = integer(format.daysAfterCurrentDate)
            object["minuteInterval"] = integer(format.minuteInterval)
        case .timeInterval(let format):
            object = JSONObject()
            object["defaultInterval"] = number(format.defaultInterval)
            object["step"] = integer(format.step)
        case .text(let format):
            object = JSONObject()
            object["maximumLength"] = integer(format.maximumLength)
            object["multipleLines"] = flag(format.multipleLines)
            object["validationRegularExpression"] = string(format.validationRegularExpression)
            object["invalidMessage"] = format.invalidMessage?.json
            object["defaultTextAnswer"] = string(format.defaultTextAnswer)
        case .email:
            object = JSONObject()
        case .height(let format):
            object = JSONObject()
            object["measurementSystem"] = format.measurementSystem.map { .string($0.rawValue) }
        case .weight(let format):
            object = JSONObject()
            object["measurementSystem"] = format.measurementSystem.map { .string($0.rawValue) }
            object["numericPrecision"] = format.numericPrecision.map { .string($0.rawValue) }
            object["minimumValue"] = number(format.minimumValue)
            object["maximumValue"] = number(format.maximumValue)
            object["defaultValue"] = number(format.defaultValue)
        case .age(let format):
            object = JSONObject()
            object["minimumAge"] = integer(format.minimumAge)
            object["maximumAge"] = integer(format.maximumAge)
            object["minimumAgeCustomText"] = format.minimumAgeCustomText?.json
            object["maximumAgeCustomText"] = format.maximumAgeCustomText?.json
            object["showYear"] = flag(format.showYear)
            object["useYearForResult"] = flag(format.useYearForResult)
            object["treatMinAgeAsRange"] = flag(format.treatMinAgeAsRange)
            object["treatMaxAgeAsRange"] = flag(format.treatMaxAgeAsRange)
            object["relativeYear"] = integer(format.relativeYear)
            object["defaultValue"] = integer(format.defaultValue)
        case .location:
            object = JSONObject()
        case .ses(let format):
            object = JSONObject()
            object["topRungText"] = format.topRungText?.json
            object["bottomRungText"] = format.bottomRungText?.json
        }
        if let dontKnow {
            object["showDontKnowButton"] = flag(dontKnow.show)
            object["customDontKnowButtonText"] = dontKnow.buttonText?.json
        }
        var typed = JSONObject([("type", .string(typeName))])
        for entry in object.entries { typed[entry.key] = entry.value }
        return .object(typed)
    }
}

extension TextChoice {
    var json: JSONValue {
        var object = JSONObject([("text", text.json)])
        object["detailText"] = detailText?.json
        object["value"] = value.json
        object["exclusive"] = flag(exclusive)
        if let other {
            object["other"] = .object(["placeholder": other.placeholder?.json, "optional": flag(other.optional)])
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
    var json: JSONValue {
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
            return .object(["result": .string(selector.raw), "minimumTime": string(minimum), "maximumTime": string(maximum)])
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
