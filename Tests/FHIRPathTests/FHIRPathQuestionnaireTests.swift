import FHIRPath
import Foundation
import JSON
import Testing

private typealias Kit = FHIRPathTestSupport

/// Expressions of the kind SDC questionnaires carry, over a small response and its questionnaire.
@Suite("FHIRPath over questionnaires")
struct FHIRPathQuestionnaireTests {
    static let ordinal = "http://hl7.org/fhir/StructureDefinition/ordinalValue"

    static let response = Kit.json("""
        {
          "resourceType": "QuestionnaireResponse",
          "status": "completed",
          "authored": "2024-03-01T09:30:00Z",
          "item": [
            {"linkId": "phq1", "answer": [{"valueCoding": {"system": "http://loinc.org", "code": "LA6569-3", "display": "Several days"}}]},
            {"linkId": "phq2", "answer": [{"valueCoding": {"system": "http://loinc.org", "code": "LA6570-1"}}]},
            {"linkId": "age", "answer": [{"valueInteger": 42}]},
            {"linkId": "score1", "answer": [{"valueInteger": 3}]},
            {"linkId": "score2", "answer": [{"valueDecimal": 2.5}]},
            {"linkId": "score3", "answer": [{"valueInteger": 4}]},
            {"linkId": "weight", "answer": [{"valueQuantity": {"value": 70, "unit": "kg", "system": "http://unitsofmeasure.org", "code": "kg"}}]},
            {"linkId": "height", "answer": [{"valueQuantity": {"value": 175, "unit": "cm", "system": "http://unitsofmeasure.org", "code": "cm"}}]},
            {"linkId": "smoker", "answer": [{"valueBoolean": true}]},
            {"linkId": "dob", "answer": [{"valueDate": "1982-05-17"}]},
            {"linkId": "ratio", "answer": [{"valueDecimal": 2}]},
            {"linkId": "group", "item": [{"linkId": "nested", "answer": [{"valueString": "inside"}]}]}
          ]
        }
        """)

    static let questionnaire: JSONValue = {
        let options = [("LA6568-5", 0), ("LA6569-3", 1), ("LA6570-1", 2), ("LA6571-9", 3)].map { code, score in
            """
            {"valueCoding": {"system": "http://loinc.org", "code": "\(code)"},
             "extension": [{"url": "\(ordinal)", "valueDecimal": \(score)}]}
            """
        }.joined(separator: ",")
        return Kit.json("""
            {"resourceType": "Questionnaire", "url": "http://example.org/phq",
             "item": [{"linkId": "phq1", "type": "choice", "answerOption": [\(options)]},
                      {"linkId": "phq2", "type": "choice", "answerOption": [\(options)]},
                      {"linkId": "age", "type": "integer"}]}
            """)
    }()

    static func environment(_ variables: [String: [FHIRPathValue]] = [:]) -> FHIRPathEnvironment {
        FHIRPathEnvironment(resource: response, questionnaire: questionnaire, variables: variables)
    }

