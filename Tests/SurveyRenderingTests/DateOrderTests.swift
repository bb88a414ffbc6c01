import Foundation
import SurveyCore
import Testing
@testable import SurveyRendering

@Suite("The date boxes follow the page's language")
struct DateOrderTests {
    /// The date format fixture, compiled in each of these languages.
    static let languages = ["en-US", "en-GB", "en", "es", "de", "fr", "ar", "en-Latn-US", "es-US"]

    static func pages() async throws -> SurveyPages {
        var task = try Files.task("Tests/SurveyCoreTests/Fixtures/formats/date.json")
        task.languages = languages
        return try SurveyPages(task: task, library: try await Files.library(),
                               checker: MarkupChecker(allowlist: MarkupChecker.templateAllowlist))
    }

    /// The date boxes of the first question, by name, in the order the page has them.
    static func boxOrder(_ html: String) -> [String] {
        var names: [String] = []
        var rest = html[...]
        while let range = rest.range(of: "name=\"q.") {
            let tail = rest[range.upperBound...]
            guard let quote = tail.firstIndex(of: "\"") else { break }
            let name = String(tail[..<quote])
            if ["day", "month", "year"].contains(name) { names.append(name) }
            rest = tail[quote...]
        }
        return names
    }

    @Test("Month first in US English, day first in British English, Spanish, German, French and Arabic",
          arguments: [("en-US", ["month", "day", "year"]), ("en-Latn-US", ["month", "day", "year"]), ("en-GB", ["day", "month", "year"]),
                      ("en", ["day", "month", "year"]), ("es", ["day", "month", "year"]), ("es-US", ["day", "month", "year"]),
                      ("de", ["day", "month", "year"]), ("fr", ["day", "month", "year"]), ("ar", ["day", "month", "year"])])
    func boxesInTheLanguagesOrder(language: String, order: [String]) async throws {
        let pages = try await Self.pages()
        #expect(pages.language(preferring: [language]) == language)
        let context = AnswerContext(language: language, now: Date(timeIntervalSince1970: 1_795_255_200), timeZone: pages.navigator.timeZone)
        let html = try #require(pages.renderStep(run: pages.navigator.start(now: context.now), visit: 0, language: language, csrfToken: "t",
                                                 context: context))
        #expect(Self.boxOrder(html) == order)
        // The time box stays last, and each label still names its own box.
        let time = try #require(html.range(of: "name=\"q.time\""))
        let year = try #require(html.range(of: "name=\"q.year\""))
        #expect(year.lowerBound < time.lowerBound)
        for part in ["day", "month", "year"] {
            #expect(html.contains("<label class=\"label parts__label\" for=\"q.\(part)\">\(Catalog(language: language)[part])</label><input"))
        }
    }

    @Test("The example date in the hint and the problem is written in the boxes' order")
    func exampleFollowsTheOrder() async throws {
        #expect(Catalog(language: "en-US").dateExample == "3 27 2007")
        #expect(Catalog(language: "en-US").words(for: .realDate) == "Enter a real date, like 3 27 2007")
        #expect(Catalog(language: "en-GB").words(for: .realDate) == "Enter a real date, like 27 3 2007")
        #expect(Catalog(language: "de").words(for: .realDate) == "Geben Sie ein gültiges Datum ein, zum Beispiel 27 3 2007")
        let pages = try await Self.pages()
        let run = pages.navigator.start(now: Date(timeIntervalSince1970: 1_795_255_200))
        let us = try #require(pages.renderStep(run: run, visit: 0, language: "en-US", csrfToken: "t", context: AnswerContext(language: "en-US")))
        #expect(us.contains("<p class=\"hint\">For example, 3 27 2007</p>"))
        let fr = try #require(pages.renderStep(run: run, visit: 0, language: "fr", csrfToken: "t", context: AnswerContext(language: "fr")))
        #expect(fr.contains("<p class=\"hint\">Par exemple, 27 3 2007</p>"))
    }

    @Test("Where the order comes from", arguments: [
        ("en-US", [AnswerIssue.DatePart.month, .day, .year]), ("en-us", [.month, .day, .year]), ("EN-PR", [.month, .day, .year]),
        ("en-PH", [.month, .day, .year]), ("en-GB", [.day, .month, .year]), ("en-AU", [.day, .month, .year]),
        ("en", [.day, .month, .year]), ("en-150", [.day, .month, .year]), ("es-US", [.day, .month, .year]), ("ar-EG", [.day, .month, .year]),
        ("", [.day, .month, .year]),
    ])
    func order(language: String, order: [AnswerIssue.DatePart]) {
        #expect(Catalog(language: language).datePartOrder == order)
    }
}
