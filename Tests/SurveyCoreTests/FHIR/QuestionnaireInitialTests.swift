import Foundation
import JSON
@testable import SurveyCore
import SurveyTestSupport
import Testing

/// Initial answers, in the shape a result records them.
@Suite struct QuestionnaireInitialTests {
    @Test func initialValuesOfEachType() {
        let outcome = importItems(#"""
            {"linkId": "b", "text": "B", "type": "boolean", "initial": [{"valueBoolean": true}]},
            {"linkId": "d", "text": "D", "type": "decimal", "initial": [{"valueDecimal": 1.5}]},
            {"linkId": "i", "text": "I", "type": "integer", "initial": [{"valueInteger": 4}]},
            {"linkId": "q", "text": "Q", "type": "quantity", "initial": [{"valueQuantity": {"value": 70, "code": "kg"}}]},
            {"linkId": "s", "text": "S", "type": "string", "initial": [{"valueString": "Anna"}]},
            {"linkId": "da", "text": "Da", "type": "date", "initial": [{"valueDate": "2026-03-01"}]},
            {"linkId": "dt", "text": "Dt", "type": "dateTime", "initial": [{"valueDateTime": "2026-03-01T09:30:00+01:00"}]},
            {"linkId": "t", "text": "T", "type": "time", "initial": [{"valueTime": "07:45:00"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        let expected: [JSONValue] = [.bool(true), .number(1.5), .number(4), .number(70), .string("Anna"), .string("2026-03-01"),
                                     .string("2026-03-01T09:30:00+01:00"), .string("07:45")]
        for (index, value) in expected.enumerated() {
            #expect(outcome.value("steps", .index(index), "initial") == value)
        }
    }

    @Test func anInitialValueOfTheWrongTypeIsLeftOutWithAWarning() {
        let outcome = importItems(#"{"linkId": "b", "text": "B", "type": "boolean", "initial": [{"valueString": "yes"}]}"#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "initial") == nil)
        #expect(outcome.finding(.warning, at: "$.item[0].initial[0].valueString")?.message.contains("'b'") == true)
    }

    @Test func aChoiceInitialCodingIsMatchedToItsOption() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "repeats": true,
             "answerOption": [{"valueCoding": {"system": "http://a.org", "code": "x"}}, {"valueCoding": {"system": "http://a.org", "code": "y"}}],
             "initial": [{"valueCoding": {"system": "http://a.org", "code": "y"}}, {"valueCoding": {"system": "http://b.org", "code": "x"}}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "initial") == fhirJSON(#"["y"]"#))
        #expect(outcome.finding(.warning, at: "$.item[0].initial[1].valueCoding") != nil)
    }

    @Test func initialSelectedOptionsAreTheInitialChoices() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice", "repeats": true,
             "answerOption": [{"valueString": "a", "initialSelected": true}, {"valueString": "b"}, {"valueInteger": 3, "initialSelected": true}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "initial") == fhirJSON(#"["a", 3]"#))
    }

    @Test("Options marked initialSelected beside an initial (R4's que-11 forbids both) win, with a warning at the initial")
    func initialSelectedBesideInitialIsLenient() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "choice",
             "answerOption": [{"valueString": "a"}, {"valueString": "b", "initialSelected": true}], "initial": [{"valueString": "a"}]},
            {"linkId": "r", "text": "R?", "type": "choice", "answerOption": [{"valueString": "a"}, {"valueString": "b"}],
             "initial": [{"valueString": "a"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "initial") == fhirJSON(#"["b"]"#))
        #expect(outcome.finding(.warning, at: "$.item[0].initial[0].valueString")?.message.contains("que-11") == true)
        #expect(outcome.value("steps", 1, "initial") == fhirJSON(#"["a"]"#), "without initialSelected, initial is used")
        #expect(outcome.finding(.warning, at: "$.item[1].initial[0].valueString") == nil)
    }

    @Test func openChoiceTakesTypedTextAsItsInitialAnswer() {
        let outcome = importItems(#"""
            {"linkId": "q", "text": "Q?", "type": "open-choice", "answerOption": [{"valueString": "Cat"}], "initial": [{"valueString": "Hamster"}]}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.value("steps", 0, "initial") == fhirJSON(#"["Hamster"]"#))
    }

    @Test func stu3InitialKeysAreRead() {
        let outcome = importItems(#"""
            {"linkId": "b", "text": "B", "type": "boolean", "initialBoolean": false},
            {"linkId": "t", "text": "T", "type": "time", "initialTime": "22:15:00"},
            {"linkId": "c", "text": "C", "type": "choice", "option": [{"valueCoding": {"code": "1"}}, {"valueCoding": {"code": "2"}}],
             "initialCoding": {"code": "2"}}
            """#)
        expectNoErrors(outcome)
        #expect(outcome.warnings.isEmpty)
        #expect(outcome.value("steps", 0, "initial") == .bool(false))
        #expect(outcome.value("steps", 1, "initial") == .string("22:15"))
        #expect(outcome.value("steps", 2, "initial") == fhirJSON(#"["2"]"#))
    }
}
