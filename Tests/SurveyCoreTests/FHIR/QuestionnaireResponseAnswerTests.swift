import Foundation
import JSON
@testable import SurveyCore
import Testing

/// Each answer format's answer becomes its typed FHIR value.
struct QuestionnaireResponseAnswerTests {
    static let survey = FHIRExportFixtures.json("""
    { "identifier": "formats", "steps": [
      { "identifier": "bool", "type": "question", "title": "Fever?", "answerFormat": { "type": "boolean" } },
      { "identifier": "int", "type": "question", "title": "Count", "answerFormat": { "type": "numeric", "style": "integer" } },
      { "identifier": "dec", "type": "question", "title": "Amount", "answerFormat": { "type": "numeric", "style": "decimal" } },
      { "identifier": "litres", "type": "question", "title": "Water", "answerFormat": { "type": "numeric", "style": "decimal", "unit": "L", "displayUnit": "litres" } },
      { "identifier": "steps", "type": "question", "title": "Steps", "answerFormat": { "type": "numeric", "style": "integer", "unit": "steps" } },
      { "identifier": "bmi", "type": "question", "title": "BMI", "answerFormat": { "type": "numeric", "style": "decimal", "unit": "kg/m2" } },
      { "identifier": "kept-unit", "type": "question", "title": "Dose", "answerFormat": { "type": "numeric", "style": "decimal", "unit": "mg" },
        "fhir": { "extension": [ { "url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
                                    "valueCoding": { "system": "http://unitsofmeasure.org", "code": "mg", "display": "milligram" } } ] } },
      { "identifier": "quantity-type", "type": "question", "title": "Size", "answerFormat": { "type": "numeric", "style": "decimal" }, "fhir": { "type": "quantity" } },
      { "identifier": "decimal-type", "type": "question", "title": "Score", "answerFormat": { "type": "numeric", "style": "integer" }, "fhir": { "type": "decimal" } },
      { "identifier": "height", "type": "question", "title": "Height", "answerFormat": { "type": "height" } },
      { "identifier": "weight", "type": "question", "title": "Weight", "answerFormat": { "type": "weight" } },
      { "identifier": "scale", "type": "question", "title": "Stress", "answerFormat": { "type": "scale", "minimum": 0, "maximum": 10 } },
      { "identifier": "continuous", "type": "question", "title": "Pain", "answerFormat": { "type": "continuousScale", "minimum": 0, "maximum": 10, "maximumFractionDigits": 1 } },
      { "identifier": "age", "type": "question", "title": "Age", "answerFormat": { "type": "age" } },
      { "identifier": "ses", "type": "question", "title": "Ladder", "answerFormat": { "type": "ses" } },
      { "identifier": "interval", "type": "question", "title": "Exercise", "answerFormat": { "type": "timeInterval" } },
      { "identifier": "day", "type": "question", "title": "Check-up", "answerFormat": { "type": "date", "style": "date" } },
      { "identifier": "moment", "type": "question", "title": "Painkiller", "answerFormat": { "type": "date", "style": "dateAndTime" } },
      { "identifier": "wake", "type": "question", "title": "Wake", "answerFormat": { "type": "timeOfDay" } },
      { "identifier": "text", "type": "question", "title": "Comments", "answerFormat": { "type": "text" } },
      { "identifier": "long-text", "type": "question", "title": "Story", "answerFormat": { "type": "text", "multipleLines": true }, "fhir": { "type": "text" } },
      { "identifier": "homepage", "type": "question", "title": "Homepage", "answerFormat": { "type": "text" }, "fhir": { "type": "url" } },
      { "identifier": "email", "type": "question", "title": "Email", "answerFormat": { "type": "email" } },
      { "identifier": "place", "type": "question", "title": "Town", "answerFormat": { "type": "location" } },
      { "identifier": "blood", "type": "question", "title": "Blood group", "answerFormat": { "type": "multipleValuePicker", "separator": "",
        "pickers": [ [ { "text": "A", "value": "A" }, { "text": "O", "value": "O" } ], [ { "text": "+", "value": "+" }, { "text": "-", "value": "-" } ] ] } },
      { "identifier": "hand", "type": "question", "title": "Hand", "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
        { "text": "<b>Left</b> hand", "value": "left" }, { "text": "Right hand", "value": "right" } ] } },
      { "identifier": "transport", "type": "question", "title": "Transport", "answerFormat": { "type": "textChoice", "style": "multipleChoice", "choices": [
        { "text": "Walking", "value": "walk" }, { "text": "Cycling", "value": "bike" },
        { "text": "Another way", "value": "other", "other": { "placeholder": "How?" } } ] } },
      { "identifier": "rating", "type": "question", "title": "Rating", "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
        { "text": "Low", "value": 1 }, { "text": "High", "value": 2 } ] } },
      { "identifier": "coded", "type": "question", "title": "Smoker", "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
        { "text": "Yes", "value": "LA33-6", "fhir": { "system": "http://loinc.org", "code": "LA33-6", "display": "Yes" } },
        { "text": "No", "value": "LA32-8", "fhir": { "system": "http://loinc.org", "code": "LA32-8", "display": "No" } } ] } },
      { "identifier": "typed", "type": "question", "title": "Typed options", "answerFormat": { "type": "textChoice", "style": "multipleChoice", "choices": [
        { "text": "Three", "value": 3, "fhir": { "valueType": "integer" } },
        { "text": "New year", "value": "2026-01-01", "fhir": { "valueType": "date" } },
        { "text": "Plain", "value": "plain", "fhir": { "valueType": "string" } } ] } },
      { "identifier": "country", "type": "question", "title": "Country", "answerFormat": { "type": "valuePicker", "choices": [
        { "text": "Germany", "value": "DE" }, { "text": "Austria", "value": "AT" } ] } },
      { "identifier": "face", "type": "question", "title": "Mood", "answerFormat": { "type": "imageChoice", "choices": [
        { "image": "images/happy.svg", "imageAlt": "A smiling face", "value": "good" } ] } },
      { "identifier": "sleep", "type": "question", "title": "Sleep", "answerFormat": { "type": "textScale", "choices": [
        { "text": "Badly", "value": 1 }, { "text": "Well", "value": 2 } ] } }
    ] }
    """)

