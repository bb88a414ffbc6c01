import Foundation
import JSON

/// The checks of what panels and labs need: parameters, redirects, blocks, quotas, allocation
/// steps, and piped text (docs/panels.md).
extension DefinitionChecker {
    func checkPanel(resolvingInto resolved: inout SurveyTask) {
        checkParameters()
        checkRedirects()
        checkBlocks()
        for (index, quota) in task.quotas.enumerated() {
            let path = JSONPath.root / "quotas" / index
            if task.quotas.prefix(index).contains(where: { $0.identifier == quota.identifier }) {
                log.error(path / "identifier", "The quota identifier \"\(quota.identifier)\" is used twice; quota identifiers must be unique.")
            }
            resolved.quotas[index].when = checkPredicate(quota.when, at: path / "when", context: .unknown)
        }
        for (index, step) in task.steps.enumerated() {
            guard let design = step.allocation else { continue }
            resolved.steps[index].kind = .allocation(checkAllocation(design, step: index, at: .root / "steps" / index))
        }
        checkPiping(resolved: resolved)
    }

    private func checkParameters() {
        var seen = Set<String>()
        if task.parameters.count > SurveyParameter.countLimit {
            log.error(.root / "parameters", "A survey takes at most \(SurveyParameter.countLimit) parameters.")
        }
        for (index, parameter) in task.parameters.enumerated() {
            let path = JSONPath.root / "parameters" / index
            if !Self.isIdentifier(parameter.name) {
                log.error(path / "name", "The parameter name \"\(parameter.name)\" must start with a letter or digit and hold only letters, digits, \".\", \"_\" and \"-\".")
            }
            if SurveyParameter.reservedNames.contains(parameter.name) {
                log.error(path / "name", "\"\(parameter.name)\" is read by the server itself (the page's language); name the parameter otherwise.")
            }
            if task.index(of: parameter.name) != nil {
                log.error(path / "name", "\"\(parameter.name)\" is also a step's identifier; the exports name a column after each, so they must differ.")
            }
            if !seen.insert(parameter.name).inserted {
                log.error(path / "name", "The parameter \"\(parameter.name)\" is declared twice.")
            }
            if let pattern = parameter.pattern, !BoundedRegex.compiles(pattern) {
                log.error(path / "pattern", "\"\(pattern)\" is not a regular expression ICU can read.")
            }
            if parameter.maxLength < 1 || parameter.maxLength > SurveyParameter.lengthLimit {
                log.error(path / "maxLength", "\"maxLength\" must be between 1 and \(SurveyParameter.lengthLimit).")
            }
        }
        if !task.parameters.isEmpty, let index = task.index(of: SurveyParameter.selectorStep) {
            log.error(.root / "steps" / index / "identifier",
                      "A survey with parameters names them \"parameters.NAME\" in rules and piped text, so no step may be called \"parameters\".")
        }
    }

    private func checkRedirects() {
        for (key, redirect) in [("completionRedirect", task.completionRedirect), ("screenOutRedirect", task.screenOutRedirect)] {
            guard let redirect else { continue }
            let path = JSONPath.root / key / "url"
            guard let host = redirect.host else {
                log.error(path, "\"url\" must be an absolute https or http address with a host and no user name or password.")
                continue
            }
            if !task.redirectHosts.contains(host) {
                log.error(path, "The host \"\(host)\" is not in \"redirectHosts\"; list every host the survey may send participants to.")
            }
            for name in redirect.placeholders where name != "runId" && name != "code" && task.parameter(name) == nil {
                log.error(path, "\"{\(name)}\" is neither a declared parameter nor {runId} or {code}.")
            }
            if redirect.placeholders.contains("code"), redirect.code == nil {
                log.error(.root / key / "code", "The address uses {code} but no \"code\" is given.")
            }
        }
        if task.screenOutRedirect == nil, !task.quotas.isEmpty || task.steps.contains(where: { $0.screensOut == true }) {
            if task.completionRedirect != nil {
                log.warning(.root / "screenOutRedirect", "The survey can screen participants out but has no \"screenOutRedirect\"; they will see the thank-you page.")
            }
        }
        for (index, step) in task.steps.enumerated() where step.screensOut != nil && !step.isCompletion {
            log.error(.root / "steps" / index / "screensOut", "Only a completion step can screen out.")
        }
    }

