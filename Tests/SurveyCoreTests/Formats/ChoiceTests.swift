import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: choices")
struct AnswerParserChoiceTests {
    static let single = AnswerFormat.textChoice(TextChoiceFormat(style: .singleChoice, choices: [
        Kit.choice("Cat", "cat"), Kit.choice("Dog", "dog"), Kit.choice("Other", "other", other: OtherOption()),
    ]))
    static let multiple = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: [
        Kit.choice("Cough", "cough"), Kit.choice("Fever", "fever"), Kit.choice("Something else", "else", other: OtherOption()),
        Kit.choice("<b>None</b> of these", "none", exclusive: true),
    ]))

    @Test func singleChoice() {
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "dog"])) == .choices([.string("dog")]))
        #expect(Kit.isEmpty(Kit.parse(Self.single, ["q": ""])))
        #expect(Kit.isEmpty(Kit.parse(Self.single, [:])))
        Kit.expectIssue(Kit.parse(Self.single, ["q": "horse"]), .notAChoice, field: "q", message: "Select one of the options")
        Kit.expectIssue(Kit.parse(Self.single, pairs: [("q", "cat"), ("q", "dog")]), .conflictingValues, field: "q",
                        message: "We received two different answers here; choose one and continue")
        // The same value twice is one choice.
        #expect(Kit.answer(Kit.parse(Self.single, pairs: [("q", "cat"), ("q", "cat")])) == .choices([.string("cat")]))
    }

    @Test func otherTextBecomesTheValue() {
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other", "q.other": "  Hamster "])) == .choices([.string("Hamster")]))
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other", "q.other": "a\r\nb"])) == .choices([.string("a\nb")]))
        // No text: the choice's own value (the text is optional by default).
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other"])) == .choices([.string("other")]))
        #expect(Kit.answer(Kit.parse(Self.single, ["q": "other", "q.other": "   "])) == .choices([.string("other")]))
    }

    @Test func otherTextTypedWithoutSelectingIt() {
        // Nothing else selected: the text says what the participant meant.
        #expect(Kit.answer(Kit.parse(Self.single, ["q.other": "Hamster"])) == .choices([.string("Hamster")]))
        // Another choice selected: ask.
        Kit.expectIssue(Kit.parse(Self.single, ["q": "cat", "q.other": "Hamster"]), .otherText, field: "q.other",
                        message: "Select “Other” to give your own answer, or clear the text")
        // Multiple choice: the "other" box is ticked for them, in the choices' order.
        #expect(Kit.answer(Kit.parse(Self.multiple, pairs: [("q", "fever"), ("q.other", "Rash")]))
            == .choices([.string("fever"), .string("Rash")]))
    }

    @Test func requiredOtherText() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(style: .singleChoice, choices: [
            Kit.choice("Cat", "cat"), Kit.choice("Other pet", "other", other: OtherOption(optional: false)),
        ]))
        Kit.expectIssue(Kit.parse(format, ["q": "other"]), .otherText, field: "q.other", message: "Enter your answer for “Other pet”")
        #expect(Kit.answer(Kit.parse(format, ["q": "other", "q.other": "Hamster"])) == .choices([.string("Hamster")]))
        #expect(Kit.answer(Kit.parse(format, ["q": "cat"])) == .choices([.string("cat")]))
    }

    @Test func severalOtherChoicesHaveIndexedFields() {
        let format = AnswerFormat.textChoice(TextChoiceFormat(style: .multipleChoice, choices: [
            Kit.choice("Cat", "cat"), Kit.choice("Other mammal", "mammal", other: OtherOption()),
            Kit.choice("Other bird", "bird", other: OtherOption(optional: false)),
        ]))
        #expect(AnswerFields.other("q", choiceIndex: 1, in: [Kit.choice("Cat", "cat"), Kit.choice("Other", "o", other: OtherOption())]) == "q.other")
        #expect(Kit.answer(Kit.parse(format, pairs: [("q", "cat"), ("q.other.2", "Parrot"), ("q.other.1", "Rabbit")]))
            == .choices([.string("cat"), .string("Rabbit"), .string("Parrot")]))
        Kit.expectIssue(Kit.parse(format, ["q": "bird"]), .otherText, field: "q.other.2", message: "Enter your answer for “Other bird”")
    }

    @Test func multipleChoice() {
        #expect(Kit.answer(Kit.parse(Self.multiple, pairs: [("q", "fever"), ("q", "cough")])) == .choices([.string("cough"), .string("fever")]))
        #expect(Kit.answer(Kit.parse(Self.multiple, pairs: [("q", "cough"), ("q", "cough"), ("q", "")])) == .choices([.string("cough")]))
        #expect(Kit.answer(Kit.parse(Self.multiple, ["q": "none"])) == .choices([.string("none")]))
        #expect(Kit.isEmpty(Kit.parse(Self.multiple, pairs: [("q", ""), ("q", "")])))
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "cough"), ("q", "sneeze")]), .notAChoice, field: "q")
    }

    @Test func exclusiveWithOthers() {
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "cough"), ("q", "none")]), .exclusive, field: "q",
                        message: "Select “None of these” on its own, or untick it to choose other answers")
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "none"), ("q", "fever"), ("q", "cough")]), .exclusive, field: "q")
        // Other text typed beside "none" ticks "something else", which conflicts too.
        Kit.expectIssue(Kit.parse(Self.multiple, pairs: [("q", "none"), ("q.other", "Rash")]), .exclusive, field: "q")
    }

    @Test func valuePicker() {
        let format = AnswerFormat.valuePicker(ValuePickerFormat(choices: [TextChoice(text: "One", value: .number(1)), Kit.choice("Two", "two")]))
        #expect(Kit.answer(Kit.parse(format, ["q": "1"])) == .choices([.number(1)]))
        #expect(Kit.answer(Kit.parse(format, ["q": "two"])) == .choices([.string("two")]))
        Kit.expectIssue(Kit.parse(format, ["q": "three"]), .notAChoice, field: "q")
        Kit.expectIssue(Kit.parse(format, pairs: [("q", "1"), ("q", "two")]), .conflictingValues, field: "q")
        #expect(Kit.isEmpty(Kit.parse(format, ["q": ""])))
    }

    @Test func imageChoice() {
        let choices = [ImageChoice(image: "sun.png", imageAlt: "Sunny", value: .string("sun")),
                       ImageChoice(image: "rain.png", imageAlt: "Rainy", text: "Rain", value: .string("rain"))]
        let single = AnswerFormat.imageChoice(ImageChoiceFormat(choices: choices))
        #expect(Kit.answer(Kit.parse(single, ["q": "rain"])) == .choices([.string("rain")]))
        Kit.expectIssue(Kit.parse(single, pairs: [("q", "sun"), ("q", "rain")]), .conflictingValues, field: "q")
        Kit.expectIssue(Kit.parse(single, ["q": "snow"]), .notAChoice, field: "q")
        let multiple = AnswerFormat.imageChoice(ImageChoiceFormat(style: .multipleChoice, choices: choices))
        #expect(Kit.answer(Kit.parse(multiple, pairs: [("q", "rain"), ("q", "sun")])) == .choices([.string("sun"), .string("rain")]))
    }

    static let clock = AnswerFormat.multipleValuePicker(MultipleValuePickerFormat(pickers: [
        [Kit.choice("1", "1"), Kit.choice("2", "2")],
        [Kit.choice("am", "am"), Kit.choice("pm", "pm")],
        [TextChoice(text: "UTC", value: .number(0)), TextChoice(text: "CET", value: .number(1))],
    ]))

    @Test func multipleValuePicker() {
        #expect(Kit.answer(Kit.parse(Self.clock, ["q.0": "2", "q.1": "pm", "q.2": "1"])) == .components([.string("2"), .string("pm"), .number(1)]))
        #expect(Kit.isEmpty(Kit.parse(Self.clock, [:])))
        #expect(Kit.isEmpty(Kit.parse(Self.clock, ["q.0": "", "q.1": "", "q.2": ""])))
    }

    @Test("a partly answered picker is incomplete on the first missing list",
          arguments: [(["q.0": "1"], "q.1"), (["q.1": "am", "q.2": "0"], "q.0"), (["q.0": "1", "q.1": "am"], "q.2"),
                      (["q.0": "1", "q.1": "", "q.2": "0"], "q.1")] as [([String: String], String)])
    func multipleValuePickerPartial(fields: [String: String], missing: String) {
        Kit.expectIssue(Kit.parse(Self.clock, fields), .incomplete, field: missing, message: "Select a value in every list")
    }

    @Test func multipleValuePickerRefusesUnknownValues() {
        Kit.expectIssue(Kit.parse(Self.clock, ["q.0": "1", "q.1": "noon", "q.2": "0"]), .notAChoice, field: "q.1")
        Kit.expectIssue(Kit.parse(Self.clock, ["q.0": "3"]), .notAChoice, field: "q.0")
    }
}
