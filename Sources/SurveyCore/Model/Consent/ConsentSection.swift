import Foundation
import JSON

/// One section of a consent document (ORKConsentSection): a page of the visual consent step,
/// its summary first and its content behind "Learn more", and a part of the signed copy.
public struct ConsentSection: Sendable, Hashable {
    public var type: ConsentSectionType
    /// The author's title; a standard type without one has the catalog's title for its type.
    public var title: LocalizedText?
    public var summary: LocalizedText?
    /// The whole text: behind "Learn more" in the visual step, in full in the review and the copy.
    public var content: LocalizedText?
    /// What the "Learn more" control says, when not the catalog's words (customLearnMoreButtonTitle).
    public var learnMoreTitle: LocalizedText?

    public init(type: ConsentSectionType, title: LocalizedText? = nil, summary: LocalizedText? = nil, content: LocalizedText? = nil,
                learnMoreTitle: LocalizedText? = nil) {
        self.type = type
        self.title = title
        self.summary = summary
        self.content = content
        self.learnMoreTitle = learnMoreTitle
    }
}

/// ResearchKit's consent section types (ORKConsentSectionType), by their names in the survey file.
public enum ConsentSectionType: String, Sendable, Hashable, CaseIterable {
    case overview
    case dataGathering
    case privacy
    case dataUse
    case timeCommitment
    case studySurvey
    case studyTasks
    case withdrawing
    case custom
    case onlyInDocument

    /// Custom and document-only sections have no standard title: the author must give one.
    public var needsTitle: Bool { self == .custom || self == .onlyInDocument }
}
