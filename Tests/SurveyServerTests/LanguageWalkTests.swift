import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
import SurveyRendering
@testable import SurveyServer
import Testing

/// The every-format example, walked in each language the product has words for, with a wrong
/// answer to every format first: the server refuses it in the participant's own language and
/// keeps what was typed, then takes numbers as that language writes them.
@Suite("Every format answered wrongly, in every language")
struct LanguageWalkTests {
    static let languages = ["en", "es", "de", "fr", "ar"]

    /// Examples/every-format.json listing the five languages, in a folder of its own. Its texts
    /// stay English (they are plain strings); the server's own words follow the language.
    static func surveyFolder() throws -> URL {
        let source = try String(contentsOf: Repository.root.appendingPathComponent("Examples/every-format.json"), encoding: .utf8)
        let opening = try #require(source.firstIndex(of: "{"))
        let list = languages.map { "\"\($0)\"" }.joined(separator: ", ")
        var text = source
        text.insert(contentsOf: "\n  \"languages\": [\(list)],", at: text.index(after: opening))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("languages-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("every-format.json"), atomically: true, encoding: .utf8)
        return folder
    }

    /// A number as a participant in `language` types it: "12.5", "12,5" or "١٢٫٥".
    static func typed(_ number: String, _ language: String) -> String {
        switch language {
        case "es", "de", "fr": return number.replacingOccurrences(of: ".", with: ",")
        case "ar": return arabicDigits(number.replacingOccurrences(of: ".", with: "\u{066B}"))
        default: return number
        }
    }

    /// ASCII digits written as Arabic-Indic digits.
    static func arabicDigits(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            ("0"..."9").contains(scalar) ? Unicode.Scalar(0x0660 + scalar.value - 0x30)! : scalar
        }))
    }

    /// One wrong answer to a step: the fields posted, the code each refused field gets, and which
    /// fields a participant typed into (their text must be shown again as typed).
    struct Wrong {
        let fields: [(String, String)]
        let codes: [String: AnswerIssue.Code]
        var typed: [String] = []
    }

    /// Wrong answers by step, for the format each step asks with. The location cannot be wrong.
    static func wrongAnswers(_ language: String) -> [String: Wrong] {
        let digits = { (text: String) in language == "ar" ? arabicDigits(text) : text }
        return [
            "contact-ok": Wrong(fields: [("contact-ok", "perhaps")], codes: ["contact-ok": .notAChoice]),
            "handedness": Wrong(fields: [("handedness", "elbow")], codes: ["handedness": .notAChoice]),
            "transport": Wrong(fields: [("transport", "walk"), ("transport", "none")], codes: ["transport": .exclusive]),
            "country": Wrong(fields: [("country", "ZZ")], codes: ["country": .notAChoice]),
            "blood-group": Wrong(fields: [("blood-group.0", "A")], codes: ["blood-group.1": .incomplete]),
            "mood-face": Wrong(fields: [("mood-face", "ugly")], codes: ["mood-face": .notAChoice]),
            "stress": Wrong(fields: [("stress", "11")], codes: ["stress": .outOfRange]),
            "pain": Wrong(fields: [("pain", typed("2.55", language))], codes: ["pain": .tooManyFractionDigits], typed: ["pain"]),
            "sitting": Wrong(fields: [("sitting", digits("150"))], codes: ["sitting": .outOfRange], typed: ["sitting"]),
            "sleep-quality": Wrong(fields: [("sleep-quality", "9")], codes: ["sleep-quality": .notAChoice]),
            "about-you": Wrong(
                fields: [("height", "tall"), ("weight", digits("500")), ("age", digits("12")), ("daily-steps", typed("12.5", language)),
                         ("water", "lots"), ("wake-time", digits("07:03")), ("exercise.hours", digits("1")), ("exercise.minutes", digits("75")),
                         ("email", "not-an-email")],
                codes: ["height": .notANumber, "weight": .outOfRange, "age": .outOfRange, "daily-steps": .notAWholeNumber, "water": .notANumber,
                        "wake-time": .notOnInterval, "exercise.minutes": .outOfRange, "email": .email],
                typed: ["height", "weight", "age", "daily-steps", "water", "wake-time", "exercise.hours", "exercise.minutes", "email"]),
            "last-checkup": Wrong(fields: [("last-checkup.day", digits("31")), ("last-checkup.month", digits("2")), ("last-checkup.year", digits("2024"))],
                                  codes: ["last-checkup.day": .invalidDate], typed: ["last-checkup.day", "last-checkup.month", "last-checkup.year"]),
            "last-painkiller": Wrong(fields: [("last-painkiller.day", "10"), ("last-painkiller.month", "1"), ("last-painkiller.year", "2025"),
                                              ("last-painkiller.time", digits("08:07"))],
                                     codes: ["last-painkiller.time": .notOnInterval], typed: ["last-painkiller.day", "last-painkiller.time"]),
            "participant-code": Wrong(fields: [("participant-code", "ABCD-12345")], codes: ["participant-code": .tooLong], typed: ["participant-code"]),
            "ladder": Wrong(fields: [("ladder", "11")], codes: ["ladder": .notAChoice]),
            "comments": Wrong(fields: [("comments", String(repeating: "ب", count: 1001))], codes: ["comments": .tooLong], typed: ["comments"]),
        ]
    }

    /// The scripted right answers, with numbers typed as the language writes them: "1,5" litres
    /// of water in Spanish, German and French, "١٫٥" and "١٢" steps in Arabic.
    static func rightAnswers(_ step: String, _ script: JSONValue?, _ language: String) -> [(String, String)] {
        var pairs = EveryFormatTests.pairs(script)
        guard step == "about-you" else { return pairs }
        for index in pairs.indices {
            switch pairs[index].0 {
            case "water": pairs[index].1 = typed("1.5", language)
            case "daily-steps" where language == "ar": pairs[index].1 = arabicDigits("12")
            default: break
            }
        }
        return pairs
    }

    @Test("Every format refuses a wrong answer in the participant's language and keeps what was typed", arguments: languages)
    func wrongAnswersInEveryLanguage(_ language: String) async throws {
        let folder = try Self.surveyFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let task = try SurveyLoader.load(contentsOf: folder.appendingPathComponent("every-format.json")).task
        let navigator = Navigator(task: task)
        let words = Catalog(language: language)
        let wrong = Self.wrongAnswers(language)
        let script = try EveryFormatTests.script("every-format")
        let app = try await makeApplication(surveys: folder.path)
        try await app.test(.router) { client in
            var browser = Participant(client)
            browser.extraHeaders[.acceptLanguage] = language
            try await browser.get("/surveys/every-format")
            var refused: Set<String> = []
            for (stepID, answers) in script {
                #expect(browser.lastPage.contains("<html lang=\"\(language)\" dir=\"\(language == "ar" ? "rtl" : "ltr")\">"))
                let step = try #require(task.steps.first { $0.identifier == stepID })
                if let mistake = wrong[stepID] {
                    for (field, _) in mistake.fields {
                        #expect(browser.lastPage.contains("name=\"\(field)\""), "\(language) \(stepID): no control named \(field)")
                    }
                    let response = try await browser.post("/surveys/every-format", mistake.fields)
                    #expect(response.status == .unprocessableContent, "\(language) \(stepID): \(response.status)")
                    let page = browser.lastPage
                    // What the core makes of the same fields, worded by the catalog of the language.
                    let context = AnswerContext(language: language, now: Date(), timeZone: navigator.timeZone)
                    var issues: [AnswerIssue] = []
                    for question in step.questions {
                        if case .invalid(let found) = AnswerParser.parse(question.answerFormat, name: question.identifier,
                                                                         fields: FormFields(pairs: mistake.fields), context: context) {
                            issues += found
                        }
                    }
                    #expect(Dictionary(uniqueKeysWithValues: issues.map { ($0.field, $0.code) }) == mistake.codes, "\(language) \(stepID): \(issues)")
                    var expected: [String: [String]] = [:]
                    for issue in issues { expected[issue.field, default: []].append(words.words(for: issue)) }
                    #expect(Self.summary(page) == expected, "\(language) \(stepID)")
                    // Beside each question, its messages in order.
                    var besides: [String: [String]] = [:]
                    for issue in issues {
                        let question = step.questions.first { issue.field == $0.identifier || issue.field.hasPrefix($0.identifier + ".") }
                        besides[PageIDs.error(question?.identifier ?? issue.field), default: []].append(words.words(for: issue))
                    }
                    #expect(Self.inlineMessages(page) == besides, "\(language) \(stepID)")
                    for issue in issues {
                        if language != "en" {
                            #expect(words.words(for: issue) != Catalog(language: "en").words(for: issue), "\(language) \(issue.field) is in English")
                        }
                    }
                    for field in mistake.typed {
                        let value = try #require(mistake.fields.first { $0.0 == field }?.1)
                        #expect(Self.keeps(page, field, value), "\(language) \(stepID): \(field) lost \(value)")
                    }
                    refused.insert(stepID)
                }
                let response: TestResponse = try await browser.submit("every-format", Self.rightAnswers(stepID, answers, language))
                #expect(response.status == .ok, "\(language) \(stepID): the right answer got \(response.status)")
                #expect(!browser.lastPage.contains("class=\"error-summary\""), "\(language) \(stepID): refused the right answer")
            }
            #expect(refused == Set(wrong.keys), "\(language): never reached \(Set(wrong.keys).subtracting(refused))")
            let result = try JSONParser.parse(String(buffer: try await browser.get("/surveys/every-format/result.json").body))
            #expect(Self.numericAnswer("water", in: result) == 1.5)
            #expect(Self.numericAnswer("daily-steps", in: result) == (language == "ar" ? 12 : 8000))
        }
    }

    // MARK: Reading the page

    /// The error summary's messages by the field each links to, as the participant reads them.
    static func summary(_ page: String) -> [String: [String]] {
        var messages: [String: [String]] = [:]
        for match in page.matches(of: #/<li><a href="#([^"]*)">([^<]*)</a></li>/#) {
            messages[unescape(String(match.1)), default: []].append(unescape(String(match.2)))
        }
        return messages
    }

    /// The message beside each question, by its id, without the hidden "Error:" prefix.
    static func inlineMessages(_ page: String) -> [String: [String]] {
        var messages: [String: [String]] = [:]
        for match in page.matches(of: #/<p class="error-message" id="([^"]*)">(.*?)</p>/#) {
            let parts = String(match.2).components(separatedBy: "<span class=\"visually-hidden\">").dropFirst()
            messages[unescape(String(match.1))] = parts.map { part in
                let text = part.components(separatedBy: "</span>").dropFirst().joined(separator: "</span>")
                return unescape(text.trimmingCharacters(in: .whitespaces))
            }
        }
        return messages
    }

    /// Whether the page shows `value` again in the control `name`.
    static func keeps(_ page: String, _ name: String, _ value: String) -> Bool {
        let escaped = HTMLEscaping.escape(value)
        return ["text", "email", "time"].contains { page.contains("name=\"\(name)\" type=\"\($0)\" value=\"\(escaped)\"") }
            || page.contains(">\(escaped)</textarea>") && page.contains("name=\"\(name)\"")
    }

    static func unescape(_ text: String) -> String {
        var result = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&amp;", "&")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }

    /// The numeric answer recorded for a question, anywhere in a result.
    static func numericAnswer(_ identifier: String, in value: JSONValue) -> Double? {
        switch value {
        case .object(let object):
            if object["identifier"] == .string(identifier), case .number(let number)? = object["numericAnswer"] { return number }
            for (_, child) in object.entries { if let found = numericAnswer(identifier, in: child) { return found } }
        case .array(let list):
            for child in list { if let found = numericAnswer(identifier, in: child) { return found } }
        default:
            break
        }
        return nil
    }
}
