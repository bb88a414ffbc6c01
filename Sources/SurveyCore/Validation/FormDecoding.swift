import JSON

/// Reads an `application/x-www-form-urlencoded` body into form fields.
///
/// The body is split on the bytes `&` and `=` before anything is decoded, so a combining mark
/// sent raw after a separator cannot hide it, and every name and value must be UTF-8 once its
/// `%XX` escapes are read: anything else is malformed, never repaired.
public enum FormDecoding {
    public struct Malformed: Error, Sendable {}

    public static func decode(_ body: some Collection<UInt8>) throws(Malformed) -> FormFields {
        try decode(Array(body))
    }

    /// The bytes are walked by index: a generic walk over the caller's collection ran
    /// unspecialized across the module boundary and was a noticeable part of an answer's cost.
    public static func decode(_ body: [UInt8]) throws(Malformed) -> FormFields {
        try body.withUnsafeBufferPointer { (buffer) throws(Malformed) -> FormFields in try decode(buffer) }
    }

    public static func decode(_ body: String) throws(Malformed) -> FormFields {
        try decode(Array(body.utf8))
    }

    private static func decode(_ body: UnsafeBufferPointer<UInt8>) throws(Malformed) -> FormFields {
        var pairs: [(String, String)] = []
        var start = 0
        while start < body.count {
            var end = start
            while end < body.count, body[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end, body[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = try percentDecode(UnsafeBufferPointer(rebasing: body[start..<equals]))
                let value = equals < end ? try percentDecode(UnsafeBufferPointer(rebasing: body[(equals + 1)..<end])) : ""
                pairs.append((name, value))
            }
            start = end + 1
        }
        return FormFields(pairs: pairs)
    }

    static func percentDecode(_ text: UnsafeBufferPointer<UInt8>) throws(Malformed) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard index + 2 < text.count, let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) else {
                    throw Malformed()
                }
                bytes.append(high << 4 | low)
                index += 2
            default:
                bytes.append(byte)
            }
            index += 1
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw Malformed() }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension FormFields {
    /// The first control field (`_csrf`, `_visit`, `_page`, `_action`, `_return`: the names
    /// that start with "_", which no identifier can) sent twice with different values. A
    /// browser never does that; a server that took either value would be guessing.
    public var conflictingControlField: String? {
        values.lazy.filter { name, sent in sent.count > 1 && name.hasPrefix("_") && Set(sent).count > 1 }.map(\.key).min()
    }
}
