import Foundation
import SurveyCore

/// A survey's author text, sanitized once per language when the survey loads.
public struct RichTextCache: Sendable {
    private let entries: [String: SanitizedHTML]

    /// Sanitizes every text of a survey, in every language it has, and lists what was removed.
    public static func build(for task: SurveyTask) -> (cache: RichTextCache, removed: [String]) {
        var entries: [String: SanitizedHTML] = [:]
        var removed: [String] = []
        func visit(_ text: LocalizedText?) {
            guard let text else { return }
            for fragment in text.allTexts where entries[fragment] == nil {
                let result = HTMLSanitizer.sanitize(fragment)
                entries[fragment] = result.html
                removed.append(contentsOf: result.removed)
            }
        }
        visit(task.title)
        for step in task.steps {
            [step.title, step.text, step.detailText, step.footnote, step.imageAlt, step.learnMore?.title, step.learnMore?.text].forEach(visit)
            switch step.kind {
            case .question(let content):
                visit(content.question)
                visit(content.placeholder)
                visitFormat(content.answerFormat, visit)
            case .form(let content):
                visit(content.footerText)
                for item in content.items {
                    switch item {
                    case .section(let header):
                        visit(header.sectionTitle)
                        visit(header.detailText)
                    case .question(let question):
                        [question.text, question.detailText, question.placeholder].forEach(visit)
                        visitFormat(question.answerFormat, visit)
                    }
                }
            default:
                break
            }
        }
        var seen = Set<String>()
        return (RichTextCache(entries: entries), removed.filter { seen.insert($0).inserted })
    }

    private static func visitFormat(_ format: AnswerFormat, _ visit: (LocalizedText?) -> Void) {
        func choices(_ list: [TextChoice]) {
            for choice in list {
                visit(choice.text)
                visit(choice.detailText)
                visit(choice.other?.placeholder)
            }
        }
        switch format {
        case .boolean(let f): visit(f.yes); visit(f.no)
        case .textChoice(let f): choices(f.choices)
        case .valuePicker(let f): choices(f.choices)
        case .multipleValuePicker(let f): f.pickers.forEach(choices)
        case .imageChoice(let f): f.choices.forEach { visit($0.text); visit($0.imageAlt) }
        case .scale(let f): visit(f.minimumValueDescription); visit(f.maximumValueDescription)
        case .continuousScale(let f): visit(f.minimumValueDescription); visit(f.maximumValueDescription)
        case .textScale(let f): choices(f.choices)
        case .text(let f): visit(f.invalidMessage)
        case .age(let f): visit(f.minimumAgeCustomText); visit(f.maximumAgeCustomText)
        case .ses(let f): visit(f.topRungText); visit(f.bottomRungText)
        default: break
        }
        visit(format.dontKnow?.buttonText)
    }

    /// The sanitized markup of a text in a language; plain escaping for anything not seen at load.
    public func html(_ text: LocalizedText?, language: String?, fallback: [String] = []) -> SanitizedHTML? {
        guard let text else { return nil }
        let raw = text.resolved(for: language, fallback: fallback)
        return entries[raw] ?? HTMLSanitizer.sanitize(raw).html
    }

    /// The same text without markup, for a page title or an attribute.
    public func plain(_ text: LocalizedText?, language: String?, fallback: [String] = []) -> String? {
        html(text, language: language, fallback: fallback).map { PlainText.from($0.html) }
    }
}

/// Text from sanitized markup: tags removed, entities decoded.
enum PlainText {
    static func from(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
