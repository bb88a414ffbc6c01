import Foundation
import Hummingbird
import HummingbirdTesting
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("What the local preview answers, shows and keeps")
struct PreviewBoundsTests {
    /// `survey preview` on the given paths, listening on a free loopback port.
    static func localPreview(_ paths: [String]) async throws -> some ApplicationProtocol {
        try await buildPreviewApplication(paths: paths, configuration: ServerConfiguration(
            host: "127.0.0.1", port: 0, templatesDirectory: Repository.path("Templates"), publicDirectory: Repository.path("Public")))
    }

    /// One GET with the Host header given, over a plain socket (a test client names its own
    /// host): the status code, and the body.
    static func get(_ path: String, port: Int, host: String) throws -> (status: Int, body: String) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        let request = Array("GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    @Test("The local preview answers loopback host names and refuses any other with 421")
    func loopbackHostOnly() async throws {
        let app = try await Self.localPreview([Repository.path("Examples")])
        try await app.test(.live) { client in
            let port = try #require(client.port)
            for host in ["localhost:\(port)", "localhost", "127.0.0.1:\(port)", "127.0.0.1", "127.3.4.5:\(port)", "[::1]:\(port)", "LOCALHOST"] {
                let answer = try Self.get("/preview", port: port, host: host)
                #expect(answer.status == 200, "Host: \(host)")
            }
            for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example",
                         "127.0.0.1:80@evil.example", "[::2]:\(port)", "128.0.0.1"] {
                let answer = try Self.get("/preview/fever-triage", port: port, host: host)
                #expect(answer.status == 421, "Host: \(host)")
                #expect(!answer.body.contains("fever"), "Host: \(host)")
            }
        }
    }

    @Test("Host names count as loopback only when they name this machine's loopback")
    func loopbackNames() {
        typealias Guard = PreviewLoopbackHostMiddleware<SurveyRequestContext>
        for name in ["localhost", "localhost:8080", "127.0.0.1", "127.255.0.1:1", "[::1]", "[::1]:8080", "localhost.:8080"] {
            #expect(Guard.isLoopback(name), "\(name)")
        }
        for name in ["evil.example", "localhost:80x", "localhost:", "127.0.0", "127.0.0.256", "127.0.0.1.nip.io", "[::1", "[::1]x",
                     "0.0.0.0", "", ":8080", "[::ffff:7f00:1]"] {
            #expect(!Guard.isLoopback(name), "\(name)")
        }
    }

