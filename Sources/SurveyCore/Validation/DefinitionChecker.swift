import Foundation
import JSON

/// The author checks of format v1 that need the whole survey: identifiers, ResearchKit's
/// limits for each answer format, rules and predicates against the steps they name, and
/// reachability. Errors stop a survey from loading; warnings do not.
struct DefinitionChecker {
    let task: SurveyTask
    let log: DiagnosticLog


    func check(resolvingInto resolved: inout SurveyTask) {
        checkIdentifiers()
        checkTask()
        for (index, step) in task.steps.enumerated() {
            checkStep(step, at: .root / "steps" / index)
        }
        checkLanguages()
        checkConsent()
        resolved.navigationRules = task.navigationRules.map { entry in
            (entry.stepIdentifier, checkNavigationRule(entry.rule, from: entry.stepIdentifier, at: .root / "navigationRules" / entry.stepIdentifier))
        }
        resolved.skipRules = task.skipRules.map { entry in
            (entry.stepIdentifier, checkSkipRule(entry.predicate, for: entry.stepIdentifier, at: .root / "skipRules" / entry.stepIdentifier))
        }
        for (stepIndex, step) in task.steps.enumerated() {
            guard case .form(var content) = step.kind else { continue }
            for (itemIndex, item) in content.items.enumerated() {
                let path = JSONPath.root / "steps" / stepIndex / "items" / itemIndex / "visibleIf"
                switch item {
                case .question(var question):
                    guard let visibleIf = question.visibleIf else { continue }
                    question.visibleIf = checkVisibility(visibleIf, item: question.identifier, itemIndex: itemIndex, in: step, at: path)
                    content.items[itemIndex] = .question(question)
                case .note(var note):
                    guard let visibleIf = note.visibleIf else { continue }
                    note.visibleIf = checkVisibility(visibleIf, item: "", itemIndex: itemIndex, in: step, at: path)
                    content.items[itemIndex] = .note(note)
                case .section:
                    continue
                }
            }
            resolved.steps[stepIndex].kind = .form(content)
        }
        checkChoiceFilters(resolvingInto: &resolved)
        checkPanel(resolvingInto: &resolved)
        checkExpressions()
        checkBudgets()
        checkReachability()
    }

