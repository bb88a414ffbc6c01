import Foundation
import JSON

/// The consent document's checks and its steps': every consent step needs the document, the
/// review names one of its signatures, and a run takes consent at most once.
extension DefinitionChecker {
    func checkConsent() {
        let reviews = task.steps.indices.filter { if case .consentReview = task.steps[$0].kind { true } else { false } }
        for index in reviews.dropFirst() {
            log.error(.root / "steps" / index, "A survey takes consent once: it already has a consentReview step, $.steps[\(reviews[0])].")
        }
        guard let document = task.consentDocument else { return }
        let path = JSONPath.root / "consentDocument"
        var seen = Set<String>()
        for (index, signature) in document.signatures.enumerated() where !seen.insert(signature.identifier).inserted {
            log.error(path / "signatures" / index / "identifier", "The signature identifier \"\(signature.identifier)\" is used twice.")
        }
        let countersignatures = document.signatures.indices.filter { document.signatures[$0].isCountersignature }
        for index in countersignatures.dropFirst() {
            log.error(path / "signatures" / index / "countersignature", "A document has at most one countersignature.")
        }
        if !document.signatures.isEmpty, document.signatures.allSatisfy(\.isCountersignature) {
            log.error(path / "signatures", "The document needs a signature for the participant, one without \"countersignature\".")
        }
        if reviews.isEmpty {
            log.warning(path, "The survey has a consent document but no consentReview step, so nobody signs it.")
        }
    }

    func checkConsentStep(_ step: Step, at path: JSONPath) {
        guard let document = task.consentDocument else {
            log.error(path / "type", "A \(step.kind.typeName) step needs the survey's \"consentDocument\".")
            return
        }
        switch step.kind {
        case .visualConsent where document.visualSections.isEmpty:
            log.error(path, "The visualConsent step has no page to show: every section of the document is onlyInDocument.")
        case .consentReview(let content):
            guard let signature = document.signature(content.signature) else {
                let names = document.signatures.filter { !$0.isCountersignature }.map { "\"\($0.identifier)\"" }
                log.error(path / "signature", "\"\(content.signature)\" is not a signature of the consent document; use \(names.joined(separator: " or ")).")
                return
            }
            if signature.isCountersignature {
                log.error(path / "signature", "\"\(content.signature)\" is the staff's countersignature; the review takes the participant's.")
            }
        default:
            break
        }
    }
}
