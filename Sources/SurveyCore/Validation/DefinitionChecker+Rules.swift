import Foundation
import JSON

/// The checks of navigation rules, skip rules and visibility predicates: every step they name
/// exists, every result they test is a question that can be answered by then, and every test
/// fits the answer format it tests.
extension DefinitionChecker {
    func checkStepReference(_ identifier: String, at path: JSONPath, what: String) -> Bool {
        guard task.step(identifier) == nil else { return !log.brokenSteps.contains(identifier) }
        var message = "\(what) names the step \"\(identifier)\", which the survey does not have."
        if let suggestion = Suggestion.closest(to: identifier, in: task.steps.map(\.identifier)) { message += " Did you mean \"\(suggestion)\"?" }
        log.error(path, message)
        return false
    }

    func checkDestination(_ destination: Destination, at path: JSONPath) {
        if case .step(let identifier) = destination {
            _ = checkStepReference(identifier, at: path, what: "The destination")
        }
    }

    func checkNavigationRule(_ rule: NavigationRule, from identifier: String, at path: JSONPath) -> NavigationRule {
        let exists = checkStepReference(identifier, at: path, what: "This rule")
        if exists, task.step(identifier)?.isCompletion == true {
            log.warning(path, "A navigation rule on a completion step never runs: arriving there ends the survey.")
        }
        switch rule {
        case .direct(let destination):
            checkDestination(destination, at: path / "destination")
            if case .step(identifier) = destination {
                log.warning(path / "destination", "This rule always returns to its own step, so the participant can never leave it.")
            }
            return rule
        case .predicate(let rules, let fallback):
            var resolved: [ConditionalDestination] = []
            for (index, entry) in rules.enumerated() {
                checkDestination(entry.destination, at: path / "rules" / index / "destination")
                let predicate = checkPredicate(entry.predicate, at: path / "rules" / index / "if",
                                               context: exists ? .afterStep(identifier) : .unknown)
                resolved.append(ConditionalDestination(if: predicate, destination: entry.destination))
            }
            if let fallback { checkDestination(fallback, at: path / "default") }
            return .predicate(rules: resolved, default: fallback)
        }
    }

    func checkSkipRule(_ predicate: Predicate, for identifier: String, at path: JSONPath) -> Predicate {
        let exists = checkStepReference(identifier, at: path, what: "This skip rule")
        return checkPredicate(predicate, at: path, context: exists ? .beforeStep(identifier) : .unknown)
    }

    func checkVisibility(_ predicate: Predicate, item: String, itemIndex: Int, in step: Step, at path: JSONPath) -> Predicate {
        checkPredicate(predicate, at: path, context: .formItem(step: step.identifier, itemIndex: itemIndex))
    }

    /// Where a predicate is evaluated, which decides which results can exist by then.
    enum PredicateContext {
        /// After the participant answers this step (a navigation rule).
        case afterStep(String)
        /// On arrival at this step, before it is answered (a skip rule).
        case beforeStep(String)
        /// For a form item, on answers saved before it (visibility).
        case formItem(step: String, itemIndex: Int)
        case unknown
    }

    func checkPredicate(_ predicate: Predicate, at path: JSONPath, context: PredicateContext) -> Predicate {
        switch predicate {
        case .not(let inner):
            return .not(checkPredicate(inner, at: path / "not", context: context))
        case .all(let list):
            return .all(list.enumerated().map { checkPredicate($0.element, at: path / "all" / $0.offset, context: context) })
        case .any(let list):
            return .any(list.enumerated().map { checkPredicate($0.element, at: path / "any" / $0.offset, context: context) })
        case .expression(let source):
            checkExpression(source, at: path / "expression")
            return predicate
        case .everyInstance(let inner):
            let checked = checkPredicate(inner, at: path, context: context)
            if let selector = checked.selectors.first, selector.itemIdentifier != nil, task.step(selector.stepIdentifier)?.repeating != nil {
                return .everyInstance(checked)
            }
            if checked.selectors.first.map({ resolve($0, at: path / "result", quietly: true) != nil }) ?? false {
                log.error(path / "instances", "\"instances\" goes with a test on an item of a repeating form; \"\(checked.selectors[0].raw)\" is not one.")
            }
            return checked
        default:
            break
        }
        guard let selector = predicate.selectors.first, let target = resolve(selector, at: path / "result") else { return predicate }
        let resolved = predicate.replacingSelector(target.selector)
        checkInstances(target, at: path / "result", context: context)
        checkOrder(target, at: path / "result", context: context)
        checkFit(resolved, format: target.format, at: path)
        return resolved
    }