    // MARK: Identifiers

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isIdentifierStart else { return false }
        return text.unicodeScalars.allSatisfy { $0.isIdentifierStart || $0 == "." || $0 == "_" || $0 == "-" }
    }

    private func checkIdentifier(_ identifier: String, at path: JSONPath, what: String) {
        if log.brokenSteps.contains(identifier) && identifier.hasPrefix("$") { return }
        if identifier.hasPrefix("$") {
            log.error(path, "\(what) \"\(identifier)\" starts with \"$\", which is kept for names such as \"$end\".")
        } else if !Self.isIdentifier(identifier) {
            log.error(path, "\(what) \"\(identifier)\" must start with a letter or digit and hold only letters, digits, \".\", \"_\" and \"-\".")
        }
    }

    private func checkIdentifiers() {
        checkIdentifier(task.identifier, at: .root / "identifier", what: "The survey identifier")
        var seen: [String: Int] = [:]
        for (index, step) in task.steps.enumerated() {
            let path = JSONPath.root / "steps" / index / "identifier"
            checkIdentifier(step.identifier, at: path, what: "The step identifier")
            if let first = seen[step.identifier] {
                log.error(path, "The step identifier \"\(step.identifier)\" is already used by $.steps[\(first)]; step identifiers must be unique.")
            } else {
                seen[step.identifier] = index
            }
            guard case .form(let content) = step.kind else { continue }
            var items: [String: Int] = [:]
            for (itemIndex, item) in content.items.enumerated() {
                guard case .question(let question) = item else { continue }
                let itemPath = JSONPath.root / "steps" / index / "items" / itemIndex / "identifier"
                checkIdentifier(question.identifier, at: itemPath, what: "The item identifier")
                if let first = items[question.identifier] {
                    log.error(itemPath, "The item identifier \"\(question.identifier)\" is already used by $.steps[\(index)].items[\(first)] in this form.")
                } else {
                    items[question.identifier] = itemIndex
                }
            }
            for (itemIndex, item) in content.items.enumerated() {
                guard case .question(let question) = item else { continue }
                for suffix in AnswerFields.reservedParts.sorted() {
                    guard question.identifier.hasSuffix("." + suffix) else { continue }
                    let base = String(question.identifier.dropLast(suffix.count + 1))
                    if items[base] != nil {
                        log.error(JSONPath.root / "steps" / index / "items" / itemIndex / "identifier",
                                  "The item identifier \"\(question.identifier)\" would share a form field with item \"\(base)\"; choose another.")
                    }
                }
            }
        }
    }

    // MARK: Task and steps

    private func checkTask() {
        if let zone = task.timeZone, TimeZone(identifier: zone) == nil {
            log.error(.root / "timeZone", "\"\(zone)\" is not an IANA time zone such as \"Europe/Paris\".")
        }
        if let languages = task.languages {
            var seen = Set<String>()
            for (index, language) in languages.enumerated() where !seen.insert(language.lowercased()).inserted {
                log.error(.root / "languages" / index, "The language \"\(language)\" is listed twice.")
            }
        }
        if !task.steps.isEmpty, task.steps.allSatisfy({ if case .review = $0.kind { return true } else { return false } }) {
            log.warning(.root / "steps", "The survey has only review steps and so nothing to review.")
        }
    }

    private func checkStep(_ step: Step, at path: JSONPath) {
        if let image = step.image {
            formatChecks.publicPath(image, at: path / "image")
            if step.imageAlt == nil {
                log.error(path / "imageAlt", "The step's image needs \"imageAlt\", the text read out to people who cannot see it.")
            }
        } else if step.imageAlt != nil {
            log.warning(path / "imageAlt", "\"imageAlt\" is given but the step has no \"image\".")
        }
        switch step.kind {
        case .question(let content):
            checkFormat(content.answerFormat, at: path / "answerFormat")
        case .form(let content):
            var questions = 0
            for (index, item) in content.items.enumerated() {
                guard case .question(let question) = item else { continue }
                questions += 1
                checkFormat(question.answerFormat, at: path / "items" / index / "answerFormat")
            }
            if questions == 0, !log.brokenSteps.contains(step.identifier) {
                log.error(path / "items", "A form needs at least one item with an answer format; this one has only section headers.")
            }
            checkForm(content, of: step, at: path)
        case .videoInstruction(let content):
            if content.videoURL == nil {
                log.warning(path, "A videoInstruction step without \"videoURL\" shows no video.")
            }
            for (key, url) in [("videoURL", content.videoURL), ("captionsURL", content.captionsURL)] {
                if let url { formatChecks.publicPath(url, at: path / key, allowRemote: true) }
            }
        case .visualConsent, .consentSharing, .consentReview:
            checkConsentStep(step, at: path)
        case .instruction, .completion, .review, .allocation:
            break
        }
    }

    /// The checks formats share, with the survey's zone.
    private var formatChecks: FormatChecks {
        FormatChecks(log: log, timeZone: task.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!)
    }

    // MARK: Languages

    private func checkLanguages() {
        guard let languages = task.languages, !languages.isEmpty else {
            return
        }
        let declared = Set(languages.map { $0.lowercased() })
        for (path, text) in log.texts where text.universal == nil {
            let present = Set(text.translations.map { $0.language.lowercased() })
            for entry in text.translations where !declared.contains(entry.language.lowercased()) {
                log.error(path / entry.language, "The language \"\(entry.language)\" is not in the survey's \"languages\" (\(languages.joined(separator: ", "))).")
            }
            let missing = languages.filter { !present.contains($0.lowercased()) }
            if !missing.isEmpty {
                log.warning(path, "No text for \(missing.joined(separator: ", ")); those participants will see \(text.translations.first?.language ?? "another language").")
            }
        }
    }

    // MARK: Answer formats

    private func checkFormat(_ format: AnswerFormat, at path: JSONPath) {
        format.rules.check(formatChecks, at: path)
        if let dontKnow = format.dontKnow, dontKnow.buttonText != nil, dontKnow.show != true {
            log.warning(path / "customDontKnowButtonText", "\"customDontKnowButtonText\" has no effect unless \"showDontKnowButton\" is true.")
        }
    }

    // MARK: Reachability

    private func checkReachability() {
        guard !task.steps.isEmpty else { return }
        let graph = StepGraph(task: task)
        let reachable = graph.reachable(from: 0)
        for (index, step) in task.steps.enumerated() where !reachable.contains(index) {
            log.warning(.root / "steps" / index, "The step \"\(step.identifier)\" can never be reached: no step or rule leads to it.")
        }
        for entry in task.navigationRules {
            guard case .predicate(let rules, _) = entry.rule, rules.count > 1 else { continue }
            var seen: [Predicate: Int] = [:]
            for (index, rule) in rules.enumerated() {
                if let first = seen[rule.predicate] {
                    log.warning(.root / "navigationRules" / entry.stepIdentifier / "rules" / index,
                                "This rule repeats the test of rule \(first), which always wins, so it never fires.")
                } else {
                    seen[rule.predicate] = index
                }
            }
        }
    }
}

extension Unicode.Scalar {
    fileprivate var isIdentifierStart: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}

