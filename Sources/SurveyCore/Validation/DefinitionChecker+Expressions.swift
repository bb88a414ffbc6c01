import FHIRPath
import Foundation
import JSON

// Checks of the keys format v1 gains for FHIR questionnaires (docs/fhir.md): every FHIRPath
// expression parses within the supported subset and names only variables in scope, a
// `compare` fits its question, and an `initial` value is one the question could record.

extension DefinitionChecker {
    /// The variables every expression may use besides the survey's own.
    static let environmentNames: Set<String> = ["resource", "questionnaire", "context", "rootResource"]

    /// Parses an expression, reporting the fault with its position; `names` are the variables in scope.
    @discardableResult
    func checkExpression(_ source: String, at path: JSONPath, names: Set<String>? = nil) -> Bool {
        let parsed: FHIRPathExpression
        do {
            parsed = try FHIRPathExpression(source)
        } catch {
            log.error(path, "The FHIRPath expression \"\(source)\" cannot be used: \(error.description)")
            return false
        }
        let inScope = (names ?? Set(allVariableNames)).union(Self.environmentNames)
        for name in parsed.variableNames.sorted() where !inScope.contains(name) {
            log.error(path, "The FHIRPath expression \"\(source)\" uses %\(name), which is not a variable in scope here.")
            return false
        }
        return true
    }

    /// Every variable name of the survey, for expressions whose scope is the whole survey.
    var allVariableNames: [String] {
        var names = task.variables.map(\.name)
        for step in task.steps {
            names += step.variables.map(\.name)
            for question in step.questions { names += question.behaviour.variables.map(\.name) }
        }
        return names
    }

    /// Variables, computed answers and initial values of every step and question.
    func checkExpressions() {
        var scope = Set<String>()
        for (index, variable) in task.variables.enumerated() {
            checkExpression(variable.expression, at: .root / "variables" / index / "expression", names: scope)
            scope.insert(variable.name)
        }
        for (stepIndex, step) in task.steps.enumerated() {
            let stepPath = JSONPath.root / "steps" / stepIndex
            var stepScope = scope
            for (index, variable) in step.variables.enumerated() {
                checkExpression(variable.expression, at: stepPath / "variables" / index / "expression", names: stepScope)
                stepScope.insert(variable.name)
            }
            switch step.kind {
            case .question(let content):
                checkBehaviour(content.behaviour, format: content.answerFormat, at: stepPath, scope: stepScope)
            case .form(let content):
                for (itemIndex, item) in content.items.enumerated() {
                    guard case .question(let question) = item else { continue }
                    let itemPath = stepPath / "items" / itemIndex
                    var itemScope = stepScope
                    for (index, variable) in question.behaviour.variables.enumerated() {
                        checkExpression(variable.expression, at: itemPath / "variables" / index / "expression", names: itemScope)
                        itemScope.insert(variable.name)
                    }
                    checkBehaviour(question.behaviour, format: question.answerFormat, at: itemPath, scope: itemScope)
                }
            default:
                break
            }
        }
    }

    private func checkBehaviour(_ behaviour: QuestionBehaviour, format: AnswerFormat, at path: JSONPath, scope: Set<String>) {
        for entry in behaviour.expressions {
            checkExpression(entry.source, at: path / entry.key, names: scope)
        }
        if behaviour.calculatedExpression != nil, behaviour.initial != nil || behaviour.initialExpression != nil {
            log.warning(path / "calculatedExpression", "A calculated answer is always worked out, so its initial value is never shown.")
        }
        if let initial = behaviour.initial, AnswerConversion.answer(fromJSON: initial, format: format) == nil {
            log.error(path / "initial", "\"initial\" is not an answer this \(format.typeName) question could record.")
        }
        if behaviour.hidden == true, behaviour.readOnly == false {
            log.warning(path / "readOnly", "A hidden question is never edited, so \"readOnly\": false has no effect.")
        }
    }

    /// A `compare` value fits the question: numbers for numbers, dates and times as text, choices by value.
    func checkComparison(_ operation: ComparisonOperator, _ expected: ExpectedValue, format: AnswerFormat, at path: JSONPath) {
        let type = format.resultType
        let ordered = ![ComparisonOperator.equal, .notEqual].contains(operation)
        func misfit(_ expectation: String) {
            log.error(path / "value", "\"value\" cannot be compared with a \(format.typeName) answer; \(expectation).")
        }
        switch expected {
        case .bool:
            if type != .boolean { misfit("true or false compares only with a boolean answer") }
            if ordered { log.error(path / "compare", "A boolean answer is compared only with \"=\" or \"!=\".") }
        case .number(let number):
            if type == .choice || type == .multipleComponent {
                checkChoiceValue(.number(number), format: format, at: path / "value")
            } else if ![.numeric, .scale, .timeInterval, .ses].contains(type) {
                misfit("a number compares only with numeric, scale, time interval, ladder or choice answers")
            }
        case .string(let text):
            switch type {
            case .choice, .multipleComponent:
                checkChoiceValue(.string(text), format: format, at: path / "value")
            case .date:
                if CalendarDate(text) == nil, DateTimeParsing.instant(text, defaultZone: TimeZone(identifier: "UTC")!) == nil,
                   !FHIRTemporalOrder.isDate(text) {
                    misfit("a date answer compares with \"YYYY-MM-DD\" (or \"YYYY\", \"YYYY-MM\") or an ISO 8601 date-time")
                }
            case .timeOfDay:
                if TimeOfDay(String(text.prefix(5))) == nil { misfit("a time of day compares with \"HH:mm\"") }
            case .text:
                break
            default:
                misfit("a string compares only with text, choice, date and time answers")
            }
        }
    }
}
