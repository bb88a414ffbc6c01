import Foundation
import JSON

extension SurveyTask {
    /// The survey's version: 16 hex digits of a 64-bit FNV-1a hash of the survey as the product
    /// writes it (spacing and key order of the file aside), so every change of a question, a
    /// choice or a rule makes a new version and a file saved again unchanged does not. An
    /// identity for exports, not a security hash.
    public var version: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in JSONWriter.string(json, pretty: false).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
