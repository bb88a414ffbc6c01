import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyAnalysis
import SurveyCore
import SurveyRendering
@testable import SurveyServer
import SurveyStorage
import SurveyTestSupport
import Synchronization
import Testing

/// The researchers' dashboard over HTTP: who gets in, and counts that agree with the export of
/// the same store after participants went back, saved, discarded and skipped.
@Suite("The dashboard")
struct DashboardRouteTests {
    static let token = ResearcherAPITests.token
    static var auth: HTTPFields { [.authorization: "Bearer \(token)"] }

    /// Five participants of wellbeing-check: one completes skipping the comments, one saves at
    /// the second question, one goes back to change an answer and then discards (a discarded run
    /// is deleted), one answers two questions and goes back to the first, where it stays, and one
    /// goes back and completes with other choices.
    static func walk(_ client: some TestClientProtocol) async throws {
        let next = [("_action", "next")], back = [("_action", "back")]
        let pages: [[[(String, String)]]] = [
            [next, [("mood", "4")], [("sleep.hours", "7"), ("sleep.minutes", "30")], [("activities", "walk")], [("_action", "skip")], next],
            [next, [("mood", "2")], [("_action", "save")]],
            [next, [("mood", "5")], [("sleep.hours", "8"), ("sleep.minutes", "0")], back, [("sleep.hours", "6"), ("sleep.minutes", "15")],
             [("_action", "discard")]],
            [next, [("mood", "2")], [("sleep.hours", "9"), ("sleep.minutes", "0")], back, back],
            [next, [("mood", "3")], back, [("mood", "1")], [("sleep.hours", "5"), ("sleep.minutes", "0")],
             [("activities", "social"), ("activities", "other"), ("activities.other", "Knitting")], [("comments", "Fine")], next],
        ]
        for participantPages in pages {
            var participant = Participant(client)
            try await participant.get("/surveys/wellbeing-check")
            for fields in participantPages { try await participant.submit("wellbeing-check", fields) }
        }
    }

    /// A CSV's records (no quoted line breaks in these).
    static func records(_ text: String) -> [[String]] {
        text.replacingOccurrences(of: "\u{FEFF}", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }.map { line in
            var fields: [String] = []
            var field = ""
            var quoted = false
            for character in line {
                if character == "\"" { quoted.toggle() } else if character == ",", !quoted { fields.append(field); field = "" } else { field.append(character) }
            }
            return fields + [field]
        }
    }

