import Foundation
import JSON

// What a run draws at its start (choice and block orders), where a block's steps lead, the
// allocation steps that wait for an arm, and the quotas a run meets (docs/panels.md).
extension Navigator {
    /// A new run at its first step with its parameters, its choice and block orders drawn
    /// from a generator seeded by its identifier, so the same identifier draws the same orders.
    public func start(uuid: UUID, now: Date, parameters: [String: String]) -> TaskRun {
        var generator = SeededGenerator(seed: uuid)
        var run = TaskRun(taskIdentifier: task.identifier, taskRunUUID: uuid, startDate: now)
        run.parameters = parameters.isEmpty ? nil : parameters
        var choiceOrders: [String: [Int]] = [:]
        for step in task.steps {
            for question in step.questions {
                guard let format = question.answerFormat.shuffledChoices else { continue }
                choiceOrders[Self.orderKey(step: step, question: question.identifier)] = format.drawOrder(using: &generator)
            }
        }
        run.choiceOrders = choiceOrders.isEmpty ? nil : choiceOrders
        var blockOrders: [String: [Int]] = [:]
        for block in task.blocks { blockOrders[block.identifier] = Array(block.steps.indices).shuffled(using: &generator) }
        run.blockOrders = blockOrders.isEmpty ? nil : blockOrders
        begin(&run, now: now)
        return run
    }

    /// The run's parameters, and the orders it drew as choice values and step identifiers, in its result.
    func addPanel(of run: TaskRun, to result: inout TaskResult) {
        result.parameters = run.parameters
        if let orders = run.choiceOrders {
            var shown: [String: [ChoiceValue]] = [:]
            for (key, order) in orders {
                guard let format = task.answer(named: key)?.format.shuffledChoices else { continue }
                shown[key] = order.compactMap { format.choices.indices.contains($0) ? format.choices[$0].value : nil }
            }
            result.choiceOrders = shown
        }
        if let orders = run.blockOrders {
            var shown: [String: [String]] = [:]
            for block in task.blocks {
                shown[block.identifier] = orders[block.identifier]?.compactMap { block.steps.indices.contains($0) ? block.steps[$0] : nil }
            }
            result.blockOrders = shown
        }
    }

    /// The key of a question's choice order: its selector (`stepId`, or `stepId.itemId` in a form).
    public static func orderKey(step: Step, question: String) -> String {
        if case .form = step.kind { return step.identifier + "." + question }
        return step.identifier
    }

    /// The step after `current` (nil: the start) when no rule says otherwise: the next one
    /// written, or within a block the next in the run's order of it.
    func successor(of current: Int?, orders: [String: [Int]]?) -> Int? {
        func entering(_ index: Int) -> Int? {
            guard index < task.steps.count else { return nil }
            if let place = blockPlaces[index], place.position == 0, let order = orders?[task.blocks[place.block].identifier],
               let first = order.first {
                return blockMembers[place.block][first]
            }
            return index
        }
        guard let current else { return entering(0) }
        if let place = blockPlaces[current], let order = orders?[task.blocks[place.block].identifier],
           let shownAt = order.firstIndex(of: place.position) {
            let members = blockMembers[place.block]
            if shownAt + 1 < order.count { return members[order[shownAt + 1]] }
            return entering(members[members.count - 1] + 1)
        }
        return entering(current + 1)
    }

    /// The allocation step the run stands on with no arm yet: the server assigns one and goes on.
    public func pendingAllocation(_ run: TaskRun) -> (step: Step, design: AllocationContent)? {
        guard !run.isFinished, let step = currentStep(run), let design = step.allocation, run.arms?[step.identifier] == nil else { return nil }
        return (step, design)
    }

    /// Records the arm of the allocation step the run stands on and moves on past it.
    public func assign(arm: String, in run: TaskRun, now: Date) -> TaskRun {
        guard let (step, _) = pendingAllocation(run) else { return run }
        var run = run
        run.arms = (run.arms ?? [:]).merging([step.identifier: arm]) { _, new in new }
        passOverSilentSteps(&run, now: now)
        return run
    }

    /// The quotas whose condition the run's answers so far meet.
    public func quotasMet(by run: TaskRun, now: Date) -> [Quota] {
        guard !task.quotas.isEmpty else { return [] }
        let result = result(of: run, now: now)
        return task.quotas.filter { $0.when.evaluate(on: result, timeZone: timeZone, expression: judge(result, step: nil)) }
    }

    /// The stratum of a run at an allocation step, on its answers so far.
    public func stratum(of run: TaskRun, design: AllocationContent, now: Date) -> String {
        design.strata.isEmpty ? "" : design.stratum(of: result(of: run, now: now))
    }
}
