import Foundation
@testable import SurveyCore
import Testing

private typealias Kit = AnswerTestKit

@Suite("A field sent twice")
struct DuplicateFieldTests {
    static let choices = [Kit.choice("Cat", "cat"), Kit.choice("Dog", "dog")]
    static let conflict = "We received two different answers here; choose one and continue"

    @Test("A single-valued answer sent twice with different values is refused, and names the field")
    func differentValuesConflict() {
        Kit.expectIssue(Kit.parse(.boolean(BooleanFormat()), pairs: [("q", "true"), ("q", "false")]), .conflictingValues, field: "q", message: Self.conflict)
        Kit.expectIssue(Kit.parse(.numeric(NumericFormat(style: .integer)), pairs: [("q", "1"), ("q", "2")]), .conflictingValues, field: "q")
        Kit.expectIssue(Kit.parse(.text(TextFormat()), pairs: [("q", "a"), ("q", "b")]), .conflictingValues, field: "q")
        Kit.expectIssue(Kit.parse(.date(DateFormat(style: .date)), pairs: [("q.day", "1"), ("q.day", "2"), ("q.month", "3"), ("q.year", "2020")]),
                        .conflictingValues, field: "q.day")
        Kit.expectIssue(Kit.parse(.height(HeightFormat(measurementSystem: .USC)), pairs: [("q.feet", "5"), ("q.feet", "6"), ("q.inches", "1")]),
                        .conflictingValues, field: "q.feet")
        let picker = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [Self.choices]))
        Kit.expectIssue(Kit.parse(picker, pairs: [("q.0", "cat"), ("q.0", "dog")]), .conflictingValues, field: "q.0")
        let other = AnswerFormat.textChoice(TextChoiceFormat(style: .singleChoice, choices: Self.choices + [Kit.choice("Other", "other", other: OtherOption())]))
        Kit.expectIssue(Kit.parse(other, pairs: [("q", "other"), ("q.other", "fox"), ("q.other", "owl")]), .conflictingValues, field: "q.other")
    }

    @Test("The same value twice, or twice with white space around it, is one answer")
    func sameValueIsOneAnswer() {
        #expect(Kit.answer(Kit.parse(.boolean(BooleanFormat()), pairs: [("q", "true"), ("q", "true")])) == .boolean(true))
        #expect(Kit.answer(Kit.parse(.numeric(NumericFormat(style: .integer)), pairs: [("q", "7"), ("q", " 7 ")])) == .numeric(7))
    }

    @Test("A checkbox group keeps its set")
    func checkboxesKeepTheirSet() {
        let multiple = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: Self.choices))
        #expect(Kit.answer(Kit.parse(multiple, pairs: [("q", "dog"), ("q", "cat")])) == .choices([.string("cat"), .string("dog")]))
    }

    @Test("Text in an other box that spells a choice's value is that choice, once, in the choices' order")
    func otherTextSpellingAChoice() {
        let multiple = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: Self.choices + [Kit.choice("Other", "other", other: OtherOption())]))
        #expect(Kit.answer(Kit.parse(multiple, pairs: [("q", "cat"), ("q", "other"), ("q.other", "cat")])) == .choices([.string("cat")]))
        #expect(Kit.answer(Kit.parse(multiple, pairs: [("q", "dog"), ("q", "other"), ("q.other", "cat")])) == .choices([.string("cat"), .string("dog")]))
        #expect(Kit.answer(Kit.parse(multiple, pairs: [("q", "dog"), ("q", "other"), ("q.other", "fox")])) == .choices([.string("dog"), .string("fox")]))
        // Typed as the other choice's own value, where that choice needs text: shown again with the text.
        let needsText = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: [Kit.choice("Other", "other", other: OtherOption(optional: false))]))
        let context = AnswerContext(language: "en")
        let shown = AnswerFields.fields(for: .choices([.string("other")]), format: needsText, name: "q", context: context)
        #expect(Kit.answer(Kit.parse(needsText, pairs: shown)) == .choices([.string("other")]))
    }

    @Test("Fields of other questions, whose names only begin with this one's, are theirs")
    func otherQuestionsFieldsAreNotCounted() {
        #expect(Kit.answer(Kit.parse(.boolean(BooleanFormat()), pairs: [("q", "true"), ("q2", "a"), ("q2", "b"), ("q.note", "x"), ("q.note", "y")])) == .boolean(true))
    }

    @Test("Form bodies are split on bytes, so a raw combining mark cannot hide a separator, and bad UTF-8 is refused")
    func decodingSplitsOnBytes() throws {
        let fields = try FormDecoding.decode(Array("a=1&\u{301}b=2".utf8))
        #expect(fields["a"] == "1")
        #expect(fields["\u{301}b"] == "2")
        #expect(throws: FormDecoding.Malformed.self) { try FormDecoding.decode([UInt8(ascii: "a"), UInt8(ascii: "="), 0xFF]) }
        #expect(throws: FormDecoding.Malformed.self) { try FormDecoding.decode("a=%C3") }
        #expect(throws: FormDecoding.Malformed.self) { try FormDecoding.decode("a=%G1") }
    }

    @Test("Empty pieces, names without a value, a second '=', plus signs and escapes at the very end")
    func decodingEdges() throws {
        let fields = try FormDecoding.decode("&&a&=x&b=c=d&e=+%2B%2b&f=%C3%A9&&")
        #expect(fields.values == ["a": [""], "": ["x"], "b": ["c=d"], "e": [" ++"], "f": ["é"]])
        #expect(try FormDecoding.decode("").values.isEmpty)
        #expect(try FormDecoding.decode(Array("q=1&q=2".utf8)[...]).values == ["q": ["1", "2"]])
        for cut in ["a=%", "a=%4", "a%=1", "%4=1"] {
            #expect(throws: FormDecoding.Malformed.self, "\(cut)") { try FormDecoding.decode(cut) }
        }
    }

    @Test("A control field sent twice with different values is named; the same value twice is not")
    func controlFields() throws {
        #expect(try FormDecoding.decode("_action=next&_action=back&q=1").conflictingControlField == "_action")
        #expect(try FormDecoding.decode("_csrf=a&_csrf=a&q=1&q=2").conflictingControlField == nil)
    }
}
