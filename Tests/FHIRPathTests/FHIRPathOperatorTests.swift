import FHIRPath
import Foundation
import Testing

private typealias Kit = FHIRPathTestSupport

/// Operators, precedence, empty propagation and the three-valued logic, with cases taken from the FHIRPath N1 text.
@Suite("FHIRPath operators")
struct FHIRPathOperatorTests {
    static let arithmeticCases: [(String, [FHIRPathValue])] = [
        ("1 + 2", [.integer(3)]),
        ("3 - 5", [.integer(-2)]),
        ("2 * 3", [.integer(6)]),
        ("10 / 4", [Kit.decimal("2.5")]),
        ("10 / 5", [.decimal(2)]),
        ("1 / 3 * 3 = 1", [.boolean(false)]),
        ("7 div 2", [.integer(3)]),
        ("7 mod 2", [.integer(1)]),
        ("-7 div 2", [.integer(-3)]),
        ("-7 mod 2", [.integer(-1)]),
        ("7 mod -2", [.integer(1)]),
        ("5.5 div 0.7", [.integer(7)]),
        ("5.5 mod 0.7", [Kit.decimal("0.6")]),
        ("5 div 0", []),
        ("5 mod 0", []),
        ("5 / 0", []),
        ("5.0 / 0.0", []),
        ("1 + 2.5", [Kit.decimal("3.5")]),
        ("2.5 * 2", [.decimal(5)]),
        ("0.1 + 0.2", [Kit.decimal("0.3")]),
        ("0.1 + 0.2 = 0.3", [.boolean(true)]),
        ("-(3 + 4)", [.integer(-7)]),
        ("-3.5 + 1", [Kit.decimal("-2.5")]),
        ("+5", [.integer(5)]),
        ("2 * -3", [.integer(-6)]),
        ("-2.abs()", [.integer(-2)]),
        ("(-2).abs()", [.integer(2)]),
        ("'abc' + 'def'", [.string("abcdef")]),
        ("5 'mg' + 2 'mg'", [.quantity(7, unit: "mg")]),
        ("5 'mg' - 2 'mg'", [.quantity(3, unit: "mg")]),
        ("5 'mg' + 2 'kg'", []),
        ("5 'mg' * 2", [.quantity(10, unit: "mg")]),
        ("4 'mg' / 2", [.quantity(2, unit: "mg")]),
        ("6 'kg' / 2 'kg'", [.quantity(3, unit: "1")]),
        ("3 'm' * 2 'm'", [.quantity(6, unit: "m2")]),
        ("-(5 'mg')", [.quantity(-5, unit: "mg")]),
    ]

