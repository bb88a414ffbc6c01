import Foundation
import SurveyCore

/// Reads an `application/x-www-form-urlencoded` body into form fields.
enum FormDecoding {
    struct Malformed: Error {}

    static func decode(_ body: String) throws(Malformed) -> FormFields {
        var pairs: [(String, String)] = []
        for piece in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try percentDecode(parts[0])
            let value = parts.count > 1 ? try percentDecode(parts[1]) : ""
            pairs.append((name, value))
        }
        return FormFields(pairs: pairs)
    }

    static func percentDecode(_ text: Substring) throws(Malformed) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
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
