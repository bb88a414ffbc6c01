import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 channel with one addition: a request that does not ask to keep the
/// connection alive (HTTP/1.0 without `Connection: keep-alive`, as lynx sends) is marked
/// `Connection: close`, so the connection closes after the response as RFC 9112 §9.3 requires.
/// Without it such a browser waits for the connection to close and never shows the page.
/// Slow clients are held to the deadlines of `RequestDeadlineHandler`, which also closes idle
/// connections, so Hummingbird's own idle timer is left off.
struct ClosingHTTP1Channel: HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    let timeouts: ConnectionTimeouts

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: .init())
            let deadlines = RequestDeadlineHandler(timeouts: timeouts)
            try channel.pipeline.syncOperations.addHandler(deadlines.makeByteObserver(), position: .first)
            try channel.pipeline.syncOperations.addHandler(KeepAliveMarker())
            try channel.pipeline.syncOperations.addHandler(deadlines)
            try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value asyncChannel: Value, logger: Logger) async {
        // The connection's requests run on its own event loop thread rather than hopping to
        // the global executor and back for every request.
        await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop: asyncChannel.channel.eventLoop)) {
            await handleHTTP(asyncChannel: asyncChannel, logger: logger)
        }
    }
}

/// Runs the jobs of tasks that prefer it on a NIO event loop.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Adds `Connection: close` to a request head that does not keep the connection alive.
final class KeepAliveMarker: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // HTTP/1.1 keeps alive unless the request says `close`, which then already stands.
        if case .head(var head) = unwrapInboundIn(data), head.version.minor == 0, !head.isKeepAlive {
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 that closes connections the client does not keep alive, and slow or idle ones.
    static func closingHTTP1(timeouts: ConnectionTimeouts = ConnectionTimeouts()) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in ClosingHTTP1Channel(responder: responder, timeouts: timeouts) }
    }
}
