import Foundation
import JSON

/// Why a run ended (ORKTaskFinishReason).
public enum FinishReason: String, Sendable, Hashable, CaseIterable, Codable {
    case completed
    case saved
    case discarded
    case failed
    case earlyTermination
}
