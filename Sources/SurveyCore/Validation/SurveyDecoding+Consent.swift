import Foundation
import JSON

/// Reads the consent document and the three consent steps.
extension SurveyDecoding {
    func consentDocument(_ reader: ObjectReader) -> ConsentDocument? {
        guard let document = reader.objectReader("consentDocument", what: "\"consentDocument\"") else { return nil }
        let title = document.text("title", required: true)
        let version = document.string("version", required: true, nonEmpty: true)
        let reviewText = document.text("reviewText")
        var sections: [ConsentSection] = []
        for element in document.array("sections", required: true, minimumCount: 1) ?? [] {
            if let section = consentSection(element.value, at: element.path) { sections.append(section) }
        }
        var signatures: [ConsentSignature] = []
        for element in document.array("signatures", required: true, minimumCount: 1) ?? [] {
            guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "A signature") else { continue }
            let identifier = entry.string("identifier", required: true, nonEmpty: true)
            let signatureTitle = entry.text("title")
            let countersignature = entry.bool("countersignature") ?? false
            entry.finish("A signature")
            if let identifier {
                signatures.append(ConsentSignature(identifier: identifier, title: signatureTitle, isCountersignature: countersignature))
            }
        }
        document.finish("The consent document")
        guard let title, let version else { return nil }
        return ConsentDocument(title: title, version: version, sections: sections, signatures: signatures, reviewText: reviewText)
    }

    private func consentSection(_ value: JSONValue, at path: JSONPath) -> ConsentSection? {
        guard let reader = ObjectReader(value, at: path, log: log, what: "A consent section") else { return nil }
        let type = reader.enumeration("type", ConsentSectionType.self, required: true)
        let section = ConsentSection(type: type ?? .custom, title: reader.text("title"), summary: reader.text("summary"),
                                     content: reader.text("content"), learnMoreTitle: reader.text("learnMoreTitle"))
        reader.finish("A consent section")
        if let type, type.needsTitle, section.title == nil {
            log.error(path / "title", "A \(type.rawValue) section needs a \"title\": only the standard types have one of their own.")
        }
        if section.summary == nil, section.content == nil {
            log.error(path, "A consent section needs a \"summary\", a \"content\" or both: it has nothing to show.")
        }
        return type == nil ? nil : section
    }

    /// The keys of a consent step's own kind.
    func consentStepKind(_ typeName: String, _ reader: ObjectReader) -> StepKind? {
        switch typeName {
        case "visualConsent":
            return .visualConsent
        case "consentSharing":
            let short = reader.text("investigatorShortDescription", required: true)
            let long = reader.text("investigatorLongDescription", required: true)
            guard let short, let long else { return nil }
            return .consentSharing(ConsentSharingContent(investigatorShortDescription: short, investigatorLongDescription: long))
        case "consentReview":
            let signature = reader.string("signature", required: true, nonEmpty: true)
            let reason = reader.text("reasonForConsent")
            return signature.map { .consentReview(ConsentReviewContent(signature: $0, reasonForConsent: reason)) }
        default:
            return nil
        }
    }
}