    struct Target {
        let selector: ResultSelector
        let format: AnswerFormat
        let stepIndex: Int
        let itemIndex: Int?
    }

    /// Finds the question a selector names, trying every split of "step.item" since identifiers may hold dots.
    func resolve(_ selector: ResultSelector, at path: JSONPath, quietly: Bool = false) -> Target? {
        if quietly { return resolveMatches(selector).count == 1 ? resolveMatches(selector).first : nil }
        return report(resolveMatches(selector), for: selector, at: path)
    }

    /// Every question a selector could name.
    private func resolveMatches(_ selector: ResultSelector) -> [Target] {
        var matches: [Target] = []
        let raw = selector.raw
        if let name = SurveyParameter.name(inSelector: raw), task.parameter(name) != nil {
            return [Target(selector: ResultSelector(step: SurveyParameter.selectorStep, item: name), format: .text(TextFormat()),
                           stepIndex: -1, itemIndex: nil)]
        }
        for (stepIndex, step) in task.steps.enumerated() {
            if step.identifier == raw, let repeating = step.repeating {
                // A repeating form's own identifier names how many instances it has.
                matches.append(Target(selector: ResultSelector(step: raw, item: nil),
                                      format: .numeric(NumericFormat(style: .integer, minimum: 0, maximum: Double(repeating.maximum))),
                                      stepIndex: stepIndex, itemIndex: nil))
            }
            if step.identifier == raw, case .allocation(let design) = step.kind {
                matches.append(Target(selector: ResultSelector(step: raw, item: nil), format: design.format, stepIndex: stepIndex, itemIndex: nil))
            }
            if step.identifier == raw, case .question(let content) = step.kind {
                matches.append(Target(selector: ResultSelector(step: raw, item: nil), format: content.answerFormat, stepIndex: stepIndex, itemIndex: nil))
            }
            if raw.hasPrefix(step.identifier + "."), case .form(let content) = step.kind {
                let itemIdentifier = String(raw.dropFirst(step.identifier.count + 1))
                for (itemIndex, item) in content.items.enumerated() {
                    if case .question(let question) = item, question.identifier == itemIdentifier {
                        matches.append(Target(selector: ResultSelector(step: step.identifier, item: itemIdentifier),
                                              format: question.answerFormat, stepIndex: stepIndex, itemIndex: itemIndex))
                    }
                }
            }
        }
        return matches
    }

    private func report(_ matches: [Target], for selector: ResultSelector, at path: JSONPath) -> Target? {
        let raw = selector.raw
        if matches.isEmpty, log.brokenSteps.contains(where: { raw == $0 || raw.hasPrefix($0 + ".") }) {
            // The step could not be read; its error is already reported.
            return nil
        }
        if matches.count > 1 {
            log.error(path, "\"\(raw)\" could name more than one question; rename a step or item so that it names one.")
            return nil
        }
        if let match = matches.first { return match }
        if let step = task.step(raw) {
            if case .form = step.kind {
                log.error(path, "\"\(raw)\" is a form; name one of its items as \"\(raw).itemId\".")
            } else {
                log.error(path, "\"\(raw)\" is a \(step.kind.typeName) step, which asks no question and has no answer to test.")
            }
            return nil
        }
        var names: [String] = []
        for step in task.steps {
            switch step.kind {
            case .question: names.append(step.identifier)
            case .form(let content):
                for case .question(let question) in content.items { names.append(step.identifier + "." + question.identifier) }
            default: break
            }
        }
        var message = "\"\(raw)\" names no question of this survey; use \"stepId\" for a question step or \"stepId.itemId\" for a form item."
        if let suggestion = Suggestion.closest(to: raw, in: names) { message += " Did you mean \"\(suggestion)\"?" }
        log.error(path, message)
        return nil
    }

