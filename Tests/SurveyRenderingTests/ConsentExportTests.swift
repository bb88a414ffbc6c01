import Foundation
import JSON
@testable import SurveyCore
import SurveyRendering
import Testing

/// A consent in the exports: its run columns, the review's fields under the step's name, and
/// the answers that identify the participant left out unless asked for.
@Suite("Consent in the exports")
struct ConsentExportTests {
    static let answers: [String: JSONValue] = [
        "about": ExportTests.fields([:]),
        "sharing": ExportTests.fields(["sharing": "false"]),
        "review": ExportTests.fields(["consented": "true", "givenName": "Ana", "familyName": "=Ruiz", "certified": "true"]),
    ]

    static func signedRun() throws -> (SurveyTask, TaskRun) {
        let task = try Files.task("Examples/study-consent.json")
        var run = try ExportTests.walk(task, answers)
        run.consent = ConsentStatus(copySHA256: String(repeating: "a1", count: 32),
                                    countersignature: .init(name: "Dr Staff", signedAt: ExportTests.start.addingTimeInterval(600), copySHA256: "b2"),
                                    withdrawnAt: ExportTests.start.addingTimeInterval(86_400))
        return (task, run)
    }

    static func wide(_ task: SurveyTask, _ run: TaskRun, identifiers: Bool) -> [String: String] {
        let exporter = Exporter(format: .csv, task: task, options: .init(includeIdentifiers: identifiers))
        let text = exporter.head() + exporter.write(ExportedRun(run: run, status: "completed", participant: nil, updatedAt: ExportTests.start))
        let records = ExportTests.parse(text)
        return Dictionary(zip(records[0], records[1]), uniquingKeysWith: { first, _ in first })
    }

    @Test("The wide CSV has the consent's columns; the names and the staff's name only when asked for")
    func wideColumns() throws {
        let (task, run) = try Self.signedRun()
        let plain = Self.wide(task, run, identifiers: false)
        #expect(plain["consent_version"] == "2.1 (2026-10-01)")
        #expect(plain["consent_copy_sha256"] == String(repeating: "a1", count: 32))
        #expect(plain["consent_signed_at"]?.isEmpty == false)
        #expect(plain["consent_certified_at"]?.isEmpty == false)
        #expect(plain["consent_withdrawn_at"]?.isEmpty == false)
        #expect(plain["review.consented"] == "1")
        #expect(plain["sharing"] == "0")
        for identifying in ["review.givenName", "review.familyName", "review.signatureDrawing", "consent_countersigned_by"] {
            #expect(plain[identifying] == nil, "\(identifying) is left out")
        }
        let full = Self.wide(task, run, identifiers: true)
        #expect(full["review.givenName"] == "Ana")
        #expect(full["review.familyName"] == "'=Ruiz", "a typed formula is defused")
        #expect(full["consent_countersigned_by"] == "Dr Staff")
        let book = Codebook(task: task, includeIdentifiers: true)
        #expect(book.entries.filter(\.identifying).map(\.name).sorted()
            == ["consent_countersigned_by", "review.familyName", "review.givenName", "review.signatureDrawing"])
        #expect(Codebook(task: task).entries.contains { $0.identifying } == false)
    }

    @Test("The JSON, long and FHIR exports leave the identifying answers out unless asked for")
    func otherFormats() throws {
        let (task, run) = try Self.signedRun()
        for format in [ExportFormat.json, .researchkit, .long, .fhir, .fhirTransaction] {
            let exported = ExportedRun(run: run, status: "completed", participant: nil, updatedAt: ExportTests.start)
            let without = Exporter(format: format, task: task).write(exported)
            #expect(!without.contains("Ana") && !without.contains("Dr Staff"), "\(format)")
            // The QuestionnaireResponse has no item for a consent step: its Consent names no one.
            guard format != .fhir, format != .fhirTransaction else { continue }
            let with = Exporter(format: format, task: task, options: .init(includeIdentifiers: true)).write(exported)
            #expect(with.contains("Ana"), "\(format)")
        }
    }

    @Test("A FHIR export carries each run's Consent: active, its copy's hash and address, the countersignature as verification")
    func fhirConsent() throws {
        let (task, run) = try Self.signedRun()
        let exporter = Exporter(format: .fhir, task: task)
        let text = exporter.head() + exporter.write(ExportedRun(run: run, status: "completed", participant: nil, updatedAt: ExportTests.start))
            + exporter.tail()
        guard case .object(let bundle) = try JSONParser.parse(text), case .array(let entries)? = bundle["entry"] else {
            Issue.record("no entries")
            return
        }
        let resources = entries.compactMap { entry -> JSONObject? in
            guard case .object(let object) = entry, case .object(let resource)? = object["resource"] else { return nil }
            return resource
        }
        let consent = try #require(resources.first { $0["resourceType"] == .string("Consent") })
        // Withdrawn after certifying: inactive.
        #expect(consent["status"] == .string("inactive"))
        guard case .object(let attachment)? = consent["sourceAttachment"] else {
            Issue.record("no attachment")
            return
        }
        #expect(attachment["url"] == .string("/api/v1/runs/\(run.taskRunUUID.uuidString.lowercased())/consent.pdf"))
        #expect(JSONWriter.string(.object(attachment), pretty: false).contains("b2"), "the countersigned copy's hash")
        #expect(consent["verification"] != nil)
        #expect(consent["id"] != .string(run.taskRunUUID.uuidString.lowercased()), "the Consent and the response have ids of their own")
    }
}
