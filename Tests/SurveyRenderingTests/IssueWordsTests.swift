import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

@Suite("Participant problems worded from the catalog")
struct IssueWordsTests {
    /// One value of every case of `AnswerIssue.Problem`. `caseName` switches over all of them,
    /// so a new case does not compile until it has a sample here.
    static let samples: [AnswerIssue.Problem] = {
        let choice = LocalizedText("Other")
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let day = CalendarDate(year: 2026, month: 3, day: 10)!
        return AnswerIssue.MissingAnswer.allCases.map { .missing($0) } + AnswerIssue.DatePart.allCases.map { .datePartMissing($0) } + [
            .conflictingValues, .selectAnOption, .selectOneOnly, .selectEveryList, .otherNotChosen(choice: choice),
            .exclusiveWithOthers(choice: choice), .otherTextMissing(choice: choice), .enterNumber(whole: true), .enterNumber(whole: false),
            .fractionDigits(0), .fractionDigits(1), .fractionDigits(3), .numberBetween(low: 1, high: 5, unit: " kg"),
            .numberAtLeast(18, unit: ""), .numberAtMost(10, unit: "%"), .scaleValueBetween(low: 0, high: 10), .enterTime,
            .timeOnInterval(minutes: 15), .hoursRange, .minutesRange, .minutesInSteps(5), .enterDate, .realDate, .yearFourDigits,
            .dateBetween(earliest: day, latest: nil), .dateBetween(earliest: nil, latest: day), .dateBetween(earliest: day, latest: day),
            .dateBetween(earliest: nil, latest: nil), .momentNotBefore(Date(timeIntervalSince1970: 1_773_133_200), zone),
            .momentNotAfter(Date(timeIntervalSince1970: 1_773_133_200), zone), .tooLong(limit: 5), .tooShort(limit: 2), .pattern(message: nil, answer: "x"),
            .email, .ageWholeYears, .ageBetween(low: 1, high: 125), .heightCentimetres, .heightBetweenCentimetres, .heightAboveZero,
            .feetRange, .inchesRange, .weightNumber(pounds: true), .weightNumber(pounds: false),
            .weightBetween(low: 0, high: 657, pounds: false), .poundsWhole, .ouncesRange, .instancesAtLeast(2), .catalogEntry("resumeCodeUnknown"),
        ]
    }()

    static func caseName(_ problem: AnswerIssue.Problem) -> String {
        switch problem {
        case .missing: "missing"
        case .conflictingValues: "conflictingValues"
        case .selectAnOption: "selectAnOption"
        case .selectOneOnly: "selectOneOnly"
        case .selectEveryList: "selectEveryList"
        case .otherNotChosen: "otherNotChosen"
        case .exclusiveWithOthers: "exclusiveWithOthers"
        case .otherTextMissing: "otherTextMissing"
        case .enterNumber: "enterNumber"
        case .fractionDigits: "fractionDigits"
        case .numberBetween: "numberBetween"
        case .numberAtLeast: "numberAtLeast"
        case .numberAtMost: "numberAtMost"
        case .scaleValueBetween: "scaleValueBetween"
        case .enterTime: "enterTime"
        case .timeOnInterval: "timeOnInterval"
        case .hoursRange: "hoursRange"
        case .minutesRange: "minutesRange"
        case .minutesInSteps: "minutesInSteps"
        case .enterDate: "enterDate"
        case .realDate: "realDate"
        case .datePartMissing: "datePartMissing"
        case .yearFourDigits: "yearFourDigits"
        case .dateBetween: "dateBetween"
        case .momentNotBefore: "momentNotBefore"
        case .momentNotAfter: "momentNotAfter"
        case .tooLong: "tooLong"
        case .tooShort: "tooShort"
        case .pattern: "pattern"
        case .email: "email"
        case .ageWholeYears: "ageWholeYears"
        case .ageBetween: "ageBetween"
        case .heightCentimetres: "heightCentimetres"
        case .heightBetweenCentimetres: "heightBetweenCentimetres"
        case .heightAboveZero: "heightAboveZero"
        case .feetRange: "feetRange"
        case .inchesRange: "inchesRange"
        case .weightNumber: "weightNumber"
        case .weightBetween: "weightBetween"
        case .poundsWhole: "poundsWhole"
        case .ouncesRange: "ouncesRange"
        case .instancesAtLeast: "instancesAtLeast"
        case .catalogEntry: "catalogEntry"
        }
    }

