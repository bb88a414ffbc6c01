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
                variables: [String: [FHIRPathValue]] = [:], clock: Clock = Clock(Date(), in: TimeZone(identifier: "UTC")!)) {
        self.resource = resource
        self.questionnaire = questionnaire
        self.context = context
        self.variables = variables
        self.clock = clock
    }

    /// The moment an expression is evaluated at, as FHIR writes its day and its date-time in a zone.
    public struct Clock: Sendable {
        /// `YYYY-MM-DD`.
        public let today: String
        /// `YYYY-MM-DDThh:mm:ss±hh:mm`.
        public let now: String

        public init(_ instant: Date, in zone: TimeZone) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
            func pad(_ number: Int?, _ width: Int) -> String {
                let digits = String(number ?? 0)
                return String(repeating: "0", count: max(0, width - digits.count)) + digits
            }
            today = pad(parts.year, 4) + "-" + pad(parts.month, 2) + "-" + pad(parts.day, 2)
            let offset = zone.secondsFromGMT(for: instant) / 60
            let zoneText = offset == 0 ? "Z" : (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + ":" + pad(abs(offset) % 60, 2)
            now = today + "T" + pad(parts.hour, 2) + ":" + pad(parts.minute, 2) + ":" + pad(parts.second, 2) + zoneText
        }
    }
}