    @Test("The list and the map show survey files relative to the folder given, never where it sits")
    func relativePaths() async throws {
        let folder = try PreviewTests.folder([
            "short.json": #"{"identifier": "short", "title": "Short", "steps": [{"identifier": "a", "type": "instruction", "title": "A"}]}"#,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await PreviewTests.previewOnly([folder.path])
        try await app.test(.router) { client in
            for page in ["/preview", "/preview/short"] {
                let response = try await client.execute(uri: page, method: .get)
                let body = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(body.contains("<code>short.json</code>"), "\(page)")
                #expect(!body.contains(folder.path), "\(page)")
                #expect(!body.contains(FileManager.default.temporaryDirectory.path), "\(page)")
            }
        }
    }

    @Test("The preview keeps the latest runs of each survey and drops the oldest past its limit")
    func runsCapped() async throws {
        let store = PreviewRunStore(limit: 3)
        let task = SurveyTask(identifier: "capped", steps: [Step(identifier: "a", kind: .instruction)])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var ids: [UUID] = []
        for number in 0..<5 {
            let run = Navigator(task: task).start(now: start)
            let record = try await store.insert(RunRecord(run: run, surveyIdentifier: "capped", sessionID: "session-\(number)",
                                                          updatedAt: start.addingTimeInterval(Double(number))))
            ids.append(record.id)
        }
        let other = try await store.insert(RunRecord(run: Navigator(task: task).start(now: start), surveyIdentifier: "other",
                                                     sessionID: "session-0", updatedAt: start))
        let kept = try await store.records(matching: RunQuery(survey: "capped", limit: 100)).map(\.id)
        #expect(Set(kept) == Set(ids.suffix(3)))
        for old in ids.prefix(2) { #expect(try await store.record(id: old) == nil) }
        #expect(try await store.record(id: other.id) != nil)
        // The preview's runs go to such a store.
        let controller = PreviewController(library: PreviewLibrary(paths: [], templatesDirectory: Repository.path("Templates")),
                                           token: nil, signer: SessionSigner(secret: Data(repeating: 1, count: 32)),
                                           configuration: ServerConfiguration(), clock: { Date() })
        #expect(controller.runs.store is PreviewRunStore)
    }

    /// A survey file of `count` yes/no questions, each but every third passed over when the one
    /// before was answered no: the map's search needs far more than its budget.
    static func longSurvey(_ count: Int) -> String {
        var steps: [String] = []
        var skips: [String] = []
        for position in 0..<count {
            steps.append(#"{"identifier": "q\#(position)", "type": "question", "title": "Q\#(position)", "optional": true, "answerFormat": {"type": "boolean"}}"#)
            if position > 0, position % 3 != 0 { skips.append(#""q\#(position)": {"result": "q\#(position - 1)", "equals": false}"#) }
        }
        steps.append(#"{"identifier": "done", "type": "completion", "title": "Done"}"#)
        return #"{"identifier": "long", "title": "Long", "steps": [\#(steps.joined(separator: ","))], "skipRules": {\#(skips.joined(separator: ","))}}"#
    }

    @Test("The map of a long survey stops at its budget and says where; other pages are served while a map waits for its thread",
          .timeLimit(.minutes(1)))
    func longSurveyMap() async throws {
        let folder = try PreviewTests.folder(["long.json": Self.longSurvey(800)])
        defer { try? FileManager.default.removeItem(at: folder) }
        // Workers of this test's own, both held until the test lets them go: the long map
        // cannot finish before then, whatever else the machine is doing.
        let workers = PreviewPathWorkers(width: 2)
        let library = PreviewLibrary(paths: [folder.path, Repository.path("Examples/fever-triage.json")],
                                     templatesDirectory: Repository.path("Templates"), workers: workers)
        let router = Router(context: SurveyRequestContext.self)
        PreviewController(library: library, token: nil, signer: SessionSigner(secret: Data(repeating: 1, count: 32)),
                          configuration: ServerConfiguration(templatesDirectory: Repository.path("Templates")),
                          clock: { Date() }).addRoutes(to: router)
        let gate = DispatchSemaphore(value: 0)
        let holders = (0..<workers.width).map { _ in Task { await workers.run { gate.wait() } } }
        defer { for _ in holders { gate.signal() } }
        while await workers.running < workers.width { try await Task.sleep(for: .milliseconds(5)) }
        try await Application(router: router).test(.router) { client in
            #expect(try await client.execute(uri: "/preview", method: .get).status == .ok)
            async let map = client.execute(uri: "/preview/long", method: .get)
            while await workers.queued == 0 { try await Task.sleep(for: .milliseconds(5)) }
            // The map waits for a thread; the list does not wait for the map.
            let list = try await client.execute(uri: "/preview", method: .get)
            #expect(list.status == .ok)
            #expect(String(buffer: list.body).contains("long.json"))
            #expect(await workers.queued == 1, "the map is still waiting")
            for _ in holders { gate.signal() }
            let page = try await map
            #expect(page.status == .ok)
            let body = String(buffer: page.body)
            #expect(body.contains("The map stopped after checking the paths of"))
            #expect(body.contains("paths not checked"))
            // A small survey's map is complete.
            let small = try await client.execute(uri: "/preview/fever-triage", method: .get)
            let smallBody = String(buffer: small.body)
            #expect(small.status == .ok)
            #expect(!smallBody.contains("The map stopped"))
            #expect(!smallBody.contains("paths not checked"))
            #expect(smallBody.contains("only if"))
        }
        for holder in holders { await holder.value }
    }
}
