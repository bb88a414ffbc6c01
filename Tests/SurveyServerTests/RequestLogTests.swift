import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing
@testable import SurveyServer

/// The access log and the error line of a 5xx, read back as written.
@Suite("Request logs")
struct RequestLogTests {
    /// Text written from any thread.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ more: String) { lock.withLock { text += more } }
        var all: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
    }

    /// Keeps each log event's message and metadata as one line.
    struct CapturingLogHandler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            lines.append("\(event.level) \(event.message) " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "\n")
        }
    }

    struct Broken: Error {}

    @Test("An access line has the method, the route pattern, the status and the duration, never the path, query or cookie")
    func accessLines() async throws {
        let access = Lines()
        let errors = Lines()
        let log = AccessLog { access.append(String(decoding: $0, as: UTF8.self)) }
        let router = Router(context: SurveyRequestContext.self)
        router.add(middleware: RequestTimingMiddleware(histogram: ServerMetrics().requestDuration, accessLog: log))
        router.add(middleware: SecurityHeadersMiddleware())
        router.get("/start/:token") { _, _ in "started" }
        router.get("/broken/:token") { _, _ -> String in throw Broken() }
        let app = Application(router: router, logger: Logger(label: "test") { _ in CapturingLogHandler(lines: errors) })
        let reference = try await app.test(.router) { client in
            let fine = try await client.execute(uri: "/start/SECRET-TOKEN-1?answer=QUERY-VALUE", method: .get,
                                                headers: [.cookie: "session=COOKIE-VALUE"])
            #expect(fine.status == .ok)
            let missing = try await client.execute(uri: "/nothing/SECRET-TOKEN-2", method: .get)
            #expect(missing.status == .notFound)
            let broken = try await client.execute(uri: "/broken/SECRET-TOKEN-3?x=QUERY-VALUE", method: .get)
            #expect(broken.status == .internalServerError)
            let page = String(buffer: broken.body)
            let match = try #require(page.firstMatch(of: /reference: ([0-9a-f]{16,})/))
            return String(match.1)
        }
        log.flush()
        let lines = access.all
        #expect(lines.count == 3)
        let pattern = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (GET) (\S+) (\d{3}) \d+\.\d{3}ms( request=\S+)?$/
        let parsed = lines.compactMap { $0.wholeMatch(of: pattern) }
        #expect(parsed.count == 3, "\(lines)")
        #expect(parsed.map { String($0.2) } == ["/start/{token}", "-", "/broken/{token}"])
        #expect(parsed.map { String($0.3) } == ["200", "404", "500"])
        #expect(parsed.last?.4.map(String.init) == " request=\(reference)")
        for line in lines {
            #expect(!line.contains("SECRET-TOKEN") && !line.contains("QUERY-VALUE") && !line.contains("COOKIE-VALUE"), "\(line)")
        }
        let failures = errors.all.filter { $0.hasPrefix("error ") }
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.contains("hb.request.id=\(reference)"))
        #expect(failure.contains("route=/broken/{token}") && failure.contains("status=500"))
        #expect(failure.contains("Broken"))
        #expect(!failure.contains("SECRET-TOKEN") && !failure.contains("QUERY-VALUE"))
    }

    @Test("Lines wait in memory until a flush, or until 16 KiB are waiting")
    func batches() {
        let written = Lines()
        let log = AccessLog { written.append(String(decoding: $0, as: UTF8.self)) }
        log.record(method: "GET", route: "/", status: 200, duration: .milliseconds(2))
        #expect(written.all.isEmpty)
        log.flush()
        #expect(written.all.count == 1)
        #expect(written.all.first?.hasSuffix(" GET / 200 2.000ms") == true)
        var added = 1
        while written.all.count == 1 && added < 2_000 {
            log.record(method: "POST", route: "/surveys/{survey}", status: 303, duration: .microseconds(1_500))
            added += 1
        }
        #expect(written.all.count > 1)
        #expect(added < 2_000)
        #expect(written.all.last?.hasSuffix(" POST /surveys/{survey} 303 1.500ms") == true)
    }
}
