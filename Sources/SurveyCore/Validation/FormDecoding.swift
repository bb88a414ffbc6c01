/// Reads an `application/x-www-form-urlencoded` body into form fields.
///
/// The body is split on the bytes `&` and `=` before anything is decoded, so a combining mark
/// sent raw after a separator cannot hide it, and every name and value must be UTF-8 once its
/// `%XX` escapes are read: anything else is malformed, never repaired.
public enum FormDecoding {
    public struct Malformed: Error, Sendable {}

    public static func decode(_ body: some Collection<UInt8>) throws(Malformed) -> FormFields {
        var pairs: [(String, String)] = []
        for piece in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try percentDecode(parts[0])
            let value = parts.count > 1 ? try percentDecode(parts[1]) : ""
            pairs.append((name, value))
        }
        return FormFields(pairs: pairs)
    }

    public static func decode(_ body: String) throws(Malformed) -> FormFields {
        try decode(Array(body.utf8))
    }

    static func percentDecode(_ text: some Collection<UInt8>) throws(Malformed) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = text.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { throw Malformed() }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
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
