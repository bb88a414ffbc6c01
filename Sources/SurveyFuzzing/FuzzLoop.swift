import Foundation

/// Mutation fuzzing without libFuzzer: random edits of the seed corpus, from a fixed seed so a
/// run can be repeated. The test suite runs it briefly; `scripts/fuzz` uses libFuzzer instead
/// where the toolchain has it.
public struct FuzzLoop {
    public struct Report: Sendable {
        public var inputs = 0
        public var slowest: Duration = .zero
        public var slowestInput: [UInt8] = []
        public var failure: (input: [UInt8], message: String)?
    }

    let target: FuzzTarget
    let seeds: FuzzSeeds
    var random: SplitMix64
    let corpus: [[UInt8]]
    let tokens: [[UInt8]]

    public init(target: FuzzTarget, seeds: FuzzSeeds, seed: UInt64) {
        self.target = target
        self.seeds = seeds
        random = SplitMix64(seed: seed)
        let own = seeds.corpus.filter { $0.target == target }.map(\.bytes)
        // The checker's inputs are edit scripts: random bytes are as good a start as any.
        corpus = own.isEmpty ? [[1, 2, 3, 4, 5, 6, 7, 8]] : own
        let words = ["&", "=", "%", "%FF", "%C3", "%00", "+", "{", "}", "[", "]", "\"", ",", ":", "null", "1e999", "-0", "_csrf",
                     "_action", ".other", ".day", ".0", "\u{301}", "\u{202E}", "😀", "\\u0000", "\\ud800"]
        tokens = (words + seeds.strings.prefix(400)).map { Array($0.utf8) }
    }

    /// Runs `count` inputs, or stops at the first broken property.
    public mutating func run(count: Int) -> Report {
        var report = Report()
        let clock = ContinuousClock()
        for _ in 0..<count {
            let input = mutate(corpus[Int(random.next() % UInt64(corpus.count))])
            let start = clock.now
            do {
                try target.run(input, seeds: seeds)
            } catch {
                report.failure = (input, error.description)
                return report
            }
            let took = clock.now - start
            if took > report.slowest { report.slowest = took; report.slowestInput = input }
            report.inputs += 1
        }
        return report
    }

    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }

    mutating func mutate(_ original: [UInt8]) -> [UInt8] {
        var bytes = original
        for _ in 0...below(4) {
            let at = below(bytes.count + 1)
            switch below(7) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] ^= 1 << UInt8(below(8))
            case 1 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] = [0, 0x7F, 0x80, 0xFF, 0x25, 0x26, 0x3D, 0x22][below(8)]
            case 2: bytes.insert(contentsOf: tokens[below(tokens.count)], at: at)
            case 3: bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(16)))
            case 4:
                let end = min(bytes.count, at + 1 + below(64))
                bytes.insert(contentsOf: Array(bytes[at..<end]), at: below(bytes.count + 1))
            case 5:
                let donor = corpus[below(corpus.count)]
                let from = below(donor.count)
                bytes.insert(contentsOf: donor[from..<min(donor.count, from + below(256))], at: at)
            default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            }
        }
        return bytes
    }
}
