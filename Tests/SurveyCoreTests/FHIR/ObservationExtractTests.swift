import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// SDC observation extraction: which answers become Observations, typed how, and the
/// transaction Bundle that carries them with the response.
struct ObservationExtractTests {
    static let extract = FHIRExtensionURL.observationExtract

    /// Extraction is asked for on the survey; `sleep` turns it off for itself, the `labs`
    /// section turns it off for its questions but `glucose` turns it back on.
    static let survey = FHIRExportFixtures.json("""
    { "identifier": "vitals", "fhir": { "extension": [{ "url": "\(extract)", "valueBoolean": true }] }, "steps": [
      { "identifier": "body", "type": "form", "title": "Body", "items": [
          { "identifier": "weight", "text": "Weight", "answerFormat": { "type": "numeric", "style": "decimal", "unit": "kg" },
            "fhir": { "code": [{ "system": "http://loinc.org", "code": "29463-7" }] } },
          { "identifier": "bmi", "text": "BMI", "answerFormat": { "type": "numeric", "style": "decimal" },
            "fhir": { "code": [{ "system": "http://loinc.org", "code": "39156-5" }],
                      "extension": [{ "url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unit",
                                      "valueCoding": { "system": "http://unitsofmeasure.org", "code": "kg/m2" } }] } },
          { "identifier": "steps", "text": "Steps a day", "answerFormat": { "type": "numeric", "style": "integer" },
            "fhir": { "code": [{ "system": "http://loinc.org", "code": "41950-7" }] } },
          { "identifier": "nickname", "text": "Nickname", "answerFormat": { "type": "text" } },
          { "identifier": "sleep", "text": "Hours of sleep", "answerFormat": { "type": "numeric", "style": "integer" },
            "fhir": { "code": [{ "system": "http://loinc.org", "code": "93832-4" }], "extension": [{ "url": "\(extract)", "valueBoolean": false }] } },
          { "sectionTitle": "Labs", "fhir": { "linkId": "labs", "extension": [{ "url": "\(extract)", "valueBoolean": false }] } },
          { "identifier": "hba1c", "text": "HbA1c", "answerFormat": { "type": "numeric", "style": "decimal" },
            "fhir": { "linkId": "hba1c", "within": ["labs"], "code": [{ "system": "http://loinc.org", "code": "4548-4" }] } },
          { "identifier": "glucose", "text": "Glucose", "answerFormat": { "type": "numeric", "style": "decimal" },
            "fhir": { "linkId": "glucose", "within": ["labs"], "code": [{ "system": "http://loinc.org", "code": "2339-0" }],
                      "extension": [{ "url": "\(extract)", "valueBoolean": true }] } }
        ] },
      { "identifier": "smoker", "type": "question", "title": "Do you smoke?",
        "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
          { "text": "Never", "value": "LA18978-9", "fhir": { "system": "http://loinc.org", "code": "LA18978-9", "display": "Never smoker" } },
          { "text": "Every day", "value": "LA18976-3", "fhir": { "system": "http://loinc.org", "code": "LA18976-3", "display": "Current every day smoker" } }
        ] },
        "fhir": { "code": [{ "system": "http://loinc.org", "code": "72166-2" }] } },
      { "identifier": "seen", "type": "question", "title": "Last seen", "answerFormat": { "type": "date", "style": "date" },
        "fhir": { "code": [{ "system": "http://loinc.org", "code": "LP-seen" }] } }
    ] }
    """)

