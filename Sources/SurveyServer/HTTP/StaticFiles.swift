import Foundation
import Hummingbird
import SurveyDefaults

/// Serves the public folder (style sheet, images) through Hummingbird's file middleware, but
/// only for paths that name a file: a step page or an answer does not cost a look for a file.
struct StaticFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: FileMiddleware<Context, PublicFiles>

    init(files: PublicFiles) {
        self.files = FileMiddleware(fileProvider: files, searchForIndexHtml: false)
    }

    static func namesAFile(_ path: String) -> Bool {
        guard !path.hasPrefix("/surveys/"), !path.hasPrefix("/api/"), let slash = path.lastIndex(of: "/") else { return false }
        return path[slash...].contains(".")
    }

    @concurrent func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.namesAFile(request.uri.path) else { return try await next(request, context) }
        return try await files.handle(request, context: context, next: next)
    }
}

/// The public files: those built into the binary, or a folder's, read into memory once as the
/// server starts, as the templates are: the file middleware on the local file system looked the
/// file up and read it on NIO's thread pool for every request, about 235 µs of CPU for the style
/// sheet against 60 for a page made in memory. A file changed on disk is served once the server
/// starts again. Hidden files and folders (a name that starts with ".") are left out. The
/// middleware keeps doing the rest: `ETag` and `Last-Modified`, `If-None-Match`, ranges, `HEAD`,
/// content types.
struct PublicFiles: FileProvider {
    struct File: Sendable, FileMiddlewareFileAttributes {
        let bytes: ByteBuffer
        let modificationDate: Date
        var size: Int { bytes.readableBytes }
        var isFolder: Bool { false }
    }

    /// By path as a request names it: "/survey.css", "/images/face-happy.svg".
    let files: [String: File]

    /// The files built into the binary.
    init() {
        var files: [String: File] = [:]
        for file in DefaultFiles.publicFiles {
            files["/" + file.path] = File(bytes: ByteBuffer(bytes: file.contents), modificationDate: file.modified)
        }
        self.files = files
    }

    /// The files of `folder`, or of the folder a symbolic link `folder` names; an empty
    /// folder serves nothing, and a file that cannot be read is left out.
    init(folder: String) {
        var files: [String: File] = [:]
        let manager = FileManager.default
        for file in FolderFiles.list(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path) ?? [] {
            guard let contents = manager.contents(atPath: file.full) else { continue }
            let modified = (try? manager.attributesOfItem(atPath: file.full)[.modificationDate] as? Date) ?? Date()
            files["/" + file.relative] = File(bytes: ByteBuffer(bytes: contents), modificationDate: modified)
        }
        self.files = files
    }

    /// The binary's files, or the folder's when one is given; a folder that does not exist
    /// stops the start, naming it.
    static func load(folder: String?) throws -> PublicFiles {
        guard let folder else { return PublicFiles() }
        var isFolder: ObjCBool = false
        let resolved = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder), isFolder.boolValue else {
            throw StartupError(messages: ["The public folder \(folder) does not exist or is not a folder."])
        }
        return PublicFiles(folder: folder)
    }

    func getFileIdentifier(_ path: String) -> String? {
        files[path] == nil ? nil : path
    }

    func getAttributes(id: String) async throws -> File? {
        files[id]
    }

    func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        guard let file = files[id] else { throw HTTPError(.notFound) }
        return ResponseBody(byteBuffer: file.bytes)
    }

    /// The range as the middleware read it, cut to the file (`bytes=0-` reaches `Int.max`).
    func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard let file = files[id], range.lowerBound >= 0, range.lowerBound < file.size,
              let part = file.bytes.getSlice(at: file.bytes.readerIndex + range.lowerBound,
                                             length: min(range.upperBound, file.size - 1) - range.lowerBound + 1) else {
            throw HTTPError(.rangeNotSatisfiable)
        }
        return ResponseBody(byteBuffer: part)
    }
}