    @Test("Counts agree with the export of the same SQLite file: statuses, answers, choices, numbers and every missing reason")
    func countsAgreeWithExport() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteRunStore(path: folder.appendingPathComponent("runs.sqlite").path)
        try store.migrate()
        let app = try await makeApplication(store: store, apiToken: Self.token)
        try await app.test(.router) { client in
            try await Self.walk(client)
            let export = try await client.execute(uri: "/api/v1/surveys/wellbeing-check/export?format=csv&missing=codes", method: .get, headers: Self.auth)
            let table = Self.records(String(buffer: export.body))
            let header = table[0]
            let rows = Array(table.dropFirst())
            #expect(rows.count == 4, "the discarded run is gone")
            func column(_ name: String) -> [String] { let index = header.firstIndex(of: name)!; return rows.map { $0[index] } }

            let runs = try await client.execute(uri: "/dashboard/wellbeing-check/runs.csv", method: .get, headers: Self.auth)
            #expect(runs.status == .ok && runs.headers[.contentType] == "text/csv; charset=utf-8")
            let runTable = Self.records(String(buffer: runs.body))
            #expect(runTable[0] == ["Period", "completed", "in progress", "saved", "discarded", "All"])
            for (index, status) in [(1, "completed"), (2, "inProgress"), (3, "saved")] {
                #expect(runTable.dropFirst().map { Int($0[index])! }.reduce(0, +) == column("status").filter { $0 == status }.count, "\(status)")
            }
            // The discarded run is gone from the export, but its erasure in the audit log counts it
            // on the runs chart, and only there.
            #expect(runTable.dropFirst().map { Int($0[4])! }.reduce(0, +) == 1)
            let discarded = Self.records(String(buffer: try await client.execute(uri: "/dashboard/wellbeing-check/runs.csv?status=discarded",
                                                                                  method: .get, headers: Self.auth).body))
            #expect(discarded.dropFirst().map { $0.last! } == ["1"], "the status filter keeps the discarded run")
            let discardedMood = Self.records(String(buffer: try await client.execute(uri: "/dashboard/wellbeing-check/questions/mood.csv?status=discarded",
                                                                                      method: .get, headers: Self.auth).body))
            #expect(discardedMood.first { $0[0] == "Answered" }?[1] == "0", "a discarded run's answers are gone")

            let codes = ["-91": "not shown", "-92": "skipped", "-93": "don't know", "-94": "not reached"]
            for key in ["mood", "sleep", "activities", "comments"] {
                let chart = try await client.execute(uri: "/dashboard/wellbeing-check/questions/\(key).csv", method: .get, headers: Self.auth)
                let lines = Self.records(String(buffer: chart.body))
                func count(_ label: String) -> Int { Int(lines.first { $0[0] == label }![1])! }
                let cells = header.contains(key) ? column(key) : column(header.first { $0.hasPrefix(key + "__") }!)
                #expect(count("Answered") == cells.filter { codes[$0] == nil }.count, "\(key) answered")
                for (code, reason) in codes {
                    #expect(count("Missing, because \(reason)") == cells.filter { $0 == code }.count, "\(key) \(reason)")
                }
            }
            // Each choice as the export's columns tick it; "other" text counts as the other choice.
            let activities = Self.records(String(buffer: try await client.execute(uri: "/dashboard/wellbeing-check/questions/activities.csv",
                                                                                   method: .get, headers: Self.auth).body))
            for value in ["walk", "social", "creative", "other", "none"] {
                let ticked = column("activities__\(value)").filter { $0 == "1" }.count
                #expect(activities.first { $0[0].hasSuffix("(\(value))") }.map { Int($0[1])! } == ticked, "\(value)")
            }
            #expect(!activities.joined().joined().contains("Knitting"), "typed text never reaches the dashboard")
            // Every number the export holds falls in the bin the histogram counts it in.
            let mood = Self.records(String(buffer: try await client.execute(uri: "/dashboard/wellbeing-check/questions/mood.csv",
                                                                             method: .get, headers: Self.auth).body))
            for value in 1...5 {
                #expect(mood.first { $0[0] == String(value) }.map { Int($0[2])! } == column("mood").filter { $0 == String(value) }.count, "mood \(value)")
            }
            // The funnel, on final paths: all four reached the mood question, where the wanderer went
            // back to and stays; three the sleep question on their final path, where the saver stopped.
            let funnel = Self.records(String(buffer: try await client.execute(uri: "/dashboard/wellbeing-check/funnel.csv", method: .get,
                                                                               headers: Self.auth).body))
            #expect(funnel.first { $0[0] == "mood" }.map { [$0[1], $0[2]] } == ["4", "1"])
            #expect(funnel.first { $0[0] == "sleep" }.map { [$0[1], $0[2]] } == ["3", "1"])
            #expect(funnel.first { $0[0] == "activities" }.map { [$0[1], $0[2]] } == ["2", "0"])
            #expect(funnel.first { $0[0] == "done" }?[1] == "2")
            // The wanderer's sleep answer left the path when they went back: not reached, as the export says.
            #expect(column("sleep").filter { $0 == "-94" }.count == 2)

            // A filter by status narrows every chart.
            let completed = Self.records(String(buffer: try await client.execute(uri: "/dashboard/wellbeing-check/questions/mood.csv?status=completed",
                                                                                  method: .get, headers: Self.auth).body))
            #expect(completed.first { $0[0] == "Answered" }?[1] == "2")
        }
    }

    @Test("The page: every chart with its table and downloads, the filters kept; a bad filter is named beside its field")
    func page() async throws {
        let app = try await makeApplication(apiToken: Self.token)
        try await app.test(.router) { client in
            try await Self.walk(client)
            let page = try await client.execute(uri: "/dashboard/wellbeing-check?status=completed&from=2000-01-01", method: .get, headers: Self.auth)
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            let html = String(buffer: page.body)
            for chart in ["chart-runs", "chart-funnel", "chart-times", "chart-q-mood", "chart-q-sleep", "chart-q-activities", "chart-q-comments"] {
                #expect(html.contains("id=\"\(chart)\""), "\(chart)")
            }
            #expect(html.contains("<svg class=\"chart\" role=\"img\" aria-labelledby=\"chart-q-mood-title\""))
            #expect(html.contains("href=\"/dashboard/wellbeing-check/questions/mood.svg?from=2000-01-01&amp;status=completed\""))
            #expect(html.contains("<option value=\"completed\" selected=\"selected\">"))
            #expect(html.contains("Runs counted: 2"))
            #expect(html.range(of: #"Counts as of \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(UTC[+-]\d{2}:\d{2}\)"#, options: .regularExpression) != nil)
            #expect(!html.contains("chart-q-comments-title"), "text is counted, not drawn")

            let bad = try await client.execute(uri: "/dashboard/wellbeing-check?from=yesterday&status=lost", method: .get, headers: Self.auth)
            #expect(bad.status == .badRequest)
            let badHTML = String(buffer: bad.body)
            #expect(badHTML.contains("id=\"from-error\"") && badHTML.contains("value=\"yesterday\""))
            #expect(badHTML.contains("id=\"status-error\""))
            #expect(badHTML.contains("Runs counted: 5"), "a filter in error filters nothing (the discarded run counted)")
            let badDownload = try await client.execute(uri: "/dashboard/wellbeing-check/runs.csv?to=soon", method: .get, headers: Self.auth)
            #expect(badDownload.status == .badRequest)

            let svg = try await client.execute(uri: "/dashboard/wellbeing-check/questions/activities.svg", method: .get, headers: Self.auth)
            #expect(svg.headers[.contentType] == "image/svg+xml; charset=utf-8")
            #expect(svg.headers[.contentDisposition] == "attachment; filename=\"wellbeing-check-questions-activities.svg\"")
            #expect(String(buffer: svg.body).hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
            for missing in ["/dashboard/wellbeing-check/questions/comments.svg", "/dashboard/wellbeing-check/nothing.csv",
                            "/dashboard/nowhere", "/dashboard/wellbeing-check/runs.txt"] {
                #expect(try await client.execute(uri: missing, method: .get, headers: Self.auth).status == .notFound, "\(missing)")
            }
            let index = try await client.execute(uri: "/dashboard", method: .get, headers: Self.auth)
            #expect(String(buffer: index.body).contains("href=\"/dashboard/every-format\""))
        }
    }

    @Test("A run answered or changed after a look is counted at the next look, once")
    func laterRunsAreCounted() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteRunStore(path: folder.appendingPathComponent("runs.sqlite").path)
        try store.migrate()
        let app = try await makeApplication(store: store, apiToken: Self.token)
        try await app.test(.router) { client in
            func answered() async throws -> [String] {
                let csv = try await client.execute(uri: "/dashboard/wellbeing-check/questions/mood.csv", method: .get, headers: Self.auth)
                let rows = Self.records(String(buffer: csv.body))
                return ["Answered", "Missing, because not reached"].map { label in rows.first { $0[0] == label }![1] }
            }
            var first = Participant(client)
            try await first.get("/surveys/wellbeing-check")
            try await first.submit("wellbeing-check", [("_action", "next")])
            #expect(try await answered() == ["0", "1"])
            try await first.submit("wellbeing-check", [("mood", "3")])
            var second = Participant(client)
            try await second.get("/surveys/wellbeing-check")
            try await second.submit("wellbeing-check", [("_action", "next")])
            try await second.submit("wellbeing-check", [("mood", "5")])
            #expect(try await answered() == ["2", "0"], "the changed run is counted once, with its answer, and the new one too")
        }
    }

    @Test("Who gets in: an API token or the preview's sign-in; nobody else, and every look is recorded")
    func access() async throws {
        let store = MemoryRunStore()
        let app = try await makeApplication(store: store, apiToken: Self.token) { $0.previewToken = PreviewTests.token }
        try await app.test(.router) { client in
            let browser = try await client.execute(uri: "/dashboard/wellbeing-check", method: .get)
            #expect(browser.status == .seeOther && browser.headers[.location] == "/preview/sign-in")
            let wrong = try await client.execute(uri: "/dashboard/wellbeing-check", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .unauthorized && wrong.headers[.wwwAuthenticate] == "Bearer")
            var researcher = KioskBrowser(client)
            try await PreviewTests.signIn(&researcher)
            #expect(try await researcher.get("/dashboard/wellbeing-check").status == .ok)
            #expect(try await client.execute(uri: "/dashboard/wellbeing-check/runs.csv", method: .get, headers: Self.auth).status == .ok)
            let entries = try await store.auditEntries(AuditQuery())
            #expect(entries.filter { $0.action == "dashboard.read" }.count == 1)
            #expect(entries.filter { $0.action == "dashboard.downloaded" }.count == 1)
            #expect(entries.contains { $0.action == "dashboard.tokenRefused" })
        }
        let closed = try await makeApplication()
        try await closed.test(.router) { client in
            let response = try await client.execute(uri: "/dashboard/wellbeing-check", method: .get, headers: Self.auth)
            #expect(response.status == .notFound, "without a preview or API token there is no dashboard")
        }
    }
}

