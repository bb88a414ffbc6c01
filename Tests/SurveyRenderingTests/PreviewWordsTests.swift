import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

/// A small survey with one question of each kind a test can name.
enum PreviewSurvey {
    static let json = #"""
    {
      "identifier": "preview",
      "timeZone": "Europe/London",
      "languages": ["en", "es"],
      "steps": [
        { "identifier": "intro", "type": "instruction", "title": "Welcome" },
        { "identifier": "fever", "type": "question", "answerFormat": { "type": "boolean" } },
        { "identifier": "consent", "type": "question",
          "answerFormat": { "type": "boolean", "yes": { "es": "De acuerdo", "en": "Agree" }, "no": "Disagree" } },
        { "identifier": "temperature", "type": "form", "items": [
          { "identifier": "celsius",
            "answerFormat": { "type": "numeric", "unit": "°C", "minimum": 34, "maximum": 43, "maximumFractionDigits": 1 } } ] },
        { "identifier": "symptoms", "type": "question", "answerFormat": { "type": "textChoice", "style": "multipleChoice", "choices": [
          { "text": "Cough", "value": "cough" },
          { "text": "<b>Rash</b>", "value": "rash" },
          { "text": "Something else", "value": "other", "other": { "placeholder": "Which?" } },
          { "text": "None of these", "value": "none", "exclusive": true } ] } },
        { "identifier": "mood", "type": "question", "answerFormat": { "type": "textChoice", "style": "singleChoice", "choices": [
          { "text": { "es": "Bien", "en": "Good" }, "value": 1 },
          { "text": { "es": "Mal", "en": "Bad" }, "value": 2 } ] } },
        { "identifier": "age", "type": "question",
          "answerFormat": { "type": "age", "minimumAge": 18, "maximumAge": 120, "showDontKnowButton": true,
                            "customDontKnowButtonText": "Rather not say" } },
        { "identifier": "sleep", "type": "question", "answerFormat": { "type": "timeInterval" } },
        { "identifier": "start-date", "type": "question", "answerFormat": { "type": "date" } },
        { "identifier": "appointment", "type": "question", "answerFormat": { "type": "date", "style": "dateAndTime" } },
        { "identifier": "wake-time", "type": "question", "answerFormat": { "type": "timeOfDay" } },
        { "identifier": "comments", "type": "question", "answerFormat": { "type": "text", "maximumLength": 500 } },
        { "identifier": "pain", "type": "question",
          "answerFormat": { "type": "scale", "minimum": 0, "maximum": 10, "showDontKnowButton": true } },
        { "identifier": "energy", "type": "question",
          "answerFormat": { "type": "continuousScale", "minimum": 0, "maximum": 1, "numberStyle": "percent" } },
        { "identifier": "ladder", "type": "question", "answerFormat": { "type": "ses" } },
        { "identifier": "body", "type": "form", "items": [
          { "identifier": "height", "answerFormat": { "type": "height", "measurementSystem": "metric" } },
          { "identifier": "weight", "answerFormat": { "type": "weight", "measurementSystem": "USC" } } ] },
        { "identifier": "doses", "type": "question", "answerFormat": { "type": "multipleValuePicker", "pickers": [
          [ { "text": "One", "value": 1 }, { "text": "Two", "value": 2 } ],
          [ { "text": "Daily", "value": "daily" } ] ] } },
        { "identifier": "advice", "type": "instruction", "title": "Advice" },
        { "identifier": "done", "type": "completion", "title": "Thank you" }
      ]
    }
    """#

    static func explainer() throws -> PreviewExplainer {
        PreviewExplainer(task: try SurveyLoader.load(Data(json.utf8)).task)
    }

    static func format(_ name: String, in task: SurveyTask) throws -> AnswerFormat {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let step = try #require(task.step(parts[0]))
        let question = try #require(step.questions.first { parts.count == 1 || $0.identifier == parts[1] })
        return question.answerFormat
    }
}

/// Shorthands for predicates on the survey above.
private func result(_ name: String) -> ResultSelector { ResultSelector(name) }
private let feverYes = SurveyCore.Predicate.equals(result("fever"), .bool(true))
private let adult = SurveyCore.Predicate.range(result("age"), minimum: .number(18), maximum: nil)
private let cough = SurveyCore.Predicate.choice(result("symptoms"), .string("cough"))
private let hot = SurveyCore.Predicate.range(result("temperature.celsius"), minimum: .number(38.5), maximum: nil)

@Suite("Preview words: every test on an answer")
struct PreviewPredicateWordsTests {
    @Test("equals: Yes and No, the question's own label beside them when it has another")
    func equalsBoolean() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(feverYes) == "fever is Yes")
        #expect(words.words(.equals(result("fever"), .bool(false))) == "fever is No")
        #expect(words.words(.equals(result("consent"), .bool(true))) == "consent is Yes (“Agree”)")
        #expect(words.words(.equals(result("consent"), .bool(false))) == "consent is No (“Disagree”)")
    }

    @Test("equals: a number with the question's unit, percent, duration or rung")
    func equalsNumber() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.equals(result("temperature.celsius"), .number(38.5))) == "temperature.celsius is 38.5 °C")
        #expect(words.words(.equals(result("pain"), .number(5))) == "pain is 5")
        #expect(words.words(.equals(result("sleep"), .number(27_000))) == "sleep is 7 h 30 min")
        #expect(words.words(.equals(result("sleep"), .number(90.5))) == "sleep is 1 min 30.5 s")
        #expect(words.words(.equals(result("ladder"), .number(7))) == "ladder is rung 7")
        #expect(words.words(.equals(result("energy"), .number(0.25))) == "energy is 25%")
        #expect(words.words(.equals(result("body.height"), .number(170))) == "body.height is 170 cm")
        #expect(words.words(.equals(result("body.weight"), .number(70.5))) == "body.weight is 70.5 kg")
    }

    @Test("equals: a text in quotes")
    func equalsText() throws {
        #expect(try PreviewSurvey.explainer().words(.equals(result("comments"), .string("yes"))) == "comments is “yes”")
    }

    @Test("choice: the choice's text in the survey's words, without markup; a value no choice has as the value")
    func choice() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(cough) == "symptoms include “Cough”")
        #expect(words.words(.choice(result("symptoms"), .string("rash"))) == "symptoms include “Rash”")
        #expect(words.words(.choice(result("symptoms"), .string("purple"))) == "symptoms include \"purple\"")
        #expect(words.words(.choice(result("mood"), .number(1))) == "mood is “Good”")
        #expect(words.words(.choice(result("mood"), .number(3))) == "mood is 3")
        #expect(words.words(.choice(result("doses"), .number(2))) == "doses include “Two”")
    }

    @Test("choices: all of the listed choices; one is a plain choice")
    func choices() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.choices(result("symptoms"), [.string("cough"), .string("rash")])) == "symptoms include all of “Cough”, “Rash”")
        #expect(words.words(.choices(result("symptoms"), [.string("cough")])) == "symptoms include “Cough”")
    }

    @Test("matches: the expression between slashes")
    func matches() throws {
        #expect(try PreviewSurvey.explainer().words(.matches(result("comments"), "yes|y")) == "comments matches /yes|y/")
    }

    @Test("range: between, at least, at most, one value; numbers with units and durations")
    func numberRange() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.range(result("age"), minimum: .number(18), maximum: .number(65))) == "age is between 18 and 65")
        #expect(words.words(adult) == "age is at least 18")
        #expect(words.words(.range(result("age"), minimum: nil, maximum: .number(65))) == "age is at most 65")
        #expect(words.words(.range(result("age"), minimum: .number(18), maximum: .number(18))) == "age is 18")
        #expect(words.words(hot) == "temperature.celsius is at least 38.5 °C")
        #expect(words.words(.range(result("sleep"), minimum: .number(25_200), maximum: nil)) == "sleep is at least 7 h")
        #expect(words.words(.range(result("pain"), minimum: nil, maximum: nil)) == "pain has a value")
    }

    @Test("range: dates as a person writes them, date-times in the survey's zone")
    func dateRange() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.range(result("start-date"), minimum: .date("2026-03-01"), maximum: nil))
            == "start-date is on or after 1 March 2026")
        #expect(words.words(.range(result("start-date"), minimum: nil, maximum: .date("2026-03-31")))
            == "start-date is on or before 31 March 2026")
        #expect(words.words(.range(result("start-date"), minimum: .date("2026-03-01"), maximum: .date("2026-03-31")))
            == "start-date is between 1 March 2026 and 31 March 2026")
        #expect(words.words(.range(result("start-date"), minimum: .date("2026-03-01"), maximum: .date("2026-03-01")))
            == "start-date is on 1 March 2026")
        // Europe/London is an hour ahead of UTC in July.
        #expect(words.words(.range(result("appointment"), minimum: .date("2026-07-01T09:00:00Z"), maximum: nil))
            == "appointment is on or after 1 July 2026 at 10:00")
    }

    @Test("range: a date-time in a survey with no zone is shown in UTC, and says so")
    func dateRangeWithoutZone() throws {
        var task = try SurveyLoader.load(Data(PreviewSurvey.json.utf8)).task
        task.timeZone = nil
        let words = PreviewExplainer(task: task)
        #expect(words.words(.range(result("appointment"), minimum: nil, maximum: .date("2026-07-01T09:00:00+02:00")))
            == "appointment is on or before 1 July 2026 at 07:00 UTC")
    }

    @Test("timeRange: between, or later, or earlier")
    func timeRange() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.timeRange(result("wake-time"), minimum: "06:00", maximum: "09:00")) == "wake-time is between 06:00 and 09:00")
        #expect(words.words(.timeRange(result("wake-time"), minimum: "06:00", maximum: nil)) == "wake-time is 06:00 or later")
        #expect(words.words(.timeRange(result("wake-time"), minimum: nil, maximum: "09:00")) == "wake-time is 09:00 or earlier")
        #expect(words.words(.timeRange(result("wake-time"), minimum: "07:30", maximum: "07:30")) == "wake-time is 07:30")
    }

    @Test("isNil: answered or not")
    func isNil() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.isNil(result("mood"), true)) == "mood was not answered")
        #expect(words.words(.isNil(result("mood"), false)) == "mood was answered")
    }

    @Test("dontKnow: the button's words, the author's own when given")
    func dontKnow() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.dontKnow(result("pain"), true)) == "pain is “I don't know”")
        #expect(words.words(.dontKnow(result("pain"), false)) == "pain is not “I don't know”")
        #expect(words.words(.dontKnow(result("age"), true)) == "age is “Rather not say”")
    }

    @Test("not: a single test negated as English says it")
    func notOneTest() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.not(feverYes)) == "fever is not Yes")
        #expect(words.words(.not(cough)) == "symptoms do not include “Cough”")
        #expect(words.words(.not(.choice(result("mood"), .number(2)))) == "mood is not “Bad”")
        #expect(words.words(.not(.choices(result("symptoms"), [.string("cough"), .string("rash")])))
            == "symptoms do not include all of “Cough”, “Rash”")
        #expect(words.words(.not(.matches(result("comments"), "no"))) == "comments does not match /no/")
        #expect(words.words(.not(adult)) == "age is below 18")
        #expect(words.words(.not(.range(result("age"), minimum: nil, maximum: .number(65)))) == "age is above 65")
        #expect(words.words(.not(.range(result("age"), minimum: .number(18), maximum: .number(65)))) == "age is not between 18 and 65")
        #expect(words.words(.not(.range(result("start-date"), minimum: .date("2026-03-01"), maximum: nil)))
            == "start-date is before 1 March 2026")
        #expect(words.words(.not(.range(result("start-date"), minimum: nil, maximum: .date("2026-03-01"))))
            == "start-date is after 1 March 2026")
        #expect(words.words(.not(.timeRange(result("wake-time"), minimum: "06:00", maximum: nil))) == "wake-time is before 06:00")
        #expect(words.words(.not(.timeRange(result("wake-time"), minimum: nil, maximum: "09:00"))) == "wake-time is after 09:00")
        #expect(words.words(.not(.dontKnow(result("pain"), true))) == "pain is not “I don't know”")
    }

    @Test("not: where English cannot negate a test without changing what an unasked question does, it says not (…)")
    func notInParentheses() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.not(.isNil(result("mood"), true))) == "not (mood was not answered)")
        #expect(words.words(.not(.isNil(result("mood"), false))) == "not (mood was answered)")
        #expect(words.words(.not(.dontKnow(result("pain"), false))) == "not (pain is not “I don't know”)")
        #expect(words.words(.not(.not(feverYes))) == "not (fever is not Yes)")
    }
}

@Suite("Preview words: and, or, not and their parentheses")
struct PreviewPrecedenceTests {
    @Test("and and or alone need no parentheses; nested alike they flatten")
    func flat() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.all([feverYes, hot])) == "fever is Yes and temperature.celsius is at least 38.5 °C")
        #expect(words.words(.any([feverYes, cough])) == "either fever is Yes or symptoms include “Cough”")
        #expect(words.words(.all([feverYes, .all([hot, adult])])) == "fever is Yes and temperature.celsius is at least 38.5 °C and age is at least 18")
        #expect(words.words(.any([.any([feverYes, cough]), adult])) == "either fever is Yes or symptoms include “Cough” or age is at least 18")
    }

    @Test("or inside and, and and inside or, are put in parentheses")
    func mixed() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.all([.any([feverYes, cough]), adult]))
            == "(either fever is Yes or symptoms include “Cough”) and age is at least 18")
        #expect(words.words(.any([.all([feverYes, hot]), cough]))
            == "either (fever is Yes and temperature.celsius is at least 38.5 °C) or symptoms include “Cough”")
        #expect(words.words(.all([.not(feverYes), cough])) == "fever is not Yes and symptoms include “Cough”")
    }

    @Test("not over and is not (…); not over or is neither … nor …, itself grouped inside another joint")
    func negatedJoints() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.not(.all([feverYes, adult]))) == "not (fever is Yes and age is at least 18)")
        #expect(words.words(.not(.any([feverYes, cough]))) == "neither fever is Yes nor symptoms include “Cough”")
        #expect(words.words(.all([.not(.any([feverYes, cough])), adult]))
            == "(neither fever is Yes nor symptoms include “Cough”) and age is at least 18")
        #expect(words.words(.not(.any([.all([feverYes, hot]), cough])))
            == "neither (fever is Yes and temperature.celsius is at least 38.5 °C) nor symptoms include “Cough”")
    }

    @Test("a joint of one test is that test; empty joints are always and never")
    func degenerate() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(.all([feverYes])) == "fever is Yes")
        #expect(words.words(.not(.any([feverYes]))) == "fever is not Yes")
        #expect(words.words(.all([])) == "always")
        #expect(words.words(.any([])) == "never")
    }
}

@Suite("Preview words: destinations, navigation and skip rules")
struct PreviewRuleWordsTests {
    @Test("A destination is a step or the end")
    func destinations() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.words(Destination.step("advice")) == "step advice")
        #expect(words.words(Destination.end) == "the end")
    }

    @Test("A rule is one line per destination in the order they are tried, the first saying after which step")
    func rules() throws {
        let words = try PreviewSurvey.explainer()
        let rule = NavigationRule.predicate(rules: [ConditionalDestination(if: feverYes, destination: .step("temperature")),
                                                    ConditionalDestination(if: cough, destination: .end)],
                                            default: .step("advice"))
        #expect(words.rule(from: "intro", rule: rule) == [
            "after intro: if fever is Yes → step temperature",
            "otherwise, if symptoms include “Cough” → the end",
            "otherwise → step advice",
        ])
        #expect(words.rule(from: "advice", rule: .direct(.end)) == ["after advice: always → the end"])
    }

    @Test("A rule with no default goes on to the next step in the file, or ends after the last")
    func noDefault() throws {
        let words = try PreviewSurvey.explainer()
        let rule = NavigationRule.predicate(rules: [ConditionalDestination(if: feverYes, destination: .step("advice"))], default: nil)
        #expect(words.rule(from: "fever", rule: rule) == ["after fever: if fever is Yes → step advice", "otherwise → the next step, consent"])
        #expect(words.rule(from: "done", rule: rule).last == "otherwise → the end")
        #expect(words.rule(from: "fever", rule: .predicate(rules: [], default: .end)) == ["after fever: always → the end"])
    }

    @Test("Skip and visibility rules")
    func skipAndVisibility() throws {
        let words = try PreviewSurvey.explainer()
        #expect(words.skipRule(.equals(result("fever"), .bool(false))) == "skipped when fever is No")
        #expect(words.visibility(feverYes) == "shown only when fever is Yes")
    }

    @Test("The fever triage example's rules, as its researcher reads them")
    func feverTriage() throws {
        let task = try Files.task("Examples/fever-triage.json")
        let words = PreviewExplainer(task: task)
        let rules = Dictionary(uniqueKeysWithValues: task.navigationRules.map { ($0.stepIdentifier, words.rule(from: $0.stepIdentifier, rule: $0.rule)) })
        #expect(rules["fever"] == ["after fever: if fever is No → step other-symptoms", "otherwise → step temperature"])
        #expect(rules["danger-signs"] == [
            "after danger-signs: if danger-signs do not include “None of these” → step urgent",
            "otherwise, if temperature.celsius is at least 39 °C → step see-gp",
            "otherwise → step self-care",
        ])
        #expect(rules["other-symptoms"] == ["after other-symptoms: always → step self-care"])
        #expect(rules.count == 3)
        #expect(task.skipRules.map { words.skipRule($0.predicate) } == ["skipped when fever is No"])
        let summaries = try ["fever", "temperature.celsius", "temperature.since", "danger-signs", "other-symptoms"].map {
            words.summary(try PreviewSurvey.format($0, in: task))
        }
        #expect(summaries == [
            "Yes / No", "number 34–43 °C, 1 decimal place", "date between 30 days ago and today",
            "any of 4 choices (one excludes the others)", "text up to 300 characters, on several lines",
        ])
    }
}
