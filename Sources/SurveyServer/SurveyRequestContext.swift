import Hummingbird
import NIOCore

/// The request context: Hummingbird's, plus the peer's address for rate limits.
public struct SurveyRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// A key for the client: its IP address, without the port.
    var clientKey: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
