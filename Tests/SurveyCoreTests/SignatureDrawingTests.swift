import Testing
@testable import SurveyCore

@Suite("SignatureDrawing")
struct SignatureDrawingTests {
    typealias Point = SignatureDrawing.Point

    static func point(_ x: Int, _ y: Int) -> Point { Point(x: x, y: y) }

    /// `count` one-point strokes, spread over the box.
    static func dots(_ count: Int) -> String {
        (0..<count).map { "M\($0 % 601) \($0 % 201)" }.joined(separator: " ")
    }

    /// One stroke of `count` points.
    static func line(_ count: Int) -> String {
        (0..<count).map { "\($0 == 0 ? "M" : "L")\($0 % 601) \($0 % 201)" }.joined(separator: " ")
    }

    @Test func readsTheExample() throws {
        let drawing = try SignatureDrawing.parse("M10 20 L11 22 L15 30 M100 50 L101 52").get()
        #expect(drawing.strokes == [[Self.point(10, 20), Self.point(11, 22), Self.point(15, 30)], [Self.point(100, 50), Self.point(101, 52)]])
        #expect(drawing.pointCount == 5)
    }

    @Test func roundTrips() throws {
        let drawing = SignatureDrawing(strokes: [[Self.point(0, 0), Self.point(600, 200)], [Self.point(5, 5)], [Self.point(300, 0), Self.point(299, 7), Self.point(1, 199)]])
        #expect(drawing.pathData == "M0 0 L600 200 M5 5 M300 0 L299 7 L1 199")
        #expect(SignatureDrawing.parse(drawing.pathData) == .success(drawing))
    }

    @Test func aSinglePointIsADot() {
        #expect(SignatureDrawing.parse("M5 5") == .success(SignatureDrawing(strokes: [[Self.point(5, 5)]])))
    }

    @Test("Nothing drawn", arguments: [nil, "", " ", "\r\n", "\t \u{0C}"] as [String?])
    func nothingDrawn(text: String?) {
        #expect(SignatureDrawing.read(text) == .success(nil))
    }

    @Test func readPassesTextToParse() {
        #expect(SignatureDrawing.read("M1 2") == .success(SignatureDrawing(strokes: [[Self.point(1, 2)]])))
        #expect(SignatureDrawing.read("M1 2 ") == .failure(.malformed))
        #expect(SignatureDrawing.read(" M1 2") == .failure(.malformed))
        #expect(SignatureDrawing.read("\u{00A0}") == .failure(.malformed))
    }

    @Test func parseTakesEmptyTextAsMalformed() {
        #expect(SignatureDrawing.parse("") == .failure(.malformed))
        #expect(SignatureDrawing.parse(" ") == .failure(.malformed))
    }

    @Test func bounds() {
        #expect(SignatureDrawing.parse("M600 200").map(\.strokes) == .success([[Self.point(600, 200)]]))
        #expect(SignatureDrawing.parse("M601 0") == .failure(.outOfBounds))
        #expect(SignatureDrawing.parse("M0 201") == .failure(.outOfBounds))
        #expect(SignatureDrawing.parse("M0 0 L9999 0") == .failure(.outOfBounds))
        #expect(SignatureDrawing.parse("M0 0 L10000 0") == .failure(.malformed))
    }

    @Test func strokeAndPointCounts() {
        #expect(SignatureDrawing.parse(Self.dots(40)).map(\.strokes.count) == .success(40))
        #expect(SignatureDrawing.parse(Self.dots(41)) == .failure(.tooManyStrokes))
        #expect(SignatureDrawing.parse(Self.line(2000)).map(\.pointCount) == .success(2000))
        #expect(SignatureDrawing.parse(Self.line(2001)) == .failure(.tooManyPoints))
        // Spread over strokes, the point bound counts all of them.
        let split = Self.line(1000) + " " + Self.line(1001)
        #expect(SignatureDrawing.parse(split) == .failure(.tooManyPoints))
    }

    @Test func tooLongIsCheckedFirst() {
        let long = String(repeating: "M", count: SignatureDrawing.maximumLength + 1)
        #expect(SignatureDrawing.parse(long) == .failure(.tooLong))
        #expect(SignatureDrawing.read(long) == .failure(.tooLong))
        #expect(SignatureDrawing.read(String(repeating: " ", count: SignatureDrawing.maximumLength + 1)) == .failure(.tooLong))
        // Bytes count, not characters: 8,001 three-byte characters are over.
        #expect(SignatureDrawing.parse(String(repeating: "€", count: 8001)) == .failure(.tooLong))
        #expect(SignatureDrawing.parse(String(repeating: "€", count: 8000)) == .failure(.malformed))
    }

