import Foundation
import JSON
@testable import SurveyCore
import Testing

/// The response's shape: nesting, status, absent items, timings, canonical and bundle.
struct QuestionnaireResponseStructureTests {
    static let survey = FHIRExportFixtures.json("""
    { "identifier": "intake", "steps": [
      { "identifier": "intro", "type": "instruction", "title": "Welcome" },
      { "identifier": "history", "type": "form", "title": "<p>Your <em>history</em></p>", "fhir": { "linkId": "grp-history" },
        "items": [
          { "identifier": "smoker", "text": "Do you smoke?", "answerFormat": { "type": "boolean" }, "fhir": { "linkId": "q-smoker" } },
          { "sectionTitle": "Alcohol", "fhir": { "linkId": "grp-alcohol" } },
          { "identifier": "drinks", "text": "Drinks a week", "answerFormat": { "type": "numeric", "style": "integer" },
            "fhir": { "linkId": "q-drinks", "within": ["grp-alcohol"] } },
          { "sectionTitle": "Spirits", "fhir": { "linkId": "grp-spirits", "within": ["grp-alcohol"] } },
          { "identifier": "spirits", "text": "Spirits a week", "answerFormat": { "type": "numeric", "style": "integer" },
            "fhir": { "linkId": "q-spirits", "within": ["grp-history", "grp-alcohol", "grp-spirits"] } },
          { "note": "Thank you.", "fhir": { "within": ["grp-alcohol"] } },
          { "identifier": "sleep", "text": "Hours of sleep", "answerFormat": { "type": "scale", "minimum": 0, "maximum": 12, "showDontKnowButton": true } }
        ] },
      { "identifier": "plain-form", "type": "form", "title": "Plain",
        "items": [
          { "identifier": "first", "text": "First", "answerFormat": { "type": "text" } },
          { "sectionTitle": "Later" },
          { "identifier": "second", "text": "Second", "answerFormat": { "type": "text" } }
        ] },
      { "identifier": "mood", "type": "question", "title": "Mood?", "answerFormat": { "type": "boolean" }, "fhir": { "linkId": "q-mood" } },
      { "identifier": "check", "type": "review" },
      { "identifier": "done", "type": "completion", "title": "Thanks" }
    ] }
    """)

