import Foundation
import SurveyCore

/// What one request puts into a page.
public struct PageFill: Sendable {
    public var csrfToken: String
    public var visit: Int
    /// The values to show: what was submitted (on an error page) or what was saved.
    public var fields: FormFields
    public var issues: [AnswerIssue]
    public var hiddenItems: Set<String>
    public var canGoBack: Bool
    /// Markup for the parts that only error pages have, rendered from templates.
    public var errorSummary: String
    public var errorMessages: [String: String]
    /// True when the page edits an answer from the review step.
    public var returnToReview: Bool
    /// Markup made per request to stand beside the content (the preview's panel), or nothing.
    public var panel = ""
    /// Each shuffled question's choices in the run's order, by question name.
    public var orders: [String: [Int]] = [:]
    /// The choices of each list that this visit does not show (their `visibleIf` fails).
    public var hiddenChoices: [String: Set<Int>] = [:]
    /// The words of each piped selector that has an answer.
    public var piped: [String: String] = [:]
    /// Which question each issue belongs to.
    public var questionOfField: @Sendable (String) -> String

    public init(csrfToken: String, visit: Int, fields: FormFields = FormFields(), issues: [AnswerIssue] = [],
                hiddenItems: Set<String> = [], canGoBack: Bool, errorSummary: String = "", errorMessages: [String: String] = [:],
                returnToReview: Bool = false, questionOfField: @escaping @Sendable (String) -> String = { $0 }) {
        self.csrfToken = csrfToken
        self.visit = visit
        self.fields = fields
        self.issues = issues
        self.hiddenItems = hiddenItems
        self.canGoBack = canGoBack
        self.errorSummary = errorSummary
        self.errorMessages = errorMessages
        self.returnToReview = returnToReview
        self.questionOfField = questionOfField
    }

    func hasError(question: String) -> Bool {
        issues.contains { questionOfField($0.field) == question }
    }

    func append(_ slot: Slot, to output: inout String) {
        switch slot {
        case .csrf: HTMLEscaping.append(csrfToken, to: &output)
        case .visit: output += String(visit)
        case .titlePrefix: break  // the template's own words: PageTemplate.render writes it
        case .errorSummary: output += errorSummary
        case .panel: output += panel
        case .headingFocus: if issues.isEmpty { output += " autofocus=\"autofocus\"" }
        case .returnFlag: if returnToReview { output += "<input type=\"hidden\" name=\"_return\" value=\"1\" />" }
        case .value(let field): if let value = fields[field] { HTMLEscaping.append(value, to: &output) }
        case .text(let field): if let value = fields[field] { HTMLEscaping.append(value, to: &output) }
        case .checked(let field, let value): if fields.all(field).contains(value) { output += " checked=\"checked\"" }
        case .selected(let field, let value):
            let chosen = fields[field] ?? ""
            if chosen == value { output += " selected=\"selected\"" }
        case .error(let question): output += errorMessages[question] ?? ""
        case .groupError(let question): if hasError(question: question) { output += " form-group--error" }
        case .inputError(let field): if issues.contains(where: { $0.field == field }) { output += " input--error" }
        case .describedBy(let question, let ids):
            var all = ids
            if hasError(question: question) { all.append(PageIDs.error(question)) }
            if !all.isEmpty { output += " aria-describedby=\"" + all.joined(separator: " ") + "\"" }
        case .invalid(let field): if issues.contains(where: { $0.field == field }) { output += " aria-invalid=\"true\"" }
        case .piped(let selector, let fallbackHTML):
            if let words = piped[selector] { HTMLEscaping.append(words, to: &output) } else { output += fallbackHTML }
        case .itemStart, .itemEnd, .backStart, .backEnd, .orderedItem, .orderedItemEnd: break
        }
    }
}
