import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SurveyServer

@Suite("HEAD, secret comparison and token strength")
struct HeadAndTokenTests {
    @Test("HEAD on a page answers as GET does, with its length and no body", arguments: ["/", "/surveys/wellbeing-check", "/resume"])
    func headLikeGet(path: String) async throws {
        let app = try await makeApplication()
        try await app.test(.live) { client in
            let get = try await client.execute(uri: path, method: .get)
            let head = try await client.execute(uri: path, method: .head)
            #expect(get.status == .ok)
            #expect(head.status == get.status)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.cacheControl] == "no-store")
            #expect(head.headers[.contentSecurityPolicy] != nil)
            #expect(head.headers[.contentLength].flatMap { Int($0) } ?? 0 > 0)
        }
    }

    @Test("HEAD on a missing page is the same 404 as GET")
    func headMissing() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/surveys/no-such-survey", method: .head)
            #expect(response.status == .notFound)
            #expect(response.body.readableBytes == 0)
        }
    }

    @Test("Secrets compare equal only when equal, whatever their lengths")
    func secretComparison() {
        #expect(constantTimeEqual("246810", "246810"))
        #expect(!constantTimeEqual("246810", "2468100"))
        #expect(!constantTimeEqual("", "246810"))
        #expect(!constantTimeEqual("246811", "246810"))
        #expect(constantTimeEqual("", ""))
    }

    @Test("A token's strength is estimated from its characters; weak ones are warned about",
          arguments: [("aaaaaaaaaaaaaaaa", true), ("0123456789012345", true), ("preview-token-0123456789", true),
                      ("q3J8xZ0pLw7VbN2mYt5KcR9sHd4Fg6Ae", false), ("Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0", false)] as [(String, Bool)])
    func tokenStrength(token: String, weak: Bool) {
        #expect((TokenStrength.warning(token, setting: "--api-token") != nil) == weak, "\(token): \(TokenStrength.bits(token)) bits")
    }
}
