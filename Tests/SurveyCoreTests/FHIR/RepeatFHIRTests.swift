import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Repeating forms and grids in FHIR: a repeating group with its limits and a `table` group
/// out, an item per instance in the response, and both read back in.
@Suite("Repeating forms and grids in FHIR")
struct RepeatFHIRTests {
    static let survey = """
        {"identifier": "meds", "steps": [
          {"identifier": "meds", "type": "form", "title": "Medicines", "repeat": {"label": "Medicine", "minimum": 2, "maximum": 5},
           "items": [{"identifier": "name", "text": "Name", "optional": false, "answerFormat": {"type": "text"}}]},
          {"identifier": "feel", "type": "form", "title": "How often", "grid": true, "items": [
            {"identifier": "a", "text": "Nervous", "answerFormat": {"type": "textChoice", "style": "singleChoice",
             "choices": [{"text": "Never", "value": "never"}, {"text": "Often", "value": "often"}]}},
            {"identifier": "b", "text": "Worried", "answerFormat": {"type": "textChoice", "style": "singleChoice",
             "choices": [{"text": "Never", "value": "never"}, {"text": "Often", "value": "often"}]}}]}]}
        """

    @Test("A repeating form is a repeating, required group with minOccurs and maxOccurs; a grid asks for a table")
    func questionnaire() throws {
        let survey = fhirJSON(Self.survey)
        let exported = QuestionnaireExport.questionnaire(fromSurvey: survey, surveyVersion: nil).questionnaire
        let meds = try #require(fhirItem("meds", in: exported))
        #expect(meds[fx: "repeats"] == .bool(true) && meds[fx: "required"] == .bool(true))
        #expect(fhirExtension(FHIRExtensionURL.minOccurs, on: meds)?[fx: "valueInteger"] == .number(2))
        #expect(fhirExtension(FHIRExtensionURL.maxOccurs, on: meds)?[fx: "valueInteger"] == .number(5))
        let feel = try #require(fhirItem("feel", in: exported))
        #expect(pick(fhirExtension(FHIRExtensionURL.itemControl, on: feel), "valueCodeableConcept", "coding", 0, "code") == .string("table"))
        #expect(feel[fx: "repeats"] == nil)
        expectFHIRClean(exported)
    }

    @Test("The response holds the repeating group once per instance, each with that instance's answers")
    func response() throws {
        let task = try loadSurvey(Self.survey)
        let navigator = Navigator(task: task, timeZone: utc)
        guard case .object(let script) = fhirJSON(#"{"meds": [{"name": "Aspirin"}, {"name": "Ibuprofen"}], "feel": {"a": "often", "b": "never"}}"#),
              case .arrived(let run) = navigator.walk(script, from: referenceNow) else { throw CancellationError() }
        #expect(run.isFinished)
        let result = navigator.result(of: run, now: referenceNow).json(in: utc)
        let response = QuestionnaireResponseExport.response(survey: task.json, result: result, surveyVersion: nil)
        let groups = (response[fx: "item"]?.fxArray ?? []).filter { $0[fx: "linkId"] == .string("meds") }
        #expect(groups.count == 2)
        #expect(groups.map { pick($0, "item", 0, "answer", 0, "valueString") } == [.string("Aspirin"), .string("Ibuprofen")])
        expectFHIRClean(response)
    }

    @Test("A run saved part-way through an instance keeps that instance's answers so far in the response")
    func savedMidInstance() throws {
        let task = try loadSurvey(Self.survey)
        let navigator = Navigator(task: task, timeZone: utc)
        var run = navigator.start(now: referenceNow)
        let context = AnswerContext(language: "en", now: referenceNow, timeZone: utc)
        guard case .accepted(let first) = navigator.answer(run, visit: 0, fields: FormFields(pairs: [("name", "Aspirin")]), context: context),
              case .accepted(let second) = navigator.act(.another, on: first, visit: 0, fields: FormFields(pairs: [("_another", "yes")]),
                                                         now: referenceNow) else { throw CancellationError() }
        run = second
        run.visits[0].results = [QuestionResult(identifier: "name", type: .text, startDate: referenceNow, endDate: referenceNow,
                                                answer: .text("Ibuprofen"))]
        let result = navigator.result(of: run, now: referenceNow).json(in: utc)
        let response = QuestionnaireResponseExport.response(survey: task.json, result: result, surveyVersion: nil)
        #expect(response[fx: "status"] == .string("in-progress"))
        let names = (response[fx: "item"]?.fxArray ?? []).map { pick($0, "item", 0, "answer", 0, "valueString") }
        #expect(names == [.string("Aspirin"), .string("Ibuprofen")])
    }

    @Test("Read in: a top-level repeating group becomes a repeating form with its limits, a table group a grid; a nested one is refused")
    func importing() throws {
        let outcome = importItems("""
            {"linkId": "meds", "type": "group", "text": "Medicine", "repeats": true, "required": true,
             "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-maxOccurs", "valueInteger": 4}],
             "item": [{"linkId": "name", "type": "string", "text": "Name"}]},
            {"linkId": "feel", "type": "group", "text": "How often",
             "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl",
                            "valueCodeableConcept": {"coding": [{"system": "http://hl7.org/fhir/questionnaire-item-control", "code": "table"}]}}],
             "item": [{"linkId": "a", "type": "choice", "text": "Nervous", "answerOption": [{"valueCoding": {"code": "0", "display": "Never"}},
                                                                                             {"valueCoding": {"code": "1", "display": "Often"}}]},
                      {"linkId": "b", "type": "choice", "text": "Worried", "answerOption": [{"valueCoding": {"code": "0", "display": "Never"}},
                                                                                             {"valueCoding": {"code": "1", "display": "Often"}}]}]}
            """)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "repeat", "minimum") == .number(1))
        #expect(outcome.value("steps", 0, "repeat", "maximum") == .number(4))
        #expect(outcome.value("steps", 0, "repeat", "label") == .string("Medicine"))
        #expect(outcome.value("steps", 1, "grid") == .bool(true))
        let survey = try #require(outcome.survey)
        #expect((try? SurveyLoader.load(Data(JSONWriter.string(survey, pretty: false).utf8))) != nil, "the survey read in loads")
        let nested = importItems("""
            {"linkId": "outer", "type": "group", "item": [{"linkId": "inner", "type": "group", "repeats": true,
              "item": [{"linkId": "x", "type": "string"}]}]}
            """)
        #expect(nested.errors.contains { $0.message.contains("repeating group inside another group") })
    }
}