    func checkOrder(_ target: Target, at path: JSONPath, context: PredicateContext) {
        // A parameter is known from the run's start.
        guard target.stepIndex >= 0 else { return }
        let graph = StepGraph(task: task)
        let sourceStep = task.steps[target.stepIndex].identifier
        switch context {
        case .afterStep(let identifier):
            guard let triggerIndex = task.index(of: identifier) else { return }
            if target.stepIndex != triggerIndex, !graph.canReach(from: target.stepIndex, to: triggerIndex) {
                log.warning(path, "This rule can never test \"\(target.selector.raw)\": the step \"\(sourceStep)\" never comes before \"\(identifier)\".")
            }
        case .beforeStep(let identifier):
            guard let skippedIndex = task.index(of: identifier) else { return }
            if target.stepIndex == skippedIndex {
                log.warning(path, "A skip rule is checked on arrival, before \"\(identifier)\" is answered, so it cannot test that step's own answer.")
            } else if !graph.canReach(from: target.stepIndex, to: skippedIndex) {
                log.warning(path, "This skip rule can never test \"\(target.selector.raw)\": the step \"\(sourceStep)\" never comes before \"\(identifier)\".")
            }
        case .formItem(let stepIdentifier, let itemIndex):
            guard let formIndex = task.index(of: stepIdentifier) else { return }
            if target.stepIndex == formIndex {
                if let targetItem = target.itemIndex, targetItem >= itemIndex {
                    log.error(path, "An item can only depend on an item above it in the same form; \"\(target.selector.raw)\" is not above it.")
                }
            } else if !graph.canReach(from: target.stepIndex, to: formIndex) {
                log.warning(path, "This visibility rule can never see \"\(target.selector.raw)\": the step \"\(sourceStep)\" never comes before \"\(stepIdentifier)\".")
            }
        case .unknown:
            break
        }
    }

