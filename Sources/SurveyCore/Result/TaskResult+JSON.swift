import Foundation
import JSON

// The result format of spec §5, and ResearchKit's own serialization shape beside it.

extension TaskResult {
    /// The result as spec §5 JSON, dates with the offset of `zone`.
    public func json(in zone: TimeZone) -> JSONValue {
        .object([
            "identifier": .string(identifier),
            "taskRunUUID": .string(taskRunUUID.uuidString.lowercased()),
            "startDate": .string(DateTimeParsing.preciseString(startDate, in: zone)),
            "endDate": .string(DateTimeParsing.preciseString(endDate, in: zone)),
            "finishReason": finishReason.map { .string($0.rawValue) },
            "results": .array(results.map { $0.json(in: zone) }),
            "consent": consent.map { $0.json(in: zone) },
            "parameters": parameters.map { values in .object(JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) },
            "choiceOrders": choiceOrders.map { orders in
                .object(JSONObject(orders.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(\.json))) }))
            },
            "blockOrders": blockOrders.map { orders in
                .object(JSONObject(orders.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(JSONValue.string))) }))
            },
        ])
    }

    /// The result in ResearchKit's serialization shape (`_class` keys, `ORK…QuestionResult`),
    /// for back ends that read what ResearchKit apps upload.
    public func researchKitJSON(in zone: TimeZone) -> JSONValue {
        .object([
            "_class": .string("ORKTaskResult"),
            "identifier": .string(identifier),
            "taskRunUUID": .string(taskRunUUID.uuidString),
            "startDate": .string(ResearchKitDates.string(startDate, in: zone)),
            "endDate": .string(ResearchKitDates.string(endDate, in: zone)),
            "results": .array(results.flatMap { $0.researchKitSteps(in: zone) }),
        ])
    }
}

extension StepResult {
    public func json(in zone: TimeZone) -> JSONValue {
        .object([
            "identifier": .string(identifier),
            "startDate": .string(DateTimeParsing.preciseString(startDate, in: zone)),
            "endDate": .string(DateTimeParsing.preciseString(endDate, in: zone)),
            "results": .array(results.map { $0.json(in: zone) }),
            "instances": instances.map { instances in
                .array(instances.enumerated().map { position, answers in
                    .object(["index": .number(Double(position + 1)), "results": .array(answers.map { $0.json(in: zone) })])
                })
            },
        ])
    }

    /// ResearchKit has no repeating step: each instance becomes a step result of its own,
    /// named `stepId.N` (from 1), the nearest shape its readers know.
    func researchKitSteps(in zone: TimeZone) -> [JSONValue] {
        guard let instances else { return [researchKitJSON(in: zone)] }
        return instances.enumerated().map { position, answers in
            var instance = self
            instance.identifier = "\(identifier).\(position + 1)"
            instance.results = answers
            instance.instances = nil
            return instance.researchKitJSON(in: zone)
        }
    }

    func researchKitJSON(in zone: TimeZone) -> JSONValue {
        .object([
            "_class": .string("ORKStepResult"),
            "identifier": .string(identifier),
            "startDate": .string(ResearchKitDates.string(startDate, in: zone)),
            "endDate": .string(ResearchKitDates.string(endDate, in: zone)),
            "results": .array(consentSignature.map { [signatureJSON($0, in: zone)] } ?? results.map { $0.researchKitJSON(in: zone) }),
        ])
    }

    /// A consent review's results as ResearchKit writes them: one ORKConsentSignatureResult
    /// holding the ORKConsentSignature, `consented` 1 for Agree.
    private func signatureJSON(_ signature: String, in zone: TimeZone) -> JSONValue {
        let fields = ConsentReviewContent.Field.self
        func text(_ identifier: String) -> JSONValue? {
            if case .text(let value)? = result(identifier)?.answer { return .string(value) }
            return nil
        }
        let consented: Bool
        if case .boolean(true)? = result(fields.consented)?.answer { consented = true } else { consented = false }
        let signedAt = result(fields.givenName)?.endDate
        return .object([
            "_class": .string("ORKConsentSignatureResult"),
            "identifier": .string(signature),
            "startDate": .string(ResearchKitDates.string(startDate, in: zone)),
            "endDate": .string(ResearchKitDates.string(endDate, in: zone)),
            "consented": .number(consented ? 1 : 0),
            "signature": .object([
                "_class": .string("ORKConsentSignature"),
                "identifier": .string(signature),
                "givenName": text(fields.givenName),
                "familyName": text(fields.familyName),
                "signatureDate": signedAt.map { .string(ResearchKitDates.string($0, in: zone)) },
                "requiresName": .number(1),
                "requiresSignatureImage": .number(0),
            ]),
        ])
    }
}

extension QuestionResult {
    public func json(in zone: TimeZone) -> JSONValue {
        var object = JSONObject([
            ("type", .string(type.rawValue)),
            ("identifier", .string(identifier)),
            ("startDate", .string(DateTimeParsing.preciseString(startDate, in: zone))),
            ("endDate", .string(DateTimeParsing.preciseString(endDate, in: zone))),
        ])
        for (key, value) in answerEntries(researchKit: false) { object[key] = value }
        return .object(object)
    }

