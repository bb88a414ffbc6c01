import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

@Suite("Preview words: every answer format in a few words")
struct PreviewFormatWordsTests {
    /// The summary of each format's fixture (Tests/SurveyCoreTests/Fixtures/formats); a format
    /// with no line here fails the test below.
    static let fixtureSummaries: [String: String] = [
        "boolean": "Yes / No (“Agree” / “Disagree”)",
        "textChoice": "any of 4 choices (one excludes the others; one with a text box)",
        "valuePicker": "picker of 3 choices",
        "multipleValuePicker": "picker of 2 lists",
        "imageChoice": "image choice of 2",
        "scale": "scale 0–10 in steps of 2, or “Not sure”",
        "continuousScale": "slider 0–100%, 2 decimal places, or “Not sure”",
        "textScale": "scale of 3: “Poor” to “Excellent”, or “Not sure”",
        "numeric": "number 0–42 weeks, 1 decimal place, or “Not sure”",
        "timeOfDay": "time of day, in 15-minute steps, or “Not sure”",
        "date": "date and time between 1 January 2020 at 00:00 UTC and 31 December 2030 at 23:59 UTC, in 5-minute steps, or “Not sure”",
        "timeInterval": "hours and minutes, in 5-minute steps, or “Not sure”",
        "text": "text up to 20 characters, matching /^[A-Z]{2}[0-9]{4}$/, or “Not sure”",
        "email": "email address, or “Not sure”",
        "height": "height in feet and inches, or “Not sure”",
        "weight": "weight in kg, 2–300, 2 decimal places, or “Not sure”",
        "age": "age 18–90, or “Under 18” or “Over 90” or “Not sure”",
        "location": "location",
        "ses": "SES ladder, or “Not sure”",
    ]

    @Test("Every format's fixture is summarised", arguments: AnswerFormat.typeNames)
    func everyFormat(_ type: String) throws {
        let task = try Files.task("Tests/SurveyCoreTests/Fixtures/formats/\(type).json")
        let format = try #require(task.steps.first?.questions.first?.answerFormat)
        let expected = try #require(Self.fixtureSummaries[type], "no summary is expected for \(type)")
        #expect(PreviewExplainer(task: task).summary(format) == expected)
    }

    @Test("Formats of the hand-written survey: defaults, units and the survey's own words")
    func handWritten() throws {
        let task = try SurveyLoader.load(Data(PreviewSurvey.json.utf8)).task
        let words = PreviewExplainer(task: task)
        let expected: [(String, String)] = [
            ("fever", "Yes / No"),
            ("consent", "Yes / No (“Agree” / “Disagree”)"),
            ("temperature.celsius", "number 34–43 °C, 1 decimal place"),
            ("symptoms", "any of 4 choices (one excludes the others; one with a text box)"),
            ("mood", "one of 2 choices"),
            ("age", "age 18–120, or “Rather not say”"),
            ("sleep", "hours and minutes"),
            ("start-date", "date"),
            ("appointment", "date and time"),
            ("wake-time", "time of day"),
            ("comments", "text up to 500 characters"),
            ("pain", "scale 0–10, or “I don't know”"),
            ("energy", "slider 0–100%"),
            ("ladder", "SES ladder"),
            ("body.height", "height in cm"),
            ("body.weight", "weight in lb"),
            ("doses", "picker of 2 lists"),
        ]
        for (name, summary) in expected {
            #expect(words.summary(try PreviewSurvey.format(name, in: task)) == summary, "\(name)")
        }
    }

    @Test("Bounds, styles and options change the summary")
    func options() {
        let words = PreviewExplainer(task: SurveyTask(identifier: "empty", steps: []))
        let summaries: [(AnswerFormat, String)] = [
            (.numeric(NumericFormat(style: .integer, minimum: 0)), "whole number ≥ 0"),
            (.numeric(NumericFormat(maximum: 10, maximumFractionDigits: 0)), "whole number ≤ 10"),
            (.numeric(NumericFormat(unit: "kg")), "number in kg"),
            (.numeric(NumericFormat(unit: "%", minimum: 0, maximum: 100)), "number 0–100%"),
            (.continuousScale(ContinuousScaleFormat(minimum: 0, maximum: 10)), "slider 0–10"),
            (.date(DateFormat(minimumDate: "1900-01-01", daysAfterCurrentDate: 0)), "date between 1 January 1900 and today"),
            (.date(DateFormat(daysBeforeCurrentDate: 1)), "date on or after 1 day ago"),
            (.date(DateFormat(daysAfterCurrentDate: 7)), "date on or before 7 days from today"),
            (.text(TextFormat(multipleLines: true)), "text, on several lines"),
            (.textChoice(TextChoiceFormat(style: .singleChoice, choices: [TextChoice(text: "Only", value: .number(1))])), "one of 1 choice"),
            (.imageChoice(ImageChoiceFormat(style: .multipleChoice, choices: [ImageChoice(image: "a.png", imageAlt: "A", value: .number(1))])),
             "image choice, any of 1"),
            (.height(HeightFormat()), "height in cm or feet and inches by region"),
            (.weight(WeightFormat(measurementSystem: .USC, numericPrecision: .high)), "weight in lb and oz"),
            (.weight(WeightFormat(numericPrecision: .low, minimumValue: 20)), "weight in kg or lb by region, ≥ 20, whole units"),
            (.age(AgeFormat()), "age 1–125"),
            (.age(AgeFormat(minimumAge: 18, useYearForResult: true, treatMinAgeAsRange: true)),
             "age 18–125, recorded as the year of birth, or under 18"),
            (.scale(ScaleFormat(minimum: 1, maximum: 5)), "scale 1–5"),
            (.location(LocationFormat()), "location"),
        ]
        for (format, summary) in summaries {
            #expect(words.summary(format) == summary)
        }
    }

    @Test("Every word of the preview is in its table")
    func tableIsComplete() {
        for key in PreviewWords.Key.allCases {
            #expect(PreviewWords.english[key] != nil, "\(key.rawValue)")
        }
    }
}
