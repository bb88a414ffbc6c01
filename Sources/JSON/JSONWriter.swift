import Foundation

/// Writes a `JSONValue` as text: pretty (two-space indent) for files, compact for storage.
public enum JSONWriter {
    public static func string(_ value: JSONValue, pretty: Bool = true) -> String {
        String(decoding: bytes(value, pretty: pretty), as: UTF8.self)
    }

    public static func data(_ value: JSONValue, pretty: Bool = true) -> Data {
        Data(bytes(value, pretty: pretty))
    }

    static func bytes(_ value: JSONValue, pretty: Bool) -> [UInt8] {
        var output: [UInt8] = []
        write(value, into: &output, indent: pretty ? 0 : nil)
        if pretty { output.append(UInt8(ascii: "\n")) }
        return output
    }

    /// The shortest text that reads back as the same number; integers have no fraction.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    private static func write(_ value: JSONValue, into output: inout [UInt8], indent: Int?) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: Self.number(number).utf8)
        case .string(let text): appendString(text, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, indent.map { $0 + 1 })
                write(element, into: &output, indent: indent.map { $0 + 1 })
            }
            newline(&output, indent)
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (position, entry) in object.entries.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(&output, indent.map { $0 + 1 })
                appendString(entry.key, to: &output)
                output.append(contentsOf: (indent == nil ? ":" : ": ").utf8)
                write(entry.value, into: &output, indent: indent.map { $0 + 1 })
            }
            newline(&output, indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], _ indent: Int?) {
        guard let indent else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// A string as JSON: quoted, with the quote, the backslash, control characters and the two
    /// line separators JavaScript will not take raw (U+2028, U+2029) escaped.
    public static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0xF))
            case 0xE2:
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
                guard let second = utf8.next() else { output.append(byte); break }
                guard second == 0x80, let third = utf8.next() else { output.append(contentsOf: [byte, second]); break }
                if third == 0xA8 || third == 0xA9 {
                    output.append(contentsOf: (third == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                } else {
                    output.append(contentsOf: [byte, second, third])
                }
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
