import Foundation
import Hummingbird
import HummingbirdTesting
import SurveyDefaults
import Testing
@testable import SurveyServer

/// The templates and static files the binary carries, and the folders that may replace them.
@Suite("Built-in templates and the folders that replace them")
struct TemplateFolderTests {
    /// A copy of the repository's Templates in a fresh folder, without the files `removed`.
    static func templatesCopy(without removed: [String] = []) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("templates-\(UUID())")
        try FileManager.default.copyItem(atPath: Repository.path("Templates"), toPath: folder.path)
        for name in removed { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
        return folder
    }

    /// Every file under a folder of the repository, by its path in the folder, with the whole
    /// seconds of its modification time.
    static func repositoryFiles(_ folder: String) throws -> [String: (contents: Data, modified: Int)] {
        let base = Repository.path(folder)
        var files: [String: (contents: Data, modified: Int)] = [:]
        for file in try #require(FolderFiles.list(base)) {
            let modified = try #require(FileManager.default.attributesOfItem(atPath: file.full)[.modificationDate] as? Date)
            files[file.relative] = (try #require(FileManager.default.contents(atPath: file.full)), Int(modified.timeIntervalSince1970))
        }
        return files
    }

    @Test("The binary carries every file of Templates and Public, byte for byte, with its modification time")
    func carriedWhole() throws {
        for (folder, carried) in [("Templates", DefaultFiles.templates), ("Public", DefaultFiles.publicFiles)] {
            let files = try Self.repositoryFiles(folder)
            #expect(!files.isEmpty)
            #expect(Set(carried.map(\.path)) == Set(files.keys), "\(folder)")
            for file in carried {
                #expect(file.contents == files[file.path]?.contents, "\(folder)/\(file.path)")
                #expect(Int(file.modified.timeIntervalSince1970) == files[file.path]?.modified, "\(folder)/\(file.path)")
            }
        }
        #expect(ServerTemplates.required.contains("page.mustache"))
    }

    @Test("With no folders given, the pages are made from the built-in templates and the style sheet is the built-in one")
    func builtInUsed() async throws {
        let app = try await makeApplication(configure: { configuration in
            configuration.templatesDirectory = nil
            configuration.publicDirectory = nil
        })
        try await app.test(.router) { client in
            var participant = Participant(client)
            let page = try await participant.get("/surveys/wellbeing-check")
            #expect(page.status == .ok)
            #expect(participant.lastPage.hasPrefix("<!DOCTYPE html>"))
            #expect(participant.lastPage.contains("Wellbeing check"))
            let css = try await client.execute(uri: "/survey.css", method: .get)
            #expect(css.status == .ok)
            #expect(Data(css.body.readableBytesView) == FileManager.default.contents(atPath: Repository.path("Public/survey.css")))
        }
    }

