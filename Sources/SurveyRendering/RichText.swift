import Foundation
import SurveyCore

/// A survey's author text, sanitized once per language when the survey loads.
public struct RichTextCache: Sendable {
    private let entries: [String: SanitizedHTML]
    /// True for a kiosk's pages: links are kept as their text, so nobody leaves the survey.
    private var unlinked = false

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
        if let document = task.consentDocument {
            [document.title, document.reviewText].forEach(visit)
            for section in document.sections { [section.title, section.summary, section.content, section.learnMoreTitle].forEach(visit) }
            document.signatures.map(\.title).forEach(visit)
        }
        for step in task.steps {
            [step.title, step.text, step.detailText, step.footnote, step.imageAlt, step.learnMore?.title, step.learnMore?.text].forEach(visit)
            switch step.kind {
            case .question(let content):
                visit(content.question)
                visit(content.placeholder)
                content.answerFormat.texts.forEach(visit)
            case .form(let content):
                visit(content.footerText)
                visit(content.repeating?.label)
                visit(content.repeating?.addAnother)
                for item in content.items {
                    switch item {
                    case .section(let header):
                        visit(header.sectionTitle)
                        visit(header.detailText)
                    case .note(let note):
                        visit(note.note)
                    case .question(let question):
                        [question.text, question.detailText, question.placeholder].forEach(visit)
                        question.answerFormat.texts.forEach(visit)
                    }
                }
            case .consentSharing(let content):
                [content.investigatorShortDescription, content.investigatorLongDescription].forEach(visit)
            case .consentReview(let content):
                visit(content.reasonForConsent)
            default:
                break
            }
        }
        var seen = Set<String>()
        return (RichTextCache(entries: entries), removed.filter { seen.insert($0).inserted })
    }

    /// The same texts with every link reduced to its words, for a kiosk's pages.
    public func withoutLinks() -> RichTextCache {
        var copy = RichTextCache(entries: entries.mapValues(\.withoutLinks))
        copy.unlinked = true
        return copy
    }

    /// The sanitized markup of a text in a language; plain escaping for anything not seen at load.
    public func html(_ text: LocalizedText?, language: String?, fallback: [String] = []) -> SanitizedHTML? {
        guard let text else { return nil }
        let raw = text.resolved(for: language, fallback: fallback)
        var html = entries[raw] ?? HTMLSanitizer.sanitize(raw).html
        if unlinked { html = html.withoutLinks }
        // A text shown in another language than the page's says which.
        if let language, let other = text.resolvedLanguage(for: language, fallback: fallback) { html = html.marked(language: other) }
        return html
    }

    /// The same text without markup, for a page title or an attribute.
    public func plain(_ text: LocalizedText?, language: String?, fallback: [String] = []) -> String? {
        html(text, language: language, fallback: fallback).map { PlainText.from($0.html) }
    }
}

/// Text from sanitized markup: tags removed, entities decoded.
enum PlainText {
    /// Sanitized markup as paragraphs of plain text, separated by blank lines (for a PDF).
    static func paragraphs(_ html: String) -> String {
        let broken = html.replacingOccurrences(of: "</p>|<br ?/?>|</li>|</h[1-6]>|</ul>|</ol>", with: "\u{1}", options: .regularExpression)
        return broken.split(separator: "\u{1}").map { from(String($0)) }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    static func from(_ html: String) -> String {
        var text = html.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
