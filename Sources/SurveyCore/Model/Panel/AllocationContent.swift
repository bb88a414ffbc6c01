import Foundation
import JSON

/// An allocation step: it shows nothing, and assigns the run to one of several arms when the
/// run reaches it, on the server, with weights, by simple or permuted block randomization,
/// optionally within strata of earlier answers or parameters. The arm is the step's answer.
public struct AllocationContent: Sendable, Hashable {
    public struct Arm: Sendable, Hashable {
        public var value: String
        public var weight: Int
        /// What piped text shows for the arm; its value when absent.
        public var text: LocalizedText?

        public init(value: String, weight: Int = 1, text: LocalizedText? = nil) {
            self.value = value
            self.weight = weight
            self.text = text
        }
    }

    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// Each run drawn independently with the arms' weights.
        case simple
        /// Blocks holding each arm `weight × blockSize / total weight` times, in an order drawn
        /// per block: every finished block is exactly balanced.
        case permutedBlocks
    }

    public var arms: [Arm]
    public var method: Method
    /// The size of a permuted block: a multiple of the arms' total weight (that total when absent).
    public var blockSize: Int?
    /// Earlier answers and parameters whose values each have their own sequence of blocks.
    public var strata: [ResultSelector]
    /// A parameter naming the panel participant: starting again gives them the arm they had.
    public var participantParameter: String?

    public init(arms: [Arm], method: Method = .permutedBlocks, blockSize: Int? = nil, strata: [ResultSelector] = [],
                participantParameter: String? = nil) {
        self.arms = arms
        self.method = method
        self.blockSize = blockSize
        self.strata = strata
        self.participantParameter = participantParameter
    }

    public var totalWeight: Int { arms.reduce(0) { $0 + $1.weight } }

    /// The size of a block as drawn.
    public var effectiveBlockSize: Int { blockSize ?? totalWeight }

    /// The arm's answer as a choice question records it, so rules, piping and exports read it as any choice.
    public var format: AnswerFormat {
        .textChoice(TextChoiceFormat(style: .singleChoice, choices: arms.map {
            TextChoice(text: $0.text ?? LocalizedText($0.value), value: .string($0.value))
        }))
    }

    /// One arm drawn with the weights.
    public func draw(using generator: inout some RandomNumberGenerator) -> String {
        var ticket = Int.random(in: 0..<max(totalWeight, 1), using: &generator)
        for arm in arms {
            if ticket < arm.weight { return arm.value }
            ticket -= arm.weight
        }
        return arms[0].value
    }

    /// One permuted block: each arm its share of the block, in a shuffled order.
    public func block(using generator: inout some RandomNumberGenerator) -> [String] {
        let copies = max(effectiveBlockSize / max(totalWeight, 1), 1)
        var block: [String] = []
        for arm in arms { block += Array(repeating: arm.value, count: arm.weight * copies) }
        block.shuffle(using: &generator)
        return block
    }

    /// The stratum a result falls in: each stratifying answer's values, in order.
    public func stratum(of result: TaskResult) -> String {
        strata.map { selector -> String in
            let values = result.questionResult(selector)?.answer.map(Self.words) ?? ""
            return selector.raw + "=" + values
        }.joined(separator: "&")
    }

    private static func words(_ answer: Answer) -> String {
        switch answer {
        case .choices(let values), .components(let values): return values.map(\.formValue).joined(separator: ",")
        case .text(let text): return text
        case .boolean(let flag): return flag ? "true" : "false"
        default: return answer.number.map { String($0) } ?? ""
        }
    }
}

/// What a store needs to assign an arm: the design, where the run stands, and who it is.
public struct AllocationRequest: Sendable {
    public var survey: String
    public var step: String
    public var design: AllocationContent
    public var stratum: String
    /// The participant parameter's value, when the design names one and the run has it.
    public var participant: String?
    public var run: UUID

    public init(survey: String, step: String, design: AllocationContent, stratum: String, participant: String?, run: UUID) {
        self.survey = survey
        self.step = step
        self.design = design
        self.stratum = stratum
        self.participant = participant
        self.run = run
    }
}
