import Foundation
import JSON

/// Reads what panels and labs need: parameters, redirects, blocks, quotas, allocation steps.
extension SurveyDecoding {
    struct PanelKeys {
        var parameters: [SurveyParameter] = []
        var completionRedirect: PanelRedirect?
        var screenOutRedirect: PanelRedirect?
        var redirectHosts: [String] = []
        var blocks: [StepBlock] = []
        var quotas: [Quota] = []

        func apply(to task: inout SurveyTask) {
            task.parameters = parameters
            task.completionRedirect = completionRedirect
            task.screenOutRedirect = screenOutRedirect
            task.redirectHosts = redirectHosts
            task.blocks = blocks
            task.quotas = quotas
        }
    }

    func panelKeys(_ reader: ObjectReader) -> PanelKeys {
        var keys = PanelKeys()
        for element in reader.array("parameters") ?? [] {
            guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "A parameter") else { continue }
            let name = entry.string("name", required: true, nonEmpty: true)
            let required = entry.bool("required") ?? false
            let pattern = entry.string("pattern", nonEmpty: true)
            let maxLength = entry.integer("maxLength")
            entry.finish("A parameter")
            if let name { keys.parameters.append(SurveyParameter(name: name, required: required, pattern: pattern, maxLength: maxLength ?? 100)) }
        }
        keys.completionRedirect = redirect(reader, "completionRedirect")
        keys.screenOutRedirect = redirect(reader, "screenOutRedirect")
        for element in reader.array("redirectHosts") ?? [] {
            guard case .string(let host) = element.value, !host.isEmpty else {
                log.error(element.path, "Each redirect host must be a host name such as \"app.prolific.com\".")
                continue
            }
            keys.redirectHosts.append(host.lowercased())
        }
        for element in reader.array("blocks") ?? [] {
            guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "A block") else { continue }
            let identifier = entry.string("identifier", required: true, nonEmpty: true)
            let steps = entry.array("steps", required: true, minimumCount: 2)?.compactMap { step -> String? in
                guard case .string(let name) = step.value else {
                    log.error(step.path, "Each of a block's steps is a step identifier, a string.")
                    return nil
                }
                return name
            }
            entry.finish("A block")
            if let identifier, let steps { keys.blocks.append(StepBlock(identifier: identifier, steps: steps)) }
        }
        for element in reader.array("quotas") ?? [] {
            guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "A quota") else { continue }
            let identifier = entry.string("identifier", required: true, nonEmpty: true)
            let limit = entry.integer("limit", required: true)
            let when = entry.value("when", required: true).flatMap { predicate($0, at: element.path / "when") }
            entry.finish("A quota")
            if let limit, limit < 0 { log.error(element.path / "limit", "A quota's \"limit\" is a count of runs, 0 or more.") }
            if let identifier, let limit, let when { keys.quotas.append(Quota(identifier: identifier, limit: limit, when: when)) }
        }
        return keys
    }

    private func redirect(_ reader: ObjectReader, _ key: String) -> PanelRedirect? {
        guard let entry = reader.objectReader(key, what: "\"\(key)\"") else { return nil }
        let url = entry.string("url", required: true, nonEmpty: true)
        let code = entry.string("code", nonEmpty: true)
        entry.finish("\"\(key)\"")
        return url.map { PanelRedirect(url: $0, code: code) }
    }

    func allocation(_ reader: ObjectReader) -> AllocationContent? {
        var arms: [AllocationContent.Arm] = []
        let elements = reader.array("arms", required: true, minimumCount: 2)
        for element in elements ?? [] {
            guard let entry = ObjectReader(element.value, at: element.path, log: log, what: "An arm") else { continue }
            let value = entry.string("value", required: true, nonEmpty: true)
            let weight = entry.integer("weight")
            let text = entry.text("text")
            entry.finish("An arm")
            if let weight, weight < 1 { log.error(element.path / "weight", "An arm's \"weight\" is a whole number, 1 or more.") }
            if let value { arms.append(AllocationContent.Arm(value: value, weight: max(weight ?? 1, 1), text: text)) }
        }
        let method = reader.enumeration("method", AllocationContent.Method.self)
        let blockSize = reader.integer("blockSize")
        let strata = reader.array("strata")?.compactMap { element -> ResultSelector? in
            guard case .string(let raw) = element.value, !raw.isEmpty else {
                log.error(element.path, "Each stratum names an answer or parameter as a rule's \"result\" does: \"stepId\", \"stepId.itemId\" or \"parameters.NAME\".")
                return nil
            }
            return ResultSelector(raw)
        } ?? []
        let participant = reader.string("participantParameter", nonEmpty: true)
        guard let elements, arms.count == elements.count else { return nil }
        return AllocationContent(arms: arms, method: method ?? .permutedBlocks, blockSize: blockSize, strata: strata,
                                 participantParameter: participant)
    }
}
