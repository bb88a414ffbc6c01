import FHIRPath
import Foundation
import Testing

private typealias Kit = FHIRPathTestSupport

/// Literals of every kind, as the FHIRPath grammar writes them.
@Suite("FHIRPath literals")
struct FHIRPathLiteralTests {
    static let cases: [(String, [FHIRPathValue])] = [
        ("true", [.boolean(true)]),
        ("false", [.boolean(false)]),
        ("42", [.integer(42)]),
        ("0", [.integer(0)]),
        ("3.14", [Kit.decimal("3.14")]),
        ("'hello'", [.string("hello")]),
        ("''", [.string("")]),
        (#"'it\'s'"#, [.string("it's")]),
        (#"'back\\slash'"#, [.string("back\\slash")]),
        (#"'line\nbreak'"#, [.string("line\nbreak")]),
        (#"'tab\there'"#, [.string("tab\there")]),
        (#"'\u00e9t\u00E9'"#, [.string("été")]),
        (#"'a\"b\/c'"#, [.string("a\"b/c")]),
        ("'naïve 😀'", [.string("naïve 😀")]),
        ("@2020-01-02", [.date("2020-01-02")]),
        ("@2020-01", [.date("2020-01")]),
        ("@2020", [.date("2020")]),
        ("@2020-02-29", [.date("2020-02-29")]),
        ("@2020-01-02T10:00:00Z", [.dateTime("2020-01-02T10:00:00Z")]),
        ("@2020-01-02T10:00:00.123+05:30", [.dateTime("2020-01-02T10:00:00.123+05:30")]),
        ("@2020-01-02T10:00", [.dateTime("2020-01-02T10:00")]),
        ("@2020-01-02T", [.dateTime("2020-01-02")]),
        ("@T10:00", [.time("10:00")]),
        ("@T23:59:59.999", [.time("23:59:59.999")]),
        ("5 'mg'", [.quantity(5, unit: "mg")]),
        ("1.5 'kg/m2'", [.quantity(Decimal(string: "1.5")!, unit: "kg/m2")]),
        ("{}", []),
        ("// a comment\n 1 /* and another */ + 1", [.integer(2)]),
        ("@2020-01-02.toString()", [.string("2020-01-02")]),
    ]

    @Test(arguments: cases)
    func literal(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    @Test func backtickNamesReadKeysThatAreNotPlainNames() {
        let resource = Kit.json(#"{"resourceType": "Basic", "div": 3, "my key": "x"}"#)
        #expect(Kit.evaluate("`div` + 1", FHIRPathEnvironment(resource: resource)) == [.integer(4)])
        #expect(Kit.evaluate("`my key`", FHIRPathEnvironment(resource: resource)) == [.string("x")])
    }

    @Test func quotedVariableNames() {
        let environment = FHIRPathEnvironment(variables: ["my score": [.integer(5)], "plain": [.integer(1)]])
        #expect(Kit.evaluate("%'my score' + %`plain`", environment) == [.integer(6)])
    }

    @Test func builtInConstants() {
        #expect(Kit.evaluate("%ucum") == [.string("http://unitsofmeasure.org")])
        #expect(Kit.evaluate("%loinc & '|' & %sct") == [.string("http://loinc.org|http://snomed.info/sct")])
        #expect(Kit.evaluate("%ucum", FHIRPathEnvironment(variables: ["ucum": [.integer(1)]])) == [.integer(1)])
    }

    @Test(arguments: ["@2020-02-30", "@2021-02-29", "@2020-13", "@2020-1-02", "@T24:00", "@2020-01-02T10:60", "@T10:00Z", "@2020-01-02Z", "@x"])
    func invalidDatesAreRefusedAtTheirStart(_ source: String) {
        let error = Kit.refusal("1 + " + source)
        #expect(error?.position == 4, "\(source)")
        #expect(error?.message.contains("not a valid date") == true, "\(source)")
    }
}
