import FHIRPath
import Foundation
import Testing

private typealias Kit = FHIRPathTestSupport

/// Each supported function on literal collections.
@Suite("FHIRPath functions")
struct FHIRPathFunctionTests {
    static let cases: [(String, [FHIRPathValue])] = [
        // where, select
        ("(1 | 2 | 3).where($this > 1)", [.integer(2), .integer(3)]),
        ("(1 | 2 | 3).where($this > 5)", []),
        ("{}.where(true)", []),
        ("(1 | 2).where({})", []),
        ("('a' | 'b').where($this)", [.string("a"), .string("b")]),
        ("(1 | 2 | 3).select($this * 2)", [.integer(2), .integer(4), .integer(6)]),
        ("(1 | 2).select($this | 10)", [.integer(1), .integer(10), .integer(2), .integer(10)]),
        ("(1 | 2).select({})", []),
        // exists, empty, all
        ("(1 | 2).exists()", [.boolean(true)]),
        ("{}.exists()", [.boolean(false)]),
        ("(1 | 2).exists($this > 1)", [.boolean(true)]),
        ("(1 | 2).exists($this > 5)", [.boolean(false)]),
        ("{}.exists($this > 5)", [.boolean(false)]),
        ("{}.empty()", [.boolean(true)]),
        ("1.empty()", [.boolean(false)]),
        ("(1 | 2 | 3).all($this > 0)", [.boolean(true)]),
        ("(1 | 2 | 3).all($this > 1)", [.boolean(false)]),
        ("{}.all($this > 1)", [.boolean(true)]),
        // count, first, last, distinct
        ("(1 | 2 | 3).count()", [.integer(3)]),
        ("{}.count()", [.integer(0)]),
        ("(1 | 2 | 3).first()", [.integer(1)]),
        ("(1 | 2 | 3).last()", [.integer(3)]),
        ("{}.first()", []),
        ("(1 | 2).select(7).count()", [.integer(2)]),
        ("(1 | 2).select(7).distinct()", [.integer(7)]),
        ("(1 | 1.0 | 2).count()", [.integer(2)]),
        // sum
        ("(1 | 2 | 3).sum()", [.integer(6)]),
        ("(1 | 2.5).sum()", [Kit.decimal("3.5")]),
        ("(0.1 | 0.2).sum()", [Kit.decimal("0.3")]),
        ("{}.sum()", [.integer(0)]),
        ("(1 'mg' | 2 'mg').sum()", [.quantity(3, unit: "mg")]),
        ("(1 'mg' | 2 'kg').sum()", []),
        // power
        ("2.power(10)", [.integer(1024)]),
        ("2.power(0)", [.integer(1)]),
        ("(-1).power(7)", [.integer(-1)]),
        ("0.power(0)", [.integer(1)]),
        ("2.power(63)", []),
        ("2.power(0.5).round(4)", [Kit.decimal("1.4142")]),
        ("2.5.power(2)", [Kit.decimal("6.25")]),
        ("(-1).power(0.5)", []),
        ("{}.power(2)", []),
        // combine, lower, upper
        ("(1 | 2).combine(2 | 3)", [.integer(1), .integer(2), .integer(2), .integer(3)]),
        ("{}.combine(1)", [.integer(1)]),
        ("'LA28397-0'.combine('LA6729-3').count()", [.integer(2)]),
        ("'Often True'.lower()", [.string("often true")]),
        ("'straße'.upper()", [.string("STRASSE")]),
        ("{}.lower()", []),
        // children, descendants, repeat of what is not an element
        ("(1 | 2).children()", []),
        ("(1 | 2).descendants()", []),
        // iif
        ("iif(true, 1, 2)", [.integer(1)]),
        ("iif(false, 1, 2)", [.integer(2)]),
        ("iif({}, 1, 2)", [.integer(2)]),
        ("iif(false, 1)", []),
        ("iif(true, 'yes', (1 | 2) + 1)", [.string("yes")]),
        ("1.iif($this = 1, 'one', 'other')", [.string("one")]),
        ("(1 | 2 | 3).select(iif($this mod 2 = 0, 'even', 'odd'))", [.string("odd"), .string("even"), .string("odd")]),
        // not
        ("(1 = 1).not()", [.boolean(false)]),
        // round (half away from zero)
        ("3.14159.round(2)", [Kit.decimal("3.14")]),
        ("2.5.round()", [.decimal(3)]),
        ("(-2.5).round()", [.decimal(-3)]),
        ("1.25.round(1)", [Kit.decimal("1.3")]),
        ("(-1.25).round(1)", [Kit.decimal("-1.3")]),
        ("1.24.round(1)", [Kit.decimal("1.2")]),
        ("7.round()", [.decimal(7)]),
        ("{}.round()", []),
        ("(22.857 'kg/m2').round(1)", [.quantity(Decimal(string: "22.9")!, unit: "kg/m2")]),
        // conversions
        ("1.toString()", [.string("1")]),
        ("1.5.toString()", [.string("1.5")]),
        ("true.toString()", [.string("true")]),
        ("@2020-01-02.toString()", [.string("2020-01-02")]),
        ("5 'mg'.toString()", [.string("5 'mg'")]),
        ("'42'.toInteger()", [.integer(42)]),
        ("'-7'.toInteger()", [.integer(-7)]),
        ("'+7'.toInteger()", [.integer(7)]),
        ("'4.2'.toInteger()", []),
        ("'x'.toInteger()", []),
        ("true.toInteger()", [.integer(1)]),
        ("3.toInteger()", [.integer(3)]),
        ("'4.25'.toDecimal()", [Kit.decimal("4.25")]),
        ("3.toDecimal()", [.decimal(3)]),
        ("'abc'.toDecimal()", []),
        ("'1.'.toDecimal()", []),
        ("false.toDecimal()", [.decimal(0)]),
        ("{}.toString()", []),
        // abs, length
        ("(-5).abs()", [.integer(5)]),
        ("(-5.5).abs()", [Kit.decimal("5.5")]),
        ("(-5 'mg').abs()", [.quantity(5, unit: "mg")]),
        ("'hello'.length()", [.integer(5)]),
        ("''.length()", [.integer(0)]),
        ("'été'.length()", [.integer(3)]),
        ("{}.length()", []),
    ]

