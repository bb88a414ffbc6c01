import Foundation
import SurveyCore

/// A per-request part of a page: what the compiled page leaves open and each request fills.
public enum Slot: Sendable, Hashable {
    /// The CSRF token, as an attribute value.
    case csrf
    /// The index of the visit the form edits.
    case visit
    /// "Error: " before the title on a page with errors.
    case titlePrefix
    /// The error summary at the top of `main`.
    case errorSummary
    /// Where the Back button begins and ends: left out when the path allows no Back.
    case backStart
    case backEnd
    /// A hidden `_return` field when the page edits an answer from the review step.
    case returnFlag
    /// ` autofocus` on the heading, unless an error summary (which has it) comes first.
    case headingFocus
    /// A text field's value, as an attribute value.
    case value(String)
    /// A textarea's content.
    case text(String)
    /// ` checked="checked"` when the field holds the value.
    case checked(field: String, value: String)
    /// ` selected="selected"` when the field holds the value (the empty value when it holds none).
    case selected(field: String, value: String)
    /// The error message of a question, beside its control.
    case error(question: String)
    /// ` form-group--error` on the group of a question with an error.
    case groupError(question: String)
    /// ` input--error` on a field with an error.
    case inputError(field: String)
    /// ` aria-describedby="…"` with the static ids plus the question's error id when it has one.
    case describedBy(question: String, ids: [String])
    /// ` aria-invalid="true"` on a field with an error.
    case invalid(field: String)
    /// Where a form item begins and ends, so a hidden item can be left out.
    case itemStart(String)
    case itemEnd
    /// Markup beside the page's content, made per request: the preview's panel.
    case panel
}

/// A page rendered once, with its per-request parts left as slots.
public struct PageTemplate: Sendable {
    public enum Segment: Sendable {
        case literal(String)
        case slot(Slot)
    }

    public let segments: [Segment]
    /// What goes before the title on a page with errors, in the page's language ("Error: ").
    let errorPrefix: String

    /// Splits rendered text at the slot markers the view models put in it.
    init(rendered: String, slots: [Slot], errorPrefix: String) {
        self.errorPrefix = errorPrefix
        var segments: [Segment] = []
        var literal = ""
        var scalars = rendered.unicodeScalars[...]
        while let start = scalars.firstIndex(of: SlotMarker.open) {
            literal.unicodeScalars.append(contentsOf: scalars[..<start])
            let afterOpen = scalars.index(after: start)
            guard let end = scalars[afterOpen...].firstIndex(of: SlotMarker.close),
                  let index = Int(String(String.UnicodeScalarView(scalars[afterOpen..<end]))), slots.indices.contains(index) else {
                literal.unicodeScalars.append(scalars[start])
                scalars = scalars[afterOpen...]
                continue
            }
            if !literal.isEmpty {
                segments.append(.literal(literal))
                literal = ""
            }
            segments.append(.slot(slots[index]))
            scalars = scalars[scalars.index(after: end)...]
        }
        literal.unicodeScalars.append(contentsOf: scalars)
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The page for one request: slots filled, hidden items left out, in one buffer.
    public func render(_ fill: PageFill) -> String {
        var output = ""
        output.reserveCapacity(segments.reduce(0) { total, segment in
            if case .literal(let text) = segment { return total + text.utf8.count }
            return total
        } + 256)
        var skipping = 0
        for segment in segments {
            switch segment {
            case .literal(let text):
                if skipping == 0 { output += text }
            case .slot(.itemStart(let identifier)):
                if skipping > 0 || fill.hiddenItems.contains(identifier) { skipping += 1 }
            case .slot(.backStart):
                if skipping > 0 || !fill.canGoBack { skipping += 1 }
            case .slot(.itemEnd), .slot(.backEnd):
                if skipping > 0 { skipping -= 1 }
            case .slot(.titlePrefix):
                if skipping == 0, !fill.issues.isEmpty { output += errorPrefix }
            case .slot(let slot):
                if skipping == 0 { fill.append(slot, to: &output) }
            }
        }
        return output
    }
}

/// The markers a view model writes where a slot goes: private-use characters that HTML
/// escaping leaves alone and no survey text can contain after sanitizing.
enum SlotMarker {
    static let open: Unicode.Scalar = "\u{E000}"
    static let close: Unicode.Scalar = "\u{E001}"
}

/// Collects the slots of one page while its view model is built.
final class SlotTable {
    private(set) var slots: [Slot] = []

    func marker(_ slot: Slot) -> String {
        slots.append(slot)
        return "\u{E000}\(slots.count - 1)\u{E001}"
    }
}

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
        case .itemStart, .itemEnd, .backStart, .backEnd: break
        }
    }
}

/// The ids a page gives its parts. Identifiers never hold ":", so these cannot clash with a field.
public enum PageIDs {
    public static func field(_ name: String) -> String { name }
    /// A form section, by the position of its header in the form.
    public static func section(_ position: Int) -> String { "section:\(position)" }
    /// A form note's item, by its position in the form.
    public static func note(_ position: Int) -> String { "note:\(position)" }
    /// The words a read-only question shows; a name no control posts.
    public static func shown(_ name: String) -> String { "\(name):shown" }
    public static func option(_ name: String, _ index: Int) -> String { index == 0 ? name : "\(name):\(index + 1)" }
    public static func hint(_ name: String) -> String { "\(name):hint" }
    public static func error(_ name: String) -> String { "\(name):error" }
    public static func optionHint(_ name: String, _ index: Int) -> String { "\(name):\(index + 1):hint" }
}
