import Foundation
import JSON

/// Answering a run from an answers file (step identifier → form fields, or "$skip"), as
/// `survey simulate` and the preview's jumps do.
extension Navigator {
    /// What became of a scripted walk.
    public enum ScriptedWalk: Sendable {
        /// The run, stopped at the target step (not answered) or finished when there was none.
        case arrived(TaskRun)
        /// A step refused its scripted fields.
        case refused(step: String, issues: [AnswerIssue])
        /// The run ended, or went round too long, before it reached the target.
        case missed(TaskRun)
    }

    /// Walks a new run with the scripted fields, step by step as the rules lead, until it
    /// reaches `target` (shown, not answered), or to its end when `target` is nil. A step with
    /// no entry is submitted empty; "$skip" presses Skip. Each move is a second after the last.
    public func walk(_ script: JSONObject, to target: String? = nil, language: String? = nil, from start: Date,
                     parameters: [String: String]? = nil) -> ScriptedWalk {
        var now = start
        var run = parameters.map { self.start(uuid: UUID(), now: now, parameters: $0) } ?? self.start(now: now)
        for _ in 0..<10_000 {
            // A completion step is arrived at as it is shown, which completes the run. An
            // allocation step shows nothing: arriving there draws its arm, and the run stands
            // where the arm leads.
            if let target, let step = currentStep(run), step.identifier == target {
                guard pendingAllocation(run) != nil else { return .arrived(run) }
                return .arrived(assign(arm: scriptedArm(script[step.identifier], of: step), in: run, now: now))
            }
            guard !run.isFinished, let step = currentStep(run) else { return target == nil ? .arrived(run) : .missed(run) }
            now = now.addingTimeInterval(1)
            let entry = script[step.identifier]
            if pendingAllocation(run) != nil {
                run = assign(arm: scriptedArm(entry, of: step), in: run, now: now)
                continue
            }
            if entry == .string("$skip") {
                run = skip(run, visit: run.cursor, now: now)
                continue
            }
            let context = AnswerContext(language: language, now: now, timeZone: timeZone)
            let fields = scriptedFields(entry, of: step, in: run)
            switch answer(run, visit: run.cursor, fields: fields, context: context) {
            case .accepted(let next): run = next
            case .rejected(let issues):
                // A choice the script names may be one this visit does not show (a cascade's
                // filter): the first choice shown stands in for it, once.
                guard let shown = fieldsWithShownChoices(fields, of: step, in: run),
                      case .accepted(let next) = answer(run, visit: run.cursor, fields: shown, context: context) else {
                    return .refused(step: step.identifier, issues: issues)
                }
                run = next
            }
        }
        return .missed(run)
    }

    /// The fields with each hidden choice a script names replaced by the first choice shown;
    /// nil when the step filters no choice or nothing was replaced.
    func fieldsWithShownChoices(_ fields: FormFields, of step: Step, in run: TaskRun) -> FormFields? {
        var replaced: [(String, String)] = []
        for question in step.questions {
            guard let choices = question.answerFormat.filteredChoices else { continue }
            let hidden = hiddenChoices(of: question.answerFormat, step: step, visit: run.cursor, in: run)
            let hiddenValues = Set(hidden.map { choices[$0].value.formValue })
            guard fields.all(question.identifier).contains(where: hiddenValues.contains),
                  let first = choices.indices.first(where: { !hidden.contains($0) }) else { continue }
            replaced.append((question.identifier, choices[first].value.formValue))
        }
        return replaced.isEmpty ? nil : fields.adding(replaced)
    }

    /// The fields a script posts on the run's current page. A repeating form's entry is a list
    /// of instances' fields: each instance's page gets its own, and the list says "yes" to
    /// another until every one is given.
    public func scriptedFields(_ entry: JSONValue?, of step: Step, in run: TaskRun) -> FormFields {
        guard step.repeating != nil, case .array(let instances)? = entry, let visit = run.current else { return FormFields(json: entry) }
        switch visit.repeatPlace {
        case .instance(let number): return FormFields(json: instances.indices.contains(number) ? instances[number] : nil)
        case .list: return FormFields(pairs: [(RepeatAction.anotherField, visit.instanceCount < instances.count ? "yes" : "no")])
        case .removing: return FormFields()
        }
    }

    /// The arm an answers file gives an allocation step (`{"arm": "walk"}`), else its first:
    /// a script stands in for the server's draw.
    public func scriptedArm(_ entry: JSONValue?, of step: Step) -> String {
        let arms = step.allocation?.arms.map(\.value) ?? []
        if case .object(let fields)? = entry, case .string(let named)? = fields[step.identifier], arms.contains(named) { return named }
        return arms.first ?? ""
    }
}
