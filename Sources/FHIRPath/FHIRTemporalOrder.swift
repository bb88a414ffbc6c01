import Foundation

/// FHIR's order of two dates or date-times that may stop at any precision (`2022`,
/// `2022-09`, `2022-09-14T10:30`), for the survey's conditions as for FHIRPath: precision by
/// precision from the year, the first difference decides; two values equal as far as the less
/// precise one goes are undecided.
public enum FHIRTemporalOrder: Sendable, Equatable {
    case ordered(ComparisonResult)
    /// Equal as far as the less precise value goes, so FHIR leaves the order unknown.
    case undecided

    /// The order of two FHIR `date` or `dateTime` texts; nil unless both are one.
    public static func of(_ lhs: String, _ rhs: String) -> FHIRTemporalOrder? {
        guard let left = FHIRPathTemporal.parse(lhs), left.kind != .time,
              let right = FHIRPathTemporal.parse(rhs), right.kind != .time else { return nil }
        return FHIRPathTemporal.compare(left, right).map(FHIRTemporalOrder.ordered) ?? .undecided
    }

    /// True when the text is a FHIR `date` or `dateTime` at any precision.
    public static func isDate(_ text: String) -> Bool {
        guard let value = FHIRPathTemporal.parse(text) else { return false }
        return value.kind != .time
    }
}