    static func run(finishReason: String? = "completed") -> JSONValue {
        FHIRRunResult.run([
            FHIRRunResult.step("body", [
                FHIRRunResult.question("weight", "numeric", #""numericAnswer": 72.5, "unit": "kg""#),
                FHIRRunResult.question("bmi", "numeric", #""numericAnswer": 23.4"#),
                FHIRRunResult.question("steps", "numeric", #""numericAnswer": 8000"#),
                FHIRRunResult.question("nickname", "text", #""textAnswer": "Jo""#),
                FHIRRunResult.question("sleep", "numeric", #""numericAnswer": 7"#),
                FHIRRunResult.question("hba1c", "numeric", #""numericAnswer": 5.6"#),
                FHIRRunResult.question("glucose", "numeric", #""numericAnswer": 5.1"#),
            ], second: 1),
            FHIRRunResult.step("smoker", [FHIRRunResult.question("smoker", "choice", #""choiceAnswers": ["LA18978-9"]"#)], second: 3),
            FHIRRunResult.step("seen", [FHIRRunResult.question("seen", "date", #""dateAnswer": "2026-10-02""#)], second: 5),
        ], finishReason: finishReason, identifier: "vitals")
    }

    static let context = FHIRRunContext(subject: JSONObject([("reference", .string("Patient/p-17"))]),
                                        encounter: JSONObject([("reference", .string("Encounter/e-3"))]))

    static func observations(finishReason: String? = "completed") -> [String: JSONValue] {
        let response = QuestionnaireResponseExport.response(survey: survey, result: run(finishReason: finishReason), surveyVersion: nil, context: context)
        let made = ObservationExtract.observations(survey: survey, response: response, responseReference: "urn:uuid:qr")
        var byCode: [String: JSONValue] = [:]
        for observation in made {
            guard case .string(let code)? = pick(observation, "code", "coding", 0, "code") else { continue }
            #expect(byCode[code] == nil, "one Observation per answer")
            byCode[code] = observation
        }
        return byCode
    }

    @Test("The nearest observationExtract decides, and only items with a code are extracted")
    func whichItems() {
        let made = Self.observations()
        #expect(Set(made.keys) == ["29463-7", "39156-5", "41950-7", "2339-0", "72166-2", "LP-seen"])
    }

    @Test("Each answer takes a type an Observation may hold, with its unit")
    func valueTypes() {
        let made = Self.observations()
        #expect(pick(made["29463-7"], "valueQuantity") == fhirJSON(#"{"value": 72.5, "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"}"#))
        #expect(pick(made["39156-5"], "valueQuantity") == fhirJSON(#"{"value": 23.4, "unit": "kg/m2", "system": "http://unitsofmeasure.org", "code": "kg/m2"}"#))
        #expect(pick(made["41950-7"], "valueInteger") == .number(8000), "an integer without a unit stays an integer")
        #expect(pick(made["2339-0"], "valueQuantity") == fhirJSON(#"{"value": 5.1}"#), "a decimal without a unit is a Quantity without one")
        #expect(pick(made["72166-2"], "valueCodeableConcept") == fhirJSON("""
            {"coding": [{"system": "http://loinc.org", "code": "LA18978-9", "display": "Never smoker"}], "text": "Never smoker"}
            """))
        #expect(pick(made["LP-seen"], "valueDateTime") == .string("2026-10-02"), "Observation has no valueDate")
        for observation in made.values { expectFHIRClean(observation) }
    }

    @Test("Every Observation names the response it came from, its subject and encounter, and when")
    func references() throws {
        let made = Self.observations()
        let weight = try #require(made["29463-7"])
        #expect(pick(weight, "resourceType") == .string("Observation"))
        #expect(pick(weight, "status") == .string("final"))
        #expect(pick(weight, "derivedFrom", 0, "reference") == .string("urn:uuid:qr"))
        #expect(pick(weight, "subject", "reference") == .string("Patient/p-17"))
        #expect(pick(weight, "encounter", "reference") == .string("Encounter/e-3"))
        #expect(pick(weight, "effectiveDateTime") == .string("2026-11-21T10:05:00+01:00"))
        #expect(pick(weight, "category", 0, "coding", 0, "code") == .string("survey"))
        #expect(Self.observations(finishReason: nil)["29463-7"].flatMap { pick($0, "status") } == .string("preliminary"),
                "a response still in progress gives preliminary Observations")
    }

    @Test("The transaction Bundle creates the response and its Observations once, however often it is sent")
    func transaction() throws {
        let response = QuestionnaireResponseExport.response(survey: Self.survey, result: Self.run(), surveyVersion: nil, context: Self.context)
        #expect(pick(response, "subject", "reference") == .string("Patient/p-17"))
        #expect(pick(response, "encounter", "reference") == .string("Encounter/e-3"))
        let entries = QuestionnaireResponseExport.transactionEntries(survey: Self.survey, response: response)
        let bundle = QuestionnaireResponseExport.transaction(entries)
        #expect(pick(bundle, "type") == .string("transaction"))
        #expect(entries.count == 7)
        let responseURL = "urn:uuid:" + FHIRRunResult.uuid.lowercased()
        #expect(pick(entries[0], "fullUrl") == .string(responseURL))
        #expect(pick(entries[0], "request") == fhirJSON("""
            {"method": "POST", "url": "QuestionnaireResponse", "ifNoneExist": "identifier=urn:ietf:rfc:3986|\(responseURL)"}
            """))
        var fullUrls: Set<String> = []
        for entry in entries.dropFirst() {
            guard case .string(let fullUrl)? = pick(entry, "fullUrl"), case .string(let id)? = pick(entry, "resource", "id") else {
                Issue.record("an entry without fullUrl or id")
                continue
            }
            #expect(fullUrl == "urn:uuid:" + id)
            #expect(id.range(of: "^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", options: .regularExpression) != nil, "\(id)")
            #expect(pick(entry, "resource", "derivedFrom", 0, "reference") == .string(responseURL))
            #expect(pick(entry, "request", "url") == .string("Observation"))
            #expect(pick(entry, "request", "ifNoneExist") == .string("identifier=urn:ietf:rfc:3986|" + fullUrl))
            fullUrls.insert(fullUrl)
        }
        #expect(fullUrls.count == 6, "each Observation has its own id")
        let again = QuestionnaireResponseExport.transactionEntries(survey: Self.survey, response: response)
        #expect(again == entries, "the same response gives the same Bundle")
    }

    @Test("A survey that asks for no extraction gives the response alone")
    func nothingAsked() {
        guard case .object(var plain) = Self.survey else { return }
        plain["fhir"] = nil
        let response = QuestionnaireResponseExport.response(survey: .object(plain), result: Self.run(), surveyVersion: nil)
        #expect(pick(response, "subject") == nil)
        #expect(QuestionnaireResponseExport.transactionEntries(survey: .object(plain), response: response).count == 2,
                "only the response and glucose, which asks for itself")
    }

    @Test("The import keeps observationExtract on the Questionnaire and on items, without a warning")
    func importKeeps() throws {
        let outcome = importQuestionnaire("""
        { "resourceType": "Questionnaire", "status": "active",
          "extension": [{ "url": "\(Self.extract)", "valueBoolean": true }],
          "item": [
            { "linkId": "bmi", "type": "decimal", "text": "BMI", "code": [{ "system": "http://loinc.org", "code": "39156-5" }],
              "extension": [{ "url": "\(Self.extract)", "valueBoolean": false }] }
          ] }
        """)
        expectNoErrors(outcome)
        #expect(outcome.diagnostics.filter { $0.message.contains("observationExtract") }.isEmpty)
        #expect(outcome.value("fhir", "extension", 0, "url") == .string(Self.extract))
        #expect(outcome.value("steps", 0, "fhir", "extension", 0, "valueBoolean") == .bool(false))
    }
}
