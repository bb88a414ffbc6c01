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
    /// The run reached a screen-out ending (a completion step marked `screensOut`).
    case screenedOut
    /// The run met a quota that was already full.
    case quotaFull

    /// Endings a panel pays as a screen-out, sent to the survey's screen-out address.
    public var isScreenOut: Bool { self == .screenedOut || self == .quotaFull }
}
