import ArgumentParser
import Foundation
import Hummingbird
import SurveyServer

/// `survey preview [FILE|FOLDER]…`: the researcher's preview of survey files on this machine.
struct Preview: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Preview surveys: every step, every rule and every path, at http://127.0.0.1:PORT/preview.",
        discussion: """
            Serves the given survey files (and the *.json files of the given folders) on loopback, \
            with no store and no token: preview runs live in memory only. Edit a file and reload \
            the page to see the new version. On a deployed server, `survey serve --preview-token` \
            opens the same pages at /preview/ behind a sign-in.
            """
    )

    @Argument(help: "Survey files or folders of them (default: Examples).")
    var paths: [String] = []

    @Option(help: "The port on 127.0.0.1.")
    var port = 8080

    @Option(help: "A folder of templates to use instead of the built-in ones; it must hold every one.")
    var templates: String?

    @Option(help: "A folder of static files (CSS, images) to serve instead of the built-in ones.")
    var `public`: String?

    func run() async throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: port, templatesDirectory: templates, publicDirectory: `public`)
        configuration.accessLog = false
        let app = try await buildPreviewApplication(paths: paths.isEmpty ? ["Examples"] : paths, configuration: configuration)
        print("Preview at http://127.0.0.1:\(port)/preview")
        try await app.runService()
    }
}