    func researchKitJSON(in zone: TimeZone) -> JSONValue {
        var object = JSONObject([
            ("_class", .string(type.researchKitClass)),
            ("identifier", .string(identifier)),
            ("startDate", .string(ResearchKitDates.string(startDate, in: zone))),
            ("endDate", .string(ResearchKitDates.string(endDate, in: zone))),
            ("questionType", .number(Double(researchKitQuestionType))),
        ])
        for (key, value) in answerEntries(researchKit: true) { object[key] = value }
        return .object(object)
    }

    /// ORKQuestionType's number for this result.
    private var researchKitQuestionType: Int {
        switch type {
        case .scale: return 1
        case .choice: return 2
        case .multipleComponent: return 4
        case .numeric: return 5
        case .boolean: return 7
        case .text: return 8
        case .timeOfDay: return 9
        case .date: return 11
        case .timeInterval: return 12
        case .location: return 15
        case .ses: return 16
        }
    }

    private func answerEntries(researchKit: Bool) -> [(String, JSONValue)] {
        var entries: [(String, JSONValue)] = []
        if let unit { entries.append(("unit", .string(unit))) }
        if let displayUnit { entries.append(("displayUnit", .string(displayUnit))) }
        if let separator { entries.append(("separator", .string(separator))) }
        if let timeZone {
            if researchKit {
                let seconds = TimeZone(identifier: timeZone)?.secondsFromGMT() ?? 0
                entries.append(("timeZone", .number(Double(seconds))))
                entries.append(("calendar", .string("gregorian")))
            } else {
                entries.append(("timeZone", .string(timeZone)))
            }
        }
        guard let answer else { return entries }
        switch answer {
        case .dontKnow:
            entries.append(("noAnswerType", researchKit ? .object(["_class": .string("ORKDontKnowAnswer")]) : .string("dontKnow")))
        case .boolean(let flag):
            entries.append(("booleanAnswer", researchKit ? .number(flag ? 1 : 0) : .bool(flag)))
        case .choices(let values):
            entries.append(("choiceAnswers", .array(values.map(\.json))))
        case .components(let values):
            entries.append(("componentsAnswer", .array(values.map(\.json))))
        case .scale(let value):
            entries.append(("scaleAnswer", .number(value)))
        case .numeric(let value):
            entries.append(("numericAnswer", .number(value)))
        case .timeOfDay(let time):
            entries.append(("dateComponentsAnswer", .string(time.description)))
        case .date(let date):
            let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
            switch date {
            case .day(let day):
                if researchKit {
                    let midnight = DateTimeParsing.instant(day.description, defaultZone: zone) ?? Date(timeIntervalSince1970: 0)
                    entries.append(("dateAnswer", .string(ResearchKitDates.string(midnight, in: zone))))
                } else {
                    entries.append(("dateAnswer", .string(day.description)))
                }
            case .instant(let instant):
                entries.append(("dateAnswer", .string(researchKit ? ResearchKitDates.string(instant, in: zone) : DateTimeParsing.string(instant, in: zone))))
            }
        case .timeInterval(let seconds):
            entries.append(("intervalAnswer", .number(seconds)))
        case .text(let text):
            entries.append(("textAnswer", .string(text)))
        case .location(let location):
            var object = JSONObject([("userInput", .string(location.userInput))])
            if let latitude = location.latitude, let longitude = location.longitude {
                object["coordinate"] = .object(["latitude": .number(latitude), "longitude": .number(longitude)])
            }
            if researchKit { object["_class"] = .string("ORKLocation") }
            entries.append(("locationAnswer", .object(object)))
        case .ses(let rung):
            entries.append(("rungPicked", .number(Double(rung))))
        }
        return entries
    }
}

extension ConsentStatus {
    /// The run's consent beside its result: the copy's hash, a countersignature, a withdrawal.
    public func json(in zone: TimeZone) -> JSONValue {
        .object([
            "copySHA256": copySHA256.map(JSONValue.string),
            "countersignature": countersignature.map {
                .object(["name": .string($0.name), "signedAt": .string(DateTimeParsing.preciseString($0.signedAt, in: zone)),
                         "copySHA256": .string($0.copySHA256)])
            },
            "withdrawnAt": withdrawnAt.map { .string(DateTimeParsing.preciseString($0, in: zone)) },
        ])
    }
}

/// ResearchKit's serializer writes dates as "yyyy-MM-dd'T'HH:mm:ssZ" ("2019-05-27T00:35:06-0700").
enum ResearchKitDates {
    static func string(_ instant: Date, in zone: TimeZone) -> String {
        let iso = DateTimeParsing.string(instant, in: zone)
        return String(iso.prefix(19)) + iso.dropFirst(19).replacingOccurrences(of: ":", with: "")
    }
}
