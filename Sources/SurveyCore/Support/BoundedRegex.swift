import JSON
import _FoundationICU

/// The survey's regular expressions (ICU's syntax, as ResearchKit's NSRegularExpression reads
/// them), matched with a budget.
///
/// A pattern such as `^(a+)+$` backtracks exponentially: forty a's and a "!" kept a core busy
/// for over a second, and anyone can post an answer. So every match here runs with ICU's own
/// step limit (`uregex_setTimeLimit`, in units of ICU's match steps, about 1.5 ms of one core
/// for ten of them) on an answer of at most `inputLimit` UTF-16 units. A match that runs out
/// of steps is `overBudget`: the caller refuses the answer (a text question) or reads it as
/// not matching (a rule), so a hostile answer costs at most a couple of milliseconds.
///
/// This is the same ICU that Foundation's NSRegularExpression uses on Linux (the toolchain's
/// `_FoundationICU`), so a pattern means here exactly what it meant there; Foundation just
/// does not let its caller set the limit.
public enum BoundedRegex {
    /// The longest answer a pattern is matched against, in UTF-16 units.
    public static let inputLimit = 2_000
    /// ICU's step limit for one match.
    static let stepLimit: Int32 = 10

    public enum Outcome: Sendable, Equatable {
        case match, noMatch, overBudget
    }

    /// True when ICU compiles `pattern`.
    public static func compiles(_ pattern: String) -> Bool {
        guard let expression = compile(pattern) else { return false }
        swift_uregex_close(expression)
        return true
    }

    /// Whether `pattern` matches somewhere in `text` (NSRegularExpression's `numberOfMatches > 0`).
    public static func search(_ pattern: String, in text: String) -> Outcome {
        run(pattern, text)
    }

    /// Whether `pattern` matches the whole of `text`.
    public static func wholeMatch(_ pattern: String, _ text: String) -> Outcome {
        run("^(?:" + pattern + ")$", text)
    }

    private static func run(_ pattern: String, _ text: String) -> Outcome {
        let units = terminated(text)
        guard units.count - 1 <= inputLimit else { return .overBudget }
        guard let expression = compile(pattern) else { return .noMatch }
        defer { swift_uregex_close(expression) }
        var status = U_ZERO_ERROR
        swift_uregex_setTimeLimit(expression, stepLimit, &status)
        return units.withUnsafeBufferPointer { buffer -> Outcome in
            // ICU keeps the text's address, and reads it only inside this closure.
            swift_uregex_setText(expression, buffer.baseAddress, Int32(buffer.count - 1), &status)
            let found = swift_uregex_find(expression, 0, &status)
            if status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW { return .overBudget }
            guard status.rawValue <= U_ZERO_ERROR.rawValue else { return .noMatch }
            return found != 0 ? .match : .noMatch
        }
    }

    private static func compile(_ pattern: String) -> OpaquePointer? {
        // ICU refuses a pattern of length zero, which matches everywhere.
        let units = terminated(pattern.isEmpty ? "(?:)" : pattern)
        var status = U_ZERO_ERROR
        let expression = units.withUnsafeBufferPointer { buffer in
            swift_uregex_open(buffer.baseAddress, Int32(buffer.count - 1), 0, nil, &status)
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue, let expression else {
            if let expression { swift_uregex_close(expression) }
            return nil
        }
        return expression
    }

    /// The string's UTF-16 units and a zero after them, so that even an empty string has an address.
    private static func terminated(_ string: String) -> [UInt16] {
        var units = Array(string.utf16)
        units.append(0)
        return units
    }
}
