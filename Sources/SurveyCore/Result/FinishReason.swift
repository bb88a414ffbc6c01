import Foundation
import JSON

/// Why a run ended (ORKTaskFinishReason).
public enum FinishReason: String, Sendable, Hashable, CaseIterable, Codable {
    case completed
    case saved
    case discarded
    case failed
    case earlyTermination
    /// The participant chose Disagree on a consent review (an addition to ResearchKit's reasons).
    case declined
}