/// The refresh that keeps the dashboard's facts current, on a store filled directly.
@Suite("The dashboard's refresh")
struct DashboardRefreshTests {
    static func pages() async throws -> SurveyPages {
        let catalog = try await SurveyCatalog.load(surveysDirectory: Repository.path("Examples"), templatesDirectory: Repository.path("Templates"))
        return try #require(catalog.surveys["wellbeing-check"])
    }

    /// A run of wellbeing-check that answered the mood question, changed at `seconds`.
    static func record(mood: Int, at seconds: Double, pages: SurveyPages) throws -> RunRecord {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let navigator = pages.survey.navigator
        var run = navigator.start(now: start)
        for fields in [[:], ["mood": [String(mood)]]] {
            guard case .accepted(let next) = navigator.answer(run, visit: run.cursor, fields: FormFields(fields),
                                                              context: AnswerContext(language: "en", now: start, timeZone: utc)) else {
                throw CancellationError()
            }
            run = next
        }
        return RunRecord(run: run, surveyIdentifier: "wellbeing-check", sessionID: UUID().uuidString,
                         updatedAt: Date(timeIntervalSince1970: 1_800_000_000 + seconds))
    }

    static func moods(_ store: any RunStore) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for group in try await store.dashboardTally(DashboardQuery(survey: "wellbeing-check")).outcomes where group.key == "mood" {
            counts[group.outcome == AnswerFact.answered ? "answered" : group.outcome, default: 0] += group.count
        }
        return counts
    }

    @Test("More changed runs than a page are read page by page, each once; more runs changed at one instant than a page too")
    func manyChanges() async throws {
        let pages = try await Self.pages()
        let store = MemoryRunStore()
        let service = DashboardService(store: store, clock: { Date() })
        var records: [RunRecord] = []
        for index in 0..<1_300 { records.append(try await store.insert(try Self.record(mood: 1, at: Double(index), pages: pages))) }
        try await service.refresh(pages, timeZone: utc)
        #expect(try await Self.moods(store) == ["answered": 1_300])
        // 1,200 runs change after the watermark, over three pages, with ties on the pages' edges.
        for (index, record) in records.prefix(1_200).enumerated() {
            var changed = try Self.record(mood: 5, at: 2_000 + Double(index / 3), pages: pages)
            changed.run.taskRunUUID = record.id
            changed.version = record.version
            changed.sessionID = record.sessionID
            _ = try await store.update(changed)
        }
        try await service.refresh(pages, timeZone: utc)
        #expect(try await store.dashboardStaleRuns(survey: "wellbeing-check", changedSince: .distantPast, limit: 2_000).isEmpty)
        let histogramAfter = try await store.dashboardHistograms(DashboardQuery(survey: "wellbeing-check"),
                                                                 bins: ["mood": HistogramBins(origin: 1, width: 1, count: 5)])
        #expect(histogramAfter["mood"] == [0: 100, 4: 1_200])
        // 700 more, all changed at one instant: more than a page.
        for record in records.suffix(700) {
            var changed = try Self.record(mood: 3, at: 9_000, pages: pages)
            changed.run.taskRunUUID = record.id
            changed.version = try await store.record(id: record.id)!.version
            changed.sessionID = record.sessionID
            _ = try await store.update(changed)
        }
        try await service.refresh(pages, timeZone: utc)
        #expect(try await Self.moods(store) == ["answered": 1_300])
        #expect(try await store.dashboardWatermark(survey: "wellbeing-check") == Date(timeIntervalSince1970: 1_800_009_000))
        // Runs 0–599 answered 5, runs 600–1,299 answered 3.
        let histogram = try await store.dashboardHistograms(DashboardQuery(survey: "wellbeing-check"),
                                                            bins: ["mood": HistogramBins(origin: 1, width: 1, count: 5)])
        #expect(histogram["mood"] == [2: 700, 4: 600])
    }

    @Test("The background refreshes a store with no facts yet, and a survey only while its dashboard is in use")
    func refreshesWhileInUse() async throws {
        let pages = try await Self.pages()
        let store = MemoryRunStore()
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let service = DashboardService(store: store, clock: { now.withLock { $0 } })
        _ = try await store.insert(try Self.record(mood: 2, at: 0, pages: pages))
        #expect(try await service.wantsRefresh("wellbeing-check"), "no facts yet: the first pass")
        try await service.refresh(pages, timeZone: utc)
        #expect(try await !service.wantsRefresh("wellbeing-check"), "nobody looks: the answers cost nothing more")
        _ = try await service.report(pages, timeZone: utc, query: DashboardQuery(survey: "wellbeing-check"))
        #expect(try await service.wantsRefresh("wellbeing-check"))
        now.withLock { $0.addTimeInterval(16 * 60) }
        #expect(try await !service.wantsRefresh("wellbeing-check"), "a quarter of an hour after the last look")
    }
}