    private func checkBlocks() {
        var owner: [String: String] = [:]
        for (index, block) in task.blocks.enumerated() {
            let path = JSONPath.root / "blocks" / index
            if task.index(of: block.identifier) != nil {
                log.error(path / "identifier", "\"\(block.identifier)\" is also a step's identifier; name the block otherwise.")
            }
            if task.blocks.prefix(index).contains(where: { $0.identifier == block.identifier }) {
                log.error(path / "identifier", "The block identifier \"\(block.identifier)\" is used twice.")
            }
            var positions: [Int] = []
            for (position, identifier) in block.steps.enumerated() {
                let stepPath = path / "steps" / position
                guard let stepIndex = task.index(of: identifier) else {
                    log.error(stepPath, "\"\(identifier)\" names no step of this survey.")
                    continue
                }
                if let other = owner[identifier] {
                    log.error(stepPath, "The step \"\(identifier)\" is already in the block \"\(other)\"; a step belongs to one block at most.")
                }
                owner[identifier] = block.identifier
                switch task.steps[stepIndex].kind {
                case .instruction, .question, .form, .videoInstruction: break
                default:
                    log.error(stepPath, "A block holds instruction, question, form and video steps; \"\(identifier)\" is a \(task.steps[stepIndex].kind.typeName) step.")
                }
                if task.navigationRule(for: identifier) != nil {
                    log.error(stepPath, "The step \"\(identifier)\" has a navigation rule; a block's steps follow the run's order of them, so none may have one.")
                }
                positions.append(stepIndex)
            }
            if positions.count == block.steps.count, positions != Array((positions.first ?? 0)..<((positions.first ?? 0) + positions.count)) {
                log.error(path / "steps", "A block's steps must be consecutive steps of the survey, listed in their written order.")
            }
        }
        for entry in task.navigationRules {
            for case .step(let target)? in entry.rule.possibleDestinations where owner[target] != nil {
                log.error(.root / "navigationRules" / entry.stepIdentifier,
                          "A rule cannot lead into the block \"\(owner[target]!)\": its steps come in the run's own order. Lead to the step before or after it.")
            }
        }
    }

    private func checkAllocation(_ design: AllocationContent, step index: Int, at path: JSONPath) -> AllocationContent {
        var design = design
        for (armIndex, arm) in design.arms.enumerated() where design.arms.prefix(armIndex).contains(where: { $0.value == arm.value }) {
            log.error(path / "arms" / armIndex / "value", "The arm \"\(arm.value)\" is listed twice.")
        }
        switch design.method {
        case .permutedBlocks:
            if let size = design.blockSize, size < 1 || size % max(design.totalWeight, 1) != 0 || size > 1_000 {
                log.error(path / "blockSize", "\"blockSize\" must be a multiple of the arms' total weight (\(design.totalWeight)), at most 1000.")
            }
        case .simple:
            if design.blockSize != nil { log.warning(path / "blockSize", "\"blockSize\" only matters with \"method\": \"permutedBlocks\".") }
        }
        if let name = design.participantParameter, task.parameter(name) == nil {
            log.error(path / "participantParameter", "\"\(name)\" is not one of the survey's parameters.")
        }
        design.strata = design.strata.enumerated().map { position, selector in
            resolvePipedSelector(selector.raw, at: path / "strata" / position)?.selector ?? selector
        }
        let shownBefore = task.steps.prefix(index).contains { !$0.showsNothing }
        if !shownBefore {
            log.error(path, "An allocation step must come after a step the participant sees: the arm is drawn once the run has started.")
        }
        return design
    }

    // MARK: Piping

    /// What a placeholder or stratum names: a question (with the step it is on), or a parameter.
    struct PipedTarget {
        let selector: ResultSelector
        /// The step of the answer; nil for a parameter.
        let stepIndex: Int?
        let question: Step.Question?
        /// The form item's position in its step, for a form item.
        var itemIndex: Int?
    }

    func resolvePipedSelector(_ raw: String, at path: JSONPath) -> PipedTarget? {
        if let name = SurveyParameter.name(inSelector: raw) {
            guard task.parameter(name) != nil else {
                log.error(path, "\"\(name)\" is not one of the survey's parameters.")
                return nil
            }
            return PipedTarget(selector: ResultSelector(step: SurveyParameter.selectorStep, item: name), stepIndex: nil, question: nil)
        }
        if let index = task.index(of: raw), let design = task.steps[index].allocation {
            return PipedTarget(selector: ResultSelector(step: raw, item: nil), stepIndex: index,
                               question: Step.Question(identifier: raw, answerFormat: design.format, isOptional: false, visibleIf: nil))
        }
        guard let target = resolve(ResultSelector(raw), at: path) else { return nil }
        let step = task.steps[target.stepIndex]
        return PipedTarget(selector: target.selector, stepIndex: target.stepIndex,
                           question: step.questions.first { $0.identifier == target.selector.resultIdentifier }, itemIndex: target.itemIndex)
    }