    @Test("A templates folder that lacks a template stops the server and the preview at start, naming the folder and each file")
    func incompleteFolderRefused() async throws {
        let folder = try Self.templatesCopy(without: ["page.mustache", "format-date.mustache"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = "The templates folder \(folder.path) lacks format-date.mustache, page.mustache: "
        do {
            _ = try await makeApplication(templates: folder.path)
            Issue.record("the server started on a templates folder without page.mustache")
        } catch let error as StartupError {
            #expect(error.messages.count == 1)
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
        do {
            _ = try await buildPreviewApplication(paths: [Repository.path("Examples")],
                                                  configuration: ServerConfiguration(templatesDirectory: folder.path))
            Issue.record("the preview started on a templates folder without page.mustache")
        } catch let error as StartupError {
            #expect(error.description.hasPrefix(expected), "\(error)")
        }
    }

    @Test("A templates or public folder that does not exist stops the start, naming it")
    func missingFolderRefused() async throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("nowhere-\(UUID())").path
        for configure in [{ (configuration: inout ServerConfiguration) in configuration.templatesDirectory = nowhere },
                          { (configuration: inout ServerConfiguration) in configuration.publicDirectory = nowhere }] {
            do {
                _ = try await makeApplication(configure: configure)
                Issue.record("the server started on a folder that does not exist")
            } catch let error as StartupError {
                #expect(error.description.contains(nowhere) && error.description.contains("does not exist"), "\(error)")
            }
            var configuration = ServerConfiguration()
            configure(&configuration)
            do {
                _ = try await buildPreviewApplication(paths: [Repository.path("Examples")], configuration: configuration)
                Issue.record("the preview started on a folder that does not exist")
            } catch let error as StartupError {
                #expect(error.description.contains(nowhere), "\(error)")
            }
        }
    }

    @Test("A symbolic link to a templates folder or a public folder is followed")
    func symbolicLinks() async throws {
        let templates = try Self.templatesCopy()
        let page = templates.appendingPathComponent("page.mustache")
        try Data(("{{! linked }}<!-- linked -->\n" + String(contentsOf: page, encoding: .utf8)).utf8).write(to: page)
        let publicFolder = try StaticFileTests.publicFolder(["survey.css": "/* linked */"])
        let links = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID())")
        try FileManager.default.createDirectory(at: links, withIntermediateDirectories: true)
        defer { for folder in [templates, publicFolder, links] { try? FileManager.default.removeItem(at: folder) } }
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("templates"), withDestinationURL: templates)
        try FileManager.default.createSymbolicLink(at: links.appendingPathComponent("public"), withDestinationURL: publicFolder)
        let app = try await makeApplication(templates: links.appendingPathComponent("templates").path, configure: {
            $0.publicDirectory = links.appendingPathComponent("public").path
        })
        try await app.test(.router) { client in
            var participant = Participant(client)
            let page = try await participant.get("/surveys/wellbeing-check")
            #expect(page.status == .ok)
            #expect(participant.lastPage.contains("<!-- linked -->"))
            let css = try await client.execute(uri: "/survey.css", method: .get)
            #expect(String(buffer: css.body) == "/* linked */")
        }
    }

    @Test("A template removed while the preview runs is reported by name on the next page, never an empty one")
    func removedWhilePreviewing() async throws {
        let folder = try Self.templatesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try await buildPreviewApplication(paths: [Repository.path("Examples/wellbeing-check.json")],
                                                    configuration: ServerConfiguration(templatesDirectory: folder.path))
        try await app.test(.router) { client in
            let before = try await client.execute(uri: "/preview", method: .get)
            #expect(before.status == .ok && String(buffer: before.body).contains("/preview/wellbeing-check"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent("preview-index.mustache"))
            let after = try await client.execute(uri: "/preview", method: .get)
            let body = String(buffer: after.body)
            #expect(body.contains("The templates folder \(folder.lastPathComponent) lacks preview-index.mustache"), "\(body)")
            #expect(!body.contains(folder.deletingLastPathComponent().path), "the page shows where the folder sits")
            let step = try await client.execute(uri: "/preview/wellbeing-check/steps/mood", method: .get)
            #expect(step.status != .ok && step.body.readableBytes > 0, "\(step.status)")
        }
    }

    @Test("A page template that renders as nothing answers 500 with the plain error page, never 200 with an empty body")
    func emptyPageRefused() async throws {
        let folder = try Self.templatesCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data().write(to: folder.appendingPathComponent("page.mustache"))
        let app = try await buildPreviewApplication(paths: [Repository.path("Examples/wellbeing-check.json")],
                                                    configuration: ServerConfiguration(templatesDirectory: folder.path))
        try await app.test(.router) { client in
            let list = try await client.execute(uri: "/preview", method: .get)
            #expect(list.status == .internalServerError)
            #expect(String(buffer: list.body).hasPrefix("<!DOCTYPE html>"))
            #expect(list.headers[.contentSecurityPolicy] != nil)
            let css = try await client.execute(uri: "/survey.css", method: .get)
            #expect(css.status == .ok && css.body.readableBytes > 0)
        }
    }
}
