#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Hummingbird
import NIOCore

/// The reverse proxies (addresses or CIDR ranges) whose `X-Forwarded-For`,
/// `X-Forwarded-Proto` and `X-Forwarded-Host` headers the server believes. From any other
/// peer those headers are ignored: anyone can send them.
public struct TrustedProxies: Sendable, Hashable {
    private struct Network: Sendable, Hashable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for index in bytes.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    private let networks: [Network]

    /// Reads `10.0.0.5`, `10.0.0.0/8`, `::1` or `fd00::/8`; throws a sentence naming the bad entry.
    public init(_ entries: [String]) throws {
        networks = try entries.map { entry in
            let parts = entry.split(separator: "/", maxSplits: 1).map(String.init)
            guard let first = parts.first, let bytes = Self.parse(first) else {
                throw TrustedProxyError(message: "\"\(entry)\" is not an IP address or a CIDR range such as 10.0.0.0/8.")
            }
            let length = parts.count > 1 ? Int(parts[1]) : bytes.count * 8
            guard let length, (0...(bytes.count * 8)).contains(length) else {
                throw TrustedProxyError(message: "\"\(entry)\" has a prefix length outside 0…\(bytes.count * 8).")
            }
            return Network(bytes: bytes, prefixLength: length)
        }
    }

    public static let none = try! TrustedProxies([])

    public var isEmpty: Bool { networks.isEmpty }

    public func contains(_ address: String?) -> Bool {
        guard !networks.isEmpty, let address, let bytes = Self.parse(address) else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// An IPv4 or IPv6 address as bytes (an IPv4-mapped IPv6 address as its IPv4 bytes), or nil.
    static func parse(_ text: String) -> [UInt8]? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("["), trimmed.hasSuffix("]") { trimmed = String(trimmed.dropFirst().dropLast()) }
        var v4 = in_addr()
        if inet_pton(AF_INET, trimmed, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, trimmed, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }
}

extension TrustedProxies {
    /// The key a client's address counts under in the limits: an IPv4 address as it is, an
    /// IPv6 address by its first 64 bits (a network hands a whole /64 to one household or
    /// device, so counting single addresses would give one client 2⁶⁴ of them).
    static func limitKey(_ address: String) -> String {
        guard address.utf8.contains(UInt8(ascii: ":")), let bytes = parse(address) else { return address }
        // An IPv4-mapped address counts as the IPv4 client it is.
        guard bytes.count == 16 else { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

extension SurveyRequestContext {
    /// True when the request came through a trusted proxy, whose forwarding headers count.
    func isForwarded(trusting proxies: TrustedProxies) -> Bool {
        // Spelling out the peer's address costs a formatted print: not done when no proxy is trusted.
        !proxies.isEmpty && proxies.contains(remoteAddress?.ipAddress)
    }

    /// The address of the client that sent the request: the peer, or, when the peer is a
    /// trusted proxy, the nearest address in `X-Forwarded-For` that is not one (read from the
    /// right, since a client can write anything on the left).
    func clientAddress(_ request: Request, trusting proxies: TrustedProxies) -> String {
        let peer = remoteAddress?.ipAddress ?? "unknown"
        guard proxies.contains(peer) else { return peer }
        let hops = request.headers[values: .init("X-Forwarded-For")!]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard TrustedProxies.parse(hop) != nil else { return peer }
            if !proxies.contains(hop) { return hop }
        }
        return hops.first ?? peer
    }
}