    func checkFit(_ predicate: Predicate, format: AnswerFormat, at path: JSONPath) {
        let type = format.resultType
        let typeName = format.typeName
        func misfit(_ key: String, _ expectation: String) {
            log.error(path / key, "\"\(key)\" cannot test a \(typeName) answer; \(expectation).")
        }
        switch predicate {
        case .equals(_, let expected):
            switch expected {
            case .bool:
                if type != .boolean { misfit("equals", "true or false tests only a boolean answer") }
            case .number(let number):
                guard [.numeric, .scale, .timeInterval, .ses].contains(type) else {
                    misfit("equals", type == .choice ? "use \"choice\" for a choice answer" : "a number tests only numeric, scale, time interval or ladder answers")
                    return
                }
                if let range = numericRange(of: format), !range.contains(number) {
                    log.warning(path / "equals", "\(JSONWriter.number(number)) is outside the answers this question accepts, so the test never holds.")
                }
            case .string:
                if type != .text { misfit("equals", type == .choice ? "use \"choice\" for a choice answer" : "a string tests only a text answer") }
            }
        case .choice(_, let value):
            guard type == .choice || type == .multipleComponent else {
                misfit("choice", "it tests only choice answers")
                return
            }
            checkChoiceValue(value, format: format, at: path / "choice")
        case .choices(_, let values):
            guard type == .choice || type == .multipleComponent else {
                misfit("choices", "it tests only choice answers")
                return
            }
            for (index, value) in values.enumerated() { checkChoiceValue(value, format: format, at: path / "choices" / index) }
            if case .textChoice(let choiceFormat) = format, choiceFormat.style == .singleChoice {
                log.warning(path / "choices", "A single choice answer holds one value, so a test that all of \(values.count) are chosen never holds.")
            }
        case .matches:
            if ![.text, .choice, .multipleComponent].contains(type) { misfit("matches", "it tests only text and choice answers") }
        case .range(_, let minimum, let maximum):
            let key = minimum != nil ? "minimum" : "maximum"
            switch (minimum, maximum) {
            case (.date?, .number?), (.number?, .date?):
                log.error(path, "\"minimum\" and \"maximum\" must both be numbers or both be dates.")
                return
            default: break
            }
            let isDate: Bool = { if case .date? = minimum { return true }; if case .date? = maximum { return true }; return false }()
            if isDate {
                guard type == .date else { misfit(key, "a date bound tests only a date answer"); return }
                let zone = task.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
                if case .date(let low)? = minimum, case .date(let high)? = maximum,
                   let lowDate = DateTimeParsing.instant(low, defaultZone: zone), let highDate = DateTimeParsing.instant(high, defaultZone: zone), lowDate > highDate {
                    log.error(path / "maximum", "\"maximum\" must not be before \"minimum\".")
                }
            } else {
                guard [.numeric, .scale, .timeInterval, .ses].contains(type) else {
                    misfit(key, type == .date ? "a date answer needs dates as bounds" : "a range tests only numeric, scale, time interval, ladder or date answers")
                    return
                }
                if case .number(let low)? = minimum, case .number(let high)? = maximum, low > high {
                    log.error(path / "maximum", "\"maximum\" (\(JSONWriter.number(high))) must not be less than \"minimum\" (\(JSONWriter.number(low))).")
                    return
                }
                if let range = numericRange(of: format) {
                    if case .number(let low)? = minimum, low > range.upperBound {
                        log.warning(path / "minimum", "No accepted answer reaches \(JSONWriter.number(low)), so the test never holds.")
                    }
                    if case .number(let high)? = maximum, high < range.lowerBound {
                        log.warning(path / "maximum", "No accepted answer is as low as \(JSONWriter.number(high)), so the test never holds.")
                    }
                }
            }
        case .timeRange(_, let minimum, let maximum):
            guard type == .timeOfDay else {
                misfit(minimum != nil ? "minimumTime" : "maximumTime", "it tests only a time of day answer")
                return
            }
            if let low = minimum.flatMap(TimeOfDay.init), let high = maximum.flatMap(TimeOfDay.init), low > high {
                log.error(path / "maximumTime", "\"maximumTime\" must not be before \"minimumTime\"; times are compared within one day.")
            }
        case .isNil:
            break
        case .dontKnow:
            guard let option = format.dontKnow else {
                misfit("dontKnow", "a \(typeName) question offers no \"I don't know\" answer")
                return
            }
            if option.show != true {
                log.warning(path / "dontKnow", "The question does not show a don't-know button (\"showDontKnowButton\"), so this test never holds.")
            }
        case .answered:
            break
        case .compare(_, let operation, let expected):
            checkComparison(operation, expected, format: format, at: path)
        case .not, .all, .any, .expression, .everyInstance:
            break
        }
    }

    func checkChoiceValue(_ value: ChoiceValue, format: AnswerFormat, at path: JSONPath) {
        guard let values = format.choiceValues else { return }
        if case .textChoice(let choiceFormat) = format, choiceFormat.choices.contains(where: { $0.other != nil }) { return }
        if !values.contains(value) {
            var message = "No choice has the value \(value.formValue)"
            if values.contains(where: { $0.formValue == value.formValue }) {
                message += " of this type (a number and a string differ)"
            }
            log.warning(path, message + ", so the test never holds.")
        }
    }

    /// The numbers a question can record, where the format bounds them.
    func numericRange(of format: AnswerFormat) -> ClosedRange<Double>? {
        format.rules.recordedRange
    }
}

extension Predicate {
    /// The same test on a resolved selector.
    func replacingSelector(_ selector: ResultSelector) -> Predicate {
        switch self {
        case .equals(_, let value): return .equals(selector, value)
        case .choice(_, let value): return .choice(selector, value)
        case .choices(_, let values): return .choices(selector, values)
        case .matches(_, let pattern): return .matches(selector, pattern)
        case .range(_, let minimum, let maximum): return .range(selector, minimum: minimum, maximum: maximum)
        case .timeRange(_, let minimum, let maximum): return .timeRange(selector, minimum: minimum, maximum: maximum)
        case .isNil(_, let flag): return .isNil(selector, flag)
        case .dontKnow(_, let flag): return .dontKnow(selector, flag)
        case .answered(_, let flag): return .answered(selector, flag)
        case .compare(_, let operation, let value): return .compare(selector, operation, value)
        case .everyInstance(let inner): return .everyInstance(inner.replacingSelector(selector))
        case .not, .all, .any, .expression: return self
        }
    }
}

