import Foundation
import JSON

/// What an expression is evaluated against.
public struct FHIRPathEnvironment: Sendable {
    /// `%resource`, and the focus the expression starts on.
    public var resource: JSONValue?
    /// `%questionnaire`.
    public var questionnaire: JSONValue?
    /// `%context`; the resource when nil.
    public var context: JSONValue?
    /// `%name` → its value.
    public var variables: [String: [FHIRPathValue]]
    /// What `today()` and `now()` give.
    public var clock: Clock

    public init(resource: JSONValue? = nil, questionnaire: JSONValue? = nil, context: JSONValue? = nil,
                variables: [String: [FHIRPathValue]] = [:], clock: Clock = Clock(Date(), in: Clock.utc)) {
        self.resource = resource
        self.questionnaire = questionnaire
        self.context = context
        self.variables = variables
        self.clock = clock
    }

    /// The moment an expression is evaluated at, in a zone. The texts `today()` and `now()`
    /// give are worked out only when an expression calls them.
    public struct Clock: Sendable {
        public let instant: Date
        public let zone: TimeZone

        public init(_ instant: Date, in zone: TimeZone) {
            self.instant = instant
            self.zone = zone
        }

        public static let utc = TimeZone(identifier: "UTC")!

        /// `YYYY-MM-DD`.
        public var today: String { parts.day }

        /// `YYYY-MM-DDThh:mm:ss±hh:mm`.
        public var now: String { parts.moment }

        private var parts: (day: String, moment: String) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let fields = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
            func pad(_ number: Int?, _ width: Int) -> String {
                let digits = String(number ?? 0)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            let day = pad(fields.year, 4) + "-" + pad(fields.month, 2) + "-" + pad(fields.day, 2)
            let offset = zone.secondsFromGMT(for: instant) / 60
            let zoneText = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
            return (day, day + "T" + pad(fields.hour, 2) + ":" + pad(fields.minute, 2) + ":" + pad(fields.second, 2) + zoneText)
        }
    }
}
