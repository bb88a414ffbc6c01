import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import SurveyServer

/// The slow-client deadlines, driven through the real HTTP/1 decoder on an embedded channel
/// whose clock only moves when a test moves it.
@Suite("Connection deadlines")
struct ConnectionDeadlineTests {
    static let timeouts = ConnectionTimeouts(header: .seconds(10), body: .seconds(30), idle: .seconds(60))

    /// An open connection: bytes in front of the HTTP decoder, the deadline handler behind it.
    final class Connection {
        let channel = EmbeddedChannel()

        init(timeouts: ConnectionTimeouts = ConnectionDeadlineTests.timeouts) throws {
            let deadlines = RequestDeadlineHandler(timeouts: timeouts)
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: false)
            try channel.pipeline.syncOperations.addHandler(deadlines.makeByteObserver(), position: .first)
            try channel.pipeline.syncOperations.addHandler(deadlines)
            try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        }

        func send(_ text: String) throws {
            try channel.writeInbound(ByteBuffer(string: text))
        }

        func wait(_ amount: TimeAmount) {
            channel.embeddedEventLoop.advanceTime(by: amount)
        }

        /// The request parts the application would see.
        func requestParts() throws -> [HTTPServerRequestPart] {
            var parts: [HTTPServerRequestPart] = []
            while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
            return parts
        }

        /// The application answers 200 with no body.
        func respond() throws {
            let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "0"])
            try channel.writeOutbound(HTTPServerResponsePart.head(head))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        }

        /// Everything written to the client since the last look.
        func written() throws -> String {
            var text = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: buffer) }
            return text
        }

        var isOpen: Bool { channel.isActive }
    }

    @Test("A head trickled one line every half second gets 408 and a close at the header deadline, not later")
    func trickledHead() throws {
        let connection = try Connection()
        try connection.send("GET / HTTP/1.1\r\n")
        for line in 1...19 {
            connection.wait(.milliseconds(500))
            try connection.send("X-Line-\(line): \(line)\r\n")
        }
        connection.wait(.milliseconds(499))
        #expect(connection.isOpen)
        #expect(try connection.written().isEmpty)
        connection.wait(.milliseconds(1))
        let answer = try connection.written()
        #expect(answer.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(answer.lowercased().contains("connection: close"))
        #expect(!connection.isOpen)
        #expect(try connection.requestParts().isEmpty)
    }

    @Test("A head complete in time reaches the application and is not timed out while it is answered")
    func headInTime() throws {
        let connection = try Connection()
        try connection.send("GET / HTTP/1.1\r\nHost: a\r\n")
        connection.wait(.seconds(9))
        try connection.send("\r\n")
        let parts = try connection.requestParts()
        #expect(parts.count == 2)
        guard case .head(let head)? = parts.first else { Issue.record("no head"); return }
        #expect(head.uri == "/")
        // The application takes its time; the connection waits for it.
        connection.wait(.seconds(120))
        #expect(connection.isOpen)
        try connection.respond()
        #expect(try connection.written().hasPrefix("HTTP/1.1 200 OK"))
        #expect(connection.isOpen)
    }

    @Test("A kept-alive connection gets a fresh header deadline from the first byte of each request")
    func headDeadlinePerRequest() throws {
        let connection = try Connection()
        try connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try connection.requestParts()
        try connection.respond()
        _ = try connection.written()
        connection.wait(.seconds(50))
        try connection.send("GET /b HTTP/1.1\r\n")
        connection.wait(.seconds(9))
        #expect(connection.isOpen)
        connection.wait(.seconds(1))
        #expect(try connection.written().hasPrefix("HTTP/1.1 408"))
        #expect(!connection.isOpen)
    }

    @Test("A body slower than the body deadline gets 408 and a close; one in time does not")
    func slowBody() throws {
        let slow = try Connection()
        try slow.send("POST /s HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n12345")
        slow.wait(.seconds(29))
        try slow.send("6")
        #expect(slow.isOpen)
        slow.wait(.seconds(1))
        #expect(try slow.written().hasPrefix("HTTP/1.1 408 Request Timeout"))
        #expect(!slow.isOpen)

        let prompt = try Connection()
        try prompt.send("POST /s HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n12345")
        prompt.wait(.seconds(29))
        try prompt.send("67890")
        prompt.wait(.seconds(5))
        #expect(prompt.isOpen)
        #expect(try prompt.written().isEmpty)
    }

    @Test("A late body after the application has answered closes without a second response")
    func lateBodyAfterAnswer() throws {
        let connection = try Connection()
        try connection.send("POST /s HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n1")
        try connection.respond()
        _ = try connection.written()
        connection.wait(.seconds(30))
        #expect(try connection.written().isEmpty)
        #expect(!connection.isOpen)
    }

    @Test("An idle kept-alive connection closes after the idle timeout, silently")
    func idle() throws {
        let connection = try Connection()
        try connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        _ = try connection.requestParts()
        try connection.respond()
        _ = try connection.written()
        connection.wait(.seconds(59))
        #expect(connection.isOpen)
        connection.wait(.seconds(1))
        #expect(!connection.isOpen)
        #expect(try connection.written().isEmpty)
    }

    @Test("A connection that never sends a byte closes after the idle timeout")
    func silentConnection() throws {
        let connection = try Connection()
        connection.wait(.seconds(59))
        #expect(connection.isOpen)
        connection.wait(.seconds(1))
        #expect(!connection.isOpen)
    }

    @Test("The deadlines follow the configured lengths, whichever is shortest")
    func shortTimeouts() throws {
        let connection = try Connection(timeouts: ConnectionTimeouts(header: .seconds(2), body: .seconds(5), idle: .seconds(3)))
        try connection.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
        try connection.respond()
        _ = try connection.written()
        connection.wait(.milliseconds(2_999))
        #expect(connection.isOpen)
        connection.wait(.milliseconds(1))
        #expect(!connection.isOpen)
    }
}

@Suite("Connection cap")
struct ConnectionCapTests {
    @Test("The server accepts connections up to --max-connections and waits past it")
    func cap() throws {
        var configuration = SurveyServer.ServerConfiguration()
        configuration.maximumConnections = 3
        var delegate = try #require(configuration.httpConfiguration(logger: .init(label: "test")).availableConnectionsDelegate)
        for _ in 1...3 {
            #expect(delegate.isAcceptingNewConnections())
            delegate.connectionOpened()
        }
        #expect(!delegate.isAcceptingNewConnections())
        delegate.connectionClosed()
        #expect(delegate.isAcceptingNewConnections())
    }
}
