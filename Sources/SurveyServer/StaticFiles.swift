import Hummingbird

/// Serves the public folder (style sheet, images) through Hummingbird's file middleware, but
/// only for paths that name a file: a step page or an answer does not cost a look at the disk.
struct StaticFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: FileMiddleware<Context, LocalFileSystem>

    init(folder: String) {
        files = FileMiddleware(folder, searchForIndexHtml: false)
    }

    static func namesAFile(_ path: String) -> Bool {
        guard !path.hasPrefix("/surveys/"), !path.hasPrefix("/api/"), let slash = path.lastIndex(of: "/") else { return false }
        return path[slash...].contains(".")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.namesAFile(request.uri.path) else { return try await next(request, context) }
        return try await files.handle(request, context: context, next: next)
    }
}