    static let cases: [(String, [FHIRPathValue])] = [
        ("QuestionnaireResponse.item.count()", [.integer(12)]),
        ("Patient.item", []),
        ("item.count()", [.integer(12)]),
        ("$this.status", [.string("completed")]),
        ("%resource.status", [.string("completed")]),
        ("%context.status", [.string("completed")]),
        ("item.where(linkId = 'age').answer.value", [.integer(42)]),
        ("item.where(linkId = 'age').answer.value + 1", [.integer(43)]),
        ("item.where(linkId = 'age').answer.valueString", []),
        ("item.where(linkId = 'nothing').answer.value", []),
        ("item[2].linkId", [.string("age")]),
        ("item.where(`linkId` = 'age').answer.value", [.integer(42)]),
        ("item.where(linkId = 'ratio').answer.value", [.decimal(2)]),
        ("item.where(linkId = 'smoker').answer.value", [.boolean(true)]),
        ("item.where(linkId = 'dob').answer.value", [.date("1982-05-17")]),
        ("item.where(linkId = 'dob').answer.value < @2000-01-01", [.boolean(true)]),
        ("authored > @2024-01-01", [.boolean(true)]),
        ("item.item.answer.value", [.string("inside")]),
        ("item.where(linkId = 'group').item.where(linkId = 'nested').answer.value = 'inside'", [.boolean(true)]),
        ("item.where(linkId = 'phq1').answer.value.code", [.string("LA6569-3")]),
        ("item.where(linkId = 'phq1').answer.valueCoding.system = %loinc", [.boolean(true)]),
        ("item.where(linkId = 'weight').answer.value.value", [.integer(70)]),
        ("item.where(linkId = 'weight').answer.value > 60 'kg'", [.boolean(true)]),
        ("item.where(linkId = 'weight').answer.value = 70 'kg'", [.boolean(true)]),
        ("item.where(answer.exists()).count()", [.integer(11)]),
        ("item.where(linkId = 'smoker').answer.value and item.where(linkId = 'age').answer.value > 40", [.boolean(true)]),
        ("item.select(linkId).where($this = 'age' or $this = 'dob')", [.string("age"), .string("dob")]),
        ("item.linkId.distinct().count()", [.integer(12)]),
        ("item.where(linkId in ('score1' | 'score3' | 'age')).answer.value.where($this > 3).count()", [.integer(2)]),
        // Sums of the answers of items whose linkId is in a list.
        ("%resource.item.where(linkId in ('score1' | 'score2' | 'score3')).answer.value.sum()", [Kit.decimal("9.5")]),
        ("%resource.item.where(linkId in ('score1' | 'score3')).answer.value.sum()", [.integer(7)]),
        ("%resource.item.where(linkId in ('nothing' | 'else')).answer.value.sum()", [.integer(0)]),
        // The tree: children, descendants and repeat find nested items wherever they are.
        ("item.where(linkId = 'group').children().count()", [.integer(2)]),
        ("repeat(item).count()", [.integer(13)]),
        ("repeat(item).where(linkId = 'nested').answer.value", [.string("inside")]),
        ("descendants().where(linkId = 'nested').answer.value", [.string("inside")]),
        ("descendants().where(linkId = 'age').answer.value", [.integer(42)]),
        ("descendants().linkId.count()", [.integer(13)]),
        ("(1 | 2).repeat($this)", [.integer(1), .integer(2)]),
        ("(%resource.item.where(linkId = 'weight').answer.value.value / "
            + "(%resource.item.where(linkId = 'height').answer.value.value / 100).power(2)).round(1)", [Kit.decimal("22.9")]),
        // SDC's answers() and ordinal(): a total score as published PHQ-9s write it.
        ("%resource.answers().count()", [.integer(12)]),
        ("item.where(linkId = 'group').answers().value", [.string("inside")]),
        ("%resource.answers().value.ordinal()", [.decimal(1), .decimal(2)]),
        ("%resource.answers().value.ordinal().sum()", [.decimal(3)]),
        ("item.where(linkId = 'age').answer.value.ordinal()", []),
        ("%resource.item.where(linkId = 'phq1').answer.value.ordinal() = 1", [.boolean(true)]),
        // Questionnaire structure.
        ("%questionnaire.item.where(linkId = 'phq1').answerOption.count()", [.integer(4)]),
        ("%questionnaire.item.answer", []),
        ("%questionnaire.item.where(type = 'choice').linkId", [.string("phq1"), .string("phq2")]),
        // An answerOption's ordinalValue, found by the code answered in the response.
        ("""
         %questionnaire.item.where(linkId = 'phq1').answerOption
           .where(value.code = %resource.item.where(linkId = 'phq1').answer.value.code)
           .extension('\(ordinal)').value
         """, [.decimal(1)]),
        // A total score: each item's ordinal, looked up by its own answer.
        ("""
         %questionnaire.item.where(linkId = 'phq1').answerOption
           .where(valueCoding.code = %resource.item.where(linkId = 'phq1').answer.value.code).extension('\(ordinal)').value
         + %questionnaire.item.where(linkId = 'phq2').answerOption
           .where(valueCoding.code = %resource.item.where(linkId = 'phq2').answer.value.code).extension('\(ordinal)').value
         """, [.decimal(3)]),
    ]

