import Foundation
import Hummingbird
import NIOCore

public struct TrustedProxyError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
