import Foundation
import JSON

/// A run's consent as an R4 Consent: research consent under the Common Rule's policy, active
/// once certified (inactive after a withdrawal, rejected for Disagree), with the signed copy as
/// its source attachment and a staff countersignature as its verification.
public enum ConsentExport {
    /// The signed copy as the Consent carries it: inline (`data`, with R4's SHA-1 `hash`) when
    /// the bytes are at hand, else by `url`; always with the copy's SHA-256 as an extension.
    public struct Copy: Sendable {
        public var sha256: String
        public var data: [UInt8]?
        public var sha1: [UInt8]?
        public var url: String?
        public var title: String
        public init(sha256: String, data: [UInt8]? = nil, sha1: [UInt8]? = nil, url: String? = nil, title: String) {
            self.sha256 = sha256
            self.data = data
            self.sha1 = sha1
            self.url = url
            self.title = title
        }
    }

    /// The Consent's own identifier, made from the run's so that a Bundle holding both the
    /// QuestionnaireResponse (which has the run's) and the Consent names each once, and the same
    /// Consent sent twice is the same resource.
    public static func identifier(of run: UUID) -> UUID {
        var bytes = run.uuid
        bytes.0 ^= 0xC0
        bytes.1 ^= 0x25
        return UUID(uuid: bytes)
    }

    /// The Consent as an entry of a collection Bundle, or of a transaction that creates it once.
    public static func entry(_ consent: JSONValue, transaction: Bool) -> JSONValue {
        let fullUrl = "urn:uuid:" + (consent[fx: "id"]?.fxText ?? "")
        return transaction ? QuestionnaireResponseExport.transactionEntry(consent, fullUrl: fullUrl)
            : .object(["fullUrl": .string(fullUrl), "resource": consent])
    }

    /// The Consent of a run that reached its consent review, or nil.
    public static func resource(task: SurveyTask, run: TaskRun, context: FHIRRunContext?, copy: Copy?, timeZone: TimeZone) -> JSONValue? {
        let navigator = Navigator(task: task, timeZone: timeZone)
        guard let consent = navigator.consent(in: run), let agreed = consent.consented else { return nil }
        let status: String
        if !agreed {
            status = "rejected"
        } else if run.consent?.withdrawnAt != nil {
            status = "inactive"
        } else {
            status = consent.certified ? "active" : "proposed"
        }
        let when = consent.certifiedAt ?? consent.signedAt ?? run.endDate
        var attachment: JSONValue?
        if let copy, agreed {
            attachment = FHIRJSON.object([
                "extension": .array([.object(["url": .string(FHIRExportURL.copySHA256), "valueString": .string(copy.sha256)])]),
                "contentType": .string("application/pdf"),
                "language": task.languages?.first.map(JSONValue.string),
                "data": copy.data.map { .string(Data($0).base64EncodedString()) },
                "url": FHIRJSON.string(copy.url),
                "size": copy.data.map { .number(Double($0.count)) },
                "hash": copy.sha1.map { .string(Data($0).base64EncodedString()) },
                "title": .string(copy.title),
                "creation": when.map { .string(DateTimeParsing.string($0, in: timeZone)) },
            ])
        }
        let verification: JSONValue? = run.consent?.countersignature.map { countersignature in
            .array([.object(["verified": .bool(true), "verificationDate": .string(DateTimeParsing.string(countersignature.signedAt, in: timeZone))])])
        }
        let sharing: JSONValue? = consent.sharesBroadly.map { broadly in
            .array([.object([
                "type": .string(broadly ? "permit" : "deny"),
                "purpose": .array([.object(["system": .string("http://terminology.hl7.org/CodeSystem/v3-ActReason"), "code": .string("HRESCH"),
                                            "display": .string("healthcare research")])]),
            ])])
        }
        let id = identifier(of: run.taskRunUUID).uuidString.lowercased()
        return FHIRJSON.object([
            "resourceType": .string("Consent"),
            "id": .string(id),
            "identifier": .array([.object(["system": .string(FHIRExportURL.uri), "value": .string("urn:uuid:" + id)])]),
            "status": .string(status),
            "scope": .object(["coding": .array([.object(["system": .string("http://terminology.hl7.org/CodeSystem/consentscope"),
                                                         "code": .string("research"), "display": .string("Research")])])]),
            "category": .array([.object(["coding": .array([.object(["system": .string("http://loinc.org"), "code": .string("59284-0"),
                                                                    "display": .string("Patient Consent")])])])]),
            "patient": context?.subject.map(JSONValue.object),
            "dateTime": when.map { .string(DateTimeParsing.string($0, in: timeZone)) },
            "sourceAttachment": attachment,
            "policyRule": .object(["coding": .array([.object(["system": .string("http://terminology.hl7.org/CodeSystem/consentpolicycodes"),
                                                              "code": .string("cric"), "display": .string("Common Rule Informed Consent")])])]),
            "verification": verification,
            "provision": .object(["type": .string(agreed ? "permit" : "deny"), "provision": sharing]),
        ])
    }
}
