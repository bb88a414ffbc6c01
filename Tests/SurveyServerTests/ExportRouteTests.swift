import Foundation
import Hummingbird
import HummingbirdTesting
import JSON
import NIOCore
import SurveyCore
@testable import SurveyServer
import SurveyStorage
import Testing

@Suite("Exports over the researcher API")
struct ExportRouteTests {
    static var auth: HTTPFields { [.authorization: "Bearer \(ResearcherAPITests.token)"] }

    @Test("A survey's runs stream out of a real SQLite file as CSV, long CSV and JSON, each run once with its reasons")
    func exportsFromSQLite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteRunStore(path: folder.appendingPathComponent("runs.sqlite").path)
        try store.migrate()
        let app = try await makeApplication(store: store, apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            // One participant finishes, skipping the comments; one saves at the second question.
            var first = Participant(client)
            try await first.get("/surveys/wellbeing-check")
            try await first.submit("wellbeing-check", [("_action", "next")])
            try await first.submit("wellbeing-check", [("mood", "4")])
            try await first.submit("wellbeing-check", [("sleep.hours", "7"), ("sleep.minutes", "30")])
            try await first.submit("wellbeing-check", [("activities", "walk")])
            try await first.submit("wellbeing-check", [("_action", "skip")])
            try await first.submit("wellbeing-check", [("_action", "next")])
            var second = Participant(client)
            try await second.get("/surveys/wellbeing-check")
            try await second.submit("wellbeing-check", [("_action", "next")])
            try await second.submit("wellbeing-check", [("mood", "2")])
            try await second.submit("wellbeing-check", [("_action", "save")])

            let csv = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=csv&missing=codes", method: .get, headers: Self.auth)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"wellbeing-check-csv.csv\"")
            let lines = String(buffer: csv.body).components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.count == 3, "a header and a row per run")
            #expect(lines[0].hasPrefix("run_id,participant_id,status,survey_version,started,ended,duration_seconds,mood,sleep,activities__"))
            let done = try #require(lines.first { $0.contains(",completed,") })
            let version = try SurveyLoader.load(contentsOf: URL(fileURLWithPath: Repository.path("Examples/wellbeing-check.json"))).task.version
            #expect(done.contains(",completed,\(version),"), "each run names the survey version it was made with")
            let saved = try #require(lines.first { $0.contains(",saved,") })
            #expect(done.hasSuffix(",-92"), "the comments were skipped: \(done)")
            #expect(done.contains(",4,27000,"))
            #expect(saved.contains(",2,-94,"), "the sleep question was not reached: \(saved)")

            let completed = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=long&status=completed", method: .get, headers: Self.auth)
            let long = String(buffer: completed.body)
            #expect(long.contains(",comments,comments,1,,,") && long.contains(",skipped,\r\n"))
            #expect(!long.contains("not_reached"), "the saved run is left out by status")

            let json = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=json", method: .get, headers: Self.auth)
            guard case .array(let results) = try JSONParser.parse(String(buffer: json.body)) else {
                Issue.record("not a JSON array")
                return
            }
            #expect(results.count == 2)
            #expect(results.contains { (result: JSONValue) in
                if case .object(let object) = result { return object["finishReason"] == .string("saved") }
                return false
            })
        }
    }

    @Test("An export needs the token, a known survey and a known format; it refuses a bad status or date with a sentence")
    func refusals() async throws {
        let app = try await makeApplication(apiToken: ResearcherAPITests.token)
        try await app.test(.router) { client in
            let anonymous = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=csv", method: .get)
            #expect(anonymous.status == .unauthorized)
            for (uri, status, words) in [
                ("/api/v1/surveys/nope/export?format=csv", HTTPResponse.Status.notFound, "no survey"),
                ("/api/v1/surveys/wellbeing-check/export", .badRequest, "\\\"format\\\" must be one of: csv, long, codebook, r, spss, json, researchkit"),
                ("/api/v1/surveys/wellbeing-check/export?format=xlsx", .badRequest, "must be one of"),
                ("/api/v1/surveys/wellbeing-check/export?format=csv&status=finished", .badRequest, "\\\"status\\\" must be one of"),
                ("/api/v1/surveys/wellbeing-check/export?format=csv&since=yesterday", .badRequest, "ISO 8601"),
                ("/api/v1/surveys/wellbeing-check/export?format=csv&missing=yes", .badRequest, "takes only"),
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: Self.auth)
                #expect(response.status == status, "\(uri)")
                #expect(String(buffer: response.body).contains(words), "\(uri): \(String(buffer: response.body))")
            }
            let codebook = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=codebook&bom=1", method: .get, headers: Self.auth)
            #expect(codebook.status == .ok)
            #expect(String(buffer: codebook.body).hasPrefix("\u{FEFF}column,label,"))
        }
    }
}
