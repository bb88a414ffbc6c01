import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import SurveyCore
import SurveyStorage
import Testing
@testable import SurveyServer

enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// A server on the example surveys with a memory store and a fixed secret.
func makeApplication(surveys: String = Repository.path("Examples"), templates: String = Repository.path("Templates"),
                     store: any RunStore = MemoryRunStore(), maximumBodySize: Int = 64 * 1024,
                     clock: @escaping @Sendable () -> Date = { Date() }, apiToken: String? = nil,
                     publicURL: String? = nil,
                     configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> some ApplicationProtocol {
    var configuration = ServerConfiguration(
        surveysDirectory: surveys, dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("survey-\(UUID())").path,
        templatesDirectory: templates, publicDirectory: Repository.path("Public"), secret: Data(repeating: 7, count: 32),
        maximumBodySize: maximumBodySize)
    configuration.apiToken = apiToken
    configuration.publicURL = publicURL
    configure(&configuration)
    return try await buildApplication(configuration: configuration, store: store, clock: clock)
}

/// One browser: keeps its session cookie and reads the CSRF token and visit from each page.
struct Participant {
    let client: any TestClientProtocol
    var cookie: String?
    var lastPage = ""
    /// Sent with every request, as a proxy in front of this browser would add them.
    var extraHeaders: HTTPFields = [:]

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    /// The session identifier inside the signed cookie, to look the run up in the store.
    var sessionID: String? {
        cookie?.split(separator: "=").dropFirst().first?.split(separator: ".").first.map(String.init)
    }

    @discardableResult
    mutating func get(_ uri: String) async throws -> TestResponse {
        var headers = extraHeaders
        if let cookie { headers[.cookie] = cookie }
        let response = try await client.execute(uri: uri, method: .get, headers: headers)
        remember(response)
        return response
    }

    @discardableResult
    mutating func post(_ uri: String, _ pairs: [(String, String)], csrf: Bool = true) async throws -> TestResponse {
        var all = pairs
        if csrf, !pairs.contains(where: { $0.0 == "_csrf" }), let token = Self.hidden("_csrf", in: lastPage) { all.append(("_csrf", token)) }
        if !pairs.contains(where: { $0.0 == "_visit" }), let visit = Self.hidden("_visit", in: lastPage) { all.append(("_visit", visit)) }
        if !pairs.contains(where: { $0.0 == "_page" }), let page = Self.hidden("_page", in: lastPage) { all.append(("_page", page)) }
        let body = all.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        var headers = extraHeaders
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let cookie { headers[.cookie] = cookie }
        let response = try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
        remember(response)
        return response
    }

    /// Opens a resume or start link and presses its Continue button, as a participant does;
    /// returns the response to the button.
    @discardableResult
    mutating func claim(_ link: String) async throws -> TestResponse {
        let path = String(link[(link.range(of: "/start/") ?? link.range(of: "/resume/"))!.lowerBound...])
        try await get(path)
        return try await post(path, [])
    }

    /// Posts a page and follows the redirect, as a browser does.
    @discardableResult
    mutating func submit(_ survey: String, _ pairs: [(String, String)]) async throws -> TestResponse {
        let response = try await post("/surveys/\(survey)", pairs)
        if response.status == .seeOther, let location = response.headers[.location] { return try await get(location) }
        return response
    }

    private mutating func remember(_ response: TestResponse) {
        if let setCookie = response.headers[.setCookie] {
            cookie = String(setCookie.split(separator: ";")[0])
        }
        lastPage = String(buffer: response.body)
    }

    static func hidden(_ name: String, in page: String) -> String? {
        guard let range = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = page[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The text of the page's h1, without tags.
    var heading: String? {
        guard let start = lastPage.range(of: "<h1"), let close = lastPage[start.upperBound...].range(of: "</h1>") else { return nil }
        let inner = lastPage[start.upperBound..<close.lowerBound]
        return inner.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
            .split(separator: ">", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