    @Test(arguments: arithmeticCases)
    func arithmetic(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    static let precedenceCases: [(String, [FHIRPathValue])] = [
        ("1 + 2 * 3", [.integer(7)]),
        ("(1 + 2) * 3", [.integer(9)]),
        ("2 * 3 + 4 * 5", [.integer(26)]),
        ("2 + 3 * 4 - 1", [.integer(13)]),
        ("10 - 4 - 3", [.integer(3)]),
        ("12 / 2 / 3", [.decimal(2)]),
        ("17 div 5 * 2", [.integer(6)]),
        ("-1 + 2", [.integer(1)]),
        ("1 + 2 = 3", [.boolean(true)]),
        ("1 + 1 > 1", [.boolean(true)]),
        ("1 < 2 = true", [.boolean(true)]),
        ("'a' & 'b' = 'ab'", [.boolean(true)]),
        ("1 | 2 = 1 | 2", [.boolean(true)]),
        ("2 in 1 | 2 | 3", [.boolean(true)]),
        ("1 | 2 contains 2 and true", [.boolean(true)]),
        ("true or false and false", [.boolean(true)]),
        ("false and true or true", [.boolean(true)]),
        ("(true or false) and false", [.boolean(false)]),
        ("true xor true or true", [.boolean(true)]),
        ("true implies false or true", [.boolean(true)]),
        ("false implies false implies false", [.boolean(false)]),
        ("(10 | 20 | 30)[1]", [.integer(20)]),
        ("(10 | 20 | 30)[5]", []),
        ("(10 | 20)[0] + 1", [.integer(11)]),
        ("(10 | 20)[{}]", []),
    ]

    @Test(arguments: precedenceCases)
    func precedence(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    static let emptyPropagationCases: [(String, [FHIRPathValue])] = [
        ("{} + 1", []), ("1 - {}", []), ("{} * {}", []), ("{} / 2", []), ("{} div 2", []), ("3 mod {}", []),
        ("-{}", []), ("'a' + {}", []),
        ("{} = 1", []), ("1 != {}", []), ("{} = {}", []), ("{} < 1", []), ("2 >= {}", []),
        ("{} & 'a'", [.string("a")]), ("{} & {}", [.string("")]),
        ("{} in (1 | 2)", []), ("1 in {}", [.boolean(false)]), ("{} contains 1", [.boolean(false)]), ("(1 | 2) contains {}", []),
        ("{} | 1", [.integer(1)]), ("{} ~ {}", [.boolean(true)]), ("{} ~ 1", [.boolean(false)]), ("{} !~ 1", [.boolean(true)]),
    ]

    @Test(arguments: emptyPropagationCases)
    func emptyPropagation(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    static let comparisonCases: [(String, [FHIRPathValue])] = [
        ("1 < 1.5", [.boolean(true)]), ("2 = 2.0", [.boolean(true)]), ("2.0 = 2", [.boolean(true)]), ("3 > 2.99", [.boolean(true)]),
        ("1 != 1.0", [.boolean(false)]), ("2 <= 2.0", [.boolean(true)]), ("1.0 >= 1", [.boolean(true)]), ("1.5 > 2", [.boolean(false)]),
        ("'abc' < 'abd'", [.boolean(true)]), ("'b' > 'a'", [.boolean(true)]), ("'a' = 'A'", [.boolean(false)]),
        ("'a' ~ 'A'", [.boolean(true)]), ("'a  b ' ~ 'A B'", [.boolean(true)]), ("'a' !~ 'b'", [.boolean(true)]),
        ("1 ~ 1.0", [.boolean(true)]), ("1.2 ~ 1.24", [.boolean(true)]), ("1.2 ~ 1.3", [.boolean(false)]),
        ("true = true", [.boolean(true)]), ("true != false", [.boolean(true)]), ("1 = 'a'", [.boolean(false)]),
        ("(1 | 2) = (1 | 2)", [.boolean(true)]), ("(1 | 2) = (2 | 1)", [.boolean(false)]), ("(1 | 2) = (1 | 2 | 3)", [.boolean(false)]),
        ("(1 | 2) != (1 | 3)", [.boolean(true)]), ("(1 | 2) ~ (2 | 1)", [.boolean(true)]),
        ("5 'mg' = 5 'mg'", [.boolean(true)]), ("5 'mg' < 6 'mg'", [.boolean(true)]), ("5 'mg' = 5 'kg'", []), ("5 'mg' < 5 'kg'", []),
        ("3 in (1 | 2 | 3)", [.boolean(true)]), ("4 in (1 | 2 | 3)", [.boolean(false)]), ("(1 | 2 | 3) contains 2.0", [.boolean(true)]),
    ]

    @Test(arguments: comparisonCases)
    func comparison(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    static let datesCases: [(String, [FHIRPathValue])] = [
        ("@2020-01-02 = @2020-01-02", [.boolean(true)]),
        ("@2020-01-02 != @2020-01-03", [.boolean(true)]),
        ("@2020-01-02 < @2020-01-10", [.boolean(true)]),
        ("@2020-12-31 > @2020-01-10", [.boolean(true)]),
        ("@2020-01 = @2020-01-15", []),
        ("@2020-01 < @2020-01-15", []),
        ("@2020-01 < @2020-02-15", [.boolean(true)]),
        ("@2020-01-02 < @2020-01-02T10:00", []),
        ("@2020-01-01 < @2020-01-02T10:00", [.boolean(true)]),
        ("@2020-01-02T10:00:00Z = @2020-01-02T12:00:00+02:00", [.boolean(true)]),
        ("@2020-01-02T23:30:00-01:00 > @2020-01-03T00:15:00Z", [.boolean(true)]),
        ("@2020-01-02T10:00:00Z < @2020-01-02T10:00:01Z", [.boolean(true)]),
        ("@2020-01-02T10:00:00.5Z > @2020-01-02T10:00:00Z", [.boolean(true)]),
        ("@2020-01-02T10:00 = @2020-01-02T10:00:00", []),
        ("@T10:00 < @T11:00", [.boolean(true)]),
        ("@T10:00 = @T10:00:00", []),
        ("@T10:30 >= @T10:30", [.boolean(true)]),
        ("@2020-01-02 = 1", [.boolean(false)]),
        // A string that reads as a date meets a date as one (FHIR JSON keeps dates in strings).
        ("@2020-01-02 = '2020-01-02'", [.boolean(true)]),
        ("'2020-01-02T10:00:00Z' > @2020-01-01", [.boolean(true)]),
    ]

    @Test(arguments: datesCases)
    func dates(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    static let stringsCases: [(String, [FHIRPathValue])] = [
        ("'a' & 'b'", [.string("ab")]),
        ("'a' & {}", [.string("a")]),
        ("{} & 'b'", [.string("b")]),
        ("'a' & 'b' & 'c'", [.string("abc")]),
        ("'Score: ' & 5.toString()", [.string("Score: 5")]),
        ("'a' + 'b'", [.string("ab")]),
    ]

    @Test(arguments: stringsCases)
    func strings(_ source: String, _ expected: [FHIRPathValue]) {
        #expect(Kit.evaluate(source) == expected, "\(source)")
    }

    // MARK: Three-valued logic

    /// Rows of the N1 truth tables, in the order left true/false/empty × right true/false/empty.
    static let truthTables: [(String, [Bool?])] = [
        ("and", [true, false, nil, false, false, false, nil, false, nil]),
        ("or", [true, true, true, true, false, nil, true, nil, nil]),
        ("xor", [false, true, nil, true, false, nil, nil, nil, nil]),
        ("implies", [true, false, nil, true, true, true, true, nil, nil]),
    ]

    @Test(arguments: truthTables)
    func truthTable(_ op: String, _ expected: [Bool?]) {
        let operands = ["true", "false", "{}"]
        for (row, left) in operands.enumerated() {
            for (column, right) in operands.enumerated() {
                let source = "\(left) \(op) \(right)"
                let want: [FHIRPathValue] = expected[row * 3 + column].map { [.boolean($0)] } ?? []
                #expect(Kit.evaluate(source) == want, "\(source)")
            }
        }
    }

    @Test func notFollowsTheSameLogic() {
        #expect(Kit.evaluate("true.not()") == [.boolean(false)])
        #expect(Kit.evaluate("false.not()") == [.boolean(true)])
        #expect(Kit.evaluate("{}.not()") == [])
    }

    @Test func aSingleItemOfAnotherTypeCountsAsTrue() {
        #expect(Kit.evaluate("'x' and true") == [.boolean(true)])
        #expect(Kit.evaluate("5 or false") == [.boolean(true)])
        #expect(Kit.evaluate("'x'.not()") == [.boolean(false)])
    }

    @Test func theDecidingSideSkipsTheOther() {
        // The right sides would fail: a collection of two where one boolean is expected.
        #expect(Kit.evaluate("false and (true | false)") == [.boolean(false)])
        #expect(Kit.evaluate("true or (true | false)") == [.boolean(true)])
        #expect(Kit.evaluate("false implies (true | false)") == [.boolean(true)])
    }
}
