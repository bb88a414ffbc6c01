import Foundation
import JSON

/// The consent sharing step (ORKConsentSharingStep): may the study share the participant's data
/// beyond its own team? The answer is a boolean result under the step's identifier: true to
/// share broadly, false for the study team only.
public struct ConsentSharingContent: Sendable, Hashable {
    /// Who runs the study, short ("Example University") and long ("Example University and its partners").
    public var investigatorShortDescription: LocalizedText
    public var investigatorLongDescription: LocalizedText
    public init(investigatorShortDescription: LocalizedText, investigatorLongDescription: LocalizedText) {
        self.investigatorShortDescription = investigatorShortDescription
        self.investigatorLongDescription = investigatorLongDescription
    }
}

/// The consent review step (ORKConsentReviewStep): the whole document, the reason for consent,
/// Agree or Disagree, the typed (and optionally drawn) signature, then certification.
public struct ConsentReviewContent: Sendable, Hashable {
    /// The document signature the participant gives here.
    public var signature: String
    /// The sentence beside Agree: what agreeing means (ORKConsentReviewStep's reasonForConsent).
    public var reasonForConsent: LocalizedText?
    public init(signature: String, reasonForConsent: LocalizedText? = nil) {
        self.signature = signature
        self.reasonForConsent = reasonForConsent
    }

    /// The result identifiers the step records, one home for every layer that reads them.
    public enum Field {
        public static let consented = "consented"
        public static let givenName = "givenName"
        public static let familyName = "familyName"
        /// Path data of a drawn signature (SignatureDrawing), when one was drawn.
        public static let drawing = "signatureDrawing"
        public static let certified = "certified"
        /// The signature's fields: the identifying ones and the drawing.
        public static let signature = [givenName, familyName, drawing]
        public static let all = [consented, givenName, familyName, drawing, certified]
    }

    /// The review page, then the certification page.
    public static let signingPage = 0
    public static let certificationPage = 1
}
