import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// How items become steps, form items, section headers and notes, and the keys every item keeps.
@Suite struct QuestionnaireItemTests {
    @Test func topLevelItemsBecomeFormInstructionAndQuestionSteps() {
        let outcome = importItems(#"""
            {"linkId": "intro", "text": "Welcome.", "type": "display"},
            {"linkId": "g", "text": "About you", "type": "group", "item": [{"linkId": "age", "text": "Age?", "type": "integer"}]},
            {"linkId": "ok", "text": "All well?", "type": "boolean"}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps") == fhirJSON(#"""
            [{"identifier": "intro", "type": "instruction", "text": "Welcome.", "fhir": {"linkId": "intro", "type": "display"}},
             {"identifier": "g", "type": "form", "title": "About you",
              "items": [{"identifier": "age", "text": "Age?", "answerFormat": {"type": "numeric", "style": "integer"},
                         "fhir": {"linkId": "age", "type": "integer"}}],
              "fhir": {"linkId": "g", "type": "group"}},
             {"identifier": "ok", "type": "question", "question": "All well?", "answerFormat": {"type": "boolean"},
              "fhir": {"linkId": "ok", "type": "boolean"}}]
            """#))
    }

    @Test func aGroupWithNothingToShowIsAnErrorNamingIt() {
        let outcome = importItems(#"""
            {"linkId": "empty-group", "text": "Nothing", "type": "group", "item": [
              {"linkId": "secret", "text": "Hidden note", "type": "display",
               "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0]")?.message.contains("'empty-group'") == true)
    }

    @Test func aNestedGroupBecomesASectionHeaderAndItsItemsCarryWithin() {
        let outcome = importItems(#"""
            {"linkId": "g", "text": "Form", "type": "group", "item": [
              {"linkId": "a", "text": "A?", "type": "boolean"},
              {"linkId": "outer", "text": "Outer", "type": "group", "code": [{"system": "http://loinc.org", "code": "1-8"}], "item": [
                {"linkId": "b", "text": "B?", "type": "boolean"},
                {"linkId": "inner", "text": "Inner", "type": "group", "item": [
                  {"linkId": "note", "text": "Read this.", "type": "display"},
                  {"linkId": "c", "text": "C?", "type": "boolean"}]}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "items") == fhirJSON(#"""
            [{"identifier": "a", "text": "A?", "answerFormat": {"type": "boolean"}, "fhir": {"linkId": "a", "type": "boolean"}},
             {"sectionTitle": "Outer", "fhir": {"linkId": "outer", "code": [{"system": "http://loinc.org", "code": "1-8"}]}},
             {"identifier": "b", "text": "B?", "answerFormat": {"type": "boolean"}, "fhir": {"linkId": "b", "type": "boolean", "within": ["outer"]}},
             {"sectionTitle": "Inner", "fhir": {"linkId": "inner", "within": ["outer"]}},
             {"note": "Read this.", "fhir": {"linkId": "note", "within": ["outer", "inner"]}},
             {"identifier": "c", "text": "C?", "answerFormat": {"type": "boolean"}, "fhir": {"linkId": "c", "type": "boolean", "within": ["outer", "inner"]}}]
            """#))
    }

    @Test func aNestedGroupWithoutTextIsHeadedByItsLinkIdWithAWarning() {
        let outcome = importItems(#"""
            {"linkId": "g", "text": "Form", "type": "group", "item": [
              {"linkId": "untitled", "type": "group", "item": [{"linkId": "a", "text": "A?", "type": "boolean"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "items", 0) == fhirJSON(#"{"sectionTitle": "untitled", "fhir": {"linkId": "untitled"}}"#))
        #expect(outcome.finding(.warning, at: "$.item[0].item[0]")?.message.contains("'untitled'") == true)
    }

    @Test func itemFHIRKeepsLinkIdTypeCodePrefixAndOnlyTheKeptExtensions() {
        let outcome = importItems(#"""
            {"linkId": "w", "prefix": "3a", "text": "Weight", "type": "quantity",
             "code": [{"system": "http://loinc.org", "code": "29463-7", "display": "Body weight"}],
             "extension": [
               {"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "kg"}},
               {"url": "http://hl7.org/fhir/StructureDefinition/minValue", "valueQuantity": {"value": 2}}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "fhir") == fhirJSON(#"""
            {"linkId": "w", "type": "quantity", "code": [{"system": "http://loinc.org", "code": "29463-7", "display": "Body weight"}], "prefix": "3a",
             "extension": [{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-unitOption", "valueCoding": {"system": "http://unitsofmeasure.org", "code": "kg"}}]}
            """#))
    }

    @Test func thePrefixComesBeforeTheShownText() {
        let outcome = importItems(#"""
            {"linkId": "g", "prefix": "Part 1", "text": "Mood", "type": "group", "item": [
              {"linkId": "q1", "prefix": "1.", "text": "Little interest", "type": "boolean"}]},
            {"linkId": "q2", "prefix": "2.", "text": "Feeling <down>", "type": "boolean"}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "title") == .string("Part 1 Mood"))
        #expect(outcome.value("steps", 0, "items", 0, "text") == .string("1. Little interest"))
        #expect(outcome.value("steps", 1, "question") == .string("2. Feeling &lt;down&gt;"))
        #expect(outcome.value("steps", 1, "fhir", "prefix") == .string("2."))
    }

    @Test func requiredAndReadOnly() {
        let outcome = importItems(#"""
            {"linkId": "a", "text": "A?", "type": "boolean", "required": true},
            {"linkId": "b", "text": "B", "type": "decimal", "readOnly": true},
            {"linkId": "c", "text": "C?", "type": "boolean", "required": false}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "optional") == .bool(false))
        #expect(outcome.value("steps", 1, "readOnly") == .bool(true))
        #expect(outcome.value("steps", 1, "optional") == nil)
        #expect(outcome.value("steps", 2, "optional") == nil)
    }

    @Test func requiredOrReadOnlyOnAGroupIsIgnoredWithAWarning() {
        let outcome = importItems(#"""
            {"linkId": "g", "text": "G", "type": "group", "required": true, "readOnly": true, "item": [{"linkId": "a", "text": "A?", "type": "boolean"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "optional") == nil)
        #expect(outcome.finding(.warning, at: "$.item[0].required")?.message.contains("'g'") == true)
        #expect(outcome.finding(.warning, at: "$.item[0].readOnly") != nil)
    }

    @Test func repeatsOnAQuestionThatIsNotAChoiceIsAnError() {
        let outcome = importItems(#"{"linkId": "names", "text": "Names", "type": "string", "repeats": true}"#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].repeats")?.message.contains("'names'") == true)
    }

    @Test func aRepeatingGroupInsideAGroupIsAnError() {
        let outcome = importItems(#"""
            {"linkId": "page", "type": "group", "item": [
              {"linkId": "meds", "text": "Medicines", "type": "group", "repeats": true, "item": [{"linkId": "m", "text": "Name", "type": "string"}]}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].item[0].repeats")?.message.contains("'meds'") == true)
    }

    @Test func aQuestionWithQuestionsOfItsOwnIsAnError() {
        let outcome = importItems(#"""
            {"linkId": "smoke", "text": "Smoke?", "type": "boolean", "item": [{"linkId": "how-much", "text": "How much?", "type": "integer"}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].item[0]")?.message.contains("'smoke'") == true)
    }

    @Test func attachmentAndReferenceAreErrorsNamingTheLinkId() {
        let outcome = importItems(#"""
            {"linkId": "photo", "text": "Photo", "type": "attachment"}, {"linkId": "gp", "text": "Your GP", "type": "reference"}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].type")?.message == "The item 'photo' asks for an attachment; this presenter cannot collect one.")
        #expect(outcome.finding(.error, at: "$.item[1].type")?.message == "The item 'gp' asks for a reference; this presenter cannot collect one.")
    }

    @Test func anUnknownTypeIsAnError() {
        let outcome = importItems(#"{"linkId": "x", "text": "X", "type": "question"}"#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].type")?.message.contains("'x'") == true)
    }

    @Test func unknownItemKeysAreIgnoredWithAWarning() {
        let outcome = importItems(#"""
            {"linkId": "a", "text": "A?", "type": "boolean", "definition": "http://example.org/def", "colour": "red", "_text": {}}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.map(\.path.description) == ["$.item[0].colour"])
        #expect(outcome.warnings.first?.message.contains("'a'") == true)
    }

    @Test func aModifierExtensionIsAnError() {
        let outcome = importItems(#"""
            {"linkId": "a", "text": "A?", "type": "boolean", "modifierExtension": [{"url": "http://example.org/negate", "valueBoolean": true}]}
            """#)
        #expect(outcome.survey == nil)
        #expect(outcome.finding(.error, at: "$.item[0].modifierExtension")?.message.contains("http://example.org/negate") == true)
    }

    @Test func hiddenQuestionsAreHiddenAndHiddenDisplaysAndGroupsDropTheirTexts() {
        let hidden = #"[{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#
        let outcome = importItems(#"""
            {"linkId": "secret-note", "text": "Not shown", "type": "display", "extension": \#(hidden)},
            {"linkId": "score", "text": "Score", "type": "integer", "extension": \#(hidden)},
            {"linkId": "g", "text": "Form", "type": "group", "item": [
              {"linkId": "a", "text": "A?", "type": "boolean"},
              {"linkId": "h", "text": "Hidden part", "type": "group", "extension": \#(hidden), "item": [
                {"linkId": "h-note", "text": "Hidden text", "type": "display"},
                {"linkId": "h-q", "text": "Hidden question", "type": "boolean"}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "identifier") == .string("score"))
        #expect(outcome.value("steps", 0, "hidden") == .bool(true))
        #expect(outcome.value("steps", 1, "items") == fhirJSON(#"""
            [{"identifier": "a", "text": "A?", "answerFormat": {"type": "boolean"}, "fhir": {"linkId": "a", "type": "boolean"}},
             {"identifier": "h-q", "text": "Hidden question", "answerFormat": {"type": "boolean"}, "hidden": true,
              "fhir": {"linkId": "h-q", "type": "boolean", "within": ["h"]}}]
            """#))
    }

    @Test("The texts under a question (help, a flyover, instructions) are shown under it; a question under a question is refused at its path")
    func textsUnderAQuestion() {
        let help = #"[{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl", "valueCodeableConcept": {"coding": [{"code": "help"}]}}]"#
        let hidden = #"[{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#
        let outcome = importItems(#"""
            {"linkId": "worry", "text": "Did you worry?", "type": "boolean", "item": [
              {"linkId": "worry-help", "text": "In the last 12 months.", "type": "display", "extension": \#(help)},
              {"linkId": "worry-secret", "text": "Never shown", "type": "display", "extension": \#(hidden)},
              {"linkId": "worry-note", "text": "Answer for the household & yourself.", "type": "display"}]},
            {"linkId": "g", "text": "Form", "type": "group", "item": [
              {"linkId": "when", "text": "When?", "type": "date", "item": [
                {"linkId": "when-help", "text": "Say roughly.", "type": "display", "enableWhen": [
                  {"question": "worry", "operator": "=", "answerBoolean": true}]}]}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "text") == .string("In the last 12 months. Answer for the household &amp; yourself."))
        #expect(outcome.value("steps", 1, "items", 0, "detailText") == .string("Say roughly."))
        #expect(outcome.finding(.warning, at: "$.item[1].item[0].item[0]")?.message.contains("always shown") == true)

        let nested = importItems(#"""
            {"linkId": "given", "text": "Given?", "type": "boolean", "item": [
              {"linkId": "given-help", "text": "Help", "type": "display"},
              {"linkId": "given-date", "text": "When?", "type": "date"}]}
            """#)
        #expect(nested.survey == nil)
        #expect(nested.finding(.error, at: "$.item[0].item[1]")?.message.contains("only a text") == true)
        #expect(nested.finding(.error, at: "$.item[0].item[0]") == nil)
    }

    @Test("A hidden group that holds only texts is simply not shown; one not hidden that shows nothing is still a fault")
    func hiddenGroupOfTexts() {
        let hidden = #"[{"url": "http://hl7.org/fhir/StructureDefinition/questionnaire-hidden", "valueBoolean": true}]"#
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "boolean"},
            {"linkId": "notes", "text": "For staff", "type": "group", "extension": \#(hidden), "item": [
              {"linkId": "notes-text", "text": "Check the wristband.", "type": "display"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "identifier") == .string("q"))
        #expect(outcome.value("steps", 1) == nil)
        let empty = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "boolean"},
            {"linkId": "notes", "text": "For staff", "type": "group", "item": [
              {"linkId": "notes-text", "text": "Check the wristband.", "type": "display", "extension": \#(hidden)}]}
            """#)
        #expect(empty.finding(.error, at: "$.item[1]")?.message.contains("nothing that can be shown") == true)
    }
}
