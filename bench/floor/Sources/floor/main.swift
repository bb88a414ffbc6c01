import Foundation
import Hummingbird

// `floor PORT FILE`: serves FILE's bytes at /step.html on 127.0.0.1:PORT, read once at start, with
// Hummingbird's default HTTP/1 server and no middleware: what any page of a Hummingbird server
// costs before the page's own work.
let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[1]), let page = FileManager.default.contents(atPath: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: floor PORT FILE\n".utf8))
    exit(64)
}
let body = ByteBuffer(bytes: page)
let router = Router()
router.get("/step.html") { _, _ in
    Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: ResponseBody(byteBuffer: body))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