    static func fullRun(finishReason: String? = "completed") -> JSONValue {
        FHIRRunResult.run([
            FHIRRunResult.step("intro", second: 1),
            FHIRRunResult.step("history", [
                FHIRRunResult.question("smoker", "boolean", #""booleanAnswer": true"#),
                FHIRRunResult.question("drinks", "numeric", #""numericAnswer": 3"#),
                FHIRRunResult.question("spirits", "numeric", #""numericAnswer": 1"#),
                FHIRRunResult.question("sleep", "scale", #""noAnswerType": "dontKnow""#),
            ], second: 3),
            FHIRRunResult.step("plain-form", [
                FHIRRunResult.question("first", "text", #""textAnswer": "one""#),
                FHIRRunResult.question("second", "text", #""textAnswer": "two""#),
            ], second: 5),
            FHIRRunResult.step("mood", [FHIRRunResult.question("mood", "boolean", #""booleanAnswer": false"#)], second: 7),
            FHIRRunResult.step("check", second: 9),
            FHIRRunResult.step("done", second: 11),
        ], finishReason: finishReason, identifier: "intake")
    }

    static func response(_ result: JSONValue, surveyVersion: String? = "abc123") -> JSONValue {
        let response = QuestionnaireResponseExport.response(survey: survey, result: result, surveyVersion: surveyVersion)
        expectFHIRClean(response)
        return response
    }

    @Test func rootKeys() {
        let response = Self.response(Self.fullRun())
        #expect(response[fx: "resourceType"] == .string("QuestionnaireResponse"))
        #expect(response[fx: "id"] == .string("9a1c0000-0000-4000-8000-000000000001"))
        #expect(response[fx: "identifier"] == FHIRExportFixtures.json("""
        {"system": "urn:ietf:rfc:3986", "value": "urn:uuid:9a1c0000-0000-4000-8000-000000000001"}
        """))
        #expect(response[fx: "questionnaire"] == .string("urn:survey-presenter:questionnaire:intake|abc123"))
        #expect(response[fx: "authored"] == .string("2026-11-21T10:05:00+01:00"))
    }

    @Test func stepsBecomeItemsInPathOrder() {
        let response = Self.response(Self.fullRun())
        #expect(fhirChildLinkIds(response) == ["grp-history", "plain-form", "q-mood"])
        #expect(fhirItem("grp-history", in: response)?[fx: "text"] == .string("Your history"))
        #expect(fhirItem("q-mood", in: response)?[fx: "text"] == .string("Mood?"))
    }

    @Test func nestingFollowsWithinChains() {
        let response = Self.response(Self.fullRun())
        let history = fhirItem("grp-history", in: response)
        #expect(fhirChildLinkIds(history) == ["q-smoker", "grp-alcohol", "history.sleep"])
        let alcohol = fhirItem("grp-alcohol", in: response)
        #expect(alcohol?[fx: "text"] == .string("Alcohol"))
        #expect(fhirChildLinkIds(alcohol) == ["q-drinks", "grp-spirits"])
        let spirits = fhirItem("grp-spirits", in: response)
        #expect(spirits?[fx: "text"] == .string("Spirits"))
        #expect(fhirChildLinkIds(spirits) == ["q-spirits"])
    }

    @Test func sectionsWithoutFHIRAreGroups() {
        let response = Self.response(Self.fullRun())
        let form = fhirItem("plain-form", in: response)
        #expect(fhirChildLinkIds(form) == ["plain-form.first", "plain-form.section1"])
        let section = fhirItem("plain-form.section1", in: response)
        #expect(section?[fx: "text"] == .string("Later"))
        #expect(fhirChildLinkIds(section) == ["plain-form.second"])
    }

    @Test(arguments: [
        ("completed", "completed"), ("saved", "in-progress"), (nil, "in-progress"),
        ("discarded", "stopped"), ("failed", "stopped"), ("earlyTermination", "stopped"),
    ] as [(String?, String)])
    func statusFollowsFinishReason(_ finishReason: String?, _ status: String) {
        let response = Self.response(Self.fullRun(finishReason: finishReason))
        #expect(response[fx: "status"] == .string(status))
    }

    @Test func unansweredAndHiddenItemsAreAbsent() {
        // "drinks" is skipped (no answer key); "spirits" was hidden (no result); "first" unanswered.
        let result = FHIRRunResult.run([
            FHIRRunResult.step("history", [
                FHIRRunResult.question("smoker", "boolean", #""booleanAnswer": false"#),
                FHIRRunResult.question("drinks", "numeric"),
            ]),
            FHIRRunResult.step("plain-form", [FHIRRunResult.question("first", "text"), FHIRRunResult.question("second", "text")]),
        ])
        let response = Self.response(result)
        #expect(fhirChildLinkIds(response) == ["grp-history"])
        #expect(fhirChildLinkIds(fhirItem("grp-history", in: response)) == ["q-smoker"])
        #expect(fhirItem("grp-alcohol", in: response) == nil)
    }

    @Test func noAnswersLeavesNoItems() {
        let result = FHIRRunResult.run([FHIRRunResult.step("intro")], finishReason: nil)
        let response = Self.response(result)
        #expect(response[fx: "item"] == nil)
        #expect(response[fx: "status"] == .string("in-progress"))
    }

    @Test func dontKnowIsAskedUnknown() throws {
        let response = Self.response(Self.fullRun())
        let sleep = try #require(fhirItem("history.sleep", in: response))
        #expect(sleep[fx: "answer"] == nil)
        #expect(sleep[fx: "text"] == .string("Hours of sleep"))
        #expect(fhirExtension("http://hl7.org/fhir/StructureDefinition/data-absent-reason", on: sleep) == FHIRExportFixtures.json("""
        {"url": "http://hl7.org/fhir/StructureDefinition/data-absent-reason", "valueCode": "asked-unknown"}
        """))
    }

    @Test func timingsPerStepAndRun() {
        let response = Self.response(Self.fullRun())
        let extensions = response[fx: "extension"]?.fxArray ?? []
        let run = extensions.filter { $0[fx: "url"]?.fxString == "urn:survey-presenter:fhir:run-timing" }
        #expect(run == [FHIRExportFixtures.json("""
        {"url": "urn:survey-presenter:fhir:run-timing", "extension": [
          {"url": "start", "valueDateTime": "2026-11-21T10:00:00+01:00"}, {"url": "end", "valueDateTime": "2026-11-21T10:05:00+01:00"}]}
        """)])
        let steps = extensions.filter { $0[fx: "url"]?.fxString == "urn:survey-presenter:fhir:step-timing" }
        let linkIds = steps.compactMap { $0[fx: "extension"]?.fxArray?.first?[fx: "valueString"]?.fxString }
        #expect(linkIds == ["intro", "grp-history", "plain-form", "q-mood", "check", "done"])
        #expect(steps[1] == FHIRExportFixtures.json("""
        {"url": "urn:survey-presenter:fhir:step-timing", "extension": [
          {"url": "linkId", "valueString": "grp-history"},
          {"url": "start", "valueDateTime": "2026-11-21T10:00:03+01:00"}, {"url": "end", "valueDateTime": "2026-11-21T10:00:04+01:00"}]}
        """))
    }

    @Test func aStepPassedTwiceAnswersAsItWasLast() {
        let result = FHIRRunResult.run([
            FHIRRunResult.step("mood", [FHIRRunResult.question("mood", "boolean", #""booleanAnswer": true"#)], second: 1),
            FHIRRunResult.step("mood", [FHIRRunResult.question("mood", "boolean", #""booleanAnswer": false"#)], second: 3),
        ])
        let response = Self.response(result)
        #expect(fhirChildLinkIds(response) == ["q-mood"])
        #expect(fhirItem("q-mood", in: response)?[fx: "answer"] == FHIRExportFixtures.json(#"[{"valueBoolean": false}]"#))
        #expect(response[fx: "extension"]?.fxArray?.count == 3)
    }

    @Test func canonicalWithAndWithoutVersion() {
        #expect(QuestionnaireResponseExport.canonical(survey: Self.survey, surveyVersion: nil) == "urn:survey-presenter:questionnaire:intake")
        #expect(QuestionnaireResponseExport.canonical(survey: Self.survey, surveyVersion: "0123abcd") == "urn:survey-presenter:questionnaire:intake|0123abcd")
        let withFHIR = FHIRExportFixtures.json("""
        {"identifier": "phq", "fhir": {"url": "http://example.org/Questionnaire/phq-9", "version": "2.1"}, "steps": []}
        """)
        #expect(QuestionnaireResponseExport.canonical(survey: withFHIR, surveyVersion: "0123abcd") == "http://example.org/Questionnaire/phq-9|2.1")
        let urlOnly = FHIRExportFixtures.json(#"{"identifier": "phq", "fhir": {"url": "http://example.org/Questionnaire/phq-9"}, "steps": []}"#)
        #expect(QuestionnaireResponseExport.canonical(survey: urlOnly, surveyVersion: nil) == "http://example.org/Questionnaire/phq-9")
        // The EHR's own Questionnaire has no version of ours.
        #expect(QuestionnaireResponseExport.canonical(survey: urlOnly, surveyVersion: "77") == "http://example.org/Questionnaire/phq-9")
    }

    @Test func bundleShape() {
        let first = Self.response(Self.fullRun())
        var secondResult = Self.fullRun(finishReason: "saved").fxObject!
        secondResult["taskRunUUID"] = .string("0B2D0000-0000-4000-8000-000000000002")
        let second = Self.response(.object(secondResult))
        let bundle = QuestionnaireResponseExport.bundle([first, second])
        expectFHIRClean(bundle)
        #expect(bundle[fx: "resourceType"] == .string("Bundle"))
        #expect(bundle[fx: "type"] == .string("collection"))
        let entries = bundle[fx: "entry"]?.fxArray ?? []
        #expect(entries.count == 2)
        #expect(entries.map { $0[fx: "fullUrl"] } == [
            .string("urn:uuid:9a1c0000-0000-4000-8000-000000000001"), .string("urn:uuid:0b2d0000-0000-4000-8000-000000000002"),
        ])
        #expect(entries.map { $0[fx: "resource"] } == [first, second])
    }

    @Test func emptyBundleHasNoEntryKey() {
        let bundle = QuestionnaireResponseExport.bundle([])
        expectFHIRClean(bundle)
        #expect(bundle == FHIRExportFixtures.json(#"{"resourceType": "Bundle", "type": "collection"}"#))
    }
}
