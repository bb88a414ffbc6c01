import Foundation

/// How hard a researcher's token (`--api-token`, `--preview-token`) would be to guess, read
/// off its characters: its length times the bits of the smallest alphabet that spells it
/// (digits, lower case, upper case, other printable), less for a character repeated
/// throughout. A rough lower bound, for a warning at start; the token's length is still
/// checked where it is read.
enum TokenStrength {
    /// The bits below which the server warns: 128, as a random 22-character base64 token has.
    static let enoughBits = 128.0

    static func bits(_ token: String) -> Double {
        let scalars = Array(token.unicodeScalars)
        guard !scalars.isEmpty else { return 0 }
        var alphabet = 0
        if scalars.contains(where: { ("0"..."9").contains($0) }) { alphabet += 10 }
        if scalars.contains(where: { ("a"..."z").contains($0) }) { alphabet += 26 }
        if scalars.contains(where: { ("A"..."Z").contains($0) }) { alphabet += 26 }
        if scalars.contains(where: { !("0"..."9").contains($0) && !("a"..."z").contains($0) && !("A"..."Z").contains($0) }) { alphabet += 33 }
        // A token made of few distinct characters is worth no more than those characters allow.
        let distinct = Set(scalars).count
        let perCharacter = log2(Double(min(alphabet, max(distinct, 2))))
        return Double(scalars.count) * perCharacter
    }

    /// A sentence for the log when `token`, given as `setting`, looks guessable.
    static func warning(_ token: String, setting: String) -> String? {
        let estimate = bits(token)
        guard estimate < enoughBits else { return nil }
        return "\(setting) looks guessable (about \(Int(estimate)) bits, under \(Int(enoughBits))): use a random one, such as the output of `openssl rand -base64 32`."
    }
}
