import Foundation
import SurveyCore

// The run columns of a panel study: each parameter the survey takes, named as the parameter,
// then the order each run drew for each block and each shuffled question (docs/panels.md).
extension Codebook {
    /// What an order column holds between its values.
    static let orderSeparator = "|"

    static func panelColumns(_ tasks: [SurveyTask]) -> [CodebookEntry] {
        var entries: [CodebookEntry] = []
        var named = Set<String>()
        func add(_ entry: CodebookEntry) {
            if named.insert(entry.name).inserted { entries.append(entry) }
        }
        for task in tasks {
            for parameter in task.parameters {
                add(entry(parameter.name, "The value of the address parameter \(parameter.name) the run started with", "parameter", .text,
                          note: formulaNote))
            }
        }
        for task in tasks {
            for block in task.blocks {
                add(entry(orderColumn(block.identifier), "The order the run took the steps of the block \(block.identifier) in, separated by |",
                          "order", .text))
            }
            for step in task.steps {
                for question in step.questions where question.answerFormat.shuffles {
                    let key = Navigator.orderKey(step: step, question: question.identifier)
                    add(entry(orderColumn(key), "The order the run showed the choices of \(key) in, as their values separated by |",
                              "order", .text, note: formulaNote))
                }
            }
        }
        return entries
    }

    /// The column of a block's or a shuffled question's order.
    static func orderColumn(_ key: String) -> String { key + "__order" }

    /// A run's values in the panel columns, by column name.
    static func panelValues(_ run: TaskRun, task: SurveyTask) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in run.parameters ?? [:] { values[name] = CSV.protected(value) }
        for block in task.blocks {
            guard let order = run.blockOrders?[block.identifier] else { continue }
            values[orderColumn(block.identifier)] = order.compactMap { block.steps.indices.contains($0) ? block.steps[$0] : nil }
                .joined(separator: orderSeparator)
        }
        for step in task.steps {
            for question in step.questions {
                guard let format = question.answerFormat.shuffledChoices else { continue }
                let key = Navigator.orderKey(step: step, question: question.identifier)
                guard let order = run.choiceOrders?[key] else { continue }
                values[orderColumn(key)] = CSV.protected(order.compactMap {
                    format.choices.indices.contains($0) ? format.choices[$0].value.formValue : nil
                }.joined(separator: orderSeparator))
            }
        }
        return values
    }
}
