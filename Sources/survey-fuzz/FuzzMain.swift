import Foundation
import SurveyCore
import SurveyFuzzing

// The fuzzing driver. Built with `-sanitize=fuzzer` (scripts/fuzz), libFuzzer calls
// `LLVMFuzzerTestOneInput` for the target named by SURVEY_FUZZ_TARGET; built normally, it
// runs the seeded mutation loop: `survey-fuzz TARGET [COUNT] [SEED]`, replays files:
// `survey-fuzz TARGET --replay FILE…`, or writes the target's seeds: `--corpus FOLDER`.
// Seeds are read from SURVEY_FUZZ_ROOT (default: the current folder), which must hold
// Examples/ and Tests/Fixtures/.

let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["SURVEY_FUZZ_ROOT"] ?? FileManager.default.currentDirectoryPath)

#if FUZZING
let fuzzSeeds = try! FuzzSeeds(root: root)
let fuzzTarget = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["SURVEY_FUZZ_TARGET"] ?? "") ?? {
    FileHandle.standardError.write(Data("Set SURVEY_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
    exit(2)
}()

/// The slowest input so far: libFuzzer's own timeout counts whole seconds, the limit here is 100 ms.
nonisolated(unsafe) var slowest: (duration: Duration, input: [UInt8]) = (.zero, [])
let clock = ContinuousClock()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let start = clock.now
    do {
        try fuzzTarget.run(bytes, seeds: fuzzSeeds)
    } catch {
        fatalError("\(fuzzTarget.rawValue): \(error.description)")
    }
    let took = clock.now - start
    if took > slowest.duration { slowest = (took, bytes) }
    return 0
}

/// Called once by libFuzzer before the first input: reports the slowest input when it exits.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    // One input first, untimed: the first call pays for loading time zones and the like.
    try? fuzzTarget.run(fuzzSeeds.corpus.first { $0.target == fuzzTarget }?.bytes ?? [], seeds: fuzzSeeds)
    atexit {
        let milliseconds = Double(slowest.duration.components.attoseconds) / 1e15 + Double(slowest.duration.components.seconds) * 1000
        FileHandle.standardError.write(Data("slowest input: \(String(format: "%.2f", milliseconds)) ms\n".utf8))
        if let path = ProcessInfo.processInfo.environment["SURVEY_FUZZ_SLOWEST"] {
            _ = FileManager.default.createFile(atPath: path, contents: Data(slowest.input))
        }
    }
    return 0
}
#else
@main
struct FuzzMain {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: survey-fuzz {\(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|"))} [COUNT] [SEED] | --replay FILE…")
            exit(2)
        }
        arguments.removeFirst()
        let seeds = try FuzzSeeds(root: root)
        if arguments.first == "--corpus", let folder = arguments.dropFirst().first {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, seed) in seeds.corpus.enumerated() where seed.target == target {
                _ = FileManager.default.createFile(atPath: "\(folder)/seed-\(index)", contents: Data(seed.bytes))
            }
            return
        }
        if arguments.first == "--replay" {
            for file in arguments.dropFirst() {
                let input = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
                // The best of three: a slow input is slow every time, a busy machine only sometimes.
                var best = Duration.seconds(3600)
                for _ in 0..<3 {
                    let start = ContinuousClock.now
                    try target.run(input, seeds: seeds)
                    best = min(best, ContinuousClock.now - start)
                }
                print("\(file): ok in \(best.components.seconds * 1000 + best.components.attoseconds / 1_000_000_000_000_000) ms")
            }
            return
        }
        let count = arguments.first.flatMap(Int.init) ?? 10_000
        let seed = arguments.dropFirst().first.flatMap(UInt64.init) ?? 1
        var loop = FuzzLoop(target: target, seeds: seeds, seed: seed)
        let report = loop.run(count: count)
        print("\(target.rawValue): \(report.inputs) inputs, slowest \(report.slowest)")
        if let failure = report.failure {
            print("FAILED: \(failure.message)")
            exit(1)
        }
    }
}
#endif
