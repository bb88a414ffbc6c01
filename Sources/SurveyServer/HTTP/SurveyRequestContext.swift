import Hummingbird
import NIOCore

/// The request context: Hummingbird's, plus the connection's two ends, for rate limits and links.
public struct SurveyRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    private let channel: any Channel

    /// The address the connection arrived at, for links when no public address is configured.
    public var localAddress: SocketAddress? { channel.localAddress }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }
}
