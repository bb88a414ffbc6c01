import Foundation
import SurveyCore

/// The parts of the core a fuzzer feeds, each from bytes. A target returns normally for any
/// input; a crash, a trap or a broken property (`FuzzFailure`) is a finding.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// A survey file's bytes: the JSON parser, the reader and the definition checker.
    case loader
    /// An example survey with edits chosen by the bytes, so that the checker sees well-formed
    /// files that are wrong in every way; a survey that passes is then walked by the engine.
    case checker
    /// An `application/x-www-form-urlencoded` body: the form decoder.
    case form
    /// A body's fields parsed by every question of every example (all nineteen formats);
    /// each accepted answer must come back unchanged from the fields that show it again.
    case answers

    public func run(_ bytes: [UInt8], seeds: FuzzSeeds) throws(FuzzFailure) {
        switch self {
        case .loader:
            _ = SurveyLoader.diagnose(Data(bytes))
        case .checker:
            var edits = ByteReader(bytes)
            let survey = JSONEdits.apply(&edits, to: seeds.surveys[edits.index(seeds.surveys.count)], pool: seeds.strings)
            if let task = SurveyLoader.diagnose(survey).task { try EngineWalk.walk(task) }
        case .form:
            guard let fields = try? FormDecoding.decode(bytes) else { return }
            _ = fields.conflictingControlField
        case .answers:
            guard let first = bytes.first, let fields = try? FormDecoding.decode(bytes.dropFirst()) else { return }
            let context = FuzzContexts.all[Int(first) % FuzzContexts.all.count]
            for question in seeds.questions {
                try AnswerRoundTrip.check(question.answerFormat, name: question.identifier, fields: fields, context: context)
            }
        }
    }
}

/// The languages, times and zones answers are read in: the first byte of an `answers` input picks one.
enum FuzzContexts {
    static let all: [AnswerContext] = {
        let instant = Date(timeIntervalSince1970: 1_772_000_000)
        let zones = ["UTC", "Europe/Madrid", "America/New_York", "Pacific/Kiritimati", "America/St_Johns"].compactMap(TimeZone.init(identifier:))
        return ["en", "en-US", "es", "de-DE", "fr-CA"].flatMap { language in
            zones.map { AnswerContext(language: language, now: instant, timeZone: $0) }
        }
    }()
}
