import Foundation
import Testing
@testable import SurveyCore

/// Options the Questionnaire carries are read as the format's own file reads and defaults them.
struct QuestionnaireExportFormatOptionsTests {
    static let survey = FHIRExportFixtures.json("""
    { "identifier": "options", "steps": [ { "identifier": "about", "type": "form", "items": [
        { "identifier": "light", "text": "Weight", "answerFormat": { "type": "weight", "measurementSystem": "metric", "numericPrecision": "low" } },
        { "identifier": "usual", "text": "Weight", "answerFormat": { "type": "weight", "measurementSystem": "metric" } },
        { "identifier": "fine", "text": "Weight", "answerFormat": { "type": "weight", "measurementSystem": "metric", "numericPrecision": "high" } },
        { "identifier": "local", "text": "Weight", "answerFormat": { "type": "weight", "numericPrecision": "low" } },
        { "identifier": "adult", "text": "Age", "answerFormat": { "type": "age", "minimumAge": 18, "maximumAge": 65 } },
        { "identifier": "born", "text": "Born", "answerFormat": { "type": "age", "minimumAge": 18, "useYearForResult": true } }
    ] } ] }
    """)

    static let questionnaire = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil).questionnaire

    static func value(_ url: String, _ type: String, on linkId: String) -> JSONValue? {
        fhirExtension(url, on: fhirItem(linkId, in: questionnaire))?[fx: "value" + type]
    }

    @Test("A weight's decimal places follow its precision; asked in the participant's units, two", arguments: [
        ("about.light", 0.0), ("about.usual", 1), ("about.fine", 2), ("about.local", 2),
    ])
    func weightDecimalPlaces(linkId: String, places: Double) {
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxDecimalPlaces", "Integer", on: linkId) == .number(places))
    }

    @Test func ageBoundsAreTheAuthorsUnlessTheAnswerIsABirthYear() {
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minValue", "Integer", on: "about.adult") == .number(18))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxValue", "Integer", on: "about.adult") == .number(65))
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/minValue", "Integer", on: "about.born") == nil)
        #expect(Self.value("http://hl7.org/fhir/StructureDefinition/maxValue", "Integer", on: "about.born") == nil)
    }
}