    /// Every placeholder must name an answer given before its step; one that may be missing
    /// on some path needs a fallback (and is then a warning).
    private func checkPiping(resolved: SurveyTask) {
        let graph = StepGraph(task: task)
        var blockOf: [Int: String] = [:]
        for block in task.blocks { for identifier in block.steps { if let index = task.index(of: identifier) { blockOf[index] = block.identifier } } }
        for (path, text) in log.texts {
            for fragment in text.allTexts {
                for (_, placeholder) in Placeholder.find(in: fragment) {
                    guard let target = resolvePipedSelector(placeholder.selector, at: path) else { continue }
                    switch absence(of: target, at: Self.stepIndex(of: path), item: Self.itemIndex(of: path), graph: graph, blockOf: blockOf, resolved: resolved) {
                    case nil:
                        break
                    case .never(let reason)?:
                        log.error(path, "\"\(placeholder.source)\" \(reason).")
                    case .perhaps(let reason)? where placeholder.fallback == nil:
                        log.error(path, "\"\(placeholder.source)\" \(reason); give a fallback, as \"${\(placeholder.selector)|…}\".")
                    case .perhaps(let reason)?:
                        log.warning(path, "\"\(placeholder.source)\" \(reason), and then shows its fallback.")
                    }
                }
            }
        }
    }

    /// Why a piped answer is missing where it is shown: never there, or perhaps not.
    enum Absence {
        case never(String)
        case perhaps(String)
    }

    private func absence(of target: PipedTarget, at stepIndex: Int?, item: Int?, graph: StepGraph, blockOf: [Int: String],
                         resolved: SurveyTask) -> Absence? {
        guard let source = target.stepIndex else {
            let parameter = target.selector.itemIdentifier.flatMap(task.parameter)
            return parameter?.required == true ? nil : .perhaps("names an optional parameter, which a run may not have")
        }
        guard let shownAt = stepIndex else { return .never("is in a text that belongs to no step, where no answer is known yet") }
        if source == shownAt {
            // An item of an earlier page of the same form is answered when a later page shows
            // (the pages as the loaded survey splits them, its rules' selectors resolved).
            guard let item, case .form(let content) = resolved.steps[source].kind, let targetItem = target.itemIndex,
                  let pages = Optional(FormLayout.pages(of: content.items, in: task.steps[source].identifier)),
                  let targetPage = pages.firstIndex(where: { $0.contains(targetItem) }), let textPage = pages.firstIndex(where: { $0.contains(item) }),
                  targetPage < textPage else {
                return .never("names an answer of its own step, which is not given yet when the step shows")
            }
            return target.question?.isOptional != false || target.question?.visibleIf != nil
                ? .perhaps("names a question the participant may leave unanswered") : nil
        }
        if task.steps[source].repeating != nil, target.selector.itemIdentifier != nil {
            return .never("names an item of a repeating form, which has an answer per instance; outside the form, pipe their count as \"${\(target.selector.stepIdentifier)}\"")
        }
        if let block = blockOf[source], blockOf[shownAt] == block {
            return .perhaps("names a step of the same block, which a run may take after this one")
        }
        if !graph.dominates(source, shownAt) { return .perhaps("names a step that does not come before this one on every path") }
        let step = task.steps[source]
        if step.allocation != nil { return nil }
        // A repeating form's count is known once its list is done.
        if step.repeating != nil, task.skipRule(for: step.identifier) == nil { return nil }
        if task.skipRule(for: step.identifier) != nil { return .perhaps("names a step a skip rule may pass over") }
        if step.isOptional || target.question?.isOptional != false || target.question?.visibleIf != nil {
            return .perhaps("names a question the participant may leave unanswered")
        }
        return nil
    }

    /// The form item a text belongs to, from its path (`$.steps[3].items[2]…`).
    static func itemIndex(of path: JSONPath) -> Int? {
        guard path.components.count >= 4, path.components[2] == .key("items"), case .index(let index) = path.components[3] else { return nil }
        return index
    }

    /// The step a text belongs to, from its path (`$.steps[3]…`).
    static func stepIndex(of path: JSONPath) -> Int? {
        guard path.components.count >= 2, path.components[0] == .key("steps"), case .index(let index) = path.components[1] else { return nil }
        return index
    }
}
