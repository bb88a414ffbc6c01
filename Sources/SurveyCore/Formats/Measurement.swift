import Foundation
import JSON

/// What height and weight share: the conversions to the centimetres and kilograms a result records.
public enum Measurement {
    static let centimetresPerInch = 2.54
    public static let kilogramsPerPound = 0.453_592_37

    /// Results keep two decimals.
    static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// A typed number, or zero when the box was left empty.
    static func number(_ text: String?, _ context: AnswerContext) -> TypedNumber? {
        text.map { NumberParsing.parse($0, language: context.language) } ?? TypedNumber(value: 0, fractionDigits: 0)
    }
}

extension AnswerContext {
    /// "local" becomes US customary for the regions that use it, metric elsewhere.
    public func resolve(_ system: MeasurementSystem?) -> MeasurementSystem {
        switch system ?? .local {
        case .metric: return .metric
        case .USC: return .USC
        case .local:
            let parts = (language ?? "").uppercased().split(separator: "-")
            return parts.dropFirst().contains(where: { ["US", "LR", "MM"].contains($0) }) ? .USC : .metric
        }
    }
}
