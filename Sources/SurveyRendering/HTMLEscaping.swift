/// The product's one HTML escaper, for text content and quoted attribute values alike.
///
/// It escapes `& < > " '` and drops the page template's slot markers (U+E000, U+E001), so no
/// text, whoever wrote it, can open a slot. It works on UTF-8 bytes, not Characters: a `<`
/// followed by a combining mark is one Swift Character but still a `<` to an HTML parser.
public enum HTMLEscaping {
    public static func escape(_ text: some StringProtocol) -> String {
        // Most labels and values have nothing to escape.
        guard text.utf8.contains(where: needsWork) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        escape(utf8: text.utf8, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the escaped text to `output`: in place when there is nothing to escape, as for
    /// most values and every token on the hot path of a page.
    public static func append(_ text: some StringProtocol, to output: inout String) {
        guard text.utf8.contains(where: needsWork) else {
            output += text
            return
        }
        output += escape(text)
    }

    /// Appends the escaped UTF-8 of `text` to `out`.
    static func escape(_ text: some StringProtocol, into out: inout [UInt8]) {
        escape(utf8: text.utf8, into: &out)
    }

    /// Appends the escaped form of some UTF-8 code units to `out`.
    static func escape(utf8 bytes: some Collection<UInt8>, into out: inout [UInt8]) {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            case 0x27: out.append(contentsOf: "&#39;".utf8)
            case 0xEE where isSlotMarker(bytes, at: index):
                index = bytes.index(index, offsetBy: 3)
                continue
            default: out.append(byte)
            }
            index = bytes.index(after: index)
        }
    }

    /// U+E000 and U+E001 are EE 80 80 and EE 80 81 in UTF-8.
    private static func isSlotMarker<Bytes: Collection<UInt8>>(_ bytes: Bytes, at index: Bytes.Index) -> Bool {
        let rest = Array(bytes[index...].prefix(3))
        return rest.count == 3 && rest[1] == 0x80 && (rest[2] == 0x80 || rest[2] == 0x81)
    }

    private static func needsWork(_ byte: UInt8) -> Bool {
        byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 || byte == 0xEE
    }
}
