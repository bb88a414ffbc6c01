import Foundation
import JSON

/// What a participant consents to (ORKConsentDocument): the document's title and version, its
/// sections in order, who signs it, and the text the review step shows instead of the sections
/// when the author wrote one.
public struct ConsentDocument: Sendable, Hashable {
    public var title: LocalizedText
    /// The version an ethics board approved, printed in every signed copy's footer.
    public var version: String
    public var sections: [ConsentSection]
    public var signatures: [ConsentSignature]
    /// Shown by the review step in place of the sections (ORKConsentDocument's htmlReviewContent).
    public var reviewText: LocalizedText?

    public init(title: LocalizedText, version: String, sections: [ConsentSection], signatures: [ConsentSignature],
                reviewText: LocalizedText? = nil) {
        self.title = title
        self.version = version
        self.sections = sections
        self.signatures = signatures
        self.reviewText = reviewText
    }

    /// The sections the visual consent step shows, a page each: all but the document-only ones.
    public var visualSections: [ConsentSection] { sections.filter { $0.type != .onlyInDocument } }

    /// The signature a member of staff adds after the participant's turn, when the document asks for one.
    public var countersignature: ConsentSignature? { signatures.first { $0.isCountersignature } }

    public func signature(_ identifier: String) -> ConsentSignature? { signatures.first { $0.identifier == identifier } }
}

/// One signature a document asks for (ORKConsentSignature): the participant's, typed on the
/// review step, or a member of staff's countersignature.
public struct ConsentSignature: Sendable, Hashable {
    public var identifier: String
    /// Who signs, as the signed copy names them: "Participant", "Person obtaining consent".
    public var title: LocalizedText?
    /// True for the staff signature that follows the participant's (REDCap e-Consent's countersignature).
    public var isCountersignature: Bool

    public init(identifier: String, title: LocalizedText? = nil, isCountersignature: Bool = false) {
        self.identifier = identifier
        self.title = title
        self.isCountersignature = isCountersignature
    }
}
