import Foundation
import SurveyRendering
import Testing
@testable import SurveyCore

private typealias Kit = AnswerTestKit

@Suite("AnswerParser: don't know")
struct AnswerParserDontKnowTests {
    /// Every format that can show the button, with the button shown, and garbage in its main field.
    static let withButton: [AnswerFormat] = [
        .scale(ScaleFormat(minimum: 0, maximum: 10, dontKnow: Kit.shown)),
        .continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 1, dontKnow: Kit.shown)),
        .textScale(TextScaleFormat(choices: [Kit.choice("A", "a"), Kit.choice("B", "b")], dontKnow: Kit.shown)),
        .numeric(NumericFormat(style: .integer, minimum: 0, maximum: 10, dontKnow: Kit.shown)),
        .timeOfDay(TimeOfDayFormat(dontKnow: Kit.shown)),
        .date(DateFormat(dontKnow: Kit.shown)),
        .timeInterval(TimeIntervalFormat(dontKnow: Kit.shown)),
        .text(TextFormat(maximumLength: 1, dontKnow: Kit.shown)),
        .email(EmailFormat(dontKnow: Kit.shown)),
        .height(HeightFormat(measurementSystem: .metric, dontKnow: Kit.shown)),
        .weight(WeightFormat(measurementSystem: .metric, dontKnow: Kit.shown)),
        .age(AgeFormat(dontKnow: Kit.shown)),
        .ses(SESFormat(dontKnow: Kit.shown)),
    ]

    @Test("don't know is honoured where the button is shown", arguments: withButton)
    func honoured(format: AnswerFormat) {
        #expect(format.showsDontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": "1"])) == .dontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": "1", "q": "not valid at all"])) == .dontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": ""])) == .dontKnow)
    }

    @Test("don't know is ignored where the button is hidden", arguments: [
        AnswerFormat.numeric(NumericFormat(style: .integer)),
        .numeric(NumericFormat(style: .integer, dontKnow: DontKnowOption(show: false))),
        .numeric(NumericFormat(style: .integer, dontKnow: DontKnowOption(buttonText: "Not sure"))),
        .scale(ScaleFormat(minimum: 0, maximum: 10)),
        .text(TextFormat()),
        .date(DateFormat()),
    ])
    func ignoredWhenHidden(format: AnswerFormat) {
        #expect(!format.showsDontKnow)
        #expect(Kit.answer(Kit.parse(format, ["q.dontKnow": "1"])) != .dontKnow)
        #expect(Kit.isEmpty(Kit.parse(format, ["q.dontKnow": "1"])))
    }

    @Test("formats without the button never answer don't know", arguments: [
        AnswerFormat.boolean(BooleanFormat()),
        .textChoice(TextChoiceFormat(style: .singleChoice, choices: [Kit.choice("A", "a")])),
        .valuePicker(ValuePickerFormat(choices: [Kit.choice("A", "a")])),
        .multipleValuePicker(MultipleValuePickerFormat(pickers: [[Kit.choice("A", "a")]])),
        .imageChoice(ImageChoiceFormat(choices: [ImageChoice(image: "a.png", imageAlt: "A", value: .string("a"))])),
        .location(LocationFormat()),
    ])
    func neverDontKnow(format: AnswerFormat) {
        #expect(format.dontKnow == nil)
        #expect(Kit.isEmpty(Kit.parse(format, ["q.dontKnow": "1"])))
    }

    @Test func dontKnowFieldIsPerQuestion() {
        let format = AnswerFormat.numeric(NumericFormat(style: .integer, dontKnow: Kit.shown))
        #expect(AnswerFields.dontKnow("temp") == "temp.dontKnow")
        #expect(Kit.answer(Kit.parse(format, ["temp.dontKnow": "1"], name: "temp")) == .dontKnow)
        #expect(Kit.isEmpty(Kit.parse(format, ["other.dontKnow": "1"], name: "temp")))
        #expect(Kit.numeric(Kit.parse(format, ["temp": "3"], name: "temp")) == 3)
    }
}
