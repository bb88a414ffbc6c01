import JSON

extension BoundedRegex {
    /// True when `pattern` repeats a group that itself holds a repetition, as `(a+)+`,
    /// `(\w+\s?)*` or `(x{1,9}){2,}` do: the shape whose backtracking grows exponentially with
    /// the answer's length. Atomic groups `(?>…)` and possessive quantifiers (`*+`, `++`, `?+`,
    /// `{n,m}+`) do not backtrack, so they are not counted. Read off the text only; it is a
    /// warning for the author, and the step limit is what protects the server.
    public static func repeatsARepetition(_ pattern: String) -> Bool {
        let characters = Array(pattern)
        /// For each open group: whether it is atomic, and whether a repetition was seen inside.
        var groups: [(atomic: Bool, repeats: Bool)] = []
        /// Whether the piece just closed is a group holding a repetition.
        var lastWasRepeatingGroup = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "\\":
                index += 2
                lastWasRepeatingGroup = false
                continue
            case "[":
                index = endOfClass(characters, from: index)
                lastWasRepeatingGroup = false
                continue
            case "(":
                let atomic = characters.dropFirst(index + 1).starts(with: ["?", ">"])
                groups.append((atomic, false))
                lastWasRepeatingGroup = false
            case ")":
                guard let group = groups.popLast() else { break }
                lastWasRepeatingGroup = group.repeats && !group.atomic
                // A group that repeats inside makes its enclosing group repeat inside too.
                if group.repeats, !groups.isEmpty { groups[groups.count - 1].repeats = true }
            case "*", "+", "?", "{":
                let (end, unbounded) = quantifier(characters, at: index)
                guard end > index else { lastWasRepeatingGroup = false; break }
                let possessive = end < characters.count && characters[end] == "+"
                if lastWasRepeatingGroup, unbounded, !possessive { return true }
                if unbounded, !possessive, !groups.isEmpty { groups[groups.count - 1].repeats = true }
                lastWasRepeatingGroup = false
                index = possessive || (end < characters.count && characters[end] == "?") ? end + 1 : end
                continue
            default:
                lastWasRepeatingGroup = false
            }
            index += 1
        }
        return false
    }

    /// The index after a quantifier starting at `index` and whether it lets the count of
    /// repetitions vary above one; `index` itself when the character there is no quantifier
    /// (a literal `{`).
    private static func quantifier(_ characters: [Character], at index: Int) -> (end: Int, unbounded: Bool) {
        switch characters[index] {
        case "*", "+": return (index + 1, true)
        case "?": return (index + 1, false)
        default:
            guard let close = characters[index...].firstIndex(of: "}") else { return (index, false) }
            let body = String(characters[(index + 1)..<close])
            let bounds = body.split(separator: ",", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), bounds.allSatisfy({ $0.allSatisfy(\.isNumber) }), !bounds[0].isEmpty else {
                return (index, false)
            }
            // {n} repeats a fixed number of times; {n,} and {n,m} with m above n and 1 vary.
            guard bounds.count == 2, let lower = Int(bounds[0]) else { return (close + 1, false) }
            guard let upper = Int(bounds[1]) else { return (close + 1, true) }
            return (close + 1, upper > lower && upper > 1)
        }
    }

    /// The index after a character class that opens at `index`, nested classes and escapes included.
    private static func endOfClass(_ characters: [Character], from index: Int) -> Int {
        var depth = 0
        var position = index
        while position < characters.count {
            switch characters[position] {
            case "\\": position += 1
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return position + 1 }
            default: break
            }
            position += 1
        }
        return characters.count
    }
}

extension BoundedRegex {
    /// Checks a survey's pattern at `path`: an error when it does not compile, a warning when it
    /// repeats a repetition. True when it compiles.
    @discardableResult
    static func check(_ pattern: String, at path: JSONPath, _ log: DiagnosticLog) -> Bool {
        guard compiles(pattern) else {
            log.error(path, "The regular expression \"\(pattern)\" does not compile.")
            return false
        }
        if repeatsARepetition(pattern) {
            log.warning(path, "The regular expression \"\(pattern)\" repeats a group that itself repeats, as (a+)+ does: some answers make such a pattern backtrack for a long time, and an answer that takes too long to check is refused. Write it without the nested repetition, or make the inner part possessive (a++) or atomic ((?>…)).")
        }
        return true
    }
}
