import Foundation
import JSON

/// Metric or US customary fields for height and weight; "local" follows the participant's region.
public enum MeasurementSystem: String, Sendable, Hashable, CaseIterable {
    case local
    case metric
    case USC
}
