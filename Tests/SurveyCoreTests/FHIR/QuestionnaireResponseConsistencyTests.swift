import Foundation
import JSON
@testable import SurveyCore
import Testing

/// A response to Examples/every-format.json fits the Questionnaire exported from it: every
/// item's linkId is there, nested the same way, and every answer has the item's type.
struct QuestionnaireResponseConsistencyTests {
    static func everyFormatRun() -> JSONValue {
        typealias R = FHIRRunResult
        return R.run([
            R.step("welcome", second: 1),
            R.step("contact-ok", [R.question("contact-ok", "boolean", #""booleanAnswer": true"#)], second: 2),
            R.step("handedness", [R.question("handedness", "choice", #""choiceAnswers": ["right"]"#)], second: 3),
            R.step("transport", [R.question("transport", "choice", #""choiceAnswers": ["walk", "By ferry"]"#)], second: 4),
            R.step("country", [R.question("country", "choice", #""choiceAnswers": ["DE"]"#)], second: 5),
            R.step("blood-group", [R.question("blood-group", "multipleComponent", #""componentsAnswer": ["AB", "-"], "separator": """#)], second: 6),
            R.step("mood-face", [R.question("mood-face", "choice", #""choiceAnswers": ["okay"]"#)], second: 7),
            R.step("stress", [R.question("stress", "scale", #""noAnswerType": "dontKnow""#)], second: 8),
            R.step("pain", [R.question("pain", "scale", #""scaleAnswer": 2.5"#)], second: 9),
            R.step("sitting", [R.question("sitting", "scale", #""scaleAnswer": 0.45"#)], second: 10),
            R.step("sleep-quality", [R.question("sleep-quality", "choice", #""choiceAnswers": [4]"#)], second: 11),
            R.step("about-you", [
                R.question("height", "numeric", #""numericAnswer": 172, "unit": "cm", "displayUnit": "cm""#),
                R.question("weight", "numeric", #""numericAnswer": 68.5, "unit": "kg", "displayUnit": "kg""#),
                R.question("age", "numeric", #""numericAnswer": 39"#),
                R.question("daily-steps", "numeric", #""numericAnswer": 8000, "unit": "steps", "displayUnit": "steps""#),
                R.question("water", "numeric", #""unit": "L", "displayUnit": "litres""#),
                R.question("wake-time", "timeOfDay", #""dateComponentsAnswer": "06:45""#),
                R.question("exercise", "timeInterval", #""intervalAnswer": 2700"#),
                R.question("email", "text", #""textAnswer": "ana@example.org""#),
            ], second: 12),
            R.step("last-checkup", [R.question("last-checkup", "date", #""dateAnswer": "2025-09-01", "timeZone": "Europe/Berlin""#)], second: 13),
            R.step("last-painkiller", [R.question("last-painkiller", "date", #""dateAnswer": "2026-11-20T08:15:00+01:00", "timeZone": "Europe/Berlin""#)], second: 14),
            R.step("participant-code", [R.question("participant-code", "text", #""textAnswer": "AB-1234""#)], second: 15),
            R.step("hometown", [R.question("hometown", "location", #""locationAnswer": {"userInput": "Leipzig"}"#)], second: 16),
            R.step("ladder", [R.question("ladder", "ses", #""rungPicked": 7"#)], second: 17),
            R.step("comments", [R.question("comments", "text")], second: 18),
            R.step("review", second: 19),
            R.step("thanks", second: 20),
        ], identifier: "every-format")
    }

    /// The answer keys each item type allows.
    static let allowedValues: [String: Set<String>] = [
        "boolean": ["valueBoolean"], "decimal": ["valueDecimal"], "integer": ["valueInteger"], "date": ["valueDate"],
        "dateTime": ["valueDateTime", "valueDate"], "time": ["valueTime"], "string": ["valueString"], "text": ["valueString"],
        "url": ["valueUri"], "quantity": ["valueQuantity"], "choice": ["valueCoding", "valueInteger", "valueDate", "valueString"],
        "open-choice": ["valueCoding", "valueInteger", "valueDate", "valueString"],
    ]

    @Test func responseFitsTheQuestionnaire() throws {
        let survey = try FHIRExportFixtures.everyFormat()
        let questionnaire = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: "v1").questionnaire
        let response = QuestionnaireResponseExport.response(survey: survey, result: Self.everyFormatRun(), surveyVersion: "v1")
        expectFHIRClean(response)
        #expect(response[fx: "questionnaire"] == .string("urn:survey-presenter:questionnaire:every-format|v1"))
        #expect(fhirChildLinkIds(response) == [
            "contact-ok", "handedness", "transport", "country", "blood-group", "mood-face", "stress", "pain", "sitting",
            "sleep-quality", "about-you", "last-checkup", "last-painkiller", "participant-code", "hometown", "ladder",
        ])
        var checked = 0
        func check(_ responseItem: JSONValue, within parent: JSONValue) {
            let linkId = responseItem[fx: "linkId"]?.fxString ?? ""
            let definition = (parent[fx: "item"]?.fxArray ?? []).first { $0[fx: "linkId"]?.fxString == linkId }
            guard let definition else {
                Issue.record("\(linkId) is not where the Questionnaire has it")
                return
            }
            #expect(responseItem[fx: "text"] == definition[fx: "text"], "\(linkId)")
            let type = definition[fx: "type"]?.fxString ?? ""
            for answer in responseItem[fx: "answer"]?.fxArray ?? [] {
                checked += 1
                let key = answer.fxObject?.keys.first ?? ""
                #expect(Self.allowedValues[type]?.contains(key) == true, "\(linkId): \(key) in a \(type) item")
                guard type == "choice" || (type == "open-choice" && key != "valueString") else { continue }
                let options = (definition[fx: "answerOption"]?.fxArray ?? []).compactMap { $0[fx: key] }
                #expect(options.contains(answer[fx: key] ?? .null), "\(linkId): \(answer) is no option")
            }
            for child in responseItem[fx: "item"]?.fxArray ?? [] { check(child, within: definition) }
        }
        for item in response[fx: "item"]?.fxArray ?? [] { check(item, within: questionnaire) }
        #expect(checked == 22)
    }
}
