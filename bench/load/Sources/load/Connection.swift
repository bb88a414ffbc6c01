import Glibc

/// One kept-alive HTTP/1.1 connection with one request in flight at a time: it sends the
/// request, reads the response's head and as many body bytes as its Content-Length says, and
/// opens the connection again when the server closed it or asked to.
struct Connection {
    let host: String
    let port: Int
    private var socket: Int32 = -1
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The response's status code, or nil when the connection failed.
    mutating func exchange(_ request: [UInt8]) -> Int? {
        if socket < 0, !open() { return nil }
        guard send(request) else {
            close()
            // a kept-alive connection the server closed meanwhile: once more on a new one
            guard open(), send(request) else { close(); return nil }
            return receive()
        }
        return receive()
    }

    private mutating func open() -> Bool {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        var yes: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 { close() }
        return socket >= 0
    }

    private mutating func close() {
        if socket >= 0 { Glibc.close(socket) }
        socket = -1
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return false }
            sent += count
        }
        return true
    }

    private mutating func receive() -> Int? {
        var filled = 0
        var headEnd: Int?
        var total = Int.max
        var closes = false
        while filled < total {
            if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, $0.count - filled, 0) }
            if count <= 0 { close(); return nil }
            filled += count
            if headEnd == nil, let end = Self.headEnd(buffer, filled) {
                headEnd = end
                let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
                var length = 0
                for line in head.split(separator: "\r\n") {
                    if line.hasPrefix("content-length:") { length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0 }
                    if line.hasPrefix("connection:"), line.contains("close") { closes = true }
                }
                total = end + length
            }
        }
        guard let end = headEnd, end > 12 else { close(); return nil }
        let status = Int(String(decoding: buffer[9..<12], as: UTF8.self))
        if closes { close() }
        return status
    }

    /// Where the head ends: just past its blank line.
    private static func headEnd(_ bytes: [UInt8], _ count: Int) -> Int? {
        guard count >= 4 else { return nil }
        for index in 3..<count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }
}