    @Test("Every problem has words in every language: no catalog key and no slot is left showing",
          arguments: Catalog.languages)
    func everyProblemIsWorded(_ language: String) {
        #expect(Set(Self.samples.map(Self.caseName)).count == 43)
        let words = Catalog(language: language)
        for problem in Self.samples {
            let text = words.words(for: problem)
            #expect(!text.isEmpty, "\(problem)")
            if language == "en" { #expect(text.first?.isUppercase == true || text.first == "“", "\(problem): \(text)") }
            #expect(!text.contains("%@") && !text.contains("$@") && !text.contains("%d"), "\(problem): \(text)")
            #expect(text.contains(" "), "a catalog key shows through for \(problem): \(text)")
            if language != "en" {
                #expect(text != Catalog(language: "en").words(for: problem), "\(language) falls back to English: \(text)")
            }
        }
    }

    @Test("Numbers, dates and quoted choices are put in their place")
    func valuesInPlace() {
        let words = Catalog(language: "en")
        #expect(words.words(for: .numberBetween(low: 0.5, high: 2.5, unit: " mg")) == "Enter a number between 0.5 and 2.5 mg")
        #expect(words.words(for: .timeOnInterval(minutes: 15)) == "Enter a time in steps of 15 minutes, like 14:30")
        #expect(words.words(for: .timeOnInterval(minutes: 5)) == "Enter a time in steps of 5 minutes, like 14:10")
        #expect(words.words(for: .dateBetween(earliest: CalendarDate(year: 2026, month: 1, day: 1), latest: CalendarDate(year: 2026, month: 12, day: 31)))
            == "The date must be between 1 January 2026 and 31 December 2026")
        #expect(words.words(for: .momentNotBefore(Date(timeIntervalSince1970: 1_773_133_200), TimeZone(identifier: "Europe/Berlin")!))
            == "The date and time must be 10 March 2026 at 10:00 or later")
        #expect(words.words(for: .otherNotChosen(choice: LocalizedText("<b>Other</b> "))) == "Select “Other” to give your own answer, or clear the text")
    }

    @Test("A value holding a slot is not read as one")
    func slotsInValuesStayText() {
        let words = Catalog(language: "en")
        #expect(words.words(for: .otherTextMissing(choice: LocalizedText("100%@ sure"))) == "Enter your answer for “100%@ sure”")
        #expect(words.words(for: .numberBetween(low: 1, high: 2, unit: " %1$@")) == "Enter a number between 1 and 2 %1$@")
    }

    @Test("A language the product has no words for falls back to English")
    func fallback() {
        #expect(Catalog(language: "nl").words(for: .missing(.choice)) == "Select an answer")
        #expect(Catalog(language: "nl").day(CalendarDate(year: 2026, month: 11, day: 21)!) == "21 November 2026")
        #expect(Catalog(language: "nl")["back"] == "Back")
    }

    @Test("Dates, numbers and durations are written as each language writes them")
    func localeForms() {
        let day = CalendarDate(year: 2026, month: 11, day: 21)!
        #expect(Catalog(language: "es").day(day) == "21 de noviembre de 2026")
        #expect(Catalog(language: "de").day(day) == "21. November 2026")
        #expect(Catalog(language: "fr").day(day) == "21 novembre 2026")
        #expect(Catalog(language: "de").words(for: .numberBetween(low: 0.5, high: 2.5, unit: " mg")).contains("0,5"))
        #expect(Catalog(language: "en").words(for: .numberBetween(low: 0.5, high: 2.5, unit: " mg")).contains("0.5"))
        #expect(Catalog(language: "es").words(for: .missing(.choice)) == "Elija una respuesta")
        #expect(Catalog(language: "de").fill("duration", "7", "30") == "7 Std. 30 Min.")
        #expect(Catalog(language: "en").fill("duration", "0", "45") == "0 hours 45 minutes")
    }
}
