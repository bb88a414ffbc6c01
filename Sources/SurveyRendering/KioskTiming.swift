import Foundation
import JSON
import Mustache
import SurveyAnalysis
import SurveyCore

/// A kiosk's clocks, in seconds: how long a step page waits before it asks "Are you still
/// there?", and how long an end page shows before the start screen comes back.
public struct KioskTiming: Sendable, Hashable {
    public let idleAfter: Int
    public let returnAfter: Int

    public init(idleAfter: Int, returnAfter: Int) {
        self.idleAfter = idleAfter
        self.returnAfter = returnAfter
    }
}
