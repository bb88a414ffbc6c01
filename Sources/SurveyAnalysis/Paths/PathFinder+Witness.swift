import Foundation
import JSON
import SurveyCore

extension PathFinder {
    /// Writes the chosen answers as an answers file by walking the real navigator along the
    /// path, page by page, and returns it only if the walk arrives at the path's last step.
    ///
    /// A question the conditions leave free gets the first answer its format accepts, so
    /// that every step shown is answered as a participant would; a form page gets the fields
    /// of the items that show on it. Nil as well when `meter` runs out on the way.
    func witness(path: [String], moves: [RuleGraph.Edge], skipped: [(step: String, predicate: Predicate)],
                 choices: [String: StepChoice], meter: PathMeter) -> Witness? {
        guard let target = path.last else { return nil }
        let candidates = AnswerCandidates(context: answerContext)
        var clock = now
        var run = navigator.start(uuid: ConditionSolver.runIdentifier, now: clock)
        var answers: [(step: String, value: JSONValue)] = []
        for identifier in path.dropLast() {
            guard meter.spend(), !run.isFinished, run.current?.stepIdentifier == identifier, let step = task.step(identifier) else { return nil }
            let choice = choices[identifier]
            clock.addTimeInterval(1)
            if let design = step.allocation {
                // The arm the path needs, as if the server had drawn it (the first arm when any will do).
                var arm = design.arms[0].value
                if case .choices(let values)?? = choice?.answers[QuestionKey(step: identifier, question: identifier)], let value = values.first {
                    arm = value.formValue
                }
                run = navigator.assign(arm: arm, in: run, now: clock)
                answers.append((identifier, .object([identifier: .string(arm)])))
                continue
            }
            if choice?.skipped == true {
                run = navigator.skip(run, visit: run.cursor, now: clock)
                answers.append((identifier, .string(AnswersFile.skip)))
                continue
            }
            let visitIndex = run.cursor
            var fields: [(String, String)] = []
            var pages = 0
            // A repeating form: as many instances as the path needs (its minimum when any count will
            // do), each its pages' fields, and the list's yes or no between them.
            let wanted = step.repeating.map { repeating -> Int in
                if case .numeric(let count)?? = choice?.answers[QuestionKey(step: identifier, question: identifier)] { return Int(count) }
                return max(repeating.minimum, 1)
            }
            var instances: [JSONValue] = []
            while !run.isFinished, run.cursor == visitIndex, pages <= (navigator.pages(of: step).count + 1) * ((wanted ?? 0) + 1) + 1 {
                pages += 1
                let visit = run.visits[visitIndex]
                let context = AnswerContext(language: nil, now: clock, timeZone: timeZone)
                if let wanted, visit.instance == nil {
                    let another = visit.instanceCount < wanted ? "yes" : "no"
                    guard case .accepted(let next) = navigator.answer(run, visit: visitIndex, fields: FormFields(pairs: [("_another", another)]),
                                                                      context: context) else { return nil }
                    if !fields.isEmpty { instances.append(AnswersFile.fields(fields)) }
                    fields = []
                    run = next
                    continue
                }
                var page: [(String, String)] = []
                var freeOptional = Set<String>()
                for question in navigator.visibleQuestions(of: step, page: visit.page, visit: visit, in: run, index: visitIndex) {
                    let key = QuestionKey(step: identifier, question: question.identifier)
                    let chosen = choice?.answers[key]
                    let answer = chosen ?? candidates.answers(for: question, tests: []).first
                    guard let answer else { continue }
                    if chosen == nil, question.isOptional { freeOptional.insert(question.identifier) }
                    page += AnswerFields.fields(for: answer, format: question.answerFormat, name: question.identifier, context: context)
                }
                var outcome = navigator.answer(run, visit: visitIndex, fields: FormFields(pairs: fields + page), context: context)
                if case .rejected = outcome, !freeOptional.isEmpty {
                    // A free optional answer the step itself refuses (a drawn signature's path data) is left empty.
                    page.removeAll { name, _ in freeOptional.contains { name == $0 || name.hasPrefix($0 + ".") } }
                    outcome = navigator.answer(run, visit: visitIndex, fields: FormFields(pairs: fields + page), context: context)
                }
                guard case .accepted(let next) = outcome else { return nil }
                fields += page
                run = next
            }
            answers.append((identifier, wanted == nil ? AnswersFile.fields(fields) : .array(instances)))
        }
        let arrived = run.current?.stepIdentifier == target && run.path.map(\.stepIdentifier) == path
        let completion = task.step(target)?.isCompletion == true
        guard arrived, run.isFinished == completion else { return nil }
        return Witness(answers: answers, path: path, skipped: skipped, moves: moves)
    }
}

/// The answers-file format, as `survey simulate --answers` reads it.
enum AnswersFile {
    /// A step's value that presses Skip.
    static let skip = "$skip"

    /// Form fields as a JSON object: one string per field, an array for a field sent several times.
    static func fields(_ fields: [(String, String)]) -> JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in fields {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        return .object(JSONObject(order.map { name in
            let sent = values[name] ?? []
            return (key: name, value: sent.count == 1 ? .string(sent[0]) : .array(sent.map(JSONValue.string)))
        }))
    }
}
