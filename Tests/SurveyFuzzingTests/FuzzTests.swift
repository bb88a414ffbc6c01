import Foundation
import PropertyBased
import SurveyCore
import SurveyFuzzing
import Testing

/// The short run of the fuzzers: 10⁴ mutated inputs per target (SURVEY_FUZZ_COUNT changes
/// it), from a fixed seed so a failure repeats. `scripts/fuzz` runs 10⁶ under libFuzzer.
@Suite("Fuzzing, short")
struct FuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let seeds = try! FuzzSeeds(root: root)
    static let count = ProcessInfo.processInfo.environment["SURVEY_FUZZ_COUNT"].flatMap(Int.init) ?? 10_000
    /// Far above any input's real cost (a few milliseconds in a debug build): an input that
    /// costs this much is stuck, not slow. It is the processor time of the test's own thread,
    /// not the time on the wall, so a machine busy with other work does not make an input look
    /// stuck. The long run holds inputs to 100 ms in release.
    static let hang = Duration.seconds(1)

    @Test("No input crashes, hangs or breaks a property", arguments: FuzzTarget.allCases)
    func mutatedInputs(target: FuzzTarget) {
        var loop = FuzzLoop(target: target, seeds: Self.seeds, seed: 20_261_123)
        var inputs = 0
        var slowest = (cpu: Duration.zero, wall: Duration.zero, input: [UInt8]())
        // One input at a time, the same inputs in the same order as one run of the whole count.
        for _ in 0..<Self.count {
            let before = Self.threadTime()
            let report = loop.run(count: 1)
            let cpu = Self.threadTime() - before
            if let failure = report.failure {
                Issue.record("\(failure.message)\ninput (base64): \(Data(failure.input).base64EncodedString())")
                break
            }
            inputs += report.inputs
            if cpu > slowest.cpu { slowest = (cpu, report.slowest, report.slowestInput) }
        }
        print("fuzz \(target.rawValue): \(inputs) inputs, slowest \(slowest.cpu) of processor time (\(slowest.wall) on the wall)")
        #expect(inputs == Self.count)
        #expect(slowest.cpu < Self.hang, "slowest input (base64): \(Data(slowest.input).base64EncodedString())")
    }

    /// The processor time the calling thread has used. The test above is synchronous, so it
    /// stays on one thread from start to end.
    static func threadTime() -> Duration {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    @Test("The seeds reach every answer format, so the answers target parses them all")
    func seedsCoverEveryFormat() {
        let formats = Set(Self.seeds.questions.map { String(describing: $0.answerFormat).prefix { $0 != "(" } })
        #expect(formats.count == 19, "\(formats.sorted())")
    }

    /// Typed entries: digits, signs, separators, words, dates, marks and the examples' own
    /// values (choices, identifiers) in any order.
    static let entry = Gen.element(of: ["0", "1", "7", "12", "59", "60", "99", "2026", "-", "+", ".", ",", ":", " ", "e", "1e3",
                                        "٣", "½", "\u{00A0}", "am", "pm", "feb", "true", "no", "\u{301}", "other", "NaN", "inf"]
                                       + seeds.strings.filter { $0.count <= 12 })
        .map { $0 ?? "" }.array(of: 0...5).map { $0.joined() }
    static let part = Gen.element(of: ["", ".day", ".month", ".year", ".time", ".hours", ".minutes", ".feet", ".inches", ".pounds",
                                       ".ounces", ".0", ".1", ".other", ".other.2", ".dontKnow", ".latitude", ".longitude"])
        .map { $0 ?? "" }

    @Test("Every format reads back the answer it accepted from the fields that show it again")
    func answersRoundTrip() async {
        let questions = Self.seeds.questions
        await propertyCheck(count: Self.count, input: Gen.int(in: 0...(questions.count - 1)), Self.part.array(of: 1...4), Self.entry.array(of: 4),
                            Gen.int(in: 0...24)) { index, parts, entries, contextIndex in
            let question = questions[index]
            let name = question.identifier
            let fields = FormFields(pairs: parts.enumerated().map { (name + $0.element, entries[$0.offset]) })
            do {
                try FuzzTarget.answers.run([UInt8(contextIndex)] + Array(FuzzSeeds.urlEncoded(fields).utf8), seeds: Self.seeds)
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
