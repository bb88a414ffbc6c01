import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import SurveyServer

/// The public folder is served from memory, with what the file middleware adds around it.
@Suite("Static files")
struct StaticFileTests {
    static var styleSheet: Data { FileManager.default.contents(atPath: Repository.path("Public/survey.css"))! }

    /// A fresh public folder holding `files` (relative path: contents) and the empty `folders`.
    static func publicFolder(_ files: [String: String], folders: [String] = []) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-\(UUID())")
        for path in folders + files.keys.map { ($0 as NSString).deletingLastPathComponent } {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        for (path, contents) in files { try Data(contents.utf8).write(to: folder.appendingPathComponent(path)) }
        return folder
    }

    @Test("The style sheet and an image in a subfolder come back whole, with their types, an ETag and the security headers")
    func servedWhole() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let css = try await client.execute(uri: "/survey.css", method: .get)
            #expect(css.status == .ok)
            #expect(Data(css.body.readableBytesView) == Self.styleSheet)
            #expect(css.headers[.contentType] == "text/css")
            #expect(css.headers[.contentLength] == String(Self.styleSheet.count))
            #expect(css.headers[.eTag] != nil)
            #expect(css.headers[.lastModified] != nil)
            #expect(css.headers[.contentSecurityPolicy] != nil)
            let image = try await client.execute(uri: "/images/face-happy.svg", method: .get)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType] == "image/svg+xml")
            #expect(Data(image.body.readableBytesView) == FileManager.default.contents(atPath: Repository.path("Public/images/face-happy.svg")))
        }
    }

    @Test("A browser that has the file gets 304 with no body; HEAD gets the headers alone; a range gets its bytes")
    func conditionalHeadAndRange() async throws {
        let app = try await makeApplication()
        try await app.test(.router) { client in
            let first = try await client.execute(uri: "/survey.css", method: .get)
            let tag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/survey.css", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let head = try await client.execute(uri: "/survey.css", method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentLength] == String(Self.styleSheet.count))
            #expect(head.body.readableBytes == 0)
            let part = try await client.execute(uri: "/survey.css", method: .get, headers: [.range: "bytes=10-19"])
            #expect(part.status == .partialContent)
            #expect(Data(part.body.readableBytesView) == Self.styleSheet[10...19])
            let tail = try await client.execute(uri: "/survey.css", method: .get, headers: [.range: "bytes=20-"])
            #expect(tail.status == .partialContent)
            #expect(Data(tail.body.readableBytesView) == Self.styleSheet.dropFirst(20))
            let whole = try await client.execute(uri: "/survey.css", method: .get, headers: [.range: "bytes=0-"])
            #expect(Data(whole.body.readableBytesView) == Self.styleSheet)
            let past = try await client.execute(uri: "/survey.css", method: .get, headers: [.range: "bytes=999999-"])
            #expect(past.status == .rangeNotSatisfiable)
        }
    }

    @Test("A name the folder does not hold, a hidden file, a folder and a path out of the folder are not served")
    func onlyTheFolder() async throws {
        let folder = try Self.publicFolder([".env": "secret", ".git/config": "[core]", "survey.css": "body{}"], folders: ["images"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = PublicFiles(folder: folder.path)
        #expect(Set(files.files.keys) == ["/survey.css"])
        let app = try await makeApplication(configure: { $0.publicDirectory = folder.path })
        try await app.test(.router) { client in
            let served = try await client.execute(uri: "/survey.css", method: .get)
            #expect(served.status == .ok)
            for path in ["/.env", "/.git/config", "/missing.css", "/images/", "/images/x.svg"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound, "\(path)")
            }
            let outside = try await client.execute(uri: "/%2E%2E/Package.swift", method: .get)
            #expect(outside.status.code >= 400 && outside.status.code < 500)
        }
    }

    @Test("The folder is read as the server starts: a file changed later is served as it was")
    func readOnce() async throws {
        let folder = try Self.publicFolder(["a.txt": "one"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await makeApplication(configure: { $0.publicDirectory = folder.path })
        try Data("two".utf8).write(to: folder.appendingPathComponent("a.txt"))
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/a.txt", method: .get)
            #expect(String(buffer: response.body) == "one")
        }
    }
}
