/// A signature drawn on the consent page: strokes of points in a 600 × 200 box, read from the
/// path data a browser posts and checked against fixed bounds.
///
/// The path data is a sequence of strokes joined by single spaces; a stroke is `M x y`
/// followed by zero or more ` L x y`, with x and y written as plain decimal integers
/// ("0", or up to four digits without a leading zero), x ≤ 600 and y ≤ 200:
/// `M10 20 L11 22 L15 30 M100 50 L101 52`. A stroke of one point is a dot. There is exactly
/// one way to write each drawing, so text that parses is its own `pathData`.
///
/// The drawing is an optional extra beside the typed name, which is the signature itself;
/// the field arrives empty when the participant drew nothing or ran no script.
public struct SignatureDrawing: Sendable, Hashable {
    public struct Point: Sendable, Hashable {
        public var x: Int
        public var y: Int

        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    public var strokes: [[Point]]

    public init(strokes: [[Point]]) {
        self.strokes = strokes
    }

    public static let width = 600, height = 200, maximumStrokes = 40, maximumPoints = 2000
    /// In UTF-8 bytes. The longest text the other bounds allow is under 18,000 bytes
    /// ("L600 200 " is 9 bytes a point), so this only stops a hostile post early.
    public static let maximumLength = 24_000

    public enum Problem: Error, Sendable, Hashable {
        case tooLong, malformed, outOfBounds, tooManyStrokes, tooManyPoints
    }

    /// The drawing in a posted field: `.success(nil)` when the field is missing, empty or only
    /// whitespace (nothing was drawn); otherwise what `parse` makes of the text.
    public static func read(_ text: String?) -> Result<SignatureDrawing?, Problem> {
        guard let text else { return .success(nil) }
        guard text.utf8.count <= maximumLength else { return .failure(.tooLong) }
        // HTML's whitespace: tab, line feed, form feed, carriage return, space.
        if text.utf8.allSatisfy({ [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains($0) }) { return .success(nil) }
        return parse(text).map(Optional.some)
    }

    /// Reads non-empty path data exactly; empty text is `.malformed` here (`read` is the one
    /// that takes an empty field as "not drawn"). One pass over the UTF-8 bytes, after the
    /// length check. The problem reported is the first one met reading from the start, so a
    /// post that breaks a count bound is refused without scanning the rest.
    public static func parse(_ text: String) -> Result<SignatureDrawing, Problem> {
        guard text.utf8.count <= maximumLength else { return .failure(.tooLong) }
        let bytes = Array(text.utf8)
        var index = 0

        /// "0" or a digit 1–9 followed by at most three digits; nil for anything else.
        func number() -> Int? {
            var value = 0, digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                // A fifth digit, or any digit after a leading zero, breaks the grammar.
                if digits == 4 || (digits == 1 && value == 0) { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
            }
            return digits > 0 ? value : nil
        }

        var strokes: [[Point]] = []
        var points = 0
        while true {
            // One token: "M" or "L", x, a space, y. Empty text and a trailing space end up here
            // with nothing left to read.
            guard index < bytes.count else { return .failure(.malformed) }
            switch bytes[index] {
            case UInt8(ascii: "M"):
                guard strokes.count < maximumStrokes else { return .failure(.tooManyStrokes) }
                strokes.append([])
            case UInt8(ascii: "L") where !strokes.isEmpty:
                break
            default:
                return .failure(.malformed)
            }
            index += 1
            guard let x = number(), index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return .failure(.malformed) }
            index += 1
            guard let y = number() else { return .failure(.malformed) }
            guard x <= width, y <= height else { return .failure(.outOfBounds) }
            guard points < maximumPoints else { return .failure(.tooManyPoints) }
            points += 1
            strokes[strokes.count - 1].append(Point(x: x, y: y))

            if index == bytes.count { return .success(SignatureDrawing(strokes: strokes)) }
            guard bytes[index] == UInt8(ascii: " ") else { return .failure(.malformed) }
            index += 1
        }
    }

    /// The canonical path data, so `parse(d.pathData) == .success(d)` for every drawing `parse`
    /// returns. A drawing with no points, or with an empty stroke, has no such text: its
    /// empty strokes are left out, and no strokes at all is "".
    public var pathData: String {
        var text = ""
        text.reserveCapacity(pointCount * 9)
        for stroke in strokes {
            for (offset, point) in stroke.enumerated() {
                if !text.isEmpty { text += " " }
                text += offset == 0 ? "M" : "L"
                text += String(point.x)
                text += " "
                text += String(point.y)
            }
        }
        return text
    }

    public var pointCount: Int {
        strokes.reduce(0) { $0 + $1.count }
    }
}