    @Test(arguments: cases)
    func function(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    @Test func extensionFindsTheExtensionsWithTheURL() {
        let resource = Kit.json("""
            {"resourceType": "Basic",
             "extension": [{"url": "http://a", "valueInteger": 1}, {"url": "http://b", "valueString": "x"}, {"url": "http://a", "valueInteger": 2}],
             "code": {"extension": [{"url": "http://a", "valueDecimal": 0.5}]}}
            """)
        let environment = FHIRPathEnvironment(resource: resource, variables: ["url": [.string("http://b")]])
        #expect(Kit.evaluate("extension('http://a').value", environment) == [.integer(1), .integer(2)])
        #expect(Kit.evaluate("extension(%url).value", environment) == [.string("x")])
        #expect(Kit.evaluate("extension('http://none')", environment) == [])
        #expect(Kit.evaluate("code.extension('http://a').value", environment) == [Kit.decimal("0.5")])
        #expect(Kit.evaluate("(code | $this).extension('http://a').count()", environment) == [.integer(3)])
    }

    @Test func singleBooleanIsOnlyForExactlyOneBoolean() {
        #expect([FHIRPathValue.boolean(true)].singleBoolean == true)
        #expect([FHIRPathValue.boolean(false)].singleBoolean == false)
        #expect([FHIRPathValue]().singleBoolean == nil)
        #expect([FHIRPathValue.boolean(true), .boolean(true)].singleBoolean == nil)
        #expect([FHIRPathValue.integer(1)].singleBoolean == nil)
    }
}
