import Foundation
import JSON
import SurveyCore

/// Strings a regular expression may match, read off its text: each alternative with its
/// optional parts left out and with them in, a class as one of its characters, a repetition
/// as its least count. Only a guess for the solver to try: the real expression decides.
/// Lookarounds and back references are read as nothing, so what needs them is not found.
enum RegexExamples {
    /// At most `limit` strings, the plainest first.
    static func examples(of pattern: String, limit: Int = 24) -> [String] {
        var parser = Parser(Array(pattern))
        let alternatives = parser.alternation()
        var seen = Set<String>()
        var found: [String] = []
        for text in expand(alternatives, limit: limit) where seen.insert(text).inserted {
            found.append(text)
        }
        return found
    }

    /// A piece of a pattern.
    indirect enum Node {
        /// Characters that stand for themselves, or one picked from a class.
        case text(String)
        case group([[Node]])
        case repeated(Node, minimum: Int, optional: Bool)
    }

    private static func expand(_ alternatives: [[Node]], limit: Int) -> [String] {
        var results: [String] = []
        for sequence in alternatives {
            results += expand(sequence, limit: limit)
            if results.count >= limit { break }
        }
        return Array(results.prefix(limit))
    }

    private static func expand(_ sequence: [Node], limit: Int) -> [String] {
        var results = [""]
        for node in sequence {
            let parts = expand(node, limit: limit)
            var combined: [String] = []
            outer: for prefix in results {
                for part in parts {
                    combined.append(prefix + part)
                    if combined.count >= limit { break outer }
                }
            }
            results = combined
        }
        return results
    }

    private static func expand(_ node: Node, limit: Int) -> [String] {
        switch node {
        case .text(let text):
            return [text]
        case .group(let alternatives):
            return expand(alternatives, limit: limit)
        case .repeated(let inner, let minimum, let optional):
            let parts = expand(inner, limit: limit)
            let least = minimum == 0 ? [""] : parts.map { String(repeating: $0, count: minimum) }
            return optional ? least + parts.map { String(repeating: $0, count: minimum + 1) } : least
        }
    }

    /// A small recursive-descent reader of the common regular expression syntax.
    struct Parser {
        let characters: [Character]
        var position = 0

        init(_ characters: [Character]) {
            self.characters = characters
        }

        var atEnd: Bool { position >= characters.count }
        var next: Character? { atEnd ? nil : characters[position] }

        mutating func alternation() -> [[Node]] {
            var alternatives: [[Node]] = [sequence()]
            while !atEnd, characters[position] == "|" {
                position += 1
                alternatives.append(sequence())
            }
            return alternatives
        }

        mutating func sequence() -> [Node] {
            var nodes: [Node] = []
            while !atEnd, characters[position] != "|", characters[position] != ")" {
                guard let atom = atom() else { continue }
                nodes.append(quantified(atom))
            }
            return nodes
        }

        mutating func atom() -> Node? {
            let character = characters[position]
            position += 1
            switch character {
            case "^", "$":
                return nil
            case ".":
                return .text("a")
            case "(":
                var lookaround = false
                if next == "?" {
                    position += 1
                    if let mark = next, "=!".contains(mark) {
                        lookaround = true
                        position += 1
                    } else if next == "<", position + 1 < characters.count, "=!".contains(characters[position + 1]) {
                        lookaround = true
                        position += 2
                    } else if next == "<" || next == "P" {
                        while let skipped = next, skipped != ">" { position += 1 }
                        position += 1
                    } else {
                        // Flags: "(?i:" opens a group, "(?i)" only sets them.
                        while let skipped = next, skipped != ":", skipped != ")" { position += 1 }
                        if next == ")" {
                            position += 1
                            return nil
                        }
                        position += 1
                    }
                }
                let inner = alternation()
                if next == ")" { position += 1 }
                return lookaround ? nil : .group(inner)
            case "[":
                return .text(characterClass())
            case "\\":
                return .text(escape())
            default:
                return .text(String(character))
            }
        }

        mutating func quantified(_ atom: Node) -> Node {
            guard !atEnd else { return atom }
            var node = atom
            switch characters[position] {
            case "?", "*":
                position += 1
                node = .repeated(atom, minimum: 0, optional: true)
            case "+":
                position += 1
                node = .repeated(atom, minimum: 1, optional: true)
            case "{":
                let start = position
                position += 1
                var digits = ""
                while !atEnd, characters[position].isASCIIDigit {
                    digits.append(characters[position])
                    position += 1
                }
                var more = false
                if !atEnd, characters[position] == "," {
                    more = true
                    position += 1
                    while !atEnd, characters[position].isASCIIDigit { position += 1 }
                }
                guard !atEnd, characters[position] == "}", let count = Int(digits), count <= 64 else {
                    position = start + 1
                    return .text("{")
                }
                position += 1
                node = .repeated(atom, minimum: count, optional: more)
            default:
                return atom
            }
            // A lazy or possessive mark changes nothing about what matches.
            if !atEnd, characters[position] == "?" || characters[position] == "+" { position += 1 }
            return node
        }

        /// One character a class allows: its first, or for a negated class one it leaves out.
        mutating func characterClass() -> String {
            var negated = false
            if !atEnd, characters[position] == "^" {
                negated = true
                position += 1
            }
            var members: [String] = []
            var first = true
            while !atEnd, characters[position] != "]" || first {
                first = false
                let character = characters[position]
                position += 1
                members.append(character == "\\" ? escape() : String(character))
            }
            if !atEnd { position += 1 }
            if negated {
                return ["a", "z", "0", "9", "A", "_", "-", " ", "x"].first { !members.contains($0) } ?? "~"
            }
            return members.first ?? ""
        }

        mutating func escape() -> String {
            guard !atEnd else { return "\\" }
            let character = characters[position]
            position += 1
            switch character {
            case "d": return "1"
            case "D", "w", "S": return "a"
            case "W", "s": return " "
            case "t": return "\t"
            case "n": return "\n"
            case "b", "B", "A", "z", "Z", "G": return ""
            case "p", "P":
                if !atEnd, characters[position] == "{" {
                    while !atEnd, characters[position] != "}" { position += 1 }
                    if !atEnd { position += 1 }
                } else if !atEnd {
                    position += 1
                }
                return character == "p" ? "a" : " "
            default:
                return character.isASCIIDigit ? "" : String(character)
            }
        }
    }
}