    @Test("Malformed", arguments: [
        "M1,2", "M-1 2", "M+1 2", "L1 2", "L1 2 M3 4", "M1 2  L3 4", "M01 2", "M1 02", "M00 0", "M1 2 L3", "M1 2 ", " M1 2",
        "M1 2\n", "M١ 2", "M1 ٢", "M１ 2", "M1.5 2", "M1 2.0", "M1e2 3", "m1 2", "M 1 2", "M1 2L3 4", "M1 2 L3 4 L", "M1 2 X3 4",
        "M1\t2", "M", "M1", "M1 ", "M 1", "M12345 1", "M1 00001", "M1 2 M", "\u{FEFF}M1 2", "M1 2\u{0}",
    ])
    func malformed(text: String) {
        #expect(SignatureDrawing.parse(text) == .failure(.malformed))
    }

    @Test func zeroIsWrittenOnce() {
        #expect(SignatureDrawing.parse("M0 0 L0 10 L10 0").map(\.pointCount) == .success(3))
    }

    // MARK: Properties over generated input

    /// SplitMix64: the same sequence on every run and platform, so a failure reproduces.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func randomDrawingsRoundTrip() throws {
        var random = Generator(state: 1)
        for _ in 0..<500 {
            let strokeCount = Int.random(in: 1...SignatureDrawing.maximumStrokes, using: &random)
            var budget = Int.random(in: strokeCount...SignatureDrawing.maximumPoints, using: &random)
            var strokes: [[Point]] = []
            for remaining in (1...strokeCount).reversed() {
                // Leave at least one point for each stroke still to come.
                let count = remaining == 1 ? budget : Int.random(in: 1...max(1, min(budget - (remaining - 1), 120)), using: &random)
                budget -= count
                strokes.append((0..<count).map { _ in
                    Self.point(Int.random(in: 0...SignatureDrawing.width, using: &random), Int.random(in: 0...SignatureDrawing.height, using: &random))
                })
            }
            let drawing = SignatureDrawing(strokes: strokes)
            let text = drawing.pathData
            #expect(text.utf8.count <= SignatureDrawing.maximumLength)
            #expect(SignatureDrawing.parse(text) == .success(drawing))
            #expect(try SignatureDrawing.parse(text).get().pathData == text)
        }
    }

    @Test func randomBytesNeverCrashAndAcceptOnlyCanonicalText() {
        var random = Generator(state: 2)
        // Mostly the grammar's own bytes, so that many inputs get deep before failing.
        let alphabet = Array("ML 0123456789".utf8) + [0x2C, 0x2D, 0x2E, 0x09, 0x0A, 0xD9, 0xA1, 0xFF, 0x00]
        var accepted = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &random)
            let bytes = (0..<length).map { _ in
                Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let text = String(decoding: bytes, as: UTF8.self)
            switch SignatureDrawing.parse(text) {
            case .success(let drawing):
                accepted += 1
                #expect(drawing.pathData == text)
            case .failure:
                break
            }
            _ = SignatureDrawing.read(text)
        }
        #expect(accepted < 20_000)
    }

    @Test func mutatedDrawingsAreCanonicalOrRefused() {
        var random = Generator(state: 3)
        let base = Array("M10 20 L11 22 L15 30 M100 50 L101 52 M600 200".utf8)
        let replacements = Array("ML 0123456789-,.x".utf8)
        for _ in 0..<5_000 {
            var bytes = base
            for _ in 0...Int.random(in: 0...2, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0...2, using: &random) {
                case 0: bytes[at] = replacements.randomElement(using: &random)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(replacements.randomElement(using: &random)!, at: at)
                }
                if bytes.isEmpty { break }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if case .success(let drawing) = SignatureDrawing.parse(text) {
                #expect(drawing.pathData == text)
                #expect(drawing.strokes.allSatisfy { $0.allSatisfy { $0.x <= 600 && $0.y <= 200 } })
            }
        }
    }

    @Test func hostileInputAtTheLengthLimit() {
        let limit = SignatureDrawing.maximumLength
        #expect(SignatureDrawing.parse(String(repeating: "9", count: limit)) == .failure(.malformed))
        #expect(SignatureDrawing.parse("M" + String(repeating: "0", count: limit - 1)) == .failure(.malformed))
        #expect(SignatureDrawing.parse("M1 " + String(repeating: "1", count: limit - 3)) == .failure(.malformed))
        #expect(SignatureDrawing.parse(String(String(repeating: "M1 1 ", count: limit / 5).dropLast())) == .failure(.tooManyStrokes))
        #expect(SignatureDrawing.parse(String(repeating: " ", count: limit)) == .failure(.malformed))
    }
}
