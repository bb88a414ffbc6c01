import FHIRPath
import Foundation
import Testing

private typealias Kit = FHIRPathTestSupport

/// What the parser refuses and what evaluation fails on, with the position of the fault.
@Suite("FHIRPath refusals")
struct FHIRPathRefusalTests {
    /// Source, the text whose first occurrence marks the expected position, and words the message holds.
    static let refused: [(String, String, String)] = [
        ("resolve()", "resolve", "The function 'resolve' is not supported."),
        ("item.answer.resolve()", "resolve", "'resolve'"),
        ("trace('x').count()", "trace", "'trace'"),
        ("timeOfDay() > @T10:00", "timeOfDay", "'timeOfDay'"),
        ("value.ofType(Quantity)", "ofType", "'ofType'"),
        ("name.given.matches('x')", "matches", "'matches'"),
        ("x.exists() implies y.not() and z.matches('a')", "matches", "'matches'"),
        ("'abc'.contains('b')", "contains", "'contains'"),
        ("(1 + 2", "(", "never closed"),
        ("item.where(linkId = 'a'", "(", "never closed"),
        ("item[0", "[", "bracket"),
        ("1 + 2)", ")", "no '('"),
        ("1 2", "2", "Unexpected '2'"),
        ("a b", "b", "'b' is not a known operator"),
        ("where(a b)", "b", "'b' is not a known operator"),
        ("(1 2)", "2", "Expected ')'"),
        ("where(1 2)", "2", "Expected ',' or ')'"),
        ("1 ^ 2", "^", "The operator '^' is not supported"),
        ("1 == 1", "==", "use '='"),
        ("a && b", "&&", "use 'and'"),
        ("a || b", "||", "use 'or'"),
        ("!a", "!", "not()"),
        ("5 % 2", "%", "use 'mod'"),
        ("x is Quantity", "is", "The operator 'is' is not supported."),
        ("x as Quantity", "as", "The operator 'as' is not supported."),
        ("'abc", "'", "string opened here is never closed"),
        ("`abc", "`", "never closed"),
        (#"'a\qb'"#, "\\", "escape"),
        (#"'\u12'"#, "\\", "four hexadecimal digits"),
        ("\"abc\"", "\"", "single quotes"),
        ("1 + ", "", "ends where a value is expected"),
        (")", ")", "A value is expected here, not ')'"),
        ("1 + and", "and", "operator 'and'"),
        ("a.", "", "A name is expected after '.'"),
        ("a.(b)", "(", "A name is expected after '.'"),
        ("$index", "$", "'$index' is not supported."),
        ("$total", "$", "'$total'"),
        ("{1}", "{", "empty collection"),
        ("where()", "where", "takes 1 argument, not 0"),
        ("iif(true)", "iif", "takes 2 or 3 arguments, not 1"),
        ("count(1)", "count", "takes no arguments, not 1"),
        ("round(1, 2)", "round", "takes 0 or 1 arguments, not 2"),
        ("99999999999999999999", "9", "too large"),
        ("1 # 2", "#", "The operator '#' is not supported"),
        ("1 ¤ 2", "¤", "The character '¤' is not allowed here."),
        ("/* open", "/", "comment"),
        ("", "", "The expression is empty."),
    ]

    @Test(arguments: refused)
    func refusedWithPosition(_ source: String, _ marker: String, _ words: String) {
        let error = Kit.refusal(source)
        let expected = marker.isEmpty ? source.count : source.distance(from: source.startIndex, to: source.range(of: marker)!.lowerBound)
        #expect(error?.position == expected, "\(source): \(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(source): \(String(describing: error))")
    }

    @Test func descriptionCountsFromOne() {
        let error = Kit.refusal("1 + foo()")
        #expect(error == FHIRPathError("The function 'foo' is not supported.", at: 4))
        #expect(error?.description == "at character 5: The function 'foo' is not supported.")
    }

    @Test func positionsCountCharactersNotBytes() {
        #expect(Kit.refusal("'ééé' + nope()")?.position == 8)
    }

    /// Source, the marker of the expected position, and words the message holds.
    static let failing: [(String, String, String)] = [
        ("(1 | 2) + 1", "+", "single items"),
        ("1 + (1 | 2)", "+", "single items"),
        ("(1 | 2) < 3", "<", "single items"),
        ("-(1 | 2)", "-", "single items"),
        ("(1 | 2) in (1 | 2)", "in", "single items"),
        ("'a' + 1", "+", "cannot combine a string with an integer"),
        ("'a' < 1", "<", "cannot compare a string with an integer"),
        ("true < false", "<", "cannot compare a boolean"),
        ("'a' & 1", "&", "joins strings"),
        ("-'a'", "-", "cannot negate a string"),
        ("@2020-01-01 + 1 'kg'", "+", "time quantity"),
        ("@2020-01-01 * 2", "*", "Dates and times take only"),
        ("(true | false) and true", "and", "The operator 'and' expects a single boolean"),
        ("false or (true | false)", "or", "collection has 2 items"),
        ("(1 | 2).where((true | false))", "where", "The function 'where' expects a single boolean"),
        ("(1 | 2).round()", "round", "The function 'round' needs a single item"),
        ("'a'.round()", "round", "cannot be applied to a string"),
        ("1.5.round(-1)", "round", "precision"),
        ("1.length()", "length", "cannot be applied to an integer"),
        ("('a' | 'b').sum()", "sum", "adds numbers"),
        ("(1 | 2).iif(true, 1)", "iif", "single item"),
        ("(1 | 2)['a']", "[", "index must be a single integer"),
        ("%missing + 1", "%", "The variable '%missing' has no value."),
        ("9223372036854775807 + 1", "+", "too large"),
    ]

    @Test(arguments: failing)
    func failsWhileEvaluating(_ source: String, _ marker: String, _ words: String) {
        #expect(Kit.refusal(source) == nil, "\(source) should parse")
        let error = Kit.failure(source)
        let expected = source.distance(from: source.startIndex, to: source.range(of: marker)!.lowerBound)
        #expect(error?.position == expected, "\(source): \(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(source): \(String(describing: error))")
    }

    @Test func variableNamesLeaveOutTheEnvironmentsOwn() throws {
        let expression = try FHIRPathExpression("%a + %b.where($this > %a) + %resource.x + %questionnaire.y + %context.z + %'c d' + %ucum")
        #expect(expression.variableNames == ["a", "b", "c d"])
        #expect(try FHIRPathExpression("1 + 2").variableNames.isEmpty)
        #expect(try FHIRPathExpression("%resource.item").source == "%resource.item")
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "(", count: 500) + "1" + String(repeating: ")", count: 500)
        #expect(Kit.refusal(deep)?.message.contains("nested too deeply") == true)
        let fine = String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40)
        #expect(Kit.refusal(fine) == nil)
    }
}