    @Test(arguments: cases)
    func expression(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source, Self.environment()) == expected, "\(source)")
    }

    @Test func bodyMassIndexFromNumbers() {
        let environment = Self.environment(["weight": [.decimal(70)], "height": [.integer(175)]])
        let bmi = "(%weight / ((%height / 100) * (%height / 100))).round(1)"
        #expect(Kit.evaluate(bmi, environment) == [Kit.decimal("22.9")])
    }

    @Test func bodyMassIndexFromQuantityAnswers() throws {
        let environment = Self.environment()
        let weight = try #require(Kit.evaluate("item.where(linkId = 'weight').answer.value", environment))
        let height = try #require(Kit.evaluate("item.where(linkId = 'height').answer.value", environment))
        let withAnswers = Self.environment(["weight": weight, "height": height])
        // Units are not converted: the number is right, the unit says what was multiplied.
        let bmi = "(%weight / ((%height / 100) * (%height / 100))).round(1)"
        #expect(Kit.evaluate(bmi, withAnswers) == [.quantity(Decimal(string: "22.9")!, unit: "kg/cm2")])
        let values = "(%weight.value / ((%height.value / 100) * (%height.value / 100))).round(1)"
        #expect(Kit.evaluate(values, withAnswers) == [Kit.decimal("22.9")])
    }

    @Test func contextAndVariables() {
        let item = Kit.json(#"{"linkId": "age", "answer": [{"valueInteger": 42}]}"#)
        let environment = FHIRPathEnvironment(resource: Self.response, context: item, variables: ["limits": [.integer(18), .integer(65)]])
        #expect(Kit.evaluate("%context.answer.value >= %limits.first() and %context.answer.value <= %limits.last()", environment)
                == [.boolean(true)])
        #expect(Kit.evaluate("%limits.count()", environment) == [.integer(2)])
    }

    @Test func noResourceMeansAnEmptyFocus() {
        #expect(Kit.evaluate("item.count()") == [.integer(0)])
        #expect(Kit.evaluate("%resource.exists()") == [.boolean(false)])
        #expect(Kit.evaluate("iif(exists(), 'some', 'none')") == [.string("none")])
    }

    @Test func keysTellThePrimitiveType() {
        let resource = Kit.json("""
            {"resourceType": "Basic", "a": 2, "b": 2.5, "aDecimal": 2, "count": 3, "countInteger": 4,
             "born": "2020-01-02", "bornDate": "2020-01-02", "whenDateTime": "2020-01-02T10:00:00Z", "atTime": "10:30:00",
             "stamp": "2020-01-02T10:00:00Z", "lastInstant": "2020-01-02T10:00:00.000Z", "bigInteger64": "9007199254740993",
             "flag": false, "nothing": null}
            """)
        let environment = FHIRPathEnvironment(resource: resource)
        let expectations: [(String, [FHIRPathValue])] = [
            ("a", [.integer(2)]), ("b", [Kit.decimal("2.5")]), ("aDecimal", [.decimal(2)]), ("countInteger", [.integer(4)]),
            ("born", [.string("2020-01-02")]), ("bornDate", [.date("2020-01-02")]),
            ("whenDateTime", [.dateTime("2020-01-02T10:00:00Z")]), ("atTime", [.time("10:30:00")]),
            ("stamp", [.string("2020-01-02T10:00:00Z")]), ("lastInstant", [.dateTime("2020-01-02T10:00:00.000Z")]),
            ("bigInteger64", [.integer(9_007_199_254_740_993)]), ("flag", [.boolean(false)]), ("nothing", []),
            ("when", [.dateTime("2020-01-02T10:00:00Z")]), ("at", [.time("10:30:00")]),
        ]
        for (source, expected) in expectations {
            #expect(Kit.evaluate(source, environment) == expected, "\(source)")
        }
    }
}