    /// Each question's result answer keys and the `answer` array it must give.
    static let cases: [(identifier: String, type: String, keys: String, answer: String)] = [
        ("bool", "boolean", #""booleanAnswer": true"#, #"[{"valueBoolean": true}]"#),
        ("int", "numeric", #""numericAnswer": 3"#, #"[{"valueInteger": 3}]"#),
        ("dec", "numeric", #""numericAnswer": 2.5"#, #"[{"valueDecimal": 2.5}]"#),
        ("litres", "numeric", #""numericAnswer": 1.5, "unit": "L", "displayUnit": "litres""#,
         #"[{"valueQuantity": {"value": 1.5, "unit": "litres", "system": "http://unitsofmeasure.org", "code": "L"}}]"#),
        ("steps", "numeric", #""numericAnswer": 6000, "unit": "steps", "displayUnit": "steps""#,
         #"[{"valueQuantity": {"value": 6000, "unit": "steps"}}]"#),
        ("bmi", "numeric", #""numericAnswer": 22.4, "unit": "kg/m2""#,
         #"[{"valueQuantity": {"value": 22.4, "unit": "kg/m2", "system": "http://unitsofmeasure.org", "code": "kg/m2"}}]"#),
        ("kept-unit", "numeric", #""numericAnswer": 50, "unit": "mg""#,
         #"[{"valueQuantity": {"value": 50, "unit": "milligram", "system": "http://unitsofmeasure.org", "code": "mg"}}]"#),
        ("quantity-type", "numeric", #""numericAnswer": 4"#, #"[{"valueQuantity": {"value": 4}}]"#),
        ("decimal-type", "numeric", #""numericAnswer": 4"#, #"[{"valueDecimal": 4}]"#),
        ("height", "numeric", #""numericAnswer": 180.34, "unit": "cm""#,
         #"[{"valueQuantity": {"value": 180.34, "unit": "cm", "system": "http://unitsofmeasure.org", "code": "cm"}}]"#),
        ("weight", "numeric", #""numericAnswer": 72.5, "unit": "kg""#,
         #"[{"valueQuantity": {"value": 72.5, "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"}}]"#),
        ("scale", "scale", #""scaleAnswer": 7"#, #"[{"valueInteger": 7}]"#),
        ("continuous", "scale", #""scaleAnswer": 2.5"#, #"[{"valueDecimal": 2.5}]"#),
        ("age", "numeric", #""numericAnswer": 42"#, #"[{"valueInteger": 42}]"#),
        ("ses", "ses", #""rungPicked": 6"#, #"[{"valueInteger": 6}]"#),
        ("interval", "timeInterval", #""intervalAnswer": 1800"#,
         #"[{"valueQuantity": {"value": 1800, "unit": "s", "system": "http://unitsofmeasure.org", "code": "s"}}]"#),
        ("day", "date", #""dateAnswer": "2025-03-14", "timeZone": "Europe/Berlin""#, #"[{"valueDate": "2025-03-14"}]"#),
        ("moment", "date", #""dateAnswer": "2026-11-20T21:15:00+01:00", "timeZone": "Europe/Berlin""#,
         #"[{"valueDateTime": "2026-11-20T21:15:00+01:00"}]"#),
        ("wake", "timeOfDay", #""dateComponentsAnswer": "07:30""#, #"[{"valueTime": "07:30:00"}]"#),
        ("text", "text", #""textAnswer": "All good""#, #"[{"valueString": "All good"}]"#),
        ("long-text", "text", #""textAnswer": "Line one\nLine two""#, #"[{"valueString": "Line one\nLine two"}]"#),
        ("homepage", "text", #""textAnswer": "https://example.org""#, #"[{"valueUri": "https://example.org"}]"#),
        ("email", "text", #""textAnswer": "ana@example.org""#, #"[{"valueString": "ana@example.org"}]"#),
        ("place", "location", #""locationAnswer": {"userInput": "Berlin", "coordinate": {"latitude": 52.5, "longitude": 13.4}}"#,
         #"[{"valueString": "Berlin"}]"#),
        ("blood", "multipleComponent", #""componentsAnswer": ["A", "+"], "separator": """#, #"[{"valueString": "A+"}]"#),
        ("hand", "choice", #""choiceAnswers": ["left"]"#, #"[{"valueCoding": {"code": "left", "display": "Left hand"}}]"#),
        ("transport", "choice", #""choiceAnswers": ["walk", "bike", "By boat"]"#,
         #"[{"valueCoding": {"code": "walk", "display": "Walking"}}, {"valueCoding": {"code": "bike", "display": "Cycling"}}, {"valueString": "By boat"}]"#),
        ("rating", "choice", #""choiceAnswers": [2]"#, #"[{"valueInteger": 2}]"#),
        ("coded", "choice", #""choiceAnswers": ["LA33-6"]"#,
         #"[{"valueCoding": {"system": "http://loinc.org", "code": "LA33-6", "display": "Yes"}}]"#),
        ("typed", "choice", #""choiceAnswers": [3, "2026-01-01", "plain"]"#,
         #"[{"valueInteger": 3}, {"valueDate": "2026-01-01"}, {"valueString": "plain"}]"#),
        ("country", "choice", #""choiceAnswers": ["AT"]"#, #"[{"valueCoding": {"code": "AT", "display": "Austria"}}]"#),
        ("face", "choice", #""choiceAnswers": ["good"]"#, #"[{"valueCoding": {"code": "good", "display": "A smiling face"}}]"#),
        ("sleep", "choice", #""choiceAnswers": [1]"#, #"[{"valueInteger": 1}]"#),
    ]

    static func response(_ steps: [JSONValue]) -> JSONValue {
        QuestionnaireResponseExport.response(survey: survey, result: FHIRRunResult.run(steps), surveyVersion: "v1")
    }

    @Test(arguments: cases.map(\.identifier))
    func answerIsTyped(_ identifier: String) throws {
        let entry = try #require(Self.cases.first { $0.identifier == identifier })
        let response = Self.response([FHIRRunResult.step(entry.identifier, [FHIRRunResult.question(entry.identifier, entry.type, entry.keys)])])
        expectFHIRClean(response)
        let item = try #require(fhirItem(entry.identifier, in: response))
        #expect(item[fx: "answer"] == FHIRExportFixtures.json(entry.answer))
    }

    @Test func everyFormatIsCovered() {
        let formats = Set((Self.survey[fx: "steps"]?.fxArray ?? []).compactMap { $0[fx: "answerFormat"]?[fx: "type"]?.fxString })
        #expect(formats.count == 19)
        #expect(Self.cases.count == (Self.survey[fx: "steps"]?.fxArray ?? []).count)
    }

    @Test func questionTextIsPlain() throws {
        let response = Self.response([FHIRRunResult.step("hand", [FHIRRunResult.question("hand", "choice", #""choiceAnswers": ["left"]"#)])])
        let item = try #require(fhirItem("hand", in: response))
        #expect(item[fx: "text"] == .string("Hand"))
        #expect(item[fx: "answer"]?.fxArray?.first?[fx: "valueCoding"]?[fx: "display"] == .string("Left hand"))
    }

    @Test func otherChoiceOwnValueIsItsText() throws {
        let response = Self.response([FHIRRunResult.step("transport", [FHIRRunResult.question("transport", "choice", #""choiceAnswers": ["other"]"#)])])
        let item = try #require(fhirItem("transport", in: response))
        #expect(item[fx: "answer"] == FHIRExportFixtures.json(#"[{"valueString": "Another way"}]"#))
    }

    @Test func languageObjectTakesTheFirstLanguage() throws {
        let survey = FHIRExportFixtures.json("""
        { "identifier": "multi", "languages": ["es", "en"], "steps": [
          { "identifier": "fever", "type": "question", "title": {"en": "Fever?", "es": "<p>¿Tiene fiebre?</p>"}, "answerFormat": {"type": "boolean"} } ] }
        """)
        let result = FHIRRunResult.run([FHIRRunResult.step("fever", [FHIRRunResult.question("fever", "boolean", #""booleanAnswer": false"#)])])
        let response = QuestionnaireResponseExport.response(survey: survey, result: result, surveyVersion: nil)
        #expect(fhirItem("fever", in: response)?[fx: "text"] == .string("¿Tiene fiebre?"))
    }

    @Test func resultOfAQuestionTheSurveyNoLongerHasIsTypedByItsResult() throws {
        let response = Self.response([FHIRRunResult.step("gone", [FHIRRunResult.question("gone", "numeric", #""numericAnswer": 5, "unit": "kg""#)])])
        expectFHIRClean(response)
        let item = try #require(fhirItem("gone", in: response))
        #expect(item[fx: "answer"]?.fxArray?.first?[fx: "valueQuantity"]?[fx: "code"] == .string("kg"))
    }
}
