import Foundation
import JSON

public struct ReviewContent: Sendable, Hashable {
    public var excludeInstructionSteps: Bool?
    public init(excludeInstructionSteps: Bool? = nil) { self.excludeInstructionSteps = excludeInstructionSteps }
}
