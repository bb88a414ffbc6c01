import Foundation
import SurveyCore

/// Walks a survey that passed the checker through the engine, answering each page with the
/// first of a few everyday entries that each question accepts: a survey the checker lets
/// through must never trap the engine.
enum EngineWalk {
    static let entries = ["1", "0", "true", "yes", "a", "2", "10", "12:30", "50", "0.5", "someone@example.com"]
    static let instant = Date(timeIntervalSince1970: 1_772_000_000)

    static func walk(_ task: SurveyTask) throws(FuzzFailure) {
        let navigator = Navigator(task: task)
        let context = AnswerContext(language: "en", now: instant, timeZone: TimeZone(identifier: "UTC")!)
        var run = navigator.start(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)), now: instant)
        for _ in 0..<(task.steps.count * 2 + 2) where !run.isFinished && run.visits.indices.contains(run.cursor) {
            let visit = run.cursor
            guard let step = navigator.step(of: run.visits[visit]) else { break }
            var pairs: [(String, String)] = []
            for question in step.questions {
                try AnswerRoundTrip.check(question.answerFormat, name: question.identifier, fields: FormFields(), context: context)
                for entry in entries {
                    let fields = FormFields(pairs: [(question.identifier, entry)])
                    try AnswerRoundTrip.check(question.answerFormat, name: question.identifier, fields: fields, context: context)
                    if case .answer = AnswerParser.parse(question.answerFormat, name: question.identifier, fields: fields, context: context) {
                        pairs.append((question.identifier, entry))
                        break
                    }
                }
            }
            switch navigator.answer(run, visit: visit, fields: FormFields(pairs: pairs), context: context) {
            case .accepted(let next): run = next
            case .rejected: run = navigator.skip(run, visit: visit, now: instant)
            }
            if run.cursor == visit, !run.isFinished { break }
        }
        _ = navigator.progress(run)
        _ = navigator.result(of: run, now: instant).json(in: context.timeZone)
    }
}
