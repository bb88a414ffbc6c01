import NIOCore
import NIOHTTP1

/// How long a client may take over each part of a request, and how long a kept-alive
/// connection may wait for the next one.
public struct ConnectionTimeouts: Sendable, Equatable {
    /// From the first byte of a request to the end of its head.
    public var header: TimeAmount
    /// From the end of a request's head to the end of its body.
    public var body: TimeAmount
    /// From the end of the last response to the first byte of the next request.
    public var idle: TimeAmount

    public init(header: TimeAmount = .seconds(10), body: TimeAmount = .seconds(30), idle: TimeAmount = .seconds(60)) {
        self.header = header
        self.body = body
        self.idle = idle
    }

    /// The longest a connection's timer may sleep: no deadline set after it was armed can fall
    /// before it fires, so a deadline never needs the timer cancelled and set again.
    var checkInterval: TimeAmount { min(header, body, idle) }
}

/// Closes a connection whose client is too slow: a request head not complete within the
/// header timeout of its first byte, however slowly it trickles, a body not complete within
/// the body timeout of its head, or no new request within the idle timeout of the last
/// response. A client that sent a request the server has not answered yet is answered
/// `408 Request Timeout` with `Connection: close` before the connection closes.
///
/// Each connection has one timer, armed when it opens and again each time it fires, never
/// more than the shortest timeout ahead; moving from one part of a request to the next only
/// notes the time. A request costs no timer, and a read costs one comparison.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Which part of a request the connection is waiting for.
    enum Phase {
        /// No byte of a next request yet: idle, or waiting on the server's response.
        case betweenRequests
        case head
        case body
        case closed
    }

    private let timeouts: ConnectionTimeouts
    private(set) var phase = Phase.betweenRequests
    /// When the head or the body being read began to arrive.
    private var phaseStart = NIODeadline.uptimeNanoseconds(0)
    /// When the connection last had nothing in flight: opened, or its last response ended.
    private var idleSince = NIODeadline.uptimeNanoseconds(0)
    /// Request heads read whose response has not been written to its end.
    private var unanswered = 0
    /// A response head has been written and its end has not.
    private var responseOpen = false
    private var timer: Scheduled<Void>?

    init(timeouts: ConnectionTimeouts) {
        self.timeouts = timeouts
    }

    /// The handler to put in front of the HTTP decoder, which tells this one when the first
    /// byte of a request arrives.
    func makeByteObserver() -> RequestByteObserver {
        RequestByteObserver(deadlines: self)
    }

    /// A byte arrived before the HTTP decoder: the head's deadline starts with a request's first.
    func bytesArrived(now: @autoclosure () -> NIODeadline) {
        if phase == .betweenRequests {
            phase = .head
            phaseStart = now()
        }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unanswered += 1
            phase = .body
            phaseStart = context.eventLoop.now
        case .body:
            break
        case .end:
            if phase != .closed { phase = .betweenRequests }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.code >= 200:
            responseOpen = true
        case .head, .body:
            break
        case .end:
            responseOpen = false
            unanswered -= 1
            if unanswered == 0 { idleSince = context.eventLoop.now }
        }
        context.write(data, promise: promise)
    }

    /// When the connection must have made progress by, or nil while the server owes a response.
    private var deadline: NIODeadline? {
        switch phase {
        case .head: phaseStart + timeouts.header
        case .body: phaseStart + timeouts.body
        case .betweenRequests: unanswered == 0 && !responseOpen ? idleSince + timeouts.idle : nil
        case .closed: nil
        }
    }

    private func start(_ context: ChannelHandlerContext) {
        guard timer == nil, phase != .closed else { return }
        idleSince = context.eventLoop.now
        arm(context, now: idleSince)
    }

    private func stop() {
        phase = .closed
        timer?.cancel()
        timer = nil
    }

    private func arm(_ context: ChannelHandlerContext, now: NIODeadline) {
        let latest = now + timeouts.checkInterval
        let when = deadline.map { min($0, latest) } ?? latest
        timer = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: when) { [self] in
            timer = nil
            guard phase != .closed else { return }
            let now = context.eventLoop.now
            if let deadline, now >= deadline {
                expire(context)
            } else {
                arm(context, now: now)
            }
        }
    }

    /// Answers 408 when the client is owed nothing else, then closes the connection.
    private func expire(_ context: ChannelHandlerContext) {
        let owedBeforeThis = phase == .body ? 1 : 0
        let answer = (phase == .head || phase == .body) && unanswered == owedBeforeThis && !responseOpen
        phase = .closed
        guard answer else {
            context.close(promise: nil)
            return
        }
        let head = HTTPResponseHead(version: .http1_1, status: .requestTimeout,
                                    headers: ["Connection": "close", "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolatedUnsafeUnchecked().whenComplete { _ in context.close(promise: nil) }
    }
}

/// Sits in front of the HTTP decoder and tells a `RequestDeadlineHandler` when bytes arrive,
/// since the decoder says nothing until a head is complete.
final class RequestByteObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadlines: RequestDeadlineHandler

    fileprivate init(deadlines: RequestDeadlineHandler) {
        self.deadlines = deadlines
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        deadlines.bytesArrived(now: context.eventLoop.now)
        context.fireChannelRead(data)
    }
}
