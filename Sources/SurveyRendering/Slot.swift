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
    /// Where a choice of a shuffled list begins, and ends: the run's order puts them in place.
    case orderedItem(list: String, index: Int)
    case orderedItemEnd
    /// An earlier answer or parameter piped into text (`${selector|fallback}`): its words,
    /// escaped, or the fallback's sanitized markup when there is no answer.
    case piped(selector: String, fallbackHTML: String)
}
